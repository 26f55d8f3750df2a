/*
 * chart_png: gs_chart_png_render and gs_chart_png_ready, the entry points
 * of the PNG part, which the executable loads on first use (or finds
 * linked in, GS_PNG_LINKED) and calls through its table. See pngpart.h.
 */
#define _GNU_SOURCE
#include "chart.h"
#include "chart_list.h"
#include "pngpart.h"
#include "error.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

#ifdef GS_PNG_LINKED

static const gs_png_part *S_load(void)
{
	return &gs_png_part_table;
}

#else

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

/* The part at path, or NULL with why. The part is linked -z now: each of
 * its own references is bound here, a missing one refused with the
 * loader's "undefined symbol: NAME" (CMakeLists.txt). */
static const gs_png_part *S_open(const char *path, gs_error *why)
{
	void *h = dlopen(path, RTLD_LAZY | RTLD_LOCAL);
	const gs_png_part *p;

	if (!h) {
		const char *e = dlerror();

		gs_error_set(why, "%s", e ? e : "dlopen failed");
		return NULL;
	}
	p = (const gs_png_part *)dlsym(h, GS_PNG_PART_SYMBOL);
	if (!p || p->size != sizeof(*p) || !p->version || strcmp(p->version, GS_VERSION) != 0 ||
	    !p->render) {
		gs_error_set(why, "'%s' is not the PNG part of gpusheet %s", path, GS_VERSION);
		dlclose(h);
		return NULL;
	}
	return p;   /* never unloaded */
}

static const gs_png_part *S_load(void)
{
	static const gs_png_part *part;
	static int tried;
	char dir[PATH_MAX], path[PATH_MAX];
	gs_error why = GS_ERROR_INIT;
	int n;

	if (part || tried)
		return part;
	tried = 1;
	if (S_exe_dir(dir, sizeof(dir)) == 0) {
		/* next to the executable (the build tree), then the install's */
		n = snprintf(path, sizeof(path), "%s/%s", dir, GS_PNG_PART_NAME);
		if (n > 0 && (size_t)n < sizeof(path) && access(path, R_OK) == 0)
			part = S_open(path, &why);
		n = snprintf(path, sizeof(path), "%s/../%s/%s", dir, GS_INSTALL_PART_REL,
			     GS_PNG_PART_NAME);
		if (!part && !gs_error_is_set(&why) && n > 0 && (size_t)n < sizeof(path) &&
		    access(path, R_OK) == 0)
			part = S_open(path, &why);
	}
	if (!part)
		fprintf(stderr, "gpusheet: cannot load the PNG part %s (needed by --png; next "
			"to the executable or in ../%s): %s\n", GS_PNG_PART_NAME,
			GS_INSTALL_PART_REL,
			gs_error_is_set(&why) ? gs_error_message(&why) : "not found");
	gs_error_release(&why);
	return part;
}

#endif

int gs_chart_png_ready(void)
{
	return S_load() != NULL;
}

int gs_chart_png_render(const gs_chart_list *l, gs_buf *out)
{
	const gs_png_part *p = S_load();

	return p ? p->render(l, out) : -1;
}
