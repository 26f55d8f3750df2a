/* datadir: where the bundled catalog, schemas and templates are. */
#define _DEFAULT_SOURCE
#include "datadir.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

static char S_dir[PATH_MAX];
static int S_done;

static int S_has_data(const char *dir)
{
	char probe[PATH_MAX];

	if (snprintf(probe, sizeof(probe), "%s/catalog/catalog.rng", dir) >= (int)sizeof(probe))
		return 0;
	return access(probe, R_OK) == 0;
}

static int S_try(const char *dir)
{
	if (!dir || !*dir || strlen(dir) >= sizeof(S_dir) || !S_has_data(dir))
		return 0;
	strcpy(S_dir, dir);
	return 1;
}

static int S_try_installed(void)
{
	char exe[PATH_MAX], cand[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char *slash;

	if (n <= 0)
		return 0;
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (!slash)
		return 0;
	*slash = '\0';
	if (snprintf(cand, sizeof(cand), "%s/../%s", exe, GS_INSTALL_DATA_REL) >= (int)sizeof(cand))
		return 0;
	return S_try(cand);
}

/* 1 if path starts with the folder dir followed by '/'. */
static int S_under(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	return n > 0 && strncmp(path, dir, n) == 0 && path[n] == '/';
}

/*
 * 1 if the running executable lies in the build tree it was built in. The
 * kernel's /proc/self/exe is already the resolved path; GS_BUILD_DIR is
 * resolved (realpath: a readlink per component) only when it is not
 * literally a prefix of it: a prefix of a resolved path is resolved too.
 */
static int S_in_build_tree(void)
{
	char exe[PATH_MAX], build[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n <= 0)
		return 0;
	exe[n] = '\0';
	if (S_under(exe, GS_BUILD_DIR))
		return 1;
	return realpath(GS_BUILD_DIR, build) && S_under(exe, build);
}

/* A static string, or NULL with why in err when no data folder is found. */
static const char *S_datadir(gs_error *err)
{
	const char *env = getenv("GPUSHEET_DATADIR");

	if (!S_done) {
		S_done = 1;
		S_dir[0] = '\0';
		/* asked for: used, or refused with a word, never passed over */
		if (env && *env)
			S_try(env);
		else if (!S_try_installed() && S_in_build_tree())
			S_try(GS_SOURCE_DATADIR);
	}
	if (S_dir[0])
		return S_dir;
	if (env && *env)
		gs_error_set(err, "GPUSHEET_DATADIR is '%s', which holds no catalog/catalog.rng", env);
	else
		gs_error_set(err, "no data folder next to the binary (../%s with catalog/, schemas/ "
			     "and templates/); set GPUSHEET_DATADIR to one", GS_INSTALL_DATA_REL);
	return NULL;
}

char *gs_datadir_path(char *buf, size_t len, const char *rel, gs_error *err)
{
	const char *d = S_datadir(err);

	if (!d)
		return NULL;
	if (snprintf(buf, len, "%s/%s", d, rel) >= (int)len) {
		gs_error_set(err, "data folder path too long");
		return NULL;
	}
	return buf;
}
