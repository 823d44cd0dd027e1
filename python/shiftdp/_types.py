"""Typed, picklable result objects and components of shiftdp. :class:`Interval`,
:class:`Grid`, :class:`Composed`, :class:`Analysis`, :class:`Entry`,
:class:`CompositionCheck` and the components (:class:`Gaussian`, …) are the compiled
core's classes (``shiftdp._core``); the others are Python dataclasses built from the
core's tuples.

Soundness convention: for ε, δ and μ the *upper* end of an :class:`Interval` is the
certified bound; the lower end is a certified lower bound on the true value. No
midpoint is ever reported.
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Union

from . import _core
from ._core import (
    Analysis,
    ApproxDp,
    Composed,
    CompositionCheck,
    DiscreteLaplace,
    Entry,
    Gaussian,
    Grid,
    Interval,
    Laplace,
    MixtureOfGaussians,
    PoissonGaussian,
    PoissonLaplace,
    PoissonMixtureOfGaussians,
    RandomizedResponse,
    SubsampledGaussian,
    TruncatedSubsampledGaussian,
)

__all__ = [
    "Interval",
    "Entry",
    "Analysis",
    "CompositionCheck",
    "Composed",
    "Gaussian",
    "SubsampledGaussian",
    "PoissonGaussian",
    "Laplace",
    "PoissonLaplace",
    "DiscreteLaplace",
    "RandomizedResponse",
    "MixtureOfGaussians",
    "PoissonMixtureOfGaussians",
    "ApproxDp",
    "TruncatedSubsampledGaussian",
    "Component",
    "Counterexample",
    "Obligation",
    "ClaimCheck",
    "Schedule",
]


readable = _core.readable
"""``readable(text, up, digits=6)``: a decimal string rounded to ``digits`` significant
digits in the safe direction (``up``: towards +∞, for an upper end; otherwise towards
−∞), exactly, from the decimal text: the rounded value is ≥ (resp. ≤) the exact one.
Zero, ``inf`` and ``nan`` pass through."""


mu_up = _core.mu_up
"""``mu_up(σ, sensitivity=1.0)``: ``μ = sensitivity/σ`` of a noise multiplier σ > 0,
rounded up to a double (a larger μ is less private): the library's ``div_up_f64``, the
one rounding every surface uses."""

p_up = _core.p_up
"""``p_up(m, n)``: ``p = m/n`` (``0 ≤ m ≤ n < 2⁵³``) rounded up to a double, never above 1
(``C_p(f)`` decreases in p, so a larger p is the safe side)."""


Component = Union[
    TruncatedSubsampledGaussian,
    Gaussian,
    SubsampledGaussian,
    PoissonGaussian,
    Laplace,
    PoissonLaplace,
    DiscreteLaplace,
    RandomizedResponse,
    MixtureOfGaussians,
    PoissonMixtureOfGaussians,
    ApproxDp,
]
"""A component of :func:`shiftdp.compose`."""


@dataclass(frozen=True)
class Calibration:
    """The smallest noise multiplier σ whose **certified** ε(δ) meets a target
    (``shiftdp calibrate``): ``sigma`` was evaluated and certifies ``epsilon`` ≤ target (a
    larger σ is at least as private); at ``sigma_below`` (within the search resolution)
    the target could not be certified (``epsilon_below`` is its certified ε, or None).
    ``source`` names the accountant or result that certifies it; ``tolerance`` is the
    composition engine's width goal at which ``sigma`` is certified, when the engine was
    used (``compose(..., tolerance=...)`` at ``sigma`` reproduces ``epsilon``)."""

    sigma: float
    epsilon: float
    source: str
    sigma_below: float
    epsilon_below: Optional[float]
    evaluations: int
    tolerance: Optional[float] = None

    def __float__(self) -> float:
        return self.sigma

    def _repr_html_(self) -> str:
        below = "not certified" if self.epsilon_below is None else f"ε ≤ {self.epsilon_below:.6g}"
        return (
            f"<b>σ ≥ {self.sigma:.6g}</b> certifies ε ≤ {self.epsilon:.6g} "
            f"({html.escape(self.source)}); σ = {self.sigma_below:.6g} gives {below}"
        )


@dataclass(frozen=True)
class Counterexample:
    """A parameter point where a check failed, and what failed there."""

    params: Dict[str, str]
    detail: str


@dataclass(frozen=True)
class Obligation:
    """One obligation of a claim check (soundness against exact instances, or the
    comparison with the certified optimum of the shift analysis)."""

    label: str
    kind: str
    status: str
    summary: str
    points: int
    min_margin: Optional[float]
    counterexample: Optional[Counterexample]


@dataclass(frozen=True)
class ClaimCheck:
    """The verdict of :func:`shiftdp.check_claim`: ``status`` is the worst obligation's
    (``"pass"``, ``"fail"`` or ``"error"``); ``counterexample`` the first failing point."""

    claim: str
    family: str
    status: str
    obligations: List[Obligation]

    @property
    def passed(self) -> bool:
        return self.status == "pass"

    @property
    def counterexample(self) -> Optional[Counterexample]:
        for o in self.obligations:
            if o.counterexample is not None:
                return o.counterexample
        return None

    def __bool__(self) -> bool:
        return self.passed

    def _repr_html_(self) -> str:
        rows = []
        for o in self.obligations:
            cx = ""
            if o.counterexample is not None:
                ps = " ".join(f"{k}={v}" for k, v in o.counterexample.params.items())
                cx = f"<br><small>counterexample: {html.escape(ps)}: {html.escape(o.counterexample.detail)}</small>"
            rows.append(
                f"<tr><td>{html.escape(o.status)}</td><td>{html.escape(o.label)}</td>"
                f"<td>{html.escape(o.summary)}{cx}</td></tr>"
            )
        return (
            f"<p>claim <code>{html.escape(self.claim)}</code> over {html.escape(self.family)}: "
            f"<b>{html.escape(self.status)}</b></p><table><tr><th>status</th><th>obligation</th>"
            "<th>summary</th></tr>" + "".join(rows) + "</table>"
        )

    def __repr__(self) -> str:
        lines = [f"ClaimCheck({self.claim!r} over {self.family}: {self.status})"]
        for o in self.obligations:
            lines.append(f"  [{o.status}] {o.label}: {o.summary}")
            if o.counterexample is not None:
                ps = " ".join(f"{k}={v}" for k, v in o.counterexample.params.items())
                lines.append(f"    counterexample: {ps}: {o.counterexample.detail}")
        return "\n".join(lines)


@dataclass(frozen=True, eq=False)
class Schedule:
    """A certified shift schedule (docs/conventions.md §4, BSA24 Thm 3.3): start time
    ``tau``, the shifts a_{τ+1}, …, a_t actually certified, upper bounds on the gaps
    z_{τ+1}, …, z_t, and ``mu`` — the certified upper bound on μ (``mu_decimal`` rounded
    up). ``mu_estimate`` is the f64 KKT optimum (an estimate, not a bound); ``profile`` the
    (τ, μ) estimates of the τ search. Arrays are numpy arrays."""

    tau: int
    mu: float
    mu_decimal: str
    mu_estimate: float
    shifts: Any
    gaps: Any
    profile: Any

    def __repr__(self) -> str:
        return f"Schedule(tau={self.tau}, mu ≤ {readable(self.mu_decimal, up=True)}, steps={len(self.shifts)})"

    def _repr_html_(self) -> str:
        return (
            f"<p>shift schedule: τ = {self.tau}, <b>μ ≤ {html.escape(readable(self.mu_decimal, up=True))}</b> "
            f"<small>(certified; KKT estimate {self.mu_estimate:.6g}), {len(self.shifts)} shifts</small></p>"
        )
