#!/bin/sh
# Installs what gpusheet needs on Debian 12 (run as root).
#   sh tools/install-deps.sh          build and run gpusheet
#   sh tools/install-deps.sh --test   also what the test suite needs
#                                     (xmllint, Chromium and playwright-core for the browser test,
#                                     python3 and python3-jsonschema for the provenance
#                                     scan and the schema checks, python3-torch, a CPU build of
#                                     PyTorch, for the Python bridge's tests: about 146 MB to
#                                     download, 633 MB installed; clang and
#                                     libclang-rt-14-dev for the libFuzzer harnesses of
#                                     tests/fuzz)
set -eu
cd "$(dirname "$0")/.."
export DEBIAN_FRONTEND=noninteractive
pkgs="build-essential cmake pkg-config libxml2-dev libcmark-gfm-dev libcmark-gfm-extensions-dev
      libjansson-dev libcairo2-dev libpng-dev nettle-dev fonts-dejavu-core"
if [ "${1:-}" = "--test" ]; then
	pkgs="$pkgs libxml2-utils chromium ca-certificates python3 python3-jsonschema python3-torch clang libclang-rt-14-dev"
	# Node.js and npm: Debian's, unless the machine already has a Node.js
	# with its own npm (whose package conflicts with Debian's npm).
	command -v npm >/dev/null 2>&1 || pkgs="$pkgs nodejs npm"
fi
apt-get update -q
# shellcheck disable=SC2086
apt-get install -y -q --no-install-recommends $pkgs
if [ "${1:-}" = "--test" ] && [ -f tests/browser/package-lock.json ]; then
	(cd tests/browser && npm ci --no-audit --no-fund)
fi
