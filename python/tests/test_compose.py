"""shiftdp.compose: certified composition, checked against GDP closed forms where the
composition is a Gaussian."""

import math
import threading
import time

import mpmath as mp
import pytest

import shiftdp
from shiftdp import Gaussian, PoissonGaussian, SubsampledGaussian


def test_gaussian_composition_encloses_closed_form(exact):
    # G(0.5)^{⊗4} = G(1)
    r = shiftdp.compose([Gaussian(mu=0.5, count=4)], delta=1e-5)
    truth = exact.epsilon(1, "1e-5")
    assert r.quantity == "epsilon"
    assert r.lower <= truth <= r.upper
    assert r.upper - r.lower < 5e-4
    assert float(r) == r.upper


def test_delta_query_encloses_closed_form(exact):
    r = shiftdp.compose([Gaussian(mu=0.6), Gaussian(mu=0.8)], epsilon=1.0)  # G(1)
    truth = exact.delta(1, 1)
    assert r.quantity == "delta"
    assert r.interval.lower <= truth <= r.interval.upper


def test_poisson_with_p_one_is_the_gaussian(exact):
    r = shiftdp.compose([PoissonGaussian(1.0, mu=1.0, count=1)], delta=1e-5)
    assert r.lower <= exact.epsilon(1, "1e-5") <= r.upper


def test_subsampled_and_heterogeneous():
    r = shiftdp.compose(
        [SubsampledGaussian(0.01, mu=1.0, count=100), Gaussian(mu=0.5), PoissonGaussian(0.02, mu=0.8, count=50)],
        delta=1e-6,
    )
    assert 0 < r.lower <= r.upper < 10
    assert r.clt_mu is None or r.clt_mu > 0
    assert r.orders == 2  # the Poisson component is asymmetric: both orders composed
    # one typed Grid per order: a positive spacing, a window around zero, finite error bounds
    assert len(r.grid) == 2 and all(isinstance(g, shiftdp.Grid) for g in r.grid)
    for g in r.grid:
        assert g.h > 0 and g.window[0] < 0 < g.window[1] and g.points > 1
        assert 0 <= g.fft_l1_error_pess < 1 and 0 <= g.infinity_mass_upper < 1


def test_subsampled_is_monotone_in_count():
    a = shiftdp.compose([SubsampledGaussian(0.01, mu=1.0, count=100)], delta=1e-5)
    b = shiftdp.compose([SubsampledGaussian(0.01, mu=1.0, count=400)], delta=1e-5)
    assert a.upper < b.lower


@pytest.mark.parametrize(
    "comps, kw, name",
    [
        ([PoissonGaussian(1.5, mu=1.0)], {"delta": 1e-5}, "p"),
        ([SubsampledGaussian(-0.1, mu=1.0)], {"delta": 1e-5}, "p"),
        ([Gaussian(mu=-1.0)], {"delta": 1e-5}, "mu"),
        ([Gaussian(mu=float("nan"))], {"delta": 1e-5}, "mu"),
        ([Gaussian(mu=1.0, count=0)], {"delta": 1e-5}, "count"),
        ([Gaussian(mu=1.0)], {"delta": 0.0}, "delta"),
        ([Gaussian(mu=1.0)], {"delta": 1.0}, "delta"),
        ([Gaussian(mu=1.0)], {"delta": float("nan")}, "delta"),
        ([Gaussian(mu=1.0)], {"epsilon": float("inf")}, "epsilon"),
        ([], {"delta": 1e-5}, "components"),
    ],
)
def test_bad_input(comps, kw, name):
    with pytest.raises(shiftdp.ParameterError) as ei:
        shiftdp.compose(comps, **kw)
    assert ei.value.name == name


def test_below_floor_is_answered_by_the_no_amplification_bound():
    """Below the engine's δ floor the answer is the certified no-amplification bound:
    C_p(G(μ)) ≥ G(μ), so ε(δ) of G(1) is an upper end, with a note saying so."""
    c = shiftdp.compose([SubsampledGaussian(0.1, mu=1.0)], delta=1e-200)
    ref = shiftdp.epsilon(1.0, 1e-200)
    assert c.note and "no-amplification" in c.note
    assert ref.lower <= c.upper <= ref.upper * (1 + 1e-12)
    assert 0 <= c.lower <= c.upper


def test_gaussian_lists_use_the_exact_closed_form():
    """G(0.3) ⊗ G(0.4)^⊗3 = G(√(0.09 + 0.48)) exactly: the closed form answers (no grid,
    also below the engine's floor) and agrees with the GDP conversion at that μ."""
    c = shiftdp.compose([Gaussian(mu=0.3), Gaussian(mu=0.4, count=3)], delta=1e-200)
    assert c.method == "gaussian closed form" and c.grid == []
    ref = shiftdp.epsilon(math.sqrt(0.09 + 0.48), 1e-200)
    assert c.lower <= ref.upper and ref.lower <= c.upper
    assert c.upper - c.lower < 1e-9


def test_delta_above_delta_of_zero_is_flagged_not_bracketed():
    """δ ≥ δ(0): (0, δ)-DP holds and ε(δ) is ≤ 0; the result says so."""
    c = shiftdp.compose([SubsampledGaussian(0.00208, mu=0.54, count=5)], delta=4.466e-2)
    assert c.at_zero and c.upper == 0.0
    assert "ε(δ) ≤ 0" in repr(c)
    d = shiftdp.compose([SubsampledGaussian(0.00208, mu=0.54, count=5)], epsilon=0.0)
    assert d.upper <= 4.466e-2


def test_exactly_one_target():
    with pytest.raises(TypeError):
        shiftdp.compose([Gaussian(mu=1.0)])
    with pytest.raises(TypeError):
        shiftdp.compose([Gaussian(mu=1.0)], delta=1e-5, epsilon=1.0)
    with pytest.raises(TypeError):
        shiftdp.compose([(1.0, 2)], delta=1e-5)


def test_long_calls_release_the_interpreter():
    """While a composition runs in another thread, this thread keeps running Python."""
    done = threading.Event()
    result = {}

    def work():
        result["r"] = shiftdp.compose([PoissonGaussian(0.01, mu=0.9, count=10000)], delta=1e-5)
        done.set()

    t = threading.Thread(target=work)
    t0 = time.perf_counter()
    t.start()
    ticks = 0
    while not done.is_set():
        ticks += 1
        time.sleep(0)  # yields; would block for the whole call if the core held the GIL
    t.join()
    elapsed = time.perf_counter() - t0
    assert result["r"].upper > 0
    # thousands of iterations per second of the call, not a handful
    assert ticks > 1000 * elapsed * 0.1, (ticks, elapsed)


def test_kept_composition_answers_other_targets():
    # one composition, several δ: the second query is answered from the kept PLD (same
    # grid), within the tolerance, and overlaps a fresh composition at that δ
    comps = [PoissonGaussian(0.02, mu=0.8, count=3000)]
    shiftdp.clear_kept_composition()
    a = shiftdp.compose(comps, delta=1e-5, tolerance=1e-3)
    assert shiftdp._core.has_kept_composition()
    b = shiftdp.compose(comps, delta=1.2e-5, tolerance=1e-3)
    assert b.grid == a.grid
    assert b.upper <= a.upper and b.upper - b.lower <= 1e-3
    shiftdp.clear_kept_composition()
    assert not shiftdp._core.has_kept_composition()
    c = shiftdp.compose(comps, delta=1.2e-5, tolerance=1e-3)
    assert max(b.lower, c.lower) <= min(b.upper, c.upper)
    # another composition, or another tolerance, is composed afresh
    d = shiftdp.compose([PoissonGaussian(0.02, mu=0.8, count=3001)], delta=1.2e-5, tolerance=1e-3)
    assert d.lower >= c.lower - 1e-3
    e = shiftdp.compose(comps, delta=1.2e-5, tolerance=5e-4)
    assert e.upper - e.lower <= 5e-4


@pytest.mark.parametrize("cls, args", [(Gaussian, ()), (SubsampledGaussian, (0.01,)),
                                       (PoissonGaussian, (0.01,))])
def test_the_noise_is_a_keyword(cls, args):
    """``PoissonGaussian(0.01, 1.1, 1000)`` could mean σ = 1.1 or μ = 1.1: refused with a
    message naming both spellings; exactly one of ``mu=``, ``noise_multiplier=``."""
    with pytest.raises(TypeError, match="noise_multiplier=σ .* mu=μ"):
        cls(*args, 1.1, 1000)
    with pytest.raises(TypeError, match="exactly one"):
        cls(*args, mu=1.0, noise_multiplier=1.0)
    with pytest.raises(TypeError, match="exactly one"):
        cls(*args)
    with pytest.raises(shiftdp.ParameterError, match="noise_multiplier"):
        cls(*args, noise_multiplier=0.0)


@pytest.mark.parametrize("sigma", [1.1, 0.7, 3.0, 1e-3, 12345.678])
def test_noise_multiplier_is_mu_rounded_up(sigma):
    """μ = s/σ (s = 1 add-or-remove, 2 for the replace-one C_p), the double at or above
    the exact quotient and at most one step above it (exact rational arithmetic)."""
    from fractions import Fraction

    for comp, s in [(Gaussian(noise_multiplier=sigma), 1), (PoissonGaussian(0.01, noise_multiplier=sigma), 1),
                    (SubsampledGaussian(0.01, noise_multiplier=sigma), 2)]:
        exact = Fraction(s) / Fraction(sigma)
        assert Fraction(comp.mu) >= exact
        assert Fraction(math.nextafter(comp.mu, 0.0)) < exact
        assert comp.noise_multiplier == sigma and f"noise_multiplier={sigma!r}" in repr(comp)


def test_noise_multiplier_composes_as_its_mu():
    a = shiftdp.compose([PoissonGaussian(0.01, noise_multiplier=1.1, count=1000)], delta=1e-5)
    b = shiftdp.compose([PoissonGaussian(0.01, mu=math.nextafter(1 / 1.1, 1.0), count=1000)], delta=1e-5)
    assert a.interval == b.interval
    # the swap the keyword prevents: μ = 1.1 is σ ≈ 0.909, a much larger ε
    c = shiftdp.compose([PoissonGaussian(0.01, mu=1.1, count=1000)], delta=1e-5)
    assert c.lower > 1.4 * a.upper


def test_ten_deltas_of_one_schedule_compose_once():
    """A heterogeneous schedule plus a final Gaussian release, ε at ten δ: one
    composition (the same grid answers all ten), each width within REUSE_SLACK × the
    tolerance and said so in a note when above it, each interval overlapping a fresh
    composition at its δ."""
    comps = [PoissonGaussian(q, noise_multiplier=s, count=k)
             for q, s, k in [(0.01, 1.1, 2000), (0.02, 1.3, 1000), (0.005, 0.9, 5000)]]
    comps.append(Gaussian(noise_multiplier=5.0))
    tol = 1e-3
    shiftdp.clear_kept_composition()
    answers = [shiftdp.compose(comps, delta=10.0**-k, tolerance=tol) for k in range(3, 13)]
    assert all(a.grid == answers[0].grid for a in answers)
    for a in answers:
        width = a.upper - a.lower
        assert width <= 2 * tol
        assert (width <= tol) or (a.note is not None and "kept" in a.note)
    for k in (3, 12):
        shiftdp.clear_kept_composition()
        fresh = shiftdp.compose(comps, delta=10.0**-k, tolerance=tol)
        kept = answers[k - 3]
        assert max(kept.lower, fresh.lower) <= min(kept.upper, fresh.upper)
    shiftdp.clear_kept_composition()
