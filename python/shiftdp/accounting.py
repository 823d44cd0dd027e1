"""A certified accountant for Google's ``dp_accounting``.

:class:`CertifiedPLDAccountant` implements ``dp_accounting.PrivacyAccountant``
(``supports``, ``compose``, ``_maybe_compose`` — with ``_compose`` as an alias —,
``get_epsilon``, ``get_delta``) over ``DpEvent`` objects, and answers with the upper
end of shiftdp's certified composition interval (:func:`shiftdp.compose`): a number
that is provably ≥ the exact ε(δ) (or δ(ε)), including the discretization and FFT
round-off — unlike a PLD estimate, which is pessimistic only up to its discretization
and returns ``inf`` where its grid cannot reach δ (e.g. δ = 1e-20).

Supported events
----------------
* ``GaussianDpEvent(σ)`` — ``G(1/σ)`` under ADD_OR_REMOVE_ONE and REPLACE_SPECIAL, and
  ``G(2/σ)`` under REPLACE_ONE: dp_accounting's noise multiplier is relative to the
  add/remove sensitivity, and replacing a record moves the sum by up to twice it (its own
  PLD accountant uses the same convention; the test suite checks the two agree).
  ``σ = 0`` is non-private (ε = ∞).
* ``PoissonSampledDpEvent(q, GaussianDpEvent(σ))`` — the Poisson-subsampled Gaussian
  under **ADD_OR_REMOVE_ONE** only (shiftdp's Poisson add/remove component: both
  directions of the pair composed, the larger δ reported). Under REPLACE_ONE or
  REPLACE_SPECIAL it is refused (``supports`` is False; ``compose`` raises
  ``UnsupportedEventError``) with a message saying so: shiftdp has no certified
  component for that pair yet.
* ``SampledWithoutReplacementDpEvent(n, m, GaussianDpEvent(σ))`` — a uniformly random
  sample of exactly m of n records — under **REPLACE_ONE** only: ``C_p(G(2/σ))`` with
  ``p = m/n``, the subsampling operator of Dong–Roth–Su (DRS22 Thm 9; BSA24 Def 4.7 and
  Thm 4.8 with gradient sensitivity L = 2C), symmetrized so one order suffices. μ = 2/σ
  as for the Gaussian under REPLACE_ONE: ``GaussianDpEvent``'s noise multiplier is s/C for
  values of norm ≤ C, and replacing a record moves the sum by up to 2C. dp_accounting's
  own ``RdpAccountant`` reads the same event with μ = 1/σ (its Gaussian RDP α/(2σ²)), i.e.
  with σ relative to the replace-one sensitivity — a factor 2 below this reading
  (google/differential-privacy issue #378); its ``PLDAccountant`` does not support the
  event. The test suite checks: m = n gives the Gaussian under REPLACE_ONE (as the
  PLDAccountant), the ``RdpAccountant`` at σ/2 (the same reading) is above our certified
  interval, and dp_accounting's Poisson REPLACE_ONE PLD (a pair of the same mixture form
  ``p A + (1 − p) R`` against ``p A′ + (1 − p) R``, more private because its R is the
  mechanism without the record) is below it.
  Under ADD_OR_REMOVE_ONE or REPLACE_SPECIAL it is refused (as dp_accounting does): a
  fixed-size sample needs a public n.
* ``SelfComposedDpEvent``, ``ComposedDpEvent`` (recursively), ``NoOpDpEvent``,
  ``NonPrivateDpEvent`` (ε = ∞, δ = 1).

Everything else (``PoissonSampledDpEvent`` under REPLACE_ONE, Laplace, randomized
response, …) is refused with the reason. Poisson under REPLACE_ONE stays refused: the
library has no certified component for that pair (``C_p(G(2/σ))`` would bound it only by
a mixture argument not yet checked here, and would be far from tight).

μ = 1/σ is rounded up to the next double (``math.nextafter``), so the component used
is never less private than the event.

dp_accounting is imported lazily: importing :mod:`shiftdp` never needs it, and this
module raises ``ImportError`` with an install hint only when the class is used.

Opacus
------
:class:`CertifiedAccountant` has Opacus's accountant interface (``step``,
``get_epsilon``, ``history``, ``mechanism``, ``state_dict``, …) and certified answers
for Poisson-subsampled Gaussian histories (add-or-remove adjacency); it subclasses
Opacus's ``IAccountant`` and is registered as ``"shiftdp"`` when Opacus is importable,
and is a plain class otherwise (no torch needed). See :mod:`shiftdp._opacus`.
"""

from __future__ import annotations

import math
import numbers
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Dict, Optional, Tuple

from ._core import DEFAULT_TOLERANCE
from ._types import Composed, Gaussian, Interval, PoissonGaussian, SubsampledGaussian

__all__ = ["CertifiedPLDAccountant", "CertifiedAccountant"]

if TYPE_CHECKING:  # pragma: no cover
    from dp_accounting import dp_event as _dp_event  # noqa: F401


def _dp() -> Any:
    try:
        import dp_accounting
    except ImportError as e:  # pragma: no cover - exercised only without dp_accounting
        raise ImportError(
            "shiftdp.accounting needs dp_accounting: pip install dp-accounting "
            "(or pip install 'shiftdp[accounting]')"
        ) from e
    return dp_accounting


def _mu_up(noise_multiplier: float, sensitivity: float = 1.0) -> float:
    """sensitivity/σ rounded up to the next double (the true ratio is ≤ it; sensitivity
    is 1 or 2, so the quotient is correctly rounded before the step up)."""
    return math.nextafter(sensitivity / noise_multiplier, math.inf)


def _p_up(m: int, n: int) -> float:
    """p = m/n as a double at or above the exact ratio (C_p(f) decreases in p, so a
    larger p is the safe side), never above 1."""
    p = m / n
    if Fraction(p) < Fraction(m, n):
        p = math.nextafter(p, math.inf)
    return min(p, 1.0)


def _accountant_class() -> type:
    dp_accounting = _dp()
    PrivacyAccountant = dp_accounting.PrivacyAccountant
    NeighboringRelation = dp_accounting.NeighboringRelation
    dp_event = dp_accounting.dp_event

    class CertifiedPLDAccountant(PrivacyAccountant):  # type: ignore[misc, valid-type]
        """dp_accounting ``PrivacyAccountant`` with certified answers from shiftdp.

        ``get_epsilon(δ)`` / ``get_delta(ε)`` return the *upper* end of a certified
        interval (a float); ``get_epsilon_interval`` / ``get_delta_interval`` return the
        whole :class:`shiftdp.Interval`. ``tolerance`` is the target width of the
        interval (absolute for ε, relative for δ; the grid is refined up to three
        times to reach it).
        """

        def __init__(
            self,
            neighboring_relation: Any = NeighboringRelation.ADD_OR_REMOVE_ONE,
            tolerance: float = DEFAULT_TOLERANCE,
        ) -> None:
            if neighboring_relation not in (
                NeighboringRelation.ADD_OR_REMOVE_ONE,
                NeighboringRelation.REPLACE_ONE,
                NeighboringRelation.REPLACE_SPECIAL,
            ):
                raise ValueError(f"unknown neighboring relation {neighboring_relation!r}")
            super().__init__(neighboring_relation)
            self._tolerance = float(tolerance)
            # (kind, p, mu) -> count
            self._parts: Dict[Tuple[str, float, float], int] = {}
            self._non_private = False
            # the ℓ2 distance of the two Gaussians' means in units of the event's
            # sensitivity: replace-one is a removal and an addition
            self._gaussian_sensitivity = 2.0 if neighboring_relation == NeighboringRelation.REPLACE_ONE else 1.0

        # -- composition ---------------------------------------------------------

        def _add(self, key: Tuple[str, float, float], count: int) -> None:
            self._parts[key] = self._parts.get(key, 0) + count

        def _maybe_compose(self, event: Any, count: int, do_compose: bool) -> Optional[Any]:
            Details = PrivacyAccountant.CompositionErrorDetails
            if isinstance(event, dp_event.NoOpDpEvent):
                return None
            if isinstance(event, dp_event.NonPrivateDpEvent):
                if do_compose:
                    self._non_private = True
                return None
            if isinstance(event, dp_event.SelfComposedDpEvent):
                return self._maybe_compose(event.event, event.count * count, do_compose)
            if isinstance(event, dp_event.ComposedDpEvent):
                for e in event.events:
                    r = self._maybe_compose(e, count, do_compose)
                    if r is not None:
                        return r
                return None
            if isinstance(event, dp_event.GaussianDpEvent):
                sigma = float(event.noise_multiplier)
                if not (sigma >= 0 and math.isfinite(sigma)):
                    return Details(event, f"noise_multiplier must be finite and ≥ 0, got {sigma}")
                if do_compose and count > 0:
                    if sigma == 0:
                        self._non_private = True
                    else:
                        self._add(("gaussian", 0.0, _mu_up(sigma, self._gaussian_sensitivity)), count)
                return None
            if isinstance(event, dp_event.PoissonSampledDpEvent):
                if not isinstance(event.event, dp_event.GaussianDpEvent):
                    return Details(
                        event,
                        "shiftdp supports PoissonSampledDpEvent of a GaussianDpEvent only; "
                        f"found {event.event}",
                    )
                if self.neighboring_relation != NeighboringRelation.ADD_OR_REMOVE_ONE:
                    return Details(
                        event,
                        "shiftdp certifies the Poisson-subsampled Gaussian under "
                        "ADD_OR_REMOVE_ONE only (its add/remove component); found "
                        f"{self.neighboring_relation}. Use "
                        "CertifiedPLDAccountant(NeighboringRelation.ADD_OR_REMOVE_ONE).",
                    )
                q = float(event.sampling_probability)
                sigma = float(event.event.noise_multiplier)
                if not (0.0 <= q <= 1.0):
                    return Details(event, f"sampling_probability must be in [0, 1], got {q}")
                if not (sigma >= 0 and math.isfinite(sigma)):
                    return Details(event, f"noise_multiplier must be finite and ≥ 0, got {sigma}")
                if do_compose and count > 0 and q > 0:
                    if sigma == 0:
                        self._non_private = True
                    else:
                        self._add(("poisson", q, _mu_up(sigma)), count)
                return None
            if isinstance(event, dp_event.SampledWithoutReplacementDpEvent):
                return self._maybe_compose_swor(event, count, do_compose)
            return Details(
                event,
                f"shiftdp's certified accountant does not support {type(event).__name__} "
                "(supported: Gaussian, PoissonSampled(Gaussian) under ADD_OR_REMOVE_ONE, "
                "SampledWithoutReplacement(Gaussian) under REPLACE_ONE, "
                "SelfComposed, Composed, NoOp, NonPrivate)",
            )

        def _maybe_compose_swor(self, event: Any, count: int, do_compose: bool) -> Optional[Any]:
            """``SampledWithoutReplacementDpEvent(n, m, GaussianDpEvent(σ))`` under
            REPLACE_ONE: ``C_p(G(2/σ))`` with ``p = m/n`` (rounded up), DRS22 Thm 9 /
            BSA24 Thm 4.8 with gradient sensitivity L = 2C."""
            Details = PrivacyAccountant.CompositionErrorDetails
            if self.neighboring_relation != NeighboringRelation.REPLACE_ONE:
                return Details(
                    event,
                    "SampledWithoutReplacementDpEvent is certified under REPLACE_ONE only "
                    "(a fixed-size sample of a data set of public size n; the subsampling "
                    f"theorem C_p is for replace-one neighbours); found {self.neighboring_relation}. "
                    "Use CertifiedPLDAccountant(NeighboringRelation.REPLACE_ONE).",
                )
            if not isinstance(event.event, dp_event.GaussianDpEvent):
                return Details(
                    event,
                    "shiftdp supports SampledWithoutReplacementDpEvent of a GaussianDpEvent only; "
                    f"found {event.event}",
                )
            n, m = event.source_dataset_size, event.sample_size
            for name, v in (("source_dataset_size", n), ("sample_size", m)):
                if isinstance(v, bool) or not isinstance(v, numbers.Integral) or v < 0:
                    return Details(event, f"{name} must be an integer ≥ 0, got {v!r}")
            if n < 1 or m > n:
                return Details(
                    event,
                    f"sampling probability sample_size / source_dataset_size = {m}/{n} must be in [0, 1] "
                    "(0 ≤ sample_size ≤ source_dataset_size, source_dataset_size ≥ 1)",
                )
            sigma = float(event.event.noise_multiplier)
            if not (sigma >= 0 and math.isfinite(sigma)):
                return Details(event, f"noise_multiplier must be finite and ≥ 0, got {sigma}")
            if do_compose and count > 0 and m > 0:
                if sigma == 0:
                    self._non_private = True
                else:
                    self._add(("subsampled", _p_up(int(m), int(n)), _mu_up(sigma, 2.0)), count)
            return None

        def _compose(self, event: Any, count: int = 1) -> None:
            """Alias of ``_maybe_compose(event, count, True)`` (the older interface);
            raises ``UnsupportedEventError`` for an unsupported event."""
            err = self._maybe_compose(event, count, False)
            if err is not None:
                raise dp_accounting.UnsupportedEventError(
                    f"Unsupported event: {event}. Error: [{err.error_message}]"
                )
            self._maybe_compose(event, count, True)

        # -- queries -------------------------------------------------------------

        def _components(self) -> list:
            out = []
            for (kind, p, mu), k in self._parts.items():
                if kind == "gaussian":
                    out.append(Gaussian(mu, k))
                elif kind == "subsampled":
                    out.append(SubsampledGaussian(p, mu, k))
                else:
                    out.append(PoissonGaussian(p, mu, k))
            return out

        def composed(self, *, delta: Optional[float] = None, epsilon: Optional[float] = None) -> Composed:
            """The full :class:`shiftdp.Composed` result (interval, grid, CLT μ)."""
            from . import compose

            return compose(self._components(), delta=delta, epsilon=epsilon, tolerance=self._tolerance)

        def get_epsilon_interval(self, target_delta: float) -> Interval:
            """Certified enclosure of ε(δ) of everything composed so far."""
            if self._non_private:
                inf = math.inf
                return Interval(inf, inf, "inf", "inf", "non-private event")
            if not self._parts:
                _check_delta(target_delta)
                return Interval(0.0, 0.0, "0", "0", "no event")
            return self.composed(delta=float(target_delta)).interval

        def get_delta_interval(self, target_epsilon: float) -> Interval:
            """Certified enclosure of δ(ε) of everything composed so far."""
            if self._non_private:
                return Interval(1.0, 1.0, "1", "1", "non-private event")
            if not self._parts:
                return Interval(0.0, 0.0, "0", "0", "no event")
            return self.composed(epsilon=float(target_epsilon)).interval

        def get_epsilon(self, target_delta: float) -> float:
            """Certified upper bound on ε(δ) (the upper end of the interval)."""
            return self.get_epsilon_interval(target_delta).upper

        def get_delta(self, target_epsilon: float) -> float:
            """Certified upper bound on δ(ε) (the upper end of the interval)."""
            return self.get_delta_interval(target_epsilon).upper

    CertifiedPLDAccountant.__module__ = __name__
    CertifiedPLDAccountant.__qualname__ = "CertifiedPLDAccountant"
    return CertifiedPLDAccountant


def _check_delta(d: float) -> None:
    from ._core import gdp_epsilon

    # the same validation (and exception class) as every other δ: G(0) at δ
    gdp_epsilon("0", d, None)


_CLASS: Optional[type] = None
_OPACUS_CLASS: Optional[type] = None


def __getattr__(name: str) -> Any:
    # Built on first use, so that `import shiftdp.accounting` works without dp_accounting
    # (and without Opacus / torch).
    global _CLASS, _OPACUS_CLASS
    if name == "CertifiedPLDAccountant":
        if _CLASS is None:
            _CLASS = _accountant_class()
        return _CLASS
    if name == "CertifiedAccountant":
        if _OPACUS_CLASS is None:
            from ._opacus import _build

            _OPACUS_CLASS = _build()
        return _OPACUS_CLASS
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
