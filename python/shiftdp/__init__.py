"""shiftdp: certified privacy bounds for noisy gradient methods, from Python.

A thin, typed layer over the Rust library ``shiftdp`` (compiled as ``shiftdp._core``):

* :func:`epsilon` / :func:`delta` — the exact (ε, δ) conversion of μ-GDP, certified;
* :func:`compose` — certified numerical composition of Gaussian, BSA24's symmetrized
  subsampled Gaussian ``C_p(G(μ))`` and the Poisson add-or-remove subsampled Gaussian;
* :func:`analyze` — every bound of the five papers for one run, the best marked (the
  structure of ``shiftdp compare --json``);
* :func:`schedule` — the optimal shift schedule, certified, as numpy arrays;
* :func:`check_claim` — a claimed μ bound checked against exact instances and the
  certified optimum of the shift analysis, with the first counterexample;
* :mod:`shiftdp.accounting` — :class:`~shiftdp.accounting.CertifiedPLDAccountant`, a
  ``dp_accounting.PrivacyAccountant`` returning certified upper ends, and
  :class:`~shiftdp.accounting.CertifiedAccountant`, an accountant with Opacus's interface;
* :mod:`shiftdp.plot` — certified ε-vs-steps and tradeoff curves as numpy arrays, and
  one-call matplotlib plots of them.

Every bound is returned as an :class:`Interval` whose ``upper`` end is the certified
bound (ε, δ, μ rounded up); refusals raise a subclass of :class:`ShiftdpError` (itself a
``ValueError``), one class per variant of the library's ``Error``.

Numbers: a ``str`` or ``decimal.Decimal`` is read as an exact decimal, an ``int``
exactly, and a ``float`` as its shortest round-trip decimal (``1e-5`` is the decimal
10⁻⁵, as typed) — the same reading as the command line.
"""

from __future__ import annotations

import decimal as _decimal
import numbers as _numbers
from typing import Any, Iterable, List, Mapping, Optional, Sequence, Tuple, Union, overload

from . import _core, plot
from ._core import (
    DEFAULT_TOLERANCE,
    Composed,
    Grid,
    Interval,
    DomainError,
    HypothesisError,
    LastIterateResult,
    MemoryLimitError,
    NotCertifiedError,
    PaperResult,
    ParameterError,
    ParseError,
    PrecisionError,
    SamplerBound,
    SamplerReport,
    ShiftdpError,
    results,
)
from ._opacus import SamplerMismatchWarning, detect_sampler, register_with_opacus
from ._types import (
    Analysis,
    Calibration,
    ClaimCheck,
    Counterexample,
    Obligation,
    Schedule,
    Component,
    CompositionCheck,
    Entry,
    Gaussian,
    PoissonGaussian,
    SubsampledGaussian,
    Laplace,
    PoissonLaplace,
    DiscreteLaplace,
    RandomizedResponse,
    MixtureOfGaussians,
    PoissonMixtureOfGaussians,
    ApproxDp,
    TruncatedSubsampledGaussian,
)

__all__ = [
    "DEFAULT_TOLERANCE",
    "plot",
    "epsilon",
    "delta",
    "compose",
    "clear_kept_composition",
    "sgm_rdp",
    "analyze",
    "results",
    "PaperResult",
    "check_claim",
    "schedule",
    "calibrate_dpsgd",
    "exact_mu",
    "calibrate_run",
    "Calibration",
    "Schedule",
    "Interval",
    "ClaimCheck",
    "Obligation",
    "Counterexample",
    "Analysis",
    "Entry",
    "CompositionCheck",
    "Composed",
    "Grid",
    "Component",
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
    "ShiftdpError",
    "ParameterError",
    "ParseError",
    "PrecisionError",
    "DomainError",
    "NotCertifiedError",
    "HypothesisError",
    "MemoryLimitError",
    "set_memory_limit",
    "memory_limit",
    "DELTA_FLOOR",
    "sampler_report",
    "check_sampler_claim",
    "SamplerReport",
    "SamplerBound",
    "LastIterateResult",
    "SamplerMismatchWarning",
    "detect_sampler",
    "register_with_opacus",
]

__version__ = "0.1.0"

def sampler_report(
    sampler: str,
    n: int,
    batch_size: int,
    epochs: int,
    noise_multiplier: float,
    relation: str = "zero-out",
    delta: float = 1e-5,
    drop_last: bool = False,
    tolerance: float = 1e-3,
    loss: Optional[Mapping[str, Number]] = None,
    participations: int = 1,
) -> SamplerReport:
    """Certified ε(δ) of a DP-SGD run (every iterate released) for the batch sampler
    actually used: ``"poisson"``, ``"fixed-size"`` (``b`` of ``n`` without replacement at
    every step), ``"shuffle"`` (a fresh permutation every epoch, PyTorch's
    ``shuffle=True``), ``"shuffle-once"``, ``"balls-in-bins"`` or
    ``"balls-in-bins-persistent"``; ``relation`` ``"zero-out"``, ``"replace-one"`` or
    ``"add-remove"`` (refused for shuffling and fixed-size batches, whose batches depend
    on ``n``). The report's ``[lower, upper]`` holds the true ε: ``upper`` from the best
    analysis valid for the sampler, ``lower`` from explicit neighbouring datasets and
    tests; ``poisson`` is the ε Opacus or dp_accounting report for the same run, and
    ``poisson_below_lower`` says when that number is provably wrong for the sampler.

    ``loss`` declares the losses (``eta``, ``strong_convexity``, ``smoothness``,
    ``contraction``, ``diameter``; convex with gradients of norm ≤ 1, so clipping does
    nothing): the report then also lists every last-iterate (hidden-state) result for
    the algorithm the sampler runs — NoisyCGD for ``"shuffle-once"``, NoisySGD for
    ``"fixed-size"``, under replace-one — in ``last_iterate``, or says in
    ``last_iterate_reason`` why none applies.

    ``participations`` (balls-in-bins only): each record in ``k`` of the ``T = ⌈n·k/b⌉``
    batches of an epoch (random allocation, k of T).

    >>> r = sampler_report("shuffle", n=10_000, batch_size=100, epochs=1, noise_multiplier=1.0)
    >>> r.poisson_below_lower
    True
    """
    pairs = None if loss is None else [(k, _num(v, k)) for k, v in loss.items()]
    return _core.sampler_report(
        sampler, n, batch_size, epochs, noise_multiplier, relation, delta, drop_last, tolerance,
        pairs, participations,
    )


def clear_kept_composition() -> None:
    """Frees the composed PLD that :func:`compose` keeps for the next query of the same
    composition (see there). The next :func:`compose` composes afresh."""
    _core.clear_kept_composition()


def set_memory_limit(size: Union[int, str]) -> int:
    """Sets the process-wide memory limit of every computation whose size follows from
    its input (``shiftdp::memory``): a byte count or a string such as ``"8G"``.
    Above it a computation raises :class:`MemoryLimitError` naming its estimate and the
    limit instead of exhausting memory. Default: ``SHIFTDP_MEMORY_LIMIT`` or 8 GiB.
    Returns the limit now in force, in bytes."""
    return _core.set_memory_limit(size)


def memory_limit() -> int:
    """The memory limit in force, in bytes (see :func:`set_memory_limit`)."""
    return _core.memory_limit()


DELTA_FLOOR: float = _core.DELTA_FLOOR
"""Smallest δ the composition engine certifies (1e-100); :func:`compose` refuses below
it with :class:`NotCertifiedError`. The GDP conversions have no floor."""

Number = Union[str, int, float, _decimal.Decimal]


def _num(x: object, name: str) -> Union[str, float]:
    """A number for the core: exact decimal text, or a float (read by its shortest
    round-trip decimal there; NaN and ±inf are refused there with ParameterError)."""
    if isinstance(x, bool):
        raise TypeError(f"{name}: expected a number, got a bool")
    if isinstance(x, str):
        return x
    if isinstance(x, int):
        return str(x)
    if isinstance(x, _decimal.Decimal):
        return str(x)
    if isinstance(x, float):
        return x
    if isinstance(x, _numbers.Rational):
        raise TypeError(f"{name}: pass a Fraction as a decimal string or Decimal")
    if isinstance(x, _numbers.Real):  # numpy scalars and the like
        return float(x)
    raise TypeError(f"{name}: expected a number (str, int, float, Decimal), got {type(x).__name__}")


def _parameter_error(name: str, x: object, reason: str) -> "ParameterError":
    e = ParameterError(f"invalid {name} = {x!r}: {reason}")
    e.name, e.value, e.reason = name, repr(x), reason
    return e


def _float(x: object, name: str) -> float:
    """A float argument: numbers and numeric strings; anything else is a TypeError, a
    string or integer that is no float a ParameterError naming the argument."""
    if isinstance(x, bool):
        raise TypeError(f"{name}: expected a number, got a bool")
    if isinstance(x, (str, _numbers.Real, _decimal.Decimal)):
        try:
            return float(x)
        except (ValueError, OverflowError) as err:
            raise _parameter_error(name, x, f"not a float ({err})") from None
    raise TypeError(f"{name}: expected a number, got {type(x).__name__}")


def _int(x: object, name: str, hi: int = 2**63 - 1) -> int:
    """A count argument: ints, integral floats and integer strings in [0, ``hi``] (the
    core's unsigned 64-bit range by default); outside it a ParameterError naming the
    argument, not Python's OverflowError."""
    if isinstance(x, bool):
        raise TypeError(f"{name}: expected an int, got a bool")
    if isinstance(x, int):
        v = x
    elif isinstance(x, float):
        if not x.is_integer():
            raise _parameter_error(name, x, "must be an integer")
        v = int(x)
    elif isinstance(x, str):
        try:
            v = int(x)
        except ValueError:
            raise _parameter_error(name, x, "must be an integer") from None
    elif isinstance(x, _numbers.Integral):
        v = int(x)
    else:
        raise TypeError(f"{name}: expected an int, got {type(x).__name__}")
    if not 0 <= v <= hi:
        raise _parameter_error(name, x, f"must be an integer in [0, {hi}]")
    return v


@overload
def _bits(bits: int) -> int: ...
@overload
def _bits(bits: None) -> None: ...
def _bits(bits: Optional[int]) -> Optional[int]:
    if bits is None:
        return None
    if isinstance(bits, bool) or not isinstance(bits, _numbers.Integral):
        raise TypeError(f"bits: expected an int, got {type(bits).__name__}")
    return _int(bits, "bits", hi=2**32 - 1)  # the core refuses outside 24..=2^15 by name


def epsilon(mu: Number, delta: Number, bits: Optional[int] = None) -> Interval:
    """Certified ε(δ) of μ-GDP: the smallest ε with ``δ_μ(ε) ≤ δ``.

    Formula: ``δ_μ(ε) = Φ(−ε/μ + μ/2) − e^ε Φ(−ε/μ − μ/2)`` (Dong, Roth, Su 2022, Cor 2.13;
    docs/conventions.md §3); ε(δ) is its monotone inverse. The returned interval encloses
    the exact ε(δ); ``.upper`` is certified (``δ_μ(upper) ≤ δ`` is checked with directed
    rounding).

    ``bits=None`` uses the f64 path with its stated error model, falling back to MPFR at
    64 bits when it cannot certify 1e-11 relative accuracy (``.path`` says which);
    ``bits=N`` (24 ≤ N ≤ 2¹⁵ = 32768) computes in MPFR at N bits — use it for δ below ~1e-280.

    Raises :class:`ParameterError` (μ < 0, δ ∉ (0, 1), NaN, ±inf), :class:`ParseError`,
    :class:`PrecisionError`.

    >>> float(epsilon(1, 1e-5))  # doctest: +ELLIPSIS
    4.377178095681...
    """
    return _core.gdp_epsilon(_num(mu, "mu"), _num(delta, "delta"), _bits(bits))


def delta(mu: Number, epsilon: Number, bits: Optional[int] = None) -> Interval:
    """Certified δ(ε) of μ-GDP: ``Φ(−ε/μ + μ/2) − e^ε Φ(−ε/μ − μ/2)`` (DRS22 Cor 2.13).

    ``.upper`` is the certified bound. ``bits`` as in :func:`epsilon`. Raises
    :class:`ParameterError` for μ < 0, NaN or ±inf.
    """
    return _core.gdp_delta(_num(mu, "mu"), _num(epsilon, "epsilon"), _bits(bits))


def compose(
    components: Iterable[Component],
    *,
    delta: Optional[float] = None,
    epsilon: Optional[float] = None,
    tolerance: float = _core.DEFAULT_TOLERANCE,
    grid: Optional[int] = None,
) -> Composed:
    """Certified composition ``⊗ f_i^{⊗k_i}`` through privacy-loss distributions.

    Give exactly one of ``delta`` (returns ε(δ)) or ``epsilon`` (returns δ(ε)). Each
    component is discretized pessimistically and optimistically and composed by FFT
    in one pass (one FFT per component, the product of powers, one inverse FFT) with
    certified round-off and aliasing bounds (Koskela et al. 2020; Doroshenko et al.
    2022; Gopi et al. 2021), so the interval encloses the exact value; ``.upper`` is the
    bound. A planner probes a coarse grid and predicts the grid whose interval is
    narrower than ``tolerance`` (absolute for ε, relative for δ) unless ``grid`` (step
    ``2**-grid``) is given. Components may differ (batch size and noise changing over
    training): list each with its own count. Raises :class:`MemoryLimitError` when the
    grid would need more memory than :func:`set_memory_limit` allows. When
    every component is Gaussian the closed form ``G(√Σkᵢμᵢ²)`` is used instead (exact;
    no grid, no δ floor).

    Components: :class:`Gaussian` ``G(μ)``, :class:`SubsampledGaussian` ``C_p(G(μ))``
    (BSA24 Def 4.7, symmetrized), :class:`PoissonGaussian` (Poisson add-or-remove, both
    directions composed), :class:`Laplace`, :class:`PoissonLaplace`,
    :class:`DiscreteLaplace`, :class:`RandomizedResponse`, :class:`MixtureOfGaussians`,
    :class:`PoissonMixtureOfGaussians` (both orders composed where the pair is
    asymmetric), :class:`TruncatedSubsampledGaussian` and :class:`ApproxDp`
    ``f_{ε,δ}``; a list may mix them. Each component's parameters are checked here
    (``ParameterError`` naming the parameter); its noise multiplier when it is built. When every loss is bounded (Laplace, discrete
    Laplace, randomized response and their Poisson-subsampled versions) the pure-DP
    bound ``Σkᵢℓ̄ᵢ`` also applies (``method == "pure dp"`` where it decides). δ must be ≥
    :data:`DELTA_FLOOR` (1e-100).

    Several queries of one composition (ε at several δ, δ at several ε, as an
    accountant is asked) compose once: without ``grid``, the composed PLD of the last
    call is kept and asked first when the components and ``tolerance`` are the same, and
    its certified interval is returned when it is within ``tolerance`` (the PLD was
    planned for the earlier target; otherwise the query is composed afresh and that PLD
    kept instead). The kept PLD holds memory (tens of MB at 10⁵ steps, hundreds at 10⁶)
    until the next composition replaces it or :func:`clear_kept_composition` frees it.

    Raises :class:`ParameterError` (p ∉ [0, 1], μ < 0, count < 1, δ ∉ (0, 1), NaN),
    :class:`NotCertifiedError` (δ below the floor, window too large). Runs on a worker
    thread with the interpreter released; Ctrl-C raises ``KeyboardInterrupt`` at once.
    """
    if (delta is None) == (epsilon is None):
        raise TypeError("compose: give exactly one of delta=… or epsilon=…")
    target, value = ("delta", delta) if delta is not None else ("epsilon", epsilon)
    return _core.compose(components, target, _float(value, target), _float(tolerance, "tolerance"), grid)


def sgm_rdp(
    q: float,
    sigma: float,
    alpha: float,
    bits: Optional[int] = None,
    *,
    order: str = "mixture-base",
) -> Interval:
    """Certified Rényi divergence of order ``alpha`` (α > 1, any real) of the sampled
    Gaussian mechanism with sampling probability ``q`` and noise multiplier ``sigma``
    (sensitivity 1).

    Formula (Mironov, Talwar, Zhang 2019, "Rényi differential privacy of the sampled
    Gaussian mechanism", arXiv:1908.10530, §3): with μ₀ = N(0, σ²), μ₁ = N(1, σ²) and
    μ = (1 − q)μ₀ + qμ₁,

    * ``order="mixture-base"`` (default): ``D_α(μ ‖ μ₀) = log E_{μ₀}[(μ/μ₀)^α]/(α − 1)``
      (MTZ19's A_α; for integer α, ``log Σ_k C(α,k)(1−q)^{α−k} q^k e^{(k²−k)/(2σ²)}/(α−1)``).
      This is the order dp_accounting's ``RdpAccountant`` and Opacus's ``RDPAccountant``
      compute (``_compute_log_a``), and the larger of the two (MTZ19 Thm 5);
    * ``order="base-mixture"``: ``D_α(μ₀ ‖ μ)`` (MTZ19's B_α; AT22's S_α(q, σ)).

    Computed by a certified trapezoidal quadrature with rigorous discretization and tail
    bounds (the binomial sum for integer α in the default order), in MPFR at ``bits``
    (64 when ``None``). ``.upper`` is the certified bound. ``q = 1`` gives α/(2σ²)
    exactly, ``q = 0`` gives 0.

    Raises :class:`ParameterError` (q ∉ [0, 1], σ ≤ 0, α ≤ 1, NaN, ±inf, unknown order),
    :class:`PrecisionError`, :class:`NotCertifiedError` (the quadrature would need too
    many nodes). Runs on a worker thread; Ctrl-C raises ``KeyboardInterrupt``.

    >>> 0.375 in sgm_rdp(1, 2, 3)
    True
    """
    return _core.sgm_rdp(
        _float(q, "q"), _float(sigma, "sigma"), _float(alpha, "alpha"), order, _bits(bits)
    )


_SETTING_KEYS = {
    "n": "n",
    "batch": "batch",
    "steps": "steps",
    "epochs": "epochs",
    "eta": "eta",
    "noise": "noise",
    "sensitivity": "sensitivity",
    "strong_convexity": "strong-convexity",
    "smoothness": "smoothness",
    "contraction": "contraction",
    "diameter": "diameter",
}


def _setting_pairs(caller: str, setting: Mapping[str, Number]) -> List[Tuple[str, Union[str, float]]]:
    """The setting keywords of ``caller`` as (command-line flag, decimal text) pairs;
    a ``TypeError`` names an unknown keyword."""
    pairs = []
    for k, v in setting.items():
        key = _SETTING_KEYS.get(k)
        if key is None:
            raise TypeError(
                f"{caller}: unknown setting {k!r}; expected one of {', '.join(_SETTING_KEYS)}"
            )
        pairs.append((key, _num(v, k)))
    return pairs


def analyze(
    algorithm: str,
    *,
    delta: Number = "1e-5",
    bits: Optional[int] = None,
    **setting: Number,
) -> Analysis:
    """Every bound of the five papers (BSA24 f-DP, the Table 1 RDP curve, CYS21, YS22,
    AT22, composition baselines) for one run, ε at ``delta``, the best valid one marked —
    the rows of ``shiftdp compare ALG --json`` as Python objects.

    ``algorithm`` is ``"gd"``, ``"cgd"``, ``"sgd"`` or ``"lmc"``; the setting keywords are
    the command's setting flags with underscores: ``n``, ``batch``, ``steps`` or
    ``epochs``, ``eta``, ``noise`` (σ), ``sensitivity`` (L), ``strong_convexity`` (m),
    ``smoothness`` (M), ``contraction`` (c), ``diameter`` (D) — parameter model of
    docs/conventions.md §2. A result whose hypothesis fails is an entry with ``reason`` (not
    an exception); an invalid setting raises :class:`ParameterError` / :class:`ParseError`.
    Runs on a worker thread with the interpreter released; Ctrl-C raises
    ``KeyboardInterrupt``.

    Example (BSA24 Table 1, E = 50): ``analyze("cgd", n=60000, batch=1500, epochs=50,
    eta=1, noise=1, sensitivity=1000, contraction=0.9999).best.id == "BSA24 Thm 4.5"``.
    """
    return _core.analyze(algorithm, _setting_pairs("analyze", setting), _num(delta, "delta"), _bits(bits))



def calibrate_dpsgd(
    q: float,
    steps: int,
    epsilon: float,
    *,
    delta: float = 1e-5,
    resolution: float = 1e-3,
) -> Calibration:
    """The smallest noise multiplier σ of DP-SGD (Poisson sampling rate ``q``, ``steps``
    steps, add/remove adjacency, sensitivity 1: μ = 1/σ per step) whose **certified**
    ε(``delta``) — the upper end of the certified PLD composition — is ≤ ``epsilon``.

    Search without rigor, certify with rigor: a bracket and geometric bisection over σ
    in which every probe is a certified composition; the returned σ was evaluated, the σ
    below it by the relative ``resolution`` did not certify the target. Compare Opacus's
    ``get_noise_multiplier``, which searches its own (uncertified) accountant.
    Ctrl-C raises ``KeyboardInterrupt``.
    """
    return _core.calibrate_poisson(
        _float(q, "q"),
        _int(steps, "steps"),
        _float(delta, "delta"),
        _float(epsilon, "epsilon"),
        _float(resolution, "resolution"),
    )


def calibrate_run(
    algorithm: str,
    *,
    epsilon: float,
    delta: Number = "1e-5",
    only: Optional[str] = None,
    resolution: float = 1e-3,
    **setting: Number,
) -> Calibration:
    """The smallest noise σ for which the best certified bound of a run (the hidden-state
    bounds of :func:`analyze`), or the one result ``only`` (e.g. ``"BSA24 Thm 4.5"``),
    gives ε(``delta``) ≤ ``epsilon``. ``setting`` is the run as for :func:`analyze`,
    without ``noise``. ``source`` names the result that certifies the returned σ.
    """
    if "noise" in setting:
        raise TypeError("calibrate_run: leave out `noise`, it is what is calibrated")
    return _core.calibrate_run(
        algorithm, _setting_pairs("calibrate_run", setting), _num(delta, "delta"), _float(epsilon, "epsilon"), only, _float(resolution, "resolution")
    )


def exact_mu(
    algorithm: str,
    *,
    n: int,
    eta: Number,
    noise: Number,
    sensitivity: Number,
    curvature: Number = 0,
    steps: Optional[int] = None,
    epochs: Optional[int] = None,
    batch: Optional[int] = None,
    position: Optional[int] = None,
    bits: int = 128,
) -> "tuple[Interval, Optional[int]]":
    """The exact privacy of a concrete run: NoisyGD (``"gd"``, ``steps``) or cyclic
    NoisyCGD (``"cgd"``, ``batch``, ``epochs``) on the quadratic loss with Hessian
    ``curvature``·I (0: the linear loss), gradient sensitivity L, noise σ, step size η.
    The iterates are Gaussian with equal covariance, so the hidden-state tradeoff is
    exactly G(μ) with μ = L|Δ_t|/√S_t (BSA24 §4; docs/conventions.md §5): the returned
    ``Interval`` encloses μ at ``bits`` bits. For ``"cgd"`` the differing record sits in
    batch ``position`` (0-based), or in the worst batch when None; the position used is
    returned beside μ. Any bound of the papers for the same run must be ≥ this μ.
    """
    ends, pos = _core.exact_mu(
        algorithm,
        _int(n, "n"),
        _num(eta, "eta"),
        _num(noise, "noise"),
        _num(sensitivity, "sensitivity"),
        _num(curvature, "curvature"),
        None if steps is None else _int(steps, "steps"),
        None if epochs is None else _int(epochs, "epochs"),
        None if batch is None else _int(batch, "batch"),
        None if position is None else _int(position, "position"),
        _int(bits, "bits"),
    )
    return ends, pos


def check_claim(
    claim: str,
    family: str,
    *,
    region: Optional[str] = None,
    tolerance: float = 1e-6,
    samples: Optional[int] = None,
    seed: int = 1,
    bits: int = 128,
) -> ClaimCheck:
    """Checks a claimed GDP bound over a setting family (``shiftdp verify --claim``).

    ``claim`` is ``"mu <= EXPR"`` or ``"mu = EXPR"`` with variables n, b, t, E, l, p, eta,
    sigma, L, m, M, c, D, s and functions sqrt, exp, ln, ^, min, max, …; ``family`` one of
    gd, gd-strong, gd-constrained, cgd, cgd-strong, cgd-constrained, sgd, sgd-strong,
    sgd-constrained, lmc. EXPR is evaluated at MPFR precision (``bits``) over
    ``samples`` points of the family's region (deterministic ``seed``; ``region``
    overrides it as ``"KEY=LO..HI,…"``), checked for soundness against exact instances
    and compared with the certified optimum of the shift-schedule problem (``=`` must
    equal it within ``tolerance``; ``<=`` must not be below it).

    Returns a :class:`ClaimCheck` (``.status``, ``.passed``, ``.counterexample``). A
    claim that does not parse or an unknown family raises :class:`ParseError` /
    :class:`ParameterError`.

    >>> check_claim("mu <= sqrt(t)*L/(b*sigma)", "gd", samples=3).passed
    True
    """
    if samples is not None and (isinstance(samples, bool) or not isinstance(samples, int) or samples < 1):
        raise TypeError("samples: expected an int ≥ 1")
    return _core.check_claim(
        claim,
        family,
        region,
        _float(tolerance, "tolerance"),
        None if samples is None else _int(samples, "samples"),
        _int(seed, "seed"),
        _bits(bits),
    )


def check_sampler_claim(
    claim: str,
    sampler: str,
    *,
    relation: str = "zero-out",
    region: Optional[str] = None,
    bits: int = 128,
) -> ClaimCheck:
    """Checks a claimed ``"epsilon <= EXPR"`` for a batch sampler (``shiftdp verify
    --claim … --sampler``): EXPR in sigma, E, T, S (= T·E), b, n (= T·b), q (= b/n) and
    delta, evaluated at MPFR precision at every run of a grid (default σ ∈ {0.5, 0.8, 1,
    2}, E ∈ {1, 2, 5, 10}, T ∈ {10, 100, 1000}, b = 100, δ ∈ {1e-5, 1e-10}; ``region``
    overrides it as ``"sigma=0.5,1 E=1,10 T=10 b=100 delta=1e-5"``). The claim is
    refuted where it lies below a certified lower bound of the sampler (an explicit
    pair of neighbouring datasets and a test violate it: ``.counterexample``), implied
    where it is at least the certified upper bound, open in between (the summary counts
    each).

    >>> check_sampler_claim("epsilon <= sqrt(E)/(sigma*sqrt(T))", "shuffle",
    ...                     region="sigma=1 E=1 T=10 delta=1e-5").passed
    False
    """
    return _core.check_sampler_claim(claim, sampler, relation, region, _bits(bits))


def schedule(
    contraction: Union[float, Sequence[float]],
    sensitivity: Union[float, Sequence[float]],
    noise: Union[float, Sequence[float]],
    *,
    steps: Optional[int] = None,
    diameter: Optional[float] = None,
    tau: Optional[int] = None,
    bits: int = 128,
) -> Schedule:
    """The optimal shift schedule of docs/conventions.md §4 (BSA24 Thm 3.3, AT22
    Props 2.17/3.2/5.6), certified.

    Steps k = τ+1, …, t have contraction c_k, sensitivity s_k and noise ς_k (scalars are
    repeated ``steps`` times; sequences give per-step values). Shifts a_k ≥ 0 with
    ``z_k = c_k z_{k−1} + s_k − a_k ≥ 0`` (k < t), ``z_t = 0`` give ``G(μ)``,
    ``μ² = Σ (a_k/ς_k)²``. The exact KKT solver runs in f64 (τ searched when a
    ``diameter`` D is given, else τ = 0; or the given ``tau``); the returned shifts are
    then certified in MPFR at ``bits`` with directed rounding: ``.mu`` is an upper bound.

    Requires numpy. Raises :class:`ParameterError` for negative or non-finite values,
    mismatched lengths, τ ≥ t.
    """
    import numpy as np

    seqs = [contraction, sensitivity, noise]
    lengths = {len(x) for x in seqs if not isinstance(x, (int, float)) and hasattr(x, "__len__")}
    if steps is None:
        if not lengths:
            raise TypeError("schedule: give steps= when contraction, sensitivity and noise are scalars")
        steps = max(lengths)
    if isinstance(steps, bool) or not isinstance(steps, int):
        raise TypeError("steps: expected an int ≥ 1")
    steps = _int(steps, "steps", hi=10**7)  # the certified schedule's limit
    if steps < 1:
        raise _parameter_error("steps", steps, "must be ≥ 1")

    def vec(x: Any, name: str) -> List[float]:
        if isinstance(x, bool):
            raise TypeError(f"{name}: expected a number or a sequence of numbers")
        if isinstance(x, _numbers.Real):
            return [_float(x, name)] * steps
        return [_float(v, name) for v in x]

    c, s, n = vec(contraction, "contraction"), vec(sensitivity, "sensitivity"), vec(noise, "noise")
    t, mu_dec, mu, est, shifts, gaps, profile = _core.schedule(
        c,
        s,
        n,
        None if diameter is None else _float(diameter, "diameter"),
        None if tau is None else _int(tau, "tau"),
        _bits(bits),
    )
    return Schedule(
        tau=t,
        mu=mu,
        mu_decimal=mu_dec,
        mu_estimate=est,
        shifts=np.asarray(shifts, dtype=float),
        gaps=np.asarray(gaps, dtype=float),
        profile=np.asarray(profile, dtype=float).reshape(-1, 2),
    )


register_with_opacus()
