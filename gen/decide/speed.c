/* speed: the datasheet table of bandwidth and dense peaks, the bounds of a
 * step, and the cost of a million output tokens at the bound. */
#include "speed.h"

#include <stdio.h>
#include <string.h>

#include "util.h"

#define S_N(a) (sizeof(a) / sizeof((a)[0]))

/*
 * The vendors' datasheet figures, by canonical model (gpuname.h). Where a
 * datasheet prints only the figure with sparsity, the dense peak is half of
 * it (NVIDIA's footnote: "with sparsity"; shown here as printed, then
 * halved). Where one canonical model covers variants (A100 80GB: SXM4 at
 * 2,039 GB/s, PCIe at 1,935 GB/s; V100: SXM2 125, PCIe 112 TFLOPS), the
 * higher figure is kept, so the bound holds for both. GeForce cards: the
 * 16-bit figure with fp16 accumulation, their highest. checked is NULL for
 * every row of this version: the figures are the documents' as named, not
 * re-read against the page for this table (docs/formats.md, 2.2).
 *
 * fp32 and fp4 peaks are given only where a page was read for them (the
 * page named in the row's source); 0 elsewhere: missing, so a workload
 * computing in that format has no prefill bound on that card. Where no
 * vendor page was found, a page reproducing the vendor's figures is named
 * instead (a reseller's copy of the datasheet's table, a review quoting
 * it); where two readings differ, the higher is kept, so the bound stays
 * a bound. Read: MI300X fp32 (AMD's ROCm documentation, a dense figure:
 * AMD prints no sparse fp32); fp32 of A100, A40, A800, H100 SXM and PCIe,
 * B300, RTX 5090, RTX A4000, RTX PRO 6000 Blackwell, GB200, GB300, P100,
 * P4, K80, M60, MI25, Quadro RTX 6000, RTX A2000, RTX A5000, Inferentia2,
 * Trainium, Trainium2; fp4 of RTX 5090, RTX PRO 6000 Blackwell, MI355X,
 * GB200, GB300. Not found in this version: fp32 of H200, H100 NVL, GH200,
 * B200, L4, L40, L40S, RTX 3090/4090/6000 Ada/A6000, T4, V100, the GeForce
 * RTX 3060 to 4070 families; fp4 of B200 and B300; the 16-bit peak of
 * A10G, A16, MI355X, T4G, the GeForce RTX 3060 to 4070 families, Quadro
 * RTX 6000, RTX A2000 and A5000 (no tensor figure read), and of P4, K80
 * and M60 (their fp16 is not faster than their fp32: none is given).
 *
 * An ambiguous name (H100 with 80 GB: SXM or PCIe) takes the row of the
 * fastest variant its memory figure allows, when one row is the highest
 * in every figure (gs_speed_fastest): the bound holds for each variant,
 * and the sheet says so.
 *
 * Dual-GPU boards (K80, M60) and accelerators sold by the chip
 * (Inferentia, Inferentia2, Trainium, Trainium2; GB200 and GB300 by the
 * GPU): one row is one unit the catalogs count as a card, the rule named
 * in the row's source; a figure given for a whole board is halved there.
 * A name the catalogs give to several editions (SkyPilot's Vast.ai file
 * writes the GeForce Ti and SUPER editions under the base name) holds the
 * highest figure of the family. A bandwidth given in GiB/s is converted
 * to 10^9 bytes and rounded up.
 *
 * No row, so no bound (a card no page was found for, or no GPU): A30,
 * RTX 4000 Ada, Radeon Pro V520 (no bandwidth found); the FPGAs (no
 * bandwidth and no FLOPS make a bound for a programmable fabric).
 * An ambiguous name without a memory figure (H100, V100, A100) stays
 * without a bound: a variant the table cannot cite may be meant.
 */
static const gs_speed_gpu S_table[] = {
	{ "A10", 600, 125000, 0, 0, 0,
	  "NVIDIA A10 Tensor Core GPU datasheet: 600 GB/s GDDR6; BF16 Tensor Core 125 TFLOPS (250 with sparsity)", NULL },
	{ "A100 40GB", 1555, 312000, 0, 19500, 0,
	  "NVIDIA A100 Tensor Core GPU datasheet (nvidia-a100-datasheet-us-nvidia-1758950-r4-web.pdf): A100 40GB 1,555 GB/s; BF16 Tensor Core 312 TFLOPS (624 with sparsity); "
	  "FP32 19.5 TFLOPS (the datasheet's table as reproduced at https://glennklockwood.com/garden/processors/A100)", NULL },
	{ "A100 80GB", 2039, 312000, 0, 19500, 0,
	  "NVIDIA A100 Tensor Core GPU datasheet (nvidia-a100-datasheet-us-nvidia-1758950-r4-web.pdf): A100 80GB SXM 2,039 GB/s (PCIe 1,935 GB/s); BF16 Tensor Core 312 TFLOPS (624 with sparsity); "
	  "FP32 19.5 TFLOPS (the datasheet's table as reproduced at https://glennklockwood.com/garden/processors/A100)", NULL },
	{ "A10G", 600, 0, 0, 0, 0,
	  "NVIDIA A10G (AWS's variant of the A10; AWS publishes no bandwidth): \"24 gigabytes of GDDR6 VRAM with a memory "
	  "bandwidth of 600 gigabytes per second\", the A10's, https://www.baseten.co/blog/nvidia-a10-vs-a10g-for-ml-model-inference/; "
	  "no tensor peak cited", NULL },
	{ "A16", 232, 0, 0, 0, 0,
	  "NVIDIA A16 (per GPU of the board's four): 231.9 GB/s GDDR6, 128-bit, as listed at "
	  "https://sysrqmts.com/tr/gpus/compare/nvidia-a16-pcie-vs-nvidia-rtx-a6000 (rounded up: a bound; NVIDIA's product brief "
	  "PB-10518-001 not read for it); no tensor peak cited", NULL },
	{ "A40", 696, 149700, 0, 37400, 0,
	  "NVIDIA A40 datasheet: 696 GB/s GDDR6; BF16 Tensor Core 149.7 TFLOPS (299.4 with sparsity); Peak FP32 (non-Tensor) 37.4 TFLOPS "
	  "(the datasheet's table as reproduced at https://www.ecer.com/corp/details-uuuedqa-p1bsay9-multi-display-setups-supported-by-48gb-gddr6-ecc-memory-nvidia-a40-gpu-and-vga-outputs.html)", NULL },
	{ "A800 40GB", 1555, 312000, 0, 19500, 0,
	  "NVIDIA A800 40GB: the A100's compute, memory and Tensor Cores with NVLink cut to 400 GB/s (NVIDIA's statement of "
	  "7 November 2022, https://aiwiki.ai/wiki/nvidia_a800), so the A100 40GB figures of the NVIDIA A100 datasheet "
	  "(nvidia-a100-datasheet-us-nvidia-1758950-r4-web.pdf): 1,555 GB/s; BF16 Tensor Core 312 TFLOPS (624 with sparsity); FP32 19.5 TFLOPS; "
	  "https://hmc-tech.com/gpu/nvidia-a800-40gb-vs-nvidia-t4 lists BF16 311.87 TFLOPS Tensor, FP32 19.49 TFLOPS", NULL },
	{ "A800 80GB", 2039, 312000, 0, 19500, 0,
	  "NVIDIA A800 80GB: the A100's compute, memory and Tensor Cores with NVLink cut to 400 GB/s (NVIDIA's statement of "
	  "7 November 2022, https://aiwiki.ai/wiki/nvidia_a800), so the A100 80GB figures of the NVIDIA A100 datasheet "
	  "(nvidia-a100-datasheet-us-nvidia-1758950-r4-web.pdf): SXM 2,039 GB/s (PCIe 1,935 GB/s); BF16 Tensor Core 312 TFLOPS (624 with sparsity); "
	  "FP32 19.5 TFLOPS; https://hmc-tech.com/gpu/nvidia-a800-vs-nvidia-t40 lists BF16 311.87 TFLOPS Tensor, FP32 19.49 TFLOPS", NULL },
	{ "B200", 8000, 2250000, 4500000, 0, 0,
	  "NVIDIA HGX B200 specifications: 8 TB/s HBM3e per GPU; FP16/BF16 Tensor Core 4.5 PFLOPS and FP8 9 PFLOPS per GPU with sparsity (2.25 and 4.5 dense)", NULL },
	{ "B300", 8000, 2250000, 4500000, 75000, 0,
	  "NVIDIA HGX B300 figures per GPU as reproduced at https://glennklockwood.com/garden/processors/B300: 288 GB HBM3e at 8 TB/s (max); "
	  "FP16/BF16 2,250 TFLOPS dense (4,500 with sparsity), FP8 4,500 dense (9,000 with sparsity), FP32 75 TFLOPS; "
	  "\"up to 8 TB/s per GPU\" also at https://acecloud.ai/blog/nvidia-hgx-b300", NULL },
	{ "GB200", 8000, 2500000, 5000000, 90000, 10000000,
	  "NVIDIA GB200 (per Blackwell GPU; the catalogs count each GPU of the superchip as a card, 192 GiB): NVIDIA's Blackwell datasheet "
	  "(blackwell-datasheet-3384703) as reproduced at "
	  "https://github.com/atineoSE/coding-model-seeks-gpu/blob/e527ad937f71557ee8169ad342ad54a2509133d9/pipeline/pipeline/sources/gb200_specs.md, "
	  "GB200 NVL72 per GPU: 186 GB HBM3E at 8 TB/s; FP4 20, FP8/FP6 10, FP16/BF16 5 PFLOPS with sparsity (10, 5 and 2.5 dense); FP32 80 TFLOPS; 5th "
	  "Gen NVLink 1.8 TB/s; the GB200 variant of B200 at 1,200 W at https://glennklockwood.com/garden/processors/B200 gives FP32 90 TFLOPS: the "
	  "higher kept, a bound", NULL },
	{ "GB300", 8000, 2500000, 5000000, 80000, 15000000,
	  "NVIDIA GB300 (per Blackwell Ultra GPU, 279 GB HBM3E; the catalogs count each GPU as a card, 278 GiB): per-GPU table at "
	  "https://verda.com/blog/gb300-nvl72-architecture, numbers without sparsity: 8 TB/s; FP16/BF16 2.5 PFLOPS, FP8 5 PFLOPS, FP4 15 PFLOPS, FP32 "
	  "0.080 PFLOPS; NVLink 5, 1.8 TB/s per GPU", NULL },
	{ "GH200 96GB", 4000, 989500, 1979000, 0, 0,
	  "NVIDIA GH200 Grace Hopper Superchip datasheet: 96 GB HBM3 at 4 TB/s; BF16 1,979 TFLOPS and FP8 3,958 TFLOPS with sparsity", NULL },
	{ "Gaudi HL-205", 900, 60000, 0, 0, 0,
	  "Intel Gaudi (first generation, the HL-205 mezzanine card of AWS DL1; one card per accelerator, 32 GB): Intel's table \"Gaudi Product "
	  "Generations\" (R. Kaplan, Intel, \"Intel Gaudi 3 AI Accelerator: Architected for Gen AI Training and Inference\", August 2024, as reproduced "
	  "at https://www.sgpjbg.com/baogao/465025.html): Peak HBM BW 900 GB/s, Peak Compute (BF16) 60 TFLOPs, 32 GB HBM; interconnect ten 100 GbE RoCE "
	  "ports on the chip (https://habana.ai/gaudi-integrated-roce/); no FP32 or FP8 figure cited", NULL },
	{ "Gaudi2", 2460, 432000, 0, 0, 0,
	  "Intel Gaudi 2 (one accelerator per card, 96 GB HBM2E): Intel's table \"Gaudi Product Generations\" (R. Kaplan, Intel, August 2024, as "
	  "reproduced at https://www.sgpjbg.com/baogao/465025.html): Peak HBM BW 2.46 TB/s, Peak Compute (BF16) 432 TFLOPs; "
	  "https://www.yobitel.com/knowledge-base/intel-gaudi-2 gives 2.45 TB/s and BF16 (MME) ~432 TFLOPS: the higher kept, a bound; 24 integrated 100 "
	  "GbE RoCE ports (yobitel); FP8 supported but no figure cited", NULL },
	{ "H100 NVL", 3900, 835500, 1670500, 0, 0,
	  "NVIDIA H100 Tensor Core GPU datasheet, H100 NVL: 3.9 TB/s; BF16 1,671 TFLOPS and FP8 3,341 TFLOPS with sparsity", NULL },
	{ "H100 PCIe", 2000, 756500, 1513000, 51000, 0,
	  "NVIDIA H100 Tensor Core GPU datasheet, H100 PCIe: 2 TB/s; BF16 1,513 TFLOPS and FP8 3,026 TFLOPS with sparsity; FP32 51 TFLOPS "
	  "(NVIDIA's H100 table as reproduced at https://archive-lib.hpctech.co.jp/gpuproduct/nvidia-h100.html)", NULL },
	{ "H100 SXM", 3350, 989500, 1979000, 67000, 0,
	  "NVIDIA H100 Tensor Core GPU datasheet, H100 SXM: 3.35 TB/s; BF16 1,979 TFLOPS and FP8 3,958 TFLOPS with sparsity; FP32 67 TFLOPS "
	  "(NVIDIA's H100 table as reproduced at https://archive-lib.hpctech.co.jp/gpuproduct/nvidia-h100.html)", NULL },
	{ "H200", 4800, 989500, 1979000, 0, 0,
	  "NVIDIA H200 Tensor Core GPU datasheet, H200 SXM: 4.8 TB/s; BF16 1,979 TFLOPS and FP8 3,958 TFLOPS with sparsity", NULL },
	{ "Inferentia", 54, 64000, 0, 0, 0,
	  "AWS Inferentia (per chip: the catalogs count each of an Inf1 instance's Inferentia chips as a card, 8 GiB each), AWS Neuron documentation, "
	  "\"Inferentia Architecture\" (https://awsdocs-neuron.readthedocs-hosted.com/en/latest/general/arch/neuron-hardware/inferentia.html): four "
	  "NeuronCore-v1 delivering 128 INT8 TOPS and 64 FP16/BF16 TFLOPS; 8 GiB of device DRAM with 50 GiB/sec of bandwidth (50 GB/sec in the v2.9.1 "
	  "page: the higher, 50 GiB/s = 53.7 GB/s, rounded up: a bound); no FP32 figure cited", NULL },
	{ "Inferentia2", 881, 190000, 190000, 47500, 0,
	  "AWS Inferentia2 (per chip: the catalogs count each Inferentia2 chip of an Inf2 instance as a card, 32 GiB each), AWS Neuron documentation, "
	  "\"Inferentia2 Architecture\" (https://awsdocs-neuron.readthedocs-hosted.com/en/latest/general/arch/neuron-hardware/inferentia2.html): two "
	  "NeuronCore-v2 delivering 190 FP16/BF16/cFP8/TF32 TFLOPS and 47.5 FP32 TFLOPS; 32 GiB HBM with 820 GiB/sec of bandwidth (820 GB/sec in the "
	  "v2.9.1 page: the higher, 820 GiB/s = 880.5 GB/s, rounded up: a bound); NeuronLink-v2 between chips", NULL },
	{ "K80", 240, 0, 0, 4370, 0,
	  "NVIDIA Tesla K80 (a board of two GK210 GPUs, 2 x 12 GB; the catalogs count each GPU as a card: Azure's NC12 is 2 K80 GPUs), per GPU: "
	  "NVIDIA's 480 GB/s for the board, \"pro GPU entspricht dies 240 GB pro Sekunde\" "
	  "(https://hardwareluxx.de/index.php/news/hardware/grafikkarten/33386-nvidia-praesentiert-die-dual-gpu-tesla-k80-mit-gk210-gpus.html; 240 GB/s "
	  "per GPU also at https://cnews.cz/clanky/nvidia-uvadi-nove-gpu-generace-kepler-gk210-bezi-v-dualni-karte-tesla-k80/); single precision 8.74 "
	  "TFLOPS for the board with boost (same pages): 4.37 per GPU; no 16-bit tensor unit (no 16-bit figure)", NULL },
	{ "L4", 300, 121000, 242500, 0, 0,
	  "NVIDIA L4 Tensor Core GPU datasheet: 300 GB/s GDDR6; BF16 242 TFLOPS and FP8 485 TFLOPS with sparsity", NULL },
	{ "L40", 864, 181050, 362000, 0, 0,
	  "NVIDIA L40 GPU datasheet: 864 GB/s GDDR6; BF16 181.05 TFLOPS (362.1 with sparsity); FP8 362 TFLOPS (724 with sparsity)", NULL },
	{ "L40S", 864, 362050, 733000, 0, 0,
	  "NVIDIA L40S GPU datasheet: 864 GB/s GDDR6; BF16 362.05 TFLOPS (733 with sparsity); FP8 733 TFLOPS (1,466 with sparsity)", NULL },
	{ "M60", 161, 0, 0, 4833, 0,
	  "NVIDIA Tesla M60 (a board of two GM204 GPUs, 8 GB GDDR5 each, https://www.elprocus.com/nvidia-tesla-m60; the catalogs count each GPU as a "
	  "card: Azure's NV12 is 2 M60 GPUs), per GPU: 160.4 GB/s, 256-bit (https://fpsbench.com/compare/gpu/nvidia-tesla-m60-vs-nvidia-tesla-t4, "
	  "rounded up: a bound); floating point \"2x 4,833 gflops\" "
	  "(https://cpu-gpu.alldbin.com/graphics-card-comparison/Tesla-M60-and-Tesla-P40-comparison.html; 4.825 TFLOPS at fpsbench: the higher kept); "
	  "no 16-bit figure cited", NULL },
	{ "MI25", 484, 26400, 0, 12300, 0,
	  "AMD Radeon Instinct MI25 (16 GB HBM2): AMD's figures as reported at https://ocaholic.ch/modules/news/article.php?lang=german&storyid=16679: "
	  "12.3 TFLOPS FP32, 24.6 TFLOPS FP16, 484 GB/s; the Radeon Instinct table reproduced at "
	  "http://movatter.jp/mt/?dark=on&url=http%3A%2F%2Fen.wikipedia.org%2Fwiki%2FRadeon_Instinct lists 484 GB/s and 26.4 TFLOPS FP16: the higher "
	  "kept, a bound (436.2 GB/s at https://siliconcat.net/de/gpu/amd-instinct-mi25, lower); Azure's NVv4 sizes are fractions of one MI25, so the "
	  "whole GPU's figures bound them", NULL },
	{ "MI300X", 5300, 1307400, 2614900, 163400, 0,
	  "AMD Instinct MI300X accelerator data sheet: 5.3 TB/s HBM3; BF16 1,307.4 TFLOPS, FP8 2,614.9 TFLOPS (dense); "
	  "FP32 163.4 TFLOPS (vector and matrix alike): AMD ROCm documentation, \"AMD Instinct MI300 series "
	  "microarchitecture\", table \"Peak-performance capabilities of the MI300X for different data types\", "
	  "https://rocm.docs.amd.com/en/docs-6.2.2/conceptual/gpu-arch/mi300.html", NULL },
	{ "MI355X", 8000, 0, 5000000, 0, 10000000,
	  "AMD Instinct MI355X: 288 GB HBM3E at 8 TB/s (https://boston-uk-l.azurewebsites.net/blog/2025/08/14/amd-instinct-mi355x.aspx); "
	  "FP8 5 PFLOPS as presented by AMD at ISSCC 2026 (https://www.world-today-news.com/?p=7253162; the higher reading, dense, "
	  "kept: a bound); FP4 up to 10 PFLOPS (https://humeconsulting.co/amd-mi355x-strong-node-level-inference-but-not-yet-rack-scale); "
	  "no 16-bit peak cited", NULL },
	{ "P100", 732, 21200, 0, 10600, 0,
	  "NVIDIA Tesla P100 16 GB (SXM2 and PCIe): 732 GB/s for the 16 GB model "
	  "(https://techwormam.pages.dev/posts/nvidia-unveils-its-powerful-pcie-hbm2-running-gp100-pascal-gpu-to-the-masses-techworm; 732 GB/s also in "
	  "the table at https://github.com/lijun99/GPU-Resources/blob/0339365af3cf3eb90318ca242e9a9679638f47c3/NVIDIA_GPU_SM.md; 720 GB/s in NVIDIA's "
	  "launch figures, https://tech4gamers.com/nvidia-tesla-p100-will-be-available-in-two-variants-of-16gb-12gb-hbm2/: the higher kept); half "
	  "precision 21.2 TFLOPS (NVLink) and 18.7 (PCIe), single precision 10.6 and 9.3 (tech4gamers' table): the NVLink variant's, the higher; no "
	  "tensor cores; NVLink 160 GB/s bidirectional (SXM2)", NULL },
	{ "P4", 193, 0, 0, 5704, 0,
	  "NVIDIA Tesla P4 (8 GB GDDR5, 256-bit): 192.3 GB/s (TechPowerUp, https://www.techpowerup.com/gpu-specs/tesla-p4.c2879, as reproduced at "
	  "https://gpu.spicedreamphone.com/en/gpu/nvidia/tesla-p4; rounded up: a bound); FP32 5.704 TFLOPS (the same table; NVIDIA's 5.5 TFLOPS, "
	  "https://www.tomshardware.com/news/nvidia-tesla-p40-p4-inference,32680.html: the higher kept); FP16 runs at 1:64 of FP32, so no 16-bit figure "
	  "is given (an fp16 workload computed in fp32 would exceed it)", NULL },
	{ "Quadro RTX 6000", 672, 0, 0, 16310, 0,
	  "NVIDIA Quadro RTX 6000 (Turing TU102, 24 GB GDDR6, 384-bit): 672.0 GB/s and FP32 16.31 TFLOPS "
	  "(https://sysrqmts.com/fr/gpus/compare/nvidia-a40-pcie-vs-nvidia-quadro-rtx-6000; NVIDIA's 16.3 TFLOPS FP32 at "
	  "https://chip.pl/2018/10/bestia-dla-profesjonalistow-quadro-rtx-6000); no tensor peak cited", NULL },
	{ "RTX 3060", 608, 0, 0, 0, 0,
	  "NVIDIA GeForce RTX 3060 family: SkyPilot's Vast.ai catalog writes the Ti and SUPER editions under the base name (instance types "
	  "2x-RTX_3060_Ti as RTX3060, 1x-RTX_4060_Ti as RTX4060, 2x-RTX_4070S_Ti as RTX4070), so the row holds the family's highest bandwidth, a bound "
	  "for each edition; RTX 3060 8 GB 240 GB/s, 12 GB 360, 3060 Ti GDDR6 448, GDDR6X 608 (the table at "
	  "https://github.com/CYBIRD-D/How-to-Choose-your-LLM-Model-for-translation/blob/52379077acab0e1d450adb86345f9e705bb6cade/Nvidia_GPU_Specification.md; "
	  "the 12 GB's 360 GB/s also at https://pcpartdb.com/gpus/view/nvidia-geforce-rtx-3060-12-gb-ga104): 608 kept; no tensor or FP32 peak cited", NULL },
	{ "RTX 3070", 608, 0, 0, 0, 0,
	  "NVIDIA GeForce RTX 3070 family: SkyPilot's Vast.ai catalog writes the Ti and SUPER editions under the base name (instance types "
	  "2x-RTX_3060_Ti as RTX3060, 1x-RTX_4060_Ti as RTX4060, 2x-RTX_4070S_Ti as RTX4070), so the row holds the family's highest bandwidth, a bound "
	  "for each edition; RTX 3070 448 GB/s, 3070 Ti 608 (the table at "
	  "https://github.com/CYBIRD-D/How-to-Choose-your-LLM-Model-for-translation/blob/52379077acab0e1d450adb86345f9e705bb6cade/Nvidia_GPU_Specification.md; "
	  "448 GB/s for the 3070 also at https://winenfood.com/a-breakdown-of-all-rtx-3070-specifications): 608 kept; no tensor peak cited, and the "
	  "3070's 20.3 TFLOPS FP32 is not the Ti's, so none is given", NULL },
	{ "RTX 3080", 913, 0, 0, 0, 0,
	  "NVIDIA GeForce RTX 3080 family: SkyPilot's Vast.ai catalog writes the Ti and SUPER editions under the base name (instance types "
	  "2x-RTX_3060_Ti as RTX3060, 1x-RTX_4060_Ti as RTX4060, 2x-RTX_4070S_Ti as RTX4070), so the row holds the family's highest bandwidth, a bound "
	  "for each edition; RTX 3080 10 GB 760 GB/s, 12 GB 912, 3080 Ti 912 (the table at "
	  "https://github.com/CYBIRD-D/How-to-Choose-your-LLM-Model-for-translation/blob/52379077acab0e1d450adb86345f9e705bb6cade/Nvidia_GPU_Specification.md); "
	  "912.4 GB/s for the 12 GB at https://sysrqmts.com/tr/gpus/compare/nvidia-geforce-rtx-3080-12-gb-vs-nvidia-rtx-a4000: the higher, rounded up, "
	  "kept; no tensor or FP32 peak cited for the whole family", NULL },
	{ "RTX 3090", 936, 142000, 0, 0, 0,
	  "NVIDIA Ampere GA102 GPU architecture whitepaper, GeForce RTX 3090: 936 GB/s GDDR6X; FP16 Tensor with FP16 accumulate 142 TFLOPS (284 with sparsity)", NULL },
	{ "RTX 3090 Ti", 1008, 0, 0, 0, 0,
	  "NVIDIA GeForce RTX 3090 Ti: 24 GB GDDR6X at 21 Gbps on a 384-bit bus, 1,008 GB/s, as NVIDIA's specifications were reported at "
	  "https://www.tweaktown.com/news/84164/nvidia-geforce-rtx-3090-ti-full-specs-price-performance-details/index.html (a third-party page); "
	  "no tensor or FP32 peak cited", NULL },
	{ "RTX 4060", 288, 0, 0, 0, 0,
	  "NVIDIA GeForce RTX 4060 family: SkyPilot's Vast.ai catalog writes the Ti and SUPER editions under the base name (instance types "
	  "2x-RTX_3060_Ti as RTX3060, 1x-RTX_4060_Ti as RTX4060, 2x-RTX_4070S_Ti as RTX4070), so the row holds the family's highest bandwidth, a bound "
	  "for each edition; RTX 4060 272 GB/s (8 GB GDDR6, 17 Gbps, 128-bit), 4060 Ti 8 and 16 GB 288 GB/s (NVIDIA's specifications as reported at "
	  "https://www.telepolis.pl/tech/sprzet/nvidia-geforce-rtx-4060-ti-polskie-ceny-specyfikacja; the same in the table at "
	  "https://github.com/CYBIRD-D/How-to-Choose-your-LLM-Model-for-translation/blob/52379077acab0e1d450adb86345f9e705bb6cade/Nvidia_GPU_Specification.md): "
	  "288 kept (the catalog's RTX4060 has 16 GB, a 4060 Ti); no tensor or FP32 peak cited for the whole family", NULL },
	{ "RTX 4070", 672, 0, 0, 0, 0,
	  "NVIDIA GeForce RTX 4070 family: SkyPilot's Vast.ai catalog writes the Ti and SUPER editions under the base name (instance types "
	  "2x-RTX_3060_Ti as RTX3060, 1x-RTX_4060_Ti as RTX4060, 2x-RTX_4070S_Ti as RTX4070), so the row holds the family's highest bandwidth, a bound "
	  "for each edition; RTX 4070, 4070 SUPER and 4070 Ti 504 GB/s, 4070 Ti SUPER 672 GB/s, 16 GB (the table at "
	  "https://github.com/CYBIRD-D/How-to-Choose-your-LLM-Model-for-translation/blob/52379077acab0e1d450adb86345f9e705bb6cade/Nvidia_GPU_Specification.md; "
	  "504 GB/s for the 4070 at https://www.thefpsreview.com/gpu-family/nvidia-geforce-rtx-4070-gpu-family-specifications): 672 kept (the catalog's "
	  "RTX4070 has 16 GB per card, a 4070 Ti SUPER); no tensor or FP32 peak cited for the whole family", NULL },
	{ "RTX 4090", 1008, 330300, 660600, 0, 0,
	  "NVIDIA Ada GPU architecture whitepaper, GeForce RTX 4090: 1,008 GB/s GDDR6X; FP16 Tensor with FP16 accumulate 330.3 TFLOPS, FP8 660.6 TFLOPS (twice with sparsity)", NULL },
	{ "RTX 5090", 1792, 419200, 838400, 104800, 1676000,
	  "NVIDIA GeForce RTX 5090 (RTX Blackwell): 1,792 GB/s GDDR7, FP16 Tensor 838 TFLOPS with sparsity (Linux Format, May 2025, "
	  "https://pocketmags.com/linux-format-magazine/may-2025/articles/nvidia-geforce-rtx-5090); FP16 Tensor 838.4, FP8 1,676.8 and "
	  "FP4 3,352 TFLOPS with sparsity (https://www.spheron.network/blog/nvidia-rtx-5090-specs/): 419.2, 838.4 and 1,676 dense; "
	  "FP32 104.8 TFLOPS (TechPowerUp's figure in huggingface/huggingface.js commit 34edae3; 104 in Linux Format)", NULL },
	{ "RTX 6000 Ada", 960, 364250, 728500, 0, 0,
	  "NVIDIA RTX 6000 Ada Generation datasheet: 960 GB/s GDDR6; FP8 Tensor 1,457 TFLOPS with sparsity (728.5 dense; 16-bit half of that)", NULL },
	{ "RTX A2000", 288, 0, 0, 7987, 0,
	  "NVIDIA RTX A2000 (6 GB and 12 GB GDDR6, 192-bit, 12 Gbps): 288.0 GB/s and FP32 7.987 TFLOPS for both "
	  "(https://sysrqmts.com/es/gpus/compare/nvidia-geforce-rtx-2060-tu104-vs-nvidia-rtx-a2000-12-gb; "
	  "https://sysrqmts.com/ru/gpus/compare/nvidia-rtx-a2000-vs-nvidia-t600); no tensor peak cited", NULL },
	{ "RTX A4000", 448, 76700, 0, 19200, 0,
	  "NVIDIA RTX A4000 datasheet as reproduced at https://www.ecer.com/corp/details-uuuedqa-p1bsb03-pci-express-3-0-x16-nvidia-rtx-a4000-16g-graphics-card-for-professional-video-editing.html: "
	  "448 GB/s GDDR6; Tensor 153.4 TFLOPS with sparsity (76.7 dense); single precision 19.2 TFLOPS", NULL },
	{ "RTX A5000", 768, 0, 0, 27770, 0,
	  "NVIDIA RTX A5000 (GA102, 24 GB GDDR6, 384-bit): 768.0 GB/s "
	  "(https://cpu-gpu.alldbin.com/graphics-card-comparison/Radeon-RX-6900-XTX-and-RTX-A5000-comparison.html); FP32 27.77 TFLOPS "
	  "(https://huggingface.co/hardware/rtx-a5000); no tensor peak cited", NULL },
	{ "RTX A6000", 768, 154850, 0, 0, 0,
	  "NVIDIA RTX A6000 datasheet: 768 GB/s GDDR6; Tensor 309.7 TFLOPS with sparsity", NULL },
	{ "RTX PRO 6000 Blackwell", 1792, 503800, 1010000, 125950, 2020000,
	  "NVIDIA RTX PRO 6000 Blackwell (workstation, Max-Q and server editions; the highest edition's figures): 1,792 GB/s GDDR7 "
	  "(https://gpu.name/posts/nvidia-unveils-rtx-pro-6000-blackwell-gpu-with-24-064-cores-and-96gb-memory, after VideoCardz); "
	  "NVIDIA's 125 TFLOPS FP32 and 4,000 AI TOPS (FP4 with sparsity); at 2,617 MHz BF16 Tensor 503.8 TFLOPS, FP8 1.01 PFLOPS, "
	  "FP4 2.02 PFLOPS dense (4.03 with sparsity), FP32 125.95 TFLOPS "
	  "(https://hmc-tech.com/gpu/nvidia-rtx-pro-6000-blackwell-vs-amd-radeon-pro-duo-polaris)", NULL },
	{ "T4", 320, 65000, 0, 0, 0,
	  "NVIDIA T4 Tensor Core GPU datasheet: 320 GB/s GDDR6; mixed precision FP16/FP32 65 TFLOPS", NULL },
	{ "T4G", 320, 0, 0, 0, 0,
	  "NVIDIA T4G (AWS's G5g variant of the T4: TU104, 2,560 CUDA cores, 16 GB GDDR6, 256-bit): 320.0 GB/s, as listed at "
	  "https://cpu-gpu.alldbin.com/graphics-card-comparison/Tesla-P4-and-Tesla-T4G-comparison.html (the T4 datasheet's 320 GB/s); no tensor peak "
	  "cited for the T4G itself", NULL },
	{ "Trainium", 881, 190000, 190000, 47500, 0,
	  "AWS Trainium (per chip: the catalogs count each Trainium chip of a Trn1 instance as a card, 32 GiB each), AWS Neuron documentation, "
	  "\"Trainium Architecture\" (https://awsdocs-neuron.readthedocs-hosted.com/en/latest/general/arch/neuron-hardware/trainium.html): two "
	  "NeuronCore-v2 delivering 190 FP16/BF16/cFP8/TF32 TFLOPS and 47.5 FP32 TFLOPS; 32 GiB with 820 GiB/sec of bandwidth (820 GB/sec in the v2.9.1 "
	  "page: the higher, 880.5 GB/s, rounded up: a bound); NeuronLink-v2 between chips", NULL },
	{ "Trainium2", 3000, 667000, 1299000, 181000, 0,
	  "AWS Trainium2 (per chip of eight NeuronCore-v3, 96 GiB; the catalog's 512 GiB per accelerator is not the chip's: the figures are one "
	  "chip's), AWS Neuron documentation, \"Trainium2 Architecture\" "
	  "(https://raw.githubusercontent.com/aws-neuron/aws-neuron-sdk/master/about-neuron/arch/neuron-hardware/trainium2.rst): 1,299 FP8 TFLOPS, 667 "
	  "BF16/FP16/TF32 TFLOPS (2,563 sparse), 181 FP32 TFLOPS; 96 GiB with 2.9 TB/sec; \"bandwidth of 3TB/s\" in the NKI guide "
	  "(https://awsdocs-neuron.readthedocs-hosted.com/en/v2.29.0/_sources/nki/guides/architecture/trainium2_arch.rst): the higher kept, a bound; "
	  "NeuronLink-v3 between chips", NULL },
	{ "V100 16GB", 900, 125000, 0, 0, 0,
	  "NVIDIA V100 Tensor Core GPU datasheet: 900 GB/s HBM2; Tensor 125 TFLOPS (SXM2; PCIe 112)", NULL },
	{ "V100 32GB", 900, 125000, 0, 0, 0,
	  "NVIDIA V100 Tensor Core GPU datasheet: 900 GB/s HBM2; Tensor 125 TFLOPS (SXM2; PCIe 112)", NULL },
};

const gs_speed_gpu *gs_speed_table(size_t *n)
{
	*n = S_N(S_table);
	return S_table;
}

const gs_speed_gpu *gs_speed_gpu_of(const char *model)
{
	size_t i;

	if (!model)
		return NULL;
	for (i = 0; i < S_N(S_table); i++)
		if (strcmp(S_table[i].model, model) == 0)
			return &S_table[i];
	return NULL;
}

/* Is a at least b in bandwidth and every peak? */
static int S_covers(const gs_speed_gpu *a, const gs_speed_gpu *b)
{
	return a->bandwidth_gbs >= b->bandwidth_gbs && a->f16_gflops >= b->f16_gflops &&
	       a->fp8_gflops >= b->fp8_gflops && a->fp32_gflops >= b->fp32_gflops &&
	       a->fp4_gflops >= b->fp4_gflops;
}

const gs_speed_gpu *gs_speed_fastest(const char *const *models, size_t n)
{
	const gs_speed_gpu *best = NULL;
	size_t i;

	for (i = 0; i < n; i++) {
		const gs_speed_gpu *g = gs_speed_gpu_of(models[i]);
		if (!g)
			return NULL;
		if (!best || S_covers(g, best))
			best = g;
	}
	for (i = 0; best && i < n; i++)
		if (!S_covers(best, gs_speed_gpu_of(models[i])))
			return NULL;
	return best;
}

uint64_t gs_speed_peak_gflops(const gs_speed_gpu *g, const char *format)
{
	static const char *const f16[] = { "bf16", "bfloat16", "fp16", "float16", "half", NULL };
	static const char *const f8[] = {
		"fp8", "float8", "fp8_e4m3", "fp8_e5m2", "float8_e4m3fn", "float8_e5m2",
		"e4m3", "e5m2", NULL
	};
	static const char *const f32[] = { "fp32", "float32", "f32", NULL };
	static const char *const f4[] = {
		"fp4", "float4", "nvfp4", "mxfp4", "fp4_e2m1", "float4_e2m1fn_x2", "e2m1", NULL
	};
	size_t i;

	if (!g || !format)
		return 0;
	for (i = 0; f16[i]; i++)
		if (gs_util_eq_ci(format, f16[i]))
			return g->f16_gflops;
	for (i = 0; f8[i]; i++)
		if (gs_util_eq_ci(format, f8[i]))
			return g->fp8_gflops;
	for (i = 0; f32[i]; i++)
		if (gs_util_eq_ci(format, f32[i]))
			return g->fp32_gflops;
	for (i = 0; f4[i]; i++)
		if (gs_util_eq_ci(format, f4[i]))
			return g->fp4_gflops;
	return 0;
}

typedef unsigned __int128 S_u128;

uint64_t gs_speed_active_bytes(uint64_t weights, uint64_t parameters, uint64_t active)
{
	if (!parameters || !active || active >= parameters)
		return weights;
	return (uint64_t)((S_u128)weights * active / parameters);
}

/* ceil(num x 1000 / den), or UINT64_MAX beyond 64 bits. */
static uint64_t S_milli_up(S_u128 num, S_u128 den)
{
	S_u128 q = (num * 1000u + den - 1) / den;

	return q > UINT64_MAX ? UINT64_MAX : (uint64_t)q;
}

int gs_speed_bound(const gs_speed_gpu *g, const gs_speed_load *l, const char *format, gs_speed *out)
{
	uint64_t kv_all, seqs, cards;

	memset(out, 0, sizeof(*out));
	out->gpu = g;
	out->load = *l;
	if (!g || !l->weights_read)
		return 0;
	seqs = l->sequences ? l->sequences : 1;
	cards = l->cards ? l->cards : 1;
	out->load.sequences = seqs;
	out->load.cards = cards;
	if (gs_qty_mul_u64(seqs, l->kv_read, &kv_all) ||
	    (l->kv_replicated && gs_qty_mul_u64(kv_all, cards, &kv_all)) ||
	    gs_qty_add_u64(l->weights_read, kv_all, &out->bytes_per_step) ||
	    gs_qty_mul_u64(g->bandwidth_gbs, GS_GB, &out->bw) ||
	    gs_qty_mul_u64(out->bw, cards, &out->bw))
		return -1;
	out->known = 1;
	out->spec_max = l->tokens_per_step_max > 1 ? l->tokens_per_step_max : 1;
	out->decode_seq_milli = S_milli_up((S_u128)out->bw * out->spec_max, out->bytes_per_step);
	out->decode_total_milli = S_milli_up((S_u128)out->bw * seqs * out->spec_max, out->bytes_per_step);
	out->decode_weights_milli = S_milli_up((S_u128)out->bw * out->spec_max, l->weights_read);
	if (l->efficiency_milli || l->tokens_per_step_milli) {
		/* bw / bytes x e x a, in thousandths, rounded down */
		S_u128 f = (S_u128)(l->efficiency_milli ? l->efficiency_milli : 1000u) *
			   (l->tokens_per_step_milli ? l->tokens_per_step_milli : 1000u);
		S_u128 seq = (S_u128)out->bw * f / 1000u / out->bytes_per_step;
		out->has_expected = 1;
		out->expected_seq_milli = seq > UINT64_MAX ? UINT64_MAX : (uint64_t)seq;
		seq = (S_u128)out->bw * seqs * f / 1000u / out->bytes_per_step;
		out->expected_total_milli = seq > UINT64_MAX ? UINT64_MAX : (uint64_t)seq;
	}
	out->peak_gflops = gs_speed_peak_gflops(g, format);
	if (out->peak_gflops && l->active_parameters) {
		S_u128 flops = (S_u128)out->peak_gflops * GS_GB * cards;     /* FLOP/s of the lot */
		S_u128 per_token = (S_u128)l->active_parameters * 2u;
		out->peak_gflops *= cards;
		out->has_prefill = 1;
		out->prefill_milli = S_milli_up(flops, per_token);
		if (l->input_tokens) {
			/* N x 2P / F seconds, in microseconds, rounded down */
			S_u128 t = per_token * l->input_tokens * 1000000u / flops;
			out->has_ttft = 1;
			out->ttft_micro = t > UINT64_MAX ? UINT64_MAX : (uint64_t)t;
		}
	}
	return 0;
}

int gs_speed_below(const gs_speed *s, int which, uint64_t req_milli)
{
	if (!s->known)
		return 0;
	/* bw x t / bytes < req / 1000  <=>  bw x t x 1000 < req x bytes */
	if (which == 0)
		return (S_u128)s->bw * s->spec_max * 1000u < (S_u128)req_milli * s->load.weights_read;
	return (S_u128)s->bw * s->load.sequences * s->spec_max * 1000u <
	       (S_u128)req_milli * s->bytes_per_step;
}

/* One observed figure (thousandths) against bw x seqs / weights, exactly. */
static void S_check_one(const gs_speed *s, uint64_t seqs, uint64_t obs, uint64_t *bound,
			uint64_t *ratio, int *above)
{
	S_u128 num = (S_u128)s->bw * seqs * s->spec_max * 1000u, b;

	b = (num + s->load.weights_read - 1u) / s->load.weights_read;   /* rounded up: a bound */
	*bound = b > UINT64_MAX ? UINT64_MAX : (uint64_t)b;
	/* obs / 1000 > bw x seqs / weights  <=>  obs x weights > bw x seqs x 1000 */
	*above = (S_u128)obs * s->load.weights_read > num;
	*ratio = *bound ? (uint64_t)((S_u128)obs * 1000u / *bound) : 0;
}

int gs_speed_check_observed(gs_speed *s)
{
	if (!s->known || !s->load.weights_read)
		return 0;
	if (s->has_obs_seq)
		S_check_one(s, 1, s->obs_seq_milli, &s->obs_seq_bound_milli, &s->obs_seq_ratio_milli,
			    &s->obs_seq_above);
	if (s->has_obs_total)
		S_check_one(s, s->load.sequences ? s->load.sequences : 1, s->obs_total_milli,
			    &s->obs_total_bound_milli, &s->obs_total_ratio_milli, &s->obs_total_above);
	return s->obs_seq_above || s->obs_total_above;
}

int gs_speed_ttft_above(const gs_speed *s, uint64_t req_milli)
{
	S_u128 lhs, rhs;

	if (!s->has_ttft)
		return 0;
	/* N x 2P / F > req / 1000  <=>  N x 2P x 1000 > req x F (F in FLOP/s) */
	lhs = (S_u128)s->load.input_tokens * s->load.active_parameters * 2u * 1000u;
	rhs = (S_u128)req_milli * s->peak_gflops * GS_GB;
	return lhs > rhs;
}

int gs_speed_cost_per_mtok(const gs_speed *s, int64_t micro_per_hour, int64_t *out)
{
	S_u128 num, den, m;

	if (!s->known || micro_per_hour < 0)
		return -1;
	num = (S_u128)1000000u * s->bytes_per_step;     /* < 2^84 */
	den = (S_u128)3600u * s->bw * s->load.sequences * s->spec_max;
	m = (S_u128)(uint64_t)micro_per_hour;
	if (!den || (num && m > ~(S_u128)0 / num))
		return -1;
	num = m * num / den;
	if (num > (S_u128)INT64_MAX)
		return -1;
	*out = (int64_t)num;
	return 0;
}

static char *S_fmt_tenths(char *buf, uint64_t tenths, gs_lang lang)
{
	size_t o;

	gs_qty_fmt_int(buf, tenths / 10u, lang);
	o = strlen(buf);
	buf[o++] = lang == GS_LANG_ES ? ',' : '.';
	buf[o++] = (char)('0' + tenths % 10u);
	buf[o] = '\0';
	return buf;
}

char *gs_speed_fmt(char *buf, uint64_t milli, gs_lang lang)
{
	return S_fmt_tenths(buf, milli / 100u + (milli % 100u != 0), lang);
}

char *gs_speed_fmt_down(char *buf, uint64_t milli, gs_lang lang)
{
	return S_fmt_tenths(buf, milli / 100u, lang);
}

char *gs_speed_fmt_seconds(char *buf, uint64_t micro, gs_lang lang)
{
	uint64_t ms = micro / 1000u;
	size_t o;

	gs_qty_fmt_int(buf, ms / 1000u, lang);
	o = strlen(buf);
	snprintf(buf + o, GS_FMT_MAX - o, "%c%03u", lang == GS_LANG_ES ? ',' : '.', (unsigned)(ms % 1000u));
	return buf;
}

const char *gs_speed_source(const gs_speed *sp)
{
	return sp->variant_source ? sp->variant_source : sp->gpu->source;
}
