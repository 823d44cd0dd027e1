"""Noise calibration: the returned σ certifies the target through an independent call
(compose / analyze at that σ), σ just below does not, bad input raises."""
import math

import pytest

import shiftdp


def test_dpsgd_sigma_certifies_and_below_does_not():
    c = shiftdp.calibrate_dpsgd(0.05, 100, 1.0, delta=1e-5, resolution=1e-2)
    assert c.epsilon <= 1.0
    assert c.sigma_below < c.sigma <= c.sigma_below * (1 + 1e-2) + 1e-12
    # recompute with the composition API at μ = 1/σ rounded up
    mu = math.nextafter(1.0 / c.sigma, math.inf)
    r = shiftdp.compose([shiftdp.PoissonGaussian(0.05, mu=mu, count=100)], delta=1e-5)
    assert r.interval.upper <= 1.0
    # at the width goal the calibration reports, compose certifies the same ε
    assert c.tolerance is not None and 0 < c.tolerance <= shiftdp.DEFAULT_TOLERANCE
    r = shiftdp.compose([shiftdp.PoissonGaussian(0.05, mu=mu, count=100)], delta=1e-5, tolerance=c.tolerance)
    assert r.interval.upper <= c.epsilon * (1 + 1e-12)
    # 10 % less noise cannot meet the target: its certified lower end exceeds it
    r = shiftdp.compose([shiftdp.PoissonGaussian(0.05, noise_multiplier=0.9 * c.sigma, count=100)], delta=1e-5)
    assert r.interval.lower > 1.0
    assert float(c) == c.sigma and "σ" in c._repr_html_()


def test_run_calibration_meets_the_target_in_analyze():
    setting = dict(n=1000, steps=100, eta=0.1, sensitivity=2, strong_convexity=0.5, smoothness=1)
    c = shiftdp.calibrate_run("gd", epsilon=1.0, delta=1e-5, **setting)
    assert c.source == "BSA24 Thm 4.2"
    a = shiftdp.analyze("gd", delta=1e-5, noise=repr(c.sigma), **setting)
    assert a.best.epsilon.upper <= 1.0
    only = shiftdp.calibrate_run("gd", epsilon=1.0, only="BSA24 Thm 4.1", **setting)
    # composition is looser than Thm 4.2: it needs more noise
    assert only.sigma > c.sigma and only.source == "BSA24 Thm 4.1"


@pytest.mark.parametrize(
    "call",
    [
        lambda: shiftdp.calibrate_dpsgd(1.5, 10, 1.0),
        lambda: shiftdp.calibrate_dpsgd(0.1, 10, 0.0),
        lambda: shiftdp.calibrate_dpsgd(0.1, 10, float("nan")),
        lambda: shiftdp.calibrate_dpsgd(0.1, 10, 1.0, delta=0.0),
        lambda: shiftdp.calibrate_run("gd", epsilon=1.0, only="no such result", n=10, steps=5, eta=1, sensitivity=1),
    ],
)
def test_bad_input_raises_parameter_error(call):
    with pytest.raises(shiftdp.ParameterError):
        call()


def test_noise_is_refused_in_run_calibration():
    with pytest.raises(TypeError):
        shiftdp.calibrate_run("gd", epsilon=1.0, noise=1, n=10, steps=5, eta=1, sensitivity=1)
