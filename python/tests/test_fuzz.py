"""Fuzzing the public Python API: every function, called with values at and
beyond every boundary (0, negative, subnormal, ±1e400-style overflow, NaN, ±inf, huge
integers, empty and malformed strings, wrong types), either returns a result without
NaN or raises a ``ShiftdpError`` (a ``ValueError``) or ``TypeError`` — never another
exception, never a crash of the interpreter, never a NaN in a returned bound.

Seeded (``SHIFTDP_FUZZ_SEED``, default 1) and bounded (``SHIFTDP_FUZZ_CASES`` calls per
function, default 40) so that it runs in the suite; raise both for a longer run."""

import math
import os
import random
import sys

import pytest

import shiftdp
from shiftdp import Gaussian, PoissonGaussian, SubsampledGaussian

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "campaign"))
from shiftdp_campaign.walk import floats_in  # noqa: E402  (campaign/, standard library only)

SEED = int(os.environ.get("SHIFTDP_FUZZ_SEED", "1"))
CASES = int(os.environ.get("SHIFTDP_FUZZ_CASES", "40"))

EXTREME = [0, 0.0, -1, -0.0, 5e-324, 1e-300, 1e300, float("inf"), float("-inf"), float("nan"),
           2**64, -(2**63), "1e400", "-1e400", "", "abc", "1e-400", "nan", None, [], "0.1.2"]


def plausible(rng, lo, hi):
    """A log-uniform value in [lo, hi]."""
    return math.exp(rng.uniform(math.log(lo), math.log(hi)))


def value(rng, lo, hi, integer=False):
    """A plausible value 80 % of the time, an extreme one otherwise."""
    if rng.random() < 0.8:
        x = plausible(rng, lo, hi)
        return max(1, int(round(x))) if integer else x
    return rng.choice(EXTREME)


def call(fn, *args, **kwargs):
    try:
        r = fn(*args, **kwargs)
    except (shiftdp.ShiftdpError, TypeError) as e:
        assert str(e), f"{fn.__name__}: an error without a message"
        return None
    bad = [x for x in floats_in(r) if math.isnan(x)]
    assert not bad, f"{fn.__name__}{args}{kwargs} returned NaN: {r!r}"
    return r


def test_shiftdp_errors_are_value_errors():
    assert issubclass(shiftdp.ShiftdpError, ValueError)


@pytest.mark.parametrize("fn", [shiftdp.epsilon, shiftdp.delta])
def test_gdp_conversions(fn):
    rng = random.Random(SEED)
    for _ in range(CASES):
        bits = rng.choice([None, None, 64, 256, 0, -5, 10**6, 2**40, "x"])
        call(fn, value(rng, 1e-3, 1e3), value(rng, 1e-12, 0.5), bits=bits)


@pytest.fixture
def one_gib_memory_limit():
    """The memory limit at 1 GiB for one test, restored after it: a fuzzed tolerance of 0
    sends the planner to its finest grid within the limit, and 1 GiB proves the same
    property (an answer without NaN, or an error with a message) at half the memory of
    the planner's own cap of 2²⁴ points per order."""
    before = shiftdp.memory_limit()
    shiftdp.set_memory_limit("1G")
    try:
        yield
    finally:
        shiftdp.set_memory_limit(before)


@pytest.mark.usefixtures("one_gib_memory_limit")
def test_compose():
    rng = random.Random(SEED + 1)
    for _ in range(CASES // 2):
        parts = []
        for _ in range(rng.randint(0, 3)):
            kind = rng.choice([Gaussian, SubsampledGaussian, PoissonGaussian])
            count = value(rng, 1, 300, integer=True)
            if kind is Gaussian:
                parts.append(Gaussian(mu=value(rng, 1e-2, 2), count=count))
            else:
                noise = rng.choice(["mu", "noise_multiplier"])
                parts.append((kind, value(rng, 1e-3, 0.5), {noise: value(rng, 0.2, 3), "count": count}))
        target = rng.choice(["delta", "epsilon"])
        kw = {target: value(rng, 1e-12, 0.5) if target == "delta" else value(rng, 1e-2, 10)}

        def compose(parts, **kw):
            # a bad noise multiplier is refused when the component is built
            built = [p if not isinstance(p, tuple) else p[0](p[1], **p[2]) for p in parts]
            return shiftdp.compose(built, **kw)

        compose.__name__ = "compose"
        call(compose, parts, tolerance=rng.choice([5e-4, 5e-4, 0, -1, float("nan")]), **kw)


def test_analyze_and_calibrate_run():
    rng = random.Random(SEED + 2)
    for _ in range(CASES // 4):
        alg = rng.choice(["gd", "cgd", "lmc", "xyz", ""])
        setting = dict(
            n=value(rng, 2, 50, integer=True),
            steps=value(rng, 1, 60, integer=True),
            eta=value(rng, 1e-3, 1),
            sensitivity=value(rng, 1e-2, 2),
        )
        if alg == "cgd":
            setting["batch"] = 1
        if alg != "lmc":
            setting["noise"] = value(rng, 0.3, 10)
        if rng.random() < 0.5:
            setting["contraction"] = value(rng, 1e-3, 0.999)
        if rng.random() < 0.3:
            setting["diameter"] = value(rng, 1e-2, 10)
        if alg == "lmc":
            setting["strong_convexity"] = value(rng, 1e-2, 1)
            setting["smoothness"] = value(rng, 1, 2)
        a = call(shiftdp.analyze, alg, delta=value(rng, 1e-10, 1e-2), **setting)
        if a is not None:
            best = a.best
            assert best is None or best.epsilon is None or best.epsilon.upper >= 0
        if alg == "gd" and rng.random() < 0.3:
            setting.pop("noise", None)
            call(shiftdp.calibrate_run, alg, epsilon=value(rng, 0.5, 20), **setting)


def test_calibrate_dpsgd():
    rng = random.Random(SEED + 3)
    for _ in range(max(2, CASES // 10)):
        call(
            shiftdp.calibrate_dpsgd,
            value(rng, 1e-3, 0.1),
            value(rng, 1, 300, integer=True),
            value(rng, 0.5, 10),
            delta=value(rng, 1e-10, 1e-3),
        )


def test_exact_mu_schedule_and_claims():
    rng = random.Random(SEED + 4)
    for _ in range(CASES // 2):
        call(
            shiftdp.exact_mu,
            rng.choice(["gd", "cgd", "sgd", "zzz"]),
            n=value(rng, 1, 20, integer=True),
            eta=value(rng, 1e-3, 1),
            noise=value(rng, 0.1, 10),
            sensitivity=value(rng, 1e-2, 2),
            curvature=value(rng, 1e-3, 1),
            steps=value(rng, 1, 50, integer=True),
        )
        t = value(rng, 1, 200, integer=True)
        call(
            shiftdp.schedule,
            value(rng, 1e-3, 0.999),
            value(rng, 1e-2, 2),
            value(rng, 0.1, 10),
            steps=t,
            diameter=rng.choice([None, value(rng, 1e-2, 10)]),
        )
        claim = rng.choice(["mu <= sqrt(t)*L/(n*sigma)", "mu = ", "mu <= (((", "mu <= L/0",
                            "eps <= 1", "mu <= exp(1e400)", ""])
        call(shiftdp.check_claim, claim, rng.choice(["gd", "cgd-strong", "nope"]), samples=2)
