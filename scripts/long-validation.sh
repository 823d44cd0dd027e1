#!/usr/bin/env bash
# The long validation run: ≥ 10⁶ soundness comparisons of every bound of the
# five papers against exact instances, and of the certified conversions and the PLD
# engine against independent evaluations — sharded over the cores, one deterministic
# seed per shard, resumable (a finished shard's JSON is kept and not re-run).
#
#   ./scripts/long-validation.sh            # default sizes (about 10⁶ comparisons)
#   OUT=out/lv BOUND_SHARDS=4 CORNER_SHARDS=1 CONVERSION_SHARDS=1 ./scripts/long-validation.sh
#
# Shards:
#   bounds-S        `shiftdp check all --samples 4 --seed S` (every catalogue entry's own
#                   region, plus the conversion checks' 4 points)
#   corner-NAME-S   the same with a `--region` override at an extreme corner: c → 1, t = 1,
#                   tiny and huge σ, long runs, p → 0 (batch 1 of many)
#   conversions-S   `shiftdp check conversions --samples 20000 --seed S` (GDP ε(δ) and δ(ε)
#                   against 256-bit MPFR, with corners μ ∈ {1e-3 … 3e4}, δ down to 1e-300;
#                   the PLD engine against the exact Gaussian composition, δ ≥ 1e-60)
# The summary (out/long-validation/summary.json and .md) adds up comparisons,
# violations, inconclusive comparisons, skips and errors; the script exits 1 on any
# violation or failed shard.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-out/long-validation}
BOUND_SHARDS=${BOUND_SHARDS:-40}
CORNER_SHARDS=${CORNER_SHARDS:-2}
CONVERSION_SHARDS=${CONVERSION_SHARDS:-14}
JOBS=${JOBS:-$(nproc)}
./scripts/ensure-deps.sh >/dev/null
cargo build --release --quiet -p shiftdp-cli
BIN=$PWD/target/release/shiftdp
mkdir -p "$OUT"

declare -A CORNERS=(
  [c-to-1]="contraction=0.999..0.99999"
  [t-1]="steps=1"
  [tiny-sigma]="noise=0.05..0.2"
  [huge-sigma]="noise=20..200"
  [long-run]="steps=300..1000"
  [p-to-0]="batch=1,n=200..1000"
)

jobs_file=$(mktemp)
trap 'rm -f "$jobs_file"' EXIT
for s in $(seq 1 "$BOUND_SHARDS"); do
  echo "bounds-$s check all --samples 4 --seed $s" >>"$jobs_file"
done
for name in "${!CORNERS[@]}"; do
  for s in $(seq 1 "$CORNER_SHARDS"); do
    echo "corner-$name-$s check all --samples 4 --seed $((1000 + s)) --region ${CORNERS[$name]}" >>"$jobs_file"
  done
done
for s in $(seq 1 "$CONVERSION_SHARDS"); do
  echo "conversions-$s check conversions --samples 20000 --seed $((2000 + s))" >>"$jobs_file"
done

run_shard() {
  local name=$1
  shift
  local out=$OUT/$name.json
  [ -s "$out" ] && return 0
  local t0=$SECONDS
  # exit status 1 means violations (kept in the JSON); anything else is a failed shard
  set +e
  "$BIN" "$@" --json >"$out.tmp" 2>"$OUT/$name.err"
  local rc=$?
  set -e
  if [ "$rc" -le 1 ] && [ -s "$out.tmp" ]; then
    python3 - "$out.tmp" "$((SECONDS - t0))" <<'EOF'
import json, sys
p, secs = sys.argv[1], int(sys.argv[2])
d = json.load(open(p))
d["shard_seconds"] = secs
json.dump(d, open(p, "w"))
EOF
    mv "$out.tmp" "$out"
    echo "$name: $(python3 -c "import json;d=json.load(open('$out'));print(d['comparisons'],'comparisons,',d['violations'],'violations')") (${SECONDS}s)"
  else
    echo "$name: FAILED (exit $rc): $(head -c 300 "$OUT/$name.err")"
  fi
}
export -f run_shard
export OUT BIN

start=$(date +%s)
total=$(wc -l <"$jobs_file")
echo "long validation: $total shards on $JOBS cores -> $OUT"
# shellcheck disable=SC2016
xargs -P "$JOBS" -L 1 bash -c 'run_shard "$@"' _ <"$jobs_file"
wall=$(($(date +%s) - start))

python3 - "$OUT" "$wall" "$jobs_file" <<'EOF'
import json, os, sys
out, wall, jobs = sys.argv[1], int(sys.argv[2]), sys.argv[3]
names = [l.split()[0] for l in open(jobs) if l.strip()]
tot = dict(shards=0, missing=[], comparisons=0, violations=0, inconclusive=0,
           samples_run=0, skipped=0, instances=0, errors=0, shard_seconds=0)
kinds = {}
for n in names:
    p = os.path.join(out, n + ".json")
    if not os.path.exists(p):
        tot["missing"].append(n)
        continue
    d = json.load(open(p))
    tot["shards"] += 1
    tot["shard_seconds"] += d.get("shard_seconds", 0)
    for b in d["bounds"]:
        kind = "conversion" if b["id"].startswith("GDP conversions") else "bound-vs-instance"
        k = kinds.setdefault(kind, dict(comparisons=0, violations=0, inconclusive=0))
        k["comparisons"] += b["comparisons"]
        k["violations"] += len(b["violations"])
        k["inconclusive"] += b["inconclusive"]
        tot["comparisons"] += b["comparisons"]
        tot["violations"] += len(b["violations"])
        tot["inconclusive"] += b["inconclusive"]
        tot["samples_run"] += b["samples_run"]
        tot["skipped"] += b["skipped_hypothesis"] + b["skipped_inadmissible"]
        tot["instances"] += b["instances"]
        tot["errors"] += len(b["errors"])
tot["by_kind"] = kinds
tot["wall_seconds_this_invocation"] = wall
json.dump(tot, open(os.path.join(out, "summary.json"), "w"), indent=2)
md = [
    "| kind | comparisons | violations | inconclusive |",
    "|---|---|---|---|",
]
for k, v in sorted(kinds.items()):
    md.append(f"| {k} | {v['comparisons']:,} | {v['violations']} | {v['inconclusive']:,} |")
md.append(f"| **total** | **{tot['comparisons']:,}** | **{tot['violations']}** | {tot['inconclusive']:,} |")
md.append("")
md.append(f"{tot['shards']} shards ({len(tot['missing'])} missing), {tot['samples_run']:,} sampled points, "
          f"{tot['instances']:,} instances, {tot['skipped']:,} skipped (hypothesis or refusal), "
          f"{tot['errors']} errors; shard CPU time {tot['shard_seconds']} s, wall time of this invocation {wall} s.")
open(os.path.join(out, "summary.md"), "w").write("\n".join(md) + "\n")
print("\n".join(md))
sys.exit(1 if tot["violations"] or tot["missing"] else 0)
EOF
