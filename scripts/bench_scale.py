#!/usr/bin/env python3
"""Issue 15's side-by-side table: certified composition at the scale of training runs.

One paired session: for every job, shiftdp and each peer run alternately, `--reps`
times, in the same process (in-process timings: the call only, imports done), and the
table reports medians of the CPU time (``time.process_time``: user + system of every
thread, which the load of a shared machine distorts far less than wall time) and of the
wall time, and the paired ratios (median of peer/shiftdp over the pairs). Beside each
shiftdp job: its FFT floor, two forward transforms of its grid per order composed (the
factors' transform and the inverse), timed by ``examples/fft_floor.rs`` with plans made
beforehand. Whole-process wall time, CPU time and peak memory (``/usr/bin/time -v``:
maximum resident set size) are measured once per tool and job in a separate process.

Jobs (δ = 1e-5; σ = 1.1 is the noise multiplier, shiftdp's μ = 1/σ, typed as the
decimal 0.9090909 and read upward, so shiftdp's ε is for a slightly larger μ):
  * Poisson q = 0.01, σ = 1.1, T = 10⁵, shiftdp tolerance 1e-3
    vs dp_accounting PLD (value_discretization_interval = 1e-4) and prv-accountant;
  * same at T = 10⁶ (shiftdp tolerance 1e-2 and 1e-3);
  * C_0.025(G(2/3))^{⊗8000} (shiftdp only: the symmetrized C_p has no peer event);
  * T = 10⁷ (shiftdp, tolerance 1e-2: answer or refusal).
Usage: scripts/bench-scale.sh [--reps N] [--quick]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
CLI = os.path.join(ROOT, "target", "release", "shiftdp")
FFT_FLOOR = os.path.join(ROOT, "target", "release", "examples", "fft_floor")
Q, SIGMA, MU_TXT, DELTA = 0.01, 1.1, "0.9090909", 1e-5


def shiftdp_poisson(t, tol):
    import shiftdp

    return shiftdp.compose(
        [shiftdp.PoissonGaussian(p=Q, mu=float(MU_TXT), count=t)], delta=DELTA, tolerance=tol
    )


def shiftdp_cp():
    import shiftdp

    return shiftdp.compose(
        [shiftdp.SubsampledGaussian(p=0.025, mu=2.0 / 3.0, count=8000)], delta=DELTA, tolerance=1e-3
    )


# A training schedule in five segments (batch size and noise change between phases):
# (q, σ, steps), 4.6·10⁵ steps in all.
SEGMENTS = [(0.004, 0.8, 20_000), (0.01, 1.1, 100_000), (0.02, 1.5, 120_000), (0.01, 2.0, 150_000), (0.005, 0.9, 70_000)]


def shiftdp_segments(tol=1e-3):
    import shiftdp

    return shiftdp.compose(
        [shiftdp.PoissonGaussian(q, noise_multiplier=s, count=t) for q, s, t in SEGMENTS], delta=DELTA, tolerance=tol
    )


def dpa_segments(vdi=1e-4):
    import dp_accounting
    from dp_accounting.pld import PLDAccountant

    acc = PLDAccountant(dp_accounting.NeighboringRelation.ADD_OR_REMOVE_ONE, value_discretization_interval=vdi)
    for q, s, t in SEGMENTS:
        acc.compose(dp_accounting.PoissonSampledDpEvent(q, dp_accounting.GaussianDpEvent(s)), t)
    return acc.get_epsilon(DELTA)


def fft_floor(composed):
    """CPU seconds of two forward transforms of each order's grid (None without grid)."""
    grids = getattr(composed, "grid", None) or []
    if not grids or not os.path.exists(FFT_FLOOR):
        return None
    points = [int(g.points) for g in grids]
    r = subprocess.run([FFT_FLOOR] + [str(p) for p in sorted(set(points))], capture_output=True, text=True)
    per = {}
    for line in r.stdout.splitlines():
        o = json.loads(line)
        per[o["points"]] = o["cpu_s"]
    return sum(2 * per[p] for p in points)


def dpa_pld(t, vdi=1e-4):
    import dp_accounting
    from dp_accounting.pld import PLDAccountant

    acc = PLDAccountant(dp_accounting.NeighboringRelation.ADD_OR_REMOVE_ONE, value_discretization_interval=vdi)
    ev = dp_accounting.PoissonSampledDpEvent(Q, dp_accounting.GaussianDpEvent(SIGMA))
    acc.compose(dp_accounting.SelfComposedDpEvent(ev, t))
    return acc.get_epsilon(DELTA)


def prv(t, eps_error=0.07):
    from prv_accountant import Accountant

    acc = Accountant(
        noise_multiplier=SIGMA, sampling_probability=Q, delta=DELTA, eps_error=eps_error,
        max_compositions=t,
    )
    lo, est, up = acc.compute_epsilon(num_compositions=t)
    return (lo, est, up)


def timed(f):
    """(CPU seconds, wall seconds, value) of one call."""
    c0, t0 = time.process_time(), time.perf_counter()
    v = f()
    return time.process_time() - c0, time.perf_counter() - t0, v


def interval(v):
    if hasattr(v, "interval"):
        v = v.interval
    if hasattr(v, "lower"):
        return f"[{v.lower:.6f}, {v.upper:.6f}] (width {v.upper - v.lower:.1e})"
    if isinstance(v, tuple):
        return f"{v[1]:.6f} (estimate; bounds [{v[0]:.4f}, {v[2]:.4f}])"
    return f"{v:.6f}"


def whole_process(argv):
    """(wall seconds, CPU seconds, peak RSS MiB, exit code, stdout, stderr) of one process."""
    t0 = time.perf_counter()
    r = subprocess.run(["/usr/bin/time", "-v"] + argv, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    rss, cpu = None, 0.0
    for line in r.stderr.splitlines():
        if "Maximum resident set size" in line:
            rss = int(line.split(":")[1]) / 1024
        if "User time (seconds)" in line or "System time (seconds)" in line:
            cpu += float(line.split(":")[1])
    return wall, cpu, rss, r.returncode, r.stdout.strip(), r.stderr


def py_cmd(body):
    return [sys.executable, "-c", "import sys; sys.path.insert(0, %r)\n" % HERE + body]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=None, help="paired repetitions (default 7; 3 with --quick)")
    ap.add_argument("--quick", action="store_true", help="3 repetitions unless --reps; no prv-accountant at T = 10^6, no T = 10^7")
    a = ap.parse_args()
    reps = a.reps if a.reps is not None else (3 if a.quick else 7)
    rows = []

    import shiftdp

    def paired(name, ours, peers):
        cpu = {"shiftdp": []}
        wall = {"shiftdp": []}
        vals = {}
        for p, _ in peers:
            cpu[p], wall[p] = [], []
        for _ in range(reps):
            # every run composes afresh (compose keeps the last PLD for a next query)
            shiftdp.clear_kept_composition()
            c, w, v = timed(ours)
            cpu["shiftdp"].append(c)
            wall["shiftdp"].append(w)
            vals["shiftdp"] = v
            for p, f in peers:
                c, w, v = timed(f)
                cpu[p].append(c)
                wall[p].append(w)
                vals[p] = v
        med = {k: (statistics.median(cpu[k]), statistics.median(wall[k])) for k in cpu}

        def ratio(ts, p):
            return statistics.median([b / s for s, b in zip(ts["shiftdp"], ts[p])])

        for p, _ in peers:
            rows.append((name, p, med[p], (ratio(cpu, p), ratio(wall, p)), None, interval(vals[p])))
        floor = fft_floor(vals["shiftdp"])
        rows.append((name, "shiftdp", med["shiftdp"], (1.0, 1.0), floor, interval(vals["shiftdp"])))
        print(f"done: {name}", file=sys.stderr)

    # warm-up import (not timed; shiftdp is imported above)
    import dp_accounting

    paired(
        "Poisson q=0.01 σ=1.1 T=1e5 δ=1e-5",
        lambda: shiftdp_poisson(100_000, 1e-3),
        [("dp_accounting PLD vdi=1e-4", lambda: dpa_pld(100_000)), ("prv-accountant eps_error=0.07", lambda: prv(100_000))],
    )
    peers_1e6 = [("dp_accounting PLD vdi=1e-4", lambda: dpa_pld(1_000_000))]
    if not a.quick:
        # prv-accountant needs about 90 s per run at 10⁶ compositions
        peers_1e6.append(("prv-accountant eps_error=0.07", lambda: prv(1_000_000)))
    paired(
        "Poisson q=0.01 σ=1.1 T=1e6 δ=1e-5 (shiftdp width ≤ 1e-2)",
        lambda: shiftdp_poisson(1_000_000, 1e-2),
        peers_1e6,
    )
    paired(
        "Poisson q=0.01 σ=1.1 T=1e6 δ=1e-5 (shiftdp width ≤ 1e-3)",
        lambda: shiftdp_poisson(1_000_000, 1e-3),
        [("dp_accounting PLD vdi=1e-4", lambda: dpa_pld(1_000_000))],
    )
    paired(
        "5 segments, 4.6e5 steps δ=1e-5 (shiftdp width ≤ 1e-3)",
        shiftdp_segments,
        [("dp_accounting PLD vdi=1e-4", dpa_segments)],
    )
    paired("C_0.025(G(2/3))^8000 δ=1e-5", shiftdp_cp, [])

    print("\n## In-process, paired (median of %d; ratios = median of peer/shiftdp per pair)\n" % reps)
    print("| job | tool | CPU (s) | wall (s) | ratio peer/shiftdp CPU | wall | FFT floor CPU (s) | shiftdp / floor | value |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---|")
    for name, tool, (c, w), (rc, rw), floor, val in rows:
        fl = f"{floor:.3f} | {c / floor:.1f}×" if floor else " | "
        print(f"| {name} | {tool} | {c:.3f} | {w:.3f} | {rc:.2f} | {rw:.2f} | {fl} | {val} |")

    # the dp_accounting-interface accountant at its default tolerance against compose at
    # the same tolerance, and four more δ of the same history (answered from the PLD
    # compose keeps)
    from shiftdp.accounting import CertifiedPLDAccountant

    ev = dp_accounting.SelfComposedDpEvent(
        dp_accounting.PoissonSampledDpEvent(Q, dp_accounting.GaussianDpEvent(SIGMA)), 100_000
    )
    acc_rows = {"compose (default tolerance)": [], "accountant get_epsilon(1e-5)": [], "accountant 4 more δ": []}
    for _ in range(reps):
        shiftdp.clear_kept_composition()
        c, _, _ = timed(lambda: shiftdp.compose([shiftdp.PoissonGaussian(Q, mu=float(MU_TXT), count=100_000)], delta=DELTA))
        acc_rows["compose (default tolerance)"].append(c)
        shiftdp.clear_kept_composition()
        acc = CertifiedPLDAccountant()
        acc.compose(ev)
        c, _, _ = timed(lambda: acc.get_epsilon(DELTA))
        acc_rows["accountant get_epsilon(1e-5)"].append(c)
        c, _, _ = timed(lambda: [acc.get_epsilon(d) for d in (1e-6, 1e-7, 1e-8, 1e-9)])
        acc_rows["accountant 4 more δ"].append(c)
    print("\n## Accountant (T = 1e5, default tolerance; median CPU of %d)\n" % reps)
    print("| call | CPU (s) |")
    print("|---|---:|")
    for k, v in acc_rows.items():
        print(f"| {k} | {statistics.median(v):.4f} |")

    print("\n## Whole process (one run each): wall time, CPU time and peak memory\n")
    print("| job | tool | wall (s) | CPU (s) | peak RSS (MiB) | exit | output |")
    print("|---|---|---:|---:|---:|---:|---|")
    jobs = [
        ("Poisson T=1e5", [CLI, "compose", "--poisson-gaussian", "0.01", MU_TXT, "x100000", "--delta", "1e-5", "--tolerance", "1e-3", "--json"],
         py_cmd("from bench_scale import dpa_pld; print(dpa_pld(100000))")),
        ("Poisson T=1e6 (1e-2)", [CLI, "compose", "--poisson-gaussian", "0.01", MU_TXT, "x1000000", "--delta", "1e-5", "--tolerance", "1e-2", "--json"],
         py_cmd("from bench_scale import dpa_pld; print(dpa_pld(1000000))")),
        ("Poisson T=1e6 (1e-3)", [CLI, "compose", "--poisson-gaussian", "0.01", MU_TXT, "x1000000", "--delta", "1e-5", "--tolerance", "1e-3", "--json"], None),
        ("C_0.025(G(2/3))^8000", [CLI, "compose", "--subsampled-gaussian", "0.025", "0.6666667", "x8000", "--delta", "1e-5", "--tolerance", "1e-3", "--json"], None),
    ]
    if not a.quick:
        jobs.append(("Poisson T=1e7 (1e-2)", [CLI, "compose", "--poisson-gaussian", "0.01", MU_TXT, "x10000000", "--delta", "1e-5", "--tolerance", "1e-2", "--json"], None))
    for name, ours, peer in jobs:
        wall, cpu, rss, rc, out, err = whole_process(ours)
        if rc == 0:
            e = json.loads(out)["epsilon"]
            lo, up = float(e["lower"]), float(e["upper"])
            desc = f"ε ∈ [{lo:.6f}, {up:.6f}], width {up - lo:.1e}"
        else:
            desc = err.strip().splitlines()[0] if err.strip() else "error"
        print(f"| {name} | shiftdp CLI | {wall:.2f} | {cpu:.2f} | {rss:.0f} | {rc} | {desc[:160]} |")
        if peer:
            wall, cpu, rss, rc, out, err = whole_process(peer)
            print(f"| {name} | dp_accounting PLD vdi=1e-4 (python -c) | {wall:.2f} | {cpu:.2f} | {rss:.0f} | {rc} | ε = {out[:40]} |")


if __name__ == "__main__":
    main()
