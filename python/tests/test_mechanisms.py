"""The mechanisms beyond the Gaussian (Laplace, discrete Laplace, randomized response,
mixtures of Gaussians, their Poisson-subsampled versions, f_{ε,δ}) through
:func:`shiftdp.compose` and :class:`shiftdp.accounting.CertifiedPLDAccountant`, each
against an independent computation (closed forms and exact atom convolutions written
here with mpmath) or dp_accounting's published test values; the coverage of
dp_accounting's event classes."""

import math

import pytest

import shiftdp

mp = pytest.importorskip("mpmath")


@pytest.fixture(autouse=True)
def _precision():
    # 40 digits for this module's references, restored after each test (mpmath's
    # precision is global: other modules' references rely on their own)
    with mp.workdps(40):
        yield


def eps(components, delta, tol=1e-3):
    return shiftdp.compose(components, delta=delta, tolerance=tol).interval


def dlt(components, epsilon, tol=1e-3):
    return shiftdp.compose(components, epsilon=epsilon, tolerance=tol).interval


@pytest.mark.parametrize("b,sens,e", [(1.0, 1.3, 0.4), (0.5, 1.0, 1.0), (3.0, 1.0, 0.1)])
def test_laplace_one_step_closed_form(b, sens, e):
    # δ(ε) = 1 − e^{(ε − r)/2} for 0 ≤ ε ≤ r = Δ/b (the loss (2x − Δ)/b crosses ε at x*)
    r = mp.mpf(sens) / b
    truth = float(1 - mp.e ** ((e - r) / 2))
    iv = dlt([shiftdp.Laplace(b, sens)], e)
    assert iv.lower <= truth * (1 + 1e-12) and truth * (1 - 1e-12) <= iv.upper
    assert iv.width <= 1e-3 * truth


def test_randomized_response_exact_multinomial():
    # k steps of RR(p, K): losses ±L (L = ln(s/u)) and 0 with Q-masses s, u, (K−2)u
    p, K, k = 0.6, 3, 40
    u = mp.mpf(p) / K
    s = 1 - mp.mpf(p) + u
    L = mp.log(s / u)
    atoms = {}
    for a in range(k + 1):
        for b in range(k + 1 - a):
            c = k - a - b
            m = mp.binomial(k, a) * mp.binomial(k - a, b) * s**a * u**b * ((K - 2) * u) ** c
            atoms[a - b] = atoms.get(a - b, 0) + m
    for e in (5.0, 20.0, 35.0):
        truth = float(sum(m * max(0, 1 - mp.e ** (e - j * L)) for j, m in atoms.items()))
        iv = dlt([shiftdp.RandomizedResponse(p, K, k)], e)
        assert iv.lower <= truth * (1 + 1e-9) + 1e-300 and truth * (1 - 1e-9) <= iv.upper, (e, truth, iv)


def test_discrete_laplace_is_pure_dp_and_exact_at_one_step():
    a, sens = 0.8, 2
    # atoms: x ≤ 0 (loss −aΔ), x = 1 (loss 0), x ≥ 2 (loss aΔ)
    ea = mp.e ** (-a)
    side = 1 / (1 + ea)
    far = side * mp.e ** (-a * sens)
    mid = (1 - ea) / (1 + ea) * ea  # c e^{−a|1|} for both
    for e in (0.2, 1.0):
        truth = float(side * (1 - mp.e ** (e - a * sens)) + mid * max(0, 1 - mp.e**e))
        iv = dlt([shiftdp.DiscreteLaplace(a, sens)], e)
        assert iv.lower <= truth * (1 + 1e-12) and truth * (1 - 1e-12) <= iv.upper
    # pure DP: δ(aΔk) = 0 exactly
    assert dlt([shiftdp.DiscreteLaplace(0.5, 2, 10)], 10.0).upper == 0.0


def test_mixture_of_one_gaussian_is_the_gaussian():
    # MoG(σ, [c], [1]) = G(c/σ): 9 steps of G(1/3) are G(1)
    iv = eps([shiftdp.MixtureOfGaussians(3.0, [1.0], [1.0], 9)], 1e-5)
    truth = float(shiftdp.epsilon(1.0, 1e-5).upper)
    assert iv.lower <= truth + 1e-12 and truth - 1e-12 <= iv.upper and iv.width < 1e-3


def test_mixture_and_poisson_gaussian_agree():
    # MoG(σ, [0, 1], [1 − q, q]) is the Poisson-subsampled Gaussian with μ = 1/σ
    q, sigma, k = 0.02, 1.2, 500
    a = eps([shiftdp.MixtureOfGaussians(sigma, [0.0, 1.0], [1 - q, q], k)], 1e-6)
    b = eps([shiftdp.PoissonGaussian(q, noise_multiplier=sigma, count=k)], 1e-6)
    assert max(a.lower, b.lower) <= min(a.upper, b.upper) + 1e-12


def test_mixed_list_composes():
    comps = [
        shiftdp.PoissonGaussian(0.01, mu=1.0, count=100),
        shiftdp.Laplace(4.0, 1.0, 3),
        shiftdp.RandomizedResponse(0.9, 4, 2),
        shiftdp.MixtureOfGaussians(2.0, [0.0, 1.0], [0.9, 0.1], 50),
        shiftdp.ApproxDp(0.1, 1e-8, 2),
    ]
    iv = eps(comps, 1e-6)
    # at least each part alone, at most the sum of pure ε of the bounded parts plus the rest
    alone = eps([comps[1]], 1e-6)
    assert iv.upper >= alone.lower and math.isfinite(iv.upper)


@pytest.mark.parametrize(
    "bad",
    [
        lambda: shiftdp.Laplace(0.0),
        lambda: shiftdp.Laplace(float("nan")),
        lambda: shiftdp.Laplace(1.0, -1.0),
        lambda: shiftdp.DiscreteLaplace(-1.0, 1),
        lambda: shiftdp.DiscreteLaplace(1.0, 0),
        lambda: shiftdp.RandomizedResponse(0.5, 1),
        lambda: shiftdp.RandomizedResponse(1.5, 3),
        lambda: shiftdp.MixtureOfGaussians(1.0, [0.0, 1.0], [0.5, 0.6]),
        lambda: shiftdp.MixtureOfGaussians(1.0, [0.0, 1.0], [0.5]),
        lambda: shiftdp.MixtureOfGaussians(0.0, [1.0], [1.0]),
        lambda: shiftdp.PoissonLaplace(1.5, 1.0),
        lambda: shiftdp.ApproxDp(-1.0, 0.1),
    ],
)
def test_bad_parameters_are_parameter_errors(bad):
    with pytest.raises(shiftdp.ParameterError):
        eps([bad()], 1e-5)


# -- the accountant -------------------------------------------------------------------

dpa = pytest.importorskip("dp_accounting")
NR = dpa.NeighboringRelation


def acct(events, relation=None):
    from shiftdp.accounting import CertifiedPLDAccountant

    a = CertifiedPLDAccountant() if relation is None else CertifiedPLDAccountant(relation)
    for ev in events:
        a.compose(ev)
    return a


def test_published_poisson_laplace():
    # pld_privacy_accountant_test.py: PoissonSampled(0.2, Laplace(0.5)) × 3 → ε(1e-14) ≈ 2.46964
    ev = dpa.dp_event.PoissonSampledDpEvent(0.2, dpa.dp_event.LaplaceDpEvent(0.5))
    iv = acct([ev, dpa.dp_event.SelfComposedDpEvent(ev, 2)]).get_epsilon_interval(1e-14)
    assert iv.lower - 1e-3 <= 2.46964 <= iv.upper + 1e-3


def test_published_laplace_pure():
    # Laplace(1) × 3 then Laplace(2) × 2: (4, 0)-DP; dp_accounting gives δ(4) = 1e-14
    a = acct([dpa.dp_event.SelfComposedDpEvent(dpa.dp_event.LaplaceDpEvent(1.0), 3), dpa.dp_event.SelfComposedDpEvent(dpa.dp_event.LaplaceDpEvent(2.0), 2)])
    assert a.get_delta(4.0) == 0.0
    for d in (1e-3, 1e-8, 1e-14, 1e-20):
        assert a.get_epsilon(d) <= 4.0


def test_published_mixture_of_gaussians():
    a = acct(
        [
            dpa.dp_event.SelfComposedDpEvent(dpa.dp_event.MixtureOfGaussiansDpEvent(1.0, [0, 1, 2], [0.2, 0.6, 0.2]), 3),
            dpa.dp_event.SelfComposedDpEvent(dpa.dp_event.MixtureOfGaussiansDpEvent(2.0, [0, 2, 3], [0.33, 0.34, 0.33]), 2),
        ]
    )
    iv = a.get_epsilon_interval(1e-6)
    assert iv.lower - 1e-3 <= 17.193115 <= iv.upper + 1e-3


def test_published_truncated_subsampled_gaussian():
    E = dpa.dp_event
    a = acct(
        [
            E.SelfComposedDpEvent(E.TruncatedSubsampledGaussianDpEvent(4, 0.5, 2, 1.0), 3),
            E.SelfComposedDpEvent(E.TruncatedSubsampledGaussianDpEvent(3, 0.5, 2, 1.0), 2),
        ]
    )
    iv = a.get_epsilon_interval(1e-6)
    assert iv.lower - 1e-3 <= 17.904330 <= iv.upper + 1e-3


def test_published_discrete_laplace():
    a = acct([dpa.dp_event.SelfComposedDpEvent(dpa.dp_event.DiscreteLaplaceDpEvent(1.0, 1), 3), dpa.dp_event.SelfComposedDpEvent(dpa.dp_event.DiscreteLaplaceDpEvent(0.5, 1), 2)])
    assert a.get_delta(4.0) == 0.0
    assert a.get_epsilon(1e-12) <= 4.0


def test_randomized_response_counts_every_repetition():
    # dp_accounting's PLDAccountant composes RR once whatever the count; shiftdp composes
    # each repetition: 3 repetitions of the p = 4/(3+e), k = 4 mechanism (ε = 1 each)
    p = 4 / (3 + math.e)
    one = acct([dpa.dp_event.RandomizedResponseDpEvent(p, 4)], NR.REPLACE_ONE)
    three = acct([dpa.dp_event.SelfComposedDpEvent(dpa.dp_event.RandomizedResponseDpEvent(p, 4), 3)], NR.REPLACE_ONE)
    assert one.get_delta(1.0 + 1e-9) == 0.0
    assert three.get_delta(1.0) > 0.1
    assert three.get_delta(3.0 + 1e-9) == 0.0


def test_tiny_delta_where_dp_accounting_returns_inf():
    events = [
        dpa.dp_event.SelfComposedDpEvent(dpa.dp_event.LaplaceDpEvent(2.0), 50),
        dpa.dp_event.SelfComposedDpEvent(dpa.dp_event.LaplaceDpEvent(3.0), 20),
        dpa.dp_event.SelfComposedDpEvent(dpa.dp_event.PoissonSampledDpEvent(0.1, dpa.dp_event.LaplaceDpEvent(1.0)), 50),
    ]
    for ev in events:
        ours = acct([ev]).get_epsilon_interval(1e-20)
        theirs = dpa.pld.PLDAccountant().compose(ev).get_epsilon(1e-20)
        assert math.isfinite(ours.upper) and ours.width < 1e-2, (ev, ours)
        assert not (theirs < ours.lower - 0.05), (ev, ours, theirs)
    # (dp_accounting's mixture-of-Gaussians PLD takes tens of seconds; ours alone)
    mog = dpa.dp_event.SelfComposedDpEvent(dpa.dp_event.MixtureOfGaussiansDpEvent(1.0, [0, 1], [0.9, 0.1]), 50)
    iv = acct([mog]).get_epsilon_interval(1e-20)
    assert math.isfinite(iv.upper) and iv.width < 1e-3


def test_against_dp_accounting_pld():
    # dp_accounting's pessimistic PLD (discretization 1e-4) is not below our lower end by
    # more than its own discretization
    events = [
        dpa.dp_event.SelfComposedDpEvent(dpa.dp_event.LaplaceDpEvent(3.0), 20),
        dpa.dp_event.SelfComposedDpEvent(dpa.dp_event.DiscreteLaplaceDpEvent(0.3, 2), 10),
        dpa.dp_event.SelfComposedDpEvent(dpa.dp_event.MixtureOfGaussiansDpEvent(1.5, [0, 1, 2], [0.5, 0.3, 0.2]), 20),
        dpa.dp_event.SelfComposedDpEvent(dpa.dp_event.PoissonSampledDpEvent(0.05, dpa.dp_event.LaplaceDpEvent(0.5)), 200),
    ]
    for ev in events:
        iv = acct([ev]).get_epsilon_interval(1e-6)
        # (discretization 1e-3 for the mixture: dp_accounting takes ~30 s at 1e-4)
        vdi = 1e-3 if "Mixture" in type(ev.event).__name__ else 1e-4
        theirs = dpa.pld.PLDAccountant(value_discretization_interval=vdi).compose(ev).get_epsilon(1e-6)
        assert theirs >= iv.lower - 0.02, (ev, iv, theirs)
        assert theirs <= iv.upper + 0.05, (ev, iv, theirs)


def test_relations_are_explicit():
    laplace = dpa.dp_event.LaplaceDpEvent(1.0)
    rr = dpa.dp_event.RandomizedResponseDpEvent(0.5, 3)
    from shiftdp.accounting import CertifiedPLDAccountant

    assert CertifiedPLDAccountant(NR.ADD_OR_REMOVE_ONE).supports(laplace)
    assert CertifiedPLDAccountant(NR.REPLACE_SPECIAL).supports(laplace)
    assert not CertifiedPLDAccountant(NR.REPLACE_ONE).supports(laplace)
    assert CertifiedPLDAccountant(NR.REPLACE_ONE).supports(rr)
    assert not CertifiedPLDAccountant(NR.ADD_OR_REMOVE_ONE).supports(rr)
    with pytest.raises(dpa.UnsupportedEventError, match="REPLACE_ONE"):
        CertifiedPLDAccountant().compose(rr)


# every dp_accounting 0.6.0 event class, and whether CertifiedPLDAccountant answers it
COVERAGE = {
    "NoOpDpEvent": lambda: dpa.dp_event.NoOpDpEvent(),
    "NonPrivateDpEvent": lambda: dpa.dp_event.NonPrivateDpEvent(),
    "GaussianDpEvent": lambda: dpa.dp_event.GaussianDpEvent(1.0),
    "LaplaceDpEvent": lambda: dpa.dp_event.LaplaceDpEvent(1.0),
    "DiscreteLaplaceDpEvent": lambda: dpa.dp_event.DiscreteLaplaceDpEvent(1.0, 1),
    "MixtureOfGaussiansDpEvent": lambda: dpa.dp_event.MixtureOfGaussiansDpEvent(1.0, [0, 1], [0.5, 0.5]),
    "SelfComposedDpEvent": lambda: dpa.dp_event.SelfComposedDpEvent(dpa.dp_event.GaussianDpEvent(1.0), 3),
    "ComposedDpEvent": lambda: dpa.dp_event.ComposedDpEvent([dpa.dp_event.GaussianDpEvent(1.0), dpa.dp_event.LaplaceDpEvent(1.0)]),
    "PoissonSampledDpEvent": lambda: dpa.dp_event.PoissonSampledDpEvent(0.1, dpa.dp_event.LaplaceDpEvent(1.0)),
    "TruncatedSubsampledGaussianDpEvent": lambda: dpa.dp_event.TruncatedSubsampledGaussianDpEvent(100, 0.05, 8, 1.0),
}


@pytest.mark.parametrize("name", sorted(COVERAGE))
def test_coverage_add_or_remove(name):
    ev = COVERAGE[name]()
    a = acct([ev])
    e = a.get_epsilon(1e-6)
    assert e >= 0 and (math.isfinite(e) or name == "NonPrivateDpEvent")


def test_coverage_replace_one():
    a = acct(
        [
            dpa.dp_event.RandomizedResponseDpEvent(0.5, 3),
            dpa.dp_event.SampledWithoutReplacementDpEvent(1000, 10, dpa.dp_event.GaussianDpEvent(1.0)),
        ],
        NR.REPLACE_ONE,
    )
    assert math.isfinite(a.get_epsilon(1e-6))


# -- events answered through Rényi DP --------------------------------------------------


def test_zcdp_via_rdp_is_bun_steinke_or_better():
    rho, delta = 0.5, 1e-6
    a = acct([dpa.dp_event.ZCDpEvent(rho)])
    iv = a.get_epsilon_interval(delta)
    assert "via RDP" in iv.path
    assert iv.upper <= rho + 2 * math.sqrt(rho * math.log(1 / delta)) + 1e-9
    # G(μ) is μ²/2-zCDP: its exact ε(δ) lies below the RDP answer
    mu = math.sqrt(2 * rho)
    assert shiftdp.epsilon(mu, delta).upper <= iv.upper
    # and δ(ε) by bisection is consistent
    d = a.get_delta(iv.upper + 1e-6)
    assert d <= delta * 1.0001


def test_zcdp_composes_with_gaussian_and_laplace_in_rdp():
    E = dpa.dp_event
    a = acct([E.ZCDpEvent(0.1), E.GaussianDpEvent(2.0), E.LaplaceDpEvent(5.0)])
    e = a.get_epsilon(1e-6)
    alone = acct([E.ZCDpEvent(0.1)]).get_epsilon(1e-6)
    assert math.isfinite(e) and e > alone
    # dp_accounting's own RDP accountant (floating point) agrees to within its order grid
    theirs = dpa.rdp.RdpAccountant().compose(E.ComposedDpEvent([E.ZCDpEvent(0.1), E.GaussianDpEvent(2.0), E.LaplaceDpEvent(5.0)])).get_epsilon(1e-6)
    assert abs(theirs - e) < 0.1 * theirs, (e, theirs)


def test_tree_aggregation_and_repeat_and_select():
    E = dpa.dp_event
    a = acct([E.SingleEpochTreeAggregationDpEvent(5.0, 1000)], NR.REPLACE_SPECIAL)
    theirs = dpa.rdp.RdpAccountant(neighboring_relation=NR.REPLACE_SPECIAL).compose(E.SingleEpochTreeAggregationDpEvent(5.0, 1000)).get_epsilon(1e-6)
    e = a.get_epsilon(1e-6)
    assert theirs - 1e-3 <= e <= theirs * 1.01 + 1e-3, (e, theirs)
    assert not acct([]).supports(E.SingleEpochTreeAggregationDpEvent(5.0, 1000))
    rs = E.RepeatAndSelectDpEvent(E.GaussianDpEvent(3.0), 10.0, 1.0)
    e = acct([rs]).get_epsilon(1e-6)
    theirs = dpa.rdp.RdpAccountant().compose(rs).get_epsilon(1e-6)
    assert math.isfinite(e) and e >= theirs * 0.9, (e, theirs)


def test_rdp_only_events_refuse_parts_without_a_renyi_curve():
    E = dpa.dp_event
    a = acct([E.MixtureOfGaussiansDpEvent(1.0, [0, 1], [0.5, 0.5])])
    assert not a.supports(E.ZCDpEvent(0.1))
    b = acct([E.ZCDpEvent(0.1)])
    assert not b.supports(E.PoissonSampledDpEvent(0.01, E.GaussianDpEvent(1.0)))
    with pytest.raises(dpa.UnsupportedEventError, match="Rényi"):
        b.compose(E.MixtureOfGaussiansDpEvent(1.0, [0, 1], [0.5, 0.5]))
