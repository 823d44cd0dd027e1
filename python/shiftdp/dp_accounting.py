"""The certified accountant for Google's dp_accounting as a plain module:
:class:`CertifiedPLDAccountant`, a ``dp_accounting.PrivacyAccountant`` whose answers are
certified by shiftdp. Importing this module needs dp_accounting (``pip install
'shiftdp[accounting]'``); :mod:`shiftdp.accounting` gives the same class on first use and
imports without it."""

from __future__ import annotations

import math
import numbers
from typing import Any, Dict, List, Optional, Tuple

try:
    import dp_accounting
except ImportError as e:  # pragma: no cover - exercised only without dp_accounting
    raise ImportError(
        "shiftdp.dp_accounting needs dp_accounting: pip install dp-accounting "
        "(or pip install 'shiftdp[accounting]')"
    ) from e

from dp_accounting import NeighboringRelation, PrivacyAccountant, dp_event

from ._core import DEFAULT_TOLERANCE
from ._types import Composed, Interval
from ._types import mu_up as _mu_up
from ._types import p_up as _p_up
from .accounting import SWOR_CONVENTION, _check_delta, _finite_ge0, _rdp_of

__all__ = ["CertifiedPLDAccountant"]


class CertifiedPLDAccountant(PrivacyAccountant):  # type: ignore[misc]
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
            if kind == "poisson_mixture_of_gaussians":
                n = (len(v) - 2) // 2
                return T.PoissonMixtureOfGaussians(v[0], v[1], v[2 : n + 2], v[n + 2 :], k)
            if kind == "approx_dp":
                return T.ApproxDp(v[0], v[1], k)
            return T.TruncatedSubsampledGaussian(int(v[0]), v[1], int(v[2]), v[3], k)

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
        path = "; ".join([interval.path, *self.conventions])
        return Interval(interval.lower, interval.upper, interval.lower_decimal, interval.upper_decimal, path)

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

CertifiedPLDAccountant.__module__ = "shiftdp.accounting"  # its public home
