"""Typed, picklable result objects and components of shiftdp. :class:`Interval`,
:class:`Grid`, :class:`Composed`, :class:`Analysis`, :class:`Entry`,
:class:`CompositionCheck`, :class:`Calibration`, :class:`ClaimCheck` (with its
:class:`Obligation` and :class:`Counterexample`) and the components (:class:`Gaussian`,
…) are the compiled core's classes (``shiftdp._core``); :class:`Schedule` is a Python
dataclass holding numpy arrays.

Soundness convention: for ε, δ and μ the *upper* end of an :class:`Interval` is the
certified bound; the lower end is a certified lower bound on the true value. No
midpoint is ever reported.
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from typing import Any, Union

from . import _core
from ._core import (
    Analysis,
    ApproxDp,
    Calibration,
    ClaimCheck,
    Composed,
    CompositionCheck,
    Counterexample,
    DiscreteLaplace,
    Entry,
    Gaussian,
    Grid,
    Interval,
    Laplace,
    MixtureOfGaussians,
    Obligation,
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
    "Calibration",
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
