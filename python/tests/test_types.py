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
    assert "&lt;a &amp; &#39;b&#39;&gt;" in odd._repr_html_()
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


# -- the components -------------------------------------------------------------------

from fractions import Fraction  # noqa: E402

COMPONENTS = [
    shiftdp.Gaussian(mu=0.5, count=3),
    shiftdp.Gaussian(noise_multiplier=1.1),
    shiftdp.SubsampledGaussian(0.01, noise_multiplier=0.7, count=10),
    shiftdp.PoissonGaussian(0.02, mu=0.8, count=30),
    shiftdp.Laplace(2.0),
    shiftdp.PoissonLaplace(0.1, 2.0, 1.5, 4),
    shiftdp.DiscreteLaplace(0.5, 2, 3),
    shiftdp.RandomizedResponse(0.9, 4, 2),
    shiftdp.MixtureOfGaussians(2.0, [0.0, 1.0], [0.9, 0.1], 5),
    shiftdp.PoissonMixtureOfGaussians(0.1, 2.0, (0.0, 1.0), (0.5, 0.5), 5),
    shiftdp.ApproxDp(0.1, 1e-8, 2),
    shiftdp.TruncatedSubsampledGaussian(1000, 0.01, 20, 1.0, 3),
]


@pytest.mark.parametrize("c", COMPONENTS, ids=lambda c: type(c).__name__)
def test_components_pickle_hash_equality_with_count(c):
    again = pickle.loads(pickle.dumps(c))
    assert type(again) is type(c) and again == c and hash(again) == hash(c) and repr(again) == repr(c)
    more = c.with_count(c.count + 1)
    assert more.count == c.count + 1 and more != c and type(more) is type(c)
    assert more.with_count(c.count) == c and repr(more.with_count(c.count)) == repr(c)
    with pytest.raises(AttributeError):
        c.count = 7  # frozen
    others = [o for o in COMPONENTS if type(o) is not type(c)]
    assert all(o != c for o in others)


def test_component_reprs_are_the_dataclasses():
    assert repr(shiftdp.Laplace(2.0)) == "Laplace(b=2.0, sensitivity=1.0, count=1)"
    assert repr(shiftdp.MixtureOfGaussians(2.0, [0.0, 1.0], [0.9, 0.1], 5)) == (
        "MixtureOfGaussians(sigma=2.0, sensitivities=(0.0, 1.0), probabilities=(0.9, 0.1), count=5)"
    )
    assert repr(shiftdp.DiscreteLaplace(0.5)) == "DiscreteLaplace(a=0.5, sensitivity=1, count=1)"
    assert repr(shiftdp.PoissonGaussian(0.01, noise_multiplier=1.1, count=1000)) == (
        "PoissonGaussian(p=0.01, noise_multiplier=1.1, count=1000)"
    )
    assert repr(shiftdp.Gaussian(mu=0.5)) == "Gaussian(mu=0.5, count=1)"


def test_noise_multiplier_is_kept_but_not_compared():
    a, b = shiftdp.Gaussian(noise_multiplier=2.0), shiftdp.Gaussian(mu=0.5)
    assert a == b and hash(a) == hash(b) and a.noise_multiplier == 2.0 and b.noise_multiplier is None
    assert shiftdp.SubsampledGaussian(0.1, mu=1.0) != shiftdp.PoissonGaussian(0.1, mu=1.0)
    assert shiftdp.PoissonGaussian(0.1, noise_multiplier=2.0, count=3).with_count(5).noise_multiplier == 2.0


@pytest.mark.parametrize("sigma", [1.1, 0.7, 3.0, 1e-3, 12345.678, 5e-324, 1e308, 0.1])
@pytest.mark.parametrize("s", [1.0, 2.0, 3.0])
def test_mu_up_is_the_double_at_or_above_s_over_sigma(sigma, s):
    mu = shiftdp._core.mu_up(sigma, s)
    exact = Fraction(s) / Fraction(sigma)
    if mu == math.inf:
        assert exact > Fraction(2**1023) * (2 - Fraction(1, 2**52))
        return
    assert Fraction(mu) >= exact and Fraction(math.nextafter(mu, 0.0)) < exact


@pytest.mark.parametrize("sigma", [0.0, -1.0, math.nan, math.inf, -math.inf])
def test_mu_up_refuses_a_noise_multiplier_that_is_not_finite_and_positive(sigma):
    with pytest.raises(shiftdp.ParameterError) as e:
        shiftdp._core.mu_up(sigma)
    assert e.value.name == "noise_multiplier"
    with pytest.raises(shiftdp.ParameterError, match="noise_multiplier"):
        shiftdp.PoissonGaussian(0.1, noise_multiplier=sigma)


def test_p_up_is_the_double_at_or_above_m_over_n():
    rng = random.Random(3)
    for _ in range(2000):
        n = rng.randint(1, 2**53 - 1) if rng.random() < 0.5 else rng.randint(1, 10**6)
        m = rng.randint(0, n)
        p = shiftdp._core.p_up(m, n)
        assert Fraction(p) >= Fraction(m, n) and p <= 1.0
        if 0 < p:
            assert Fraction(math.nextafter(p, 0.0)) < Fraction(m, n)
    for m, n in [(1, 0), (3, 2), (1, 2**53)]:
        with pytest.raises(shiftdp.ParameterError):
            shiftdp._core.p_up(m, n)


@pytest.mark.parametrize(
    "build, error, name",
    [
        (lambda: shiftdp.Gaussian(mu="abc"), shiftdp.ParameterError, "mu"),
        (lambda: shiftdp.Gaussian(mu=1.0, count=2**64), shiftdp.ParameterError, "count"),
        (lambda: shiftdp.Gaussian(mu=1.0, count=1.5), shiftdp.ParameterError, "count"),
        (lambda: shiftdp.Gaussian(mu=1.0, count="1e-400"), shiftdp.ParameterError, "count"),
        (lambda: shiftdp.PoissonGaussian([], mu=1.0), TypeError, "p"),
        (lambda: shiftdp.Laplace(True), TypeError, "b"),
        (lambda: shiftdp.Laplace(1.0, count=[1]), TypeError, "count"),
        (lambda: shiftdp.MixtureOfGaussians(1.0, 0.5, [1.0]), TypeError, "sensitivities"),
        (lambda: shiftdp.DiscreteLaplace(0.5, 2.5), shiftdp.ParameterError, "sensitivity"),
    ],
)
def test_a_bad_argument_is_raised_when_composed_or_read(build, error, name):
    """An argument of the wrong type is kept as its error: building never raises (the
    fuzzer builds components with any value), composing, reading the attribute,
    comparing and pickling raise it, naming the argument."""
    c = build()
    with pytest.raises(error, match=name) as e:
        shiftdp.compose([c], delta=1e-5)
    if error is shiftdp.ParameterError:
        assert e.value.name == name
    with pytest.raises(error, match=name):
        getattr(c, name)
    with pytest.raises(error, match=name):
        pickle.dumps(c)


def test_arguments_are_converted_when_built():
    assert shiftdp.Gaussian(mu="0.5") == shiftdp.Gaussian(mu=0.5)
    assert shiftdp.Gaussian(mu=1.0, count=3.0).count == 3
    assert shiftdp.Laplace(decimal.Decimal("0.25")).b == 0.25
    assert shiftdp.MixtureOfGaussians(1.0, [1], (1,)).sensitivities == (1.0,)
    with pytest.raises(TypeError, match="component"):
        shiftdp.compose([("gaussian", [1.0], 1)], delta=1e-5)
    with pytest.raises(TypeError, match="exactly one"):
        shiftdp.Gaussian(mu=None)


def test_each_component_composes_as_its_parameters_say():
    """A component built by its class composes to the interval of the same parameters
    given another way (σ or μ; a mixture with one point mass is a Gaussian)."""
    a = shiftdp.compose([shiftdp.Gaussian(noise_multiplier=0.5, count=4)], delta=1e-5)
    b = shiftdp.compose([shiftdp.Gaussian(mu=2.0, count=4)], delta=1e-5)
    assert a.interval == b.interval
    m = shiftdp.compose([shiftdp.PoissonMixtureOfGaussians(0.05, 1.0, [1.0], [1.0], 50)], delta=1e-5)
    g = shiftdp.compose([shiftdp.PoissonGaussian(0.05, mu=1.0, count=50)], delta=1e-5)
    assert m.lower <= g.upper and g.lower <= m.upper
