"""shiftdp.plot: the arrays (certified, monotone, above independent references) and the
notebook representations; the drawing tests run only when matplotlib is installed."""

import math

import mpmath as mp
import pytest

np = pytest.importorskip("numpy")

import shiftdp  # noqa: E402
from shiftdp import Gaussian, PoissonGaussian, SubsampledGaussian  # noqa: E402
from shiftdp.plot import epsilon_vs_steps, tradeoff_curve  # noqa: E402


def test_gaussian_epsilon_vs_steps_encloses_closed_form(exact):
    steps = [1, 4, 16, 64]
    c = epsilon_vs_steps(Gaussian(mu=0.25), steps, delta=1e-5)
    assert c.steps.tolist() == steps and c.upper.dtype == float
    assert np.all(np.diff(c.upper) > 0) and np.all(np.diff(c.lower) > 0)
    for k, lo, up in zip(steps, c.lower, c.upper):
        truth = exact.epsilon(0.25 * math.sqrt(k), "1e-5")  # G(μ)^{⊗k} = G(μ√k)
        assert lo <= truth <= up
    ks, eps = c  # unpacks steps and the certified upper bounds
    assert ks is c.steps and eps is c.upper


def test_poisson_epsilon_vs_steps_monotone_and_above_a_lower_reference():
    steps = [1000, 100, 400, 400]  # any order, duplicates merged
    c = epsilon_vs_steps(PoissonGaussian(0.01, mu=1 / 1.1, count=1), steps, delta=1e-5)
    assert c.steps.tolist() == [100, 400, 1000]
    assert np.all(np.diff(c.upper) > 0)
    assert np.all(c.lower <= c.upper)
    # (the independent lower reference for Poisson is prv-accountant's ε_low, below)
    single = shiftdp.epsilon(1 / 1.1, 1e-5).lower
    assert c.upper[0] < single  # subsampling amplifies: below one unsampled step


def test_poisson_against_prv_accountant_lower_ends():
    prv = pytest.importorskip("prv_accountant")
    c = epsilon_vs_steps(PoissonGaussian(0.04, mu=1 / 1.5), [200, 800], delta=1e-5)
    mech = prv.PoissonSubsampledGaussianMechanism(noise_multiplier=1.5, sampling_probability=0.04)
    ref = prv.PRVAccountant(prvs=mech, max_self_compositions=800, eps_error=1e-2, delta_error=1e-8)
    for k, up in zip(c.steps.tolist(), c.upper):
        low, _, _ = ref.compute_epsilon(delta=1e-5, num_self_compositions=k)
        assert up >= low


def g1(alpha):
    """G(1)(α) = Φ(Φ⁻¹(1 − α) − 1), Φ⁻¹(u) = √2 erfinv(2u − 1), in mpmath."""
    alpha = mp.mpf(alpha)
    if alpha <= 0:
        return mp.mpf(1)
    if alpha >= 1:
        return mp.mpf(0)
    return mp.ncdf(mp.sqrt(2) * mp.erfinv(1 - 2 * alpha) - 1)


def test_tradeoff_curve_is_below_the_gaussian_closed_form():
    t = tradeoff_curve([Gaussian(mu=0.5, count=4)], delta=1e-8, points=100)  # G(1)
    a, b = t
    assert a[0] == 0.0 and np.all(np.diff(a) > 0) and np.all(np.diff(b) <= 0)
    assert np.all((0 <= b) & (b <= 1 - a + 1e-12))
    for x, y in zip(a, b):
        assert y <= g1(x) * (1 + mp.mpf("1e-40"))
    # and close to it (the curve is a certified under-approximation, not a crude one)
    mid = np.searchsorted(a, 0.1)
    assert b[mid] > float(g1(a[mid])) - 0.02
    assert t.orders == 1


def test_tradeoff_curve_of_an_asymmetric_composition():
    t = tradeoff_curve([PoissonGaussian(0.1, mu=1.0, count=3), SubsampledGaussian(0.1, mu=0.5, count=5)])
    assert t.orders == 2 and len(t.alpha) > 3 and "PoissonGaussian" in t.composition


@pytest.mark.parametrize(
    "call, name",
    [
        (lambda: epsilon_vs_steps(Gaussian(mu=1.0), [0, 3], delta=1e-5), "steps"),
        (lambda: epsilon_vs_steps(Gaussian(mu=1.0), [], delta=1e-5), "steps"),
        (lambda: epsilon_vs_steps(Gaussian(mu=1.0), [3], delta=0.0), "delta"),
        (lambda: epsilon_vs_steps(Gaussian(mu=1.0), [3], delta=float("nan")), "delta"),
        (lambda: epsilon_vs_steps(Gaussian(mu=-1.0), [3], delta=1e-5), "mu"),
        (lambda: epsilon_vs_steps(PoissonGaussian(1.5, mu=1.0), [3], delta=1e-5), "p"),
        (lambda: tradeoff_curve([Gaussian(mu=1.0)], points=1), "points"),
        (lambda: tradeoff_curve([Gaussian(mu=1.0)], delta=2.0), "delta"),
        (lambda: tradeoff_curve([SubsampledGaussian(float("nan"), mu=1.0)]), "p"),
    ],
)
def test_bad_input_names_the_parameter(call, name):
    with pytest.raises(shiftdp.ParameterError) as e:
        call()
    assert e.value.name == name


def test_wrong_types():
    with pytest.raises(TypeError):
        epsilon_vs_steps("G(1)", [3], delta=1e-5)
    with pytest.raises(TypeError):
        epsilon_vs_steps(Gaussian(mu=1.0), [2.5], delta=1e-5)


def test_notebook_representations():
    c = epsilon_vs_steps(Gaussian(mu=0.5), [1, 2], delta=1e-5)
    assert "<table>" in c._repr_html_() and "EpsilonCurve" in repr(c)
    r = shiftdp.compose([Gaussian(mu=0.5, count=4)], delta=1e-5)
    h = r._repr_html_()
    assert "G(0.5)" in h and r.interval.upper_readable in h and "not a bound" in h
    a = shiftdp.analyze("cgd", n=60000, batch=1500, epochs=50, eta=1, noise=1, sensitivity=1000, contraction=0.9999)
    assert "★" in a._repr_html_() and a.best.id in a.best._repr_html_()
    na = next(e for e in a.entries if e.epsilon is None)
    assert "not applicable" in na._repr_html_()
    s = shiftdp.schedule(1.0, 1.0, 1.0, steps=4)
    assert "μ ≤ 2<" in s._repr_html_() and s.mu_decimal.startswith("2.000")
    chk = shiftdp.check_claim("mu <= sqrt(t)*L/(b*sigma)", "gd", samples=2)
    assert "pass" in chk._repr_html_()


def test_plots_return_axes():
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from shiftdp.plot import plot_epsilon_vs_steps, plot_tradeoff

    ax = plot_epsilon_vs_steps(Gaussian(mu=0.5), [1, 2, 4], delta=1e-5)
    (line,) = ax.get_lines()
    assert line.get_xdata().tolist() == [1, 2, 4]
    fig, ax2 = plt.subplots()
    assert plot_tradeoff([Gaussian(mu=1.0)], ax=ax2) is ax2
    assert len(ax2.get_lines()) == 2
    plt.close("all")
