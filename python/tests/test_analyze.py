"""shiftdp.analyze: every bound for a run, as `shiftdp compare --json`."""

import pickle

import pytest

import shiftdp

TABLE1 = dict(n=60000, batch=1500, epochs=50, eta=1, noise=1, sensitivity=1000, contraction=0.9999)


@pytest.fixture(scope="module")
def table1():
    return shiftdp.analyze("cgd", delta=1e-5, **TABLE1)


def test_table1_best_is_thm_4_5(table1):
    best = table1.best
    assert best is not None and best.id == "BSA24 Thm 4.5"
    assert best.paper == "BSA24" and best.kind == "f-DP"
    assert best.epsilon.upper <= 4.3392  # BSA24 Table 1 prints 4.34
    assert best.epsilon.upper > 4.339
    assert table1.best_id == best.id
    assert sum(e.best for e in table1.entries) == 1


def test_table1_other_columns(table1):
    assert 30.50 < table1.entry("BSA24 Thm 4.4").epsilon.upper < 30.52  # GDP composition
    assert 5.82 < table1.entry("BSA24 Table 1 RDP").epsilon.upper < 5.83  # RDP
    for e in table1.entries:
        if e.epsilon is not None:
            assert e.epsilon.upper >= best_upper(table1) or not e.eligible_for_best
            assert e.conversion
            assert e.reason is None


def best_upper(a):
    return a.best.epsilon.upper


def test_inapplicable_entries_name_the_hypothesis(table1):
    e = table1.entry("BSA24 Thm 4.6")
    assert e is not None and e.epsilon is None and not e.applicable
    assert e.reason_kind == "HypothesisError"
    assert e.hypothesis and "diameter" in e.hypothesis
    assert "does not apply" in e.reason


def test_structure_matches_compare_json(table1):
    for e in table1.entries:
        for field in ("id", "paper", "kind", "title", "epsilon", "conversion", "reason", "best"):
            assert hasattr(e, field)
    assert "n = 60000" in table1.setting
    assert table1.delta == "1e-5"
    assert len(table1) == len(list(table1))


def test_picklable_and_readable(table1):
    assert pickle.loads(pickle.dumps(table1)) == table1
    assert "* BSA24 Thm 4.5" in repr(table1)
    assert "<table>" in table1._repr_html_()


def test_bad_settings():
    with pytest.raises(shiftdp.ParameterError) as ei:
        shiftdp.analyze("cgd", **{**TABLE1, "noise": -1})
    assert ei.value.name == "noise"
    with pytest.raises(shiftdp.ParameterError) as ei:
        shiftdp.analyze("cgd", **{k: v for k, v in TABLE1.items() if k != "n"})
    assert ei.value.name == "n"
    with pytest.raises(shiftdp.ParameterError):
        shiftdp.analyze("adam", **TABLE1)
    with pytest.raises(shiftdp.ParameterError):
        shiftdp.analyze("cgd", delta=0, **TABLE1)
    with pytest.raises(shiftdp.ParameterError):
        shiftdp.analyze("cgd", **{**TABLE1, "eta": float("nan")})
    with pytest.raises(TypeError):
        shiftdp.analyze("cgd", learning_rate=1, **TABLE1)


def test_a_composition_bound_reports_both_evaluations():
    """BSA24 Thm 4.8 is C_0.01(G(0.2))^⊗10: its entry carries the theorem's own evaluation
    and the refined composition, and the reported ε is the smaller; the composition is
    what ``compose`` certifies for the same object at the default width goal."""
    a = shiftdp.analyze("sgd", n=100, batch=1, steps=10, eta=1, noise=5, sensitivity=1, delta=1e-5)
    e = next(x for x in a.entries if x.id == "BSA24 Thm 4.8")
    c = e.composition
    assert c is not None and c.composition_epsilon is not None
    assert c.composition_tighter == (c.composition_epsilon < c.theorem_epsilon)
    assert e.epsilon.upper == pytest.approx(min(c.composition_epsilon, c.theorem_epsilon), rel=1e-12)
    r = shiftdp.compose([shiftdp.SubsampledGaussian(0.01, mu=0.2, count=10)], delta=1e-5)
    assert abs(r.interval.upper - c.composition_epsilon) <= 1e-15
    # a bound that is not a composition has none
    assert all(x.composition is None for x in a.entries if x.id.startswith("AT22"))
