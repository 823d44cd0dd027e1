"""python -m shiftdp_campaign run|shard|case|report — see campaign/README.md."""

import argparse
import json
import sys

from . import checks, runner


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m shiftdp_campaign")
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run", help="the long run, sharded over Dask")
    r.add_argument("--checks", type=int, default=1_000_000, help="differential checks to reach")
    r.add_argument("--out", required=True)
    r.add_argument("--scheduler", default=None, help="a Dask scheduler address (default: a LocalCluster)")
    r.add_argument("--workers", type=int, default=2, help="LocalCluster workers (one thread each)")
    r.add_argument("--seed", type=int, default=1)
    r.add_argument("--cases", type=int, default=200, help="cases per shard")
    r.add_argument("--timeout", type=float, default=120, help="seconds per case")
    r.add_argument("--only", default=None, help="comma-separated families")
    s = sub.add_parser("shard", help="(internal) one shard in this interpreter")
    s.add_argument("--seed", type=int, required=True)
    s.add_argument("--shard", type=int, required=True)
    s.add_argument("--cases", type=int, required=True)
    s.add_argument("--out", required=True)
    s.add_argument("--timeout", type=float, default=120)
    s.add_argument("--only", default=None)
    c = sub.add_parser("case", help="re-run one case and print its records (the reproducer)")
    c.add_argument("--seed", type=int, required=True)
    c.add_argument("--case", type=int, required=True)
    c.add_argument("--only", default=None)
    p = sub.add_parser("report", help="rewrite DIR/report.md from the finished shards")
    p.add_argument("--out", required=True)
    p.add_argument("--seed", type=int, default=1)
    a = ap.parse_args(argv)
    only = a.only.split(",") if getattr(a, "only", None) else None
    if a.cmd == "run":
        runner.drive(a.checks, a.out, a.seed, a.cases, a.workers, a.scheduler, a.timeout, only)
    elif a.cmd == "shard":
        return runner.shard_child(a.seed, a.shard, a.cases, a.out, a.timeout, only)
    elif a.cmd == "case":
        fam, recs = checks.run_case(a.seed, a.case, only)
        print(fam)
        for x in recs:
            print(json.dumps(x))
    else:
        runner.write_report(a.out, a.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
