/* gpuname: the alias table of GPU names and the vendors' nominal memory. */
#include "gpuname.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "util.h"

/*
 * Normalised alias -> canonical model. NULL model: ambiguous (S_ambiguous
 * lists what it may mean), in strcmp order of the alias (gs_gpuname_canonical
 * halves it). Keep in step with docs/formats.md, section 2.2.
 */
static const struct {
	const char *alias;
	const char *model;
} S_aliases[] = {
	{ "a10", "A10" },
	{ "a100", NULL },
	{ "a10040gb", "A100 40GB" },
	{ "a10080gb", "A100 80GB" },
	{ "a10080gbpcie", "A100 80GB" },
	{ "a10080gbsxm", "A100 80GB" },
	{ "a10080gbsxm4", "A100 80GB" },
	{ "a10080gpcie", "A100 80GB" },
	{ "a10080gpcienvlink", "A100 80GB" },
	{ "a10080gsxm4", "A100 80GB" },
	{ "a100pcie40gb", "A100 40GB" },
	{ "a100pcie80gb", "A100 80GB" },
	{ "a100sxm440gb", "A100 40GB" },
	{ "a100sxm480gb", "A100 80GB" },
	{ "a10g", "A10G" },
	{ "a16", "A16" },
	{ "a16pcie", "A16" },
	{ "a2000", "RTX A2000" },
	{ "a40", "A40" },
	{ "a4000", "RTX A4000" },
	{ "a4000pcie", "RTX A4000" },
	{ "a4500", "RTX A4500" },
	{ "a5000", "RTX A5000" },
	{ "a5000pcie", "RTX A5000" },
	{ "a6000", "RTX A6000" },
	{ "a6000pciehighperf", "RTX A6000" },
	{ "a6000pcielowram", "RTX A6000" },
	{ "a800", NULL },
	{ "a80040gb", "A800 40GB" },
	{ "a80080gb", "A800 80GB" },
	{ "a800pcie40gb", "A800 40GB" },
	{ "amdinstinctmi300x", "MI300X" },
	{ "amdinstinctmi325x", "MI325X" },
	{ "amdinstinctmi355x", "MI355X" },
	{ "b200", "B200" },
	{ "b300", "B300" },
	{ "b300sxm6ac", "B300" },
	{ "gaudi2", "Gaudi2" },
	{ "gaudihl205", "Gaudi HL-205" },
	{ "gb200", "GB200" },
	{ "gb300", "GB300" },
	{ "gh200", NULL },
	{ "gh20096gb", "GH200 96GB" },
	{ "h100", NULL },
	{ "h10080gbhbm3", "H100 SXM" },
	{ "h10080gpcie", "H100 PCIe" },
	{ "h10080gpcienvlink", "H100 PCIe" },
	{ "h10080gsxm5", "H100 SXM" },
	{ "h100mega", "H100 SXM" },
	{ "h100nvl", "H100 NVL" },
	{ "h100nvlink", NULL },
	{ "h100pcie", "H100 PCIe" },
	{ "h100pciebaremetal", "H100 PCIe" },
	{ "h100sxm", "H100 SXM" },
	{ "h100sxm5", "H100 SXM" },
	{ "h100sxm580gb", "H100 SXM" },
	{ "h200", "H200" },
	{ "h200nvl", "H200" },
	{ "h200sxm", "H200" },
	{ "inferentia", "Inferentia" },
	{ "inferentia2", "Inferentia2" },
	{ "instinctmi300x", "MI300X" },
	{ "instinctmi325x", "MI325X" },
	{ "instinctmi355x", "MI355X" },
	{ "k80", "K80" },
	{ "l4", "L4" },
	{ "l40", "L40" },
	{ "l40pcie", "L40" },
	{ "l40s", "L40S" },
	{ "l40spcie", "L40S" },
	{ "l40spciebaremetal", "L40S" },
	{ "l4pcie", "L4" },
	{ "m60", "M60" },
	{ "mi25", "MI25" },
	{ "mi300x", "MI300X" },
	{ "mi325x", "MI325X" },
	{ "mi355x", "MI355X" },
	{ "p100", "P100" },
	{ "p4", "P4" },
	{ "radeoninstinctmi25", "MI25" },
	{ "radeonmi25", "MI25" },
	{ "rtx3060", "RTX 3060" },
	{ "rtx3070", "RTX 3070" },
	{ "rtx3080", "RTX 3080" },
	{ "rtx3090", "RTX 3090" },
	{ "rtx3090ti", "RTX 3090 Ti" },
	{ "rtx4000ada", "RTX 4000 Ada" },
	{ "rtx4000adageneration", "RTX 4000 Ada" },
	{ "rtx4060", "RTX 4060" },
	{ "rtx4070", "RTX 4070" },
	{ "rtx4090", "RTX 4090" },
	{ "rtx5090", "RTX 5090" },
	{ "rtx5090pcie", "RTX 5090" },
	{ "rtx5090pciebaremetal", "RTX 5090" },
	{ "rtx6000", NULL },
	{ "rtx6000ada", "RTX 6000 Ada" },
	{ "rtx6000adageneration", "RTX 6000 Ada" },
	{ "rtx6000adapcie", "RTX 6000 Ada" },
	{ "rtxa2000", "RTX A2000" },
	{ "rtxa4000", "RTX A4000" },
	{ "rtxa4500", "RTX A4500" },
	{ "rtxa5000", "RTX A5000" },
	{ "rtxa6000", "RTX A6000" },
	{ "rtxpro6000", "RTX PRO 6000 Blackwell" },
	{ "rtxpro600096gb", "RTX PRO 6000 Blackwell" },
	{ "rtxpro6000blackwell", "RTX PRO 6000 Blackwell" },
	{ "rtxpro6000pcie", "RTX PRO 6000 Blackwell" },
	{ "rtxpro6000pciebaremetal", "RTX PRO 6000 Blackwell" },
	{ "rtxpro6000s", "RTX PRO 6000 Blackwell" },
	{ "rtxpro6000ws", "RTX PRO 6000 Blackwell" },
	{ "rtxproserver6000", "RTX PRO 6000 Blackwell" },
	{ "t4", "T4" },
	{ "t4g", "T4G" },
	{ "trainium", "Trainium" },
	{ "trainium2", "Trainium2" },
	{ "v100", NULL },
	{ "v10016gb", "V100 16GB" },
	{ "v10032gb", "V100 32GB" },
	{ "v10032gpcie", "V100 32GB" },
	{ "v100pcie16gb", "V100 16GB" },
	{ "v100pcie32gb", "V100 32GB" },
	{ "v100sxm216gb", "V100 16GB" },
	{ "v100sxm232gb", "V100 32GB" },
};

/*
 * What an ambiguous name may mean. A variant the table cannot cite (the
 * GH200 with HBM3e) is not listed: the name stays ambiguous even with one
 * candidate, so only the file's figure can pick it.
 */
static const struct {
	const char *alias;
	const char *models[3];
} S_ambiguous[] = {
	{ "a100", { "A100 40GB", "A100 80GB", NULL } },
	{ "a800", { "A800 40GB", "A800 80GB", NULL } },
	{ "gh200", { "GH200 96GB", NULL, NULL } },
	{ "h100", { "H100 SXM", "H100 PCIe", "H100 NVL" } },
	{ "h100nvlink", { "H100 SXM", "H100 PCIe", "H100 NVL" } },
	{ "rtx6000", { "Quadro RTX 6000", "RTX 6000 Ada", NULL } },
	{ "v100", { "V100 16GB", "V100 32GB", NULL } },
};

/* A figure printed in hundredths of a GiB, in bytes, as printed. */
#define S_CGIB(h) ((uint64_t)(h) * UINT64_C(1073741824) / 100u)

/* The day every figure below was read and checked. */
#define S_READ "2026-12-01"

/*
 * The vendor table, by model. source names the vendor's document and its
 * figure; checked is the public page the figure was checked against on
 * S_READ; reported is a device total a public source gives, with where.
 * A figure no page could be found for is left out (docs/formats.md, 2.2).
 */
static const gs_gpu_nominal S_nominal[] = {
	{ "A10", "24", "NVIDIA A10 Tensor Core GPU datasheet (24 GB GDDR6)", S_READ, 24,
	  "https://www.baseten.co/blog/nvidia-a10-vs-a10g-for-ml-model-inference/", NULL, NULL, 0, 86, "NVIDIA" },
	{ "A100 40GB", "40", "NVIDIA A100 Tensor Core GPU datasheet, nvidia-a100-datasheet-us-nvidia-1758950-r4-web.pdf (A100 40GB: 40 GB HBM2)", S_READ, 40,
	  "https://glennklockwood.com/garden/processors/A100",
	  "42405855232 bytes (CUDA deviceQuery, total amount of global memory)",
	  "https://upb-pc2.atlassian.net/wiki/spaces/PC2DOK/pages/1900609/NVIDIA+A100+40GB+with+NVLINK", UINT64_C(42405855232), 80, "NVIDIA" },
	{ "A100 80GB", "80", "NVIDIA A100 Tensor Core GPU datasheet, nvidia-a100-datasheet-us-nvidia-1758950-r4-web.pdf (A100 80GB: 80 GB HBM2e)", S_READ, 80,
	  "https://glennklockwood.com/garden/processors/A100",
	  "79.25 GiB total capacity (PyTorch out-of-memory message; 79.32 GiB in hiyouga/LlamaFactory#257)",
	  "https://github.com/levihsu/OOTDiffusion/issues/235", S_CGIB(7925), 80, "NVIDIA" },
	{ "A10G", "24", "Amazon EC2 G5 instances, NVIDIA A10G (24 GB GDDR6; 24 GiB per GPU in the AWS Batch user guide)", S_READ, 24,
	  "https://www.baseten.co/blog/nvidia-a10-vs-a10g-for-ml-model-inference/", NULL, NULL, 0, 86, "NVIDIA" },
	{ "A16", "16", "NVIDIA A16 (a board of four GPUs, each 16 GB GDDR6: 4 x 16 GB)", "2026-12-07", 16,
	  "https://www.fluence.network/blog/nvidia-a16/", NULL, NULL, 0, 86, "NVIDIA" },
	{ "A40", "48", "NVIDIA A40 GPU Accelerator product brief PB-09976-001_v04, January 2021 (48 GB GDDR6 with ECC)", S_READ, 48,
	  "http://www.relationship-nepal.org/900-2g133-0000-000.html",
	  "44.35 GiB total capacity (PyTorch out-of-memory message, TensorRT-LLM benchmark)",
	  "https://github.com/NVIDIA/TensorRT-LLM/issues/67", S_CGIB(4435), 86, "NVIDIA" },
	{ "A800 40GB", "40", "NVIDIA A800 PCIe 40 GB (40 GB HBM2e)", S_READ, 40,
	  "https://siliconcat.net/gpu/nvidia-a800-pcie-40-gb", NULL, NULL, 0, 80, "NVIDIA" },
	{ "A800 80GB", "80", "NVIDIA A800 80GB (80 GB HBM2e)", S_READ, 80,
	  "https://hmc-tech.com/gpu/nvidia-a800-vs-nvidia-t40", NULL, NULL, 0, 80, "NVIDIA" },
	{ "B200", "180", "NVIDIA DGX B200 datasheet, https://www.nvidia.com/en-us/data-center/dgx-b200/ (1,440 GB HBM3e for 8 GPUs: 180 GB per GPU; the 192 GB of early announcements is not the system's figure)", S_READ, 180,
	  "https://www.server-parts.eu/post/nvidia-b200-gb200-blackwell-gpu-server-comparison", NULL, NULL, 0, 100, "NVIDIA" },
	{ "GH200 96GB", "96", "NVIDIA GH200 Grace Hopper Superchip (96 GB HBM3 on the GPU)", S_READ, 96,
	  "https://spheron.network/blog/nvidia-gh200-guide", NULL, NULL, 0, 90, "NVIDIA" },
	{ "H100 NVL", "94", "NVIDIA H100 NVL (94 GB HBM3 per GPU)", S_READ, 94,
	  "https://gpu.blog/gpus/nvidia-h100-nvl",
	  "93.00 GiB total capacity (PyTorch out-of-memory message, H100 NVL 94GB)",
	  "https://github.com/ali-vilab/VACE/issues/56", S_CGIB(9300), 90, "NVIDIA" },
	{ "H100 PCIe", "80", "NVIDIA H100 PCIe product brief PB-11133-001_v02, November 2022; NVIDIA LaunchPad H100 MIG guide (80 GB HBM2e)", S_READ, 80,
	  "https://docs.nvidia.com/launchpad/ai/h100-mig/latest/h100-mig-gpu.html", NULL, NULL, 0, 90, "NVIDIA" },
	{ "H100 SXM", "80", "NVIDIA H100 Tensor Core GPU datasheet (H100 SXM: 80 GB HBM3)", S_READ, 80,
	  "https://hawkvelt.id.au/post/2024-08-04-nvidia-h100",
	  "79.22 GiB total GPU memory (vLLM memory profile, H100-80G)",
	  "https://github.com/vllm-project/vllm/pull/12126", S_CGIB(7922), 90, "NVIDIA" },
	{ "H200", "141", "NVIDIA H200 Tensor Core GPU datasheet (H200 SXM and H200 NVL: 141 GB HBM3e)", S_READ, 141,
	  "https://hwcooling.net/en/nvidias-new-fastest-ai-gpu-h200-with-141gb-of-hbm3e-memory", NULL, NULL, 0, 90, "NVIDIA" },
	{ "L4", "24", "NVIDIA L4 Tensor Core GPU datasheet (24 GB GDDR6)", S_READ, 24,
	  "https://grokipedia.com/page/NVIDIA_L4_vs_L40S", NULL, NULL, 0, 89, "NVIDIA" },
	{ "L40", "48", "NVIDIA L40 GPU datasheet (48 GB GDDR6 with ECC)", S_READ, 48,
	  "https://www.mullet.se/product.html?product_id=355414",
	  "44.40 GiB total capacity (PyTorch out-of-memory message, one L40)",
	  "https://github.com/QwenLM/Qwen3-VL/issues/2097", S_CGIB(4440), 89, "NVIDIA" },
	{ "L40S", "48", "NVIDIA L40S GPU datasheet (48 GB GDDR6 with ECC)", S_READ, 48,
	  "https://www.mullet.se/product.html?product_id=355414",
	  "44.42 GiB total capacity (PyTorch out-of-memory message, 8 x L40S)",
	  "https://github.com/stepfun-ai/Step-Video-T2V/issues/8", S_CGIB(4442), 89, "NVIDIA" },
	{ "MI300X", "192", "AMD Instinct MI300X accelerator data sheet (192 GB HBM3)", S_READ, 192,
	  "https://gpu.blog/gpus/instinct-mi300x-mi300x", NULL, NULL, 0, 0, "AMD" },
	{ "MI325X", "256", "AMD Instinct MI325X accelerator (256 GB HBM3E)", S_READ, 256,
	  "https://yobitel.com/knowledge-base/amd-mi325x", NULL, NULL, 0, 0, "AMD" },
	{ "MI355X", "288", "AMD Instinct MI355X (288 GB HBM3E; \"AMD Instinct MI355X 288GB HBM3e\" in AMD's MLPerf Inference v6.0 submission)", "2026-12-07", 288,
	  "https://boston-uk-l.azurewebsites.net/blog/2025/08/14/amd-instinct-mi355x.aspx", NULL, NULL, 0, 0, "AMD" },
	{ "Quadro RTX 6000", "24", "NVIDIA Quadro RTX 6000 (Turing, 24 GB GDDR6)", S_READ, 24,
	  "https://chip.pl/2018/10/bestia-dla-profesjonalistow-quadro-rtx-6000", NULL, NULL, 0, 75, "NVIDIA" },
	{ "RTX 3090", "24", "NVIDIA GeForce RTX 3090 specifications (24 GB GDDR6X)", S_READ, 24,
	  "https://www.hardwaredb.net/geforce-rtx-3090-benchmark",
	  "23.58 GiB total_gpu_memory (vLLM 0.6.4 memory profile, RTX 3090)",
	  "https://github.com/vllm-project/vllm/issues/10517", S_CGIB(2358), 86, "NVIDIA" },
	{ "RTX 4000 Ada", "20", "NVIDIA RTX 4000 Ada Generation (20 GB GDDR6 with ECC)", S_READ, 20,
	  "https://store.sourcecode.com/en-us/bg-bucket-compare/125/9820", NULL, NULL, 0, 89, "NVIDIA" },
	{ "RTX 4090", "24", "NVIDIA GeForce RTX 4090 specifications (24 GB GDDR6X)", S_READ, 24,
	  "https://pcspecchart.com/pc_parts/gpu/25",
	  "23.64 GiB total capacity (PyTorch out-of-memory message, RTX 4090; 23.68 GiB in zai-org/CogVideo#36)",
	  "https://github.com/3DTopia/Phidias-Diffusion/issues/8", S_CGIB(2364), 89, "NVIDIA" },
	{ "RTX 5090", "32", "NVIDIA GeForce RTX 5090 specifications (32 GB GDDR7)", S_READ, 32,
	  "https://fpsbench.com/compare/gpu/nvidia-geforce-rtx-4090-d-vs-nvidia-geforce-rtx-5090",
	  "31.37 GiB total capacity (PyTorch out-of-memory message, RTX 5090)",
	  "https://github.com/Wan-Video/Wan2.1/issues/465", S_CGIB(3137), 120, "NVIDIA" },
	{ "RTX 6000 Ada", "48", "NVIDIA RTX 6000 Ada Generation datasheet (48 GB GDDR6 with ECC)", S_READ, 48,
	  "https://www.yottalabs.ai/post/which-nvidia-rtx-6000-gpu-is-right-for-you-in-2026", NULL, NULL, 0, 89, "NVIDIA" },
	{ "RTX A4000", "16", "NVIDIA RTX A4000 (16 GB GDDR6)", S_READ, 16,
	  "https://clickthis.blog/de/nvidia-rtx-a4000-kompaktnaya-plata-s-graficheskim-proczessorom-ga104-i-pamyatyu-gddr6-obemom-16-gb",
	  "15.61 GiB total capacity (PyTorch out-of-memory message, RTX A4000)",
	  "https://github.com/DengKaiCQ/VGGT-Long/issues/6", S_CGIB(1561), 86, "NVIDIA" },
	{ "RTX A4500", "20", "NVIDIA RTX A4500 (20 GB GDDR6)", S_READ, 20,
	  "https://cputronic.com/gpu/compare/nvidia-rtx-a4500-vs-nvidia-rtx-pro-2000-blackwell", NULL, NULL, 0, 86, "NVIDIA" },
	{ "RTX A6000", "48", "NVIDIA RTX A6000 datasheet (48 GB GDDR6 with ECC)", S_READ, 48,
	  "https://pt.techbriefly.com/rtx-a6000-e-rtx-a40-sao-as-novas-placas-graficas-profissionais-da-nvidia-tech-14900", NULL, NULL, 0, 86, "NVIDIA" },
	{ "RTX PRO 6000 Blackwell", "96", "NVIDIA RTX PRO 6000 Blackwell datasheet (workstation, Max-Q and server editions: 96 GB GDDR7 with ECC)", S_READ, 96,
	  "https://www.yottalabs.ai/post/which-nvidia-rtx-6000-gpu-is-right-for-you-in-2026", NULL, NULL, 0, 120, "NVIDIA" },
	{ "T4", "16", "NVIDIA T4 Tensor Core GPU datasheet (16 GB GDDR6)", S_READ, 16,
	  "https://sysrqmts.com/gpus/compare/nvidia-a100-sxm4-40-gb-vs-nvidia-tesla-t4",
	  "14.75 GiB total capacity (PyTorch out-of-memory message, Colab T4)",
	  "https://github.com/hpcaitech/Open-Sora/issues/697", S_CGIB(1475), 75, "NVIDIA" },
	{ "T4G", "16", "Amazon EC2 G5g instances, NVIDIA T4G (16 GB per GPU in the AWS Batch user guide)", S_READ, 16,
	  "https://docs---aws.amazon.com.rproxy.govskope.ca/pt_br/batch/latest/userguide/gpu-jobs.html", NULL, NULL, 0, 75, "NVIDIA" },
	{ "V100 16GB", "16", "NVIDIA V100 Tensor Core GPU datasheet (16 GB HBM2)", S_READ, 16,
	  "https://www.prodisknetwork.com/blog/nvidia-datacenter-gpu-comparison",
	  "15.78 GiB total capacity (PyTorch out-of-memory message, 16 GB V100)",
	  "https://github.com/kchengiva/Shift-GCN/issues/34", S_CGIB(1578), 70, "NVIDIA" },
	{ "V100 32GB", "32", "NVIDIA V100 Tensor Core GPU datasheet (32 GB HBM2)", S_READ, 32,
	  "https://www.prodisknetwork.com/blog/nvidia-datacenter-gpu-comparison",
	  "31.72 GiB total capacity (PyTorch out-of-memory message)",
	  "https://github.com/pytorch/pytorch/issues/32101", S_CGIB(3172), 70, "NVIDIA" },
};

#define S_N(a) (sizeof(a) / sizeof((a)[0]))

static int S_starts(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* The normalised key of name in key[64]: NULL when longer than any alias. */
static const char *S_key(const char *name, char *key)
{
	const char *k = key;
	size_t n = 0;

	for (; *name; name++) {
		char ch = *name;
		if (ch >= 'A' && ch <= 'Z')
			ch = (char)(ch - 'A' + 'a');
		if ((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9')) {
			if (n + 1 >= 64)
				return NULL;
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
	return k;
}

const char *gs_gpuname_canonical(const char *name, gs_gpu_match *how)
{
	char key[64];
	const char *k;
	size_t i;

	if (how)
		*how = GS_GPU_UNKNOWN;
	size_t lo = 0, hi = S_N(S_aliases);
	static int sorted;

	if (!sorted) {
		/* the aliases are kept in strcmp order: found by halves (a
		 * sheet asks for every offer) */
		for (i = 1; i < S_N(S_aliases); i++)
			if (strcmp(S_aliases[i - 1].alias, S_aliases[i].alias) >= 0)
				GS_BUG("gpuname: alias \"%s\" out of order", S_aliases[i].alias);
		sorted = 1;
	}
	if (!name || !(k = S_key(name, key)))
		return NULL;
	while (lo < hi) {
		int c;
		i = lo + (hi - lo) / 2;
		c = strcmp(S_aliases[i].alias, k);
		if (c == 0) {
			if (how)
				*how = S_aliases[i].model ? GS_GPU_KNOWN : GS_GPU_AMBIGUOUS;
			return S_aliases[i].model;
		}
		if (c < 0)
			lo = i + 1;
		else
			hi = i;
	}
	return NULL;
}

/* The candidates of an ambiguous name, or NULL. */
static const char *const *S_candidates(const char *name)
{
	char key[64];
	const char *k;
	size_t i;

	if (!name || !(k = S_key(name, key)))
		return NULL;
	for (i = 0; i < S_N(S_ambiguous); i++)
		if (strcmp(S_ambiguous[i].alias, k) == 0)
			return S_ambiguous[i].models;
	return NULL;
}

const gs_gpu_nominal *gs_gpuname_table(size_t *n)
{
	*n = S_N(S_nominal);
	return S_nominal;
}

void gs_gpuname_window(const gs_gpu_nominal *e, uint64_t *lo, uint64_t *hi)
{
	/* gb <= 256 in the table: no product overflows */
	*lo = (uint64_t)e->gb * UINT64_C(1000000000) / 100u * 93u;
	*hi = (uint64_t)e->gb << 30;
}

static int S_agrees(const gs_gpu_nominal *e, uint64_t bytes)
{
	uint64_t lo, hi;

	gs_gpuname_window(e, &lo, &hi);
	return bytes >= lo && bytes <= hi;
}

gs_gpu_check gs_gpuname_check_memory(const char *name, uint64_t bytes, const gs_gpu_nominal **e)
{
	gs_gpu_match how;
	const char *model = gs_gpuname_canonical(name, &how);
	const char *const *cand;
	const gs_gpu_nominal *pick = NULL;
	size_t i;

	*e = NULL;
	if (how == GS_GPU_KNOWN) {
		const gs_gpu_nominal *n = gs_gpuname_nominal_of(model);
		if (!n)
			return GS_GPU_CHECK_UNKNOWN;
		*e = n;
		if (!bytes)
			return GS_GPU_CHECK_VENDOR;
		return S_agrees(n, bytes) ? GS_GPU_CHECK_AGREES : GS_GPU_CHECK_DISAGREES;
	}
	if (how == GS_GPU_UNKNOWN || !(cand = S_candidates(name)))
		return GS_GPU_CHECK_UNKNOWN;
	if (!bytes)
		return GS_GPU_CHECK_AMBIGUOUS;
	/* the figure picks the candidates it agrees with; they must share one nominal figure */
	for (i = 0; i < 3 && cand[i]; i++) {
		const gs_gpu_nominal *n = gs_gpuname_nominal_of(cand[i]);
		if (!n || !S_agrees(n, bytes))
			continue;
		if (pick && pick->gb != n->gb)
			return GS_GPU_CHECK_AMBIGUOUS;
		if (!pick)
			pick = n;
	}
	if (!pick)
		return GS_GPU_CHECK_AMBIGUOUS;
	*e = pick;
	return GS_GPU_CHECK_AGREES;
}

const char *gs_gpuname_candidates_text(const char *name, char *buf, size_t n)
{
	const char *const *cand = S_candidates(name);
	size_t i, at = 0;

	if (n)
		buf[0] = '\0';
	for (i = 0; cand && i < 3 && cand[i] && at < n; i++) {
		const gs_gpu_nominal *e = gs_gpuname_nominal_of(cand[i]);
		int k = snprintf(buf + at, n - at, "%s%s%s%s%s", i ? " or " : "", cand[i],
				 e ? " (" : "", e ? e->nominal_gb : "", e ? " GB)" : "");
		if (k < 0)
			break;
		at += (size_t)k;
	}
	return buf;
}

/* The platform of one name (see gs_gpuname_non_gpu), or NULL. */
static const char *S_non_gpu(const char *name)
{
	static const struct {
		const char *canonical, *platform;
	} rows[] = {
		{ "Inferentia", "AWS Neuron" }, { "Inferentia2", "AWS Neuron" },
		{ "Trainium", "AWS Neuron" }, { "Trainium2", "AWS Neuron" },
		{ "Gaudi2", "Intel Gaudi" }, { "Gaudi HL-205", "Intel Gaudi" },
	};
	gs_gpu_match how = GS_GPU_UNKNOWN;
	const char *m;
	size_t i;

	if (!name)
		return NULL;
	if (gs_util_contains_ci(name, "virtex") || gs_util_contains_ci(name, "fpga"))
		return "FPGA";
	m = gs_gpuname_canonical(name, &how);
	for (i = 0; m && i < sizeof(rows) / sizeof(rows[0]); i++)
		if (strcmp(m, rows[i].canonical) == 0)
			return rows[i].platform;
	return NULL;
}

const char *gs_gpuname_non_gpu(const char *offer_model, const char *offer_device)
{
	const char *p = S_non_gpu(offer_device);

	return p ? p : S_non_gpu(offer_model);
}

const gs_gpu_nominal *gs_gpuname_nominal_of(const char *model)
{
	size_t i;

	if (!model)
		return NULL;
	for (i = 0; i < S_N(S_nominal); i++)
		if (strcmp(S_nominal[i].model, model) == 0)
			return &S_nominal[i];
	return NULL;
}


int gs_gpuname_same(const char *offer_model, const char *offer_device, const char *device_name)
{
	gs_gpu_match hd, ho = GS_GPU_UNKNOWN;
	const char *cd, *co = NULL;

	if (!device_name)
		return 0;
	if (offer_device && gs_util_eq_ci(offer_device, device_name))
		return 1;
	cd = gs_gpuname_canonical(device_name, &hd);
	if (offer_device)
		co = gs_gpuname_canonical(offer_device, &ho);
	if (ho == GS_GPU_UNKNOWN && offer_model)
		co = gs_gpuname_canonical(offer_model, &ho);
	if (hd == GS_GPU_AMBIGUOUS || ho == GS_GPU_AMBIGUOUS)
		return 0;
	if (hd == GS_GPU_KNOWN && ho == GS_GPU_KNOWN)
		return strcmp(cd, co) == 0;
	if (hd == GS_GPU_KNOWN || ho == GS_GPU_KNOWN)
		return 0;
	return !offer_device && offer_model && *offer_model &&
	       gs_util_contains_ci(device_name, offer_model);
}

/* How many of an ambiguous name's models the figure agrees with. */
static size_t S_agreeing(const char *name, uint64_t bytes)
{
	const char *const *cand = S_candidates(name);
	size_t i, n = 0;

	for (i = 0; cand && i < 3 && cand[i]; i++) {
		const gs_gpu_nominal *e = gs_gpuname_nominal_of(cand[i]);
		if (e && S_agrees(e, bytes))
			n++;
	}
	return n;
}

const gs_gpu_nominal *gs_gpuname_resolve(const char *model, const char *device, uint64_t bytes)
{
	const gs_gpu_nominal *e = NULL;
	gs_gpu_check k;
	gs_gpu_match how;

	if (device) {
		k = gs_gpuname_check_memory(device, bytes, &e);
		if (k == GS_GPU_CHECK_AGREES || k == GS_GPU_CHECK_VENDOR)
			return e;
		if (k == GS_GPU_CHECK_DISAGREES)
			return NULL;
	}
	if (!model)
		return NULL;
	/* "H100" with 80 GB may be SXM or PCIe: not one model, whose reported
	 * total could be taken */
	if (!gs_gpuname_canonical(model, &how) && how == GS_GPU_AMBIGUOUS &&
	    S_agreeing(model, bytes) != 1)
		return NULL;
	k = gs_gpuname_check_memory(model, bytes, &e);
	return k == GS_GPU_CHECK_AGREES || k == GS_GPU_CHECK_VENDOR ? e : NULL;
}

/* The variants of one ambiguous name the figure agrees with. */
static size_t S_allowed_one(const char *name, uint64_t bytes, const char *out[3])
{
	const char *const *cand;
	gs_gpu_match how;
	size_t i, n = 0;

	if (!name || gs_gpuname_canonical(name, &how) || how != GS_GPU_AMBIGUOUS ||
	    !(cand = S_candidates(name)))
		return 0;
	for (i = 0; i < 3 && cand[i]; i++) {
		const gs_gpu_nominal *e = gs_gpuname_nominal_of(cand[i]);
		if (e && S_agrees(e, bytes))
			out[n++] = cand[i];
	}
	return n;
}

size_t gs_gpuname_allowed(const char *model, const char *device, uint64_t bytes, const char *out[3])
{
	gs_gpu_match how;
	size_t n;

	/* a device name that names one model decides alone (gs_gpuname_resolve) */
	if (!bytes || (device && gs_gpuname_canonical(device, &how)))
		return 0;
	n = S_allowed_one(device, bytes, out);
	return n ? n : S_allowed_one(model, bytes, out);
}

unsigned gs_gpuname_cc_for_format(const char *format)
{
	static const struct {
		const char *name;
		unsigned cc;
	} S_fmt[] = {
		{ "bf16", 80 }, { "bfloat16", 80 },
		{ "fp8", 89 }, { "float8", 89 }, { "fp8_e4m3", 89 }, { "fp8_e5m2", 89 },
		{ "float8_e4m3fn", 89 }, { "float8_e5m2", 89 }, { "e4m3", 89 }, { "e5m2", 89 },
	};
	size_t i;

	if (!format)
		return 0;
	for (i = 0; i < S_N(S_fmt); i++)
		if (gs_util_eq_ci(format, S_fmt[i].name))
			return S_fmt[i].cc;
	return 0;
}

const char *gs_gpuname_cc_text(unsigned cc)
{
	static const char *const S_cc[] = {
		"7.0", "7.5", "8.0", "8.6", "8.9", "9.0", "10.0", "10.3", "12.0",
	};
	static const unsigned S_v[] = { 70, 75, 80, 86, 89, 90, 100, 103, 120 };
	size_t i;

	for (i = 0; i < S_N(S_v); i++)
		if (S_v[i] == cc)
			return S_cc[i];
	return "?";
}
