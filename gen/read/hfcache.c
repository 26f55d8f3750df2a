/* hfcache: a model in the local Hugging Face cache, by repo id and revision (hfcache.h). */
#define _DEFAULT_SOURCE
#include "hfcache.h"
#include "infile.h"
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A refs/ file holds a commit: anything longer is not one. */
#define S_MAX_REF_BYTES 256
#define S_MAX_PART 96
#define S_MAX_REVISION 255

static int S_part_ok(const char *s, size_t n)
{
	size_t i;

	if (n == 0 || n > S_MAX_PART || s[0] == '.' || s[0] == '-')
		return 0;
	for (i = 0; i < n; i++) {
		char c = s[i];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      c == '.' || c == '_' || c == '-'))
			return 0;
		if (i + 1 < n && ((c == '.' && s[i + 1] == '.') || (c == '-' && s[i + 1] == '-')))
			return 0;
	}
	return 1;
}

int gs_hfcache_is_repo_id(const char *s)
{
	const char *slash = strchr(s, '/');

	return slash && !strchr(slash + 1, '/') && S_part_ok(s, (size_t)(slash - s)) &&
	       S_part_ok(slash + 1, strlen(slash + 1));
}

int gs_hfcache_is_commit(const char *s)
{
	size_t i;

	for (i = 0; i < GS_HF_COMMIT_LEN; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return 0;
	return s[i] == '\0';
}

int gs_hfcache_split_ref(const char *ref, char **repo, char **rev)
{
	const char *at = strchr(ref, '@');
	char *r = at ? gs_xasprintf("%.*s", (int)(at - ref), ref) : gs_xstrdup(ref);

	if (!gs_hfcache_is_repo_id(r) || (at && (!at[1] || strlen(at + 1) > S_MAX_REVISION))) {
		free(r);
		return -1;
	}
	*repo = r;
	*rev = at ? gs_xstrdup(at + 1) : NULL;
	return 0;
}

/*
 * The cache folder and the variable it came from; -1 with a message in d
 * when none can be named (no HF_HUB_CACHE, HF_HOME or HOME).
 */
static int S_cache_root(char **root, const char **from, gs_diag *d)
{
	const char *v = getenv("HF_HUB_CACHE");

	if (v && *v) {
		*root = gs_xstrdup(v);
		*from = "HF_HUB_CACHE";
		return 0;
	}
	v = getenv("HF_HOME");
	if (v && *v) {
		*root = gs_xasprintf("%s/hub", v);
		*from = "HF_HOME";
		return 0;
	}
	v = getenv("HOME");
	if (v && *v) {
		*root = gs_xasprintf("%s/.cache/huggingface/hub", v);
		*from = "HOME";
		return 0;
	}
	gs_diag_add(d, "Hugging Face cache", 0, 0, NULL, "no folder to look in: set HF_HUB_CACHE "
		    "(or HF_HOME, or HOME)");
	return -1;
}

/* The Hub command that fetches only a repo's small files (caller frees). */
static char *S_fetch_hint(const char *repo_id, const char *revision)
{
	return gs_xasprintf("huggingface-cli download %s%s%s --include '*.json'", repo_id,
			    revision ? " --revision " : "", revision ? revision : "");
}

static void S_init(gs_hf_model *h)
{
	memset(h, 0, sizeof(*h));
	h->repo_fd = -1;
	h->snap_fd = -1;
}

void gs_hfcache_release(gs_hf_model *h)
{
	if (!h)
		return;
	free(h->root);
	free(h->repo_id);
	free(h->repo_dir);
	free(h->revision);
	free(h->commit);
	free(h->snapshot);
	free(h->repo_real);
	if (h->repo_fd >= 0)
		close(h->repo_fd);
	if (h->snap_fd >= 0)
		close(h->snap_fd);
	S_init(h);
}

/* The names of the files directly under refs/, sorted, ", "-joined, or NULL. */
static char *S_ref_names(int repo_fd)
{
	int fd = openat(repo_fd, "refs", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	DIR *dp;
	struct dirent *e;
	gs_strvec v = GS_STRVEC_INIT;
	char *out = NULL;
	size_t i;

	if (fd < 0)
		return NULL;
	dp = fdopendir(fd);
	if (!dp) {
		close(fd);
		return NULL;
	}
	while ((e = readdir(dp)) != NULL && v.n < 50)
		if (e->d_name[0] != '.')
			gs_util_strvec_push_dup(&v, e->d_name);
	closedir(dp);
	gs_util_strvec_sort(&v);
	for (i = 0; i < v.n; i++) {
		char *n = gs_xasprintf("%s%s%s", out ? out : "", out ? ", " : "", v.v[i]);
		free(out);
		out = n;
	}
	gs_util_strvec_release(&v);
	return out;
}

/* The revision's commit: itself, or the content of refs/REVISION. */
static int S_resolve(gs_hf_model *h, gs_diag *d)
{
	gs_error err = GS_ERROR_INIT;
	char *text, *refs_dir;
	size_t len;
	int fd;

	if (gs_hfcache_is_commit(h->revision)) {
		h->commit = gs_xstrdup(h->revision);
		return 0;
	}
	refs_dir = gs_xasprintf("%s/refs", h->repo_dir);
	fd = gs_infile_open_beneath(refs_dir, h->revision, S_MAX_REF_BYTES, &err);
	if (fd < 0) {
		char *names = S_ref_names(h->repo_fd);
		char *hint = S_fetch_hint(h->repo_id ? h->repo_id : "ORG/NAME", h->revision);
		gs_diag_add(d, refs_dir, 0, 0, NULL, "no revision \"%s\" here (%s); %s%s; "
			    "a revision is a branch, a tag or a commit of 40 hex digits; gpusheet "
			    "never downloads: fetch its small files with: %s", h->revision,
			    gs_error_message(&err), names ? "the refs here: " : "no refs here",
			    names ? names : "", hint);
		gs_error_release(&err);
		free(names);
		free(hint);
		free(refs_dir);
		return -1;
	}
	text = gs_infile_read_fd(fd, S_MAX_REF_BYTES, &len, &err);
	if (!text) {
		gs_diag_add(d, refs_dir, 0, 0, NULL, "refs/%s: %s", h->revision, gs_error_message(&err));
		gs_error_release(&err);
		free(refs_dir);
		return -1;
	}
	while (len > 0 && (text[len - 1] == '\n' || text[len - 1] == '\r'))
		text[--len] = '\0';
	if (!gs_hfcache_is_commit(text)) {
		gs_diag_add(d, refs_dir, 0, 0, NULL, "refs/%s does not hold a commit of 40 hex "
			    "digits", h->revision);
		free(text);
		free(refs_dir);
		return -1;
	}
	h->commit = text;
	free(refs_dir);
	return 0;
}

/* Opens repo_dir, resolves the revision and opens its snapshot. */
static int S_open_repo(gs_hf_model *h, gs_diag *d)
{
	char real[PATH_MAX];
	int sfd;

	h->repo_fd = open(h->repo_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (h->repo_fd < 0) {
		int e = errno;
		char *hint = S_fetch_hint(h->repo_id, h->revision && strcmp(h->revision, "main")
					      ? h->revision : NULL);
		if (h->root)
			gs_diag_add(d, h->repo_id, 0, 0, NULL, "not in the Hugging Face cache: "
				    "looked for %s (%s); the cache is %s%s. gpusheet never "
				    "downloads: fetch the small files (config.json and the *.json "
				    "indexes, not the weights) with: %s", h->repo_dir, strerror(e),
				    h->root, strcmp(h->root_from, "HOME") == 0
				    ? ", the default (set HF_HUB_CACHE or HF_HOME for another)"
				    : strcmp(h->root_from, "HF_HOME") == 0 ? ", from HF_HOME"
				    : ", from HF_HUB_CACHE", hint);
		else
			gs_diag_add(d, h->repo_dir, 0, 0, NULL, "cannot open the folder: %s",
				    strerror(e));
		free(hint);
		return -1;
	}
	if (!realpath(h->repo_dir, real)) {
		gs_diag_add(d, h->repo_dir, 0, 0, NULL, "cannot resolve the folder: %s",
			    strerror(errno));
		return -1;
	}
	h->repo_real = gs_xstrdup(real);
	if (S_resolve(h, d))
		return -1;
	h->snapshot = gs_xasprintf("%s/snapshots/%s", h->repo_dir, h->commit);
	sfd = openat(h->repo_fd, "snapshots", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (sfd >= 0) {
		h->snap_fd = openat(sfd, h->commit, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		close(sfd);
	}
	if (h->snap_fd < 0) {
		char *hint = S_fetch_hint(h->repo_id, h->commit);
		gs_diag_add(d, h->snapshot, 0, 0, NULL, "revision \"%s\" is commit %s, whose "
			    "snapshot folder is not in the cache (%s); gpusheet never downloads: "
			    "fetch its small files with: %s", h->revision, h->commit,
			    strerror(errno), hint);
		free(hint);
		return -1;
	}
	return 0;
}

int gs_hfcache_open(const char *repo_id, const char *revision, gs_hf_model *h, gs_diag *d)
{
	char *folder;

	S_init(h);
	if (!gs_hfcache_is_repo_id(repo_id)) {
		gs_diag_add(d, repo_id, 0, 0, NULL, "not a repo id ORG/NAME");
		return -1;
	}
	if (S_cache_root(&h->root, &h->root_from, d))
		return -1;
	h->repo_id = gs_xstrdup(repo_id);
	h->revision = gs_xstrdup(revision ? revision : "main");
	folder = gs_xstrdup(repo_id);
	*strchr(folder, '/') = '\0';
	h->repo_dir = gs_xasprintf("%s/models--%s--%s", h->root, folder, folder + strlen(folder) + 1);
	free(folder);
	if (S_open_repo(h, d)) {
		gs_hfcache_release(h);
		return -1;
	}
	return 0;
}

/* "models--ORG--NAME" -> "ORG/NAME", or NULL. */
static char *S_repo_from_folder(const char *base, size_t n)
{
	const char *p = base + 8, *sep;
	char *id;

	if (n <= 8 || strncmp(base, "models--", 8) != 0)
		return NULL;
	sep = strstr(p, "--");
	if (!sep || sep >= base + n)
		return NULL;
	id = gs_xasprintf("%.*s/%.*s", (int)(sep - p), p, (int)(base + n - sep - 2), sep + 2);
	if (!gs_hfcache_is_repo_id(id)) {
		free(id);
		return NULL;
	}
	return id;
}

int gs_hfcache_open_path(const char *path, const char *revision, gs_hf_model *h, gs_diag *d)
{
	char real[PATH_MAX], *id, *last, *prev;
	size_t n;

	if (!realpath(path, real))
		return 0;
	n = strlen(real);
	last = strrchr(real, '/');
	if (!last || n < 2)
		return 0;
	/* models--ORG--NAME */
	id = S_repo_from_folder(last + 1, strlen(last + 1));
	if (id) {
		struct stat st;
		char *snaps = gs_xasprintf("%s/snapshots", real);
		int is_repo = stat(snaps, &st) == 0 && S_ISDIR(st.st_mode);
		free(snaps);
		if (!is_repo) {
			free(id);
			return 0;
		}
		S_init(h);
		h->repo_id = id;
		h->repo_dir = gs_xstrdup(real);
		h->revision = gs_xstrdup(revision ? revision : "main");
		if (S_open_repo(h, d)) {
			gs_hfcache_release(h);
			return -1;
		}
		return 1;
	}
	/* models--ORG--NAME/snapshots/COMMIT */
	*last = '\0';
	prev = strrchr(real, '/');
	if (!prev || strcmp(prev + 1, "snapshots") != 0)
		return 0;
	*prev = '\0';
	{
		char *rd = strrchr(real, '/');
		id = rd ? S_repo_from_folder(rd + 1, strlen(rd + 1)) : NULL;
	}
	if (!id)
		return 0;
	S_init(h);
	h->repo_id = id;
	h->repo_dir = gs_xstrdup(real);
	h->revision = gs_xstrdup(last + 1);
	if (revision && strcmp(revision, last + 1) != 0) {
		gs_diag_add(d, path, 0, 0, NULL, "is the snapshot of commit %s, not of revision "
			    "\"%s\"", last + 1, revision);
		gs_hfcache_release(h);
		return -1;
	}
	if (!gs_hfcache_is_commit(h->revision)) {
		gs_diag_add(d, path, 0, 0, NULL, "a snapshot folder is named by a commit of 40 "
			    "hex digits, not \"%s\"", h->revision);
		gs_hfcache_release(h);
		return -1;
	}
	if (S_open_repo(h, d)) {
		gs_hfcache_release(h);
		return -1;
	}
	return 1;
}

/*
 * The blob a link of the snapshot points to: its target read as text,
 * resolved from snapshots/COMMIT/ of the repo folder (or from the root for
 * an absolute target within repo_real), must be blobs/NAME. NAME into out.
 */
static int S_blob_name(const gs_hf_model *h, const char *target, char *out, size_t outlen)
{
	/* the link's folder, relative to the repo folder: snapshots/COMMIT */
	const char *stack[64];
	size_t depth = 0, n;
	const char *p;
	char buf[PATH_MAX];

	if (target[0] == '/') {
		n = strlen(h->repo_real);
		if (strncmp(target, h->repo_real, n) != 0 || target[n] != '/')
			return -1;
		p = target + n + 1;
	} else {
		stack[depth++] = "snapshots";
		stack[depth++] = h->commit;
		p = target;
	}
	if (strlen(p) >= sizeof(buf))
		return -1;
	memcpy(buf, p, strlen(p) + 1);
	for (p = strtok(buf, "/"); p; p = strtok(NULL, "/")) {
		if (strcmp(p, ".") == 0)
			continue;
		if (strcmp(p, "..") == 0) {
			if (depth == 0)
				return -1;  /* out of the model's folder */
			depth--;
			continue;
		}
		if (depth == sizeof(stack) / sizeof(stack[0]))
			return -1;
		stack[depth++] = p;
	}
	if (depth != 2 || strcmp(stack[0], "blobs") != 0 || strlen(stack[1]) >= outlen)
		return -1;
	memcpy(out, stack[1], strlen(stack[1]) + 1);
	return 0;
}

int gs_hfcache_open_file(const gs_hf_model *h, const char *name, size_t max_bytes, gs_error *err)
{
	struct stat st;
	char target[PATH_MAX], blob[256];
	ssize_t n;
	int bfd, fd;

	if (fstatat(h->snap_fd, name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
		gs_error_set(err, "cannot read: %s", strerror(errno));
		return -1;
	}
	if (!S_ISLNK(st.st_mode))
		return gs_infile_open_at(h->snap_fd, name, 0, max_bytes, err);
	n = readlinkat(h->snap_fd, name, target, sizeof(target) - 1);
	if (n < 0) {
		gs_error_set(err, "cannot read the link: %s", strerror(errno));
		return -1;
	}
	target[n] = '\0';
	if (S_blob_name(h, target, blob, sizeof(blob))) {
		gs_error_set(err, "is a symbolic link to '%s', outside the blobs/ of %s (not "
			 "followed: a snapshot's links lead only into its own model's blobs/)",
			 target, h->repo_dir);
		return -1;
	}
	bfd = openat(h->repo_fd, "blobs", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (bfd < 0) {
		gs_error_set(err, "is a link to blobs/%s, but %s/blobs cannot be opened: %s",
			 blob, h->repo_dir, strerror(errno));
		return -1;
	}
	if (fstatat(bfd, blob, &st, AT_SYMLINK_NOFOLLOW) != 0 && errno == ENOENT) {
		gs_error_set(err, "is a dangling symbolic link to '%s' (blobs/%s is not in the "
			 "cache: an interrupted download, or a removed blob)", target, blob);
		close(bfd);
		return -1;
	}
	fd = gs_infile_open_at(bfd, blob, 0, max_bytes, err);
	close(bfd);
	if (fd < 0)
		gs_error_prefix(err, "links to blobs/%s, which ", blob);
	return fd;
}
