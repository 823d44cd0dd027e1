"""The findings of PEERS.md, each as a reproducer: ``python -m shiftdp_bench reproduce P2``
prints the peer's value(s) beside shiftdp's certified interval and returns whether the
finding still holds (the command exits 1 when it does not)."""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Optional, Tuple

__all__ = ["Finding", "FINDINGS", "reproduce"]


@dataclass
class Finding:
    id: str
    title: str
    kind: str  # "soundness" | "soundness (rounding-level)" | "usability" | …
    check: Callable[[], bool]


def _quiet() -> Any:
    import numpy as np

    np.seterr(all="ignore")
    warnings.simplefilter("ignore")


def _pld_eps(q: float, sigma: float, steps: int, delta: float, vdi: float) -> float:
    import dp_accounting
    from dp_accounting.pld import PLDAccountant

    a = PLDAccountant(dp_accounting.NeighboringRelation.ADD_OR_REMOVE_ONE, value_discretization_interval=vdi)
    a.compose(dp_accounting.SelfComposedDpEvent(
        dp_accounting.PoissonSampledDpEvent(q, dp_accounting.GaussianDpEvent(sigma)), steps))
    return float(a.get_epsilon(delta))


def _cert_pg(q: float, sigma: float, steps: int, delta: float) -> Tuple[float, float]:
    import shiftdp

    c = shiftdp.compose([shiftdp.PoissonGaussian(q, noise_multiplier=sigma, count=steps)], delta=delta)
    return c.lower, c.upper


def _versions() -> None:
    from importlib.metadata import PackageNotFoundError, version

    vs = []
    for d in ("dp-accounting", "prv-accountant", "opacus", "autodp", "scipy", "shiftdp"):
        try:
            vs.append(f"{d} {version(d)}")
        except PackageNotFoundError:
            vs.append(f"{d} (not installed)")
    print("versions: " + ", ".join(vs))


def p1() -> bool:
    """dp_accounting's PLDAccountant returns ε = inf below δ ≈ 1e-15."""
    _quiet()
    holds = True
    lo, up = _cert_pg(0.01, 2.0, 1500, 9e-16)
    for vdi in (1e-2, 1e-3, 1e-4):
        v = _pld_eps(0.01, 2.0, 1500, 9e-16, vdi)
        print(f"PLDAccountant(vdi={vdi:g}) q=0.01 σ=2 T=1500 ε(δ=9e-16) = {v}   shiftdp certified [{lo:.6f}, {up:.6f}]")
        holds &= math.isinf(v)
    import dp_accounting
    from dp_accounting.pld import PLDAccountant
    import shiftdp

    a = PLDAccountant()
    a.compose(dp_accounting.GaussianDpEvent(2.0))
    v = float(a.get_epsilon(1e-20))
    iv = shiftdp.epsilon("0.5", "1e-20")
    print(f"PLDAccountant() Gaussian σ=2 (μ=0.5) ε(δ=1e-20) = {v}   shiftdp certified [{iv.lower:.12f}, {iv.upper:.12f}]")
    return holds and math.isinf(v)


def p2() -> bool:
    """PLDAccountant at vdi 1e-3 (default truncation) answers below the truth near δ = 1e-14..1e-15."""
    _quiet()
    holds = True
    for d in (1e-14, 1e-15):
        v = _pld_eps(0.01, 2.0, 1500, d, 1e-3)
        lo, up = _cert_pg(0.01, 2.0, 1500, d)
        bad = v < lo
        print(f"PLDAccountant(vdi=1e-3) q=0.01 σ=2 T=1500 ε(δ={d:g}) = {v:.6f}   shiftdp certified "
              f"[{lo:.6f}, {up:.6f}]   {'BELOW the certified lower end' if bad else 'not below'}")
        holds &= bad
    return holds


def p3() -> bool:
    """PLDAccountant's default ε(1e-14) is not monotone in the number of steps."""
    _quiet()
    rows: List[Tuple[int, float]] = []
    for t in (1000, 1100, 1200, 1300, 1400, 1500, 1600):
        v = _pld_eps(0.01, 2.0, t, 1e-14, 1e-4)
        lo, up = _cert_pg(0.01, 2.0, t, 1e-14)
        rows.append((t, v))
        print(f"PLDAccountant() q=0.01 σ=2 T={t} ε(δ=1e-14) = {v:.6f}   shiftdp certified [{lo:.6f}, {up:.6f}]"
              f"{'   BELOW' if v < lo else ''}")
    drops = [(a[0], b[0]) for a, b in zip(rows, rows[1:]) if b[1] < a[1]]
    print(f"decreases between steps: {drops}")
    return bool(drops)


def _prv(q: float, sigma: float, steps: int, delta: float, eps_error: float = 0.1) -> Tuple[Optional[float], str]:
    from prv_accountant import PRVAccountant
    from prv_accountant.privacy_random_variables import PoissonSubsampledGaussianMechanism

    try:
        a = PRVAccountant(prvs=PoissonSubsampledGaussianMechanism(q, sigma), max_self_compositions=steps,
                          eps_error=eps_error, delta_error=delta * 1e-3)
        return float(a.compute_epsilon(delta=delta, num_self_compositions=[steps])[2]), ""
    except Exception as e:
        return None, f"{type(e).__name__}: {str(e)[:90]}"


def p4() -> bool:
    """prv_accountant raises ValueError for δ ≤ 1e-15."""
    _quiet()
    holds = True
    for q, s, t, d, expect_fail in ((0.01, 2.0, 1500, 3e-15, False), (0.01, 2.0, 1500, 1e-15, True),
                                    (0.00033, 4.0, 10000, 1e-14, False), (0.00033, 4.0, 10000, 1.1e-18, True),
                                    (0.00033, 4.0, 10000, 1.13e-18, True)):
        v, err = _prv(q, s, t, d)
        print(f"PRVAccountant(eps_error=0.1) q={q} σ={s} T={t} δ={d:g}: "
              f"{'upper ε = %.6f' % v if v is not None else err}")
        holds &= (v is None) == expect_fail
    lo, up = _cert_pg(0.01, 2.0, 1500, 1e-15)
    print(f"shiftdp certified ε(δ=1e-15) for q=0.01 σ=2 T=1500: [{lo:.6f}, {up:.6f}]")
    return holds


def _below_certified_gdp_epsilon(label: str, v: float, delta: str) -> bool:
    """Prints a peer's ε of 1-GDP at ``delta`` beside shiftdp's certified interval and
    how far below its lower end it lies; True if it is below (the finding reproduces)."""
    import shiftdp

    iv = shiftdp.epsilon("1", delta)
    print(f"{label} = {v!r}\n"
          f"shiftdp.epsilon(1, {delta}) certified [{iv.lower!r}, {iv.upper!r}]  (relative shortfall "
          f"{(iv.lower - v) / iv.lower:.2e})")
    return v < iv.lower


def p5() -> bool:
    """dp_accounting.get_epsilon_gaussian lands (slightly) below the true ε."""
    _quiet()
    from dp_accounting import gaussian_mechanism as gm

    v = float(gm.get_epsilon_gaussian(1.0, 1e-5))
    return _below_certified_gdp_epsilon(
        "dp_accounting.gaussian_mechanism.get_epsilon_gaussian(sigma=1, delta=1e-5)", v, "1e-5"
    )


def p6() -> bool:
    """The scipy closed-form transcription of μ-GDP's ε(δ) lands (slightly) below the true ε."""
    _quiet()
    from .peers import scipy_gdp_epsilon

    v = scipy_gdp_epsilon(1.0, 1e-15)
    return _below_certified_gdp_epsilon(
        "scipy closed form + brentq(xtol=1e-12): ε(μ=1, δ=1e-15)", v, "1e-15"
    )


def p7() -> bool:
    """Opacus's GaussianAccountant (CLT) answers below the truth."""
    _quiet()
    from opacus.accountants import GaussianAccountant

    holds = True
    for q, s, t, d in ((0.01, 2.0, 1500, 1e-5), (0.02, 1.5, 1, 1e-10)):
        a = GaussianAccountant()
        a.history = [(s, q, t)]
        v = float(a.get_epsilon(delta=d))
        lo, up = _cert_pg(q, s, t, d)
        print(f"opacus GaussianAccountant q={q} σ={s} T={t} ε(δ={d:g}) = {v:.6f}   shiftdp certified "
              f"[{lo:.6f}, {up:.6f}]{'   BELOW' if v < lo else ''}")
        holds &= v < lo
    return holds


def p8() -> bool:
    """autodp's Gaussian mechanism ε(δ) lands (slightly) below the true ε."""
    _quiet()
    from autodp import mechanism_zoo

    v = float(mechanism_zoo.GaussianMechanism(sigma=1.0).get_approxDP(1e-15))
    return _below_certified_gdp_epsilon(
        "autodp GaussianMechanism(sigma=1).get_approxDP(1e-15)", v, "1e-15"
    )


def p9() -> bool:
    """dp_accounting's PLDAccountant composes a RandomizedResponseDpEvent once whatever its
    count: ε and δ below the truth for repeated randomized response."""
    _quiet()
    import dp_accounting as dpa
    from dp_accounting.pld import PLDAccountant

    from ..accounting import CertifiedPLDAccountant

    E, NR = dpa.dp_event, dpa.NeighboringRelation
    p = 4 / (3 + math.e)  # ε = 1 per response, k = 4
    ev = E.SelfComposedDpEvent(E.RandomizedResponseDpEvent(p, 4), 3)
    theirs = PLDAccountant(NR.REPLACE_ONE).compose(ev)
    ours = CertifiedPLDAccountant(NR.REPLACE_ONE).compose(ev)
    holds = True
    e_t, e_o = theirs.get_epsilon(1e-6), ours.get_epsilon_interval(1e-6)
    d_t, d_o = theirs.get_delta(1.5), ours.get_delta_interval(1.5)
    print(f"RR(p=4/(3+e), k=4) × 3, REPLACE_ONE: dp_accounting ε(1e-6) = {e_t:.6f}   shiftdp certified "
          f"[{e_o.lower:.6f}, {e_o.upper:.6f}]{'   BELOW' if e_t < e_o.lower else ''}")
    print(f"  δ(1.5): dp_accounting {d_t:.6g}   shiftdp certified [{d_o.lower:.6g}, {d_o.upper:.6g}]"
          f"{'   BELOW' if d_t < d_o.lower else ''}")
    holds &= e_t < e_o.lower and d_t < d_o.lower
    return holds


def p10() -> bool:
    """dp_accounting's PLDAccountant returns ε = inf at δ = 1e-20 for the Laplace, discrete
    Laplace, Poisson-subsampled Laplace and truncated subsampled Gaussian events."""
    _quiet()
    import dp_accounting as dpa
    from dp_accounting.pld import PLDAccountant

    from ..accounting import CertifiedPLDAccountant

    E = dpa.dp_event
    holds = True
    for ev in (
        E.SelfComposedDpEvent(E.LaplaceDpEvent(2.0), 50),
        E.SelfComposedDpEvent(E.DiscreteLaplaceDpEvent(0.5, 2), 50),
        E.SelfComposedDpEvent(E.PoissonSampledDpEvent(0.1, E.LaplaceDpEvent(1.0)), 50),
        E.SelfComposedDpEvent(E.TruncatedSubsampledGaussianDpEvent(100, 0.05, 8, 1.0), 50),
    ):
        t = PLDAccountant().compose(ev).get_epsilon(1e-20)
        o = CertifiedPLDAccountant().compose(ev).get_epsilon_interval(1e-20)
        print(f"{ev.event} × 50: dp_accounting ε(1e-20) = {t}   shiftdp certified [{o.lower:.6f}, {o.upper:.6f}]")
        holds &= math.isinf(t) and math.isfinite(o.upper)
    return holds


def p11() -> bool:
    """dp_accounting builds a mixture-of-Gaussians PLD in tens of seconds (vdi 1e-4)."""
    _quiet()
    import time

    import dp_accounting as dpa
    from dp_accounting.pld import PLDAccountant

    from ..accounting import CertifiedPLDAccountant

    ev = dpa.dp_event.SelfComposedDpEvent(dpa.dp_event.MixtureOfGaussiansDpEvent(1.0, [0, 1], [0.9, 0.1]), 50)
    t0 = time.perf_counter()
    t = PLDAccountant().compose(ev).get_epsilon(1e-6)
    t1 = time.perf_counter()
    o = CertifiedPLDAccountant().compose(ev).get_epsilon_interval(1e-6)
    t2 = time.perf_counter()
    print(f"MoG(σ=1, [0, 1], [0.9, 0.1]) × 50: dp_accounting ε(1e-6) = {t:.6f} in {t1 - t0:.1f} s;   "
          f"shiftdp certified [{o.lower:.6f}, {o.upper:.6f}] in {t2 - t1:.2f} s")
    return t1 - t0 > 10 * (t2 - t1)


def p12() -> bool:
    """dp_accounting's PLDAccountant: after 1000 discrete Laplace steps the composed PMF has a
    negative infinity mass (FFT round-off in the truncated tail); ε below the truth at
    δ = 1e-20, 1e-50 and a negative δ, at the default grid too."""
    _quiet()
    import dp_accounting as dpa
    from dp_accounting.pld import PLDAccountant, privacy_loss_distribution as pld

    import shiftdp

    E = dpa.dp_event
    holds = True
    for a, sens, vdi in ((0.1, 1, 1e-4), (1.0, 1, 1e-2), (0.5, 2, 1e-2)):
        acc = PLDAccountant(value_discretization_interval=vdi)
        acc.compose(E.SelfComposedDpEvent(E.DiscreteLaplaceDpEvent(a, sens), 1000))
        pmf = getattr(getattr(acc, "_pld", None), "_pmf_remove", None)
        inf_mass = getattr(pmf, "_infinity_mass", None)
        print(f"DiscreteLaplaceDpEvent({a:g}, {sens}) × 1000, PLDAccountant(vdi={vdi:g}): infinity mass of the "
              f"composed PMF = {inf_mass!r}")
        for d in (1e-20, 1e-50):
            v = float(acc.get_epsilon(d))
            iv = shiftdp.compose([shiftdp.DiscreteLaplace(a, sens, 1000)], delta=d).interval
            bad = v < iv.lower
            print(f"  ε(δ={d:g}) = {v:.6f}   shiftdp certified [{iv.lower:.6f}, {iv.upper:.6f}]"
                  f"{'   BELOW by %.1f %%' % (100 * (iv.lower - v) / iv.lower) if bad else ''}")
            holds &= bad
        e = round(0.8 * 1000 * a * sens)
        dv = float(acc.get_delta(float(e)))
        print(f"  δ(ε = {e}) = {dv!r}{'   (negative)' if dv < 0 else ''}")
        holds &= dv < 0
    # the same PMF before the accountant composes it into its running PLD: the infinity
    # mass is the truncation bound 1e-15, the answer inf; the self-composition's FFT has
    # left negative probabilities in the tail, whose truncated sum is negative
    alone = pld.from_discrete_laplace_mechanism(parameter=1.0, sensitivity=1, value_discretization_interval=1e-2)
    c = alone.self_compose(1000)
    probs = getattr(getattr(c, "_pmf_remove", None), "_probs", None)
    neg = "" if probs is None else f"; {int((probs < 0).sum())} negative probabilities, the least {probs.min():.2e}"
    v = float(c.get_epsilon_for_delta(1e-20))
    print(f"from_discrete_laplace_mechanism(1, 1, vdi=1e-2).self_compose(1000): ε(1e-20) = {v}{neg}")
    return holds and math.isinf(v)


def p13() -> bool:
    """dp_accounting's PLDAccountant (defaults, connect-the-dots): the truncated subsampled
    Gaussian composed 1000 times answers ε(1e-10) below the certified value of the same
    dominating pair; single steps agree."""
    _quiet()
    import dp_accounting as dpa
    from dp_accounting.pld import PLDAccountant, privacy_loss_distribution as pld

    import shiftdp

    E = dpa.dp_event
    n, q, b, sigma, t = 1000, 0.01, 15, 1.0, 1000
    comp = shiftdp.TruncatedSubsampledGaussian(n, q, b, sigma, t)
    acc = PLDAccountant().compose(E.SelfComposedDpEvent(E.TruncatedSubsampledGaussianDpEvent(n, q, b, sigma), t))
    v = float(acc.get_epsilon(1e-10))
    iv = shiftdp.compose([comp], delta=1e-10, tolerance=1e-5).interval
    print(f"TruncatedSubsampledGaussianDpEvent({n}, {q}, {b}, {sigma}) × {t}, PLDAccountant(): ε(1e-10) = {v:.6f}"
          f"   shiftdp certified [{iv.lower:.6f}, {iv.upper:.6f}]"
          f"{'   BELOW by %.1e relative' % ((iv.lower - v) / iv.lower) if v < iv.lower else ''}")
    e = 12.7817
    dv = float(acc.get_delta(e))
    dv_iv = shiftdp.compose([comp], epsilon=e, tolerance=1e-5).interval
    print(f"  δ(ε = {e}) = {dv:.6e}   shiftdp certified [{dv_iv.lower:.6e}, {dv_iv.upper:.6e}]"
          f"{'   BELOW' if dv < dv_iv.lower else ''}")
    # the same pair without connect-the-dots (dp_accounting's older pessimistic rounding)
    # stays above the certified value
    plain = pld.from_truncated_subsampled_gaussian_mechanism(
        dataset_size=n, sampling_probability=q, truncated_batch_size=b, noise_multiplier=sigma,
        value_discretization_interval=1e-4, use_connect_dots=False).self_compose(t)
    vp = float(plain.get_epsilon_for_delta(1e-10))
    print(f"  use_connect_dots=False (vdi 1e-4): ε(1e-10) = {vp:.6f}{'   (above the certified upper end)' if vp > iv.upper else ''}")
    # one step: dp_accounting's δ(ε) against the certified single-step interval
    one = PLDAccountant().compose(E.TruncatedSubsampledGaussianDpEvent(n, q, b, sigma))
    ok1 = True
    for e1 in (0.2, 2.0, 5.0):
        d1 = float(one.get_delta(e1))
        i1 = shiftdp.compose([shiftdp.TruncatedSubsampledGaussian(n, q, b, sigma)], epsilon=e1, tolerance=1e-6).interval
        ok1 &= d1 >= i1.lower
        print(f"  one step δ(ε = {e1:g}) = {d1:.9e}   shiftdp certified [{i1.lower:.9e}, {i1.upper:.9e}]")
    return v < iv.lower and dv < dv_iv.lower and ok1


def p14() -> bool:
    """prv_accountant raises RuntimeError for the Laplace mechanism composed 1000 times
    (ε₀ = 1/b = 0.5 and 2); at ε₀ = 0.1 it answers."""
    _quiet()
    from prv_accountant import PRVAccountant
    from prv_accountant.privacy_random_variables import LaplaceMechanism

    import shiftdp

    holds = True
    for b, expect_fail in ((2.0, True), (0.5, True), (10.0, False)):
        iv = shiftdp.compose([shiftdp.Laplace(b, 1.0, 1000)], delta=1e-5).interval
        try:
            a = PRVAccountant(prvs=LaplaceMechanism(mu=1 / b), max_self_compositions=1000,
                              eps_error=0.01, delta_error=1e-8)
            v: Any = float(a.compute_epsilon(delta=1e-5, num_self_compositions=[1000])[2])
            out = f"upper ε = {v:.6f}"
        except Exception as e:
            v, out = None, f"{type(e).__name__}: {str(e)[:80]}"
        print(f"PRVAccountant(LaplaceMechanism(mu=1/{b:g})) × 1000, ε(1e-5): {out}   "
              f"shiftdp certified [{iv.lower:.6f}, {iv.upper:.6f}]")
        holds &= (v is None) == expect_fail
    return holds


def p15() -> bool:
    """The Poisson ε dp_accounting reports for a shuffled run (q = 1/T, T·E steps) is
    below shiftdp's certified lower bound for shuffled batches (T = 1000, σ = 1, zero-out,
    δ = 1e-5, one and two epochs)."""
    _quiet()
    import shiftdp

    holds = True
    for epochs in (1, 2):
        t = 1000
        v = _pld_eps(1.0 / t, 1.0, t * epochs, 1e-5, 1e-4)
        r = shiftdp.sampler_report("shuffle", n=100 * t, batch_size=100, epochs=epochs, noise_multiplier=1.0)
        print(f"shuffle, T = {t}, E = {epochs}, σ = 1: dp_accounting PLD (Poisson, vdi 1e-4) ε = {v:.6f}; "
              f"shiftdp certified [{r.lower:.6f}, {r.upper:.6f}] for the shuffled batches")
        holds &= v < r.lower
    return holds


FINDINGS: Dict[str, Finding] = {
    f.id: f
    for f in (
        Finding("P1", "dp_accounting PLDAccountant: ε = inf for δ below ≈ 1e-15 (every grid)", "usability", p1),
        Finding("P2", "dp_accounting PLDAccountant (vdi 1e-3, default truncation): ε below the truth at δ = 1e-14, 1e-15",
                "soundness", p2),
        Finding("P3", "dp_accounting PLDAccountant (defaults): ε(1e-14) not monotone in the number of steps", "usability", p3),
        Finding("P4", "prv_accountant 0.2.0: ValueError for δ ≤ 1e-15 (issue #17's jump now an exception)", "usability", p4),
        Finding("P5", "dp_accounting get_epsilon_gaussian: ε below the true ε by ~4e-15 relative",
                "soundness (rounding-level)", p5),
        Finding("P7", "Opacus GaussianAccountant (CLT, documented experimental): ε below the truth", "soundness", p7),
        Finding("P8", "autodp GaussianMechanism.get_approxDP: ε below the true ε by ~2e-14 relative",
                "soundness (rounding-level)", p8),
        Finding("P6", "scipy closed-form GDP ε(δ) (f64 + brentq): below the true ε by ~4e-15 relative",
                "soundness (rounding-level)", p6),
        Finding("P9", "dp_accounting PLDAccountant: RandomizedResponseDpEvent composed once whatever its count", "soundness", p9),
        Finding("P10", "dp_accounting PLDAccountant: ε = inf at δ = 1e-20 for Laplace, discrete Laplace, "
                "Poisson-subsampled Laplace, truncated subsampled Gaussian", "usability", p10),
        Finding("P11", "dp_accounting PLDAccountant: a mixture-of-Gaussians PLD takes tens of seconds to build", "usability", p11),
        Finding("P12", "dp_accounting PLDAccountant: negative infinity mass after 1000 discrete Laplace steps; "
                "ε below the truth at δ = 1e-20, 1e-50 (up to 43 %) and a negative δ", "soundness", p12),
        Finding("P13", "dp_accounting PLDAccountant (connect-the-dots): truncated subsampled Gaussian × 1000, "
                "ε(1e-10) below the certified value of its own pair (4.5e-5 relative)", "soundness", p13),
        Finding("P14", "prv_accountant 0.2.0: RuntimeError for the Laplace mechanism composed 1000 times (ε₀ = 0.5, 2)",
                "usability", p14),
        Finding("P15", "Opacus / dp_accounting: the Poisson ε reported for shuffled batches is below a certified lower "
                "bound for them", "soundness of the number reported for the run", p15),
    )
}


def reproduce(fid: str) -> bool:
    f = FINDINGS.get(fid)
    if f is None:
        print(f"unknown finding {fid}; known: {', '.join(FINDINGS)}")
        return False
    print(f"== {f.id} ({f.kind}): {f.title}")
    _versions()
    with warnings.catch_warnings():
        try:
            ok = f.check()
        except ImportError as e:
            print(f"cannot run: {e}")
            return False
    print(f"{f.id}: {'REPRODUCES' if ok else 'DOES NOT REPRODUCE'}\n")
    return ok
