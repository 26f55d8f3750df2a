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

#include <stddef.h>
#include <stdint.h>

typedef enum {
	GS_GPU_UNKNOWN = 0,    /* not in the table */
	GS_GPU_KNOWN = 1,      /* one model */
	GS_GPU_AMBIGUOUS = 2   /* several models share the name */
} gs_gpu_match;

/* Canonical model of name (e.g. "A100 80GB"), or NULL; *how says why. */
const char *gs_gpuname_canonical(const char *name, gs_gpu_match *how);
/*
 * The platform of an accelerator that is no CUDA or ROCm GPU, by the
 * offer's model or device name: "AWS Neuron" (Inferentia, Trainium),
 * "Intel Gaudi" (Gaudi, Gaudi2, Gaudi HL-205), "FPGA" (Xilinx Virtex); NULL
 * for a GPU or a name not known. An engine runs on them through builds of
 * its own (vLLM's Neuron and Gaudi plugins) whose memory budget is not the
 * GPU engine's.
 */
const char *gs_gpuname_non_gpu(const char *offer_model, const char *offer_device);

/*
 * Does a device that reports device_name belong to an offer of model
 * offer_model (and, when the catalog gives it, offer_device, the name the
 * offer's device reports)? The same reported name matches; otherwise both
 * names must resolve to the same model. An ambiguous name matches nothing;
 * a name the table knows never matches one it does not. Two names the
 * table does not know match only when the offer states no device name and
 * its model is part of the device's name (case-insensitive).
 */
int gs_gpuname_same(const char *offer_model, const char *offer_device, const char *device_name);

typedef struct {
	const char *model;       /* canonical model */
	const char *nominal_gb;  /* vendor's decimal GB per card, e.g. "80" */
	const char *source;      /* vendor document named, with the figure */
	const char *date;        /* YYYY-MM-DD the figure was read */
	unsigned gb;             /* nominal_gb as a number */
	const char *checked;     /* public page the figure was checked against (URL) */
	const char *reported;    /* a device total a public source reports, in its words, or NULL */
	const char *reported_source;   /* where (URL), or NULL */
	/*
	 * That total in bytes, as the CUDA runtime reports it (cudaMemGetInfo's
	 * total, PyTorch's "total capacity", vLLM's total_gpu_memory): the
	 * smallest figure found in public logs of this model, a printed GiB
	 * figure taken as printed (x 2^30, to its last digit); 0: none found.
	 * Never an nvidia-smi figure, which counts memory the runtime cannot
	 * allocate.
	 */
	uint64_t reported_bytes;
	/* NVIDIA compute capability x 10 (7.0 -> 70; GS_GPUNAME_CC_SOURCE); 0: not
	 * an NVIDIA card, or not known */
	unsigned cc;
	const char *vendor;      /* "NVIDIA" or "AMD" (ROCm, not CUDA); NULL: not stated */
} gs_gpu_nominal;

/* Where the compute capabilities and the formats each one computes come from. */
#define GS_GPUNAME_CC_SOURCE "NVIDIA, CUDA GPUs compute capability table, https://developer.nvidia.com/cuda-gpus"
#define GS_GPUNAME_FORMAT_SOURCE "NVIDIA, CUDA C++ Programming Guide, \"Compute Capabilities\" (bf16 tensor cores from 8.0, fp8 from 8.9)"

/*
 * The vendor entry of an offer's GPU: by its device name, else its model
 * name; a name several cards share (V100: 16 or 32 GB) resolved by the
 * offer's figure per card (bytes; 0: none) when it agrees with exactly one
 * of them (gs_gpuname_check_memory). NULL: unknown, still ambiguous, or a
 * figure that disagrees with the name's entry.
 */
const gs_gpu_nominal *gs_gpuname_resolve(const char *model, const char *device, uint64_t bytes);

/*
 * The variants an ambiguous name may mean that the offer's figure per card
 * (bytes) agrees with, in out[0..n) (at most 3), by its device name, else
 * its model name, as gs_gpuname_resolve reads them: "H100" with 80 GB is
 * H100 SXM or H100 PCIe. 0 when neither name is ambiguous, without a
 * figure (a variant the table cannot cite may then be meant), or when no
 * variant agrees. Only the variants the ambiguous-name table lists.
 */
size_t gs_gpuname_allowed(const char *model, const char *device, uint64_t bytes, const char *out[3]);

/*
 * The lowest compute capability (x 10) that computes a numeric format on
 * NVIDIA tensor cores: 80 for bf16, 89 for fp8 (e4m3/e5m2), 0 for a format
 * every CUDA card computes or one this table does not know.
 */
unsigned gs_gpuname_cc_for_format(const char *format);
/* A compute capability x 10 as NVIDIA writes it ("7.0"), a static string. */
const char *gs_gpuname_cc_text(unsigned cc);

/* The vendor's nominal memory of a canonical model, or NULL. */
const gs_gpu_nominal *gs_gpuname_nominal_of(const char *model);

/* Every entry of the vendor table, in model order (for listings and tests). */
const gs_gpu_nominal *gs_gpuname_table(size_t *n);

/*
 * The bytes per card a figure for entry e may take and still agree with
 * it: from 7 % below the nominal decimal figure (GB x 10^9 x 93 / 100; a
 * device reports 1.5-7 % below nominal, and GDDR cards with ECC on give
 * 15/16, which lies above that bound) to the nominal figure read as GiB
 * (GB x 2^30, what providers write: 81920 MiB for an 80 GB card).
 */
void gs_gpuname_window(const gs_gpu_nominal *e, uint64_t *lo, uint64_t *hi);

typedef enum {
	GS_GPU_CHECK_UNKNOWN = 0,    /* no vendor figure for this name: the file's figure stands unchecked */
	GS_GPU_CHECK_AGREES = 1,     /* the file's figure is within *e's window: kept */
	GS_GPU_CHECK_DISAGREES = 2,  /* the file's figure is outside it: *e's figure is used instead */
	GS_GPU_CHECK_VENDOR = 3,     /* no figure in the file: *e's figure is used */
	GS_GPU_CHECK_AMBIGUOUS = 4   /* the name means several cards and the figure does not pick one */
} gs_gpu_check;

/*
 * Cross-checks a provider's per-card figure (bytes, 0: none given) for a
 * GPU named name against the vendor table. A name that means several
 * cards (A100: 40 or 80 GB) is resolved only by the figure, when it
 * agrees with exactly one nominal figure among them; never by the name.
 * *e is the entry to cite, or NULL (UNKNOWN, AMBIGUOUS).
 */
gs_gpu_check gs_gpuname_check_memory(const char *name, uint64_t bytes, const gs_gpu_nominal **e);

/* The candidates' models of an ambiguous name, joined with " or ", in buf. */
const char *gs_gpuname_candidates_text(const char *name, char *buf, size_t n);

#endif
