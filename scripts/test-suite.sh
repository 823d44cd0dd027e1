#!/usr/bin/env bash
# The whole test suite: formatting, lints, unit + integration + property + doc tests.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/ensure-deps.sh
cargo fmt --check
cargo clippy --all-targets --quiet -- -D warnings
cargo test --quiet 2>&1
