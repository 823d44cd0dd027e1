"""The reference suite shipped with the package (shiftdp_bench/data/reference.json) is well
formed and loads from the installed package; the families of
the mechanisms beyond the Gaussian are present, and their single-step intervals (in the
committed file and from the quick generator) contain independent closed forms written
here with mpmath."""

import json
import pathlib
from decimal import Decimal

import pytest

from shiftdp_bench import peers
from shiftdp_bench.runner import packaged_suite

REF = packaged_suite()
# the source copy, when the tests run from a checkout
CHECKOUT_REF = pathlib.Path(__file__).resolve().parents[1] / "shiftdp_bench" / "data" / "reference.json"

MECHANISM_FAMILIES = set(peers.MECHANISM_FAMILIES)
FAMILIES = {"gdp", "poisson_gaussian", "symmetrized_cp", "sgm_rdp", "published", "sampler"} | MECHANISM_FAMILIES


def _doc():
    return json.loads(REF.read_text(encoding="utf-8"))


def test_packaged_suite_is_the_installed_package_data(tmp_path):
    """The suite ships inside the installed package and loads with no checkout path:
    from a working directory outside the repository, through importlib.resources; the
    installed copy is byte-identical to the source file it was built from."""
    import subprocess
    import sys

    import shiftdp_bench

    pkg = pathlib.Path(shiftdp_bench.__file__).resolve().parent
    assert REF.is_file()
    assert pathlib.Path(str(REF)).resolve() == pkg / "data" / "reference.json"
    if CHECKOUT_REF.exists():
        if CHECKOUT_REF.resolve() == pathlib.Path(str(REF)).resolve():
            pytest.skip("shiftdp_bench imported from its source tree (an editable install), not an installed package")
        assert REF.read_bytes() == CHECKOUT_REF.read_bytes(), "the installed suite differs from the source file"
    code = ("from shiftdp_bench.runner import load_suite, packaged_suite; "
            "es = load_suite(); print(len(es)); print(packaged_suite())")
    out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True,
                         check=True).stdout.splitlines()
    assert int(out[0]) == len(_doc()["entries"]) >= 500
    assert pathlib.Path(out[1]).resolve() == pkg / "data" / "reference.json"


def test_bench_reference_file_well_formed():
    doc = _doc()
    assert doc["format"] == "shiftdp-reference/1"
    entries = doc["entries"]
    assert len(entries) >= 500
    assert len({e["id"] for e in entries}) == len(entries)
    for e in entries:
        assert e["family"] in FAMILIES
        assert e["relation"] in {"add_remove", "replace_one", "zero_out", "none"}
        assert e["quantity"] in {"epsilon", "delta", "rdp"}
        lo, hi = Decimal(e["certified"]["lower"]), Decimal(e["certified"]["upper"])
        assert lo <= hi
        if hi > 0:
            assert (hi - lo) / hi <= Decimal(e["rel_width"])
        assert (e["published"] is None) == (e["family"] != "published")


def test_bench_reference_rel_width_rounds_up():
    from shiftdp_bench.reference import rel_width

    assert Decimal(rel_width("1", "3")) >= Decimal(2) / Decimal(3)
    assert rel_width("0", "0") == "0"


def test_committed_suite_covers_the_mechanism_families():
    doc = _doc()
    by = {}
    for e in doc["entries"]:
        by.setdefault(e["family"], []).append(e)
    for fam in sorted(MECHANISM_FAMILIES):
        es = by.get(fam, [])
        assert len(es) >= 25, (fam, len(es))
        assert doc["counts"][fam] == len(es)
        assert {e["params"]["steps"] for e in es} >= {1, 10, 1000}, fam
        assert {e["quantity"] for e in es} == {"epsilon", "delta"}, fam
        assert any(e["query"].get("delta") == "1e-20" for e in es), fam
        assert all(e["relation_note"] and "dp_accounting" in e["relation_note"] for e in es), fam
        want = "replace_one" if fam == "randomized_response" else "add_remove"
        assert {e["relation"] for e in es} == {want}, fam
        # every interval is narrow enough to judge a peer (wider ones are dropped)
        assert all(Decimal(e["rel_width"]) <= Decimal("1e-2") for e in es), fam
    assert any(e["query"].get("delta") == "1e-50" for fam in MECHANISM_FAMILIES for e in by[fam])
    assert doc["generator"] == "python -m shiftdp_bench.reference"


# -- closed forms ----------------------------------------------------------------------

try:
    import mpmath as mp
except ImportError:  # pragma: no cover - the closed-form tests need mpmath
    mp = None

needs_mp = pytest.mark.skipif(mp is None, reason="mpmath not installed")


@pytest.fixture(autouse=True)
def _precision():
    # 40 digits for this module's closed forms, restored after each test
    if mp is None:
        yield
        return
    with mp.workdps(40):
        yield


def _d(text):
    """The double the engine (and dp_accounting's event) reads from the entry's decimal."""
    return mp.mpf(float(text))


def _bisect_down(f, target, lo, hi, n=200):
    """The smallest x in [lo, hi] with f(x) ≤ target for a nonincreasing f (lo when
    f(lo) ≤ target)."""
    if f(lo) <= target:
        return lo
    for _ in range(n):
        mid = (lo + hi) / 2
        if f(mid) <= target:
            hi = mid
        else:
            lo = mid
    return hi


def _bisect_up(f, y, lo, hi, n=200):
    """x with f(x) = y for an increasing f on [lo, hi]."""
    for _ in range(n):
        mid = (lo + hi) / 2
        if f(mid) < y:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def laplace_delta(params, eps):
    # P = Lap(0, b), Q = Lap(1, b): the loss is r = 1/b for x ≤ 0, (1 − 2x)/b on (0, 1),
    # −r for x ≥ 1; for 0 ≤ ε < r the set {loss > ε} is x < x* = (1 − bε)/2 and
    # P(x < x*) − e^ε Q(x < x*) = 1 − e^{(ε − r)/2}
    r = 1 / _d(params["b"])
    return max(mp.mpf(0), 1 - mp.e ** ((eps - r) / 2))


def rr_delta(params, eps):
    # outputs: the true bucket (P = s, Q = u), the neighbour's (u, s), the k − 2 others
    # (u, u): only the first has p > e^ε q for ε ≥ 0
    p, k = _d(params["noise_parameter"]), params["buckets"]
    u = p / k
    s = 1 - p + u
    return max(mp.mpf(0), s - mp.e**eps * u)


def discrete_laplace_delta(params, eps):
    # P = DL(0), Q = DL(Δ), pmf c e^{−a|z|}: loss aΔ on z ≤ 0 (P-mass 1/(1 + e^{−a})),
    # a(Δ − 2z) at 1 ≤ z ≤ Δ − 1, ≤ 0 for z ≥ Δ
    a, sens = _d(params["a"]), int(params["sensitivity"])
    c = (1 - mp.e ** (-a)) / (1 + mp.e ** (-a))
    total = 1 / (1 + mp.e ** (-a)) * max(mp.mpf(0), 1 - mp.e ** (eps - a * sens))
    for z in range(1, sens):
        total += c * mp.e ** (-a * z) * max(mp.mpf(0), 1 - mp.e ** (eps - a * (sens - 2 * z)))
    return total


def _lap_sf(m, b, t):
    """P(Lap(m, b) > t)."""
    return mp.e ** (-(t - m) / b) / 2 if t >= m else 1 - mp.e ** ((t - m) / b) / 2


def poisson_laplace_delta(params, eps):
    # P = (1 − q) Lap(0, b) + q Lap(1, b) against Q = Lap(0, b) and the reverse; the loss
    # L(x) = ln(1 − q + q e^{(|x| − |x − 1|)/b}) is nondecreasing, constant outside [0, 1]
    q, b = _d(params["q"]), _d(params["b"])
    r = 1 / b
    lmax = mp.log(1 - q + q * mp.e**r)
    lmin = mp.log(1 - q + q * mp.e ** (-r))
    d_a = mp.mpf(0)
    if eps < lmax:
        x = (1 + b * mp.log((mp.e**eps - 1 + q) / q)) / 2  # L(x) = ε, x in (0, 1)
        d_a = (1 - q) * _lap_sf(0, b, x) + q * _lap_sf(1, b, x) - mp.e**eps * _lap_sf(0, b, x)
    d_b = mp.mpf(0)
    if -eps > lmin:
        x = (1 + b * mp.log((mp.e ** (-eps) - 1 + q) / q)) / 2  # L(x) = −ε
        p_below = (1 - q) * (1 - _lap_sf(0, b, x)) + q * (1 - _lap_sf(1, b, x))
        d_b = (1 - _lap_sf(0, b, x)) - mp.e**eps * p_below
    return max(d_a, d_b)


def _mixture(params):
    """P = Σ pᵢ N(cᵢ, σ²) against Q = N(0, σ²) and the reverse. The loss
    L(x) = ln Σ pᵢ e^{(2cᵢx − cᵢ²)/(2σ²)} is increasing (cᵢ ≥ 0); with x the point where
    L = ε (resp. −ε), the two orders' δ are h_a(x) and h_b(x) below."""
    s = _d(params["sigma"])
    cs = [_d(c) for c in params["sensitivities"]]
    ps = [_d(p) for p in params["probabilities"]]

    def loss(x):
        return mp.log(sum(p * mp.e ** ((2 * c * x - c * c) / (2 * s * s)) for c, p in zip(cs, ps)))

    def h_a(x):  # P(X > x) − e^{L(x)} Q(X > x)
        return sum(p * mp.ncdf(-(x - c) / s) for c, p in zip(cs, ps)) - mp.e ** loss(x) * mp.ncdf(-x / s)

    def h_b(x):  # Q(X < x) − e^{−L(x)} P(X < x)
        return mp.ncdf(x / s) - mp.e ** (-loss(x)) * sum(p * mp.ncdf((x - c) / s) for c, p in zip(cs, ps))

    lmin = mp.log(sum(p for c, p in zip(cs, ps) if c == 0)) if any(c == 0 for c in cs) else -mp.inf
    return loss, h_a, h_b, lmin, 60 * s + 2 * max(cs)


def mixture_delta(params, eps):
    loss, h_a, h_b, lmin, span = _mixture(params)
    d_a = h_a(_bisect_up(loss, eps, -span, span))
    d_b = h_b(_bisect_up(loss, -eps, -span, span)) if -eps > lmin else mp.mpf(0)
    return max(d_a, d_b)


def mixture_epsilon(params, delta):
    # ε(δ) = max of the two orders; in each, δ decreases as ε = ±L(x) grows, so one
    # bisection on x per order (x0: L(x0) = 0, ε = 0)
    loss, h_a, h_b, lmin, span = _mixture(params)
    x0 = _bisect_up(loss, 0, -span, span)
    e_a = e_b = mp.mpf(0)
    if h_a(x0) > delta:
        lo, hi = x0, span
        for _ in range(200):
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if h_a(mid) > delta else (lo, mid)
        e_a = loss(hi)
    if h_b(x0) > delta:
        lo, hi = -span, x0
        for _ in range(200):
            mid = (lo + hi) / 2
            lo, hi = (lo, mid) if h_b(mid) > delta else (mid, hi)
        e_b = -loss(lo)
    return max(e_a, e_b)


DELTA_OF = {
    "laplace": laplace_delta,
    "randomized_response": rr_delta,
    "discrete_laplace": discrete_laplace_delta,
    "poisson_laplace": poisson_laplace_delta,
    "mixture_gaussian": mixture_delta,
}


def closed_form(e):
    """The exact value of a single-step entry of the families above: δ(ε) directly, ε(δ)
    as the smallest ε ≥ 0 with δ(ε) ≤ δ (δ(ε) is nonincreasing)."""
    f = DELTA_OF[e["family"]]
    p = e["params"]
    if e["quantity"] == "delta":
        return f(p, mp.mpf(e["query"]["epsilon"]))
    d = mp.mpf(e["query"]["delta"])
    if e["family"] == "mixture_gaussian":
        return mixture_epsilon(p, d)
    return _bisect_down(lambda x: f(p, x), d, mp.mpf(0), mp.mpf(100))


def _contains(e, truth):
    lo, hi = mp.mpf(e["certified"]["lower"]), mp.mpf(e["certified"]["upper"])
    slack = abs(truth) * mp.mpf("1e-12") + mp.mpf("1e-300")
    return lo - slack <= truth <= hi + slack, (e["id"], str(lo), mp.nstr(truth, 20), str(hi))


@needs_mp
def test_closed_forms_are_right():
    # the closed forms against each other and against facts not written in them
    with mp.workdps(40):
        # Laplace is the Poisson-subsampled Laplace at q = 1
        for e in (0.1, 0.7, 1.9):
            assert abs(laplace_delta({"b": "0.5"}, e) - poisson_laplace_delta({"q": "1", "b": "0.5"}, e)) < 1e-30
        # a one-component mixture is the Gaussian G(c/σ): δ = Φ(−ε/μ + μ/2) − e^ε Φ(−ε/μ − μ/2)
        mu = mp.mpf(2) / mp.mpf(1.5)
        for e in (0.5, 2.0):
            g = mp.ncdf(-e / mu + mu / 2) - mp.e**e * mp.ncdf(-e / mu - mu / 2)
            assert abs(mixture_delta({"sigma": "1.5", "sensitivities": ["2"], "probabilities": ["1"]}, e) - g) < 1e-25
        # the mixture's ε(δ) inverts its δ(ε)
        m = {"sigma": "1.5", "sensitivities": ["0", "1", "2"], "probabilities": ["0.5", "0.3", "0.2"]}
        for d in (mp.mpf("1e-5"), mp.mpf("1e-20")):
            assert abs(mixture_delta(m, mixture_epsilon(m, d)) / d - 1) < 1e-20
        # pure DP: δ(ε) = 0 at the pure ε, δ(0) = total variation
        assert laplace_delta({"b": "2"}, mp.mpf("0.5")) == 0
        assert rr_delta({"noise_parameter": "0.5", "buckets": 4}, mp.log(5)) < 1e-35
        assert discrete_laplace_delta({"a": "0.5", "sensitivity": 2}, mp.mpf(1)) == 0
        # RR's δ(0) is s − u = 1 − p
        assert abs(rr_delta({"noise_parameter": "0.3", "buckets": 7}, 0) - mp.mpf(1 - 0.3)) < 1e-15


@needs_mp
def test_committed_single_step_entries_contain_closed_forms():
    doc = _doc()
    checked = {}
    for e in doc["entries"]:
        if e["family"] in DELTA_OF and e["params"]["steps"] == 1:
            ok, why = _contains(e, closed_form(e))
            assert ok, why
            checked[e["family"]] = checked.get(e["family"], 0) + 1
    assert set(checked) == set(DELTA_OF), checked
    assert all(n >= 5 for n in checked.values()), checked


@needs_mp
def test_quick_generator_single_steps_contain_closed_forms():
    from shiftdp_bench import reference as R

    ts = R.tasks(True, sorted(MECHANISM_FAMILIES))
    assert {t[0] for t in ts} == MECHANISM_FAMILIES
    n = 0
    for t in ts:
        if t[0] in DELTA_OF and t[2] == 1:
            e, refusal, fam, _ = R._run(t)
            assert refusal is None and e is not None, (t, refusal)
            assert e["params"]["steps"] == 1 and e["relation_note"] == R.MECHANISMS[fam][1]
            ok, why = _contains(e, closed_form(e))
            assert ok, why
            n += 1
    assert n >= 30


@needs_mp
def test_truncated_subsampled_gaussian_without_truncation_is_the_poisson_gaussian():
    # B ≥ n: the batch is never cut, the pair is PoissonSampled(q, G(1/σ)), i.e. the
    # mixture N(0, σ²) against (1 − q) N(0, σ²) + q N(1, σ²) (closed form above)
    import shiftdp
    from shiftdp_bench.reference import mechanism_component

    p = {"dataset_size": 10, "q": "0.1", "truncated_batch_size": 10, "sigma": "1"}
    for eps in ("0.5", "1.5"):
        iv = shiftdp.compose([mechanism_component("truncated_subsampled_gaussian", p, 1)],
                             epsilon=float(eps), tolerance=1e-6).interval
        truth = mixture_delta({"sigma": "1", "sensitivities": ["0", "1"], "probabilities": ["0.9", "0.1"]},
                              mp.mpf(eps))
        assert iv.lower <= truth * (1 + 1e-9) and truth * (1 - 1e-9) <= iv.upper, (eps, iv, truth)


def test_generate_selected_families():
    from shiftdp_bench import reference as R

    doc = R.generate(True, 1, ["laplace", "randomized_response"])
    assert set(doc["counts"]) == {"laplace", "randomized_response"}
    assert doc["generator"].endswith("--quick --families laplace,randomized_response")
    ids = [e["id"] for e in doc["entries"]]
    assert ids == sorted(ids) and len(set(ids)) == len(ids)
    assert "laplace/b=2/steps=10/delta=1e-20" in ids
    assert "randomized_response/noise_parameter=0.5/buckets=4/steps=1/epsilon=0.5" in ids
    with pytest.raises(ValueError, match="unknown families"):
        R.tasks(True, ["laplace", "no_such_family"])


@needs_mp
def test_composed_pure_dp_entries_respect_the_pure_bound():
    # k steps of a pure ε₀-DP mechanism: ε(δ) ≤ kε₀ for every δ, and at least the single
    # step's ε(δ) (composing more steps is never more private) — on the quick suite
    from shiftdp_bench import reference as R

    for t in R.tasks(True, ["laplace", "discrete_laplace", "randomized_response"]):
        if t[2] == 1 or t[3] != "delta":
            continue
        e, _, fam, _ = R._run(t)
        p, k = e["params"], e["params"]["steps"]
        if fam == "laplace":
            pure = k / _d(p["b"])
        elif fam == "discrete_laplace":
            pure = k * _d(p["a"]) * int(p["sensitivity"])
        else:
            u = _d(p["noise_parameter"]) / p["buckets"]
            pure = k * mp.log((1 - _d(p["noise_parameter"]) + u) / u)
        assert mp.mpf(e["certified"]["lower"]) <= pure * (1 + mp.mpf("1e-12")), e["id"]
        one = dict(e, params=dict(p, steps=1))
        assert mp.mpf(e["certified"]["upper"]) >= closed_form(one) * (1 - mp.mpf("1e-12")), e["id"]


def test_committed_sampler_entries():
    """The sampler family: every run's interval is ordered and finite; a shuffled run's
    upper end is the no-amplification Gaussian G(√E/σ) (zero-out), checked against the
    μ-GDP closed form δ(ε) = Φ(−ε/μ + μ/2) − e^ε Φ(−ε/μ − μ/2) solved here with mpmath;
    and shuffling's lower end lies above the Poisson ε somewhere (the Poisson number is
    provably wrong for shuffled batches)."""
    mp = pytest.importorskip("mpmath")
    mp.mp.dps = 40
    es = [e for e in _doc()["entries"] if e["family"] == "sampler"]
    assert len(es) >= 60
    below = 0
    for e in es:
        lo, hi = float(e["certified"]["lower"]), float(e["certified"]["upper"])
        assert 0 <= lo <= hi < float("inf"), e["id"]
        p = e["params"]
        if p["sampler"] != "shuffle":
            continue
        mu = mp.sqrt(p["epochs"]) / mp.mpf(p["sigma"])
        d = mp.mpf(e["query"]["delta"])
        phi = lambda x: mp.ncdf(x)
        a, b = mp.mpf(0), mp.mpf(80)  # δ(ε) − d decreases in ε: bisect
        for _ in range(120):
            m = (a + b) / 2
            a, b = (m, b) if phi(-m / mu + mu / 2) - mp.exp(m) * phi(-m / mu - mu / 2) > d else (a, m)
        eps = b
        assert float(eps) <= hi <= float(eps) + 2e-3, (e["id"], float(eps), hi)
        below += float(e["poisson_certified"]["upper"]) < lo
    assert below > 0
