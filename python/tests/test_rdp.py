"""shiftdp.sgm_rdp: the certified Rényi divergence of the sampled Gaussian mechanism,
against an independent mpmath quadrature (both orders) and the closed forms."""

import mpmath as mp
import pytest

import shiftdp


def _mp_rdp(q: float, sigma: float, alpha: float, order: str) -> mp.mpf:
    """D_α by mpmath quadrature of E_{μ0}[r^p], r = μ/μ0 = 1 − q + q e^{(2z−1)/(2σ²)}."""
    with mp.workdps(40):
        q_, s, a = mp.mpf(q), mp.mpf(sigma), mp.mpf(alpha)
        p = a if order == "mixture-base" else 1 - a

        def f(z):
            r = 1 - q_ + q_ * mp.exp((2 * z - 1) / (2 * s * s))
            return mp.npdf(z, 0, s) * r**p

        pts = [-mp.inf] + [k * s for k in range(-12, 13, 2)] + [a + 10 * s, mp.inf]
        pts = sorted(set(pts))
        return mp.log(mp.quad(f, pts)) / (a - 1)


@pytest.mark.parametrize(
    "q,sigma,alpha",
    [(0.01, 2.5, 1.5), (0.01, 2.5, 5), (0.1, 1.0, 2.5), (0.2, 0.8, 3), (0.05, 1.5, 10.5), (0.5, 2.0, 32)],
)
@pytest.mark.parametrize("order", ["mixture-base", "base-mixture"])
def test_sgm_rdp_matches_mpmath(q, sigma, alpha, order):
    iv = shiftdp.sgm_rdp(q, sigma, alpha, order=order)
    ref = _mp_rdp(q, sigma, alpha, order)
    assert iv.lower <= iv.upper
    # the certified interval is tight (relative width ≪ 1e-12) and contains the quadrature
    # up to the quadrature's own accuracy
    assert float(ref) == pytest.approx(iv.upper, rel=1e-10)
    assert (iv.upper - iv.lower) <= 1e-12 * iv.upper


def test_sgm_rdp_mixture_base_is_the_larger_order():
    for alpha in (1.5, 2, 8):
        a = shiftdp.sgm_rdp(0.1, 1.0, alpha, order="mixture-base")
        b = shiftdp.sgm_rdp(0.1, 1.0, alpha, order="base-mixture")
        assert a.lower >= b.upper


def test_sgm_rdp_closed_forms():
    assert 3 / 8 in shiftdp.sgm_rdp(1, 2, 3)  # q = 1: α/(2σ²)
    assert shiftdp.sgm_rdp(0, 2, 3).upper == 0


def test_sgm_rdp_refusals():
    with pytest.raises(shiftdp.ParameterError):
        shiftdp.sgm_rdp(0.1, 1.0, 1.0)
    with pytest.raises(shiftdp.ParameterError):
        shiftdp.sgm_rdp(1.5, 1.0, 2.0)
    with pytest.raises(shiftdp.ParameterError):
        shiftdp.sgm_rdp(0.1, 1.0, 2.0, order="sideways")
    with pytest.raises(shiftdp.ParameterError):
        shiftdp.sgm_rdp(0.1, float("nan"), 2.0)


def test_bench_reference_rdp_matches_dp_accounting_integer_orders():
    """dp_accounting's _compute_log_a (the peers' order) at integer α lies in our interval
    up to its float rounding."""
    rdp = pytest.importorskip("dp_accounting.rdp.rdp_privacy_accountant")
    for q, sigma, alpha in [(0.01, 2.5, 5), (0.01, 2.5, 50), (0.1, 1.0, 8)]:
        iv = shiftdp.sgm_rdp(q, sigma, alpha)
        v = float(rdp._compute_rdp_poisson_subsampled_gaussian(q, sigma, [alpha])[0])
        assert v == pytest.approx(iv.upper, rel=1e-9)
