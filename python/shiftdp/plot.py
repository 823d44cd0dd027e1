"""Curves for notebooks: certified ε against the number of steps, and certified
tradeoff curves, as numpy arrays — and one-call matplotlib plots of them.

The array functions need numpy only; the ``plot_*`` functions also need matplotlib
(imported when called, with an install hint if missing) and return the ``Axes``.

* :func:`epsilon_vs_steps` — certified enclosures of ε(δ) after k steps of one
  mechanism, for each k asked (:func:`shiftdp.compose` per point);
* :func:`tradeoff_curve` — a certified *lower* bound on the tradeoff function of a
  composition (the piecewise-linear curve of ``Composed::curve``);
* :func:`plot_epsilon_vs_steps`, :func:`plot_tradeoff` — the same, drawn.
"""

from __future__ import annotations

import dataclasses
import numbers
from typing import Any, Dict, Iterable, List, Optional, Sequence, Union

from . import _check, _core
from ._types import Component, Gaussian, PoissonGaussian, SubsampledGaussian

__all__ = [
    "EpsilonCurve",
    "TradeoffCurve",
    "epsilon_vs_steps",
    "tradeoff_curve",
    "plot_epsilon_vs_steps",
    "plot_tradeoff",
]


@dataclasses.dataclass(frozen=True, eq=False)
class EpsilonCurve:
    """ε(δ) against steps: ``steps`` (int array, increasing), ``upper`` (certified upper
    bounds, non-decreasing), ``lower`` (certified lower bounds), at ``delta``."""

    steps: Any
    upper: Any
    lower: Any
    delta: float
    mechanism: str

    def __iter__(self):  # type: ignore[no-untyped-def]
        # steps, upper = epsilon_vs_steps(...) style unpacking of the two main arrays
        return iter((self.steps, self.upper))

    def __repr__(self) -> str:
        return (
            f"EpsilonCurve({self.mechanism}, δ = {self.delta}: {len(self.steps)} points, "
            f"ε ≤ {self.upper[-1]:.6g} at {self.steps[-1]} steps)"
        )

    def _repr_html_(self) -> str:
        rows = "".join(
            f"<tr><td>{k}</td><td>{u!r}</td><td>{lo!r}</td></tr>"
            for k, u, lo in zip(self.steps.tolist(), self.upper.tolist(), self.lower.tolist())
        )
        return (
            f"<p>{_esc(self.mechanism)}: certified ε(δ = {self.delta})</p>"
            "<table><tr><th>steps</th><th>ε ≤</th><th>ε ≥</th></tr>" + rows + "</table>"
        )


@dataclasses.dataclass(frozen=True, eq=False)
class TradeoffCurve:
    """A piecewise-linear tradeoff function given by its vertices ``alpha``, ``beta``
    (numpy arrays), lying **below** the true tradeoff function of ``composition`` (a
    certified lower bound: type II error ≥ ``beta`` at type I error ``alpha``).
    ``orders`` is 2 when the composition is asymmetric (Poisson): the curve is then
    that of the first order (the remove direction; the add direction is its inverse)."""

    alpha: Any
    beta: Any
    composition: str
    orders: int

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter((self.alpha, self.beta))

    def __repr__(self) -> str:
        return f"TradeoffCurve({self.composition}: {len(self.alpha)} vertices, below the truth)"


def _esc(s: str) -> str:
    import html

    return html.escape(s)


def _per_step(component: Component) -> Union[Gaussian, SubsampledGaussian, PoissonGaussian]:
    if not isinstance(component, (Gaussian, SubsampledGaussian, PoissonGaussian)):
        raise TypeError(
            f"component: expected Gaussian, SubsampledGaussian or PoissonGaussian, got {type(component).__name__}"
        )
    return component


def epsilon_vs_steps(
    component: Component,
    steps: Iterable[int],
    *,
    delta: float,
    tolerance: float = _core.DEFAULT_TOLERANCE,
) -> EpsilonCurve:
    """Certified ε(δ) after k repetitions of one step, for each k in ``steps``.

    ``component`` is one step (its ``count`` is ignored): :class:`shiftdp.Gaussian`,
    :class:`shiftdp.SubsampledGaussian` or :class:`shiftdp.PoissonGaussian`. Each point is
    :func:`shiftdp.compose` of ``component^{⊗k}`` at ``delta`` (an enclosure
    ``[lower_k, upper_k]`` of the exact ε_k). Since ε_k is non-decreasing in k (composing
    one more step never helps privacy), the returned ends are tightened to monotone
    certified bounds: ``upper[i] = min_{j ≥ i} upper_j`` (ε_i ≤ ε_j ≤ upper_j) and
    ``lower[i] = max_{j ≤ i} lower_j``.

    Returns an :class:`EpsilonCurve` (numpy arrays; ``steps, eps = epsilon_vs_steps(…)``
    unpacks steps and upper bounds). Raises :class:`shiftdp.ParameterError` for a step
    count < 1, δ ∉ (0, 1) or NaN, and what :func:`shiftdp.compose` raises.
    """
    import numpy as np

    from . import compose

    comp = _per_step(component)
    ks: List[int] = []
    for k in steps:
        if isinstance(k, bool) or not isinstance(k, numbers.Integral):
            raise TypeError(f"steps: expected ints, got {type(k).__name__}")
        if k < 1:
            raise _check.parameter_error("steps", k, "every step count must be ≥ 1")
        ks.append(int(k))
    if not ks:
        raise _check.parameter_error("steps", "[]", "give at least one step count")
    ks = sorted(set(ks))
    d = _check.delta(delta)
    up, lo = [], []
    name = ""
    for k in ks:
        r = compose([comp.with_count(k)], delta=d, tolerance=tolerance)
        up.append(r.upper)
        lo.append(r.lower)
        name = r.composition
    upper = np.minimum.accumulate(np.asarray(up, dtype=float)[::-1])[::-1]
    lower = np.maximum.accumulate(np.asarray(lo, dtype=float))
    base = name.rsplit("^⊗", 1)[0] if name else repr(comp)
    return EpsilonCurve(
        steps=np.asarray(ks, dtype=np.int64), upper=upper, lower=lower, delta=d, mechanism=base
    )


def tradeoff_curve(
    components: Sequence[Component],
    *,
    delta: float = 1e-8,
    points: int = 200,
) -> TradeoffCurve:
    """A certified lower bound on the tradeoff function of ``⊗ components``.

    The composition is computed as in :func:`shiftdp.compose` (grid tuned for ε(δ) near
    ``delta``, which sets how far into the tail the curve is resolved) and the curve is
    the upper envelope of the ``points`` lines ``α ↦ 1 − δ_up(ε) − e^ε α`` over a grid
    of ε (DRS22 Prop 2.12: ``f(α) = sup_ε 1 − δ(ε) − e^ε α``), each line using the
    certified upper δ, vertices rounded down — so ``beta`` is below the true curve.

    Returns a :class:`TradeoffCurve` (``alpha, beta = tradeoff_curve(…)``).
    """
    import numpy as np

    comps = [_per_step(c) for c in components]
    names = [repr(c) for c in comps]
    if isinstance(points, bool) or not isinstance(points, int) or points < 2:
        raise _check.parameter_error("points", points, "need an int ≥ 2")
    verts, orders = _core.compose_curve(comps, _check.delta(delta), points)
    v = np.asarray(verts, dtype=float).reshape(-1, 2)
    return TradeoffCurve(alpha=v[:, 0], beta=v[:, 1], composition=" ⊗ ".join(names), orders=orders)


def _pyplot() -> Any:
    try:
        import matplotlib.pyplot as plt
    except ImportError as e:  # pragma: no cover - exercised only without matplotlib
        raise ImportError("shiftdp.plot needs matplotlib for drawing: pip install matplotlib") from e
    return plt


def _num(x: float) -> str:
    """``x`` with at most 4 significant digits, no trailing zeros, exponents without
    padding (``0.04``, ``1.5``, ``1e-5``, ``2.5e+6`` → ``2.5e6``)."""
    if x == 0 or x != x or x in (float("inf"), float("-inf")):
        return "0" if x == 0 else str(x)
    s = f"{x:.4g}"
    if "e" in s:
        m, e = s.split("e")
        return f"{m}e{int(e)}"
    return s


def _describe(component: Component, with_count: bool = True) -> str:
    """One step (and its count T) in the reader's terms: sampling probability q, noise
    multiplier σ (as given, else s/μ with the component's sensitivity s: 2 for the
    replace-one C_p, 1 otherwise), steps T."""
    c = _per_step(component)
    given = getattr(component, "noise_multiplier", None)
    s = 2.0 if isinstance(c, SubsampledGaussian) else 1.0
    sigma = f"σ = {_num(given if given is not None else s / c.mu)}" if c.mu > 0 else "σ = ∞"
    if isinstance(c, PoissonGaussian):
        text = f"Poisson q = {_num(c.p)}, {sigma}"
    elif isinstance(c, SubsampledGaussian):
        text = f"subsampled q = {_num(c.p)}, {sigma}"
    else:
        text = f"Gaussian {sigma}"
    if with_count and c.count != 1:
        text += f", T = {c.count}"
    return text


# Artists of the reference line and the legend proxy are found again by these ids, so
# that each is drawn once per axes however many curves are overlaid.
_IDENTITY_GID = "shiftdp-identity"
_BAND_LABEL = "shaded: exact ε between certified lower and upper bounds"


def _legend(ax: Any) -> None:
    """A compact legend of ``ax``: each label once (the first artist with it), placed
    where it covers the fewest data points."""
    handles, labels = ax.get_legend_handles_labels()
    seen: Dict[str, Any] = {}
    for h, lab in zip(handles, labels):
        seen.setdefault(lab, h)
    ax.legend(
        list(seen.values()),
        list(seen.keys()),
        fontsize="small",
        loc="best",
        framealpha=0.9,
        handlelength=2.0,
    )


def plot_epsilon_vs_steps(
    component: Component,
    steps: Iterable[int],
    *,
    delta: float,
    ax: Any = None,
    label: Optional[str] = None,
    log_y: bool = False,
    **kwargs: Any,
) -> Any:
    """Draws :func:`epsilon_vs_steps` on ``ax`` (a new figure if None) and returns the
    ``Axes``: the certified upper bounds ε as a line through the computed points (each a
    certified upper bound at its T), the enclosure down to the certified lower bounds as a
    shaded band. The default label names the step in the reader's terms, e.g.
    ``Poisson q = 0.04, σ = 1.5, δ = 1e-5 — certified ε``. ``log_y`` makes the ε axis
    logarithmic (for ε spanning decades). Further calls on the same ``ax`` add curves;
    the legend lists each label once. ``kwargs`` go to :func:`epsilon_vs_steps`."""
    plt = _pyplot()
    c = epsilon_vs_steps(component, steps, delta=delta, **kwargs)
    if ax is None:
        _, ax = plt.subplots()
    name = label or f"{_describe(component, with_count=False)}, δ = {_num(c.delta)} — certified ε"
    (line,) = ax.plot(c.steps, c.upper, label=name)
    # one legend entry for the bands of every curve on the axes
    first_band = not any(c.get_label() == _BAND_LABEL for c in ax.collections)
    ax.fill_between(
        c.steps,
        c.lower,
        c.upper,
        color=line.get_color(),
        alpha=0.2,
        linewidth=0,
        label=_BAND_LABEL if first_band else "_nolegend_",
    )
    ax.set_xlabel("steps T")
    ax.set_ylabel("ε (certified)")
    if log_y:
        ax.set_yscale("log")
    _legend(ax)
    return ax


def plot_tradeoff(
    components: Sequence[Component],
    *,
    ax: Any = None,
    label: Optional[str] = None,
    **kwargs: Any,
) -> Any:
    """Draws :func:`tradeoff_curve` (type II against type I error: a certified lower
    bound on the tradeoff function, the envelope of its tangent lines, so every segment
    lies below the truth) on ``ax`` (a new figure if None) and returns the ``Axes``. The
    line of perfect privacy ``1 − α`` is drawn once per axes; the default label names the
    composition in the reader's terms (q, σ, T); further calls on the same ``ax`` add
    their curve and legend entry and the title becomes plural. ``kwargs`` go to
    :func:`tradeoff_curve`."""
    plt = _pyplot()
    t = tradeoff_curve(components, **kwargs)
    if ax is None:
        _, ax = plt.subplots()
    if not any(ln.get_gid() == _IDENTITY_GID for ln in ax.get_lines()):
        ax.plot([0, 1], [1, 0], color="0.6", linestyle=":", label="perfect privacy (Id)", gid=_IDENTITY_GID)
    name = label or " ⊗ ".join(_describe(c) for c in components)
    if t.orders == 2 and label is None:
        name += " (remove direction)"
    ax.plot(t.alpha, t.beta, label=name)
    curves = sum(1 for ln in ax.get_lines() if ln.get_gid() != _IDENTITY_GID)
    ax.set_title(
        "Certified tradeoff curve (lower bound)" if curves == 1 else "Certified tradeoff curves (lower bounds)",
        fontsize="medium",
    )
    ax.set_xlabel("type I error α")
    ax.set_ylabel("type II error β")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.set_aspect("equal")
    _legend(ax)
    return ax
