#!/usr/bin/env bash
# Installs what a fresh machine lacks for building shiftdp: m4 (needed by the GMP build
# inside the `rug` crate) and a Rust toolchain check. Safe to run repeatedly.
set -euo pipefail
if ! command -v m4 >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "shiftdp: installing m4 (needed to build GMP/MPFR for rug)…" >&2
    (apt-get update -qq || true) >/dev/null 2>&1
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq m4 >/dev/null
  else
    echo "shiftdp: m4 is missing; install it (e.g. 'sudo apt-get install m4') and re-run." >&2
    exit 1
  fi
fi
if ! command -v cargo >/dev/null 2>&1; then
  echo "shiftdp: cargo is missing; install Rust (rustup) and re-run." >&2
  exit 1
fi
