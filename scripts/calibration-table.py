#!/usr/bin/env python3
"""Noise calibration against `compose`: one row per target (q, steps, ε, δ).

For each target it runs `shiftdp calibrate poisson ... --json`, then recomputes with
`shiftdp compose`:

- at the calibrated σ (μ = 1/σ rounded up, the command `calibrate` prints, at the
  tolerance it reports): the certified ε must be ≤ the target;
- at σ/(1 + resolution) (μ = 1/σ' rounded up, read exactly, compose's default
  tolerance): the certified ε must exceed the target (or compose refuses it), i.e. the
  calibrated σ is within its resolution of the smallest σ compose certifies.

Verdict: `ok` when both hold, `LOOSE` when σ/(1+res) is certified too (the calibrator
over-noises), `UNSOUND` when compose does not certify the calibrated σ, `REFUSED BELOW`
when compose refuses σ/(1+res) (compose's smallest certified σ is then unknown: the
engine's loss window stops below the target), `error` when calibrate refuses.

Usage: scripts/calibration-table.py [--bin PATH] [--resolution R] [--markdown]
(default binary: $CARGO_TARGET_DIR/release/shiftdp, else target/release/shiftdp).
"""
import argparse
import json
import math
import os
import shlex
import subprocess
import sys
from decimal import Decimal

# (q, steps, ε, δ): many steps and few, small and large ε (≥ 8), single steps, q = 1
TARGETS = [
    ("0.01", 1000, "1", "1e-5"),
    ("0.01", 10000, "2", "1e-5"),
    ("0.05", 200, "2", "1e-5"),
    ("0.05", 100, "1", "1e-5"),
    ("0.1", 100, "0.5", "1e-5"),
    ("0.001", 100000, "1", "1e-6"),
    ("0.004", 10000, "0.5", "1e-5"),
    ("0.001", 1000, "0.1", "1e-5"),
    ("0.02", 50000, "4", "1e-6"),
    ("0.3", 1000, "10", "1e-5"),
    ("0.01", 100, "8", "1e-5"),
    ("0.1", 10, "8", "1e-6"),
    ("0.2", 5, "3", "1e-5"),
    ("0.5", 20, "16", "1e-10"),
    ("0.1", 1, "1", "1e-5"),
    ("0.1", 1, "4", "1e-6"),
    ("0.01", 1, "8", "1e-5"),
    ("0.5", 1, "8", "1e-8"),
    ("1", 1, "8", "1e-8"),
    ("1", 4, "1", "1e-5"),
]


def run(binary, args, timeout=600):
    p = subprocess.run(
        [binary, *args], capture_output=True, text=True, timeout=timeout, check=False
    )
    if p.returncode != 0:
        return None, (p.stderr.strip().splitlines() or ["exit %d" % p.returncode])[-1]
    return json.loads(p.stdout), None


def compose_epsilon(binary, args):
    """Certified upper end of ε from `compose ... --json`, or None and the refusal."""
    v, err = run(binary, [*args, "--json"])
    if v is None:
        return None, err
    return float(v["epsilon"]["upper"]), None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", default=None)
    ap.add_argument("--resolution", default="1e-3")
    ap.add_argument("--markdown", action="store_true")
    a = ap.parse_args()
    binary = a.bin or os.path.join(
        os.environ.get("CARGO_TARGET_DIR", "target"), "release", "shiftdp"
    )
    res = float(a.resolution)
    head = ["q", "steps", "ε", "δ", "σ", "ε at σ (tol)", "ε at σ/(1+res)", "verdict"]
    rows = []
    for q, steps, eps, delta in TARGETS:
        v, err = run(
            binary,
            ["calibrate", "poisson", "--q", q, "--steps", str(steps), "--epsilon", eps,
             "--delta", delta, "--resolution", a.resolution, "--json"],
        )
        if v is None:
            rows.append([q, str(steps), eps, delta, "—", "—", "—", "error: " + err[:80]])
            continue
        c = v["calibration"]
        sigma = float(c["sigma"])
        target = float(eps)
        # at σ: the compose command calibrate prints (μ read back exactly, its tolerance)
        if c["compose"]:
            cmd = shlex.split(c["compose"])[1:]
            at, at_err = compose_epsilon(binary, cmd)
            at_text = f"{at:.6f} ({c['tolerance']})" if at is not None else at_err
        else:
            at, at_text = None, "no compose command"
        # at σ/(1+res): μ = 1/σ' rounded up, its exact decimal (compose reads it as is)
        mu_below = math.nextafter(1.0 / (sigma / (1.0 + res)), math.inf)
        below, below_err = compose_epsilon(
            binary,
            ["compose", "--poisson-gaussian", q, str(Decimal(mu_below)), f"x{steps}",
             "--delta", delta],
        )
        below_text = f"{below:.6f}" if below is not None else "refused"
        if at is None or at > target:
            verdict = "UNSOUND"
        elif below is None:
            verdict = "REFUSED BELOW"
        elif below <= target:
            verdict = "LOOSE"
        else:
            verdict = "ok"
        rows.append([q, str(steps), eps, delta, f"{sigma:.8g}", at_text, below_text, verdict])
    if a.markdown:
        print("| " + " | ".join(head) + " |")
        print("|" + "---|" * len(head))
        for r in rows:
            print("| " + " | ".join(r) + " |")
    else:
        w = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(head)]
        print("  ".join(h.ljust(w[i]) for i, h in enumerate(head)))
        for r in rows:
            print("  ".join(x.ljust(w[i]) for i, x in enumerate(r)))
    return 0 if all(r[-1] == "ok" for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
