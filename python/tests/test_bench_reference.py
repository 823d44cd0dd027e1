"""bench/reference.json: the committed reference suite is well formed."""

import json
import pathlib
from decimal import Decimal

import pytest

REF = pathlib.Path(__file__).resolve().parents[2] / "bench" / "reference.json"


@pytest.mark.skipif(not REF.exists(), reason="bench/reference.json not generated")
def test_bench_reference_file_well_formed():
    doc = json.loads(REF.read_text(encoding="utf-8"))
    assert doc["format"] == "shiftdp-reference/1"
    entries = doc["entries"]
    assert len(entries) >= 500
    assert len({e["id"] for e in entries}) == len(entries)
    for e in entries:
        assert e["family"] in {"gdp", "poisson_gaussian", "symmetrized_cp", "sgm_rdp", "published"}
        assert e["relation"] in {"add_remove", "replace_one", "none"}
        assert e["quantity"] in {"epsilon", "delta", "rdp"}
        lo, hi = Decimal(e["certified"]["lower"]), Decimal(e["certified"]["upper"])
        assert lo <= hi
        if hi > 0:
            assert (hi - lo) / hi <= Decimal(e["rel_width"])
        assert (e["published"] is None) == (e["family"] != "published")


def test_bench_reference_rel_width_rounds_up():
    from shiftdp.bench.reference import rel_width

    assert Decimal(rel_width("1", "3")) >= Decimal(2) / Decimal(3)
    assert rel_width("0", "0") == "0"
