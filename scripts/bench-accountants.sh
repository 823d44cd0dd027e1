#!/usr/bin/env bash
# Peer-accountant benchmark: create target/bench-venv with the PyPI releases of
# the peers, install shiftdp from ./python and the benchmark package from ./bench, run
# `python -m shiftdp_bench run` on the reference suite shipped with the benchmark package
# (bench/shiftdp_bench/data/reference.json) or
# on $SUITE, and print the summary. Extra arguments go to `python -m shiftdp_bench run`
# (e.g. --quick, --limit 50 --timeout 30 --peers dp_accounting.rdp,prv_accountant).
# Environment: SUITE=path, OUT=dir (default out/bench), VENV=dir (default target/bench-venv),
# CARGO_TARGET_DIR to reuse a Rust build.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=${VENV:-target/bench-venv}
OUT=${OUT:-out/bench}
[ -x "$VENV/bin/python" ] || python3 -m venv "$VENV"
PIP="$VENV/bin/pip"
"$PIP" install -q --upgrade pip >/dev/null
"$PIP" install -q dp-accounting prv-accountant matplotlib scipy pytest mpmath
mkdir -p "$OUT"
: > "$OUT/install.log"
if "$PIP" install -q autodp >>"$OUT/install.log" 2>&1; then
  echo "[bench] autodp installed" >&2
else
  echo "[bench] autodp: pip install failed (see $OUT/install.log); the report lists it as skipped" >&2
fi
echo "[bench] opacus is not installed here (it needs torch); run this venv's package from an environment with opacus to include it" >&2
"$PIP" install -q --force-reinstall --no-deps ./python
"$PIP" install -q --force-reinstall --no-deps ./bench
echo "[bench] suite: ${SUITE:-the packaged bench/shiftdp_bench/data/reference.json}" >&2
"$VENV/bin/python" -m shiftdp_bench peers >&2
"$VENV/bin/python" -m shiftdp_bench run ${SUITE:+--suite "$SUITE"} --out "$OUT" "$@"
echo "[bench] report: $OUT/index.html, $OUT/summary.md, $OUT/results.json" >&2
