#!/usr/bin/env bash
# The whole test suite: formatting, lints, unit + integration + property + doc tests of
# the library (all features, including `testing`) and of the `shiftdp` command.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/ensure-deps.sh
cargo fmt --all --check
cargo clippy --workspace --all-targets --all-features --quiet -- -D warnings
cargo test --workspace --all-features --quiet 2>&1
