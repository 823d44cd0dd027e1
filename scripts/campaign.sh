#!/usr/bin/env bash
# The long run of the adversarial soundness campaign (campaign/README.md): installs dask,
# distributed, mpmath and dp-accounting into target/py-venv beside the package (built from
# this checkout), then runs `python -m shiftdp_campaign run` with the given arguments,
# e.g. scripts/campaign.sh --checks 1000000 --out campaign-out --workers 2
# (a rerun with the same --out and --seed skips the finished shards).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/py-venv.sh pytest mpmath dp-accounting dask distributed
export SHIFTDP_BIN="${SHIFTDP_BIN:-${CARGO_TARGET_DIR:-target}/release/shiftdp}"
PYTHONPATH="$PWD/campaign${PYTHONPATH:+:$PYTHONPATH}" exec target/py-venv/bin/python -m shiftdp_campaign run "$@"
