#!/usr/bin/env bash
# The main job: build shiftdp (release) and run its demonstrations. Outputs go to out/.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/ensure-deps.sh
cargo build --release --quiet
bin=target/release/shiftdp
mkdir -p out
echo "== ε(δ) of μ-GDP, certified upper bounds =="
$bin epsilon --mu 1 --delta 1e-5
$bin epsilon --mu 1 --delta 1e-100 --bits 256
$bin epsilon --mu 50 --delta 1e-1000 --bits 512
echo "== δ(ε) of 1-GDP at ε = 1 =="
$bin delta --mu 1 --epsilon 1
echo "== C_0.25(G(1)) on 101 points -> out/curve_cp.csv =="
$bin curve gdp --mu 1 --subsample 0.25 --points 101 --csv > out/curve_cp.csv
head -3 out/curve_cp.csv
echo "== Every BSA24 bound for NoisyGD, strongly convex (GDP unit 0.1, c = 0.99, t = 1000) =="
$bin bound gd --contraction 0.99 --steps 1000 --n 1 --sensitivity 0.1 --noise 1 --eta 1
echo "== Figure-1-style plots -> out/ =="
fig="--n 1000 --sensitivity 2 --noise 0.02 --eta 0.1 --strong-convexity 0.5 --smoothness 1"
$bin plot tradeoff gd $fig --steps-list 1,10,100 --out out/figure1_tradeoff
$bin plot epsilon-vs-steps gd $fig --max-steps 200 --out out/figure1_epsilon_vs_steps
