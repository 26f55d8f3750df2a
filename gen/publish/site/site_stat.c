/*
 * site: the stat cache, what lets an unchanged rebuild trust an input
 * unread, as git's index does: per workload, the size, inode, mtime and
 * ctime (nanoseconds) of its file and of each file it cites, as they were
 * when it was read, with what its validation learnt (id, title, SHA-256,
 * the cited files' names and SHA-256). A workload whose files all have the
 * stat fields recorded is not read again: its recorded hashes are trusted.
 *
 * The cache is not in OUT: OUT's bytes are the same for the same inputs
 * (a rebuild, a clean build, a merge of shards; the committed site/), and
 * inodes and times are not. It lies beside OUT (`.NAME.gpusheet-stat`,
 * NAME OUT's last component), names the keys file of the site it was
 * written for by its own stat fields (another OUT, or a site rebuilt by an
 * older gpusheet: the cache is ignored), and is a line per workload
 * (JSON arrays), sorted by path:
 *
 *   ["gpusheet-stat/2","<the keys file's stat>","SIGNATURE","<the folders' stat>",PAGES]
 *   ["PATH","<stat>","SHA-256","ID","TITLE",[["NAME","SHA-256"],...]]
 *
 * SIGNATURE is what the build was asked (gs_site_keys_signature: the site key,
 * the reference workload, the paths in their order); the folders' stat,
 * that of OUT and of each folder under it, recursively, by name; PAGES, the
 * keyed pages it had. When the signature is the one of this build, every
 * folder of OUT has the stat fields recorded, and every path is trusted
 * unread, OUT is what the build would write, byte for byte: it is left
 * untouched (gs_site_stat_unchanged), as git leaves an unchanged
 * index alone. A file added to OUT, removed or renamed there changes its
 * folder's times, and the build runs.
 *
 * Git's racy rule: a file whose mtime or ctime is not older than the
 * cache's own mtime is read again; and a file whose times are not older
 * than the start of the build that read it is never recorded (it may have
 * changed between the reading and the stat). A workload citing a model's
 * files or an imported log is not recorded (read every time).
 */
#define _DEFAULT_SOURCE
#include "site_ctx.h"

#include <dirent.h>
#include <fcntl.h>
#include <errno.h>
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "infile.h"
#include "outfile.h"
#include "util.h"

#define S_FORMAT "gpusheet-stat/2"
/* (the deepest folder of OUT recorded: a site has one level) */
#define S_TREE_DEPTH 8

static int S_ts_before(const struct timespec *a, const struct timespec *b)
{
	return a->tv_sec < b->tv_sec || (a->tv_sec == b->tv_sec && a->tv_nsec < b->tv_nsec);
}

/* *newest, the latest of itself and st's times. */
static void S_newest(struct timespec *newest, const struct stat *st)
{
	if (S_ts_before(newest, &st->st_mtim))
		*newest = st->st_mtim;
	if (S_ts_before(newest, &st->st_ctim))
		*newest = st->st_ctim;
}

/*
 * The stat fields of st, a regular file (folder 0) or a folder (1),
 * appended to *text (then ';'); 0, or -1 when it is not of that type or a
 * time is not before since (NULL: no bound).
 */
static int S_stat_put(gs_buf *text, const struct stat *st, int folder,
		      const struct timespec *since)
{
	char buf[160];
	int l;

	if (folder ? !S_ISDIR(st->st_mode) : !S_ISREG(st->st_mode))
		return -1;
	if (since && (!S_ts_before(&st->st_mtim, since) || !S_ts_before(&st->st_ctim, since)))
		return -1;
	l = snprintf(buf, sizeof(buf), "%s%llu %llu %lld.%09ld %lld.%09ld", text->len ? ";" : "",
		     (unsigned long long)st->st_size, (unsigned long long)st->st_ino,
		     (long long)st->st_mtim.tv_sec, st->st_mtim.tv_nsec,
		     (long long)st->st_ctim.tv_sec, st->st_ctim.tv_nsec);
	gs_buf_put(text, buf, (size_t)l);
	return 0;
}

char *gs_site_stat_text(const struct stat *wst, const gs_strvec *ev_path,
			const struct timespec *since, struct timespec *newest, uint64_t *sizes)
{
	gs_buf text = GS_BUF_INIT;
	size_t k;
	struct stat st;

	if (S_stat_put(&text, wst, 0, since))
		goto no;
	if (newest) {
		memset(newest, 0, sizeof(*newest));
		S_newest(newest, wst);
	}
	for (k = 0; k < ev_path->n; k++) {
		if (!*ev_path->v[k] || stat(ev_path->v[k], &st) != 0 ||
		    S_stat_put(&text, &st, 0, since))
			goto no;
		if (newest)
			S_newest(newest, &st);
		if (sizes)
			sizes[k] = (uint64_t)st.st_size;
	}
	return gs_buf_detach(&text, NULL);
no:
	gs_buf_release(&text);
	return NULL;
}

/* The cache's path for the site dir: beside it. */
static char *S_cache_path(const char *dir)
{
	char *p = gs_xstrdup(dir), *slash, *out;
	size_t n = strlen(p);

	while (n > 1 && p[n - 1] == '/')
		p[--n] = '\0';
	slash = strrchr(p, '/');
	if (slash)
		out = gs_xasprintf("%.*s.%s.gpusheet-stat", (int)(slash - p + 1), p, slash + 1);
	else
		out = gs_xasprintf(".%s.gpusheet-stat", p);
	free(p);
	return out;
}

/* The stat text of dir's keys file, or NULL. */
static char *S_keys_stat(const char *dir)
{
	char *path = gs_xasprintf("%s/%s", dir, GS_SITE_KEYS_FILE), *t;
	gs_strvec none = GS_STRVEC_INIT;
	struct stat st;

	/* (the file itself, never a link's target) */
	t = lstat(path, &st) == 0 ? gs_site_stat_text(&st, &none, NULL, NULL, NULL) : NULL;
	free(path);
	return t;
}

/*
 * The stat fields of folder dir, then of each folder under it by name,
 * recursively, appended to *text; newest, the latest of their times. 0,
 * or -1 (not a folder, unreadable, too deep).
 */
static int S_tree_put(gs_buf *text, const char *dir, int depth, struct timespec *newest)
{
	struct stat st;
	DIR *d;
	struct dirent *e;
	gs_strvec sub = GS_STRVEC_INIT;
	size_t i;
	int rc = -1;

	if (depth > S_TREE_DEPTH || lstat(dir, &st) != 0 || S_stat_put(text, &st, 1, NULL))
		return -1;
	S_newest(newest, &st);
	d = opendir(dir);
	if (!d)
		return -1;
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.' && (!e->d_name[1] || (e->d_name[1] == '.' && !e->d_name[2])))
			continue;
		if (e->d_type == DT_DIR)
			gs_util_strvec_push(&sub, gs_xasprintf("%s/%s", dir, e->d_name));
		else if (e->d_type == DT_UNKNOWN) {
			char *p = gs_xasprintf("%s/%s", dir, e->d_name);
			struct stat sb;
			if (lstat(p, &sb) == 0 && S_ISDIR(sb.st_mode))
				gs_util_strvec_push(&sub, p);
			else
				free(p);
		}
	}
	closedir(d);
	if (sub.n)
		qsort(sub.v, sub.n, sizeof(*sub.v), gs_util_strcmp_ptr);
	for (i = 0; i < sub.n; i++)
		if (S_tree_put(text, sub.v[i], depth + 1, newest))
			goto out;
	rc = 0;
out:
	gs_util_strvec_release(&sub);
	return rc;
}

/* The stat text of the folders of dir (S_tree_put), or NULL; *newest their latest time. */
static char *S_tree_stat(const char *dir, struct timespec *newest)
{
	gs_buf text = GS_BUF_INIT;

	memset(newest, 0, sizeof(*newest));
	if (S_tree_put(&text, dir, 0, newest)) {
		gs_buf_release(&text);
		return NULL;
	}
	return gs_buf_detach(&text, NULL);
}

typedef struct {
	const char *path;   /* (owned by the cache: freed as char *) */
	json_t *e;
} S_ref;

struct gs_site_statcache {
	S_ref *v;
	size_t n;
	struct timespec mtime;   /* the cache's own */
	char *signature, *tree;  /* the header's (S_FORMAT) */
	size_t pages;
};

static int S_ref_cmp(const void *a, const void *b)
{
	return strcmp(((const S_ref *)a)->path, ((const S_ref *)b)->path);
}

void gs_site_stat_free(gs_site_statcache *s)
{
	size_t i;

	if (!s)
		return;
	for (i = 0; i < s->n; i++) {
		free((void *)(uintptr_t)s->v[i].path);
		json_decref(s->v[i].e);
	}
	free(s->v);
	free(s->signature);
	free(s->tree);
	free(s);
}

/*
 * The cache's bytes (a regular file beside OUT, opened without following a
 * link nor blocking, at most GS_SITE_KEYS_MAX_BYTES) and its mtime, or
 * NULL: no cache, or one that is not a file gpusheet wrote (a FIFO, a
 * device, a link, a folder, a file over the bound), which is then
 * ignored: the build reads everything and replaces it.
 */
static char *S_cache_read(const char *path, size_t *len, struct timespec *mtime)
{
	int fd = gs_infile_open_at(AT_FDCWD, path, 0, GS_SITE_KEYS_MAX_BYTES, NULL);
	struct stat st;

	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) != 0) {
		close(fd);
		return NULL;
	}
	*mtime = st.st_mtim;
	return gs_infile_read_fd(fd, GS_SITE_KEYS_MAX_BYTES, len, NULL);
}

/* The next line of text[*at, len) (without its '\n'), its length in *n; NULL at the end. */
static const char *S_line(const char *text, size_t len, size_t *at, size_t *n)
{
	const char *p = text + *at, *nl;

	if (*at >= len)
		return NULL;
	nl = memchr(p, '\n', len - *at);
	*n = nl ? (size_t)(nl - p) : len - *at;
	*at += *n + (nl ? 1 : 0);
	return p;
}

gs_site_statcache *gs_site_stat_open(const char *dir)
{
	char *path = S_cache_path(dir), *keys = S_keys_stat(dir), *text = NULL;
	gs_site_statcache *s = NULL;
	size_t vcap = 0, len = 0, at = 0, n = 0;
	struct timespec mtime;
	const char *line;
	json_t *h = NULL;

	if (keys)
		text = S_cache_read(path, &len, &mtime);
	free(path);
	if (!text)
		goto out;
	line = S_line(text, len, &at, &n);
	h = line && n ? json_loadb(line, n, 0, NULL) : NULL;
	if (!json_is_array(h) || json_array_size(h) != 5 ||
	    !json_string_value(json_array_get(h, 0)) ||
	    strcmp(json_string_value(json_array_get(h, 0)), S_FORMAT) != 0 ||
	    !json_string_value(json_array_get(h, 1)) ||
	    strcmp(json_string_value(json_array_get(h, 1)), keys) != 0 ||
	    !json_string_value(json_array_get(h, 2)) || !json_string_value(json_array_get(h, 3)) ||
	    !json_is_integer(json_array_get(h, 4)) || json_integer_value(json_array_get(h, 4)) < 0)
		goto out;
	s = gs_xcalloc(1, sizeof(*s));
	s->mtime = mtime;
	s->signature = gs_xstrdup(json_string_value(json_array_get(h, 2)));
	s->tree = gs_xstrdup(json_string_value(json_array_get(h, 3)));
	s->pages = (size_t)json_integer_value(json_array_get(h, 4));
	while ((line = S_line(text, len, &at, &n)) != NULL) {
		json_t *e = n ? json_loadb(line, n, 0, NULL) : NULL;
		const char *p = json_string_value(json_array_get(e, 0));
		if (!p || json_array_size(e) != 6) {
			json_decref(e);
			continue;   /* not trusted: the workload is read */
		}
		if (s->n == vcap) {
			vcap = vcap ? 2 * vcap : 256;
			s->v = gs_xrealloc(s->v, vcap * sizeof(*s->v));
		}
		s->v[s->n].path = gs_xstrdup(p);
		s->v[s->n++].e = e;
	}
	if (s->n)
		qsort(s->v, s->n, sizeof(*s->v), S_ref_cmp);
out:
	json_decref(h);
	free(text);
	free(keys);
	return s;
}

/*
 * What the cache recorded of the workload at path, into in (empty
 * before), when every one of its files has the stat fields recorded and
 * none is as new as the cache (the racy rule): 1, sizes (of the cited
 * files, in->ev_path.n of them, caller frees) set; else 0, in empty.
 */
int gs_site_stat_get(const gs_site_statcache *s, const char *path, gs_site_input *in,
			  uint64_t **sizes)
{
	S_ref key, *r;
	json_t *e, *ev, *x;
	const char *slash = strrchr(path, '/');
	int dl = slash ? (int)(slash - path) + 1 : 0;
	struct timespec newest;
	struct stat wst;
	const char *stat_rec, *sha, *id, *title;
	char *now = NULL;
	size_t k;

	memset(in, 0, sizeof(*in));
	*sizes = NULL;
	if (!s || !s->n)
		return 0;
	key.path = path;
	r = bsearch(&key, s->v, s->n, sizeof(*s->v), S_ref_cmp);
	if (!r)
		return 0;
	e = r->e;
	stat_rec = json_string_value(json_array_get(e, 1));
	sha = json_string_value(json_array_get(e, 2));
	id = json_string_value(json_array_get(e, 3));
	title = json_string_value(json_array_get(e, 4));
	ev = json_array_get(e, 5);
	if (!stat_rec || !sha || !gs_evidence_sha256_hex_valid(sha) || !id || !title || !json_is_array(ev))
		return 0;
	json_array_foreach(ev, k, x) {
		const char *name = json_string_value(json_array_get(x, 0));
		const char *fsha = json_string_value(json_array_get(x, 1));
		if (!name || !*name || !fsha || !gs_evidence_sha256_hex_valid(fsha))
			goto no;
		gs_util_strvec_push(&in->ev_path, gs_xasprintf("%.*s%s", dl, path, name));
		gs_util_strvec_push_dup(&in->ev_file, name);
		gs_util_strvec_push_dup(&in->ev_sha256, fsha);
	}
	if (stat(path, &wst) != 0)
		goto no;
	*sizes = gs_xcalloc(in->ev_path.n + 1, sizeof(**sizes));
	now = gs_site_stat_text(&wst, &in->ev_path, NULL, &newest, *sizes);
	if (!now || strcmp(now, stat_rec) != 0 || !S_ts_before(&newest, &s->mtime))
		goto no;
	in->id = gs_xstrdup(id);
	in->title = gs_xstrdup(title);
	snprintf(in->sha256, sizeof(in->sha256), "%s", sha);
	in->stat = now;
	return 1;
no:
	free(now);
	free(*sizes);
	*sizes = NULL;
	gs_site_learnt_input_release(in);
	return 0;
}

/*
 * 1 when the site at dir is what a build of signature over paths would
 * write (the header's comment): the signature recorded, every folder of dir
 * as recorded and older than the cache (git's racy rule), every path
 * trusted unread and no other recorded; *pages, the keyed pages it has.
 * Else 0: the build runs.
 */
int gs_site_stat_unchanged(const gs_site_statcache *s, const char *dir, char *const *paths,
				size_t npaths, const char *signature, size_t *pages)
{
	struct timespec newest;
	char *tree;
	size_t i;
	int same;

	if (!s || !*signature || strcmp(s->signature, signature) != 0 || s->n != npaths)
		return 0;
	tree = S_tree_stat(dir, &newest);
	same = tree && strcmp(tree, s->tree) == 0 && S_ts_before(&newest, &s->mtime);
	free(tree);
	for (i = 0; same && i < npaths; i++) {
		gs_site_input in;
		uint64_t *sizes;
		same = gs_site_stat_get(s, paths[i], &in, &sizes);
		if (same) {
			free(sizes);
			gs_site_learnt_input_release(&in);
		}
	}
	if (same)
		*pages = s->pages;
	return same;
}

static int S_path_cmp(const void *a, const void *b)
{
	return strcmp(((const gs_site_idref *)a)->id, ((const gs_site_idref *)b)->id);
}

/*
 * The cache beside dir (committed: the site's keys file in place) for the
 * paths [from, from + n) of learnt; what it cannot write, it removes (the
 * next build reads everything). Never an error of the build.
 */
/* One JSON value and a newline written to f; 0, or -1 (not dumped or not written). */
static int S_put_line(FILE *f, json_t *v)
{
	char *t = v ? json_dumps(v, JSON_COMPACT) : NULL;
	int rc;

	if (!t)
		return -1;
	rc = fputs(t, f) < 0 || putc('\n', f) == EOF ? -1 : 0;
	free(t);
	return rc;
}

/*
 * Waits, a clock tick at most, until the file clock is past t: a file
 * written then has an mtime later than t. Without it, a cache written in
 * the tick of OUT's last change would never be trusted (the racy rule reads
 * a time equal to the cache's as new), and an untouched site would be
 * rebuilt once more. The file clock is the coarse one; bounded at 0.2 s
 * (a clock stepped back: the next build runs, as without the wait).
 */
static void S_wait_past(const struct timespec *t)
{
	struct timespec now, pause = { 0, 1000000 };
	int k;

	for (k = 0; k < 200; k++) {
		if (clock_gettime(CLOCK_REALTIME_COARSE, &now) != 0 || S_ts_before(t, &now))
			return;
		nanosleep(&pause, NULL);
	}
}

/*
 * The lines are written to the temporary file as they are made, not built
 * in memory first: a line holds the workload's path, so the text of all of
 * them grew with the path's length (a checkout 30 folders deep put its
 * peak 1.4 MiB higher at 800 workloads than at 200, site-memory.sh).
 */
void gs_site_stat_write(const char *dir, char *const *paths, size_t from, size_t n,
			     gs_site_learnt *learnt, const char *signature, size_t pages)
{
	char *path = S_cache_path(dir), *slash = strrchr(path, '/');
	char *keys = S_keys_stat(dir);
	struct timespec newest;
	/* (a shard, without a signature, is never left untouched: no folders) */
	char *tree = signature ? S_tree_stat(dir, &newest) : NULL;
	gs_site_idref *order = NULL;
	gs_outstream *o = NULL;
	FILE *f;
	json_t *h;
	size_t i;
	int ok;

	/* the old cache goes first: whatever fails below, none that lies is left */
	(void)unlink(path);
	if (!keys || !learnt)
		goto out;
	/* every line is written after the wait: the file's mtime is past the
	 * folders' newest change */
	if (tree)
		S_wait_past(&newest);
	/* the one writer: a temporary file created O_EXCL|O_NOFOLLOW beside
	 * it, synced, renamed over it; never a predictable name opened (a
	 * FIFO or a link planted there) */
	if (slash) {
		*slash = '\0';
		o = gs_outfile_stream_open(*path ? path : "/", slash + 1, NULL);
	} else {
		o = gs_outfile_stream_open(".", path, NULL);
	}
	if (!o)
		goto out;
	f = gs_outfile_stream_file(o);
	/* (no folders' stat: never unchanged, the build runs) */
	h = json_pack("[ssssI]", S_FORMAT, keys, signature ? signature : "", tree ? tree : "",
		      (json_int_t)pages);
	ok = S_put_line(f, h) == 0;
	json_decref(h);
	order = gs_xcalloc(n + 1, sizeof(*order));
	for (i = 0; i < n; i++) {
		order[i].id = paths[from + i];
		order[i].i = from + i;
	}
	qsort(order, n, sizeof(*order), S_path_cmp);
	for (i = 0; ok && i < n; i++) {
		gs_site_learnt_item it;
		json_t *p, *ev, *e;
		size_t k;
		/* (the cache is not written then: no message) */
		if (gs_site_learnt_get(learnt, order[i].i, &it, NULL)) {
			ok = 0;
			break;
		}
		if (!it.id || !*it.stat)
			continue;
		p = json_string(order[i].id);
		if (!p)
			continue;   /* not UTF-8: read every time */
		ev = json_array();
		for (k = 0; k < it.nev; k++)
			json_array_append_new(ev, json_pack("[ss]", gs_site_learnt_ev_file(&it, k),
							    gs_site_learnt_ev_sha256(&it, k)));
		e = json_pack("[osssso]", p, it.stat, it.sha256, it.id, it.title, ev);
		ok = S_put_line(f, e) == 0;
		json_decref(e);
	}
	if (ok)
		(void)gs_outfile_stream_commit(o, NULL);
	else
		gs_outfile_stream_abort(o);
out:
	free(order);
	free(tree);
	free(keys);
	free(path);
}
