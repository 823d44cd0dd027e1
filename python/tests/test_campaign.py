"""The bounded run of the adversarial soundness campaign (campaign/, package
``shiftdp_campaign``; the long run is ``python -m shiftdp_campaign run``, sharded over Dask).

Seeded cases of every in-process command family — GDP δ(ε) and ε(δ) against mpmath/scipy
closed forms, compositions against G(√Σkμ²), the one-step Poisson and C_p(G(μ)) closed
forms and an independent numpy PLD (pessimistic/optimistic, exact np.convolve at small k),
exact_mu/analyze/schedule against the quadratic instance, claims, boundary fuzzing — and,
when the binary is built, the CLI share. Asserts no violation, crash or NaN; refusals of
ordinary input and wide intervals are printed, not asserted (the campaign report lists
them)."""

import collections
import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "campaign"))

pytest.importorskip("mpmath")
pytest.importorskip("scipy")
from shiftdp_campaign import checks  # noqa: E402

SEED = int(os.environ.get("SHIFTDP_CAMPAIGN_SEED", "20261127"))

FAMILIES = {
    # family: cases (gdp cases hold 400 checks each)
    "gdp_delta": 1,
    "gdp_epsilon": 1,
    "compose_gaussian": 4,
    "compose_poisson_k1": 4,
    "compose_subsampled_k1": 3,
    "compose_poisson_k": 2,
    "compose_subsampled_k": 1,
    "compose_mixed": 1,
    "near_deterministic": 12,
    "runs": 3,
    "claim": 1,
    "fuzz_api": 4,
}


def _run(family, n):
    recs = []
    fn = dict((f, fn) for f, fn, _ in checks.FAMILIES)[family]
    import random

    for i in range(n):
        recs += fn(random.Random(f"{SEED}:{family}:{i}"))
    return recs


@pytest.fixture(scope="module")
def records():
    max_k, checks.MAX_K = checks.MAX_K, 60  # small compositions: the exact np.convolve path, a few seconds
    try:
        recs = []
        for fam, n in FAMILIES.items():
            recs += _run(fam, n)
        if os.path.exists(checks.shiftdp_bin()):
            recs += _run("cli", 6)
        return recs
    finally:
        checks.MAX_K = max_k


def test_no_violation_crash_or_nan(records):
    counts = collections.Counter(r["class"] for r in records)
    print("\ncampaign bounded run:", dict(counts))
    for r in records:
        if r["class"] in ("refusal", "wide"):
            print(f"  {r['class']}: {r['repro']} {r.get('error') or r.get('engine')}")
    bad = [r for r in records if r["class"] in ("violation", "crash", "nan", "ref-error")]
    assert not bad, "\n".join(f"{r['class']}: {r['repro']} engine={r.get('engine')} "
                              f"reference={r.get('reference')} {r.get('error') or ''}" for r in bad)
    compared = sum(1 for r in records if r["class"] in ("pass", "wide"))
    assert compared >= 200, counts


def test_references_agree_with_each_other():
    """The references against each other, where they describe the same quantity: the
    one-step closed form inside the numpy PLD's interval (k = 1), G(μ) as Poisson with
    q = 1, and the mpmath root against the closed-form δ."""
    import numpy as np

    from shiftdp_campaign import references as R

    eps = np.array([0.1, 0.5, 1.0, 2.0])
    for q, mu in ((0.01, 1.0), (0.3, 0.5), (1.0, 2.0)):
        exact = np.maximum(R.poisson_delta_np(q, mu, eps, "remove")[0], R.poisson_delta_np(q, mu, eps, "add")[0])
        lo, hi = R.poisson_reference([("poisson", q, mu, 1)], eps, h=1e-4)
        assert np.all(lo <= exact * (1 + 1e-12)) and np.all(exact <= hi * (1 + 1e-12))
        assert np.all(hi - lo <= 0.01 * hi + 1e-15)
    g, _ = R.gdp_delta_np(2.0, eps)
    p1, _ = R.poisson_delta_np(1.0, 2.0, eps, "remove")
    assert np.allclose(g, p1, rtol=1e-12)
    # a small composition: the numpy PLD brackets the closed form of G(μ√k)
    lo, hi = R.poisson_reference([("gaussian", None, 0.5, 8)], eps, h=1e-4)
    g8, _ = R.gdp_delta_np(0.5 * np.sqrt(8), eps)
    assert np.all(lo <= g8 * (1 + 1e-12)) and np.all(g8 <= hi * (1 + 1e-12))
    import mpmath as mp

    e = R.gdp_epsilon_mp(1, 1e-5)  # the float 1e-5 is read as the decimal 10⁻⁵, as shiftdp reads it
    assert abs(R.gdp_delta_mp(1, e) - mp.mpf("1e-5")) < mp.mpf("1e-45")
