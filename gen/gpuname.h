/*
 * gpuname: one table of GPU identities, so that "A100-80GB", "A100 80GB"
 * and "NVIDIA A100-SXM4-80GB" name the same card whatever catalog or
 * measurement they come from, and the vendors' nominal memory per model.
 *
 * Invariants:
 *  - a name is normalised by keeping letters and digits only, lower-cased,
 *    and dropping a leading "nvidia", then "geforce", "tesla" or "quadro";
 *    the result is looked up in the alias table (docs/formats.md, section
 *    2.2, lists it);
 *  - a name that several models share ("A100": 40 or 80 GB; "H100": SXM,
 *    PCIe or NVL) is ambiguous: it resolves to no model, and is never
 *    matched by a guess;
 *  - a name not in the table is unknown: it resolves to no model either;
 *  - every nominal figure carries the vendor document and the day it was
 *    read; nothing is computed.
 */
#ifndef GS_GPUNAME_H
#define GS_GPUNAME_H

#include <stdint.h>

typedef enum {
	GS_GPU_UNKNOWN = 0,    /* not in the table */
	GS_GPU_KNOWN = 1,      /* one model */
	GS_GPU_AMBIGUOUS = 2   /* several models share the name */
} gs_gpu_match;

/* Canonical model of name (e.g. "A100 80GB"), or NULL; *how says why. */
const char *gs_gpu_canonical(const char *name, gs_gpu_match *how);

/*
 * Does a device that reports device_name belong to an offer of model
 * offer_model (and, when the catalog gives it, offer_device, the name the
 * offer's device reports)? The same reported name matches; otherwise both
 * names must resolve to the same model. An ambiguous name matches nothing;
 * a name the table knows never matches one it does not. Two names the
 * table does not know match only when the offer states no device name and
 * its model is part of the device's name (case-insensitive).
 */
int gs_gpu_same(const char *offer_model, const char *offer_device, const char *device_name);

typedef struct {
	const char *model;       /* canonical model */
	const char *nominal_gb;  /* vendor's decimal GB per card, e.g. "80" */
	const char *source;      /* vendor document */
	const char *date;        /* YYYY-MM-DD the figure was read */
} gs_gpu_nominal;

/* The vendor's nominal memory of a canonical model, or NULL. */
const gs_gpu_nominal *gs_gpu_nominal_of(const char *model);

#endif
