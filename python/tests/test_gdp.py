"""shiftdp.epsilon / shiftdp.delta against an independent closed form (mpmath)."""

import math
import pickle
from decimal import Decimal

import mpmath as mp
import pytest

import shiftdp
from shiftdp import Interval


def test_acceptance_value():
    iv = shiftdp.epsilon(1, 1e-5)
    assert isinstance(iv, Interval)
    # 1-GDP is (4.37717809568122…, 1e-5)-DP; the upper end is the bound
    assert iv.lower_decimal.startswith("4.377178095681")
    assert iv.upper_decimal.startswith("4.377178095681")
    assert float(iv) == iv.upper
    assert 4.3771780956812 < iv.upper < 4.3771780956813


@pytest.mark.parametrize("mu", ["0.1", "0.5", "1", "3", "10"])
@pytest.mark.parametrize("delta", ["1e-3", "1e-5", "1e-10"])
def test_epsilon_encloses_truth(exact, mu, delta):
    truth = exact.epsilon(mu, delta)
    iv = shiftdp.epsilon(mu, delta)
    assert exact.encloses(iv, truth), (iv, truth)
    assert mp.mpf(iv.upper) >= truth  # the f64 upper end is on the safe side too
    assert mp.mpf(iv.lower) <= truth
    # f64 path: relative width about 1e-11 or better (stated accuracy target)
    assert iv.width <= 1e-10 * max(1.0, iv.upper)


@pytest.mark.parametrize("mu", ["0.5", "2"])
@pytest.mark.parametrize("eps", ["0", "0.5", "3"])
def test_delta_encloses_truth(exact, mu, eps):
    truth = exact.delta(mu, eps)
    iv = shiftdp.delta(mu, eps)
    assert exact.encloses(iv, truth), (iv, truth)
    assert mp.mpf(iv.upper) >= truth


def test_mpfr_precision_is_tight(exact):
    truth = exact.epsilon("1", "1e-5")
    iv = shiftdp.epsilon("1", "1e-5", bits=160)
    assert iv.path == "mpfr-160"
    assert exact.encloses(iv, truth)
    assert mp.mpf(iv.upper_decimal) - mp.mpf(iv.lower_decimal) < mp.mpf("1e-40")


def test_extreme_tail(exact):
    # δ = 1e-1000 is not representable as a float: exact decimal input, MPFR
    mp.mp.dps = 80
    try:
        iv = shiftdp.epsilon(5, "1e-1000", bits=256)
        truth = exact.epsilon(5, mp.mpf("1e-1000"))
        assert exact.encloses(iv, truth, rel=mp.mpf("1e-60"))
    finally:
        mp.mp.dps = 60


def test_inputs_equivalent():
    a = shiftdp.epsilon(1, 1e-5)
    assert shiftdp.epsilon("1", "1e-5") == a
    assert shiftdp.epsilon(Decimal("1"), Decimal("0.00001")) == a
    assert shiftdp.epsilon(1.0, "0.00001") == a


def test_interval_is_picklable_and_readable():
    iv = shiftdp.epsilon(1, 1e-5)
    assert pickle.loads(pickle.dumps(iv)) == iv
    # six significant digits, the upper end rounded up and the lower end down
    assert "≤ 4.37718" in repr(iv) and "≥ 4.37717" in repr(iv) and "width" in str(iv)
    assert "4.3771780956" in iv.upper_decimal
    assert iv.upper in iv


@pytest.mark.parametrize("digits", [1, 3, 6, 10])
def test_readable_rounds_in_the_safe_direction(digits):
    from decimal import Decimal

    from shiftdp._types import readable

    for text in ["4.37717809568129468", "0.000123456789", "9.99999999", "123456789.123", "1e-300",
                 "2.5", "-3.14159265"]:
        up, down = Decimal(readable(text, True, digits)), Decimal(readable(text, False, digits))
        assert down <= Decimal(text) <= up
        assert len(Decimal(up).normalize().as_tuple().digits) <= digits
        assert up - down <= abs(Decimal(text)) * Decimal(10) ** (1 - digits) * 2


@pytest.mark.parametrize(
    "mu, delta, name",
    [
        (-1, 1e-5, "mu"),
        (1, 0, "delta"),
        (1, 1, "delta"),
        (1, 1.5, "delta"),
        (1, -1e-5, "delta"),
        (float("nan"), 1e-5, "mu"),
        (1, float("nan"), "delta"),
        (float("inf"), 1e-5, "mu"),
        (1, float("-inf"), "delta"),
    ],
)
def test_epsilon_bad_input_raises_parameter_error(mu, delta, name):
    with pytest.raises(shiftdp.ParameterError) as ei:
        shiftdp.epsilon(mu, delta)
    assert isinstance(ei.value, ValueError)
    assert isinstance(ei.value, shiftdp.ShiftdpError)
    assert ei.value.name == name


def test_delta_bad_input():
    with pytest.raises(shiftdp.ParameterError):
        shiftdp.delta(-0.5, 1)
    with pytest.raises(shiftdp.ParameterError):
        shiftdp.delta(1, float("nan"))


def test_parse_and_precision_errors():
    with pytest.raises(shiftdp.ParseError) as ei:
        shiftdp.epsilon("one", 1e-5)
    assert ei.value.input == "one"
    with pytest.raises(shiftdp.PrecisionError) as ei:
        shiftdp.epsilon(1, 1e-5, bits=3)
    assert (ei.value.bits, ei.value.min) == (3, 24)
    with pytest.raises(shiftdp.ParameterError):
        shiftdp.epsilon(1, 1e-5, bits=-5)


def test_wrong_types_are_type_errors():
    with pytest.raises(TypeError):
        shiftdp.epsilon(True, 1e-5)
    with pytest.raises(TypeError):
        shiftdp.epsilon([1], 1e-5)
    with pytest.raises(TypeError):
        shiftdp.epsilon(1, 1e-5, bits=64.0)


def test_exception_classes_map_error_variants_one_to_one():
    classes = [
        shiftdp.ParameterError,
        shiftdp.ParseError,
        shiftdp.PrecisionError,
        shiftdp.DomainError,
        shiftdp.NotCertifiedError,
        shiftdp.HypothesisError,
    ]
    assert len(set(classes)) == 6
    for c in classes:
        assert issubclass(c, shiftdp.ShiftdpError)
        assert c.__module__ == "shiftdp"
    assert issubclass(shiftdp.ShiftdpError, ValueError)
    assert math.isfinite(shiftdp.DELTA_FLOOR)


@pytest.mark.parametrize(
    "mu, eps, bits",
    [("1", "38600", None), ("1", "38600", 256), ("0.001", "100", None), ("5e-324", "1", None)],
)
def test_delta_below_mpfr_exponent_range_is_positive(mu, eps, bits):
    # δ(ε) > 0 for every finite ε (DRS22 Cor 2.13); here it lies below MPFR's smallest
    # positive number 2^(emin−1) = 2^(−2³⁰), so that number is the certified upper end
    iv = shiftdp.delta(mu, eps, bits=bits)
    assert iv.upper > 0  # the float end is 5e-324, the smallest positive double
    assert iv.upper == 5e-324
    assert iv.lower <= iv.upper
    up = mp.mpf(iv.upper_decimal)
    assert up > 0
    # log10 2^(1 − 2³⁰ − 1) ≈ −323228496.6: the decimal is that number rounded up
    assert abs(mp.log10(up) - (-(2**30)) * mp.log10(2)) < 1.5
    # Mills: ln δ ≤ −x²/2 − ln(x√(2π)), x = ε/μ − μ/2, is below ln 2^(−2³⁰)
    x = mp.mpf(eps) / mp.mpf(mu) - mp.mpf(mu) / 2
    assert -x * x / 2 - mp.log(x * mp.sqrt(2 * mp.pi)) < -(2**30) * mp.log(2)
