#!/usr/bin/env bash
# The Python package (python/) and the benchmark package (bench/): builds shiftdp from
# this checkout with maturin (from
# PyPI, through pip's build isolation) into a virtual environment under target/py-venv,
# with pytest, mpmath, dp-accounting and prv-accountant (the reference of Opacus's PRV
# accountant, for the consistency test of the Opacus-interface accountant) beside it, and
# runs its pytest suite (test_campaign.py is the bounded run of the campaign in campaign/, which
# python/tests/test_campaign.py puts on sys.path itself; dask and distributed are for the
# campaign's long run and the dask example; Sphinx, from python/docs/requirements.txt, for
# test_docs.py, the nitpicky build of the API documentation, about 10 s; matplotlib for
# the drawing tests of shiftdp.plot and of the benchmark report; mypy for test_typing.py,
# `mypy --strict` on python/examples/ and the README's examples).
# Idempotent and quiet: the venv is created once; pip re-installs only the package itself
# (--force-reinstall, so the suite always tests the current source; cargo's incremental
# build in target/ keeps that fast).
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=target/py-venv
./scripts/py-venv.sh pytest mpmath dp-accounting prv-accountant dask distributed matplotlib mypy -r python/docs/requirements.txt
# from the repository root, so that the source folder python/shiftdp (which lacks the
# compiled _core) is not on sys.path in place of the installed package
"$VENV/bin/python" -m pytest python/tests bench/tests -q -p no:cacheprovider
