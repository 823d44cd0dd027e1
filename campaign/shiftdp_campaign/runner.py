"""Shards, their resumable files, the Dask driver and the report.

A shard is a fixed range of cases ``[shard·cases, (shard+1)·cases)`` of one seed. It runs
in a child interpreter (``python -m shiftdp_campaign shard …``) so that a per-case time
limit can stop the engine (the library cannot be cancelled: on a timeout the child records
the case and exits, and the parent starts a new child after it), and a crash of the
interpreter (abort, segfault) is recorded against the case that caused it instead of
killing the Dask worker. Progress is one JSON line per case in ``shard-S-I.part``; a
finished shard is renamed ``shard-S-I.json`` and a rerun skips it."""

import collections
import glob
import json
import os
import signal
import subprocess
import sys
import time

from . import checks

EXIT_TIMEOUT = 3
CAMPAIGN_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def shard_paths(out, seed, shard):
    base = os.path.join(out, f"shard-{seed}-{shard:06d}")
    return base + ".part", base + ".json"


def _done_cases(part):
    done = set()
    if os.path.exists(part):
        with open(part) as f:
            for line in f:
                try:
                    done.add(json.loads(line)["case"])
                except (ValueError, KeyError):
                    pass  # a torn last line of a killed child
    return done


def shard_child(seed, shard, cases, out, timeout, only):
    """Runs the cases of one shard that are not yet in its .part file (the child side)."""
    part, _ = shard_paths(out, seed, shard)
    done = _done_cases(part)

    def alarm(signum, frame):
        raise checks.Timeout()

    signal.signal(signal.SIGALRM, alarm)
    with open(part, "a") as f:
        for i in range(shard * cases, (shard + 1) * cases):
            if i in done:
                continue
            t0 = time.time()
            checks.CURRENT["repro"] = None
            signal.setitimer(signal.ITIMER_REAL, timeout)
            try:
                fam, recs = checks.run_case(seed, i, only)
                timed_out = False
            except checks.Timeout:
                fam, recs, timed_out = "?", [], True
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
            dt = time.time() - t0
            if timed_out:
                import random

                fam = checks.pick_family(random.Random(f"{seed}:{i}"), only)[0]
                pending = checks.CURRENT.get("repro") or f"python -m shiftdp_campaign case --seed {seed} --case {i}"
                recs = [checks.rec(fam, "timeout", pending, seconds=round(dt, 1), case=i)]
            counts = collections.Counter(f"{r['family']}/{r['class']}" for r in recs)
            diff = sum(1 for r in recs if r.get("reference") is not None and r["class"] in ("pass", "violation", "wide"))
            keep = [r for r in recs if r["class"] not in ("pass", "pass-noref", "refused-ok")]
            for r in keep:
                r.setdefault("case", i)
                r["case_repro"] = f"python -m shiftdp_campaign case --seed {seed} --case {i}"
            f.write(json.dumps({"case": i, "family": fam, "seconds": round(dt, 4), "counts": counts,
                                "differential": diff, "nonpass": keep}) + "\n")
            f.flush()
            if timed_out:
                os._exit(EXIT_TIMEOUT)  # the engine's worker thread cannot be stopped; the parent restarts
    return 0


def run_shard(seed, shard, cases, out, timeout=120, only=None):
    """Runs one shard to completion (the Dask task): child interpreters until every case
    has a line, a crashing case recorded as 'crash'. Returns the shard's summary."""
    part, final = shard_paths(out, seed, shard)
    if os.path.exists(final):
        with open(final) as f:
            return json.load(f)
    env = dict(os.environ)
    env.setdefault("RAYON_NUM_THREADS", "1")
    env.setdefault("OMP_NUM_THREADS", "1")
    env["PYTHONPATH"] = CAMPAIGN_DIR + os.pathsep + env.get("PYTHONPATH", "")
    cmd = [sys.executable, "-m", "shiftdp_campaign", "shard", "--seed", str(seed), "--shard", str(shard),
           "--cases", str(cases), "--out", out, "--timeout", str(timeout)]
    if only:
        cmd += ["--only", ",".join(only)]
    t0 = time.time()
    restarts = 0
    while True:
        p = subprocess.run(cmd, env=env, capture_output=True, text=True)
        done = _done_cases(part)
        if p.returncode == 0 and len(done) >= cases:
            break
        if p.returncode == EXIT_TIMEOUT:
            restarts += 1
            continue
        # a crash of the interpreter: blame the first case without a line
        missing = [i for i in range(shard * cases, (shard + 1) * cases) if i not in done]
        if not missing:
            break
        i = missing[0]
        import random

        fam = checks.pick_family(random.Random(f"{seed}:{i}"), only)[0]
        r = checks.rec(fam, "crash", f"python -m shiftdp_campaign case --seed {seed} --case {i}",
                       error=f"interpreter exit {p.returncode}: {p.stderr.strip()[-300:]}", case=i)
        r["case_repro"] = r["repro"]
        with open(part, "a") as f:
            f.write(json.dumps({"case": i, "family": fam, "seconds": 0, "counts": {f"{fam}/crash": 1},
                                "differential": 0, "nonpass": [r]}) + "\n")
        restarts += 1
    counts = collections.Counter()
    nonpass, diff, busy = [], 0, 0.0
    fam_time = collections.Counter()
    with open(part) as f:
        for line in f:
            try:
                d = json.loads(line)
            except ValueError:
                continue
            counts.update(d["counts"])
            nonpass += d["nonpass"]
            diff += d["differential"]
            busy += d["seconds"]
            fam_time[d["family"]] += d["seconds"]
    summary = {"seed": seed, "shard": shard, "cases": cases, "counts": dict(counts), "differential": diff,
               "checks": sum(counts.values()), "nonpass": nonpass, "wall": time.time() - t0, "busy": busy,
               "family_seconds": dict(fam_time), "restarts": restarts, "worker": _worker_name()}
    with open(final + ".tmp", "w") as f:
        json.dump(summary, f)
    os.replace(final + ".tmp", final)
    return summary


def _worker_name():
    try:
        from distributed import get_worker

        return str(get_worker().name)
    except Exception:  # noqa: BLE001 - outside a Dask worker
        return f"pid{os.getpid()}"


def finished(out, seed):
    res = []
    for p in sorted(glob.glob(os.path.join(out, f"shard-{seed}-*.json"))):
        with open(p) as f:
            res.append(json.load(f))
    return res


def drive(target, out, seed, cases, workers, scheduler, timeout, only):
    """Submits shards until the finished ones hold `target` differential checks (a rerun
    counts the shards already in `out` and starts after them)."""
    from distributed import Client, LocalCluster, as_completed

    os.makedirs(out, exist_ok=True)
    done = finished(out, seed)
    have = sum(s["differential"] for s in done)
    done_ids = {s["shard"] for s in done}
    t0 = time.time()
    if scheduler:
        client = Client(scheduler)
        cluster = None
    else:
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None)
        client = Client(cluster)
    nworkers = max(1, len(client.scheduler_info()["workers"]))
    per_shard = (have / len(done)) if done else None
    nxt = 0
    inflight = set()
    ac = as_completed()
    print(f"campaign seed {seed}: {have} differential checks in {len(done)} finished shards; target {target}", flush=True)

    def submit_more():
        nonlocal nxt
        while len(inflight) < 2 * nworkers:
            est = have + len(inflight) * (per_shard or 0)
            if per_shard is not None and est >= target:
                return
            while nxt in done_ids:
                nxt += 1
            fut = client.submit(run_shard, seed, nxt, cases, os.path.abspath(out), timeout, only, pure=False,
                                key=f"shard-{seed}-{nxt}")
            inflight.add(fut)
            ac.add(fut)
            nxt += 1
            if per_shard is None and len(inflight) >= nworkers:
                return

    submit_more()
    for fut in ac:
        inflight.discard(fut)
        s = fut.result()
        done.append(s)
        have += s["differential"]
        per_shard = have / len(done)
        bad = sum(v for k, v in s["counts"].items() if k.split("/")[1] in ("violation", "crash", "nan", "timeout", "refusal"))
        print(f"shard {s['shard']} ({s['worker']}): {s['checks']} checks ({s['differential']} differential) "
              f"in {s['wall']:.1f}s, {bad} non-pass; total {have}/{target}", flush=True)
        if have < target:
            submit_more()
    client.close()
    if cluster is not None:
        cluster.close()
    write_report(out, seed, wall=time.time() - t0, workers=nworkers)


CLASSES = ["violation", "crash", "nan", "timeout", "refusal", "wide", "ref-error", "pass", "pass-noref", "refused-ok"]


def write_report(out, seed, wall=None, workers=None):
    shards = finished(out, seed)
    counts = collections.Counter()
    by_fam = collections.defaultdict(collections.Counter)
    per_worker = collections.defaultdict(lambda: [0, 0.0])
    fam_sec = collections.Counter()
    nonpass, diff = [], 0
    for s in shards:
        for k, v in s["counts"].items():
            fam, cls = k.split("/")
            counts[cls] += v
            by_fam[fam][cls] += v
        diff += s["differential"]
        per_worker[s["worker"]][0] += s["checks"]
        per_worker[s["worker"]][1] += s["busy"]
        fam_sec.update(s.get("family_seconds", {}))
        nonpass += s["nonpass"]
    total = sum(counts.values())
    comp = sum(v for f, c in by_fam.items() if f.startswith("compose") or f in ("calibrate",) for k, v in c.items()
               if k in ("pass", "violation", "wide"))
    lines = [f"# shiftdp campaign, seed {seed}", ""]
    lines.append(f"shards: {len(shards)}; checks: {total}; differential checks (against a reference): {diff}; "
                 f"of which compositions/calibrations against a reference: {comp}")
    if wall is not None:
        lines.append(f"wall time of this invocation: {wall:.1f} s on {workers} worker(s)")
    lines += ["", "## Counts by class", "", "| class | count |", "|---|---|"]
    lines += [f"| {c} | {counts.get(c, 0)} |" for c in CLASSES]
    lines += ["", "## Counts by family", "", "| family | " + " | ".join(CLASSES) + " | busy s |",
              "|---|" + "---|" * (len(CLASSES) + 1)]
    for fam in sorted(by_fam):
        lines.append(f"| {fam} | " + " | ".join(str(by_fam[fam].get(c, 0)) for c in CLASSES) + f" | {fam_sec.get(fam, 0):.1f} |")
    lines += ["", "## Throughput per worker (checks / busy second)", "", "| worker | checks | busy s | checks/s |", "|---|---|---|---|"]
    for w, (n, b) in sorted(per_worker.items()):
        lines.append(f"| {w} | {n} | {b:.1f} | {n / b if b else 0:.1f} |")
    lines += ["", f"## Every non-pass case ({len(nonpass)})", ""]
    order = {c: i for i, c in enumerate(CLASSES)}
    for r in sorted(nonpass, key=lambda r: (order.get(r["class"], 99), r["family"], r.get("case", 0))):
        extra = ""
        if "engine" in r:
            extra += f" engine={r['engine']}"
        if "reference" in r:
            extra += f" reference={r['reference']} ({r.get('ref', '')})"
        if r.get("error"):
            extra += f" error={r['error']!r}"
        lines.append(f"- **{r['class']}** {r['family']} case {r.get('case')}: `{r['repro']}`{extra}; "
                     f"case: `{r.get('case_repro', '')}`")
    with open(os.path.join(out, "report.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    with open(os.path.join(out, "report.json"), "w") as f:
        json.dump({"seed": seed, "shards": len(shards), "checks": total, "differential": diff,
                   "composition_differential": comp, "counts": counts, "by_family": by_fam,
                   "per_worker": per_worker, "nonpass": nonpass, "wall": wall, "workers": workers}, f, indent=1)
    print("\n".join(lines[:40]))
    return counts
