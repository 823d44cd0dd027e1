#!/usr/bin/env bash
# Headless screenshot of a `shiftdp verify` HTML report.
#
# Usage: scripts/screenshot-report.sh DIR OUT.png [WIDTHxHEIGHT]
#   DIR      directory containing index.html (as written by verify::report::write_report)
#   OUT.png  screenshot to write
#   size     window size, default 1200x1600
#
# Needs chromium (Debian: apt-get install -y chromium). No network is used: the report
# is self-contained and background networking/component updates are disabled.
set -euo pipefail
if [ $# -lt 2 ]; then
  echo "usage: $0 DIR OUT.png [WIDTHxHEIGHT]" >&2
  exit 2
fi
dir=$1
out=$2
size=${3:-1200x1600}
html="$(cd "$dir" && pwd)/index.html"
[ -f "$html" ] || { echo "no index.html in $dir" >&2; exit 1; }
browser=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
[ -n "$browser" ] || { echo "chromium not found (apt-get install -y chromium)" >&2; exit 1; }
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
case "$out" in /*) ;; *) out="$PWD/$out" ;; esac
"$browser" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
  --disable-background-networking --disable-component-update --disable-sync \
  --hide-scrollbars --user-data-dir="$profile" \
  --screenshot="$out" --window-size="${size/x/,}" "file://$html" >/dev/null 2>&1
[ -s "$out" ] || { echo "no screenshot written" >&2; exit 1; }
echo "$out"
