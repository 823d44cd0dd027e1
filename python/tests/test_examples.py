"""python/examples: the dask sweep runs (skipped without dask) and agrees with the
accountant point by point."""

import importlib.util
import pathlib

import pytest

EXAMPLES = pathlib.Path(__file__).resolve().parent.parent / "examples"


def load(name):
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_dask_sweep():
    pytest.importorskip("dask")
    ex = load("dask_sweep")
    rows = ex.sweep([1.0, 2.0], [0.01, 0.04], epochs=2)
    assert [(r["sigma"], r["q"], r["steps"]) for r in rows] == [
        (1.0, 0.01, 200), (1.0, 0.04, 50), (2.0, 0.01, 200), (2.0, 0.04, 50)
    ]
    for r in rows:
        assert r == ex.point(r["sigma"], r["q"], r["steps"], 1e-5)
        assert 0 < r["epsilon_lower"] <= r["epsilon_upper"] < 10
    # more noise, less ε
    assert rows[2]["epsilon_upper"] < rows[0]["epsilon_lower"]
