"""``python -m shiftdp_bench``: run the peer-accountant benchmark, re-render a report, or
reproduce a finding of PEERS.md.

    python -m shiftdp_bench run [--quick] [--suite PATH] [--out out/bench] [--peers A,B] [--limit N] [--timeout S]
    python -m shiftdp_bench report --out out/bench          # re-render from results.json
    python -m shiftdp_bench reproduce P3                     # exit 1 if P3 no longer reproduces
    python -m shiftdp_bench peers                            # list peers and availability

``run`` reads the reference suite shipped with the package unless ``--suite`` names
another file, and runs every installed peer (those missing are listed in the report).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from typing import List, Optional

from .runner import QUICK_MAX_STEPS, QUICK_PER_FAMILY, QUICK_TIMEOUT


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m shiftdp_bench", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run", help="run the peers on a reference suite")
    r.add_argument("--suite", default=None,
                   help="reference suite file (default: the suite shipped with the package, "
                        "shiftdp_bench/data/reference.json)")
    r.add_argument("--out", default="out/bench")
    r.add_argument("--peers", default="", help="comma-separated peer names (default: every installed one)")
    r.add_argument("--quick", action="store_true",
                   help=f"a small representative run (well under a minute): per family, of its entries "
                        f"with at most {QUICK_MAX_STEPS} steps sorted by id, {QUICK_PER_FAMILY} evenly "
                        f"spaced ones (first, middle, last); shiftdp recomputes all of them; each peer "
                        f"library in one configuration (dp_accounting's PLD on its coarse grid, vdi = "
                        f"1e-2, unless --peers names others); timeout {QUICK_TIMEOUT:g} s per run unless "
                        f"--timeout is given. The subset is applied after --family, before --limit")
    r.add_argument("--limit", type=int, default=0, help="only the first N entries")
    r.add_argument("--family", default="", help="only entries of these families (comma-separated)")
    r.add_argument("--timeout", type=float, default=None, help="seconds per peer run (default 60)")
    r.add_argument("--shiftdp-sample", type=int, default=None,
                   help="entries shiftdp recomputes and times (default 20; with --quick, every entry)")
    r.add_argument("--quiet", action="store_true")
    rep = sub.add_parser("report", help="re-render summary.md and index.html from results.json")
    rep.add_argument("--out", default="out/bench")
    pr = sub.add_parser("reproduce", help="reproduce a finding of PEERS.md")
    pr.add_argument("id", nargs="?", help="finding id (P1, P2, …); 'all' for every one")
    sub.add_parser("peers", help="list the peer configurations and whether they are installed")
    a = ap.parse_args(argv)
    t_start = time.perf_counter()

    if a.cmd == "run":
        from .report import summary_markdown, write_report
        from .runner import load_suite, quick_selection, run_benchmark

        entries = load_suite(a.suite)
        if a.family:
            fams = set(a.family.split(","))
            entries = [e for e in entries if e.kind in fams or e.family in fams]
        if a.quick:
            entries = quick_selection(entries)
        if a.limit:
            entries = entries[: a.limit]
        peers = [p for p in a.peers.split(",") if p] or None
        left_out: List[str] = []
        if a.quick and peers is None:
            from .peers import all_adapters

            peers = [ad.name for ad in all_adapters() if ad.quick]
            left_out = [ad.name for ad in all_adapters() if not ad.quick]
        sample = a.shiftdp_sample if a.shiftdp_sample is not None else (len(entries) if a.quick else 20)
        timeout = a.timeout if a.timeout is not None else (QUICK_TIMEOUT if a.quick else 60.0)
        res = run_benchmark(entries, peers=peers, timeout=timeout, shiftdp_sample=sample,
                            progress=not a.quiet)
        res["left_out"] = left_out
        res["suite"] = os.path.abspath(a.suite) if a.suite else "shiftdp_bench/data/reference.json (packaged)"
        res["quick"] = a.quick
        res["wall_seconds"] = round(time.perf_counter() - t_start, 1)
        paths = write_report(res, a.out)
        print(summary_markdown(res))
        missing = [p["name"] for p in res["peers"] if not p["available"]]
        if missing:
            print(f"peers not installed (not run): {', '.join(missing)}", file=sys.stderr)
        print(f"wall time {res['wall_seconds']:g} s; wrote " + ", ".join(paths.values()), file=sys.stderr)
        return 0
    if a.cmd == "report":
        from .report import write_report

        with open(os.path.join(a.out, "results.json")) as f:
            res = json.load(f)
        print("wrote " + ", ".join(write_report(res, a.out).values()))
        return 0
    if a.cmd == "reproduce":
        from .findings import FINDINGS, reproduce

        if not a.id:
            for k, f in FINDINGS.items():
                print(f"{k}: {f.title}")
            return 0
        ids = list(FINDINGS) if a.id == "all" else [a.id.upper()]
        bad = 0
        for i in ids:
            bad += 0 if reproduce(i) else 1
        return 1 if bad else 0
    if a.cmd == "peers":
        from .peers import all_adapters

        for ad in all_adapters():
            ok, why = ad.available()
            print(f"{ad.name:32s} {'available ' + ad.version() if ok else 'skipped: ' + why}")
        return 0
    return 2


if __name__ == "__main__":
    sys.exit(main())
