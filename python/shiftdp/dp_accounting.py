"""The certified accountant for Google's dp_accounting as a plain module:
:class:`CertifiedPLDAccountant`, a ``dp_accounting.PrivacyAccountant`` whose answers are
certified by shiftdp. Importing this module needs dp_accounting (``pip install
'shiftdp[accounting]'``); :mod:`shiftdp.accounting` gives the same class on first use and
imports without it."""

from __future__ import annotations

import math
from typing import Any, Dict, List, Optional, Tuple

try:
    import dp_accounting
except ImportError as e:  # pragma: no cover - exercised only without dp_accounting
    raise ImportError(
        "shiftdp.dp_accounting needs dp_accounting: pip install dp-accounting "
        "(or pip install 'shiftdp[accounting]')"
    ) from e

import attr
from dp_accounting import NeighboringRelation, PrivacyAccountant, dp_event

from . import _core
from ._core import DEFAULT_TOLERANCE, ShiftdpError
from ._types import Component, Composed, Interval
from .accounting import _check_delta, _rdp_of

__all__ = ["CertifiedPLDAccountant"]


def _read(event: Any) -> Tuple[str, Dict[str, Any]]:
    """The event's class name and attributes, nested events read the same way: what
    :func:`shiftdp._core.map_event` maps (dp_accounting's events are attrs classes)."""
    fields: Dict[str, Any] = {}
    for a in attr.fields(type(event)):
        v = getattr(event, a.name)
        fields[a.name] = _read(v) if isinstance(v, dp_event.DpEvent) else v
    return type(event).__name__, fields


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
        # component (at count 1) -> count
        self._parts: Dict[Component, int] = {}
        # events answered only through Rényi DP (zCDP, tree aggregation,
        # repeat-and-select): (kind, parameters) -> count
        self._rdp_parts: Dict[Tuple[str, Tuple[float, ...]], int] = {}
        self._non_private = False
        # conventions a reader comparing with another accountant needs to know, said
        # in every answer's ``path``
        self.conventions: List[str] = []

    # -- composition ---------------------------------------------------------

    def _add(self, part: Any, count: int) -> None:
        """Adds what :func:`shiftdp._core.map_event` made of an event ``count`` times
        (the component carries its count)."""
        if part.non_private:
            self._non_private = True
        if part.component is not None:
            key = part.component.with_count(1)
            self._parts[key] = self._parts.get(key, 0) + part.component.count
        if part.rdp is not None:
            kind, params = part.rdp
            rkey = (kind, tuple(params))
            self._rdp_parts[rkey] = self._rdp_parts.get(rkey, 0) + count
        if part.convention is not None and part.convention not in self.conventions:
            self.conventions.append(part.convention)

    def _mixing_refused(self, event: Any, part: Any) -> Optional[Any]:
        """Refusal details when the composition would mix an event answered only through
        Rényi DP with one that has no certified Rényi curve here."""
        name = type(event).__name__
        if _core.is_rdp_event(name):
            bad = sorted({type(c).__name__ for c in self._parts if _rdp_of(c) is None})
            if bad:
                return PrivacyAccountant.CompositionErrorDetails(
                    event,
                    f"{name} is answered through Rényi DP only, and the composition already "
                    f"holds {', '.join(bad)}, which has no certified Rényi curve in shiftdp "
                    "(Gaussian and Laplace do)",
                )
        elif self._rdp_parts and part.component is not None and _rdp_of(part.component) is None:
            return PrivacyAccountant.CompositionErrorDetails(
                event,
                f"the composition holds events answered through Rényi DP only, and {name} "
                f"({type(part.component).__name__}) has no certified Rényi curve in shiftdp",
            )
        return None

    def _maybe_compose(self, event: Any, count: int, do_compose: bool) -> Optional[Any]:
        """Walks the composite events (``NoOp``, ``NonPrivate``, ``SelfComposed``,
        ``Composed``); every other event is read (:func:`_read`) and mapped by
        :func:`shiftdp._core.map_event`, which validates it and does every rounding."""
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
        try:
            # mapped at count ≥ 1 so that a part that composes nothing is still checked
            part = _core.map_event(_read(event), self.neighboring_relation.name, max(count, 1))
        except ShiftdpError as e:
            return PrivacyAccountant.CompositionErrorDetails(event, str(e))
        refused = self._mixing_refused(event, part)
        if refused is not None:
            return refused
        if do_compose and count > 0:
            self._add(part, count)
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

    def _components(self) -> List[Component]:
        """The composition as shiftdp's components (one per distinct event)."""
        return [c.with_count(k) for c, k in self._parts.items()]

    def composed(self, *, delta: Optional[float] = None, epsilon: Optional[float] = None) -> Composed:
        """The full :class:`shiftdp.Composed` result (interval, grid, CLT μ)."""
        from . import compose

        return compose(self._components(), delta=delta, epsilon=epsilon, tolerance=self._tolerance)

    def _rdp_items(self) -> List[Any]:
        items = [(k, list(v), c) for (k, v), c in self._rdp_parts.items()]
        for comp, c in self._parts.items():
            mapped = _rdp_of(comp)
            if mapped is None:
                # refused at compose time where the order of events shows it; a
                # composite event can slip past dp_accounting's check pass
                from . import NotCertifiedError

                reason = (
                    f"the composition holds events answered through Rényi DP only, and {type(comp).__name__} has no "
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
