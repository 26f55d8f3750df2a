#!/bin/sh
# The JSON schemas in schemas/ stay true: every example workload and
# measurement validates against its schema, every bad-input workload the
# strict reader refuses for a rule the schema can express is refused by the
# schema too, and every decision JSON the goldens hold validates against
# schemas/decision.schema.json (exact u64 sizes included), each verdict's
# "why" naming a reason of its requirement and verdict (decision_reasons.py).
# Usage: schemas.sh GPUSHEET SOURCE_DIR SCRATCH_DIR
set -u
bin=$1 src=$2 scratch=$3
. "$src/tests/lib/common.sh"
cd "$src" || exit 1
need python3 "sh tools/install-deps.sh --test"
python3 -c 'import jsonschema' 2>/dev/null || die "python3-jsonschema is missing (sh tools/install-deps.sh --test)"
v=tests/lib/validate_schema.py

# shellcheck disable=SC2046
python3 "$v" schemas/workload.schema.json examples/*/workload.json tests/data/workload-*.json \
	tests/data/models/workload-from-tiny.json tests/data/models/init-mistral-7b-v0.1.json \
	tests/data/models/workload-vllm-mistral-8k.json tests/data/models/workload-sglang-mistral-8k.json \
	tests/data/models/workload-sglang-qwen3-30b-a3b.json \
	tests/data/models/init-llama-3.1-8b-q8_0.json tests/data/models/workload-llama-3.1-8b-kv-lever.json \
	$(find tests/data/sheet/rules tests/data/sheet/speed-assumed -name workload.json) \
	tests/data/training/*.json || err "workloads do not match their schema"
# shellcheck disable=SC2046
python3 "$v" schemas/measurement.schema.json $(find examples -path '*/measurements/*.json' ! -path '*/evidence/*') \
	tests/data/measurement-ok.json $(find tests/cli -path '*/evidence-import-*/expected-out/*.json') \
	|| err "measurements do not match their schema"
# shellcheck disable=SC2046
python3 "$v" schemas/decision.schema.json $(find tests/cli -path '*/expected-out/*.json' ! -name 'summary*' ! -path '*/evidence-import-*') \
	|| err "decision JSON does not match its schema"
# (the evidence imports' goldens are measurements, checked above)
# and what the schema cannot say: each verdict's why names its reason
# shellcheck disable=SC2046
python3 tests/lib/decision_reasons.py $(find tests/cli -path '*/expected-out/*.json' ! -name 'summary*' ! -path '*/evidence-import-*') \
	|| err "decision JSON: a verdict's why does not name its reason"
# the schema refuses what the reader refuses, for these rules
for f in quality-evidence-string quality-evidence-no-date software-bad-version condition-bad-name \
	sglang-vllm-setting sglang-fraction-bad kv-dtype-unknown kv-dtype-bytes-per-value kv-dtype-disagree \
	ollama-name speed-assumptions-no-source; do
	python3 "$v" schemas/workload.schema.json "tests/bad/workload/$f.json" > /dev/null \
		&& err "schema accepts tests/bad/workload/$f.json"
done
for f in not-synthetic-no-producer not-synthetic-no-device condition-zero; do
	python3 "$v" schemas/measurement.schema.json "tests/bad/measurement/$f.json" > /dev/null \
		&& err "schema accepts tests/bad/measurement/$f.json"
done
finish "schemas: ok"
