#!/usr/bin/env bash
# The CLI fuzz corpus (scripts/fuzz-cli.py: random argument vectors of the numeric
# commands, extreme values 20 % of the time) under an address-space limit, so that an
# allocation failure shows up as an abort instead of swapping: lists every run that ends
# by SIGABRT / SIGSEGV (exit 134 / 139, or a negative status), and exits 1 if there is one.
# Usage: scripts/campaign-fuzz-cli.sh [SEED] [N] [LIMIT_KB]   (defaults 1, 300, 8000000)
set -uo pipefail
cd "$(dirname "$0")/.."
SEED="${1:-1}"
N="${2:-300}"
LIMIT="${3:-8000000}"
BIN="${SHIFTDP_BIN:-${CARGO_TARGET_DIR:-target}/release/shiftdp}"
[ -x "$BIN" ] || { echo "campaign-fuzz-cli: no binary at $BIN (cargo build --release -p shiftdp-cli)" >&2; exit 2; }
PY="${PYTHON:-python3}"
OUT="$(mktemp)"
trap 'rm -f "$OUT"' EXIT
# fuzz-cli.py prints one line per bad run: ('rc=N', [args], [first stderr line])
( ulimit -v "$LIMIT"; SHIFTDP_BIN="$BIN" "$PY" scripts/fuzz-cli.py "$SEED" "$N" ) >"$OUT" 2>&1
cat "$OUT"
ABORTS=$(grep -E "^\('rc=(134|139|-6|-11|-9)'" "$OUT" || true)
if [ -n "$ABORTS" ]; then
  echo "campaign-fuzz-cli: aborts under ulimit -v $LIMIT:"
  echo "$ABORTS"
  exit 1
fi
echo "campaign-fuzz-cli: seed $SEED, $N runs under ulimit -v $LIMIT: no abort"
