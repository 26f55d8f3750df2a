/*
 * datadir: where the bundled catalog, schemas and templates are.
 *
 * A data folder holds catalog/catalog.rng. $GPUSHEET_DATADIR, when set and
 * not empty, is the only one tried: used, or refused with a message (never
 * passed over in silence). Else the install location relative to the
 * running executable (BIN/../share/gpusheet), and only for a binary that
 * lies in its own build tree, the source tree it was built from: an
 * installed binary never falls back to a source tree.
 */
#ifndef GS_DATADIR_H
#define GS_DATADIR_H

#include <stddef.h>

#include "error.h"

/*
 * Writes DATADIR/rel into buf; returns buf, or NULL with why in err (err may
 * be NULL): no data folder (a message naming what was tried), or "data
 * folder path too long".
 */
char *gs_datadir_path(char *buf, size_t len, const char *rel, gs_error *err);

#endif
