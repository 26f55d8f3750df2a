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
 *  - one offer per instance type, with the regions it is offered in; the
 *    on-demand price and the spot price become two plans of one hour each,
 *    the spot one interruptible; a row without a price adds no plan;
 *  - identical rows count once; two rows for the same instance type,
 *    region and zone that disagree are refused with both line numbers, and
 *    so are rows of one instance type that disagree on the GPU or count;
 *  - memory per card: GpuInfo's MemoryInfo.SizeInMiB (a provider's MiB,
 *    x 2^20 bytes, assumed); else the vendor's nominal figure for the GPU
 *    (gpuname.h); else none (missing);
 *  - rows without a GPU are skipped and counted;
 *  - nothing is invented: without a source date every claim leaves its
 *    date out and carries the source reference; every claim names the
 *    provider, the file and the lines it comes from;
 *  - any error refuses the whole file: no XML is returned.
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
} gs_import_opts;

/*
 * Imports data[0..len) in SkyPilot's vms.csv format. On success returns 0,
 * *xml (malloc'd, NUL-terminated, *xml_len bytes) and *report (malloc'd,
 * one paragraph) and, when notes is not NULL, *notes (malloc'd: one line per
 * figure of the file not used, and the memory summary, for stderr). On failure returns -1 with every error in d and sets
 * neither output. The caller validates the XML against the schema.
 */
int gs_import_skypilot(const char *data, size_t len, const gs_import_opts *opt,
		       char **xml, size_t *xml_len, char **report, char **notes, gs_diag *d);

#endif
