#!/usr/bin/env bash
# Peer-accountant benchmark: create target/bench-venv with the PyPI releases of
# the peers, install shiftdp from ./python, run `python -m shiftdp.bench run` on
# bench/reference.json (or bench/reference.sample.json when the full suite is absent) and
# print the summary. Extra arguments go to `python -m shiftdp.bench run`
# (e.g. --limit 50 --timeout 30 --peers dp_accounting.rdp,prv_accountant).
# Environment: SUITE=path, OUT=dir (default out/bench), VENV=dir (default target/bench-venv),
# CARGO_TARGET_DIR to reuse a Rust build.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=${VENV:-target/bench-venv}
OUT=${OUT:-out/bench}
if [ -z "${SUITE:-}" ]; then
  if [ -f bench/reference.json ]; then SUITE=bench/reference.json; else SUITE=bench/reference.sample.json; fi
fi
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
echo "[bench] suite: $SUITE" >&2
"$VENV/bin/python" -m shiftdp.bench peers >&2
"$VENV/bin/python" -m shiftdp.bench run --suite "$SUITE" --out "$OUT" "$@"
echo "[bench] report: $OUT/index.html, $OUT/summary.md, $OUT/results.json" >&2
