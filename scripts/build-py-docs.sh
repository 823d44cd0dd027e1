#!/usr/bin/env bash
# Builds the rendered API documentation of the Python package shiftdp (python/docs/, Sphinx
# autodoc) into target/py-docs/ (open target/py-docs/index.html).
#
# Installs the package and the documentation tool (python/docs/requirements.txt: Sphinx,
# and dp-accounting, from whose classes shiftdp.accounting builds its accountant) into
# target/py-venv through py-venv.sh — the test suite's venv, which test-python.sh gives the
# same packages (cargo's incremental build makes a re-install fast). The build runs in
# Sphinx's nitpicky mode with warnings as errors (-n -W --keep-going) and a fresh
# environment (-E): a cross-reference that resolves to nothing, a malformed docstring or a
# module that fails to import fails the build, with every warning listed.
#
# Usage: scripts/build-py-docs.sh [--no-install] [OUTDIR]
#   --no-install   document the shiftdp installed in target/py-venv as it is
#   OUTDIR         where the HTML goes (default target/py-docs)
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=target/py-venv
INSTALL=1
if [ "${1:-}" = "--no-install" ]; then
  INSTALL=0
  shift
fi
OUT="${1:-target/py-docs}"

if [ "$INSTALL" = 1 ] || [ ! -x "$VENV/bin/python" ]; then
  ./scripts/py-venv.sh -r python/docs/requirements.txt
else
  "$VENV/bin/python" -m pip install -q --disable-pip-version-check -r python/docs/requirements.txt
fi

rm -rf "$OUT"
start=$(date +%s.%N)
"$VENV/bin/python" -m sphinx -b html -n -W --keep-going -E -q \
  -d "$OUT/.doctrees" python/docs "$OUT"
end=$(date +%s.%N)
pages=$(find "$OUT" -name '*.html' -not -path '*/_*' | wc -l)
secs=$(awk "BEGIN { printf \"%.1f\", $end - $start }")
echo "shiftdp: API documentation in $OUT/index.html ($pages pages, sphinx-build ${secs} s, 0 warnings)"
