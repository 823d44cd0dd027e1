"""Render benchmark results: results.json, summary.md and index.html. Both open with
"which accountant when" (:func:`which_accountant`: per family, from this run's
measurements, the sound accountants, the tightest of them, their times and a one-line
recommendation), then the peer totals, the peer × region table, the plots (relative error
vs δ, error vs T, time vs T per peer), the answers below the truth and the wide
references."""

from __future__ import annotations

import base64
import html
import io
import json
import math
import os
from collections import defaultdict
from typing import Any, Dict, List, Optional, Tuple

from .peers import ROUNDING_LEVEL
from .runner import WIDE_REFERENCE, median

__all__ = ["summarize", "summary_markdown", "which_accountant", "write_report"]

SHIFTDP = "shiftdp"


def _status(r: Dict[str, Any]) -> str:
    """A result's status; an ``unsound`` answer of results written before the
    rounding-level class existed is reclassified by its shortfall."""
    st = r["status"]
    if st == "unsound":
        sf = r.get("shortfall")
        if isinstance(sf, (int, float)) and sf <= ROUNDING_LEVEL:
            return "rounding"
    return st


def _wide(r: Dict[str, Any]) -> bool:
    w = r.get("ref_rel_width")
    return isinstance(w, (int, float)) and w > WIDE_REFERENCE


def _own_quantity(results: Dict[str, Any]) -> List[Dict[str, Any]]:
    """The results where a peer computes the entry's own quantity (every family but
    ``sampler``, where the peers answer the Poisson question for another sampler)."""
    return [r for r in results["results"] if r.get("family") != "sampler"]


def sampler_table(results: Dict[str, Any]) -> List[str]:
    """Markdown lines of the sampler family: per run, the certified interval of the
    sampler used and each peer's (Poisson) answer, marked where it is below the
    certified lower end."""
    rs = [r for r in results["results"] if r.get("family") == "sampler"]
    if not rs:
        return []
    peers = sorted({r["peer"] for r in rs})
    runs: Dict[str, Dict[str, Any]] = {}
    for r in rs:
        runs.setdefault(r["entry"], {"r": r, "by": {}})["by"][r["peer"]] = r
    lines = [
        "",
        "## The batches actually drawn (sampler family)",
        "",
        "Each run's true ε(δ) for the sampler used lies in the certified [lower, upper] "
        "(zero-out neighbours, n = 100·T, b = 100, δ = 1e-5); every peer answers for Poisson "
        "sampling at q = 1/T (b/n for fixed-size batches) over T·E steps. **below** = the peer's "
        "number is under the certified lower bound: provably wrong for these batches. These runs "
        "are not counted in the tables above.",
        "",
        "| sampler | σ | E | T | certified [lower, upper] | rel. width | " + " | ".join(peers) + " |",
        "|---|---:|---:|---:|---|---:|" + "---:|" * len(peers),
    ]
    below = {p: 0 for p in peers}
    for _, v in sorted(runs.items(), key=lambda kv: (kv[1]["r"]["params"]["sampler"], float(kv[1]["r"]["params"]["sigma"]),
                                                    kv[1]["r"]["params"]["epochs"], kv[1]["r"]["params"]["steps_per_epoch"])):
        r = v["r"]
        p = r["params"]
        cells = []
        for peer in peers:
            x = v["by"].get(peer)
            if x is None or x["value"] is None or isinstance(x["value"], str):
                cells.append("—" if x is None else "failure")
                continue
            mark = ""
            if _status(x) == "unsound":
                mark = " **below**"
                below[peer] += 1
            elif _status(x) == "rounding":
                mark = " (below, rounding-level)"
            cells.append(f"{x['value']:.4g}{mark}")
        up = "∞" if not math.isfinite(r["upper"]) else f"{r['upper']:.4g}"
        w = r.get("ref_rel_width")
        wcell = "—" if w is None else (f"{w:.2g} (wide)" if _wide(r) else f"{w:.2g}")
        lines.append(f"| {p['sampler']} | {p['sigma']} | {p['epochs']} | {p['steps_per_epoch']} | "
                     f"[{r['lower']:.4g}, {up}] | {wcell} | " + " | ".join(cells) + " |")
    lines += ["", "Below the certified lower bound: " + ", ".join(f"{p} {below[p]}/{len(runs)}" for p in peers) + ".",
              "", f"(wide) = reference wide, comparison weak: the interval's relative width exceeds "
              f"{WIDE_REFERENCE:g} (the gap between the best analysis of the sampler and the best "
              f"explicit lower bound, not a numerical tolerance); a number inside it is neither "
              f"confirmed nor refuted, one below it is still provably wrong."]
    return lines


def summarize(results: Dict[str, Any]) -> List[Dict[str, Any]]:
    """One row per (peer, region): counts and error/time statistics."""
    groups: Dict[Tuple[str, str], List[Dict[str, Any]]] = defaultdict(list)
    for r in _own_quantity(results):
        groups[(r["peer"], r["region"])].append(r)
    rows = []
    for (peer, region), rs in sorted(groups.items()):
        errs = [r["rel_error"] for r in rs if r["rel_error"] is not None]
        rows.append({
            "peer": peer, "region": region, "n": len(rs),
            "unsound": sum(_status(r) == "unsound" for r in rs),
            "rounding": sum(_status(r) == "rounding" for r in rs),
            "failures": sum(r["status"] == "failure" for r in rs),
            "inside": sum(r["status"] == "inside" for r in rs),
            "median_rel_error": median(errs),
            "max_rel_error": max(errs) if errs else None,
            "min_rel_error": min(errs) if errs else None,
            "median_seconds": median([r["seconds"] for r in rs]),
        })
    return rows


def peer_totals(results: Dict[str, Any]) -> List[Dict[str, Any]]:
    groups: Dict[str, List[Dict[str, Any]]] = defaultdict(list)
    for r in _own_quantity(results):
        groups[r["peer"]].append(r)
    out = []
    for p in results["peers"]:
        rs = groups.get(p["name"], [])
        errs = [r["rel_error"] for r in rs if r["rel_error"] is not None]
        out.append({
            "peer": p["name"], "available": p["available"], "version": p.get("version"),
            "skipped_reason": p.get("skipped_reason"), "n": len(rs),
            "unsound": sum(_status(r) == "unsound" for r in rs),
            "rounding": sum(_status(r) == "rounding" for r in rs),
            "failures": sum(r["status"] == "failure" for r in rs),
            "inside": sum(r["status"] == "inside" for r in rs),
            "median_rel_error": median(errs),
            "median_seconds": median([r["seconds"] for r in rs]),
            "total_seconds": sum(r["seconds"] for r in rs),
        })
    return out


def _g(x: Optional[float], fmt: str = ".2e") -> str:
    return "—" if x is None else format(x, fmt)


def _family_order(results: Dict[str, Any]) -> List[str]:
    seen: Dict[str, None] = {}
    for f in results.get("families", {}):
        seen.setdefault(f, None)
    for r in results["results"]:
        seen.setdefault(r["family"], None)
    for r in results.get("shiftdp", {}).get("rows", []):
        seen.setdefault(r["family"], None)
    return list(seen)


def _acc_stats(name: str, rs: List[Dict[str, Any]], certified: bool = False) -> Dict[str, Any]:
    """One accountant's numbers on one family: runs, answers, answers below the truth
    (material / rounding-level), failures, median relative excess of the answer over the
    certified upper end, median seconds per query."""
    ok = [r for r in rs if r.get("rel_error") is not None and r.get("error") is None]
    # a failure (exception, inf, timeout) is as loose as an answer can be: +inf excess
    excess = [r["rel_error"] if r in ok else math.inf for r in rs]
    return {
        "accountant": name,
        "certified": certified,
        "runs": len(rs),
        "answered": len(ok),
        "unsound": 0 if certified else sum(_status(r) == "unsound" for r in rs),
        "rounding": 0 if certified else sum(_status(r) == "rounding" for r in rs),
        "failures": len(rs) - len(ok),
        "median_excess": median(excess),
        "median_seconds": median([r["seconds"] for r in rs]),
    }


def which_accountant(results: Dict[str, Any]) -> List[Dict[str, Any]]:
    """Per family of the run, from its measurements: every accountant's numbers
    (``_acc_stats``; shiftdp's from the entries it recomputed, its answer being its
    certified upper end), which were sound (no answer materially below the certified
    lower end; rounding-level shortfalls allowed and counted), the tightest sound one and
    a one-line recommendation.

    Tightness is the median relative excess over the reference's certified upper end (a
    failure counting as an infinite excess), floored at the family's median reference width (the resolution of the comparison:
    two accountants within it are equally tight as far as the reference can tell, and
    the faster one ranks first). The ``published`` values are not an accountant and are
    left out. In the ``sampler`` family the peers answer for Poisson sampling, not for
    the sampler used: only shiftdp's number is a bound there, and the row counts how
    often a peer's number lies below the certified lower bound."""
    fam_info = results.get("families", {})
    own_rows = results.get("shiftdp", {}).get("rows", [])
    out = []
    for fam in _family_order(results):
        rs = [r for r in results["results"] if r["family"] == fam and r["peer"] != "published"]
        own = [r for r in own_rows if r["family"] == fam]
        by: Dict[str, List[Dict[str, Any]]] = defaultdict(list)
        for r in rs:
            by[r["peer"]].append(r)
        accs = [_acc_stats(p, v) for p, v in by.items()]
        if own:
            accs.append(_acc_stats(SHIFTDP, own, certified=True))
        info = fam_info.get(fam, {})
        ids = {r["entry"] for r in rs} | {r["entry"] for r in own}
        n = info.get("entries", len(ids))
        widths = [r["ref_rel_width"] for r in rs + own if isinstance(r.get("ref_rel_width"), (int, float))]
        resolution = max(median(widths) or 0.0, ROUNDING_LEVEL)
        wide = info.get("wide", len({r["entry"] for r in rs + own if _wide(r)}))
        max_width = info.get("max_rel_width", max(widths) if widths else None)
        sound = [a for a in accs if a["answered"] and a["unsound"] == 0 and a["median_excess"] is not None]
        sound.sort(key=lambda a: (max(a["median_excess"], resolution), a["median_seconds"] or 0.0))
        row = {
            "family": fam, "entries": n, "wide": wide, "max_rel_width": max_width, "resolution": resolution,
            "accountants": accs,
            "sound": [a["accountant"] for a in sound],
            "unsound": [a["accountant"] for a in accs if a["unsound"]],
            "tightest": sound[0]["accountant"] if sound and fam != "sampler" else (SHIFTDP if own else None),
        }
        row["recommendation"] = _recommend(row)
        out.append(row)
    return out


def _acc(row: Dict[str, Any], name: str) -> Dict[str, Any]:
    return next(a for a in row["accountants"] if a["accountant"] == name)


def _excess(a: Dict[str, Any]) -> str:
    x = a["median_excess"]
    return "—" if x is None else f"{x:+.1e}"


def _cov(a: Dict[str, Any]) -> str:
    return "" if a["failures"] == 0 else f", answers {a['answered']}/{a['runs']}"


def _recommend(row: Dict[str, Any]) -> str:
    """A one-line recommendation from the row's numbers: the tightest sound accountant,
    the tightest sound peer when that is shiftdp, a much faster sound one, the fallback
    where the recommended one fails, the accountants to avoid, and a wide-reference
    warning."""
    accs = row["accountants"]
    peers = [a for a in accs if not a["certified"]]
    own = [a for a in accs if a["certified"]]
    own_t = f"{own[0]['median_seconds']:.2g} s" if own and own[0]["median_seconds"] is not None else None

    def desc(a: Dict[str, Any]) -> str:
        if a["median_excess"] == math.inf:  # fails on half the queries or more
            return f"{a['accountant']} (answers only {a['answered']}/{a['runs']}, {_g(a['median_seconds'], '.2g')} s)"
        return f"{a['accountant']} ({_excess(a)}, {_g(a['median_seconds'], '.2g')} s{_cov(a)})"

    if row["family"] == "sampler":
        below = [f"{a['accountant']} {a['unsound']}/{a['runs']}" for a in peers if a["unsound"]]
        s = "shiftdp.sampler_report: the only bound for the sampler used" + (f" ({own_t})" if own_t else "")
        return s + ("; the peers' Poisson numbers fall below its certified lower bound: " + ", ".join(below)
                    if below else "; no peer's Poisson number fell below its certified lower bound here")
    if not peers:
        return ("only shiftdp ran (no peer installed or supporting this family): certified"
                + (f", {own_t} per query" if own_t else ""))
    sound = [_acc(row, n) for n in row["sound"]]
    sound_peers = [a for a in sound if not a["certified"]]
    parts = []
    if not sound:
        parts.append("no accountant answered soundly")
    else:
        best = sound[0]
        parts.append("tightest sound: " + desc(best))
        lead = best
        if best["certified"]:
            if sound_peers:
                lead = sound_peers[0]
                parts.append("tightest sound peer: " + desc(lead))
            else:
                parts.append("no peer answered soundly")
        fastest = min(sound, key=lambda a: a["median_seconds"] or 0.0)
        if fastest not in (best, lead) and (fastest["median_seconds"] or 0) < 0.5 * (lead["median_seconds"] or 0):
            parts.append("when time matters: " + desc(fastest))
        if lead["failures"]:
            full = [a for a in sound if a["failures"] == 0]
            if full:
                parts.append(f"where {lead['accountant']} fails: {full[0]['accountant']}")
    bad = [a for a in peers if a["unsound"]]
    if bad:
        parts.append("avoid " + ", ".join(f"{a['accountant']} (materially below the truth in "
                                          f"{a['unsound']}/{a['runs']})" for a in bad))
    if row["wide"]:
        parts.append(f"reference wide on {row['wide']} entr{'y' if row['wide'] == 1 else 'ies'}, comparison weak")
    return "; ".join(parts)


def which_accountant_markdown(results: Dict[str, Any]) -> List[str]:
    rows = which_accountant(results)
    missing = [p["name"] for p in results.get("peers", []) if not p.get("available")]
    lines = [
        "## Which accountant when (measured in this run)",
        "",
        "Per family: the accountants with no answer materially below the certified lower end "
        f"(shortfalls up to {ROUNDING_LEVEL:g} relative are rounding-level and allowed), the tightest "
        "of them by the median relative excess of the answer over the certified upper end "
        "(accountants within the family's median reference width tie, the faster first), "
        "median seconds per query, and the recommendation those numbers give. "
        "shiftdp's numbers come from the entries it recomputed.",
        "",
        "| family | entries | sound (median excess, s/query) | below the truth: material · rounding-level | tightest sound | recommendation |",
        "|---|---:|---|---|---|---|",
    ]
    for row in rows:
        sound = "; ".join(
            f"{a['accountant']} ({'certified, ' if a['certified'] else ''}{_excess(a)}, "
            f"{_g(a['median_seconds'], '.2g')} s{_cov(a)})"
            for a in (_acc(row, n) for n in row["sound"])
        ) or "—"
        if row["family"] == "sampler":
            sound = "; ".join(f"{a['accountant']} (certified, {_g(a['median_seconds'], '.2g')} s)"
                              for a in row["accountants"] if a["certified"]) or "—"
        below = "; ".join(
            f"{a['accountant']} {a['unsound']} · {a['rounding']}"
            for a in row["accountants"] if a["unsound"] or a["rounding"]
        ) or "none"
        ent = f"{row['entries']}" + (f" ({row['wide']} wide, up to {row['max_rel_width']:.2g})"
                                     if row["wide"] and row["max_rel_width"] is not None else "")
        lines.append(f"| {row['family']} | {ent} | {sound} | {below} | {row['tightest'] or '—'} | "
                     f"{row['recommendation']} |")
    if missing:
        lines += ["", "Not installed (not run): " + ", ".join(missing) + "."]
    if results.get("left_out"):
        lines += ["", "Left out by --quick (slower configurations; run without --quick): "
                  + ", ".join(results["left_out"]) + "."]
    lines.append("")
    return lines


def summary_markdown(results: Dict[str, Any]) -> str:
    wall = results.get("wall_seconds")
    lines = [
        "# Peer-accountant benchmark",
        "",
        f"{results['entries']} reference entries{' (--quick subset)' if results.get('quick') else ''}; "
        f"timeout {results['timeout']:g} s per run; created {results['created']}"
        + (f"; wall time {wall:g} s" if wall is not None else "") + ".",
        "",
    ]
    lines += which_accountant_markdown(results)
    lines += [
        "Classification against shiftdp's certified interval [lower, upper] of an upper-bound "
        "quantity: **unsound** = value below lower by more than "
        f"{ROUNDING_LEVEL:g} relative (provably and materially below the truth); **rounding-level** = "
        f"below lower by at most {ROUNDING_LEVEL:g} relative (the last digits of an f64 evaluation), "
        "or, for a published value, by at most one unit in its last printed digit; "
        "**failure** = exception, NaN or inf; rel. error = (value − upper)/upper (negative only inside "
        "the interval or below it).",
        "",
        "## Peers",
        "",
        "| peer | version | runs | unsound | rounding-level | failures | inside | median rel. error | median time (s) | status |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for t in peer_totals(results):
        status = "ran" if t["available"] else f"skipped: {t['skipped_reason']}"
        lines.append(
            f"| {t['peer']} | {t['version'] or '—'} | {t['n']} | {t['unsound']} | {t['rounding']} | {t['failures']} | "
            f"{t['inside']} | {_g(t['median_rel_error'])} | {_g(t['median_seconds'], '.3f')} | {status} |"
        )
    lines += [
        "",
        "## Per peer and region (family · δ band · T band)",
        "",
        "| peer | region | n | unsound | rounding-level | failures | inside | median rel. err | max rel. err | median time (s) |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in summarize(results):
        lines.append(
            f"| {r['peer']} | {r['region']} | {r['n']} | {r['unsound']} | {r['rounding']} | {r['failures']} | "
            f"{r['inside']} | {_g(r['median_rel_error'])} | {_g(r['max_rel_error'])} | {_g(r['median_seconds'], '.3f')} |"
        )
    lines += sampler_table(results)
    own = results.get("shiftdp", {})
    rows = own.get("rows", [])
    lines += ["", "## shiftdp on the same work", ""]
    if rows:
        ok = [r for r in rows if r.get("error") is None]
        lines.append(
            f"shiftdp {own.get('version')}: {len(ok)}/{len(rows)} sampled entries recomputed; "
            f"median time {_g(median([r['seconds'] for r in ok]), '.3f')} s, max "
            f"{_g(max((r['seconds'] for r in ok), default=None), '.3f')} s; median relative width "
            f"{_g(median([r['rel_width'] for r in ok]))}; recomputed interval overlaps the reference: "
            f"{sum(bool(r.get('overlaps_reference')) for r in ok)}/{len(ok)}. Reference suite relative "
            f"width: median {_g(own.get('reference_rel_width_median'))}, max "
            f"{_g(own.get('reference_rel_width_max'))}."
        )
        lines += ["", "| region | n | median time (s) | median rel. width |", "|---|---:|---:|---:|"]
        by: Dict[str, List[Dict[str, Any]]] = defaultdict(list)
        for r in ok:
            by[r["region"]].append(r)
        for reg, rs in sorted(by.items()):
            lines.append(f"| {reg} | {len(rs)} | {_g(median([r['seconds'] for r in rs]), '.3f')} | "
                         f"{_g(median([r['rel_width'] for r in rs]))} |")
        bad = [r for r in rows if r.get("error")]
        for r in bad:
            lines.append(f"\n* shiftdp refused {r['entry']}: {r['error']}")
    else:
        lines.append("not run (`--shiftdp-sample 0`) or no recomputable entries.")
    own_q = _own_quantity(results)
    for title, st in (("Unsound answers", "unsound"), ("Rounding-level answers", "rounding")):
        uns = [r for r in own_q if _status(r) == st]
        lines += ["", f"## {title} ({len(uns)})", ""]
        if st == "rounding" and uns:
            lines += [f"Below the certified lower end by at most {ROUNDING_LEVEL:g} relative (a "
                      "published value: one unit in its last printed digit): the last digits "
                      "of an f64 evaluation or of a printed decimal, not the method.", ""]
        if uns:
            lines += ["| peer | entry | query | value | certified [lower, upper] | shortfall |",
                      "|---|---|---|---:|---|---:|"]
            for r in uns:
                sf = r.get("shortfall")
                lines.append(f"| {r['peer']} | {r['entry']} | {_q(r['query'])} | {r['value']!r} | "
                             f"[{r['lower']!r}, {r['upper']!r}]{' (wide)' if _wide(r) else ''} | "
                             f"{sf if isinstance(sf, str) else _g(sf)} |")
    lines += wide_references(results)
    lines.append("")
    return "\n".join(lines)


def wide_references(results: Dict[str, Any]) -> List[str]:
    """Markdown lines listing this run's entries whose reference interval is wide
    (relative width above :data:`~shiftdp_bench.runner.WIDE_REFERENCE`)."""
    seen: Dict[str, Dict[str, Any]] = {}
    for r in results["results"] + results.get("shiftdp", {}).get("rows", []):
        if _wide(r):
            seen.setdefault(r["entry"], r)
    if not seen:
        return []
    lines = ["", f"## Reference wide, comparison weak ({len(seen)})", "",
             f"Entries whose certified interval is wider than {WIDE_REFERENCE:g} relative: an answer "
             "inside it is neither confirmed nor refuted; one below it is still provably below the truth.",
             "", "| entry | certified [lower, upper] | rel. width |", "|---|---|---:|"]
    for eid, r in sorted(seen.items(), key=lambda kv: -kv[1]["ref_rel_width"]):
        lo = r.get("lower") if "ref_lower" not in r else r["ref_lower"]
        up = r.get("upper") if "ref_upper" not in r else r["ref_upper"]
        lines.append(f"| {eid} | [{lo:.6g}, {up:.6g}] | {r['ref_rel_width']:.3g} |")
    return lines


def _q(q: Dict[str, str]) -> str:
    return ", ".join(f"{k}={v}" for k, v in q.items())


# -- plots -----------------------------------------------------------------------------


def _plots(results: Dict[str, Any]) -> Dict[str, str]:
    """Base64 PNGs (matplotlib, Agg); {} when matplotlib is missing."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except Exception:
        return {}
    rs = [r for r in _own_quantity(results) if r["peer"] != "published"]
    peers = sorted({r["peer"] for r in rs})
    cmap = plt.get_cmap("tab20")
    colour = {p: cmap(i % 20) for i, p in enumerate(peers)}
    out: Dict[str, str] = {}

    def png(fig: Any) -> str:
        buf = io.BytesIO()
        fig.savefig(buf, format="png", dpi=90, bbox_inches="tight")
        plt.close(fig)
        return base64.b64encode(buf.getvalue()).decode()

    def scatter(xkey: str, title: str, xlabel: str, name: str, xlog: bool = True) -> None:
        fig, ax = plt.subplots(figsize=(11, 5))
        for p in peers:
            pts = [(r[xkey], r["rel_error"]) for r in rs if r["peer"] == p and r["rel_error"] is not None
                   and r[xkey] is not None]
            fails = [r[xkey] for r in rs if r["peer"] == p and r["status"] == "failure" and r[xkey] is not None]
            uns = [(r[xkey], r["rel_error"]) for r in rs if r["peer"] == p and _status(r) == "unsound"
                   and r[xkey] is not None]
            rnd = [(r[xkey], r["rel_error"]) for r in rs if r["peer"] == p and _status(r) == "rounding"
                   and r[xkey] is not None]
            if pts:
                ax.scatter([x for x, _ in pts], [y for _, y in pts], s=18, color=colour[p], label=p, alpha=0.8)
            if fails:
                ax.scatter(fails, [10.0] * len(fails), marker="x", s=30, color=colour[p])
            if uns:
                ax.scatter([x for x, _ in uns], [y for _, y in uns], marker="o", s=80, facecolors="none",
                           edgecolors="red", linewidths=1.5)
            if rnd:
                ax.scatter([x for x, _ in rnd], [y for _, y in rnd], marker="o", s=80, facecolors="none",
                           edgecolors="orange", linewidths=1.0)
        ax.set_yscale("symlog", linthresh=1e-12)
        if xlog:
            ax.set_xscale("log")
        ax.axhline(0, color="black", lw=0.8)
        ax.axhline(10.0, color="grey", lw=0.5, ls=":")
        ax.set_xlabel(xlabel)
        ax.set_ylabel("(value − certified upper) / upper  [symlog]")
        ax.set_title(title + "  (× at 10 = failure; red ring = unsound; orange ring = rounding-level)")
        if ax.get_legend_handles_labels()[0]:  # no peer ran: nothing to name
            ax.legend(fontsize=7, loc="center left", bbox_to_anchor=(1.0, 0.5))
        ax.grid(alpha=0.3)
        out[name] = png(fig)

    scatter("delta", "Relative error vs δ", "δ", "error_vs_delta")
    scatter("steps", "Relative error vs T (steps)", "T", "error_vs_T")
    fig, ax = plt.subplots(figsize=(11, 5))
    for p in peers:
        pts = [(r["steps"], r["seconds"]) for r in rs if r["peer"] == p and r["steps"] is not None]
        if pts:
            ax.scatter([x for x, _ in pts], [y for _, y in pts], s=18, color=colour[p], label=p, alpha=0.8)
    own = [(r["steps"], r["seconds"]) for r in results.get("shiftdp", {}).get("rows", []) if r.get("error") is None]
    if own:
        ax.scatter([x for x, _ in own], [y for _, y in own], s=60, marker="*", color="black", label="shiftdp (certified)")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("T (steps)")
    ax.set_ylabel("wall time per query (s)")
    ax.set_title("Time vs T")
    ax.legend(fontsize=7, loc="center left", bbox_to_anchor=(1.0, 0.5))
    ax.grid(alpha=0.3)
    out["time_vs_T"] = png(fig)
    return out


def _md_table_to_html(md: str) -> str:
    """The summary's Markdown (headings, paragraphs, pipe tables, bullets) as HTML."""
    out: List[str] = []
    lines = md.splitlines()
    i = 0
    while i < len(lines):
        ln = lines[i]
        if ln.startswith("|"):
            rows = []
            while i < len(lines) and lines[i].startswith("|"):
                rows.append([c.strip() for c in lines[i].strip().strip("|").split("|")])
                i += 1
            head, body = rows[0], [r for r in rows[2:]]
            out.append("<table><thead><tr>" + "".join(f"<th>{html.escape(c)}</th>" for c in head) + "</tr></thead><tbody>")
            for r in body:
                cls = ""
                if len(head) > 3 and "unsound" in head:
                    k = head.index("unsound")
                    if k < len(r) and r[k] not in ("0", "—"):
                        cls = ' class="bad"'
                    elif "rounding-level" in head:
                        k = head.index("rounding-level")
                        if k < len(r) and r[k] not in ("0", "—"):
                            cls = ' class="warn"'
                out.append(f"<tr{cls}>" + "".join(f"<td>{html.escape(c)}</td>" for c in r) + "</tr>")
            out.append("</tbody></table>")
            continue
        if ln.startswith("## "):
            out.append(f"<h2>{html.escape(ln[3:])}</h2>")
        elif ln.startswith("# "):
            out.append(f"<h1>{html.escape(ln[2:])}</h1>")
        elif ln.startswith("* "):
            out.append(f"<p>• {html.escape(ln[2:])}</p>")
        elif ln.strip():
            t = html.escape(ln)
            for w in ("unsound", "rounding-level", "failure"):
                t = t.replace(f"**{w}**", f"<b>{w}</b>")
            out.append(f"<p>{t}</p>")
        i += 1
    return "\n".join(out)


def write_report(results: Dict[str, Any], out_dir: str) -> Dict[str, str]:
    os.makedirs(out_dir, exist_ok=True)
    paths = {k: os.path.join(out_dir, f) for k, f in
             (("json", "results.json"), ("md", "summary.md"), ("html", "index.html"))}
    with open(paths["json"], "w") as f:
        json.dump(results, f, indent=1, default=str)
    md = summary_markdown(results)
    with open(paths["md"], "w") as f:
        f.write(md)
    plots = _plots(results)
    figs = "".join(
        f'<figure><img alt="{k}" src="data:image/png;base64,{v}"/></figure>' for k, v in plots.items()
    ) or "<p>(matplotlib not installed: no plots)</p>"
    page = f"""<!doctype html><html><head><meta charset="utf-8"><title>shiftdp peer-accountant benchmark</title>
<style>body{{font-family:system-ui,sans-serif;max-width:1150px;margin:1em auto;color:#222}}
table{{border-collapse:collapse;font-size:12px;margin:0.5em 0}}td,th{{border:1px solid #ccc;padding:2px 6px}}
th{{background:#f0f0f0}}tr.bad td{{background:#fde2e2}}tr.warn td{{background:#fff6d5}}figure{{margin:0.5em 0}}img{{max-width:100%}}</style></head>
<body>{_md_table_to_html(md.split('## Per peer and region')[0])}
<h2>Plots</h2>{figs}
{_md_table_to_html('## Per peer and region' + md.split('## Per peer and region', 1)[1])}
</body></html>"""
    with open(paths["html"], "w") as f:
        f.write(page)
    return paths
