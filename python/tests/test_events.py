"""The event → component mapping of the accountants (``shiftdp._core.map_event``, one
Rust function for dp_accounting's events and Opacus's steps): the components it builds,
its roundings checked exactly (μ = s/σ and p = m/n rounded up, with ``fractions``), its
refusals, and the accountants' compositions built from it."""

import math
import pickle
from fractions import Fraction

import pytest

import shiftdp
from shiftdp._core import map_event

dpa = pytest.importorskip("dp_accounting")
NR = dpa.NeighboringRelation
ev = dpa.dp_event


def read(event):
    from shiftdp.dp_accounting import _read

    return _read(event)


def mapped(event, relation="ADD_OR_REMOVE_ONE", count=1):
    return map_event(read(event), relation, count)


def rounded_up(x, exact):
    """``x`` is the double at or above ``exact`` (the first one)."""
    return Fraction(x) >= exact and Fraction(math.nextafter(x, 0.0)) < exact


@pytest.mark.parametrize("sigma", [1.1, 0.7, 3.0, 1e-3, 12345.678])
def test_gaussian_events_round_mu_up(sigma):
    for relation, s in [("ADD_OR_REMOVE_ONE", 1), ("REPLACE_SPECIAL", 1), ("REPLACE_ONE", 2)]:
        c = mapped(dpa.GaussianDpEvent(sigma), relation, 3).component
        assert type(c) is shiftdp.Gaussian and c.count == 3
        assert rounded_up(c.mu, Fraction(s) / Fraction(sigma))
    p = mapped(dpa.PoissonSampledDpEvent(0.01, dpa.GaussianDpEvent(sigma)), count=7).component
    assert p == shiftdp.PoissonGaussian(0.01, noise_multiplier=sigma, count=7)
    assert rounded_up(p.mu, 1 / Fraction(sigma)) and p.noise_multiplier == sigma


@pytest.mark.parametrize("n, m", [(60000, 256), (3, 1), (10, 10), (2**53 - 1, 12345)])
def test_sampling_without_replacement_rounds_p_and_mu_up(n, m):
    ev = dpa.SampledWithoutReplacementDpEvent(n, m, dpa.GaussianDpEvent(1.3))
    part = mapped(ev, "REPLACE_ONE", 4)
    c = part.component
    assert type(c) is shiftdp.SubsampledGaussian and c.count == 4
    assert rounded_up(c.p, Fraction(m, n)) or (c.p == 1.0 and m == n)
    assert rounded_up(c.mu, Fraction(2) / Fraction(1.3))
    assert part.convention == shiftdp.accounting.SWOR_CONVENTION


def test_components_are_the_ones_built_by_hand():
    """Each event maps to the component the classes build from its parameters."""
    cases = [
        (dpa.LaplaceDpEvent(2.0), "ADD_OR_REMOVE_ONE", shiftdp.Laplace(2.0, 1.0, 5)),
        (dpa.PoissonSampledDpEvent(0.1, dpa.LaplaceDpEvent(2.0)), "ADD_OR_REMOVE_ONE",
         shiftdp.PoissonLaplace(0.1, 2.0, 1.0, 5)),
        (ev.DiscreteLaplaceDpEvent(0.5, 2), "REPLACE_SPECIAL", shiftdp.DiscreteLaplace(0.5, 2, 5)),
        (ev.RandomizedResponseDpEvent(0.3, 4), "REPLACE_ONE", shiftdp.RandomizedResponse(0.3, 4, 5)),
        (ev.MixtureOfGaussiansDpEvent(2.0, [0.0, 1.0], [0.9, 0.1]), "ADD_OR_REMOVE_ONE",
         shiftdp.MixtureOfGaussians(2.0, [0.0, 1.0], [0.9, 0.1], 5)),
        (dpa.PoissonSampledDpEvent(0.2, ev.MixtureOfGaussiansDpEvent(2.0, [1.0], [1.0])),
         "ADD_OR_REMOVE_ONE", shiftdp.PoissonMixtureOfGaussians(0.2, 2.0, [1.0], [1.0], 5)),
        (ev.TruncatedSubsampledGaussianDpEvent(1000, 0.01, 20, 1.0), "ADD_OR_REMOVE_ONE",
         shiftdp.TruncatedSubsampledGaussian(1000, 0.01, 20, 1.0, 5)),
    ]
    if hasattr(ev, "EpsilonDeltaDpEvent"):
        cases.append((ev.EpsilonDeltaDpEvent(0.5, 1e-6), "ADD_OR_REMOVE_ONE", shiftdp.ApproxDp(0.5, 1e-6, 5)))
    for event, relation, want in cases:
        got = mapped(event, relation, 5).component
        assert type(got) is type(want) and got == want and repr(got) == repr(want), event
        assert pickle.loads(pickle.dumps(got)) == want


def test_nothing_non_private_and_rdp_parts():
    assert mapped(dpa.GaussianDpEvent(0.0)).non_private
    assert mapped(dpa.PoissonSampledDpEvent(0.0, dpa.GaussianDpEvent(1.0))).component is None
    assert mapped(dpa.GaussianDpEvent(1.0), count=0).component is None
    assert mapped(ev.RandomizedResponseDpEvent(0.3, 1), "REPLACE_ONE").component is None
    z = mapped(ev.ZCDpEvent(0.5, 0.0))
    assert z.component is None and z.rdp == ("zcdp", [0.5, 0.0])
    r = mapped(ev.RepeatAndSelectDpEvent(dpa.GaussianDpEvent(2.0), 3.0, 1.0), "REPLACE_ONE")
    kind, (mean, shape, mu) = r.rdp
    assert kind == "repeat_and_select_gaussian" and (mean, shape) == (3.0, 1.0) and mu == 1.0


@pytest.mark.parametrize(
    "event, relation, error, words",
    [
        (dpa.GaussianDpEvent(-1.0), "ADD_OR_REMOVE_ONE", shiftdp.ParameterError, "noise_multiplier"),
        (dpa.GaussianDpEvent(float("nan")), "ADD_OR_REMOVE_ONE", shiftdp.ParameterError, "noise_multiplier"),
        (dpa.PoissonSampledDpEvent(1.5, dpa.GaussianDpEvent(1.0)), "ADD_OR_REMOVE_ONE",
         shiftdp.ParameterError, "sampling_probability"),
        (dpa.PoissonSampledDpEvent(0.1, dpa.GaussianDpEvent(1.0)), "REPLACE_ONE",
         shiftdp.NotCertifiedError, "ADD_OR_REMOVE_ONE"),
        (dpa.LaplaceDpEvent(1.0), "REPLACE_ONE", shiftdp.NotCertifiedError, "REPLACE_SPECIAL"),
        (ev.DiscreteLaplaceDpEvent(1.0, 0), "ADD_OR_REMOVE_ONE", shiftdp.ParameterError, "sensitivity"),
        (ev.MixtureOfGaussiansDpEvent(1.0, [0.0, 1.0], [0.5, 0.6]), "ADD_OR_REMOVE_ONE",
         shiftdp.ParameterError, "sum to 1"),
        (ev.UnsupportedDpEvent(), "ADD_OR_REMOVE_ONE", shiftdp.NotCertifiedError, "does not support"),
    ],
)
def test_refusals_name_the_attribute_or_the_relation(event, relation, error, words):
    with pytest.raises(error, match=words):
        mapped(event, relation)


@pytest.mark.parametrize(
    "step, name",
    [((-1.0, 0.1), "noise_multiplier"), ((math.inf, 0.1), "noise_multiplier"),
     ((1.0, 1.5), "sample_rate"), ((1.0, math.nan), "sample_rate")],
)
def test_opacus_steps_are_mapped_by_the_same_function(step, name):
    sigma, q = step
    with pytest.raises(shiftdp.ParameterError) as e:
        map_event(("OpacusStep", {"noise_multiplier": sigma, "sample_rate": q}), "ADD_OR_REMOVE_ONE", 1)
    assert e.value.name == name
    good = map_event(("OpacusStep", {"noise_multiplier": 1.1, "sample_rate": 0.01}), "ADD_OR_REMOVE_ONE", 9)
    assert good.component == mapped(dpa.PoissonSampledDpEvent(0.01, dpa.GaussianDpEvent(1.1)), count=9).component


def test_the_accountants_compose_the_mapped_components():
    from shiftdp.accounting import CertifiedAccountant, CertifiedPLDAccountant

    acc = CertifiedPLDAccountant()
    acc.compose(dpa.SelfComposedDpEvent(dpa.PoissonSampledDpEvent(0.01, dpa.GaussianDpEvent(1.1)), 100))
    acc.compose(dpa.PoissonSampledDpEvent(0.01, dpa.GaussianDpEvent(1.1)), 50)
    assert acc._components() == [shiftdp.PoissonGaussian(0.01, noise_multiplier=1.1, count=150)]
    opacus = CertifiedAccountant()
    for _ in range(150):
        opacus.step(noise_multiplier=1.1, sample_rate=0.01)
    assert opacus.components().components == acc._components()
    assert opacus.get_epsilon(1e-5) == acc.get_epsilon(1e-5)
