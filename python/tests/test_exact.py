"""Exact instances from Python: closed forms of the linear and quadratic instances, the
paper bounds dominate them, bad input raises."""
import math

import pytest

import shiftdp


def test_linear_gd_is_the_composition_value():
    # linear loss: every step adds the same shift, μ = √t · L/(nσ) exactly (DRS22)
    mu, pos = shiftdp.exact_mu("gd", n=10, steps=100, eta="0.1", noise=2, sensitivity=1)
    assert pos is None
    want = math.sqrt(100) * 1 / (10 * 2)
    assert mu.lower <= want <= mu.upper and mu.upper - mu.lower < 1e-15


def test_quadratic_gd_matches_thm_4_2_and_bounds_dominate():
    # c = 1 − ηh = 0.9: Thm 4.2 (reading adopted) is attained by the quadratic instance
    c, t = 0.9, 50
    mu, _ = shiftdp.exact_mu("gd", n=1, steps=t, eta=1, noise=1, sensitivity=1, curvature="0.1")
    want = math.sqrt((1 - c**t) / (1 + c**t) * (1 + c) / (1 - c))
    assert abs(mu.upper - want) < 1e-9 * want
    a = shiftdp.analyze("gd", n=1, steps=t, eta=1, noise=1, sensitivity=1, contraction="0.9")
    bound = a.entry("BSA24 Thm 4.2").epsilon.upper
    assert bound >= shiftdp.epsilon(mu.lower, "1e-5").lower


def test_cgd_worst_position_is_reported_and_dominated_by_thm_4_5():
    mu, pos = shiftdp.exact_mu(
        "cgd", n=40, batch=10, epochs=5, eta=1, noise=1, sensitivity=1, curvature="0.1"
    )
    assert pos in range(4)
    each = [
        shiftdp.exact_mu("cgd", n=40, batch=10, epochs=5, eta=1, noise=1, sensitivity=1,
                         curvature="0.1", position=p)[0].upper
        for p in range(4)
    ]
    assert mu.upper == max(each)
    a = shiftdp.analyze("cgd", n=40, batch=10, epochs=5, eta=1, noise=1, sensitivity=1, contraction="0.9")
    assert a.entry("BSA24 Thm 4.5").epsilon.upper >= shiftdp.epsilon(mu.lower, "1e-5").lower


@pytest.mark.parametrize(
    "kw",
    [
        dict(noise=-1),
        dict(noise=float("nan")),
        dict(eta=0),
        dict(steps=0),
        dict(steps=10**7),
        dict(curvature=-1),
    ],
)
def test_bad_input_raises(kw):
    args = dict(n=10, steps=10, eta=1, noise=1, sensitivity=1)
    args.update(kw)
    with pytest.raises(shiftdp.ShiftdpError):
        shiftdp.exact_mu("gd", **args)
