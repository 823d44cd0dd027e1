"""The peer-accountant benchmark: classification, the runner on the sample
fixture with dp_accounting, and the report files."""

import json
import math
import os
from pathlib import Path

import pytest

from shiftdp_bench.peers import Entry, adapter_by_name, classify
from shiftdp_bench.report import summarize, write_report
from shiftdp_bench.runner import load_suite, region_of, run_benchmark

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SAMPLE = os.path.join(ROOT, "bench", "reference.sample.json")


@pytest.mark.parametrize(
    "value,error,status",
    [
        (0.9, None, "unsound"),
        (1.0, None, "inside"),
        (1.05, None, "inside"),
        (1.1, None, "inside"),
        (1.2, None, "above"),
        (math.inf, None, "failure"),
        (math.nan, None, "failure"),
        (None, "ValueError: no", "failure"),
        (1.5, "ValueError: but a value", "failure"),
    ],
)
def test_classify(value, error, status):
    assert classify(value, error, 1.0, 1.1)["status"] == status


def test_classify_relative_error():
    c = classify(1.32, None, 1.0, 1.1)
    assert c["rel_error"] == pytest.approx(0.2)
    assert classify(0.55, None, 1.0, 1.1)["rel_error"] == pytest.approx(-0.5)
    assert classify(None, "x", 1.0, 1.1)["rel_error"] is None
    assert classify(0.0, None, 0.0, 0.0) == {"status": "inside", "rel_error": 0.0, "reason": None, "shortfall": None}


def test_sample_fixture_format():
    entries = load_suite(SAMPLE)
    assert len(entries) >= 30
    for e in entries:
        assert e.lower <= e.upper, e.id
        assert e.quantity in ("epsilon", "delta", "rdp")
    assert {e.kind for e in entries} >= {"gdp", "poisson_gaussian", "symmetrized_cp"}
    assert "·" in region_of(entries[0])


def test_pld_refuses_symmetrized_cp_and_rdp_takes_it():
    entries = load_suite(SAMPLE)
    cp = next(e for e in entries if e.kind == "symmetrized_cp")
    assert not adapter_by_name("dp_accounting.pld(vdi=0.01)").supports(cp)
    assert adapter_by_name("dp_accounting.rdp").supports(cp)


def test_runner_end_to_end(tmp_path):
    pytest.importorskip("dp_accounting")
    entries = [e for e in load_suite(SAMPLE) if e.kind in ("gdp", "poisson_gaussian")]
    five = [entries[0], entries[3], next(e for e in entries if e.id == "pg-q0.01-s2-T1500-d1e-5"),
            next(e for e in entries if e.id == "pg-q0.01-s2-T1500-d1e-15"), entries[1]]
    res = run_benchmark(five, peers=["dp_accounting.pld(vdi=0.01)", "dp_accounting.pld(vdi=0.001)",
                                     "gdp.dp_accounting"], timeout=60, shiftdp_sample=2, progress=False)
    by = {(r["peer"], r["entry"]): r for r in res["results"]}
    # GDP entries: the PLD at δ = 1e-20 gives up with inf
    assert by[("dp_accounting.pld(vdi=0.01)", "gdp-mu0.5-d1e-20")]["status"] == "failure"
    # the Poisson entry at δ = 1e-5: sound and loose on the coarse grid
    r = by[("dp_accounting.pld(vdi=0.01)", "pg-q0.01-s2-T1500-d1e-5")]
    assert r["status"] == "above" and r["rel_error"] > 0.1
    # PEERS.md P2: vdi 1e-3 below the certified lower end at δ = 1e-15 (dp-accounting
    # 0.6; 0.5.1, the last release for Python 3.9, gives up with inf there instead)
    p2 = by[("dp_accounting.pld(vdi=0.001)", "pg-q0.01-s2-T1500-d1e-15")]["status"]
    from importlib.metadata import version

    old = tuple(int(x) for x in version("dp-accounting").split(".")[:2]) < (0, 6)
    assert p2 == ("failure" if old else "unsound")
    assert not any(p == "gdp.dp_accounting" and "pg-" in e for p, e in by)
    assert all(r.get("error") is None for r in res["shiftdp"]["rows"])
    paths = write_report(res, str(tmp_path / "out"))
    with open(paths["json"]) as f:
        back = json.load(f)
    assert back["format"] == "shiftdp-bench-results/1" and len(back["results"]) == len(res["results"])
    md = Path(paths["md"]).read_text()
    assert "| dp_accounting.pld(vdi=0.001) |" in md and "Unsound answers (1)" in md
    page = Path(paths["html"]).read_text()
    assert page.startswith("<!doctype html>") and "</html>" in page
    if pytest.importorskip("matplotlib"):
        assert page.count("data:image/png;base64,") == 3
    rows = summarize(res)
    assert sum(r["n"] for r in rows) == len(res["results"])


def test_unavailable_peer_reported(monkeypatch):
    from shiftdp_bench import peers as P

    entries = load_suite(SAMPLE)[:2]
    monkeypatch.setattr(P.AutodpRDP, "package", "no_such_module_xyz")
    res = run_benchmark(entries, peers=["autodp.rdp"], shiftdp_sample=0, progress=False)
    info = res["peers"][0]
    assert info["available"] is False and "no_such_module_xyz" in info["skipped_reason"]
    assert res["results"] == []


def test_malformed_entry_is_skipped_not_a_crash(tmp_path, capsys):
    good = {
        "id": "g", "family": "gdp", "relation": "none", "params": {"mu": "1"},
        "query": {"delta": "1e-5"}, "quantity": "epsilon",
        "certified": {"lower": "4.3771", "upper": "4.3772"}, "rel_width": "1e-5",
        "source": "test", "published": None,
    }
    bad = dict(good, id="b", params={"sigma": "sqrt(3)", "q": "1", "steps": 3})
    path = tmp_path / "suite.json"
    path.write_text(json.dumps({"format": "shiftdp-reference/1", "entries": [good, bad]}))
    entries = load_suite(str(path))
    assert [e.id for e in entries] == ["g"]
    assert "skipped malformed entry 'b'" in capsys.readouterr().err


def test_nonpositive_certified_epsilon_accepts_nonpositive_values():
    # the certified answer "ε(δ) ≤ 0" is stored as [0, 0]: a peer's −4e-5 is a true
    # claim there, not an unsound one; a positive value is "above"
    assert classify(-4e-5, None, 0.0, 0.0)["status"] == "inside"
    assert classify(1e-3, None, 0.0, 0.0)["status"] == "above"


def test_shortfall_measures_how_far_below():
    c = classify(0.9, None, 1.0, 1.1)
    assert c["status"] == "unsound" and abs(c["shortfall"] - 0.1) < 1e-12
    assert classify(1.05, None, 1.0, 1.1)["shortfall"] is None


# -- the mechanisms beyond the Gaussian ---------------------------------------------------

MECH_ENTRIES = {
    "laplace": ({"b": "2", "steps": 10}, "add_remove"),
    "poisson_laplace": ({"q": "0.1", "b": "1", "steps": 10}, "add_remove"),
    "discrete_laplace": ({"a": "0.5", "sensitivity": 2, "steps": 10}, "add_remove"),
    "randomized_response": ({"noise_parameter": "0.5", "buckets": 4, "steps": 10}, "replace_one"),
    "mixture_gaussian": ({"sigma": "1", "sensitivities": ["0", "1"], "probabilities": ["0.9", "0.1"],
                          "steps": 10}, "add_remove"),
    "truncated_subsampled_gaussian": ({"dataset_size": 100, "q": "0.05", "truncated_batch_size": 8,
                                       "sigma": "1", "steps": 10}, "add_remove"),
}


def _mech_entry(family, quantity="epsilon", query=None, lower="1", upper="1"):
    params, relation = MECH_ENTRIES[family]
    return Entry.from_json({
        "id": f"{family}-test", "family": family, "relation": relation, "params": params,
        "query": query or ({"delta": "1e-5"} if quantity == "epsilon" else {"epsilon": "1"}),
        "quantity": quantity, "certified": {"lower": lower, "upper": upper}, "rel_width": "0",
        "source": "test", "published": None,
    })


def test_peers_supports_the_mechanism_families():
    from shiftdp_bench.peers import MECHANISM_FAMILIES, all_adapters

    assert set(MECHANISM_FAMILIES) == set(MECH_ENTRIES)
    rdp_takes = {"laplace", "randomized_response"}
    for fam in MECH_ENTRIES:
        for q in ("epsilon", "delta"):
            e = _mech_entry(fam, q)
            for a in all_adapters():
                want = (
                    a.name.startswith("dp_accounting.pld(")
                    or (a.name == "dp_accounting.rdp" and fam in rdp_takes)
                    or (a.name == "prv_accountant" and fam == "laplace")
                )
                assert a.supports(e) == want, (a.name, fam, q)


def test_dp_accounting_events_of_the_mechanism_families():
    dpa = pytest.importorskip("dp_accounting")
    from shiftdp_bench.peers import _dpa_mechanism_event, _dpa_relation

    E = dpa.dp_event
    want = {
        "laplace": E.LaplaceDpEvent(2.0),
        "poisson_laplace": E.PoissonSampledDpEvent(0.1, E.LaplaceDpEvent(1.0)),
        "discrete_laplace": E.DiscreteLaplaceDpEvent(0.5, 2),
        "randomized_response": E.RandomizedResponseDpEvent(0.5, 4),
        "mixture_gaussian": E.MixtureOfGaussiansDpEvent(1.0, [0.0, 1.0], [0.9, 0.1]),
        "truncated_subsampled_gaussian": E.TruncatedSubsampledGaussianDpEvent(100, 0.05, 8, 1.0),
    }
    for fam, ev in want.items():
        e = _mech_entry(fam)
        assert _dpa_mechanism_event(e) == E.SelfComposedDpEvent(ev, 10), fam
        rel = dpa.NeighboringRelation.REPLACE_ONE if fam == "randomized_response" else dpa.NeighboringRelation.ADD_OR_REMOVE_ONE
        assert _dpa_relation(e) == rel
        # the event and the relation are the ones CertifiedPLDAccountant maps to the
        # entry's shiftdp component
        from shiftdp.accounting import CertifiedPLDAccountant
        from shiftdp_bench.reference import mechanism_component

        acc = CertifiedPLDAccountant(rel).compose(_dpa_mechanism_event(e))
        assert acc._components() == [mechanism_component(fam, e.params, 10)], fam


def test_dp_accounting_runs_on_the_mechanism_families():
    pytest.importorskip("dp_accounting")
    import shiftdp
    from shiftdp_bench.reference import mechanism_component

    def certified(fam, **kw):
        iv = shiftdp.compose([mechanism_component(fam, MECH_ENTRIES[fam][0], 10)], **kw).interval
        return iv.lower_decimal, iv.upper_decimal

    pld = adapter_by_name("dp_accounting.pld(vdi=0.01)")
    rdp = adapter_by_name("dp_accounting.rdp")
    for fam in ("laplace", "poisson_laplace", "discrete_laplace", "truncated_subsampled_gaussian"):
        lo, up = certified(fam, delta=1e-5)
        e = _mech_entry(fam, lower=lo, upper=up)
        v, err, _ = pld.run(e)
        assert err is None and classify(v, err, e.lower, e.upper)["status"] in ("inside", "above"), (fam, v, lo, up)
    lo, up = certified("laplace", delta=1e-5)
    e = _mech_entry("laplace", lower=lo, upper=up)
    v, err, _ = rdp.run(e)
    assert err is None and v >= e.lower, (v, lo)
    # randomized response under REPLACE_ONE: the RDP accountant composes all 10 responses,
    # dp_accounting's PLD composes one (PEERS.md P9), far below the certified ε
    lo, up = certified("randomized_response", delta=1e-5)
    e = _mech_entry("randomized_response", lower=lo, upper=up)
    v, err, _ = rdp.run(e)
    assert err is None and v >= e.lower
    v, err, _ = pld.run(e)
    assert err is None and classify(v, err, e.lower, e.upper)["status"] == "unsound" and v < e.lower / 5


def test_prv_accountant_runs_the_laplace_family():
    pytest.importorskip("prv_accountant")
    import shiftdp
    from shiftdp_bench.reference import mechanism_component

    prv = adapter_by_name("prv_accountant")
    for q, kw in (("epsilon", {"delta": 1e-5}), ("delta", {"epsilon": 3.0})):
        iv = shiftdp.compose([mechanism_component("laplace", MECH_ENTRIES["laplace"][0], 10)], **kw).interval
        e = _mech_entry("laplace", q, {k: repr(v) for k, v in kw.items()}, iv.lower_decimal, iv.upper_decimal)
        v, err, _ = prv.run(e)
        assert err is None and classify(v, err, e.lower, e.upper)["status"] in ("inside", "above"), (q, v, iv)
        # the upper estimate is close: the same pair (Lap(0, 2), Lap(1, 2)) × 10
        assert v <= e.upper * 1.05


def test_sampler_family_reports_poisson_numbers_below_the_certified_lower_bound(tmp_path):
    """The sampler family: shiftdp's certified interval for shuffled batches, and
    dp_accounting's Poisson number for the same run flagged below its lower end in a
    table of its own (not counted as dp_accounting's own unsoundness)."""
    pytest.importorskip("dp_accounting")
    from shiftdp_bench import reference
    from shiftdp_bench.peers import Entry, adapter_by_name
    from shiftdp_bench.report import peer_totals, summary_markdown
    from shiftdp_bench.runner import run_benchmark

    ref = tmp_path / "ref.json"
    orig = reference.tasks
    todo = [("sampler", "shuffle", "2", 1, 10, "1e-5"), ("sampler", "fixed-size", "2", 1, 10, "1e-5")]
    reference.tasks = lambda quick, families=None: todo  # two runs
    try:
        doc = reference.generate(True, 1, ["sampler"])
    finally:
        reference.tasks = orig
    ref.write_text(json.dumps(doc))
    entries = [Entry.from_json(e) for e in doc["entries"]]
    assert [e.params["sampler"] for e in entries] == ["fixed-size", "shuffle"]
    res = run_benchmark(entries, peers=["dp_accounting.pld(vdi=0.0001)"], shiftdp_sample=0, progress=False)
    by = {r["entry"]: r for r in res["results"]}
    shuffle = by["sampler/shuffle/sigma=2/epochs=1/T=10/delta=1e-5"]
    fixed = by["sampler/fixed-size/sigma=2/epochs=1/T=10/delta=1e-5"]
    # the Poisson ε at q = 1/10 over 10 steps: below shuffling's lower bound, inside the
    # fixed-size interval (the same subsampled Gaussian up to the sampling scheme)
    assert shuffle["status"] == "unsound" and shuffle["value"] < shuffle["lower"]
    assert fixed["status"] in ("inside", "above")
    assert peer_totals(res)[0]["n"] == 0  # not the peer's own quantity
    md = summary_markdown(res)
    assert "## The batches actually drawn" in md and "**below**" in md
    assert adapter_by_name("dp_accounting.pld(vdi=0.0001)").supports(entries[0])


def test_finding_p15_reproduces():
    """PEERS.md P15: dp_accounting's Poisson ε for a shuffled run lies below shiftdp's
    certified lower bound for the shuffled batches."""
    pytest.importorskip("dp_accounting")
    from shiftdp_bench.findings import FINDINGS

    assert FINDINGS["P15"].check()


# -- rounding-level against material shortfalls ------------------------------------------


@pytest.mark.parametrize(
    "shortfall,status",
    [
        (1.5e-14, "rounding"),  # f64 round-off of a closed form (PEERS.md P5, P6, P8)
        (1e-12, "rounding"),
        (0.9e-9, "rounding"),
        (1.1e-9, "unsound"),  # just beyond the threshold
        (4.5e-5, "unsound"),  # PEERS.md P13
        (0.3, "unsound"),
    ],
)
def test_classify_separates_rounding_level_from_material(shortfall, status):
    from shiftdp_bench.peers import ROUNDING_LEVEL

    assert ROUNDING_LEVEL == 1e-9
    lower, upper = 3.0, 3.1
    value = lower * (1 - shortfall)
    c = classify(value, None, lower, upper)
    assert c["status"] == status
    assert c["shortfall"] == pytest.approx(shortfall, rel=1e-2)


def test_classify_below_a_zero_lower_end_is_material():
    c = classify(-1e-300, None, 0.0, 1e-3)
    assert c["status"] == "unsound" and c["shortfall"] == "inf"


@pytest.mark.parametrize(
    "text,lower,status",
    [
        # dp_accounting's test value of δ(1) for G(√3)^⊗3 (0.12693673750664…), cut to six
        # digits: 5.8e-6 below, within one unit of its last digit (7.9e-6)
        ("0.126936", 0.12693673750663864, "rounding"),
        # its RDP test value at α = 50, ten digits: 1.6e-9 below, within 4.2e-9
        ("0.0238460375", 0.02384603753870617, "rounding"),
        # two units below in the last digit: more than the digits explain
        ("0.126935", 0.12693673750663864, "unsound"),
    ],
)
def test_published_values_are_judged_at_their_printed_digits(text, lower, status):
    from shiftdp_bench.peers import ROUNDING_LEVEL, printed_rounding_level

    level = printed_rounding_level(text)
    expected_unit = 10.0 ** (len(text.split(".")[1]) * -1) / float(text)
    assert level == pytest.approx(expected_unit, rel=1e-12)
    assert classify(float(text), None, lower, lower * (1 + 1e-13), level)["status"] == status
    # at the f64 level every one of them is a material shortfall
    assert classify(float(text), None, lower, lower * (1 + 1e-13))["status"] == "unsound"
    assert printed_rounding_level("1e-30") == 1.0 and printed_rounding_level("inf") == ROUNDING_LEVEL
    assert printed_rounding_level("0.5000000000000000000001") == ROUNDING_LEVEL


def _row(peer, entry, family, value, lower, upper, seconds, width=1e-12, error=None):
    c = classify(value, error, lower, upper)
    return {"peer": peer, "entry": entry, "family": family, "region": f"{family} · δ≥1e-10 · T=1",
            "delta_band": "δ≥1e-10", "t_band": "T=1", "quantity": "epsilon", "query": {"delta": "1e-5"},
            "params": {}, "steps": 1, "delta": 1e-5, "lower": lower, "upper": upper, "ref_rel_width": width,
            "value": value, "error": error, "seconds": seconds, **c}


def _synthetic_results():
    """Two families. gdp: A sound and loose, B materially below once, C below at
    rounding level only and the fastest, shiftdp certified. wide: one peer inside a
    wide reference interval."""
    rs = []
    for i in range(3):
        e = f"gdp/{i}"
        rs.append(_row("A", e, "gdp", 1.0 + 1e-3, 0.999999, 1.0, 0.01))
        rs.append(_row("B", e, "gdp", 0.9 if i == 0 else 1.0, 0.999999, 1.0, 0.02))
        rs.append(_row("C", e, "gdp", 0.999999 * (1 - 1e-14), 0.999999, 1.0, 0.001))
    rs.append(_row("A", "wide/0", "poisson_gaussian", 1.2, 1.0, 1.5, 0.5, width=0.33))
    rs.append(_row("published", "gdp/0", "gdp", 0.5, 0.999999, 1.0, 0.0))
    own = [{"entry": f"gdp/{i}", "region": "gdp · δ≥1e-10 · T=1", "family": "gdp", "steps": 1, "delta": 1e-5,
            "seconds": 0.004, "error": None, "ref_lower": 0.999999, "ref_upper": 1.0, "ref_rel_width": 1e-12,
            "lower": 0.999999, "upper": 1.0, "rel_width": 1e-6, "rel_error": 0.0, "overlaps_reference": True}
           for i in range(3)]
    return {
        "format": "shiftdp-bench-results/1", "created": "2026-01-01T00:00:00Z", "entries": 4, "timeout": 60,
        "families": {"gdp": {"entries": 3, "wide": 0, "max_rel_width": 1e-12},
                     "poisson_gaussian": {"entries": 1, "wide": 1, "max_rel_width": 0.33}},
        "peers": [{"name": n, "description": "", "available": True, "skipped_reason": None, "version": "1"}
                  for n in ("A", "B", "C", "published")]
        + [{"name": "D", "description": "", "available": False, "skipped_reason": "d not importable",
            "version": None}],
        "results": rs, "shiftdp": {"version": "0", "rows": own},
    }


def test_which_accountant_table_from_synthetic_results(tmp_path):
    from shiftdp_bench.report import peer_totals, summary_markdown, which_accountant

    res = _synthetic_results()
    rows = {r["family"]: r for r in which_accountant(res)}
    g = rows["gdp"]
    assert g["entries"] == 3
    # B is out (one material shortfall); C's rounding-level shortfalls keep it sound
    assert set(g["sound"]) == {"A", "C", "shiftdp"} and g["unsound"] == ["B"]
    # C and shiftdp are equally tight as far as the reference resolves: the faster, C,
    # ranks first; A's excess 1e-3 is beyond the resolution
    assert g["sound"] == ["C", "shiftdp", "A"] and g["tightest"] == "C"
    assert "published" not in {a["accountant"] for a in g["accountants"]}
    assert g["recommendation"].startswith("tightest sound: C") and "avoid B" in g["recommendation"]
    w = rows["poisson_gaussian"]
    assert w["wide"] == 1 and "comparison weak" in w["recommendation"]
    t = {x["peer"]: x for x in peer_totals(res)}
    assert (t["B"]["unsound"], t["B"]["rounding"]) == (1, 0)
    assert (t["C"]["unsound"], t["C"]["rounding"]) == (0, 3)
    md = summary_markdown(res)
    # the report opens with the table, before the peer totals
    assert md.index("## Which accountant when") < md.index("## Peers")
    assert "| gdp | 3 |" in md and "Not installed (not run): D." in md
    assert "## Rounding-level answers (3)" in md and "## Unsound answers (2)" in md
    assert "## Reference wide, comparison weak (1)" in md and "| wide/0 |" in md
    page = Path(write_report(res, str(tmp_path))["html"]).read_text()
    assert page.index("Which accountant when") < page.index("<h2>Peers</h2>")
    assert 'class="warn"' in page and 'class="bad"' in page


def test_old_results_reclassified_by_shortfall():
    from shiftdp_bench.report import peer_totals

    res = _synthetic_results()
    for r in res["results"]:  # results written before the rounding-level class
        if r["status"] == "rounding":
            r["status"] = "unsound"
    t = {x["peer"]: x for x in peer_totals(res)}
    assert (t["C"]["unsound"], t["C"]["rounding"]) == (0, 3)


# -- the packaged suite and --quick ------------------------------------------------------


def test_quick_selection_is_deterministic_and_representative():
    from shiftdp_bench.runner import QUICK_MAX_STEPS, QUICK_PER_FAMILY, quick_selection

    entries = load_suite()
    q1 = quick_selection(entries)
    q2 = quick_selection(list(reversed(entries)))
    assert sorted(e.id for e in q1) == sorted(e.id for e in q2)
    fams = {e.family for e in entries}
    by = {}
    for e in q1:
        by.setdefault(e.family, []).append(e)
    assert set(by) == fams
    for fam, es in by.items():
        assert len(es) == min(QUICK_PER_FAMILY, len([e for e in entries if e.family == fam]))
        assert all(e.p.steps <= QUICK_MAX_STEPS for e in es), fam
    # the rule on a synthetic family: first, middle and last by id
    def mk(i):
        return Entry.from_json({"id": f"x/{i:02d}", "family": "gdp", "relation": "none", "params": {"mu": "1"},
                                "query": {"delta": "1e-5"}, "quantity": "epsilon",
                                "certified": {"lower": "1", "upper": "1"}, "rel_width": "0"})
    assert [e.id for e in quick_selection([mk(i) for i in (4, 0, 8, 2, 6)])] == ["x/00", "x/04", "x/08"]


def test_quick_run_shiftdp_only_when_no_peer_is_installed(tmp_path, monkeypatch, capsys):
    """``run --quick`` with every peer missing: shiftdp recomputes every selected entry,
    the report names the missing peers, and the summary table is shiftdp's."""
    from shiftdp_bench import __main__ as cli
    from shiftdp_bench import peers as P

    monkeypatch.setattr(P.Adapter, "available", lambda self: (False, f"{self.package} not importable (test)"))
    out = tmp_path / "out"
    assert cli.main(["run", "--quick", "--family", "laplace,discrete_laplace,randomized_response", "--out", str(out),
                     "--quiet"]) == 0
    res = json.loads((out / "results.json").read_text())
    assert res["quick"] is True and res["results"] == []
    assert res["entries"] == 9 and len(res["shiftdp"]["rows"]) == 9
    assert all(r["error"] is None and r["overlaps_reference"] for r in res["shiftdp"]["rows"])
    md = (out / "summary.md").read_text()
    assert "only shiftdp ran" in md and "Not installed (not run): dp_accounting.pld(vdi=0.01)" in md
    assert "peers not installed (not run):" in capsys.readouterr().err


def test_cli_quick_from_outside_the_checkout(tmp_path):
    """``python -m shiftdp_bench run --quick`` in a directory outside the repository reads
    the packaged suite (no --suite) and writes its report."""
    import subprocess
    import sys

    p = subprocess.run([sys.executable, "-m", "shiftdp_bench", "run", "--quick", "--peers", "published",
                        "--family", "published,gdp", "--out", "rep", "--quiet"],
                       cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    assert "## Which accountant when" in p.stdout
    res = json.loads((tmp_path / "rep" / "results.json").read_text())
    assert res["suite"].endswith("(packaged)") and res["entries"] == 6
