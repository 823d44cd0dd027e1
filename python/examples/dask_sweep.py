"""A parameter sweep with dask: certified ε(δ) of DP-SGD (Poisson-subsampled Gaussian,
add-or-remove adjacency) over a grid of noise multipliers σ and sample rates q, each
point a certified composition.

shiftdp's long calls release the interpreter (they run on a worker thread), so dask's
threaded scheduler runs the points in parallel; the distributed scheduler works the same
way (results are plain floats).

    pip install ./python dask
    python python/examples/dask_sweep.py

``sweep`` returns the table as a list of dicts (σ, q, steps, ε upper and lower ends, and
``refused``: the reason when the composition engine could not certify the point).
"""

from __future__ import annotations

from typing import Any, Dict, List, Sequence

import shiftdp


def point(sigma: float, q: float, steps: int, delta: float) -> Dict[str, Any]:
    """Certified ε(δ) of ``steps`` Poisson-subsampled Gaussian steps (μ = 1/σ rounded up,
    as the accountants do). A point the engine cannot certify (``NotCertifiedError``)
    has ``None`` bounds and the reason in ``refused`` — never a number."""
    from shiftdp.accounting import CertifiedAccountant

    acc = CertifiedAccountant()
    acc.history = [(sigma, q, steps)]
    row: Dict[str, Any] = {"sigma": sigma, "q": q, "steps": steps}
    try:
        iv = acc.get_epsilon_interval(delta)
    except shiftdp.NotCertifiedError as e:
        return {**row, "epsilon_upper": None, "epsilon_lower": None, "refused": str(e)}
    return {**row, "epsilon_upper": iv.upper, "epsilon_lower": iv.lower, "refused": None}


def sweep(
    sigmas: Sequence[float],
    rates: Sequence[float],
    *,
    epochs: float = 10,
    delta: float = 1e-5,
    scheduler: str = "threads",
) -> List[Dict[str, Any]]:
    """All (σ, q) points, ``epochs / q`` steps each, computed by dask (``scheduler`` as
    in ``dask.compute``)."""
    import dask

    tasks = [
        dask.delayed(point)(s, q, int(round(epochs / q)), delta) for s in sigmas for q in rates
    ]
    return list(dask.compute(*tasks, scheduler=scheduler))


if __name__ == "__main__":
    rows = sweep([0.8, 1.0, 1.5, 2.0], [0.001, 0.01, 0.04])
    print(f"{'σ':>5} {'q':>6} {'steps':>6}  ε(1e-5) ≤")
    for r in rows:
        eps = "not certified" if r["refused"] else f"{r['epsilon_upper']:.4f}"
        print(f"{r['sigma']:>5} {r['q']:>6} {r['steps']:>6}  {eps}")
    print("shiftdp", shiftdp.__version__)
