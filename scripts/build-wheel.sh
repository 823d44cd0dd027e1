#!/usr/bin/env bash
# Builds the Python package's wheel (python/) as an abi3 manylinux_2_17 wheel — one file
# for every CPython ≥ 3.9 on glibc ≥ 2.17 — into target/wheels/, and checks it.
#
#   scripts/build-wheel.sh                 build, then check
#   scripts/build-wheel.sh --build-only    build only
#   scripts/build-wheel.sh --check [WHEEL] check only (default: the wheel in target/wheels/)
#
# Build: maturin (pinned, from PyPI, in the venv target/wheel-tools) with zig as the C
# compiler and linker, against glibc 2.17 whatever the host's glibc. GMP and MPFR (built
# from source by the gmp-mpfr-sys crate under `rug`) are compiled by the same zig, through
# the wrapper CC written below, so no object in the wheel needs a newer glibc; GMP is
# configured --enable-fat by gmp-mpfr-sys (kernels chosen at run time, portable to any
# x86-64). Needs Rust (cargo), m4 and make (scripts/ensure-deps.sh installs m4 with
# apt-get when run as root); the first build takes 15–25 minutes on 2 cores.
# Deterministic where it can be: pinned tools, `--locked`, SOURCE_DATE_EPOCH from the last
# commit (zip timestamps), the cargo home remapped out of the binary, GMP's build cache
# kept apart from the host's (~/.cache/gmp-mpfr-sys holds gcc/host-glibc builds).
#
# Check: `twine check --strict`; `auditwheel show` must find the wheel consistent with a
# manylinux tag no newer than the one in its name; then a fresh venv
# (target/wheel-check-venv, no Rust, binary packages only) installs the wheel with its
# `test` and `accounting` extras and prv-accountant (as scripts/test-python.sh) and the
# benchmark package from bench/, and runs the pytest suites python/tests and bench/tests
# against the installed wheel (skip reasons listed).
# PYTHON selects the interpreter of both venvs (default python3).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

MATURIN_VERSION=1.16.0
ZIGLANG_VERSION=0.17.1
AUDITWHEEL_VERSION=6.8.2
TWINE_VERSION=7.0.0
GLIBC=2.17
TAG="manylinux_${GLIBC/./_}"

PY="${PYTHON:-python3}"
ARCH=$(uname -m)
TOOLS=$ROOT/target/wheel-tools
CHECK_VENV=$ROOT/target/wheel-check-venv
OUT=$ROOT/target/wheels
TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target}"

mode=all
wheel=""
while [ "$#" -gt 0 ]; do
  case "$1" in
    --build-only) mode=build ;;
    --check)
      mode=check
      if [ "$#" -gt 1 ] && [ "${2#-}" = "$2" ]; then
        wheel=$(realpath "$2")
        shift
      fi
      ;;
    -h | --help)
      sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'
      exit 0
      ;;
    *)
      echo "build-wheel: unknown argument '$1' (see --help)" >&2
      exit 2
      ;;
  esac
  shift
done

say() { echo "build-wheel: $*" >&2; }

make_venv() { # DIR
  if ! "$PY" -c 'import sys; sys.exit(sys.version_info < (3, 9))' 2>/dev/null; then
    say "'$PY' is not a Python ≥ 3.9; set PYTHON to one."
    exit 1
  fi
  if ! "$PY" -m venv "$1" >/dev/null 2>&1; then
    rm -rf "$1"
    say "'$PY -m venv' failed; install Python ≥ 3.9 with venv (e.g. 'apt-get install python3-venv') and re-run."
    exit 1
  fi
}

tools() {
  if [ ! -x "$TOOLS/bin/python" ]; then
    make_venv "$TOOLS"
  fi
  "$TOOLS/bin/python" -m pip install -q --disable-pip-version-check \
    "maturin==$MATURIN_VERSION" "ziglang==$ZIGLANG_VERSION" \
    "auditwheel==$AUDITWHEEL_VERSION" "twine==$TWINE_VERSION"
}

build() {
  ./scripts/ensure-deps.sh
  if ! command -v make >/dev/null 2>&1; then
    say "make is missing (needed to build GMP/MPFR); install it (e.g. 'apt-get install make') and re-run."
    exit 1
  fi
  tools
  # The C compiler of GMP/MPFR: zig's clang for glibc $GLIBC. A script, not "zig cc -target
  # …" in CC, since gmp.h records CC and MPFR is then built with it. UBSan off: zig cc
  # enables it (trapping) in some optimization modes, and GMP is not written for it.
  local zigcc=$TOOLS/bin/zigcc-$ARCH-linux-gnu.$GLIBC
  printf '#!/bin/sh\nexec "%s" -m ziglang cc -target %s-linux-gnu.%s -fno-sanitize=undefined "$@"\n' \
    "$TOOLS/bin/python" "$ARCH" "$GLIBC" >"$zigcc"
  chmod +x "$zigcc"

  export CC=$zigcc
  unset CFLAGS CXXFLAGS CARGO_ENCODED_RUSTFLAGS
  # gmp-mpfr-sys reruns its build when this changes and keys its cache by CC: a build of
  # this target dir made without the script (host gcc) is not reused
  export GMP_MPFR_SYS_CACHE=$TARGET_DIR/gmp-mpfr-sys-zig
  export RUSTFLAGS="--remap-path-prefix=${CARGO_HOME:-$HOME/.cargo}=/cargo"
  if [ -z "${SOURCE_DATE_EPOCH:-}" ]; then
    SOURCE_DATE_EPOCH=$(git log -1 --format=%ct 2>/dev/null || echo 315532800)
  fi
  export SOURCE_DATE_EPOCH
  export PATH=$TOOLS/bin:$PATH

  mkdir -p "$OUT"
  rm -f "$OUT"/shiftdp-*.whl
  local start=$SECONDS
  maturin build --release --locked --strip --zig --compatibility "$TAG" \
    -m python/Cargo.toml --out "$OUT"
  say "built in $((SECONDS - start)) s"
  wheel=$(find_wheel)
}

find_wheel() {
  local found=("$OUT"/shiftdp-*-abi3-*"$TAG"_"$ARCH".whl)
  if [ "${#found[@]}" -ne 1 ] || [ ! -f "${found[0]}" ]; then
    say "expected one wheel shiftdp-*-abi3-*${TAG}_$ARCH.whl in $OUT; build it first."
    exit 1
  fi
  echo "${found[0]}"
}

check() {
  if [ -z "$wheel" ]; then
    wheel=$(find_wheel)
  fi
  [ -x "$TOOLS/bin/twine" ] || tools
  local name
  name=$(basename "$wheel")
  case "$name" in
    *-cp39-abi3-*) ;;
    *)
      say "$name is not an abi3 wheel for CPython ≥ 3.9"
      exit 1
      ;;
  esac

  say "twine check"
  "$TOOLS/bin/twine" check --strict "$wheel"

  say "auditwheel show"
  local report audited claimed
  report=$("$TOOLS/bin/auditwheel" show "$wheel")
  echo "$report"
  # the most compatible tag auditwheel finds must be at least as old as the wheel's own
  audited=$(echo "$report" | tr '\n' ' ' | sed -n 's/.*consistent with the following platform tag: *"manylinux_2_\([0-9]*\)_.*/\1/p')
  claimed=$(echo "$name" | sed -n 's/.*manylinux_2_\([0-9]*\)_.*/\1/p')
  if [ -z "$audited" ] || [ -z "$claimed" ] || [ "$audited" -gt "$claimed" ]; then
    say "auditwheel: $name is not consistent with its manylinux_2_${claimed:-?} tag"
    exit 1
  fi

  say "clean venv $CHECK_VENV: install the wheel and the test dependencies"
  rm -rf "$CHECK_VENV"
  make_venv "$CHECK_VENV"
  local vpy=$CHECK_VENV/bin/python
  "$vpy" -m pip install -q --disable-pip-version-check --only-binary=:all: \
    "$wheel[test,accounting]" prv-accountant
  # the benchmark package (pure Python, bench/): its tests run beside the package's
  "$vpy" -m pip install -q --disable-pip-version-check --no-deps ./bench
  "$vpy" -m pip check
  # from the repository root: the source folder python/shiftdp (no compiled _core) must
  # not be what is imported
  local where
  where=$(env -u PYTHONPATH "$vpy" -c 'import shiftdp, shiftdp._core; print(shiftdp._core.__file__)')
  case "$where" in
    "$CHECK_VENV"/*) echo "shiftdp._core: $where" ;;
    *)
      say "imported shiftdp._core from $where, not from the installed wheel"
      exit 1
      ;;
  esac
  say "pytest python/tests bench/tests against the installed wheel"
  env -u PYTHONPATH "$vpy" -m pytest python/tests bench/tests -q -p no:cacheprovider -rs
}

case "$mode" in
  all)
    build
    check
    ;;
  build) build ;;
  check) check ;;
esac
say "wheel: $wheel ($(du -h "$wheel" | cut -f1), sha256 $(sha256sum "$wheel" | cut -d' ' -f1))"
echo "$wheel"
