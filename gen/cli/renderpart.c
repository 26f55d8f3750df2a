/* renderpart: load the rendering part on first use. See renderpart.h. */
#define _DEFAULT_SOURCE
#include "renderpart.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "error.h"

#ifdef GS_RENDER_LINKED

static const gs_render_part *S_part(void)
{
	return &gs_render_part_table;
}

#else

#include <dlfcn.h>

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

#define S_NAME "gpusheet-render.so"

/* The folder of the running executable into dir; 0, or -1. */
static int S_exe_dir(char *dir, size_t cap)
{
	ssize_t n = readlink("/proc/self/exe", dir, cap - 1);
	char *slash;

	if (n <= 0)
		return -1;
	dir[n] = '\0';
	slash = strrchr(dir, '/');
	if (!slash)
		return -1;
	*slash = '\0';
	return 0;
}

/*
 * RTLD_LAZY: the part itself is linked with -z now (CMakeLists.txt), so its
 * own references are all bound here and a symbol missing from a library it
 * needs makes dlopen fail, with the loader's "undefined symbol: NAME" in
 * err. What the lazy mode defers are the function references between the
 * system libraries loaded under it that are not linked with -z now
 * themselves (libstdc++, pulled in by ICU under libxml2, has over 1,000),
 * most of which a run never calls.
 */
static const gs_render_part *S_open(const char *path, gs_error *err)
{
	void *h = dlopen(path, RTLD_LAZY | RTLD_LOCAL);
	const gs_render_part *p;

	if (!h) {
		const char *e = dlerror();

		gs_error_set(err, "%s", e ? e : "dlopen failed");
		return NULL;
	}
	p = (const gs_render_part *)dlsym(h, GS_RENDER_PART_SYMBOL);
	if (!p || p->size != sizeof(*p) || !p->version || strcmp(p->version, GS_VERSION) != 0) {
		gs_error_set(err, "'%s' is not the rendering part of gpusheet %s", path, GS_VERSION);
		dlclose(h);
		return NULL;
	}
	return p;  /* never unloaded: its code runs until exit */
}

static const gs_render_part *S_part(void)
{
	static const gs_render_part *part;
	char dir[PATH_MAX], path[PATH_MAX];
	gs_error why = GS_ERROR_INIT;
	int n;

	if (part)
		return part;
	if (S_exe_dir(dir, sizeof(dir)) == 0) {
		n = snprintf(path, sizeof(path), "%s/%s", dir, S_NAME);
		if (n > 0 && (size_t)n < sizeof(path) && access(path, R_OK) == 0)
			part = S_open(path, &why);
		n = snprintf(path, sizeof(path), "%s/../%s/%s", dir, GS_INSTALL_PART_REL, S_NAME);
		if (!part && n > 0 && (size_t)n < sizeof(path) && access(path, R_OK) == 0)
			part = S_open(path, &why);
	}
	if (!part)
		fprintf(stderr, "gpusheet: cannot load the rendering part %s (next to the "
			"executable or in ../%s): %s\n", S_NAME, GS_INSTALL_PART_REL,
			gs_error_is_set(&why) ? gs_error_message(&why) : "not found");
	gs_error_release(&why);
	return part;
}

#endif

int gs_renderpart_sheet(int argc, char **argv)
{
	const gs_render_part *p = S_part();

	return p ? p->cmd_sheet(argc, argv) : GS_EXIT_INVALID;
}

int gs_renderpart_site(int argc, char **argv)
{
	const gs_render_part *p = S_part();

	return p ? p->cmd_site(argc, argv) : GS_EXIT_INVALID;
}

int gs_renderpart_verify(int argc, char **argv)
{
	const gs_render_part *p = S_part();

	return p ? p->cmd_verify(argc, argv) : GS_EXIT_INVALID;
}

int gs_renderpart_merge(int argc, char **argv)
{
	const gs_render_part *p = S_part();

	return p ? p->cmd_merge(argc, argv) : GS_EXIT_INVALID;
}

int gs_renderpart_catalog(int argc, char **argv)
{
	const gs_render_part *p = S_part();

	return p ? p->cmd_catalog(argc, argv) : GS_EXIT_INVALID;
}

int gs_renderpart_evidence(int argc, char **argv)
{
	const gs_render_part *p = S_part();

	return p ? p->cmd_evidence(argc, argv) : GS_EXIT_INVALID;
}

int gs_renderpart_catalog_check(const char *path, const char *rng, gs_diag *d)
{
	const gs_render_part *p = S_part();

	if (!p)
		return -1;
	p->catalog_check(path, rng, d);
	return 0;
}
