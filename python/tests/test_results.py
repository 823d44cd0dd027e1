"""The registry of published results as Python reads it (``shiftdp.results()``)."""

import pathlib

import pytest

import shiftdp

ROOT = pathlib.Path(__file__).resolve().parents[2]

CGD_RUN = dict(n=60000, batch=1500, epochs=50, eta=1, noise=1, sensitivity=1000, contraction=0.9999)


def test_the_registry_lists_what_analyze_reports_in_its_order() -> None:
    # no result of NoisyCGD is selected by a condition, so analyze lists every one
    ids = [r.id for r in shiftdp.results("cgd")]
    assert ids == [e.id for e in shiftdp.analyze("cgd", delta=1e-5, **CGD_RUN).entries]
    assert ids[:3] == ["BSA24 Thm 4.4", "BSA24 Thm 4.5", "BSA24 Thm 4.6"]


def test_every_result_names_an_existing_proof_file_and_how_it_is_tested() -> None:
    every = shiftdp.results()
    assert {r.paper for r in every} == {"BSA24", "CYS21", "YS22", "AT22", "baseline"}
    for r in every:
        assert r.family in ("f-DP", "RDP")
        assert set(r.algorithms) <= {"gd", "cgd", "sgd", "lmc"} and r.algorithms
        if r.proof_file is not None:
            assert (ROOT / r.proof_file).is_file(), r
        # sampled against exact instances, or the reason it is not
        assert r.sampled == (r.not_sampled_because is None), r
    by_id = {r.id: r for r in every}
    assert by_id["AT22 Thm 3.1"].not_sampled_because is not None
    assert not by_id["YS22 composition baseline"].eligible_for_best


def test_a_filter_keeps_the_results_of_that_algorithm() -> None:
    for alg in ("gd", "cgd", "sgd", "lmc"):
        some = shiftdp.results(alg)
        assert some and all(alg in r.algorithms for r in some)
    assert len(shiftdp.results()) == len({(r.id, tuple(r.algorithms)) for r in shiftdp.results()})


def test_an_unknown_algorithm_is_refused_by_name() -> None:
    with pytest.raises(shiftdp.ParameterError, match="gd, cgd, sgd, lmc"):
        shiftdp.results("adam")
