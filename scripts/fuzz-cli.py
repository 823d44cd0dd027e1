#!/usr/bin/env python3
"""The longer fuzz run of the command line (the bounded run is
cli/tests/fuzz_cli.rs): `scripts/fuzz-cli.py SEED N` runs N random argument vectors of
the numeric commands against target/release/shiftdp (or $SHIFTDP_BIN), each flag
plausible 80 % of the time and extreme otherwise, and lists every run that exits with
anything but 0 or 2, panics, prints NaN, or takes over 20 s."""
import random, subprocess, sys, time
import os
B = os.environ.get("SHIFTDP_BIN", os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "target", "release", "shiftdp"))
V = ["0", "-1", "1e-300", "1e400", "nan", "inf", "-inf", "", "abc", "5e-324", "18446744073709551616",
     "1", "0.5", "2", "1e-5", "100", "0.9999", "1.5", "3", "1e6", "-0", "0x10", "1e-20"]
T = [
  ["epsilon", "--mu", "{}", "--delta", "{}"],
  ["delta", "--mu", "{}", "--epsilon", "{}"],
  ["bound", "gd", "--n", "{}", "--steps", "{}", "--eta", "{}", "--noise", "{}", "--sensitivity", "{}", "--contraction", "{}"],
  ["bound", "cgd", "--n", "{}", "--batch", "{}", "--epochs", "{}", "--eta", "{}", "--noise", "{}", "--sensitivity", "{}", "--contraction", "{}"],
  ["bound", "gd", "--n", "{}", "--steps", "{}", "--eta", "{}", "--noise", "{}", "--sensitivity", "{}", "--smoothness", "{}", "--diameter", "{}", "--delta", "{}"],
  ["compare", "gd", "--n", "{}", "--steps", "{}", "--eta", "{}", "--noise", "{}", "--sensitivity", "{}", "--strong-convexity", "{}", "--smoothness", "{}"],
  ["compose", "--gaussian", "{}", "--delta", "{}"],
  ["compose", "--poisson-gaussian", "{}", "{}", "x3", "--delta", "{}"],
  ["compose", "--subsampled-gaussian", "{}", "{}", "x{}", "--epsilon", "{}"],
  ["exact", "gd", "--n", "{}", "--steps", "{}", "--eta", "{}", "--noise", "{}", "--sensitivity", "{}", "--contraction", "{}"],
  ["schedule", "gd", "--n", "{}", "--steps", "{}", "--eta", "{}", "--noise", "{}", "--sensitivity", "{}", "--contraction", "{}"],
  ["curve", "gdp", "--mu", "{}", "--points", "{}"],
  ["calibrate", "poisson", "--q", "{}", "--steps", "{}", "--epsilon", "{}"],
  ["epsilon", "--mu", "{}", "--delta", "{}", "--bits", "{}"],
]
random.seed(int(sys.argv[1]) if len(sys.argv) > 1 else 1)
N = int(sys.argv[2]) if len(sys.argv) > 2 else 200
bad = []
ok = {0: 0, 2: 0}
for i in range(N):
    t = random.choice(T)
    GOOD = {"--mu": ["0.1", "1", "3", "50", "1e-8", "3e4"], "--delta": ["1e-5", "1e-20", "1e-100", "0.5", "1e-300"],
            "--epsilon": ["0.1", "1", "5", "50"], "--n": ["1", "4", "60", "1000"], "--steps": ["1", "10", "100", "1000"],
            "--eta": ["0.1", "1", "0.01"], "--noise": ["1", "0.1", "10", "1e-3"], "--sensitivity": ["1", "0.1", "1000"],
            "--contraction": ["0.5", "0.9999", "1", "0"], "--batch": ["1", "2", "15"], "--epochs": ["1", "2", "50"],
            "--smoothness": ["1", "0.5"], "--strong-convexity": ["0.1", "0.5"], "--diameter": ["0.1", "1", "10"],
            "--points": ["3", "11"], "--q": ["0.01", "0.5", "1"], "--bits": ["64", "256"]}
    args = []
    prev = None
    for a in t:
        if "{}" in a:
            pool = GOOD.get(prev, ["0.5", "0.01", "1", "3"]) if random.random() < 0.8 else V
            args.append(a.format(random.choice(pool)))
        else:
            args.append(a)
        prev = a
    t0 = time.time()
    try:
        p = subprocess.run([B] + args, capture_output=True, text=True, timeout=20)
        dt = time.time() - t0
        ok[p.returncode] = ok.get(p.returncode, 0) + 1
        if p.returncode not in (0, 2) or "panicked" in p.stderr or (p.returncode == 0 and ("NaN" in p.stdout or " nan" in p.stdout)):
            bad.append(("rc=%d" % p.returncode, args, p.stderr.strip().splitlines()[:1]))
            print(bad[-1], flush=True)
    except subprocess.TimeoutExpired:
        bad.append(("timeout", args, []))
        print(bad[-1], flush=True)
print(f"seed {sys.argv[1] if len(sys.argv) > 1 else 1}: {N} runs, {len(bad)} bad")
print("ok:", ok)
sys.exit(1 if any(b[0] != "timeout" for b in bad) else 0)
