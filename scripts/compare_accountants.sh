#!/usr/bin/env bash
# Side-by-side check of `shiftdp compose` against dp-accounting and prv-accountant.
# Creates a venv under target/compare-venv, installs the two accountants from PyPI,
# builds the Rust runner and prints values and wall times for the same compositions.
# Usage: scripts/compare_accountants.sh [extra args passed to compare_accountants.py]
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=target/compare-venv
if [ ! -x "$VENV/bin/python" ]; then
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install --quiet --upgrade pip
  "$VENV/bin/pip" install --quiet dp-accounting prv-accountant scipy numpy
fi
cargo build --release --quiet >&2
RUNNER="target/release/shiftdp compose"
exec "$VENV/bin/python" scripts/compare_accountants.py --runner "$RUNNER" "$@"
