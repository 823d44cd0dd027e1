#!/usr/bin/env bash
# The whole test suite: formatting, lints, the API docs (rustdoc -D warnings), unit +
# integration + property + doc tests of the library (all features, including `testing`)
# and of the `shiftdp` command, then the Python package's pytest suite
# (scripts/test-python.sh), with ERRATA.md's commands run by this checkout's release binary.
#
# Clippy covers the whole workspace, the Python bindings (python/, crate shiftdp-py)
# included; `cargo test` excludes shiftdp-py: it is a cdylib for the Python interpreter
# (no Rust tests of its own), and it is built and tested through pip + pytest below.
set -euo pipefail
cd "$(dirname "$0")/.."
# one build of each crate, no incremental caches beside it: the suite's target directory
# stays small enough for a CI runner's disk (the free space is printed before and after)
export CARGO_INCREMENTAL=0
target_dir="${CARGO_TARGET_DIR:-$PWD/target}"
mkdir -p "$target_dir"
echo "disk before the suite: $(df -h --output=avail "$target_dir" | tail -1 | tr -d ' ') free"
./scripts/ensure-deps.sh
cargo fmt --all --check
# the folders of src/ do not import each other in loops
python3 scripts/import-graph.py > /dev/null
cargo clippy --workspace --all-targets --all-features --quiet -- -D warnings
# the API documentation builds without a broken or private intra-doc link
RUSTDOCFLAGS="-D warnings" cargo doc --no-deps --workspace --exclude shiftdp-py --all-features --quiet
cargo test --workspace --exclude shiftdp-py --all-features --quiet 2>&1
# the release binary of this checkout runs ERRATA.md's commands (test_errata.py)
cargo build --release --quiet -p shiftdp-cli
SHIFTDP_BIN="$target_dir/release/shiftdp" ./scripts/test-python.sh
echo "disk after the suite: $(du -sh "$target_dir" | cut -f1) in $target_dir, $(df -h --output=avail "$target_dir" | tail -1 | tr -d ' ') free"
