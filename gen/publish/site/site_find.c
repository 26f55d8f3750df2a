/* site: finding the workloads under the --workloads folders. */
#define _DEFAULT_SOURCE
#include "site_ctx.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "shard.h"
#include "buf.h"
#include "util.h"

/*
 * An entry's kind as lstat(2) would tell it, from the folder's own listing
 * where the file system gives it (d_type: no lstat per name), else lstat.
 * 'd' folder, 'f' regular file, 'o' anything else or gone.
 */
static char S_kind(const char *path, unsigned char type)
{
	struct stat st;

	switch (type) {
	case DT_DIR: return 'd';
	case DT_REG: return 'f';
	case DT_UNKNOWN: break;
	default: return 'o';
	}
	if (lstat(path, &st) != 0)
		return 'o';
	return S_ISDIR(st.st_mode) ? 'd' : S_ISREG(st.st_mode) ? 'f' : 'o';
}

/*
 * A JSON file not named workload.json that is a workload sheet all the same
 * (its first 4 KiB name the schema): skipped, and said so. Opened without
 * following a link or blocking; asked only of files outside every
 * workload's folder (inside one, a JSON file is evidence, read once, by its
 * sheet).
 */
static int S_looks_like_workload(const char *path)
{
	char buf[4097];
	struct stat st;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY);

	if (fd < 0)
		return 0;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return 0;
	}
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	return strstr(buf, "\"gpusheet-workload\"") != NULL;
}

static void S_skipped(gs_strvec *skipped, const char *dir, const char *path, const char *name,
		      char kind, int in_workload)
{
	size_t n = strlen(name);

	if (!skipped)
		return;
	if (strcmp(name, "workload.json") == 0 && kind != 'f' && kind != 'd')
		gs_util_strvec_push(skipped, gs_xasprintf("%s: not a regular file (a link is not "
						     "followed)", path));
	else if (!in_workload && kind == 'f' && n > 5 && strcmp(name + n - 5, ".json") == 0 &&
		 strcmp(name, "workload.json") != 0 && S_looks_like_workload(path))
		gs_util_strvec_push(skipped, gs_xasprintf("%s: a workload sheet not named "
						     "workload.json (the site reads one "
						     "workload.json a folder: move it to "
						     "%s/%.*s/workload.json)", path, dir,
						     (int)(n - 5), name));
}

/* The folders S_walk goes down from a --workloads folder. */
#define S_MAX_DEPTH 32

/*
 * The paths found, end to end in one block as they are found: each path
 * is made, copied into the block and freed at once, so that no path is
 * held twice. (A list of the paths copied into the block at the end held
 * every path twice at that moment; under AddressSanitizer, where a small
 * allocation costs its size and a red zone, that raised the peak of a site
 * of 800 workloads whose paths are 600 bytes long by ~0.6 MiB.)
 */
typedef struct {
	gs_buf block;
	size_t *at, n, cap;   /* at[i]: where path i starts in block */
} S_found;

static void S_found_add(S_found *f, const char *p)
{
	if (f->n == f->cap) {
		f->cap = f->cap ? 2 * f->cap : 64;
		f->at = gs_xrealloc(f->at, f->cap * sizeof(*f->at));
	}
	f->at[f->n++] = f->block.len;
	gs_buf_put(&f->block, p, strlen(p) + 1);
}

static int S_walk(const char *dir, S_found *out, gs_strvec *skipped, gs_diag *d, int depth,
		  int in_workload)
{
	DIR *dp;
	struct dirent *e;
	gs_strvec names = GS_STRVEC_INIT;
	size_t i;

	/* a folder nested deeper is an error that names it, never dropped
	 * silently (links are not followed: no loop; the bound keeps the
	 * recursion and the paths short) */
	if (depth > S_MAX_DEPTH) {
		gs_diag_add(d, dir, 0, 0, NULL,
			    "folder too deep: more than %d folders under the --workloads folder, "
			    "not searched for workloads", S_MAX_DEPTH);
		return -1;
	}
	dp = opendir(dir);
	if (!dp) {
		gs_diag_add(d, dir, 0, 0, NULL, "cannot open the folder");
		return -1;
	}
	while ((e = readdir(dp)) != NULL) {
		size_t n = strlen(e->d_name);
		char *name;
		if (e->d_name[0] == '.')
			continue;
		/* "NAME\0T": sorted by NAME, with its d_type T after the NUL */
		name = gs_xmalloc(n + 2);
		memcpy(name, e->d_name, n + 1);
		name[n + 1] = (char)e->d_type;
		gs_util_strvec_push(&names, name);
	}
	closedir(dp);
	/* Sorted, so that the site does not depend on the file system's order. */
	gs_util_strvec_sort(&names);
	for (i = 0; i < names.n && !in_workload; i++)
		in_workload = strcmp(names.v[i], "workload.json") == 0;
	for (i = 0; i < names.n; i++) {
		const char *name = names.v[i];
		char *p = gs_xasprintf("%s/%s", dir, name);
		char kind = S_kind(p, (unsigned char)name[strlen(name) + 1]);
		if (kind == 'd') {
			S_walk(p, out, skipped, d, depth + 1, in_workload);
			free(p);
		} else if (kind == 'f' && strcmp(name, "workload.json") == 0) {
			S_found_add(out, p);
			free(p);
		} else {
			S_skipped(skipped, dir, p, name, kind, in_workload);
			free(p);
		}
	}
	gs_util_strvec_release(&names);
	return 0;
}

int gs_site_find_workloads(const char *const *dirs, size_t ndirs, char ***paths,
			   size_t *npaths, gs_strvec *skipped, gs_diag *d)
{
	S_found f = { GS_BUF_INIT, NULL, 0, 0 };
	size_t i, before = gs_diag_count(d);
	char *block;

	for (i = 0; i < ndirs; i++) {
		size_t n = strlen(dirs[i]);
		char *dir = gs_xstrdup(dirs[i]);
		while (n > 1 && dir[n - 1] == '/')
			dir[--n] = '\0';
		S_walk(dir, &f, skipped, d, 0, 0);
		free(dir);
	}
	/* end to end in one block, paths[0] at its start (gs_site_find_free_paths) */
	*paths = gs_xcalloc(f.n + 1, sizeof(**paths));
	block = gs_buf_detach(&f.block, NULL);
	for (i = 0; i < f.n; i++)
		(*paths)[i] = block + f.at[i];
	if (!f.n)
		free(block);
	free(f.at);
	*npaths = f.n;
	return gs_diag_count(d) > before ? -1 : 0;
}

void gs_site_find_free_paths(char **paths, size_t n)
{
	if (paths && n)
		free(paths[0]);
	free(paths);
}
