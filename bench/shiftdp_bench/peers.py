"""Peer accountants for the benchmark: one adapter per peer configuration.

Every adapter has a ``name``, ``available()`` (an import check; the reason when not),
``supports(entry)`` (whether the peer computes *the same quantity* as the entry) and
``run(entry) -> (value, error, seconds)``: the peer's answer as a float (``None`` when it
raised), the exception text, and the wall-clock time. Warnings the peers emit are
swallowed inside ``run`` (the package's pytest configuration turns warnings into errors).

Quantity mapping (see :mod:`shiftdp.accounting` for the derivations):

* ``gdp`` — μ-GDP, i.e. the Gaussian mechanism with noise multiplier σ = 1/μ
  (sensitivity 1, one release);
* ``poisson_gaussian`` (``add_remove``) — the Poisson-subsampled Gaussian, sampling rate
  q, noise multiplier σ, under add-or-remove adjacency, both directions composed, T
  steps: dp_accounting's ``PoissonSampledDpEvent`` under ``ADD_OR_REMOVE_ONE``;
  prv_accountant's ``PoissonSubsampledGaussianMechanism``; Opacus's accountants;
  autodp's Poisson-sampled Gaussian;
* ``symmetrized_cp`` (``replace_one``) — BSA24's ``C_p(G(μ))^{⊗T}``. shiftdp's
  accounting module maps ``SampledWithoutReplacementDpEvent(n, m, GaussianDpEvent(σ))``
  under ``REPLACE_ONE`` to ``C_p(G(2/σ))`` (σ relative to the add/remove sensitivity),
  and documents that dp_accounting's ``RdpAccountant`` reads the same event as
  ``C_p(G(1/σ))``. The RDP adapter therefore runs the event with σ = 1/μ (its own
  reading, the same quantity as the entry); dp_accounting's ``PLDAccountant`` does not
  support the event at all, so the PLD adapters skip these entries.
* ``sgm_rdp`` — the Rényi divergence of order α of the Poisson-subsampled Gaussian
  (T steps, composed additively).
* ``laplace``, ``poisson_laplace``, ``discrete_laplace``, ``randomized_response``,
  ``mixture_gaussian``, ``truncated_subsampled_gaussian`` — dp_accounting's
  ``LaplaceDpEvent``, ``PoissonSampledDpEvent(q, LaplaceDpEvent)``,
  ``DiscreteLaplaceDpEvent``, ``RandomizedResponseDpEvent`` (under REPLACE_ONE),
  ``MixtureOfGaussiansDpEvent`` and ``TruncatedSubsampledGaussianDpEvent``, self-composed
  T times (each entry's ``relation_note`` states the pair). dp_accounting's
  ``PLDAccountant`` takes all six; its ``RdpAccountant`` has Rényi curves for the Laplace
  and randomized-response events only (it refuses the others), so it runs those two.
  prv_accountant runs ``laplace`` (its ``LaplaceMechanism(mu = 1/b)`` is the privacy loss
  of the same pair, Lap(0, b) against Lap(1, b)); Opacus and autodp have no adapter for
  these families.
* ``sampler`` — a run with its own batch sampler (shuffling, balls-in-bins, fixed-size
  batches); the peers all assume Poisson sampling, so each is given the
  Poisson-subsampled Gaussian at the entry's ``q`` for ``steps`` steps — the number a
  practitioner would report. A value below the certified lower end is then provably
  wrong *for the sampler used* (the report lists this family apart from the peers' own
  soundness).
"""

from __future__ import annotations

import decimal
import math
import time
import warnings
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Callable, Dict, List, Optional, Tuple

__all__ = [
    "MECHANISM_FAMILIES",
    "ROUNDING_LEVEL",
    "printed_rounding_level",
    "Entry",
    "Params",
    "Adapter",
    "RunResult",
    "all_adapters",
    "adapter_by_name",
    "classify",
]

RunResult = Tuple[Optional[float], Optional[str], float]


# -- the entry ------------------------------------------------------------------------


@dataclass
class Params:
    """The numbers of an entry's mechanism, read from its ``params`` (several spellings
    accepted: q / p / sampling_probability, sigma / noise_multiplier, mu, steps / T /
    count)."""

    q: Optional[float] = None
    sigma: Optional[float] = None
    mu: Optional[float] = None
    steps: int = 1
    q_text: Optional[str] = None

    @classmethod
    def read(cls, params: Dict[str, Any]) -> "Params":
        def first(*names: str) -> Optional[Any]:
            for n in names:
                if n in params and params[n] is not None:
                    return params[n]
            return None

        q = first("q", "p", "sampling_probability", "sampling_rate")
        sigma = first("sigma", "noise_multiplier")
        mu = first("mu")
        steps = first("steps", "T", "t", "count", "compositions")
        p = cls(
            q=float(q) if q is not None else None,
            sigma=float(sigma) if sigma is not None else None,
            mu=float(mu) if mu is not None else None,
            steps=int(steps) if steps is not None else 1,
            q_text=str(q) if q is not None else None,
        )
        if p.mu is None and p.sigma is not None and p.sigma > 0:
            p.mu = 1.0 / p.sigma
        if p.sigma is None and p.mu is not None and p.mu > 0:
            p.sigma = 1.0 / p.mu
        return p


@dataclass
class Entry:
    """One reference entry (format ``shiftdp-reference/1``, see :mod:`shiftdp_bench`)."""

    id: str
    family: str
    relation: str
    params: Dict[str, Any]
    query: Dict[str, str]
    quantity: str
    lower: float
    upper: float
    rel_width: float
    source: str = ""
    published: Optional[Dict[str, str]] = None
    raw: Dict[str, Any] = field(default_factory=dict)

    @classmethod
    def from_json(cls, d: Dict[str, Any]) -> "Entry":
        cert = d["certified"]
        return cls(
            id=str(d["id"]),
            family=str(d["family"]),
            relation=str(d.get("relation", "none")),
            params=dict(d.get("params", {})),
            query=dict(d.get("query", {})),
            quantity=str(d["quantity"]),
            lower=float(cert["lower"]),
            upper=float(cert["upper"]),
            rel_width=float(d.get("rel_width", "nan")),
            source=str(d.get("source", "")),
            published=d.get("published"),
            raw=d,
        )

    @property
    def p(self) -> Params:
        return Params.read(self.params)

    @property
    def kind(self) -> str:
        """The mechanism family, resolving ``published`` entries by their parameters."""
        if self.family != "published":
            return self.family
        keys = set(self.params)
        if self.quantity == "rdp":
            return "sgm_rdp"
        if keys & {"q", "p", "sampling_probability", "sampling_rate"}:
            return "symmetrized_cp" if self.relation == "replace_one" else "poisson_gaussian"
        return "gdp"

    @property
    def delta(self) -> Optional[float]:
        return float(self.query["delta"]) if "delta" in self.query else None

    @property
    def epsilon(self) -> Optional[float]:
        return float(self.query["epsilon"]) if "epsilon" in self.query else None

    @property
    def alpha(self) -> Optional[float]:
        return float(self.query["alpha"]) if "alpha" in self.query else None

    @property
    def delta_level(self) -> Optional[float]:
        """The δ of the entry: the query's δ, or the certified δ for δ(ε) entries."""
        if self.delta is not None:
            return self.delta
        if self.quantity == "delta":
            return self.upper
        return None


# -- classification --------------------------------------------------------------------


ROUNDING_LEVEL = 1e-9
"""The largest relative shortfall below the certified lower end that is classified
``rounding`` rather than ``unsound``.

A peer computes in f64: every operation rounds by up to 2⁻⁵³ ≈ 1.1e-16 relative, and an
accountant's answer passes through thousands of them (quadratures, FFTs, logs and
exponentials, root finders stopped at ``xtol`` = 1e-12), so an answer whose method is
an upper bound lands a few 1e-16 to about 1e-12 relative away from the exact value,
on either side (the reference's decimal ends themselves carry 17 significant digits).
The rounding-level shortfalls seen on the reference suite are 1e-15..1e-12 relative
(dp_accounting's ``get_epsilon_gaussian``, autodp, the scipy closed form: PEERS.md P5,
P6, P8); the smallest material one is 4.5e-5 (PEERS.md P13). 1e-9 lies three orders of
magnitude above the first and four below the second: an answer short by at most 1e-9
relative is wrong in its last digits only; beyond that, its method is.
"""


def printed_rounding_level(text: str) -> float:
    """One unit in the last digit of the decimal ``text``, relative to its magnitude (at
    least :data:`ROUNDING_LEVEL`; that level when the text is no finite non-zero
    decimal): a value printed to k digits is the truth rounded or cut to them, so it
    may lie up to that far below it."""
    try:
        d = decimal.Decimal(text.strip())
    except (decimal.InvalidOperation, ValueError):
        return ROUNDING_LEVEL
    if not d.is_finite() or d == 0:
        return ROUNDING_LEVEL
    exp = d.as_tuple().exponent
    assert isinstance(exp, int)
    unit = decimal.Decimal(10) ** exp
    return max(ROUNDING_LEVEL, float(unit / abs(d)))


def classify(
    value: Optional[float],
    error: Optional[str],
    lower: float,
    upper: float,
    rounding_level: float = ROUNDING_LEVEL,
) -> Dict[str, Any]:
    """A peer's answer against the certified ``[lower, upper]`` of an upper-bound quantity
    (ε, δ or an RDP value: a sound accountant answers ≥ the truth ≥ ``lower``; only an
    answer below ``lower`` is a violation, one above ``upper`` is sound and loose).

    ``status``: ``failure`` (exception, None, NaN or ±inf — inf is safe but gives up),
    ``unsound`` (value < lower by more than ``rounding_level`` relative, by default
    :data:`ROUNDING_LEVEL`: provably below the truth, materially), ``rounding`` (value <
    lower by at most ``rounding_level`` relative: below the truth in the last digits of
    an f64 evaluation, or of a printed decimal, see ``Published.rounding_level``),
    ``inside`` (in the interval, or ≤ 0 where the certified answer is ε(δ) ≤ 0: as tight
    as the certificate resolves), ``above`` (sound and loose).
    ``shortfall`` = ``(lower − value)/|lower|`` for ``unsound`` and ``rounding`` answers
    (``"inf"`` below a lower end of 0), None otherwise. ``rel_error`` is
    ``(value − upper)/upper`` (None on failure)."""
    if error is not None or value is None:
        return {"status": "failure", "rel_error": None, "reason": error or "no value"}
    if math.isnan(value):
        return {"status": "failure", "rel_error": None, "reason": "NaN"}
    if math.isinf(value):
        return {"status": "failure", "rel_error": None, "reason": "inf" if value > 0 else "-inf"}
    if upper != 0:
        rel = (value - upper) / abs(upper)
    else:
        rel = 0.0 if value == 0 else math.copysign(math.inf, value)
    shortfall: Any = None
    if upper <= 0 and value <= 0:
        # the certified answer is "ε(δ) ≤ 0" (δ ≥ δ(0); the reference clamps it to
        # [0, 0]): any value ≤ 0 is a true claim, not one below the truth
        status = "inside"
    elif value < lower:
        if lower == 0:
            status, shortfall = "unsound", "inf"  # below a lower end of 0: no relative measure (JSON-safe)
        else:
            shortfall = (lower - value) / abs(lower)
            status = "rounding" if shortfall <= rounding_level else "unsound"
    elif value <= upper:
        status = "inside"
    else:
        status = "above"
    return {"status": status, "rel_error": rel, "reason": None, "shortfall": shortfall}


# -- adapters --------------------------------------------------------------------------


class Adapter:
    """A peer configuration. Subclasses set ``name``, ``package`` (the import to check),
    ``families`` and implement ``_run``."""

    name: str = ""
    package: str = ""
    families: Tuple[str, ...] = ()
    quantities: Tuple[str, ...] = ("epsilon", "delta")
    description: str = ""
    quick: bool = True  # run by ``--quick`` (False: a slower configuration of a peer run there in another)

    def available(self) -> Tuple[bool, str]:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                __import__(self.package)
        except Exception as e:  # ImportError, or a broken dependency
            return False, f"{self.package} not importable: {type(e).__name__}: {e}"
        return True, ""

    def version(self) -> str:
        try:
            from importlib.metadata import version

            return version(self.dist())
        except Exception:
            return "?"

    def dist(self) -> str:
        return self.package.replace("_", "-")

    def supports(self, entry: Entry) -> bool:
        return entry.kind in self.families and entry.quantity in self.quantities

    def rounding_level(self, entry: Entry) -> float:
        """The largest relative shortfall of this adapter's answer to ``entry`` that is
        rounding, not method: :data:`ROUNDING_LEVEL` for a computed f64 answer."""
        return ROUNDING_LEVEL

    def run(self, entry: Entry) -> RunResult:
        t0 = time.perf_counter()
        try:
            with warnings.catch_warnings(), _quiet_numpy():
                warnings.simplefilter("ignore")
                v = self._run(entry)
            return float(v), None, time.perf_counter() - t0
        except Exception as e:
            msg = f"{type(e).__name__}: {str(e).splitlines()[0][:200] if str(e) else ''}"
            return None, msg, time.perf_counter() - t0

    def _run(self, entry: Entry) -> float:  # pragma: no cover - abstract
        raise NotImplementedError


class _quiet_numpy:
    def __enter__(self) -> None:
        try:
            import numpy as np

            self._old: Any = np.seterr(all="ignore")
        except ImportError:
            self._old = None

    def __exit__(self, *a: Any) -> None:
        if self._old is not None:
            import numpy as np

            np.seterr(**self._old)


def _dpa_event(entry: Entry) -> Any:
    """dp_accounting's event for a ``gdp`` entry (one Gaussian at σ = 1/μ) or a
    ``poisson_gaussian`` entry (``PoissonSampledDpEvent(q, GaussianDpEvent(σ))`` composed
    ``steps`` times)."""
    import dp_accounting

    p = entry.p
    assert p.sigma is not None
    g = dp_accounting.GaussianDpEvent(p.sigma)
    if entry.kind == "gdp":
        return g
    return dp_accounting.SelfComposedDpEvent(dp_accounting.PoissonSampledDpEvent(p.q, g), p.steps)


MECHANISM_FAMILIES = (
    "laplace",
    "poisson_laplace",
    "discrete_laplace",
    "randomized_response",
    "mixture_gaussian",
    "truncated_subsampled_gaussian",
)


def _dpa_mechanism_event(entry: Entry) -> Any:
    """dp_accounting's event for an entry of one of :data:`MECHANISM_FAMILIES`: the
    mechanism's event (parameters as the nearest doubles of the entry's decimals)
    self-composed ``steps`` times."""
    import dp_accounting as dpa

    E, p, f = dpa.dp_event, entry.params, float
    kind = entry.kind
    if kind == "laplace":
        ev: Any = E.LaplaceDpEvent(f(p["b"]))
    elif kind == "poisson_laplace":
        ev = E.PoissonSampledDpEvent(f(p["q"]), E.LaplaceDpEvent(f(p["b"])))
    elif kind == "discrete_laplace":
        ev = E.DiscreteLaplaceDpEvent(f(p["a"]), int(p["sensitivity"]))
    elif kind == "randomized_response":
        ev = E.RandomizedResponseDpEvent(f(p["noise_parameter"]), int(p["buckets"]))
    elif kind == "mixture_gaussian":
        ev = E.MixtureOfGaussiansDpEvent(
            f(p["sigma"]), [f(c) for c in p["sensitivities"]], [f(x) for x in p["probabilities"]]
        )
    elif kind == "truncated_subsampled_gaussian":
        ev = E.TruncatedSubsampledGaussianDpEvent(
            int(p["dataset_size"]), f(p["q"]), int(p["truncated_batch_size"]), f(p["sigma"])
        )
    else:  # pragma: no cover
        raise ValueError(kind)
    return E.SelfComposedDpEvent(ev, entry.p.steps)


def _dpa_relation(entry: Entry) -> Any:
    """The entry's neighbouring relation as dp_accounting's enum."""
    import dp_accounting

    NR = dp_accounting.NeighboringRelation
    return NR.REPLACE_ONE if entry.relation == "replace_one" else NR.ADD_OR_REMOVE_ONE


def _dpa_answer(acc: Any, ev: Any, entry: Entry) -> float:
    """Composes ``ev`` into the dp_accounting accountant ``acc`` and answers the entry's
    query (ε at its δ, or δ at its ε)."""
    acc.compose(ev)
    if entry.quantity == "epsilon":
        return acc.get_epsilon(entry.delta)
    return acc.get_delta(entry.epsilon)


def _swor_sizes(q_text: Optional[str], q: float) -> Tuple[int, int]:
    """(n, m) with m/n the entry's p exactly (from its decimal text)."""
    fr = Fraction(q_text) if q_text is not None else Fraction(q).limit_denominator(10**9)
    return fr.denominator, fr.numerator


class DpAccountingPLD(Adapter):
    package = "dp_accounting"
    families = ("gdp", "poisson_gaussian", *MECHANISM_FAMILIES, "sampler")

    def __init__(self, vdi: float) -> None:
        self.vdi = vdi
        # --quick runs the coarse grid only: the finer ones take seconds to a minute per
        # query on mixtures and the truncated subsampled Gaussian (PEERS.md P11)
        self.quick = vdi >= 1e-2
        self.name = f"dp_accounting.pld(vdi={vdi:g})"
        self.description = (
            f"dp_accounting.pld.PLDAccountant(ADD_OR_REMOVE_ONE, value_discretization_interval={vdi:g}); "
            "REPLACE_ONE for randomized response"
        )

    def _run(self, entry: Entry) -> float:
        from dp_accounting.pld import PLDAccountant

        acc = PLDAccountant(_dpa_relation(entry), value_discretization_interval=self.vdi)
        if entry.kind in MECHANISM_FAMILIES:
            return _dpa_answer(acc, _dpa_mechanism_event(entry), entry)
        return _dpa_answer(acc, _dpa_event(entry), entry)


class DpAccountingRDP(Adapter):
    name = "dp_accounting.rdp"
    package = "dp_accounting"
    # of the other mechanisms, RdpAccountant has Rényi curves for LaplaceDpEvent and
    # RandomizedResponseDpEvent only (Poisson-subsampled Laplace, discrete Laplace,
    # mixtures and the truncated subsampled Gaussian are "Unsupported event")
    families = ("gdp", "poisson_gaussian", "symmetrized_cp", "sgm_rdp", "laplace", "randomized_response", "sampler")
    quantities = ("epsilon", "delta", "rdp")
    description = (
        "dp_accounting.rdp.RdpAccountant (default orders); SWOR event under REPLACE_ONE for C_p, "
        "REPLACE_ONE for randomized response"
    )

    def _run(self, entry: Entry) -> float:
        import dp_accounting
        from dp_accounting.rdp import RdpAccountant, rdp_privacy_accountant as rpa

        if entry.kind in MECHANISM_FAMILIES:
            acc = RdpAccountant(neighboring_relation=_dpa_relation(entry))
            return _dpa_answer(acc, _dpa_mechanism_event(entry), entry)
        p = entry.p
        assert p.sigma is not None
        if entry.kind == "sgm_rdp":
            a = entry.alpha
            assert a is not None and p.q is not None
            r = rpa._compute_rdp_poisson_subsampled_gaussian(p.q, p.sigma, [a])
            return float(r[0]) * p.steps
        if entry.kind in ("gdp", "poisson_gaussian", "sampler"):
            return _dpa_answer(RdpAccountant(), _dpa_event(entry), entry)
        # symmetrized_cp: the entry is C_p(G(2/σ)) (σ relative to the add/remove
        # sensitivity, as dp_accounting's PLD accountant reads a Gaussian under
        # REPLACE_ONE). RdpAccountant reads the SWOR event's σ relative to the
        # replace-one sensitivity (its q = 1 case is α/(2σ²), i.e. G(1/σ);
        # google/differential-privacy#378), so the same quantity is its event at σ/2.
        assert p.q is not None
        n, m = _swor_sizes(p.q_text, p.q)
        acc = RdpAccountant(neighboring_relation=dp_accounting.NeighboringRelation.REPLACE_ONE)
        ev = dp_accounting.SelfComposedDpEvent(
            dp_accounting.SampledWithoutReplacementDpEvent(
                n, m, dp_accounting.GaussianDpEvent(p.sigma / 2)
            ),
            p.steps,
        )
        return _dpa_answer(acc, ev, entry)


class PrvAccountant(Adapter):
    name = "prv_accountant"
    package = "prv_accountant"
    families = ("gdp", "poisson_gaussian", "laplace", "sampler")
    description = (
        "prv_accountant.PRVAccountant(eps_error=0.01, delta_error=δ/1000), "
        "PoissonSubsampledGaussianMechanism / GaussianMechanism / LaplaceMechanism(1/b); upper estimate reported"
    )

    def __init__(self, eps_error: float = 1e-2) -> None:
        self.eps_error = eps_error
        if eps_error != 1e-2:
            self.name = f"prv_accountant(eps_error={eps_error:g})"

    def _run(self, entry: Entry) -> float:
        from prv_accountant import PRVAccountant
        from prv_accountant.privacy_random_variables import (
            GaussianMechanism,
            LaplaceMechanism,
            PoissonSubsampledGaussianMechanism,
        )

        p = entry.p
        if entry.kind == "laplace":
            prv: Any = LaplaceMechanism(mu=1.0 / float(entry.params["b"]))
            t = p.steps
        elif entry.kind == "gdp":
            assert p.sigma is not None
            prv = GaussianMechanism(noise_multiplier=p.sigma)
            t = 1
        else:
            prv = PoissonSubsampledGaussianMechanism(sampling_probability=p.q, noise_multiplier=p.sigma)
            t = p.steps
        if entry.quantity == "epsilon":
            d = entry.delta
            assert d is not None
            acc = PRVAccountant(prvs=prv, max_self_compositions=t, eps_error=self.eps_error, delta_error=d * 1e-3)
            _lo, _est, up = acc.compute_epsilon(delta=d, num_self_compositions=[t])
            return up
        e = entry.epsilon
        assert e is not None
        acc = PRVAccountant(prvs=prv, max_self_compositions=t, eps_error=self.eps_error,
                            delta_error=max(entry.upper * 1e-3, 1e-300))
        _lo, _est, up = acc.compute_delta(epsilon=e, num_self_compositions=[t])
        return up


class OpacusAccountant(Adapter):
    package = "opacus"
    families = ("poisson_gaussian", "sampler")
    quantities = ("epsilon",)

    def __init__(self, kind: str) -> None:
        self.kind_ = kind
        self.name = f"opacus.{kind}"
        self.description = f"opacus.accountants.{kind.upper()}Accountant, get_epsilon(δ)"

    def available(self) -> Tuple[bool, str]:
        ok, why = super().available()
        if not ok:
            return ok, why + " (Opacus needs torch; it is only run from an environment that has it)"
        return ok, why

    def _run(self, entry: Entry) -> float:
        from opacus import accountants as oa

        cls = {"rdp": oa.RDPAccountant, "prv": oa.PRVAccountant, "gdp": oa.GaussianAccountant}[self.kind_]
        acc = cls()
        p = entry.p
        acc.history = [(p.sigma, p.q, p.steps)]
        return acc.get_epsilon(delta=entry.delta)


class AutodpRDP(Adapter):
    name = "autodp.rdp"
    package = "autodp"
    families = ("gdp", "poisson_gaussian", "sampler")
    quantities = ("epsilon",)
    description = "autodp mechanism_zoo.GaussianMechanism + AmplificationBySampling(Poisson) + Composition, get_approxDP(δ)"

    def _run(self, entry: Entry) -> float:
        from autodp import mechanism_zoo, transformer_zoo

        p = entry.p
        g = mechanism_zoo.GaussianMechanism(sigma=p.sigma)
        if entry.kind == "gdp":
            return g.get_approxDP(entry.delta)
        sub = transformer_zoo.AmplificationBySampling(PoissonSampling=True)(g, p.q, improved_bound_flag=True)
        mech = transformer_zoo.Composition()([sub], [p.steps])
        return mech.get_approxDP(entry.delta)


class GdpDpAccounting(Adapter):
    name = "gdp.dp_accounting"
    package = "dp_accounting"
    families = ("gdp",)
    quantities = ("epsilon",)
    description = "dp_accounting.gaussian_mechanism.get_epsilon_gaussian(1/μ, δ) (f64, Balle–Wang analytic Gaussian)"

    def _run(self, entry: Entry) -> float:
        from dp_accounting import gaussian_mechanism as gm

        p = entry.p
        return gm.get_epsilon_gaussian(p.sigma, entry.delta)


def scipy_gdp_delta(mu: float, eps: float) -> float:
    """δ_μ(ε) = Φ(−ε/μ + μ/2) − e^ε Φ(−ε/μ − μ/2) in f64 with scipy (the textbook
    transcription)."""
    from scipy.stats import norm

    return float(norm.cdf(-eps / mu + mu / 2) - math.exp(eps) * norm.cdf(-eps / mu - mu / 2))


def scipy_gdp_epsilon(mu: float, delta: float) -> float:
    """ε(δ) of μ-GDP by brentq on :func:`scipy_gdp_delta` (xtol 1e-12)."""
    from scipy.optimize import brentq

    if scipy_gdp_delta(mu, 0.0) <= delta:
        return 0.0
    hi = 1.0
    while scipy_gdp_delta(mu, hi) > delta:
        hi *= 2
        if hi > 1e6:
            return math.inf
    return float(brentq(lambda e: scipy_gdp_delta(mu, e) - delta, 0.0, hi, xtol=1e-12))


class GdpScipy(Adapter):
    name = "gdp.scipy"
    package = "scipy"
    families = ("gdp",)
    quantities = ("epsilon", "delta")
    description = "scipy.stats.norm closed form δ_μ(ε) (DRS22 Cor 2.13), ε(δ) by brentq"

    def _run(self, entry: Entry) -> float:
        mu = entry.p.mu
        assert mu is not None
        if entry.quantity == "epsilon":
            return scipy_gdp_epsilon(mu, entry.delta)  # type: ignore[arg-type]
        return scipy_gdp_delta(mu, entry.epsilon)  # type: ignore[arg-type]


class Published(Adapter):
    """The value a peer's own test or paper published for the entry, when there is one."""

    name = "published"
    package = "json"
    families = ("gdp", "poisson_gaussian", "symmetrized_cp", "sgm_rdp")
    quantities = ("epsilon", "delta", "rdp")
    description = "the value published with the entry (a peer's test or paper)"

    def dist(self) -> str:
        return "python"

    def supports(self, entry: Entry) -> bool:
        return bool(entry.published and entry.published.get("value") not in (None, ""))

    def _run(self, entry: Entry) -> float:
        assert entry.published is not None
        return float(entry.published["value"])

    def rounding_level(self, entry: Entry) -> float:
        """The relative shortfall the printed value's own digits explain: one unit in its
        last printed digit over its magnitude (``0.126936`` may be any number in
        [0.126935, 0.126937] rounded or cut to six digits: 7.9e-6 relative), and at least
        :data:`ROUNDING_LEVEL`."""
        return printed_rounding_level(str((entry.published or {}).get("value", "")))


def all_adapters() -> List[Adapter]:
    return [
        DpAccountingPLD(1e-2),
        DpAccountingPLD(1e-3),
        DpAccountingPLD(1e-4),
        DpAccountingRDP(),
        PrvAccountant(),
        OpacusAccountant("rdp"),
        OpacusAccountant("prv"),
        OpacusAccountant("gdp"),
        AutodpRDP(),
        GdpDpAccounting(),
        GdpScipy(),
        Published(),
    ]


def adapter_by_name(name: str) -> Adapter:
    for a in all_adapters():
        if a.name == name:
            return a
    raise KeyError(name)


ShiftdpRunner = Callable[[Entry], Tuple[Optional[Tuple[float, float]], Optional[str], float]]


def run_shiftdp(entry: Entry) -> Tuple[Optional[Tuple[float, float]], Optional[str], float]:
    """Recompute an entry with shiftdp's Python API: ((lower, upper), error, seconds)."""
    import shiftdp

    p = entry.p
    t0 = time.perf_counter()
    try:
        kind = entry.kind
        if kind == "gdp":
            mu = entry.params.get("mu", p.mu)
            if entry.quantity == "epsilon":
                iv = shiftdp.epsilon(mu, entry.query["delta"])
            else:
                iv = shiftdp.delta(mu, entry.query["epsilon"])
            return (iv.lower, iv.upper), None, time.perf_counter() - t0
        if kind == "poisson_gaussian":
            assert p.q is not None and p.mu is not None
            comp: Any = shiftdp.PoissonGaussian(p.q, mu=math.nextafter(p.mu, math.inf), count=p.steps)
        elif kind == "symmetrized_cp":
            # the entry is C_p(G(2/σ)) (see its relation_note), μ rounded up
            assert p.q is not None and p.sigma is not None
            comp = shiftdp.SubsampledGaussian(
                p.q, mu=math.nextafter(2.0 / p.sigma, math.inf), count=p.steps
            )
        elif kind in MECHANISM_FAMILIES:
            from .reference import mechanism_component

            comp = mechanism_component(kind, entry.params, p.steps)
        elif kind == "sgm_rdp":
            # steps · D_α (RDP adds over the steps)
            assert p.q is not None and p.sigma is not None and entry.alpha is not None
            d = shiftdp.sgm_rdp(p.q, p.sigma, entry.alpha)
            return (d.lower * p.steps, d.upper * p.steps), None, time.perf_counter() - t0
        elif kind == "sampler":
            # the run's own sampler (the entry's certified interval is sampler_report's)
            pr = entry.params
            r = shiftdp.sampler_report(str(pr["sampler"]), int(pr["n"]), int(pr["batch"]), int(pr["epochs"]),
                                       float(pr["sigma"]), "zero-out", float(entry.query["delta"]))
            return (r.lower, r.upper), None, time.perf_counter() - t0
        else:
            return None, f"shiftdp: no Python recomputation for {kind}", 0.0
        if entry.quantity == "epsilon":
            c = shiftdp.compose([comp], delta=entry.delta)
        else:
            c = shiftdp.compose([comp], epsilon=entry.epsilon)
        return (c.lower, c.upper), None, time.perf_counter() - t0
    except Exception as e:
        return None, f"{type(e).__name__}: {e}", time.perf_counter() - t0
