#!/usr/bin/env bash
# The main job's Python example: builds the package into target/py-venv (py-venv.sh) and
# runs python/examples/quickstart.py.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/py-venv.sh
target/py-venv/bin/python python/examples/quickstart.py
