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

One function of the compiled core, ``shiftdp._core.map_event``, maps every event (read
in Python into its class name and attributes) and every step of the Opacus accountant to
its component, validating it and rounding once: μ = s/σ rounded up to a double (the
library's ``div_up_f64``, which every surface uses) and p = m/n rounded up, so the
component used is never less private than the event.

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

from typing import TYPE_CHECKING, Any, Optional, Tuple

from . import _core
from ._core import Gaussian, Laplace
from ._opacus import HistoryComponents

__all__ = ["CertifiedPLDAccountant", "CertifiedAccountant", "HistoryComponents"]

if TYPE_CHECKING:  # pragma: no cover
    from ._opacus import _Methods as CertifiedAccountant  # noqa: F401
    from .dp_accounting import CertifiedPLDAccountant as CertifiedPLDAccountant  # noqa: F401


SWOR_CONVENTION: str = _core.SWOR_CONVENTION
"""The note every answer of a composition with a sampled-without-replacement event
carries (its ``path``)."""


def _rdp_of(component: Any) -> Optional[Tuple[str, Tuple[float, ...]]]:
    """The certified Rényi curve item of a PLD component, ``None`` when shiftdp has none
    that is fast enough to compose: G(μ) (α μ²/2) and Laplace at sensitivity 1 (Mironov
    2017 Prop 6). (The Poisson-subsampled Gaussian's certified curve needs both orders'
    divergences, whose base–mixture order takes seconds per order: not offered here.)"""
    if isinstance(component, Gaussian):
        return ("gaussian", (component.mu,))
    if isinstance(component, Laplace) and component.sensitivity == 1.0:
        return ("laplace", (component.b,))
    return None


def _check_delta(d: float) -> None:
    from ._core import check_delta

    check_delta(d)


_OPACUS_CLASS: Optional[type] = None


def __getattr__(name: str) -> Any:
    # Built on first use, so that `import shiftdp.accounting` works without dp_accounting
    # (and without Opacus / torch).
    global _OPACUS_CLASS
    if name == "CertifiedPLDAccountant":
        from .dp_accounting import CertifiedPLDAccountant

        return CertifiedPLDAccountant
    if name == "CertifiedAccountant":
        if _OPACUS_CLASS is None:
            from ._opacus import _build

            _OPACUS_CLASS = _build()
        return _OPACUS_CLASS
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
