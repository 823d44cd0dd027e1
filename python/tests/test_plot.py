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


def _distinct(alpha, beta, digits=3):
    return len({(round(float(a), digits), round(float(b), digits)) for a, b in zip(alpha, beta)})


@pytest.mark.parametrize(
    "components",
    [[Gaussian(mu=1.0)], [PoissonGaussian(0.04, mu=1 / 1.5, count=1000)], [Gaussian(mu=0.25, count=16)]],
)
def test_default_tradeoff_curve_is_smooth_and_below_the_truth(components):
    t = tradeoff_curve(components)  # the default 200 tangent lines
    # enough vertices that stay apart at plotting resolution (was 17 for G(1))
    assert _distinct(t.alpha, t.beta) >= 50
    # resolved into the tails on a log α scale: vertices in every decade down to 1e-5
    for lo in (1e-5, 1e-4, 1e-3, 1e-2):
        assert np.any((t.alpha >= lo) & (t.alpha < 10 * lo)), lo
    if components == [Gaussian(mu=1.0)]:
        for a, b in zip(t.alpha, t.beta):
            assert b <= g1(a) * (1 + mp.mpf("1e-40"))
        # the segments too: midpoints below the (convex) truth
        for i in range(len(t.alpha) - 1):
            m = 0.5 * (t.alpha[i] + t.alpha[i + 1])
            assert 0.5 * (t.beta[i] + t.beta[i + 1]) <= g1(m) * (1 + mp.mpf("1e-40"))


def _legend_texts(ax):
    return [x.get_text() for x in ax.get_legend().get_texts()]


def test_labels_are_in_the_readers_terms():
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from shiftdp.plot import plot_epsilon_vs_steps, plot_tradeoff

    ax = plot_epsilon_vs_steps(PoissonGaussian(0.04, mu=1 / 1.5), [10, 100], delta=1e-5)
    label = ax.get_lines()[0].get_label()
    assert "Poisson q = 0.04" in label and "σ = 1.5" in label and "δ = 1e-5" in label
    assert "certified ε" in label
    texts = " ".join(_legend_texts(ax) + [ax.get_xlabel(), ax.get_ylabel()])
    assert "0.666" not in texts and "1.500000" not in texts and "G(" not in texts
    assert "steps T" in ax.get_xlabel()
    ax = plot_tradeoff([SubsampledGaussian(0.01, noise_multiplier=0.8, count=300)])
    (name,) = [x for x in _legend_texts(ax) if "Id" not in x]
    assert name == "subsampled q = 0.01, σ = 0.8, T = 300"
    plt.close("all")


def test_tradeoff_overlays_share_one_identity_line_and_a_plural_title():
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from shiftdp.plot import plot_tradeoff

    ax = plot_tradeoff([Gaussian(mu=1.0)])
    assert ax.get_title() == "Certified tradeoff curve (lower bound)"
    assert plot_tradeoff([Gaussian(mu=0.5, count=4)], ax=ax) is ax
    plot_tradeoff([Gaussian(mu=2.0)], ax=ax, label="mine")
    texts = _legend_texts(ax)
    assert len(texts) == len(set(texts)) == 4
    assert texts.count("perfect privacy (Id)") == 1
    assert sum(1 for ln in ax.get_lines() if ln.get_label() == "perfect privacy (Id)") == 1
    assert "Gaussian σ = 1" in texts and "Gaussian σ = 2, T = 4" in texts and "mine" in texts
    assert ax.get_title() == "Certified tradeoff curves (lower bounds)"
    plt.close("all")


def test_epsilon_overlays_and_log_y():
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from shiftdp.plot import plot_epsilon_vs_steps

    ax = plot_epsilon_vs_steps(Gaussian(mu=0.01), [1, 10, 100, 1000, 10000], delta=1e-5, log_y=True)
    assert ax.get_yscale() == "log"
    plot_epsilon_vs_steps(Gaussian(mu=0.02), [1, 100, 10000], delta=1e-5, ax=ax)
    texts = _legend_texts(ax)
    assert len(texts) == len(set(texts)) == 3  # two curves and one entry for the bands
    assert plot_epsilon_vs_steps(Gaussian(mu=0.5), [1, 2], delta=1e-5).get_yscale() == "linear"
    plt.close("all")


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
