#!/usr/bin/env bash
# Creates the virtual environment target/py-venv once and (re)installs the Python package
# shiftdp from ./python into it (maturin through pip's build isolation; cargo's
# incremental build in target/ keeps re-installs fast), and the peer benchmark's package
# shiftdp-bench from ./bench (pure Python). Extra arguments are packages to
# install beside it. Used by test-python.sh and python-example.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
PY="${PYTHON:-python3}"
VENV=target/py-venv
if [ ! -x "$VENV/bin/python" ]; then
  if ! "$PY" -m venv "$VENV" >/dev/null 2>&1; then
    rm -rf "$VENV"
    echo "shiftdp: '$PY -m venv' failed; install Python ≥ 3.9 with venv (e.g. 'apt-get install python3-venv') and re-run." >&2
    exit 1
  fi
fi
pip_q() { "$VENV/bin/python" -m pip install -q --disable-pip-version-check "$@"; }
if [ "$#" -gt 0 ]; then
  pip_q "$@"
fi
pip_q --force-reinstall --no-deps ./python
# the peer benchmark, its own pure-Python package (bench/), beside it
pip_q --force-reinstall --no-deps ./bench
