#!/usr/bin/env bash
# Times eps(delta) of mu-GDP in shiftdp (criterion) against scipy and mpmath.
# Creates a virtual environment in target/pyenv (never a dependency of the library).
set -euo pipefail
cd "$(dirname "$0")/.."
venv=target/pyenv
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q scipy mpmath
fi
cargo bench --quiet --bench precision -- epsilon_gdp >/dev/null
"$venv/bin/python" benches/compare_scipy.py
