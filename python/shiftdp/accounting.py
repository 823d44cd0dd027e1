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

* ``LaplaceDpEvent(b)`` (Laplace(b) at sensitivity 1), ``DiscreteLaplaceDpEvent(a, Δ)``
  and ``MixtureOfGaussiansDpEvent(σ, c, p)`` under ADD_OR_REMOVE_ONE and REPLACE_SPECIAL
  (REPLACE_ONE refused, as dp_accounting: the event does not give the replace-one
  sensitivity); ``PoissonSampledDpEvent`` of a Laplace or mixture event under
  ADD_OR_REMOVE_ONE; ``RandomizedResponseDpEvent(p, k)`` under REPLACE_ONE, every
  repetition counted (dp_accounting's PLD accountant composes it once whatever the
  count); ``TruncatedSubsampledGaussianDpEvent`` under ADD_OR_REMOVE_ONE (dp_accounting's
  dominating pair, evaluated with certified arithmetic); ``EpsilonDeltaDpEvent`` where
  dp_accounting has it.
* ``ZCDpEvent``, ``SingleEpochTreeAggregationDpEvent`` (REPLACE_SPECIAL) and
  ``RepeatAndSelectDpEvent`` of a Gaussian or Laplace: **via RDP** — certified Rényi
  curves composed and converted (``shiftdp.renyi.events`` in the library); a composition
  holding one of them is answered entirely in RDP, and parts without a certified Rényi
  curve are refused.

Everything else (``PoissonSampledDpEvent`` under REPLACE_ONE, sampling with replacement,
…) is refused with the reason. Poisson under REPLACE_ONE stays refused: the
library has no certified component for that pair (``C_p(G(2/σ))`` would bound it only by
a mixture argument not yet checked here, and would be far from tight).

μ = 1/σ is rounded up to a double (the library's ``div_up_f64``, which every surface
uses), so the component used is never less private than the event.

dp_accounting is imported lazily: importing :mod:`shiftdp` never needs it, and this
module raises ``ImportError`` with an install hint only when the class is used.

Opacus
------
:class:`CertifiedAccountant` has Opacus's accountant interface (``step``,
``get_epsilon``, ``history``, ``mechanism``, ``state_dict``, …) and certified answers
for Poisson-subsampled Gaussian histories (add-or-remove adjacency); it subclasses
Opacus's ``IAccountant`` and is registered as ``"shiftdp"`` when Opacus is importable,
and is a plain class otherwise (no torch needed). See :class:`CertifiedAccountant`.
"""

from __future__ import annotations

import dataclasses
import math
import numbers
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Tuple

from ._core import DEFAULT_TOLERANCE
from ._types import Composed, Interval
from ._types import mu_up as _mu_up
from ._types import p_up as _p_up

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


class _Part:
    """A component of the accountant's composition: a kind and parameters of
    :func:`shiftdp.compose` (the layout of the component classes' ``_core``)."""

    __slots__ = ("kind", "params", "count")

    def __init__(self, kind: str, params: Tuple[float, ...], count: int) -> None:
        self.kind, self.params, self.count = kind, params, count

    def _core(self) -> Tuple[str, Tuple[float, ...], int]:
        return (self.kind, self.params, self.count)


def _finite_ge0(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x) and x >= 0


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
            # (kind, parameters) -> count
            self._parts: Dict[Tuple[str, Tuple[float, ...]], int] = {}
            # events answered only through Rényi DP (zCDP, tree aggregation,
            # repeat-and-select): (kind, parameters) -> count
            self._rdp_parts: Dict[Tuple[str, Tuple[float, ...]], int] = {}
            self._non_private = False
            # conventions a reader comparing with another accountant needs to know, said
            # in every answer's ``path``
            self.conventions: List[str] = []
            # the ℓ2 distance of the two Gaussians' means in units of the event's
            # sensitivity: replace-one is a removal and an addition
            self._gaussian_sensitivity = 2.0 if neighboring_relation == NeighboringRelation.REPLACE_ONE else 1.0

        # -- composition ---------------------------------------------------------

        def _add(self, key: Tuple[str, Tuple[float, ...]], count: int) -> None:
            self._parts[key] = self._parts.get(key, 0) + count

        def _add_rdp(self, key: Tuple[str, Tuple[float, ...]], count: int) -> None:
            self._rdp_parts[key] = self._rdp_parts.get(key, 0) + count

        def _mixing_refused(self, event: Any, rdp_only: bool) -> Optional[Any]:
            """Refusal details when the composition would mix an event answered only through
            Rényi DP with one that has no certified Rényi curve here."""
            if rdp_only:
                bad = sorted({k for (k, _) in self._parts if _rdp_of(k, ()) is None})
            else:
                bad = []
            if bad:
                return PrivacyAccountant.CompositionErrorDetails(
                    event,
                    f"{type(event).__name__} is answered through Rényi DP only, and the "
                    f"composition already holds {', '.join(bad)}, which has no certified Rényi "
                    "curve in shiftdp (Gaussian and Laplace do)",
                )
            return None

        def _maybe_rdp_event(self, event: Any, count: int, do_compose: bool) -> Optional[Any]:
            """zCDP, single-epoch tree aggregation and repeat-and-select: certified Rényi
            curves (``shiftdp.renyi.events``), composed in RDP and converted — "via RDP"."""
            Details = PrivacyAccountant.CompositionErrorDetails
            refused = self._mixing_refused(event, True)
            if refused is not None:
                return refused
            if isinstance(event, dp_event.ZCDpEvent):
                rho, xi = event.rho, event.xi
                if not (_finite_ge0(rho) and _finite_ge0(xi)):
                    return Details(event, f"rho and xi must be finite and ≥ 0, got ({rho}, {xi})")
                if do_compose and count > 0 and (rho > 0 or xi > 0):
                    self._add_rdp(("zcdp", (float(rho), float(xi))), count)
                return None
            if isinstance(event, dp_event.SingleEpochTreeAggregationDpEvent):
                if self.neighboring_relation != NeighboringRelation.REPLACE_SPECIAL:
                    return Details(
                        event,
                        "SingleEpochTreeAggregationDpEvent is certified under REPLACE_SPECIAL only "
                        f"(Kairouz et al. 2021, as dp_accounting); found {self.neighboring_relation}.",
                    )
                sigma, steps = event.noise_multiplier, event.step_counts
                steps = [steps] if isinstance(steps, numbers.Integral) else list(steps)
                if not _finite_ge0(sigma) or any(isinstance(k, bool) or not isinstance(k, numbers.Integral) or k < 0 for k in steps) or not steps:
                    return Details(event, "need noise_multiplier ≥ 0 and step_counts integers ≥ 0")
                if do_compose and count > 0 and max(steps) > 0:
                    if sigma == 0:
                        self._non_private = True
                    else:
                        self._add_rdp(("tree_aggregation", (float(sigma), *map(float, steps))), count)
                return None
            # RepeatAndSelectDpEvent
            inner, mean, shape = event.event, event.mean, event.shape
            if not (isinstance(mean, (int, float)) and mean >= 1 and math.isfinite(mean)) or not (
                isinstance(shape, (int, float)) and shape >= 0
            ):
                return Details(event, f"need mean ≥ 1 (finite) and shape ≥ 0, got ({mean}, {shape})")
            if isinstance(inner, dp_event.GaussianDpEvent) and _finite_ge0(inner.noise_multiplier) and inner.noise_multiplier > 0:
                key = ("repeat_and_select_gaussian", (float(mean), float(shape), _mu_up(inner.noise_multiplier, self._gaussian_sensitivity)))
            elif isinstance(inner, dp_event.LaplaceDpEvent) and _finite_ge0(inner.noise_multiplier) and inner.noise_multiplier > 0:
                refused = self._add_or_remove(inner)
                if refused is not None:
                    return refused
                key = ("repeat_and_select_laplace", (float(mean), float(shape), float(inner.noise_multiplier)))
            else:
                return Details(
                    event,
                    "shiftdp certifies RepeatAndSelectDpEvent of a Gaussian or Laplace event "
                    f"(noise > 0) only; found {inner}",
                )
            if do_compose and count > 0:
                self._add_rdp(key, count)
            return None

        def _add_or_remove(self, event: Any) -> Optional[Any]:
            """Refusal details unless the relation is ADD_OR_REMOVE_ONE or REPLACE_SPECIAL
            (the events whose noise is relative to the add/remove sensitivity; under
            REPLACE_ONE the event does not say the replace-one sensitivity, and
            dp_accounting refuses them too)."""
            if self.neighboring_relation == NeighboringRelation.REPLACE_ONE:
                return PrivacyAccountant.CompositionErrorDetails(
                    event,
                    f"{type(event).__name__} is certified under ADD_OR_REMOVE_ONE and "
                    "REPLACE_SPECIAL (its noise is relative to the add/remove sensitivity; "
                    "the event does not give the replace-one sensitivity, so REPLACE_ONE is "
                    "refused, as dp_accounting's PLD accountant does).",
                )
            return None

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
                        self._add(("gaussian", (_mu_up(sigma, self._gaussian_sensitivity),)), count)
                return None
            if isinstance(
                event,
                (dp_event.ZCDpEvent, dp_event.SingleEpochTreeAggregationDpEvent, dp_event.RepeatAndSelectDpEvent),
            ):
                return self._maybe_rdp_event(event, count, do_compose)
            if self._rdp_parts and not isinstance(event, dp_event.GaussianDpEvent):
                # a part that must also have a Rényi curve: checked after it is mapped
                probe = type(self)(self.neighboring_relation, self._tolerance)
                err = probe._maybe_compose(event, max(count, 1), True)
                if err is not None:
                    return err
                bad = sorted({k for (k, _) in probe._parts if _rdp_of(k, ()) is None})
                if bad:
                    return Details(
                        event,
                        f"the composition holds events answered through Rényi DP only, and {type(event).__name__} "
                        f"({', '.join(bad)}) has no certified Rényi curve in shiftdp",
                    )
            if isinstance(event, dp_event.LaplaceDpEvent):
                return self._maybe_compose_laplace(event, None, count, do_compose)
            if isinstance(event, dp_event.DiscreteLaplaceDpEvent):
                refused = self._add_or_remove(event)
                if refused is not None:
                    return refused
                a, sens = event.noise_parameter, event.sensitivity
                if not _finite_ge0(a):
                    return Details(event, f"noise_parameter must be finite and ≥ 0, got {a}")
                if isinstance(sens, bool) or not isinstance(sens, numbers.Integral) or sens < 1:
                    return Details(event, f"sensitivity must be an integer ≥ 1, got {sens!r}")
                if do_compose and count > 0:
                    if a == 0:
                        self._non_private = True
                    else:
                        self._add(("discrete_laplace", (float(a), float(sens))), count)
                return None
            if isinstance(event, dp_event.RandomizedResponseDpEvent):
                if self.neighboring_relation != NeighboringRelation.REPLACE_ONE:
                    return Details(
                        event,
                        "RandomizedResponseDpEvent is certified under REPLACE_ONE (neighbours "
                        "differ in one respondent's value, dp_accounting's symmetric pair); found "
                        f"{self.neighboring_relation}. Use CertifiedPLDAccountant(NeighboringRelation.REPLACE_ONE).",
                    )
                p, k = event.noise_parameter, event.num_buckets
                if not (_finite_ge0(p) and p <= 1):
                    return Details(event, f"noise_parameter must be in [0, 1], got {p}")
                if isinstance(k, bool) or not isinstance(k, numbers.Integral) or int(k) < 1:
                    return Details(event, f"num_buckets must be an integer ≥ 1, got {k!r}")
                k = int(k)
                if do_compose and count > 0 and k > 1:
                    if p == 0:
                        self._non_private = True
                    else:
                        self._add(("randomized_response", (float(p), float(k))), count)
                return None
            if isinstance(event, dp_event.MixtureOfGaussiansDpEvent):
                return self._maybe_compose_mixture(event, None, count, do_compose)
            eps_delta = getattr(dp_event, "EpsilonDeltaDpEvent", None)
            if eps_delta is not None and isinstance(event, eps_delta):
                e, d = event.epsilon, event.delta
                if not (_finite_ge0(e) and _finite_ge0(d) and d <= 1):
                    return Details(event, f"need ε ≥ 0 finite and δ in [0, 1], got ({e}, {d})")
                if do_compose and count > 0:
                    self._add(("approx_dp", (float(e), float(d))), count)
                return None
            if isinstance(event, dp_event.TruncatedSubsampledGaussianDpEvent):
                if self.neighboring_relation != NeighboringRelation.ADD_OR_REMOVE_ONE:
                    return Details(
                        event,
                        "TruncatedSubsampledGaussianDpEvent is certified under ADD_OR_REMOVE_ONE "
                        f"(dp_accounting's add/remove pair); found {self.neighboring_relation}.",
                    )
                n, q, b, sigma = (
                    event.dataset_size,
                    event.sampling_probability,
                    event.truncated_batch_size,
                    event.noise_multiplier,
                )
                for name, v in (("dataset_size", n), ("truncated_batch_size", b)):
                    if isinstance(v, bool) or not isinstance(v, numbers.Integral) or v < 0:
                        return Details(event, f"{name} must be an integer ≥ 0, got {v!r}")
                if not (_finite_ge0(q) and q <= 1):
                    return Details(event, f"sampling_probability must be in [0, 1], got {q}")
                if not _finite_ge0(sigma):
                    return Details(event, f"noise_multiplier must be finite and ≥ 0, got {sigma}")
                if do_compose and count > 0 and q > 0 and b > 0 and n > 0:
                    if sigma == 0:
                        self._non_private = True
                    else:
                        self._add(
                            ("truncated_subsampled_gaussian", (float(n), float(q), float(b), float(sigma))),
                            count,
                        )
                return None
            if isinstance(event, dp_event.PoissonSampledDpEvent):
                if isinstance(event.event, dp_event.LaplaceDpEvent):
                    return self._maybe_compose_laplace(event.event, event, count, do_compose)
                if isinstance(event.event, dp_event.MixtureOfGaussiansDpEvent):
                    return self._maybe_compose_mixture(event.event, event, count, do_compose)
                if not isinstance(event.event, dp_event.GaussianDpEvent):
                    return Details(
                        event,
                        "shiftdp supports PoissonSampledDpEvent of a Gaussian, Laplace or "
                        f"MixtureOfGaussians event only; found {event.event}",
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
                        self._add(("poisson", (q, _mu_up(sigma))), count)
                return None
            if isinstance(event, dp_event.SampledWithoutReplacementDpEvent):
                return self._maybe_compose_swor(event, count, do_compose)
            return Details(
                event,
                f"shiftdp's certified accountant does not support {type(event).__name__} "
                "(supported: Gaussian, Laplace, DiscreteLaplace, MixtureOfGaussians, "
                "TruncatedSubsampledGaussian, ZCDp, SingleEpochTreeAggregation (REPLACE_SPECIAL), "
                "RepeatAndSelect of a Gaussian or Laplace (via RDP), "
                "PoissonSampled(Gaussian, Laplace or MixtureOfGaussians) under ADD_OR_REMOVE_ONE, "
                "RandomizedResponse and SampledWithoutReplacement(Gaussian) under REPLACE_ONE, "
                "SelfComposed, Composed, NoOp, NonPrivate)",
            )

        def _poisson_q(self, sampled: Any) -> Any:
            """The sampling probability of a ``PoissonSampledDpEvent`` (a float in [0, 1]),
            or refusal details (relation, range)."""
            Details = PrivacyAccountant.CompositionErrorDetails
            if self.neighboring_relation != NeighboringRelation.ADD_OR_REMOVE_ONE:
                return Details(
                    sampled,
                    "shiftdp certifies Poisson subsampling under ADD_OR_REMOVE_ONE only "
                    f"(both orders of the add/remove pair); found {self.neighboring_relation}. "
                    "Use CertifiedPLDAccountant(NeighboringRelation.ADD_OR_REMOVE_ONE).",
                )
            q = sampled.sampling_probability
            if not (_finite_ge0(q) and q <= 1):
                return Details(sampled, f"sampling_probability must be in [0, 1], got {q}")
            return float(q)

        def _relation_and_q(self, event: Any, sampled: Any) -> Any:
            """The sampling probability (1.0 without ``sampled``, the enclosing
            ``PoissonSampledDpEvent``) of an add/remove event, or the refusal details
            (relation, range)."""
            refused = self._add_or_remove(event)
            if refused is not None:
                return refused
            return 1.0 if sampled is None else self._poisson_q(sampled)

        def _maybe_compose_laplace(self, event: Any, sampled: Any, count: int, do_compose: bool) -> Optional[Any]:
            """``LaplaceDpEvent(b)``: Laplace(b) at sensitivity 1; Poisson-subsampled when
            ``sampled`` is the enclosing ``PoissonSampledDpEvent``."""
            Details = PrivacyAccountant.CompositionErrorDetails
            q = self._relation_and_q(event, sampled)
            if not isinstance(q, float):
                return q
            b = event.noise_multiplier
            if not _finite_ge0(b):
                return Details(event, f"noise_multiplier must be finite and ≥ 0, got {b}")
            if do_compose and count > 0 and q > 0:
                if b == 0:
                    self._non_private = True
                elif sampled is None:
                    self._add(("laplace", (float(b), 1.0)), count)
                else:
                    self._add(("poisson_laplace", (q, float(b), 1.0)), count)
            return None

        def _maybe_compose_mixture(self, event: Any, sampled: Any, count: int, do_compose: bool) -> Optional[Any]:
            """``MixtureOfGaussiansDpEvent(σ, sensitivities, sampling_probs)`` (both orders of
            the add/remove pair); Poisson-subsampled when ``sampled`` is given."""
            Details = PrivacyAccountant.CompositionErrorDetails
            q = self._relation_and_q(event, sampled)
            if not isinstance(q, float):
                return q
            sigma = event.standard_deviation
            cs, ps = list(event.sensitivities), list(event.sampling_probs)
            if not _finite_ge0(sigma):
                return Details(event, f"standard_deviation must be finite and ≥ 0, got {sigma}")
            if len(cs) != len(ps) or not cs:
                return Details(event, "sensitivities and sampling_probs must have the same positive length")
            if not all(_finite_ge0(c) for c in cs) or not all(_finite_ge0(p) and p <= 1 for p in ps):
                return Details(event, "sensitivities must be finite ≥ 0 and sampling_probs in [0, 1]")
            if abs(math.fsum(ps) - 1.0) > 1e-9:
                return Details(event, f"sampling_probs must sum to 1, got {math.fsum(ps)!r}")
            private = any(c > 0 and p > 0 for c, p in zip(cs, ps))
            if do_compose and count > 0 and q > 0 and private:
                if sigma == 0:
                    self._non_private = True
                else:
                    params = (float(sigma), *map(float, cs), *map(float, ps))
                    if sampled is None:
                        self._add(("mixture_of_gaussians", params), count)
                    else:
                        self._add(("poisson_mixture_of_gaussians", (q, *params)), count)
            return None

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
                    self._add(("subsampled", (_p_up(int(m), int(n)), _mu_up(sigma, 2.0))), count)
                    if SWOR_CONVENTION not in self.conventions:
                        self.conventions.append(SWOR_CONVENTION)
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

        def _components(self) -> List[Any]:
            """The composition as shiftdp's component classes (one per distinct event)."""
            from . import _types as T

            def typed(kind: str, v: Tuple[float, ...], k: int) -> Any:
                if kind == "gaussian":
                    return T.Gaussian(mu=v[0], count=k)
                if kind == "subsampled":
                    return T.SubsampledGaussian(v[0], mu=v[1], count=k)
                if kind == "poisson":
                    return T.PoissonGaussian(v[0], mu=v[1], count=k)
                if kind == "laplace":
                    return T.Laplace(v[0], v[1], k)
                if kind == "poisson_laplace":
                    return T.PoissonLaplace(v[0], v[1], v[2], k)
                if kind == "discrete_laplace":
                    return T.DiscreteLaplace(v[0], int(v[1]), k)
                if kind == "randomized_response":
                    return T.RandomizedResponse(v[0], int(v[1]), k)
                if kind == "mixture_of_gaussians":
                    n = (len(v) - 1) // 2
                    return T.MixtureOfGaussians(v[0], v[1 : n + 1], v[n + 1 :], k)
                if kind == "approx_dp":
                    return T.ApproxDp(v[0], v[1], k)
                if kind == "truncated_subsampled_gaussian":
                    return T.TruncatedSubsampledGaussian(int(v[0]), v[1], int(v[2]), v[3], k)
                return _Part(kind, v, k)

            return [typed(kind, params, k) for (kind, params), k in self._parts.items()]

        def composed(self, *, delta: Optional[float] = None, epsilon: Optional[float] = None) -> Composed:
            """The full :class:`shiftdp.Composed` result (interval, grid, CLT μ)."""
            from . import compose

            return compose(self._components(), delta=delta, epsilon=epsilon, tolerance=self._tolerance)

        def _rdp_items(self) -> List[Any]:
            items = [(k, list(v), c) for (k, v), c in self._rdp_parts.items()]
            for (k, v), c in self._parts.items():
                mapped = _rdp_of(k, v)
                if mapped is None:
                    # refused at compose time where the order of events shows it; a
                    # composite event can slip past dp_accounting's check pass
                    from . import NotCertifiedError

                    reason = (
                        f"the composition holds events answered through Rényi DP only, and {k} has no "
                        "certified Rényi curve in shiftdp (Gaussian and Laplace do)"
                    )
                    err = NotCertifiedError(f"could not certify composition: {reason}")
                    err.what = "composition"
                    err.reason = reason
                    raise err
                items.append((mapped[0], list(mapped[1]), c))
            return items

        def _rdp_epsilon(self, delta: float) -> Interval:
            from ._core import rdp_epsilon

            _check_delta(delta)
            eps, conversion, alpha = rdp_epsilon(self._rdp_items(), float(delta))
            order = "" if alpha is None else f", α = {alpha:.6g}"
            return Interval(0.0, eps, "0", repr(eps), f"via RDP ({conversion}{order}); lower end 0")

        def get_epsilon_interval(self, target_delta: float) -> Interval:
            """Certified enclosure of ε(δ) of everything composed so far (through Rényi DP
            when an event has no other certified analysis: then the lower end is 0 and the
            path says "via RDP")."""
            if self._non_private:
                inf = math.inf
                return Interval(inf, inf, "inf", "inf", "non-private event")
            if self._rdp_parts:
                return self._rdp_epsilon(float(target_delta))
            if not self._parts:
                _check_delta(target_delta)
                return Interval(0.0, 0.0, "0", "0", "no event")
            return self._with_conventions(self.composed(delta=float(target_delta)).interval)

        def _with_conventions(self, interval: Interval) -> Interval:
            """The interval with :attr:`conventions` appended to its ``path``."""
            if not self.conventions:
                return interval
            return dataclasses.replace(interval, path="; ".join([interval.path, *self.conventions]))

        def get_delta_interval(self, target_epsilon: float) -> Interval:
            """Certified enclosure of δ(ε) of everything composed so far (via RDP: the
            smallest δ on a bisection in log δ whose certified ε(δ) is ≤ ε, an upper bound
            on δ(ε); the lower end 0)."""
            if self._non_private:
                return Interval(1.0, 1.0, "1", "1", "non-private event")
            if self._rdp_parts:
                target = float(target_epsilon)
                lo, hi = -700.0, math.log(0.5)
                if self._rdp_epsilon(math.exp(hi)).upper > target:
                    return Interval(0.0, 1.0, "0", "1", "via RDP: ε(1/2) is above the ε asked")
                for _ in range(40):
                    mid = 0.5 * (lo + hi)
                    if self._rdp_epsilon(math.exp(mid)).upper <= target:
                        hi = mid
                    else:
                        lo = mid
                d = math.exp(hi)
                return Interval(0.0, d, "0", repr(d), "via RDP (bisection on ε(δ)); lower end 0")
            if not self._parts:
                return Interval(0.0, 0.0, "0", "0", "no event")
            return self._with_conventions(self.composed(epsilon=float(target_epsilon)).interval)

        def get_epsilon(self, target_delta: float) -> float:
            """Certified upper bound on ε(δ) (the upper end of the interval)."""
            return self.get_epsilon_interval(target_delta).upper

        def get_delta(self, target_epsilon: float) -> float:
            """Certified upper bound on δ(ε) (the upper end of the interval)."""
            return self.get_delta_interval(target_epsilon).upper

    CertifiedPLDAccountant.__module__ = __name__
    CertifiedPLDAccountant.__qualname__ = "CertifiedPLDAccountant"
    return CertifiedPLDAccountant


SWOR_CONVENTION = (
    "SampledWithoutReplacementDpEvent(n, m, GaussianDpEvent(σ)) is read as C_p(G(2/σ)): σ "
    "relative to the clipping norm, two clipped gradients differ by 2 norms under "
    "REPLACE_ONE (GaussianDpEvent's own definition); dp_accounting's RdpAccountant reads "
    "the same event with μ = 1/σ (σ relative to the replace-one sensitivity), so its ε is "
    "that of a noise twice as large"
)
"""The note every answer of a composition with a sampled-without-replacement event
carries (its ``path``)."""


def _rdp_of(kind: str, params: Tuple[float, ...]) -> Optional[Tuple[str, Tuple[float, ...]]]:
    """The certified Rényi curve item of a PLD component, ``None`` when shiftdp has none
    that is fast enough to compose: G(μ) (α μ²/2) and Laplace at sensitivity 1 (Mironov
    2017 Prop 6). (The Poisson-subsampled Gaussian's certified curve needs both orders'
    divergences, whose base–mixture order takes seconds per order: not offered here.)"""
    if kind == "gaussian":
        return ("gaussian", params)
    if kind == "laplace":
        if not params:
            return ("laplace", ())
        b, sens = params
        return ("laplace", (b,)) if sens == 1.0 else None
    return None


def _check_delta(d: float) -> None:
    from ._core import check_delta

    check_delta(d)


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
