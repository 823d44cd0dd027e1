"""shiftdp.schedule: optimal shift schedules, certified, against closed forms."""

import math

import pytest

np = pytest.importorskip("numpy")

import shiftdp  # noqa: E402


def test_convex_unconstrained_is_composition():
    # c = 1, z_0 = 0, z_t = 0: Σ a_k = t s, so μ² = t s²/ς² (BSA24 Thm 4.1), a_k = s
    r = shiftdp.schedule(1.0, 1.0, 1.0, steps=50)
    assert isinstance(r.shifts, np.ndarray) and r.shifts.shape == (50,)
    assert r.tau == 0
    assert math.sqrt(50) <= r.mu <= math.sqrt(50) * (1 + 1e-12)
    assert np.allclose(r.shifts, 1.0)


def test_constrained_convex_optimum():
    # c = 1, s = ς = 1, D = 4, t = 20: best length T = D/s = 4, μ² = (D + T s)²/T = 16
    r = shiftdp.schedule(1.0, 1.0, 1.0, steps=20, diameter=4.0)
    assert r.tau == 16
    assert 4.0 <= r.mu <= 4.0 * (1 + 1e-12)
    assert r.profile.shape[1] == 2


def test_strongly_convex_per_step_and_certified_side():
    c = [0.9] * 30
    r = shiftdp.schedule(c, 1.0, [1.0] * 30)
    assert r.mu >= r.mu_estimate * (1 - 1e-12)
    assert r.mu < math.sqrt(30)  # contraction helps
    assert float(r.mu_decimal) >= r.mu * (1 - 1e-15)
    assert (r.gaps >= 0).all() and r.gaps[-1] == 0


def test_bad_input():
    with pytest.raises(shiftdp.ParameterError):
        shiftdp.schedule(-0.5, 1.0, 1.0, steps=5)
    with pytest.raises(shiftdp.ParameterError):
        shiftdp.schedule(1.0, float("nan"), 1.0, steps=5)
    with pytest.raises(shiftdp.ParameterError):
        shiftdp.schedule([1.0, 1.0], [1.0], [1.0, 1.0])
    with pytest.raises(shiftdp.ParameterError):
        shiftdp.schedule(1.0, 1.0, 1.0, steps=5, tau=5)
    with pytest.raises(TypeError):
        shiftdp.schedule(1.0, 1.0, 1.0)
