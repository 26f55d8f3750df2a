/* gpuname: the alias table of GPU names and the vendors' nominal memory. */
#include "gpuname.h"

#include <stddef.h>
#include <string.h>

/*
 * Normalised alias -> canonical model. NULL model: ambiguous. Keep in step
 * with docs/formats.md, section 2.2.
 */
static const struct {
	const char *alias;
	const char *model;
} S_aliases[] = {
	{ "a100", NULL },                 /* 40 GB or 80 GB */
	{ "a10040gb", "A100 40GB" },
	{ "a100sxm440gb", "A100 40GB" },
	{ "a100pcie40gb", "A100 40GB" },
	{ "a10080gb", "A100 80GB" },
	{ "a10080gbpcie", "A100 80GB" },
	{ "a10080gbsxm4", "A100 80GB" },
	{ "a100sxm480gb", "A100 80GB" },
	{ "a100pcie80gb", "A100 80GB" },
	{ "a10", "A10" },
	{ "a6000", "RTX A6000" },
	{ "rtxa6000", "RTX A6000" },
	{ "gh200", NULL },                /* 96 GB HBM3 or 144 GB HBM3e */
	{ "h100", NULL },                 /* SXM, PCIe or NVL */
	{ "h100sxm", "H100 SXM" },
	{ "h100sxm5", "H100 SXM" },
	{ "h100sxm580gb", "H100 SXM" },
	{ "h10080gbhbm3", "H100 SXM" },
	{ "h100pcie", "H100 PCIe" },
	{ "h100nvl", "H100 NVL" },
	{ "h200", "H200" },
	{ "l4", "L4" },
	{ "l40", "L40" },
	{ "l40s", "L40S" },
	{ "rtx4090", "RTX 4090" },
	{ "rtx6000", NULL },              /* Quadro RTX 6000 (24 GB) or RTX 6000 Ada (48 GB) */
	{ "rtx6000ada", "RTX 6000 Ada" },
	{ "rtx6000adageneration", "RTX 6000 Ada" },
	{ "t4", "T4" },
	{ "v100", NULL },                 /* 16 GB or 32 GB */
	{ "v10016gb", "V100 16GB" },
	{ "v100sxm216gb", "V100 16GB" },
	{ "v100pcie16gb", "V100 16GB" },
	{ "v10032gb", "V100 32GB" },
	{ "v100sxm232gb", "V100 32GB" },
	{ "v100pcie32gb", "V100 32GB" },
};

#define S_DATASHEETS "2026-11-30"

static const gs_gpu_nominal S_nominal[] = {
	{ "A10", "24", "NVIDIA A10 Tensor Core GPU datasheet (24 GB GDDR6)", S_DATASHEETS },
	{ "A100 40GB", "40", "NVIDIA A100 Tensor Core GPU datasheet (A100 40GB)", S_DATASHEETS },
	{ "A100 80GB", "80", "NVIDIA A100 Tensor Core GPU datasheet (A100 80GB)", S_DATASHEETS },
	{ "H100 NVL", "94", "NVIDIA H100 Tensor Core GPU datasheet (H100 NVL: 94 GB)", S_DATASHEETS },
	{ "H100 PCIe", "80", "NVIDIA H100 Tensor Core GPU datasheet (H100 PCIe: 80 GB)", S_DATASHEETS },
	{ "H100 SXM", "80", "NVIDIA H100 Tensor Core GPU datasheet (H100 SXM: 80 GB)", S_DATASHEETS },
	{ "H200", "141", "NVIDIA H200 Tensor Core GPU datasheet (141 GB HBM3e)", S_DATASHEETS },
	{ "L4", "24", "NVIDIA L4 Tensor Core GPU datasheet (24 GB GDDR6)", S_DATASHEETS },
	{ "L40", "48", "NVIDIA L40 GPU datasheet (48 GB GDDR6)", S_DATASHEETS },
	{ "L40S", "48", "NVIDIA L40S GPU datasheet (48 GB GDDR6)", S_DATASHEETS },
	{ "RTX 4090", "24", "NVIDIA GeForce RTX 4090 specifications (24 GB GDDR6X)", S_DATASHEETS },
	{ "RTX 6000 Ada", "48", "NVIDIA RTX 6000 Ada Generation datasheet (48 GB GDDR6)", S_DATASHEETS },
	{ "RTX A6000", "48", "NVIDIA RTX A6000 datasheet (48 GB GDDR6)", S_DATASHEETS },
	{ "T4", "16", "NVIDIA T4 Tensor Core GPU datasheet (16 GB GDDR6)", S_DATASHEETS },
	{ "V100 16GB", "16", "NVIDIA V100 Tensor Core GPU datasheet (16 GB HBM2)", S_DATASHEETS },
	{ "V100 32GB", "32", "NVIDIA V100 Tensor Core GPU datasheet (32 GB HBM2)", S_DATASHEETS },
};

static int S_starts(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

const char *gs_gpu_canonical(const char *name, gs_gpu_match *how)
{
	char key[64];
	const char *k = key;
	size_t i, n = 0;

	if (how)
		*how = GS_GPU_UNKNOWN;
	if (!name)
		return NULL;
	for (; *name; name++) {
		char ch = *name;
		if (ch >= 'A' && ch <= 'Z')
			ch = (char)(ch - 'A' + 'a');
		if ((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9')) {
			if (n + 1 >= sizeof(key))
				return NULL;   /* longer than any alias */
			key[n++] = ch;
		}
	}
	key[n] = '\0';
	if (S_starts(k, "nvidia"))
		k += 6;
	if (S_starts(k, "geforce"))
		k += 7;
	else if (S_starts(k, "tesla"))
		k += 5;
	else if (S_starts(k, "quadro"))
		k += 6;
	for (i = 0; i < sizeof(S_aliases) / sizeof(S_aliases[0]); i++)
		if (strcmp(S_aliases[i].alias, k) == 0) {
			if (how)
				*how = S_aliases[i].model ? GS_GPU_KNOWN : GS_GPU_AMBIGUOUS;
			return S_aliases[i].model;
		}
	return NULL;
}

const gs_gpu_nominal *gs_gpu_nominal_of(const char *model)
{
	size_t i;

	if (!model)
		return NULL;
	for (i = 0; i < sizeof(S_nominal) / sizeof(S_nominal[0]); i++)
		if (strcmp(S_nominal[i].model, model) == 0)
			return &S_nominal[i];
	return NULL;
}

static int S_lower(int ch)
{
	return ch >= 'A' && ch <= 'Z' ? ch - 'A' + 'a' : ch;
}

static int S_eq_ci(const char *a, const char *b)
{
	for (; *a && *b; a++, b++)
		if (S_lower((unsigned char)*a) != S_lower((unsigned char)*b))
			return 0;
	return *a == *b;
}

static int S_contains_ci(const char *hay, const char *needle)
{
	size_t n = strlen(needle), i;

	if (!n)
		return 0;
	for (; *hay; hay++) {
		for (i = 0; i < n && hay[i]; i++)
			if (S_lower((unsigned char)hay[i]) != S_lower((unsigned char)needle[i]))
				break;
		if (i == n)
			return 1;
	}
	return 0;
}

int gs_gpu_same(const char *offer_model, const char *offer_device, const char *device_name)
{
	gs_gpu_match hd, ho = GS_GPU_UNKNOWN;
	const char *cd, *co = NULL;

	if (!device_name)
		return 0;
	if (offer_device && S_eq_ci(offer_device, device_name))
		return 1;
	cd = gs_gpu_canonical(device_name, &hd);
	if (offer_device)
		co = gs_gpu_canonical(offer_device, &ho);
	if (ho == GS_GPU_UNKNOWN && offer_model)
		co = gs_gpu_canonical(offer_model, &ho);
	if (hd == GS_GPU_AMBIGUOUS || ho == GS_GPU_AMBIGUOUS)
		return 0;
	if (hd == GS_GPU_KNOWN && ho == GS_GPU_KNOWN)
		return strcmp(cd, co) == 0;
	if (hd == GS_GPU_KNOWN || ho == GS_GPU_KNOWN)
		return 0;
	return !offer_device && offer_model && S_contains_ci(device_name, offer_model);
}
