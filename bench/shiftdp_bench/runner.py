"""Run the peers on a reference suite: one worker process per peer (killed and restarted
when a run exceeds the timeout), results as plain dicts for :mod:`shiftdp_bench.report`.

The reference suite ships inside the package (``shiftdp_bench/data/reference.json``,
read with :mod:`importlib.resources`): :func:`load_suite` without a path loads it, so the
benchmark runs from an installed wheel in any working directory."""

from __future__ import annotations

import json
import math
import os
import multiprocessing as mp
import platform
import sys
import time
import warnings
from typing import Any, Dict, List, Optional, Sequence, Union

from .peers import MECHANISM_FAMILIES, Adapter, Entry, adapter_by_name, all_adapters, classify, run_shiftdp

__all__ = [
    "QUICK_MAX_STEPS",
    "QUICK_PER_FAMILY",
    "QUICK_TIMEOUT",
    "WIDE_REFERENCE",
    "load_suite",
    "packaged_suite",
    "quick_selection",
    "region_of",
    "run_benchmark",
]

WIDE_REFERENCE = 1e-3
"""A reference interval with ``rel_width`` above this is *wide*: a peer's answer inside it
says little about the peer's precision (the report marks such entries "reference wide,
comparison weak"); an answer below its lower end is still provably below the truth."""

QUICK_PER_FAMILY = 3
QUICK_MAX_STEPS = 100
QUICK_TIMEOUT = 10.0


def packaged_suite() -> Any:
    """The reference suite shipped with the package, as an :mod:`importlib.resources`
    traversable (``shiftdp_bench/data/reference.json``)."""
    from importlib.resources import files

    return files("shiftdp_bench") / "data" / "reference.json"


def load_suite(path: Union[str, "os.PathLike[str]", None] = None) -> List[Entry]:
    """The entries of a reference suite: the file at ``path``, or the packaged suite when
    ``path`` is None. Malformed entries are reported on stderr and skipped."""
    if path is None:
        d = json.loads(packaged_suite().read_text(encoding="utf-8"))
        path = "shiftdp_bench/data/reference.json (packaged)"
    else:
        with open(path, encoding="utf-8") as f:
            d = json.load(f)
    fmt = d.get("format")
    if fmt != "shiftdp-reference/1":
        raise ValueError(f"{path}: format {fmt!r}, expected 'shiftdp-reference/1'")
    entries: List[Entry] = []
    for e in d["entries"]:
        try:
            entry = Entry.from_json(e)
            entry.p  # the numbers must read (decimal strings, per the format)
        except (KeyError, TypeError, ValueError) as err:
            # a malformed entry is reported and skipped, never a crash of the benchmark
            print(f"[bench] skipped malformed entry {e.get('id', '?')!r}: {err}", file=sys.stderr)
            continue
        entries.append(entry)
    return entries


def quick_selection(entries: Sequence[Entry], per_family: int = QUICK_PER_FAMILY,
                    max_steps: int = QUICK_MAX_STEPS) -> List[Entry]:
    """The ``--quick`` subset: for each family (in the order the families first appear),
    its entries with at most ``max_steps`` composition steps (all of them when none
    has so few), sorted by id, and of those ``per_family`` evenly spaced ones — the
    first, the last and those between at equal index steps. The rule depends on the
    suite's content only, so a suite always yields the same subset."""
    by: Dict[str, List[Entry]] = {}
    for e in entries:
        by.setdefault(e.family, []).append(e)
    out: List[Entry] = []
    for fam, es in by.items():
        cheap = [e for e in es if e.p.steps <= max_steps] or es
        cheap = sorted(cheap, key=lambda e: e.id)
        n = len(cheap)
        if n <= per_family:
            out.extend(cheap)
            continue
        if per_family == 1:
            idx = [0]
        else:
            idx = sorted({round(i * (n - 1) / (per_family - 1)) for i in range(per_family)})
        out.extend(cheap[i] for i in idx)
    return out


def delta_band(e: Entry) -> str:
    if e.quantity == "rdp":
        return "rdp"
    d = e.delta_level
    if d is None or not math.isfinite(d):
        return "?"
    if d >= 1e-10:
        return "δ≥1e-10"
    if d > 1e-20:
        return "1e-20<δ<1e-10"
    return "δ≤1e-20"


def t_band(e: Entry) -> str:
    t = e.p.steps
    if e.kind == "gdp":
        return "T=1"
    if t <= 1:
        return "T=1"
    if t <= 100:
        return "T≤100"
    if t <= 10_000:
        return "T≤1e4"
    return "T>1e4"


def region_of(e: Entry) -> str:
    return f"{e.kind} · {delta_band(e)} · {t_band(e)}"


def _worker(name: str, conn: Any) -> None:
    adapter = adapter_by_name(name)
    while True:
        msg = conn.recv()
        if msg is None:
            return
        e = Entry.from_json(msg)
        conn.send(adapter.run(e))


class _Worker:
    def __init__(self, name: str) -> None:
        self.name = name
        self.ctx = mp.get_context("fork") if sys.platform != "win32" else mp.get_context()
        self._start()

    def _start(self) -> None:
        self.conn, child = self.ctx.Pipe()
        self.proc = self.ctx.Process(target=_worker, args=(self.name, child), daemon=True)
        with warnings.catch_warnings():  # fork() with threads is a DeprecationWarning from 3.12
            warnings.simplefilter("ignore", DeprecationWarning)
            self.proc.start()
        child.close()

    def run(self, e: Entry, timeout: float) -> Any:
        t0 = time.perf_counter()
        self.conn.send(e.raw)
        if self.conn.poll(timeout):
            try:
                return self.conn.recv()
            except EOFError:
                pass
            self._restart()
            return None, "worker died (crash or out of memory)", time.perf_counter() - t0
        self._restart()
        return None, f"timeout after {timeout:g} s", time.perf_counter() - t0

    def _restart(self) -> None:
        self.proc.kill()
        self.proc.join()
        self._start()

    def close(self) -> None:
        try:
            self.conn.send(None)
        except Exception:
            pass
        self.proc.join(2)
        if self.proc.is_alive():
            self.proc.kill()
            self.proc.join()


def run_benchmark(
    entries: Sequence[Entry],
    peers: Optional[Sequence[str]] = None,
    timeout: float = 60.0,
    shiftdp_sample: int = 20,
    progress: bool = True,
) -> Dict[str, Any]:
    """Run every available (or the named) peer on the entries; time shiftdp on a sample."""
    adapters: List[Adapter] = all_adapters()
    if peers:
        known = {a.name for a in adapters}
        unknown = [p for p in peers if p not in known]
        if unknown:
            raise SystemExit(f"unknown peer(s) {unknown}; known: {sorted(known)}")
        adapters = [a for a in adapters if a.name in peers]
    peer_info: List[Dict[str, Any]] = []
    results: List[Dict[str, Any]] = []
    for a in adapters:
        ok, why = a.available()
        info = {"name": a.name, "description": a.description, "available": ok,
                "skipped_reason": None if ok else why, "version": a.version() if ok else None}
        peer_info.append(info)
        if not ok:
            if progress:
                print(f"[bench] {a.name}: skipped — {why}", file=sys.stderr)
            continue
        todo = [e for e in entries if a.supports(e)]
        if progress:
            print(f"[bench] {a.name}: {len(todo)} entries", file=sys.stderr, flush=True)
        w = _Worker(a.name) if a.name != "published" else None
        try:
            for i, e in enumerate(todo):
                value, err, secs = w.run(e, timeout) if w is not None else a.run(e)
                c = classify(value, err, e.lower, e.upper, a.rounding_level(e))
                results.append({
                    "peer": a.name, "entry": e.id, "family": e.kind, "region": region_of(e),
                    "delta_band": delta_band(e), "t_band": t_band(e),
                    "quantity": e.quantity, "query": e.query, "params": e.params,
                    "steps": e.p.steps, "delta": e.delta_level,
                    "lower": e.lower, "upper": e.upper, "ref_rel_width": _finite_or_none(e.rel_width),
                    "value": value if value is None or math.isfinite(value) else str(value),
                    "error": err, "seconds": secs, **c,
                })
                if progress and (i + 1) % 25 == 0:
                    print(f"[bench]   {i + 1}/{len(todo)}", file=sys.stderr, flush=True)
        finally:
            if w is not None:
                w.close()
    own = run_shiftdp_sample(entries, shiftdp_sample, progress)
    families: Dict[str, Dict[str, Any]] = {}
    for e in entries:
        f = families.setdefault(e.kind, {"entries": 0, "wide": 0, "max_rel_width": None})
        f["entries"] += 1
        if math.isfinite(e.rel_width):
            if e.rel_width > WIDE_REFERENCE:
                f["wide"] += 1
            f["max_rel_width"] = max(f["max_rel_width"] or 0.0, e.rel_width)
    return {
        "format": "shiftdp-bench-results/1",
        "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "python": platform.python_version(),
        "platform": platform.platform(),
        "entries": len(entries),
        "families": families,
        "timeout": timeout,
        "peers": peer_info,
        "results": results,
        "shiftdp": own,
    }


def run_shiftdp_sample(entries: Sequence[Entry], n: int, progress: bool = True) -> Dict[str, Any]:
    """Recompute up to ``n`` entries (spread over the suite; all of them when ``n`` ≥ their
    number) with shiftdp's Python API: time, width, the relative excess of the certified
    upper end over the reference's, and whether the recomputed interval overlaps the
    reference one."""
    try:
        import shiftdp
        version = shiftdp.__version__
    except Exception as e:  # pragma: no cover
        return {"error": f"shiftdp not importable: {e}", "rows": []}
    cands = [e for e in entries
             if e.kind in ("gdp", "poisson_gaussian", "symmetrized_cp", "sgm_rdp", "sampler", *MECHANISM_FAMILIES)]
    if n <= 0 or not cands:
        sample: List[Entry] = []
    else:
        step = max(1, len(cands) // n)
        sample = cands[::step][:n]
    rows = []
    if progress and sample:
        print(f"[bench] shiftdp: recomputing {len(sample)} entries", file=sys.stderr, flush=True)
    for e in sample:
        iv, err, secs = run_shiftdp(e)
        row: Dict[str, Any] = {"entry": e.id, "region": region_of(e), "family": e.kind,
                               "steps": e.p.steps, "delta": e.delta_level,
                               "seconds": secs, "error": err,
                               "ref_lower": e.lower, "ref_upper": e.upper,
                               "ref_rel_width": _finite_or_none(e.rel_width)}
        if iv is not None:
            lo, up = iv
            row.update({"lower": lo, "upper": up,
                        "rel_width": (up - lo) / up if up else 0.0,
                        # shiftdp's answer is its certified upper end
                        "rel_error": (up - e.upper) / abs(e.upper) if e.upper else 0.0,
                        "overlaps_reference": lo <= e.upper and e.lower <= up})
        rows.append(row)
    widths = [e.rel_width for e in entries if math.isfinite(e.rel_width)]
    return {"version": version, "rows": rows,
            "reference_rel_width_median": median(widths), "reference_rel_width_max": max(widths) if widths else None}


def _finite_or_none(x: float) -> Optional[float]:
    return x if math.isfinite(x) else None


def median(xs: Sequence[float]) -> Optional[float]:
    """The median of ``xs`` (the mean of the two middle values for an even count), or
    None for no values."""
    s = sorted(xs)
    if not s:
        return None
    m = len(s) // 2
    return s[m] if len(s) % 2 else 0.5 * (s[m - 1] + s[m])
