"""The result classes of the compiled core (``Interval``, ``Grid``, ``Composed``): their
text forms against a reference written with Python's ``decimal``, equality, hashing,
pickling, and refusals of an interval that encloses nothing."""

import decimal
import math
import pickle
import random

import pytest

import shiftdp
from shiftdp import Composed, Gaussian, Grid, Interval, PoissonGaussian


def reference_readable(text, up, digits=6):
    """The decimal ``text`` rounded to ``digits`` significant digits toward +∞ (``up``)
    or −∞ with Python's ``decimal``, written plainly for leading digits at 10⁻⁵ …
    10^(digits−1), in scientific notation otherwise."""
    try:
        x = decimal.Decimal(text)
    except decimal.InvalidOperation:
        return text
    if not x.is_finite() or x == 0:
        return text
    with decimal.localcontext() as ctx:
        ctx.prec = digits
        ctx.rounding = decimal.ROUND_CEILING if up else decimal.ROUND_FLOOR
        r = +x
    exp = r.adjusted()
    if -5 <= exp < digits:
        out = format(r, "f")
        if "." in out:
            out = out.rstrip("0").rstrip(".")
        return out
    mant, _, e = format(r, "e").partition("e")
    if "." in mant:
        mant = mant.rstrip("0").rstrip(".")
    return f"{mant}e{int(e)}"


def random_decimal(rng):
    digits = "".join(rng.choice("0123456789") for _ in range(rng.randint(1, 25)))
    if rng.random() < 0.3:
        digits = rng.choice(["9999999", "999999", "1000000", "0000123", "100000"]) + digits[:3]
    point = rng.randint(0, len(digits))
    sign = rng.choice(["", "", "-"])
    mant = digits[:point] + "." + digits[point:] if rng.random() < 0.7 else digits
    exp = "" if rng.random() < 0.3 else f"e{rng.randint(-320, 320)}"
    return f"{sign}{mant}{exp}"


def test_readable_rounds_as_decimal_does():
    rng = random.Random(7)
    cases = [random_decimal(rng) for _ in range(20000)]
    cases += ["0", "-0", "0.000", "inf", "nan", "-inf", "1", "999999.5", "-999999.5", "1e-5",
              "9.999995e-6", "123456789", "0.1234565", "5e-324", "1.5e+3"]
    for text in cases:
        for up in (True, False):
            assert shiftdp._core.readable(text, up) == reference_readable(text, up), (text, up)


def test_readable_is_on_the_safe_side():
    rng = random.Random(8)
    for _ in range(5000):
        text = random_decimal(rng)
        x = decimal.Decimal(text)
        if x == 0:
            continue
        assert decimal.Decimal(shiftdp._core.readable(text, True)) >= x
        assert decimal.Decimal(shiftdp._core.readable(text, False)) <= x


def test_interval_text_forms():
    iv = shiftdp.epsilon(1, 1e-5)
    up, lo = iv.upper_readable, iv.lower_readable
    assert up == reference_readable(iv.upper_decimal, True)
    assert lo == reference_readable(iv.lower_decimal, False)
    w = f"{iv.upper - iv.lower:.2g}"
    assert repr(iv) == f"Interval(≤ {up}, ≥ {lo}, width {w}; full decimals in .upper_decimal/.lower_decimal)"
    assert str(iv) == f"≤ {up}  (certified; true value ≥ {lo}, width {w})"
    assert iv._repr_html_() == (
        f"<b>≤ {up}</b> <small>(certified upper bound; true value in [{lo}, {up}], width {w}, "
        f"{iv.path})</small>"
    )
    odd = Interval(0.0, 1.0, "0", "1", "<a & 'b'>")
    assert "&lt;a &amp; &#x27;b&#x27;&gt;" in odd._repr_html_()
    never = Interval(math.inf, math.inf, "inf", "inf", "non-private")
    assert "width nan" in repr(never) and never.upper_readable == "inf"


def test_interval_equality_hash_pickle():
    a = Interval(0.25, 0.5, "0.25", "0.5", "f64")
    b = Interval(lower=0.25, upper=0.5, lower_decimal="0.25", upper_decimal="0.5", path="f64")
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    assert a != Interval(0.25, 0.5, "0.25", "0.5", "mpfr-64")
    assert a != (0.25, 0.5) and a.__eq__("x") is NotImplemented
    assert pickle.loads(pickle.dumps(a)) == a
    assert Interval(1.0, 2.0, "1", "2").path == ""
    assert 0.3 in a and 0.6 not in a and float(a) == 0.5 and a.width == 0.25
    with pytest.raises(AttributeError):
        a.upper = 1.0  # frozen


@pytest.mark.parametrize("lower, upper", [(1.0, 0.5), (math.nan, 1.0), (0.0, math.nan)])
def test_an_interval_that_encloses_nothing_is_refused(lower, upper):
    with pytest.raises(shiftdp.ParameterError, match="lower ≤ upper") as e:
        Interval(lower, upper, "0", "1", "")
    assert e.value.name == "interval"


def test_composed_equality_pickle_text():
    r = shiftdp.compose([PoissonGaussian(0.02, mu=0.8, count=30)], delta=1e-5)
    assert isinstance(r, Composed) and all(isinstance(g, Grid) for g in r.grid)
    again = pickle.loads(pickle.dumps(r))
    assert again == r and again.interval == r.interval and again.grid == r.grid
    assert repr(again) == repr(r) == f"Composed({r.composition}: ε(δ={r.at!r}) {r.interval})"
    g = r.grid[0]
    assert pickle.loads(pickle.dumps(g)) == g and hash(g) == hash(pickle.loads(pickle.dumps(g)))
    assert repr(g).startswith(f"Grid(h={g.h!r}, window={g.window!r}, points={g.points!r}, ")
    with pytest.raises(TypeError):
        hash(r)  # holds a list, as the dataclass did
    html = r._repr_html_()
    assert f"grid h = {g.h:.4g}" in html and r.clt_mu is None and "CLT" not in html
    s = shiftdp.compose([shiftdp.SubsampledGaussian(0.01, mu=1.0, count=100)], delta=1e-5)
    assert s.clt_mu is not None and f"CLT approximation μ ≈ {s.clt_mu:.6g} (not a bound)" in s._repr_html_()
    d = shiftdp.compose([Gaussian(mu=0.5)], epsilon=1.0)
    assert d.quantity == "delta" and d.grid == [] and "no grid" in d._repr_html_()
    assert repr(d).startswith(f"Composed({d.composition}: δ(ε=1.0) ≤ ")
