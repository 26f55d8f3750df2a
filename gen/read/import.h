/*
 * import: offers from a maintained public price catalog, turned into our
 * catalog XML (catalog/catalog.rng).
 *
 * The one format read today is SkyPilot's per-provider `vms.csv`. Columns
 * are found by their header name, never by position: InstanceType,
 * AcceleratorName, AcceleratorCount, Price and Region are required;
 * SpotPrice, GpuInfo, AvailabilityZone and MemoryGiB (the host's memory)
 * are read when present; any other column is ignored.
 *
 * Invariants:
 *  - one offer per instance type (Google Cloud's accelerators without one:
 *    per GPU name and count), each plan (a distinct price) with the regions
 *    and zones it is sold in; the on-demand price and the spot price become
 *    plans of one hour each, the spot one interruptible; a row without a
 *    price (empty, 0, SkyPilot's placeholder 700.0) adds no plan;
 *  - identical rows count once; a row that cannot be read (a bad figure, a
 *    price or a GPU disagreeing with an earlier row of the same instance
 *    type) is skipped with a warning naming its line and why, and the rest
 *    of the file is imported; with opts.strict it is an error instead;
 *  - the memory rule comes from the file's own figures, never from the
 *    provider's name: the unit (SizeInMiB figures all below 1024 are GB),
 *    per card or per lot (how SizeInMiB follows the card count), whether a
 *    bare-name file's MemoryGiB is GPU memory or host RAM (the vendor
 *    table's verdict on most rows); every figure is then checked against
 *    the vendor table (gpuname.h), both figures shown when they disagree;
 *  - rows without a GPU, TPU slices and fractions of one GPU are skipped
 *    and counted;
 *  - nothing is invented: without a source date every claim leaves its
 *    date out and carries the source reference; every claim names the
 *    provider, the file and the lines it comes from;
 *  - a bad header, a CSV syntax error or no offer at all refuses the file.
 *
 * GpuInfo is a Python literal (a dict of lists, strings and numbers) read
 * by a small strict parser bounded in depth (8) and size (the CSV field).
 */
#ifndef GS_IMPORT_H
#define GS_IMPORT_H

#include <stddef.h>
#include "diag.h"

/* Inputs larger than this are refused before they are read. */
#define GS_IMPORT_MAX_BYTES (16u * 1024u * 1024u)

typedef struct {
	const char *file;         /* name of the CSV file, as claims cite it */
	const char *provider;     /* e.g. "Lambda" */
	const char *source_date;  /* YYYY-MM-DD, or NULL: not known */
	const char *source_ref;   /* e.g. "commit 1158013", or NULL */
	int strict;               /* 1: a row that cannot be read refuses the file */
	const char *path;         /* the path as given (a provider's folder names it), or NULL */
} gs_import_opts;

/*
 * Imports data[0..len) in SkyPilot's vms.csv format. On success returns 0,
 * *xml (malloc'd, NUL-terminated, *xml_len bytes) and *report (malloc'd,
 * one paragraph) and, when notes is not NULL, *notes (malloc'd: one line per
 * figure of the file not used, each line skipped, and the memory summary,
 * for stderr). On failure returns -1 with every error in d, sets neither
 * xml nor report, and still hands over *notes (the warnings so far) when
 * notes is not NULL. The caller validates the XML against the schema.
 */
int gs_import_skypilot(const char *data, size_t len, const gs_import_opts *opt,
		       char **xml, size_t *xml_len, char **report, char **notes, gs_diag *d);

#endif
