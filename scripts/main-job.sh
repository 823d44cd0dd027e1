#!/usr/bin/env bash
# The main job: build shiftdp (release) and run its demonstrations. Outputs go to out/.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/ensure-deps.sh
cargo build --release --quiet
bin=target/release/shiftdp
mkdir -p out
echo "== shiftdp verify: every proofs/ obligation and ERRATA.md entry's evidence -> out/verify/ =="
$bin verify --report out/verify
echo "== Every bound of the four papers checked against exact instances (fails on a violation) =="
$bin check all
echo "== BSA24 Table 1, reproduced from the toolkit's own bounds =="
$bin reproduce table1
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
$bin plot tradeoff cgd --n 60000 --batch 1500 --contraction 0.9999 --sensitivity 1000 --noise 1 --eta 1 --steps-list 40,400,2000 --instance --out out/table1_setting_bounds_vs_instance
echo "== Every BSA24 bound for NoisyCGD in the Table 1 setting (E = 50) =="
$bin bound cgd --n 60000 --batch 1500 --epochs 50 --contraction 0.9999 --sensitivity 1000 --noise 1 --eta 1
echo "== All four papers side by side in the Table 1 setting (E = 50) =="
$bin compare cgd --n 60000 --batch 1500 --epochs 50 --contraction 0.9999 --sensitivity 1000 --noise 1 --eta 1 --delta 1e-5
echo "== NoisySGD: Thms 4.8-4.10 through the certified composition engine (τ optimized) =="
$bin bound sgd --n 1000 --batch 10 --steps 200 --eta 0.1 --noise 1 --sensitivity 2 --strong-convexity 0.5 --smoothness 1 --diameter 5
echo "== Optimal shift schedule vs Thm 4.2 (KKT, argmin, closed form) =="
$bin schedule gd --contraction 0.9 --steps 50 --n 1 --sensitivity 1 --noise 1 --eta 1
$bin plot schedule gd --contraction 1 --steps 200 --n 1 --sensitivity 0.1 --noise 1 --eta 1 --diameter 2 --out out/schedule_constrained_gd
echo "== Certified composition C_0.025(G(2/3))^8000 at δ = 1e-5 =="
$bin compose --subsampled-gaussian 0.025 0.6666666666666666 x8000 --delta 1e-5
echo "== Noise calibration: smallest σ with certified ε ≤ 2 at δ = 1e-5 (DP-SGD, q = 0.01, T = 10⁴) =="
$bin calibrate poisson --q 0.01 --steps 10000 --epsilon 2 --delta 1e-5
echo "== Exact instance: quadratic NoisyGD attains Thm 4.2 =="
$bin exact gd --loss quadratic --contraction 0.99 --steps 1000 --n 1 --sensitivity 0.1 --noise 1 --eta 1
echo "== Rényi-DP papers' settings =="
$bin reproduce renyi > out/reproduce_renyi.txt && head -8 out/reproduce_renyi.txt
echo "== The library alone: every bound for the Table 1 run (examples/table1_run.rs) =="
cargo run --release --quiet --example table1_run
echo "== A downstream property test (feature testing) catching a deliberately wrong bound =="
cargo run --release --quiet -p shiftdp-verify --features testing --example downstream_property_test
echo "== Python: the package from a script (python/examples/quickstart.py) =="
./scripts/python-example.sh
echo "figures: $(ls out/*.png | tr '\n' ' ')"
