/*
 * datadir: where the bundled catalog, schemas and templates are.
 *
 * Order: $GPUSHEET_DATADIR if set; the install location relative to the
 * running executable (BIN/../share/gpusheet); the source tree the binary was
 * built from. The first folder holding catalog/catalog.rng wins.
 */
#ifndef GS_DATADIR_H
#define GS_DATADIR_H

#include <stddef.h>

/* Returns a static string, or NULL when no data folder is found. */
const char *gs_datadir(void);
/* Writes DATADIR/rel into buf; returns buf, or NULL if it does not fit or no data dir. */
char *gs_datapath(char *buf, size_t len, const char *rel);

#endif
