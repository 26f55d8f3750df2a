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
#                                     tests/fuzz; locales and the
#                                     de_DE.UTF-8 locale generated, for the
#                                     decimal-comma checks of
#                                     unit/test_locale and script/sheet-determinism)
set -eu
cd "$(dirname "$0")/.."
export DEBIAN_FRONTEND=noninteractive
pkgs="build-essential cmake pkg-config libxml2-dev libcmark-gfm-dev libcmark-gfm-extensions-dev
      libjansson-dev libcairo2-dev libdeflate-dev nettle-dev fonts-dejavu-core"
if [ "${1:-}" = "--test" ]; then
	pkgs="$pkgs libxml2-utils chromium ca-certificates python3 python3-jsonschema python3-torch clang libclang-rt-14-dev locales"
	# Node.js and npm: Debian's, unless the machine already has a Node.js
	# with its own npm (whose package conflicts with Debian's npm).
	command -v npm >/dev/null 2>&1 || pkgs="$pkgs nodejs npm"
fi
apt-get update -q
# shellcheck disable=SC2086
apt-get install -y -q --no-install-recommends $pkgs
# de_DE.UTF-8 (a decimal comma) for the locale checks; idempotent: the
# line uncommented in /etc/locale.gen (added if absent), locale-gen run
# only while the locale is missing.
if [ "${1:-}" = "--test" ] && ! locale -a 2>/dev/null | grep -qix 'de_DE\.utf-\?8'; then
	touch /etc/locale.gen
	sed -i 's/^# *\(de_DE\.UTF-8 UTF-8\)$/\1/' /etc/locale.gen
	grep -qx 'de_DE\.UTF-8 UTF-8' /etc/locale.gen || echo 'de_DE.UTF-8 UTF-8' >> /etc/locale.gen
	locale-gen
fi
if [ "${1:-}" = "--test" ] && [ -f tests/browser/package-lock.json ]; then
	(cd tests/browser && npm ci --no-audit --no-fund)
fi
