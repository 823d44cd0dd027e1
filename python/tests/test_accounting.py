"""shiftdp.accounting.CertifiedPLDAccountant against dp_accounting's own PLD accountant.

Tolerance: dp_accounting's PLD accountant (value_discretization_interval 1e-4,
pessimistic) is accurate to its discretization; its ε must lie within
TOL = 100 × 1e-4 = 0.01 of shiftdp's certified interval.
"""

import math
import pickle
import subprocess
import sys

import pytest

dpa = pytest.importorskip("dp_accounting")

import shiftdp  # noqa: E402
from shiftdp.accounting import CertifiedPLDAccountant  # noqa: E402

TOL = 0.01
NR = dpa.NeighboringRelation


def poisson_event(q=0.01, sigma=1.1, count=10_000):
    return dpa.SelfComposedDpEvent(dpa.PoissonSampledDpEvent(q, dpa.GaussianDpEvent(sigma)), count)


@pytest.fixture(scope="module")
def pair():
    ev = poisson_event()
    ours = CertifiedPLDAccountant().compose(ev)
    theirs = dpa.pld.PLDAccountant().compose(ev)
    return ours, theirs


def test_is_a_privacy_accountant(pair):
    ours, _ = pair
    assert isinstance(ours, dpa.PrivacyAccountant)
    assert ours.neighboring_relation == NR.ADD_OR_REMOVE_ONE


def test_acceptance_poisson_1e4_at_1e5(pair):
    ours, theirs = pair
    iv = ours.get_epsilon_interval(1e-5)
    assert 5.1926 in iv
    assert ours.get_epsilon(1e-5) == iv.upper
    dp = theirs.get_epsilon(1e-5)
    assert iv.lower - TOL <= dp <= iv.upper + TOL, (dp, iv)


@pytest.mark.parametrize("delta", [1e-15, 1e-20])
def test_small_delta_certified_where_dp_accounting_is_not(pair, delta):
    ours, theirs = pair
    iv = ours.get_epsilon_interval(delta)
    assert math.isfinite(iv.upper) and iv.upper < 20
    dp = theirs.get_epsilon(delta)
    # dp_accounting's own PLD accountant returns inf here (its grid truncates the tail)
    assert math.isinf(dp), dp


def test_delta_query_agrees(pair):
    ours, theirs = pair
    iv = ours.get_delta_interval(5.0)
    dp = theirs.get_delta(5.0)
    assert ours.get_delta(5.0) == iv.upper
    assert iv.lower * 0.99 <= dp <= iv.upper * 1.01 + 1e-12, (dp, iv)


def test_gaussian_and_composed_events(exact):
    g = dpa.SelfComposedDpEvent(dpa.GaussianDpEvent(2.0), 4)  # G(1/2)^{⊗4} = G(1)
    ours = CertifiedPLDAccountant().compose(g)
    iv = ours.get_epsilon_interval(1e-5)
    assert iv.lower <= exact.epsilon(1, "1e-5") <= iv.upper
    ev = dpa.ComposedDpEvent(
        [dpa.GaussianDpEvent(3.0), dpa.NoOpDpEvent(), poisson_event(0.02, 1.0, 500)]
    )
    for rel in (NR.ADD_OR_REMOVE_ONE,):
        ours = CertifiedPLDAccountant(rel)
        assert ours.supports(ev)
        ours.compose(ev, 2)
        theirs = dpa.pld.PLDAccountant(rel).compose(ev, 2)
        iv = ours.get_epsilon_interval(1e-6)
        assert iv.lower - TOL <= theirs.get_epsilon(1e-6) <= iv.upper + TOL


@pytest.mark.parametrize("rel, mu", [(NR.REPLACE_ONE, 2.0), (NR.REPLACE_SPECIAL, 1.0), (NR.ADD_OR_REMOVE_ONE, 1.0)])
def test_gaussian_under_each_relation(exact, rel, mu):
    # dp_accounting's noise multiplier is relative to the add/remove sensitivity:
    # replace-one moves the mean by twice it, so G(2/σ)
    ours = CertifiedPLDAccountant(rel).compose(dpa.GaussianDpEvent(1.0), 3)
    theirs = dpa.pld.PLDAccountant(rel).compose(dpa.GaussianDpEvent(1.0), 3)
    iv = ours.get_epsilon_interval(1e-5)
    assert iv.lower <= exact.epsilon(mu * 3**0.5, "1e-5") * (1 + 1e-9) and iv.upper >= exact.epsilon(mu * 3**0.5, "1e-5") * (1 - 1e-9)
    assert iv.lower - TOL <= theirs.get_epsilon(1e-5) <= iv.upper + TOL


def test_refusals_are_explicit():
    ev = poisson_event(count=10)
    acc = CertifiedPLDAccountant(NR.REPLACE_ONE)
    assert not acc.supports(ev)
    with pytest.raises(dpa.UnsupportedEventError, match="ADD_OR_REMOVE_ONE"):
        acc.compose(ev)
    acc = CertifiedPLDAccountant()
    swr = dpa.SampledWithoutReplacementDpEvent(1000, 10, dpa.GaussianDpEvent(1.0))
    assert not acc.supports(swr)
    with pytest.raises(dpa.UnsupportedEventError, match="SampledWithoutReplacementDpEvent"):
        acc.compose(swr)
    assert not acc.supports(dpa.LaplaceDpEvent(1.0))
    assert not acc.supports(dpa.PoissonSampledDpEvent(0.1, dpa.LaplaceDpEvent(1.0)))
    with pytest.raises(dpa.UnsupportedEventError):
        acc.compose(dpa.PoissonSampledDpEvent(1.5, dpa.GaussianDpEvent(1.0)))
    with pytest.raises(dpa.UnsupportedEventError):
        acc._compose(dpa.GaussianDpEvent(-1.0))


def test_trivial_events_and_bad_delta():
    acc = CertifiedPLDAccountant()
    assert acc.get_epsilon(1e-5) == 0.0
    acc.compose(dpa.NoOpDpEvent())
    assert acc.get_epsilon(1e-5) == 0.0
    with pytest.raises(shiftdp.ParameterError):
        acc.get_epsilon(0.0)
    acc.compose(dpa.GaussianDpEvent(1.0))
    with pytest.raises(shiftdp.ParameterError):
        acc.get_epsilon(float("nan"))
    with pytest.raises(shiftdp.ParameterError):
        acc.get_epsilon(2.0)
    acc.compose(dpa.NonPrivateDpEvent())
    assert math.isinf(acc.get_epsilon(1e-5))
    assert acc.get_delta(1.0) == 1.0


def test_picklable():
    acc = CertifiedPLDAccountant().compose(dpa.GaussianDpEvent(1.0))
    again = pickle.loads(pickle.dumps(acc))
    assert again.get_epsilon(1e-5) == acc.get_epsilon(1e-5)


def test_package_imports_without_dp_accounting():
    code = (
        "import sys; sys.modules['dp_accounting'] = None\n"
        "import shiftdp, shiftdp.accounting\n"
        "print(shiftdp.epsilon(1, 1e-5).upper)\n"
        "try:\n"
        "    shiftdp.accounting.CertifiedPLDAccountant\n"
        "except ImportError as e:\n"
        "    print('ImportError', 'pip install dp-accounting' in str(e))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split()[1:] == ["ImportError", "True"], out.stdout
