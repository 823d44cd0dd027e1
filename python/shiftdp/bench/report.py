"""Render benchmark results: results.json, summary.md (peer × region table) and index.html
(plots: relative error vs δ, error vs T, time vs T per peer; the unsound answers)."""

from __future__ import annotations

import base64
import html
import io
import json
import math
import os
from collections import defaultdict
from typing import Any, Dict, List, Optional, Tuple

__all__ = ["summarize", "summary_markdown", "write_report"]


def _median(xs: List[float]) -> Optional[float]:
    s = sorted(xs)
    if not s:
        return None
    m = len(s) // 2
    return s[m] if len(s) % 2 else 0.5 * (s[m - 1] + s[m])


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
        "| sampler | σ | E | T | certified [lower, upper] | " + " | ".join(peers) + " |",
        "|---|---:|---:|---:|---|" + "---:|" * len(peers),
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
            if x["status"] == "unsound":
                mark = " **below**"
                below[peer] += 1
            cells.append(f"{x['value']:.4g}{mark}")
        up = "∞" if not math.isfinite(r["upper"]) else f"{r['upper']:.4g}"
        lines.append(f"| {p['sampler']} | {p['sigma']} | {p['epochs']} | {p['steps_per_epoch']} | "
                     f"[{r['lower']:.4g}, {up}] | " + " | ".join(cells) + " |")
    lines += ["", "Below the certified lower bound: " + ", ".join(f"{p} {below[p]}/{len(runs)}" for p in peers) + "."]
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
            "unsound": sum(r["status"] == "unsound" for r in rs),
            "material": sum(
                r["status"] == "unsound" and float(r.get("shortfall") or 0) > 1e-9 for r in rs
            ),
            "failures": sum(r["status"] == "failure" for r in rs),
            "inside": sum(r["status"] == "inside" for r in rs),
            "median_rel_error": _median(errs),
            "max_rel_error": max(errs) if errs else None,
            "min_rel_error": min(errs) if errs else None,
            "median_seconds": _median([r["seconds"] for r in rs]),
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
            "unsound": sum(r["status"] == "unsound" for r in rs),
            "material": sum(
                r["status"] == "unsound" and float(r.get("shortfall") or 0) > 1e-9 for r in rs
            ),
            "failures": sum(r["status"] == "failure" for r in rs),
            "inside": sum(r["status"] == "inside" for r in rs),
            "median_rel_error": _median(errs),
            "median_seconds": _median([r["seconds"] for r in rs]),
            "total_seconds": sum(r["seconds"] for r in rs),
        })
    return out


def _g(x: Optional[float], fmt: str = ".2e") -> str:
    return "—" if x is None else format(x, fmt)


def summary_markdown(results: Dict[str, Any]) -> str:
    lines = [
        "# Peer-accountant benchmark",
        "",
        f"{results['entries']} reference entries; timeout {results['timeout']:g} s per run; "
        f"created {results['created']}.",
        "",
        "Classification against shiftdp's certified interval [lower, upper] of an upper-bound "
        "quantity: **unsound** = value < lower (provably below the truth); **failure** = "
        "exception, NaN or inf; rel. error = (value − upper)/upper (negative only inside the "
        "interval or when unsound); \"of which > 1e-9 below\" counts the unsound answers more "
        "than 1e-9 relative below the certified lower end (the rest are f64 rounding-level).",
        "",
        "## Peers",
        "",
        "| peer | version | runs | unsound | of which > 1e-9 below | failures | inside | median rel. error | median time (s) | status |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for t in peer_totals(results):
        status = "ran" if t["available"] else f"skipped: {t['skipped_reason']}"
        lines.append(
            f"| {t['peer']} | {t['version'] or '—'} | {t['n']} | {t['unsound']} | {t['material']} | {t['failures']} | "
            f"{t['inside']} | {_g(t['median_rel_error'])} | {_g(t['median_seconds'], '.3f')} | {status} |"
        )
    lines += [
        "",
        "## Per peer and region (family · δ band · T band)",
        "",
        "| peer | region | n | unsound | failures | inside | median rel. err | max rel. err | median time (s) |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in summarize(results):
        lines.append(
            f"| {r['peer']} | {r['region']} | {r['n']} | {r['unsound']} | {r['failures']} | {r['inside']} | "
            f"{_g(r['median_rel_error'])} | {_g(r['max_rel_error'])} | {_g(r['median_seconds'], '.3f')} |"
        )
    lines += sampler_table(results)
    own = results.get("shiftdp", {})
    rows = own.get("rows", [])
    lines += ["", "## shiftdp on the same work", ""]
    if rows:
        ok = [r for r in rows if r.get("error") is None]
        lines.append(
            f"shiftdp {own.get('version')}: {len(ok)}/{len(rows)} sampled entries recomputed; "
            f"median time {_g(_median([r['seconds'] for r in ok]), '.3f')} s, max "
            f"{_g(max((r['seconds'] for r in ok), default=None), '.3f')} s; median relative width "
            f"{_g(_median([r['rel_width'] for r in ok]))}; recomputed interval overlaps the reference: "
            f"{sum(bool(r.get('overlaps_reference')) for r in ok)}/{len(ok)}. Reference suite relative "
            f"width: median {_g(own.get('reference_rel_width_median'))}, max "
            f"{_g(own.get('reference_rel_width_max'))}."
        )
        lines += ["", "| region | n | median time (s) | median rel. width |", "|---|---:|---:|---:|"]
        by: Dict[str, List[Dict[str, Any]]] = defaultdict(list)
        for r in ok:
            by[r["region"]].append(r)
        for reg, rs in sorted(by.items()):
            lines.append(f"| {reg} | {len(rs)} | {_g(_median([r['seconds'] for r in rs]), '.3f')} | "
                         f"{_g(_median([r['rel_width'] for r in rs]))} |")
        bad = [r for r in rows if r.get("error")]
        for r in bad:
            lines.append(f"\n* shiftdp refused {r['entry']}: {r['error']}")
    else:
        lines.append("not run (`--shiftdp-sample 0`) or no recomputable entries.")
    uns = [r for r in _own_quantity(results) if r["status"] == "unsound"]
    lines += ["", f"## Unsound answers ({len(uns)})", ""]
    if uns:
        lines += ["| peer | entry | query | value | certified [lower, upper] |", "|---|---|---|---:|---|"]
        for r in uns:
            lines.append(f"| {r['peer']} | {r['entry']} | {_q(r['query'])} | {r['value']!r} | "
                         f"[{r['lower']!r}, {r['upper']!r}] |")
    lines.append("")
    return "\n".join(lines)


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
            uns = [(r[xkey], r["rel_error"]) for r in rs if r["peer"] == p and r["status"] == "unsound"
                   and r[xkey] is not None]
            if pts:
                ax.scatter([x for x, _ in pts], [y for _, y in pts], s=18, color=colour[p], label=p, alpha=0.8)
            if fails:
                ax.scatter(fails, [10.0] * len(fails), marker="x", s=30, color=colour[p])
            if uns:
                ax.scatter([x for x, _ in uns], [y for _, y in uns], marker="o", s=80, facecolors="none",
                           edgecolors="red", linewidths=1.5)
        ax.set_yscale("symlog", linthresh=1e-12)
        if xlog:
            ax.set_xscale("log")
        ax.axhline(0, color="black", lw=0.8)
        ax.axhline(10.0, color="grey", lw=0.5, ls=":")
        ax.set_xlabel(xlabel)
        ax.set_ylabel("(value − certified upper) / upper  [symlog]")
        ax.set_title(title + "  (× at 10 = failure; red ring = unsound)")
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
            t = html.escape(ln).replace("**unsound**", "<b>unsound</b>").replace("**failure**", "<b>failure</b>")
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
th{{background:#f0f0f0}}tr.bad td{{background:#fde2e2}}figure{{margin:0.5em 0}}img{{max-width:100%}}</style></head>
<body>{_md_table_to_html(md.split('## Per peer and region')[0])}
<h2>Plots</h2>{figs}
{_md_table_to_html('## Per peer and region' + md.split('## Per peer and region', 1)[1])}
</body></html>"""
    with open(paths["html"], "w") as f:
        f.write(page)
    return paths
