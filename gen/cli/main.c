/* gpusheet: does this workload fit on this GPU, how sure are we, which offer. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef GS_FAULT_INJECTION
#include <locale.h>
#endif

#include "commands.h"

static const char S_usage[] =
	"usage: gpusheet <command> [options]\n"
	"\n"
	"commands:\n"
	"  model    PATH|ORG/NAME[@REVISION]|ollama:NAME[:TAG] [--json] [--lang en|es]\n"
	"           geometry and exact weight bytes from a model's config.json,\n"
	"           safetensors headers or GGUF header (never the tensor data);\n"
	"           a repo id is read offline from the Hugging Face cache, an\n"
	"           ollama:NAME[:TAG] from Ollama's store (OLLAMA_MODELS)\n"
	"  init     --model PATH|ORG/NAME[@REVISION]|ollama:NAME[:TAG] --context N\n"
	"           [--output-tokens N] [--sequences N]\n"
	"           [--task inference|adaptation|training] [--id ID]\n"
	"           [--kv-dtype fp16|bf16|fp32|fp8|q8_0|q4_0] [--engine vllm|sglang]\n"
	"           [--engine-version V] [--max-num-batched-tokens N] [--tensor-parallel N]\n"
	"           [--format bf16|int8|fp8|awq-int4|gptq-int4|mxfp4|nvfp4]\n"
	"           [--images WxH[xN]] --out FILE\n"
	"           write a complete workload sheet for that model\n"
	"  estimate --parameters N --bits B --reserve-gib R [--formats 16,8,4] [--json] [--lang en|es]\n"
	"           weights, envelope and format table (calculated)\n"
	"  kv       --layers L --kv-heads H --head-dim D --tokens T --bytes-per-value B\n"
	"           | --kv-dtype fp16|bf16|fp32|fp8|q8_0|q4_0\n"
	"           --sequences S [--window W] [--json] [--lang en|es]\n"
	"           KV cache of a dense (or sliding-window) cache (calculated)\n"
	"  check    FILE...   validate workload sheets, catalogs and measurements\n"
	"  sheet    WORKLOAD.json [--catalog FILE]... [--out DIR] [--lang en|es]\n"
	"           [--require-retained] [--accept-synthetic] [--summary FILE] [--png]\n"
	"           write the decision sheet\n"
	"  site     --workloads DIR... [--catalog FILE]... --out DIR [--lang en|es]\n"
	"           [--accept-synthetic] [--png] [--md] [-j N] [--shard K/N]\n"
	"           the comparison site with its evidence archive (or one shard of it)\n"
	"  merge    OUT SHARD... [--catalog FILE]... [--lang en|es] [--date YYYY-MM-DD]\n"
	"           [--accept-synthetic] [--png] [--md]   the site from its shards, no sheet rendered\n"
	"  verify   DIR       recompute evidence hashes and follow every link\n"
	"  catalog  import --from skypilot FILE.csv --provider NAME [--source-date YYYY-MM-DD]\n"
	"           [--source-ref TEXT] --out catalog.xml   import a public price catalog\n"
	"  evidence import --from vllm|sglang|torch-oom|torch-stats|llama.cpp|llama-bench|vllm-bench|llama-timings|vllm-stats\n"
	"           LOG --source TEXT\n"
	"           --out FILE.json [--gpu [K=]NAME]... [--model NAME] [--dims NAME=N,...]\n"
	"           [--dtype NAME] [--start N] [--block-size N] [--phase NAME] [--device N]\n"
	"           [--into WORKLOAD.json] [--predict WORKLOAD.json]\n"
	"           a measurement from an engine's log, every figure citing its line\n"
	"\n"
	"  gpusheet --help | --version\n"
	"\n"
	"exit codes: 0 success, 1 invalid input or value (nothing written),\n"
	"            2 usage error, 3 sheet written but nothing retained on evidence\n"
	"            (--require-retained; a retained offer resting on synthetic evidence counts as none)\n";

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		int (*run)(int, char **);
	} cmds[] = {
		{ "estimate", gs_cmd_size_estimate },  { "kv", gs_cmd_size_kv },
		{ "check", gs_cmd_check },             { "sheet", gs_cmd_sheet },
		{ "site", gs_cmd_site },               { "verify", gs_cmd_verify },
		{ "model", gs_cmd_model },             { "init", gs_cmd_init },
		{ "catalog", gs_cmd_catalog },         { "merge", gs_cmd_merge },
		{ "evidence", gs_cmd_evidence },
	};
	size_t i;

#ifdef GS_FAULT_INJECTION
	/* Test builds: GS_TEST_SETLOCALE=1 takes the environment's locale, which
	 * gpusheet never does, so that a test can show that no byte depends on
	 * it (tests/scripts/sheet-determinism.sh); the decimal point then in
	 * force goes to stderr, so that the test sees the binary used the
	 * locale, not only that the locale exists. */
	if (getenv("GS_TEST_SETLOCALE")) {
		const char *l = setlocale(LC_ALL, "");
		fprintf(stderr, "gpusheet: test locale %s, decimal point \"%s\"\n",
			l ? l : "(refused)", localeconv()->decimal_point);
	}
#endif
	if (argc < 2) {
		fputs(S_usage, stderr);
		return GS_EXIT_USAGE;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		fputs(S_usage, stdout);
		return GS_EXIT_OK;
	}
	if (strcmp(argv[1], "--version") == 0) {
		printf("gpusheet %s\n", GS_VERSION);
		return GS_EXIT_OK;
	}
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (strcmp(argv[1], cmds[i].name) == 0)
			return cmds[i].run(argc - 1, argv + 1);
	fprintf(stderr, "gpusheet: unknown command \"%s\"\n\n%s", argv[1], S_usage);
	return GS_EXIT_USAGE;
}
