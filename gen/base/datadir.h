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

/* Why no data folder was found none (a message naming what was tried), or NULL. */
const char *gs_datadir_error(void);
/* Writes DATADIR/rel into buf; returns buf, or NULL if it does not fit or no data dir. */
char *gs_datapath(char *buf, size_t len, const char *rel);

#endif
