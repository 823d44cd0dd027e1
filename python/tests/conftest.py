"""Shared helpers: independent closed forms of μ-GDP in mpmath (60 significant digits,
far below the width of any interval checked here)."""

import mpmath as mp
import pytest

mp.mp.dps = 60


def _Phi(x):
    return mp.ncdf(x)


def gdp_delta_exact(mu, eps):
    """δ_μ(ε) = Φ(−ε/μ + μ/2) − e^ε Φ(−ε/μ − μ/2) (Dong, Roth, Su 2022, Cor 2.13)."""
    mu, eps = mp.mpf(mu), mp.mpf(eps)
    return _Phi(-eps / mu + mu / 2) - mp.exp(eps) * _Phi(-eps / mu - mu / 2)


def gdp_epsilon_exact(mu, delta):
    """The ε with δ_μ(ε) = δ, by bisection on the monotone δ_μ (independent of shiftdp's
    root finder)."""
    mu, delta = mp.mpf(mu), mp.mpf(delta)
    lo, hi = mp.mpf(0), mp.mpf(1)
    while gdp_delta_exact(mu, hi) > delta:
        hi *= 2
    for _ in range(400):
        mid = (lo + hi) / 2
        if gdp_delta_exact(mu, mid) > delta:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def encloses(iv, truth, rel=mp.mpf("1e-40")):
    """The interval's decimal ends bracket `truth` (up to mpmath's own error)."""
    lo, hi = mp.mpf(iv.lower_decimal), mp.mpf(iv.upper_decimal)
    slack = abs(truth) * rel
    return lo - slack <= truth <= hi + slack


@pytest.fixture
def exact():
    return type(
        "Exact",
        (),
        {
            "delta": staticmethod(gdp_delta_exact),
            "epsilon": staticmethod(gdp_epsilon_exact),
            "encloses": staticmethod(encloses),
        },
    )
