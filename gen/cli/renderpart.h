/*
 * renderpart: the commands that render (sheet, site, merge, verify), the catalog
 * import (libxml2's writer) and the
 * catalog reader live in a separately loaded part, gpusheet-render.so, so
 * that `estimate`, `kv` and `check` of a JSON file start without loading
 * Cairo, fontconfig, FreeType, X11, libxml2 and its ICU, cmark-gfm, nettle
 * and libpng (33 shared libraries before; see bench/README.md for the
 * start-up times).
 *
 * Why a loaded part and not a second executable: one `gpusheet` command
 * stays the interface, the heavy libraries are paid once by the commands
 * that need them (dlopen costs what the loader would have spent at start-up
 * anyway), and there is no exec or argv forwarding.
 *
 * Invariants:
 *  - the part is looked for next to the running executable (the build
 *    tree), then in BIN/../LIBDIR/gpusheet/ (an install); the first file
 *    found is loaded, once per process, and never unloaded;
 *  - a part from another version or layout is refused (its table carries
 *    GS_VERSION and the table's size);
 *  - the part is loaded RTLD_LAZY but linked -z now: its own references are
 *    all bound at load (one that no library defines is refused there, with
 *    the loader's "undefined symbol: NAME"), while those between the
 *    system libraries it pulls in that are not linked -z now themselves
 *    (libstdc++ under ICU under libxml2: over 1,000) are bound only if
 *    called; the same for the PNG part (pngpart.h);
 *  - when it cannot be loaded, each gs_renderpart_* prints why on stderr and
 *    returns GS_EXIT_INVALID (1); nothing has been written;
 *  - built with -DGPUSHEET_LAZY_RENDER=OFF, everything is linked into the
 *    executable and these functions call the commands directly.
 */
#ifndef GS_RENDERPART_H
#define GS_RENDERPART_H

#include <stddef.h>
#include "diag.h"

/* The part's table; gs_render_part_table in the part. */
typedef struct {
	const char *version;      /* GS_VERSION of the part */
	size_t size;              /* sizeof(gs_render_part) when it was built */
	int (*cmd_sheet)(int argc, char **argv);
	int (*cmd_site)(int argc, char **argv);
	int (*cmd_verify)(int argc, char **argv);
	int (*cmd_catalog)(int argc, char **argv);   /* catalog import: libxml2's writer */
	int (*cmd_merge)(int argc, char **argv);
	/* Reads and validates a catalog, adding every error to d. */
	void (*catalog_check)(const char *path, const char *rng, gs_diag *d);
	int (*cmd_evidence)(int argc, char **argv);  /* evidence import: the archive's SHA-256 */
} gs_render_part;

#define GS_RENDER_PART_SYMBOL "gs_render_part_table"
extern const gs_render_part gs_render_part_table;  /* defined in the part only */

int gs_renderpart_sheet(int argc, char **argv);
int gs_renderpart_site(int argc, char **argv);
int gs_renderpart_verify(int argc, char **argv);
int gs_renderpart_catalog(int argc, char **argv);
int gs_renderpart_merge(int argc, char **argv);
int gs_renderpart_evidence(int argc, char **argv);
/* 0 after the check ran (errors, if any, are in d); -1 when the part
 * cannot be loaded (said on stderr). */
int gs_renderpart_catalog_check(const char *path, const char *rng, gs_diag *d);

#endif
