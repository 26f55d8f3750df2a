/*
 * chart_png: gs_chart_png_render and gs_chart_png_ready, the entry points
 * of the PNG part, which the rendering part loads on first use (or finds
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

static const gs_png_part *S_load(void)
{
	static const gs_png_part *part;
	static int tried;
	char path[PATH_MAX];
	gs_error why = GS_ERROR_INIT;
	const char *slash;
	Dl_info info;
	void *h;
	int n;

	if (part || tried)
		return part;
	tried = 1;
	/* next to the part this code is in */
	if (!dladdr((void *)S_load, &info) || !info.dli_fname || !(slash = strrchr(info.dli_fname, '/'))) {
		fprintf(stderr, "gpusheet: cannot load the PNG part %s: cannot tell where the "
			"rendering part is\n", GS_PNG_PART_NAME);
		return NULL;
	}
	n = snprintf(path, sizeof(path), "%.*s/%s", (int)(slash - info.dli_fname), info.dli_fname,
		     GS_PNG_PART_NAME);
	if (n <= 0 || (size_t)n >= sizeof(path)) {
		fprintf(stderr, "gpusheet: cannot load the PNG part %s: path too long\n", GS_PNG_PART_NAME);
		return NULL;
	}
	h = dlopen(path, RTLD_LAZY | RTLD_LOCAL);   /* the part is linked -z now: see renderpart.c */
	if (!h) {
		const char *e = dlerror();
		gs_error_set(&why, "%s", e ? e : "dlopen failed");
	} else {
		const gs_png_part *p = (const gs_png_part *)dlsym(h, GS_PNG_PART_SYMBOL);
		if (p && p->size == sizeof(*p) && p->version && strcmp(p->version, GS_VERSION) == 0 &&
		    p->render) {
			part = p;   /* never unloaded */
			return part;
		}
		gs_error_set(&why, "'%s' is not the PNG part of gpusheet %s", path, GS_VERSION);
		dlclose(h);
	}
	fprintf(stderr, "gpusheet: cannot load the PNG part %s (needed by --png): %s\n",
		GS_PNG_PART_NAME, gs_error_message(&why));
	gs_error_release(&why);
	return NULL;
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
