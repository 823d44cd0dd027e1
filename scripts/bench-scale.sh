#!/usr/bin/env bash
# Issue 15's paired side-by-side table (scripts/bench_scale.py): shiftdp's certified
# composition against dp_accounting's PLD accountant and prv-accountant at 10⁵–10⁷
# steps, in one session. Creates/uses target/bench-venv (PyPI releases of the peers and
# shiftdp built from ./python) and the release CLI.
# Usage: scripts/bench-scale.sh [--reps N] [--quick]
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/ensure-deps.sh
VENV=target/bench-venv
if [ ! -x "$VENV/bin/python" ]; then
  python3 -m venv "$VENV"
fi
"$VENV/bin/python" -m pip install -q --disable-pip-version-check dp-accounting prv-accountant
"$VENV/bin/python" -m pip install -q --disable-pip-version-check --force-reinstall --no-deps ./python
cargo build --release -q -p shiftdp-cli
cargo build --release -q -p shiftdp --example fft_floor
exec "$VENV/bin/python" scripts/bench_scale.py "$@"
