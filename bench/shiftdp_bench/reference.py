"""The reference suite of the accountant benchmark: certified intervals for
the standard accounting problems, written to ``bench/shiftdp_bench/data/reference.json``
(package data: the benchmark reads it from the installed package).

    python -m shiftdp_bench.reference [--out bench/shiftdp_bench/data/reference.json] [--quick] [--jobs 2] [--families F,G]
    python -m shiftdp_bench.reference --refine-wide     # recompute only the entries wider than 1e-3

Deterministic: the problem list is fixed here (no randomness), each entry is computed
by shiftdp's public Python API, and entries are written sorted by ``id``. Problems that
shiftdp refuses (``NotCertifiedError``: δ below the composition floor 1e-100, window
limits) are skipped and counted in the header (``refusals``, with the ids).

Families (see :mod:`shiftdp_bench` for the entry format):

* ``gdp`` — μ-GDP ε(δ) and δ(ε) (:func:`shiftdp.epsilon`, :func:`shiftdp.delta`; MPFR at
  128 bits for δ < 1e-280);
* ``poisson_gaussian`` — dp_accounting's ADD_OR_REMOVE_ONE Poisson-subsampled Gaussian
  (noise multiplier σ, rate q, T steps): :class:`shiftdp.PoissonGaussian` with μ = 1/σ
  rounded up (both directions of the pair composed, the larger value reported);
* ``symmetrized_cp`` — BSA24 Def 4.7 ``C_p(G(μ))^{⊗T}`` with μ = 2/σ rounded up (the
  reading of dp_accounting's ``SampledWithoutReplacementDpEvent`` under REPLACE_ONE used
  by :mod:`shiftdp.accounting`);
* ``sgm_rdp`` — the Rényi divergence of the sampled Gaussian mechanism
  (:func:`shiftdp.sgm_rdp`, the order the RDP accountants compute);
* ``published`` — the peers' published test values, with shiftdp's certified interval
  for the same problem;
* the mechanisms beyond the Gaussian, each as dp_accounting's event (single, self-composed
  10, 100, 1000 times, ε(δ) down to δ = 1e-50 and δ(ε)): ``laplace``
  (``LaplaceDpEvent(b)``, :class:`shiftdp.Laplace`), ``poisson_laplace``
  (``PoissonSampledDpEvent(q, LaplaceDpEvent(b))`` under ADD_OR_REMOVE_ONE,
  :class:`shiftdp.PoissonLaplace`), ``discrete_laplace`` (``DiscreteLaplaceDpEvent(a, Δ)``,
  :class:`shiftdp.DiscreteLaplace`), ``randomized_response``
  (``RandomizedResponseDpEvent(p, k)`` under REPLACE_ONE, every repetition composed,
  :class:`shiftdp.RandomizedResponse`), ``mixture_gaussian``
  (``MixtureOfGaussiansDpEvent(σ, c, p)``, :class:`shiftdp.MixtureOfGaussians`) and
  ``truncated_subsampled_gaussian`` (``TruncatedSubsampledGaussianDpEvent(n, q, B, σ)``,
  :class:`shiftdp.TruncatedSubsampledGaussian`); the ``*_NOTE`` constants state each pair
  and relation.

* ``sampler`` — the batches actually drawn (:func:`shiftdp.sampler_report`, zero-out
  neighbours): for shuffled, shuffle-once, balls-in-bins and fixed-size batches, the
  certified ``[lower, upper]`` of the run's true ε(δ) — the honest state of knowledge,
  often wide, so exempt from ``MAX_REL_WIDTH`` — with the Poisson parameters a peer
  accountant is given for the same run (``q = 1/T``, ``S = T·E`` steps; ``q = b/n`` for
  fixed-size batches): a peer's Poisson number below ``lower`` is provably wrong for
  the sampler used.

``--families a,b`` computes only the named families (a partial suite, for tests and for
looking at one family).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from decimal import ROUND_CEILING, Context, Decimal
from typing import Any, Dict, List, Optional, Sequence, Tuple

FORMAT = "shiftdp-reference/1"

POISSON_NOTE = (
    "dp_accounting NeighboringRelation.ADD_OR_REMOVE_ONE, PoissonSampledDpEvent(q, "
    "GaussianDpEvent(sigma)) self-composed `steps` times; shiftdp PoissonGaussian(q, mu, "
    "steps) with mu = 1/sigma rounded up to a double (shiftdp._types.mu_up): both "
    "directions of the add/remove pair composed, the larger epsilon (delta) reported"
)
CP_NOTE = (
    "BSA24 Def 4.7 symmetrized C_p(G(mu))^{(x)steps} with p = q and mu = 2/sigma rounded up: "
    "the reading of dp_accounting's SampledWithoutReplacementDpEvent(n, m, "
    "GaussianDpEvent(sigma)) under REPLACE_ONE with p = m/n used by "
    "shiftdp.accounting.CertifiedPLDAccountant (sigma relative to the add/remove "
    "sensitivity C, replacing a record moves the sum by up to 2C; DRS22 Thm 9, BSA24 "
    "Thm 4.8 with L = 2C). dp_accounting's RdpAccountant reads sigma relative to the "
    "replace-one sensitivity instead (a factor 2; google/differential-privacy issue #378)"
)
RDP_NOTE = (
    "D_alpha((1-q)N(0,sigma^2) + qN(1,sigma^2) || N(0,sigma^2)) (Mironov-Talwar-Zhang 2019 "
    "A_alpha, order 'mixture-base'): the order dp_accounting's RdpAccountant and Opacus's "
    "RDPAccountant compute (_compute_log_a), the larger of the two orders (MTZ19 Thm 5); "
    "add/remove adjacency, sensitivity 1, one step"
)
GDP_NOTE = "mu-GDP: G(mu) = (N(0,1), N(mu,1)), DRS22 Cor 2.13; no neighbouring relation"
LAPLACE_NOTE = (
    "dp_accounting LaplaceDpEvent(b) (Laplace noise of scale b at sensitivity 1) self-composed "
    "`steps` times, ADD_OR_REMOVE_ONE (REPLACE_SPECIAL reads it the same); shiftdp Laplace(b, 1, "
    "steps): the pair (Lap(0, b), Lap(1, b)), symmetric, so one order is the whole answer"
)
POISSON_LAPLACE_NOTE = (
    "dp_accounting NeighboringRelation.ADD_OR_REMOVE_ONE, PoissonSampledDpEvent(q, "
    "LaplaceDpEvent(b)) self-composed `steps` times; shiftdp PoissonLaplace(q, b, 1, steps): "
    "both orders of the add/remove pair ((1-q)Lap(0, b) + q Lap(1, b) against Lap(0, b), and the "
    "reverse) composed, the larger epsilon (delta) reported"
)
DISCRETE_LAPLACE_NOTE = (
    "dp_accounting DiscreteLaplaceDpEvent(a, sensitivity) self-composed `steps` times, "
    "ADD_OR_REMOVE_ONE: the pair (Z, sensitivity + Z) with Pr[Z = z] proportional to "
    "exp(-a|z|), symmetric; shiftdp DiscreteLaplace(a, sensitivity, steps)"
)
RR_NOTE = (
    "dp_accounting RandomizedResponseDpEvent(noise_parameter p, num_buckets k) under REPLACE_ONE "
    "(neighbours differ in one respondent's value): the true value with probability 1 - p, a "
    "uniform bucket otherwise, i.e. the pair (s, u, u, ...) against (u, s, u, ...) with "
    "s = 1 - p + p/k, u = p/k, symmetric; shiftdp RandomizedResponse(p, k, steps), every one of "
    "the `steps` repetitions composed (dp_accounting's PLDAccountant composes the event once "
    "whatever the count: PEERS.md P9)"
)
MOG_NOTE = (
    "dp_accounting MixtureOfGaussiansDpEvent(sigma, sensitivities c, sampling_probs p) self-composed "
    "`steps` times, ADD_OR_REMOVE_ONE: N(0, sigma^2) against sum_i p_i N(c_i, sigma^2) (the MMCC "
    "pair of banded matrix mechanisms), both orders composed, the larger epsilon (delta) "
    "reported; shiftdp MixtureOfGaussians(sigma, c, p, steps)"
)
TSG_NOTE = (
    "dp_accounting TruncatedSubsampledGaussianDpEvent(dataset_size n, sampling_probability q, "
    "truncated_batch_size B, noise_multiplier sigma) self-composed `steps` times, "
    "ADD_OR_REMOVE_ONE: dp_accounting's dominating pair (from_truncated_subsampled_gaussian_mechanism: "
    "with w = Pr[Bin(n-1, q) >= B], the public mixture w (replace-one subsampled Gaussian, mu = 2/sigma, "
    "rate q' = Pr[Bin(n, q) >= B+1] B/(w n)) + (1-w) PoissonSampled(q, G(1/sigma)), both orders), "
    "evaluated with certified arithmetic; shiftdp TruncatedSubsampledGaussian(n, q, B, sigma, steps). "
    "The pair's validity for the truncated mechanism is dp_accounting's analysis"
)

SAMPLER_NOTE = (
    "the run's own batch sampler under zero-out neighbours (n fixed; dp_accounting and Opacus "
    "read it as ADD_OR_REMOVE_ONE): certified [lower, upper] of its true epsilon(delta) from "
    "shiftdp.sampler_report (upper: the best analysis valid for the sampler; lower: explicit "
    "neighbouring datasets and tests). The peers are given what a practitioner gives them, the "
    "Poisson-subsampled Gaussian at q = 1/T (Opacus's 1/len(loader); b/n for fixed-size "
    "batches) for S = T·E steps; a value below lower is provably wrong for the sampler"
)

MAX_REL_WIDTH = Decimal("1e-2")

_CTX_UP = Context(prec=3, rounding=ROUND_CEILING)


def rel_width(lower: str, upper: str) -> str:
    lo, hi = Decimal(lower), Decimal(upper)
    if hi <= 0:
        return "0"
    return str(_CTX_UP.divide(hi - lo, hi))


def _scale(s: str, k: int) -> str:
    """k · s exactly (decimal)."""
    return str(Decimal(s) * k)


def _entry(
    id: str,
    family: str,
    relation: str,
    params: Dict[str, Any],
    query: Dict[str, str],
    quantity: str,
    lower: str,
    upper: str,
    source: str = "shiftdp grid",
    published: Optional[Dict[str, str]] = None,
    **extra: Any,
) -> Dict[str, Any]:
    e: Dict[str, Any] = {
        "id": id,
        "family": family,
        "relation": relation,
        "params": params,
        "query": query,
        "quantity": quantity,
        "certified": {"lower": lower, "upper": upper},
        "rel_width": rel_width(lower, upper),
        "source": source,
        "published": published,
    }
    e.update(extra)
    return e




# --------------------------------------------------------------------------- tasks
# A task is a picklable tuple; `_run` computes one and returns (entry | None, refusal).


def _compose(kind: str, q: float, sigma: float, steps: int, target: str, value: float) -> Any:
    import shiftdp
    from shiftdp._types import mu_up as _mu_up

    if kind == "poisson":
        comp = shiftdp.PoissonGaussian(q, mu=_mu_up(sigma), count=steps)
    elif kind == "cp":
        comp = shiftdp.SubsampledGaussian(q, mu=_mu_up(sigma, 2.0), count=steps)
    else:
        comp = shiftdp.Gaussian(mu=_mu_up(sigma), count=steps)
    return _certify(comp, target, value)


WIDE_REL_WIDTH = 1e-3
"""A relative width above which ``_certify`` refines an interval (and the benchmark's
report calls the reference wide)."""

REFINE_GRIDS = (12, 14)
"""Explicit grids (step 2⁻ᵍ) ``_certify`` tries for an interval still wider than
:data:`WIDE_REL_WIDTH` after the tolerance refinement: at δ near the composition floor the
planner's grid can be far from the best one (C_p(G(4)) at δ = 1e-100: relative width
8.9e-3 from the planner, 1.2e-9 on grid 12, in about a second)."""


def _rel(iv: Any) -> float:
    return (iv.upper - iv.lower) / iv.upper if iv.upper > 0 else 0.0


def _certify(comp: Any, target: str, value: float) -> Any:
    """The certified interval of one component's ε(δ) (``target == "delta"``) or δ(ε):
    tolerance 1e-4, refined once toward a relative width of 1e-3 when that was cheap;
    when it is still wider than :data:`WIDE_REL_WIDTH`, the narrowest of it and the
    intervals on the :data:`REFINE_GRIDS` (every one is certified, so any is a valid
    reference)."""
    import shiftdp

    kw = {target: value}
    t0 = time.perf_counter()
    r = shiftdp.compose([comp], tolerance=1e-4, **kw)
    iv = r.interval
    dt = time.perf_counter() - t0
    # refine once toward rel_width ≤ 1e-3 when it was cheap (tolerance is absolute for ε)
    if _rel(iv) > WIDE_REL_WIDTH and dt < 4.0:
        tol = max(2e-4 * iv.upper, 1e-9) if target == "delta" else 2e-4
        try:
            r2 = shiftdp.compose([comp], tolerance=tol, **kw)
            if r2.interval.upper - r2.interval.lower < iv.upper - iv.lower:
                iv = r2.interval
        except shiftdp.NotCertifiedError:
            pass
    if _rel(iv) > WIDE_REL_WIDTH:
        for g in REFINE_GRIDS:
            try:
                r3 = shiftdp.compose([comp], grid=g, **kw)
            except (shiftdp.NotCertifiedError, shiftdp.MemoryLimitError):
                continue
            if r3.interval.upper - r3.interval.lower < iv.upper - iv.lower:
                iv = r3.interval
    return iv


def _run(task: Tuple[Any, ...]) -> Tuple[Optional[Dict[str, Any]], Optional[str], str, float]:
    import shiftdp

    fam = task[0]
    t0 = time.perf_counter()
    try:
        if fam == "gdp":
            _, mu, which, x = task
            bits = 128 if (which == "epsilon" and Decimal(x) < Decimal("1e-280")) else None
            if which == "epsilon":
                iv = shiftdp.epsilon(mu, x, bits=bits)
                query, qty = {"delta": x}, "epsilon"
            else:
                iv = shiftdp.delta(mu, x)
                query, qty = {"epsilon": x}, "delta"
            tag = "eps" if qty == "epsilon" else "delta"
            e = _entry(
                f"gdp/{tag}/mu={mu}/{'delta' if qty == 'epsilon' else 'epsilon'}={x}",
                "gdp", "none", {"mu": mu}, query, qty, iv.lower_decimal, iv.upper_decimal,
                relation_note=GDP_NOTE, path=iv.path,
            )
        elif fam in ("poisson_gaussian", "symmetrized_cp"):
            _, q, sigma, steps, target, value = task
            kind = "poisson" if fam == "poisson_gaussian" else "cp"
            iv = _compose(kind, float(q), float(sigma), steps, target, float(value))
            qty = "epsilon" if target == "delta" else "delta"
            e = _entry(
                f"{fam}/q={q}/sigma={sigma}/steps={steps}/{target}={value}",
                fam,
                "add_remove" if fam == "poisson_gaussian" else "replace_one",
                {"q": q, "sigma": sigma, "steps": steps},
                {target: value}, qty, iv.lower_decimal, iv.upper_decimal,
                relation_note=POISSON_NOTE if fam == "poisson_gaussian" else CP_NOTE,
            )
        elif fam == "sgm_rdp":
            _, q, sigma, alpha = task
            iv = shiftdp.sgm_rdp(float(q), float(sigma), float(alpha))
            e = _entry(
                f"sgm_rdp/q={q}/sigma={sigma}/alpha={alpha}",
                "sgm_rdp", "add_remove", {"q": q, "sigma": sigma, "steps": 1},
                {"alpha": alpha}, "rdp", iv.lower_decimal, iv.upper_decimal,
                relation_note=RDP_NOTE,
            )
        elif fam == "published":
            e = _published(task[1])
        elif fam == "sampler":
            _, sampler, sigma, epochs, t, delta = task
            b = 100
            r = shiftdp.sampler_report(sampler, t * b, b, epochs, float(sigma), "zero-out", float(delta))
            q = b / (t * b) if sampler == "fixed-size" else 1.0 / t
            e = _entry(
                f"sampler/{sampler}/sigma={sigma}/epochs={epochs}/T={t}/delta={delta}",
                "sampler", "zero_out",
                {"sampler": sampler, "n": t * b, "batch": b, "epochs": epochs, "steps_per_epoch": t,
                 "sigma": sigma, "q": repr(q), "steps": t * epochs},
                {"delta": delta}, "epsilon", r.lower_decimal, r.upper_decimal,
                relation_note=SAMPLER_NOTE,
                poisson_certified={"lower": repr(r.poisson.lower), "upper": repr(r.poisson.upper)},
                upper_by=r.upper_bound.name if r.upper_bound is not None else None,
                lower_by=max(r.lower_bounds, key=lambda x: x.lower).name if r.lower_bounds else None,
            )
        elif fam in MECHANISMS:
            _, items, steps, target, value = task
            params = dict(items)
            iv = _certify(mechanism_component(fam, params, steps), target, float(value))
            qty = "epsilon" if target == "delta" else "delta"
            relation, note = MECHANISMS[fam]
            e = _entry(
                f"{fam}/{_id_params(params)}/steps={steps}/{target}={value}",
                fam, relation, {**_json_params(params), "steps": steps},
                {target: value}, qty, iv.lower_decimal, iv.upper_decimal,
                relation_note=note,
            )
        else:  # pragma: no cover
            raise ValueError(fam)
    except shiftdp.NotCertifiedError as err:
        return None, f"{fam}:{task[1:]}: {str(err)[:160]}", fam, time.perf_counter() - t0
    except shiftdp.ShiftdpError as err:
        return None, f"{fam}:{task[1:]}: {type(err).__name__}: {str(err)[:160]}", fam, time.perf_counter() - t0
    return e, None, fam, time.perf_counter() - t0


# ----------------------------------------------------------------- other mechanisms

MECHANISMS: Dict[str, Tuple[str, str]] = {
    "laplace": ("add_remove", LAPLACE_NOTE),
    "poisson_laplace": ("add_remove", POISSON_LAPLACE_NOTE),
    "discrete_laplace": ("add_remove", DISCRETE_LAPLACE_NOTE),
    "randomized_response": ("replace_one", RR_NOTE),
    "mixture_gaussian": ("add_remove", MOG_NOTE),
    "truncated_subsampled_gaussian": ("add_remove", TSG_NOTE),
}
"""The families of the mechanisms beyond the Gaussian: family → (relation,
relation_note)."""


def mechanism_component(family: str, params: Dict[str, Any], steps: int) -> Any:
    """shiftdp's component for an entry of one of :data:`MECHANISMS` (``params`` as in the
    entry: decimal strings, integers, lists of decimal strings for the mixture). The
    floats are the nearest doubles of the decimals, the numbers dp_accounting's event
    carries when built from the same entry."""
    import shiftdp

    f = float
    if family == "laplace":
        return shiftdp.Laplace(f(params["b"]), 1.0, steps)
    if family == "poisson_laplace":
        return shiftdp.PoissonLaplace(f(params["q"]), f(params["b"]), 1.0, steps)
    if family == "discrete_laplace":
        return shiftdp.DiscreteLaplace(f(params["a"]), int(params["sensitivity"]), steps)
    if family == "randomized_response":
        return shiftdp.RandomizedResponse(f(params["noise_parameter"]), int(params["buckets"]), steps)
    if family == "mixture_gaussian":
        return shiftdp.MixtureOfGaussians(
            f(params["sigma"]), [f(c) for c in params["sensitivities"]],
            [f(p) for p in params["probabilities"]], steps,
        )
    if family == "truncated_subsampled_gaussian":
        return shiftdp.TruncatedSubsampledGaussian(
            int(params["dataset_size"]), f(params["q"]), int(params["truncated_batch_size"]),
            f(params["sigma"]), steps,
        )
    raise ValueError(f"not a mechanism family: {family}")


def _json_params(params: Dict[str, Any]) -> Dict[str, Any]:
    return {k: list(v) if isinstance(v, tuple) else v for k, v in params.items()}


def _id_params(params: Dict[str, Any]) -> str:
    return "/".join(f"{k}={','.join(v) if isinstance(v, tuple) else v}" for k, v in params.items())


# per family: the mechanisms (params; tuples for the mixture's lists), the step counts and
# δ of the ε(δ) entries, and the (mechanism index, steps, ε) of the δ(ε) entries
MECH_STEPS = [1, 10, 100, 1000]
MECH_DELTA = ["1e-5", "1e-10", "1e-20", "1e-50"]
MECH_GRID: Dict[str, Dict[str, Any]] = {
    "laplace": dict(
        mechs=[{"b": "0.5"}, {"b": "2"}, {"b": "10"}],
        eps=[(0, 1, "0.5"), (0, 1, "1.5"), (1, 10, "1"), (1, 10, "3"), (2, 100, "2"), (2, 1000, "10")],
    ),
    "poisson_laplace": dict(
        mechs=[{"q": "0.01", "b": "0.5"}, {"q": "0.1", "b": "1"}, {"q": "0.5", "b": "2"}],
        eps=[(0, 1, "0.03"), (0, 1000, "1"), (1, 10, "0.5"), (1, 100, "1"), (2, 100, "2"), (2, 1000, "5")],
    ),
    "discrete_laplace": dict(
        mechs=[{"a": "0.1", "sensitivity": 1}, {"a": "0.5", "sensitivity": 2}, {"a": "1", "sensitivity": 1}],
        eps=[(0, 100, "1"), (0, 1000, "5"), (1, 1, "0.5"), (1, 10, "3"), (2, 1, "0.5"), (2, 100, "10")],
    ),
    "randomized_response": dict(
        mechs=[{"noise_parameter": "0.1", "buckets": 2}, {"noise_parameter": "0.5", "buckets": 4},
               {"noise_parameter": "0.9", "buckets": 10}],
        eps=[(0, 1, "1"), (0, 10, "10"), (1, 1, "0.5"), (1, 100, "10"), (2, 10, "2"), (2, 1000, "10")],
    ),
    # dp_accounting's PLD of a mixture takes tens of seconds per build at its default grid
    # (PEERS.md P11): fewer entries, so that the benchmark run stays short
    "mixture_gaussian": dict(
        mechs=[{"sigma": "1", "sensitivities": ("0", "1"), "probabilities": ("0.9", "0.1")},
               {"sigma": "1.5", "sensitivities": ("0", "1", "2"), "probabilities": ("0.5", "0.3", "0.2")},
               {"sigma": "2", "sensitivities": ("0", "0.5", "1"), "probabilities": ("0.7", "0.2", "0.1")}],
        steps=[1, 10, 1000], delta=["1e-5", "1e-20", "1e-50"],
        eps=[(0, 1, "1"), (0, 10, "2"), (1, 10, "2"), (2, 1, "0.5"), (2, 1000, "5")],
    ),
    "truncated_subsampled_gaussian": dict(
        mechs=[{"dataset_size": 100, "q": "0.05", "truncated_batch_size": 8, "sigma": "1"},
               {"dataset_size": 1000, "q": "0.01", "truncated_batch_size": 15, "sigma": "1"},
               {"dataset_size": 10000, "q": "0.001", "truncated_batch_size": 15, "sigma": "0.8"}],
        eps=[(0, 1, "1"), (0, 100, "2"), (1, 10, "0.5"), (1, 1000, "2"), (2, 100, "1"), (2, 1000, "2")],
    ),
}


def _mechanism_tasks(family: str, quick: bool) -> List[Tuple[Any, ...]]:
    g = MECH_GRID[family]
    mechs = g["mechs"]
    steps = g.get("steps", MECH_STEPS)
    deltas = g.get("delta", MECH_DELTA)
    if quick:
        # every mechanism once (the single-step entries carry the closed-form checks),
        # one composed and one tiny-δ query
        steps, deltas = [1, 10], [deltas[0], "1e-20"]
    out: List[Tuple[Any, ...]] = []
    for m in mechs:
        items = tuple(m.items())
        for t in steps:
            for d in deltas:
                out.append((family, items, t, "delta", d))
    for i, t, e in g["eps"]:
        if quick and t > 10:
            continue
        out.append((family, tuple(mechs[i].items()), t, "epsilon", e))
    return out


# ------------------------------------------------------------------------- problems

GDP_MU = ["0.05", "0.1", "0.2", "0.3", "0.5", "0.75", "1", "1.5", "2", "3", "5", "7.5",
          "10", "15", "20", "30", "50"]
GDP_DELTA = ["1e-2", "1e-3", "1e-5", "1e-6", "1e-8", "1e-10", "1e-12", "1e-15", "1e-20",
             "1e-30", "1e-50", "1e-75", "1e-100", "1e-150", "1e-200", "1e-250", "1e-290",
             "1e-300"]
GDP_EPS = ["0.1", "0.5", "1", "2", "5", "10", "20"]

RDP_Q = ["1e-4", "1e-3", "0.01", "0.1", "0.5", "0.9"]
RDP_SIGMA = ["0.5", "1", "2", "5", "10"]
RDP_ALPHA = ["1.5", "2", "2.5", "3", "5", "8", "10.5", "16", "32", "64", "100.5", "256"]

PG_Q = ["1e-4", "3e-4", "1e-3", "0.01", "0.05", "0.2", "0.5"]
PG_SIGMA = ["0.5", "0.8", "1", "1.5", "2", "5", "10"]
PG_T = [1, 10, 100, 1000, 10000]
PG_DELTA = ["1e-2", "1e-5", "1e-10", "1e-20", "1e-50", "1e-100", "1e-300"]


def _designed(qs: List[str], sigmas: List[str], ts: List[int], deltas: List[str], n: int) -> List[Tuple[str, str, int, str]]:
    """Corners (all 16 extreme combinations, δ ∈ {largest, 1e-100}) and a deterministic
    Latin-style sample: point i takes the (i·a_k mod len)-th value of each axis with
    coprime strides, so every value of every axis appears about equally often."""
    pts = []
    for q in (qs[0], qs[-1]):
        for s in (sigmas[0], sigmas[-1]):
            for t in (ts[0], ts[-1]):
                for d in (deltas[0], "1e-100"):
                    pts.append((q, s, t, d))
    for i in range(n):
        pts.append((qs[(3 * i + 1) % len(qs)], sigmas[(5 * i + 2) % len(sigmas)],
                    ts[(2 * i + 1) % len(ts)], deltas[(4 * i + 3) % len(deltas)]))
    seen, out = set(), []
    for p in pts:
        if p not in seen:
            seen.add(p)
            out.append(p)
    return out


FAMILIES = ["gdp", "sgm_rdp", "poisson_gaussian", "symmetrized_cp", "published", *MECHANISMS, "sampler"]

SAMPLER_KINDS = ["shuffle", "shuffle-once", "balls-in-bins", "fixed-size"]
SAMPLER_SIGMA = ["0.5", "1", "2"]
SAMPLER_EPOCHS = [1, 5]
SAMPLER_T = [10, 100, 1000]


def tasks(quick: bool, families: Optional[Sequence[str]] = None) -> List[Tuple[Any, ...]]:
    """The problem list (every family, or only ``families``)."""
    if families is not None:
        unknown = sorted(set(families) - set(FAMILIES))
        if unknown:
            raise ValueError(f"unknown families {unknown}; known: {FAMILIES}")
    ts = [t for t in _all_tasks(quick) if families is None or t[0] in families]
    return ts


def _all_tasks(quick: bool) -> List[Tuple[Any, ...]]:
    ts: List[Tuple[Any, ...]] = []
    mus = GDP_MU[::2] if quick else GDP_MU
    for mu in mus:
        for d in (GDP_DELTA[::3] if quick else GDP_DELTA):
            ts.append(("gdp", mu, "epsilon", d))
        for e in GDP_EPS:
            ts.append(("gdp", mu, "delta", e))
    for q in RDP_Q:
        for s in RDP_SIGMA:
            for a in (RDP_ALPHA[::3] if quick else RDP_ALPHA):
                ts.append(("sgm_rdp", q, s, a))
    n_pg = 20 if quick else 80
    for q, s, t, d in _designed(PG_Q, PG_SIGMA, PG_T, PG_DELTA, n_pg):
        ts.append(("poisson_gaussian", q, s, t, "delta", d))
    # δ(ε) entries
    for i, (q, s, t) in enumerate([("1e-3", "1", 1000), ("0.01", "1", 1000), ("0.01", "2", 10000),
                                   ("0.2", "5", 100), ("0.05", "1.5", 100), ("0.5", "10", 10)]):
        for eps in ("0.5", "1", "4"):
            ts.append(("poisson_gaussian", q, s, t, "epsilon", eps))
    if not quick:
        # a few long runs (T = 10^5, 10^6): ~50 s each
        ts.append(("poisson_gaussian", "0.01", "1", 100000, "delta", "1e-5"))
        ts.append(("poisson_gaussian", "1e-3", "2", 1000000, "delta", "1e-5"))
    n_cp = 10 if quick else 30
    for q, s, t, d in _designed(PG_Q, PG_SIGMA, PG_T[:4], PG_DELTA, n_cp):
        ts.append(("symmetrized_cp", q, s, t, "delta", d))
    for key in PUBLISHED:
        if quick and PUBLISHED[key].get("slow"):
            continue
        ts.append(("published", key))
    for fam in MECHANISMS:
        ts.extend(_mechanism_tasks(fam, quick))
    for sampler in SAMPLER_KINDS:
        for sigma in SAMPLER_SIGMA[::2] if quick else SAMPLER_SIGMA:
            for epochs in SAMPLER_EPOCHS[:1] if quick else SAMPLER_EPOCHS:
                for t in SAMPLER_T[:2] if quick else SAMPLER_T:
                    ts.append(("sampler", sampler, sigma, epochs, t, "1e-5"))
    return ts


# ------------------------------------------------------------------------ published

DPA = "google/differential-privacy python/dp_accounting/dp_accounting/"
OPA = "pytorch/opacus opacus/tests/accountants_test.py"
TFP = "tensorflow/privacy tensorflow_privacy/privacy/analysis/compute_dp_sgd_privacy_test.py"
FA = "DPBayes/PLD-Accountant tests/test_compute_delta.py"

# key -> problem. kind: "poisson" (add/remove Poisson-subsampled Gaussian composed),
# "gaussian" (Gaussian, sigma relative to add/remove sensitivity), "rdp" (steps · sgm_rdp).
PUBLISHED: Dict[str, Dict[str, Any]] = {
    "dpa-pld-gaussian_basic-delta": dict(
        kind="gaussian", q="1", sigma=math.sqrt(3), sigma_text="sqrt(3)", steps=3, target="epsilon", value="1",
        published="0.126936", src=DPA + "pld/pld_privacy_accountant_test.py::test_gaussian_basic",
        note="PLDAccountant, GaussianDpEvent(sqrt(3)) composed 1 + 2 times; exact_delta asserted within 1e-3"),
    "dpa-pld-gaussian_basic-eps": dict(
        kind="gaussian", q="1", sigma=math.sqrt(3), sigma_text="sqrt(3)", steps=3, target="delta", value="0.126936",
        published="1", src=DPA + "pld/pld_privacy_accountant_test.py::test_gaussian_basic",
        note="exact_epsilon asserted within 1e-3"),
    "dpa-pld-poisson_subsampled_gaussian-delta": dict(
        kind="poisson", q="0.2", sigma="0.5", steps=3, target="epsilon", value="1",
        published="0.15594", src=DPA + "pld/pld_privacy_accountant_test.py::test_poisson_subsampled_gaussian",
        note="PLDAccountant (ADD_OR_REMOVE_ONE), composed 1 + 2 times; asserted within 1e-3"),
    "dpa-pld-poisson_subsampled_gaussian-eps": dict(
        kind="poisson", q="0.2", sigma="0.5", steps=3, target="delta", value="0.15594",
        published="1", src=DPA + "pld/pld_privacy_accountant_test.py::test_poisson_subsampled_gaussian",
        note="asserted within 1e-3"),
    "dpa-pld-self_composed_subsampled_gaussian-delta": dict(
        kind="poisson", q="0.2", sigma="0.5", steps=3, target="epsilon", value="1",
        published="0.15594", src=DPA + "pld/pld_privacy_accountant_test.py::test_self_composed_subsampled_gaussian",
        note="SelfComposedDpEvent(..., 3); asserted within 1e-3"),
    "dpa-rdp-gaussian_eps": dict(
        kind="gaussian", q="1", sigma="4.530877117", steps=1, target="delta", value="1e-6",
        published="1", src=DPA + "rdp/rdp_privacy_accountant_test.py::test_compute_epsilon_delta_gaussian",
        note="RDP-to-(eps, delta) conversion over orders 1..100 (an upper bound by construction, "
             "sigma chosen so that the RDP bound is (1, 1e-6)); the certified value is the exact one"),
    "dpa-rdp-gaussian_delta": dict(
        kind="gaussian", q="1", sigma="4.530877117", steps=1, target="epsilon", value="1",
        published="1e-6", src=DPA + "rdp/rdp_privacy_accountant_test.py::test_compute_epsilon_delta_gaussian",
        note="RDP conversion (upper bound); the certified value is the exact delta"),
    "opacus-rdp": dict(
        kind="poisson", q="0.04", sigma="1.5", steps=int(90 / 0.04), target="delta", value="1e-5",
        published="7.32911117143", src=OPA + "::test_rdp_accountant",
        note="RDPAccountant, steps = int(90 / 0.04) = 2250; an RDP upper bound"),
    "opacus-gdp": dict(
        kind="poisson", q="0.04", sigma="1.5", steps=int(90 // 0.04), target="delta", value="1e-5",
        published="6.595", src=OPA + "::test_gdp_accountant",
        note="GaussianAccountant (CLT approximation, not a bound); the test asserts 6.59 < eps < 6.6 "
             "(value recorded: the midpoint); steps = int(90 // 0.04) = 2249"),
    "opacus-prv": dict(
        kind="poisson", q="0.04", sigma="1.5", steps=int(90 // 0.04), target="delta", value="1e-5",
        published="6.777395712150674", src=OPA + "::test_prv_accountant",
        note="PRVAccountant, steps = int(90 // 0.04) = 2249 (opacus commit 4d0ebc8)"),
    "tfp-test0": dict(
        kind="poisson", q=repr(150 / 60000), sigma="1.3", steps=int(math.ceil(15 * 60000 / 150)),
        target="delta", value="1e-5", published="0.7242234026109595",
        src=TFP + "::test_compute_dp_sgd_privacy(Test0)",
        note="compute_dp_sgd_privacy(n=60000, batch_size=150, noise_multiplier=1.3, epochs=15, "
             "delta=1e-5): q = 150/60000, steps = ceil(15·60000/150) = 6000, RdpAccountant "
             "(upper bound), optimal order 19"),
    "tfp-test1": dict(
        kind="poisson", q=repr(100 / 100000), sigma="1.0", steps=int(math.ceil(30 * 100000 / 100)),
        target="delta", value="1e-7", published="1.4154988495444845",
        src=TFP + "::test_compute_dp_sgd_privacy(Test1)",
        note="compute_dp_sgd_privacy(n=100000, batch_size=100, noise_multiplier=1.0, epochs=30, "
             "delta=1e-7): q = 0.001, steps = 30000, RdpAccountant (upper bound), optimal order 13"),
}
for _a, _v in zip(["1.5", "2.5", "5", "50", "100"],
                  ["6.70579741e-04", "1.08548710e-03", "2.18075656e-03", "2.38460375e-02", "1.67416308e02"]):
    PUBLISHED[f"dpa-rdp-poisson_sampled_gaussian-alpha={_a}"] = dict(
        kind="rdp", q="0.01", sigma="2.5", steps=50, alpha=_a, published=_v,
        src=DPA + "rdp/rdp_privacy_accountant_test.py::test_compute_rdp_poisson_sampled_gaussian",
        note="RdpAccountant._rdp after SelfComposedDpEvent(PoissonSampledDpEvent(0.01, "
             "GaussianDpEvent(2.5)), 50), asserted with rtol 1e-4; certified = 50 · D_alpha "
             "(order mixture-base, " + "the order _compute_log_a computes)")
for _key, _kw, _v in [
    ("r-eps1-s2-q0.01-T1e4", dict(value="1.0", sigma="2.0", q="0.01", steps=10000), "0.010224911209191894"),
    ("r-eps0.8-s2-q0.01-T1e4", dict(value="0.8", sigma="2.0", q="0.01", steps=10000), "0.022850339595771204"),
    ("r-eps1-s1-q0.01-T1e4", dict(value="1.0", sigma="1.0", q="0.01", steps=10000), "0.2391763947364977"),
    ("r-eps1-s2-q0.02-T1e4", dict(value="1.0", sigma="2.0", q="0.02", steps=10000), "0.14991732969314892"),
    ("r-eps1-s2-q0.01-T1e5", dict(value="1.0", sigma="2.0", q="0.01", steps=100000), "0.39205728853284305"),
]:
    PUBLISHED[f"fourier-{_key}"] = dict(
        kind="poisson", target="epsilon", published=_v, slow=_kw["steps"] > 10000,
        src=FA + "::test_get_delta_R_regression_valid_params",
        note="fourier_accountant.get_delta_R(target_eps, sigma, q, ncomp, nx=1e6, L=20): Poisson "
             "subsampled Gaussian, 'remove' relation of Koskela et al. 2020, which evaluates one "
             "direction of the add/remove pair (P = q N(1, s^2) + (1-q) N(0, s^2) vs N(0, s^2)); "
             "shiftdp reports the larger of both directions, so the published value may lie below "
             "the certified interval if the other direction dominates",
        **_kw)


def _published(key: str) -> Dict[str, Any]:
    import shiftdp

    p = PUBLISHED[key]
    src, pub = p["src"], {"value": p["published"], "by": p["src"].split(" ")[0]}
    if p["kind"] == "rdp":
        iv = shiftdp.sgm_rdp(float(p["q"]), float(p["sigma"]), float(p["alpha"]))
        k = p["steps"]
        return _entry(
            f"published/{key}", "published", "add_remove",
            {"q": p["q"], "sigma": p["sigma"], "steps": k}, {"alpha": p["alpha"]}, "rdp",
            _scale(iv.lower_decimal, k), _scale(iv.upper_decimal, k), src, pub,
            relation_note=RDP_NOTE + f"; composed over {k} steps (RDP adds)", note=p["note"],
        )
    sigma = float(p["sigma"])
    kind = "poisson" if p["kind"] == "poisson" else "gaussian"
    iv = _compose(kind, float(p["q"]), sigma, p["steps"], p["target"], float(p["value"]))
    qty = "epsilon" if p["target"] == "delta" else "delta"
    note = POISSON_NOTE if kind == "poisson" else (
        "dp_accounting ADD_OR_REMOVE_ONE GaussianDpEvent(sigma): G(1/sigma) (mu rounded up), composed "
        "in closed form G(sqrt(steps)·mu)")
    return _entry(
        f"published/{key}", "published", "add_remove",
        {"q": p["q"], "sigma": repr(float(p["sigma"])), "steps": p["steps"],
         **({"sigma_expr": p["sigma_text"]} if "sigma_text" in p else {})},
        {p["target"]: p["value"]}, qty, iv.lower_decimal, iv.upper_decimal, src, pub,
        relation_note=note, note=p["note"],
    )


# ----------------------------------------------------------------------------- main


def generate(quick: bool, jobs: int, families: Optional[Sequence[str]] = None) -> Dict[str, Any]:
    import shiftdp

    todo = tasks(quick, families)
    # longest first (a rough cost: composition steps), so the pool ends together
    def cost(t: Tuple[Any, ...]) -> float:
        if t[0] in ("poisson_gaussian", "symmetrized_cp"):
            return float(t[3])
        if t[0] == "published":
            return float(PUBLISHED[t[1]].get("steps", 1))
        if t[0] in MECHANISMS:
            return float(t[2])
        if t[0] == "sampler":
            return float(t[3] * t[4])
        return 0.0

    todo.sort(key=cost, reverse=True)
    t0 = time.perf_counter()
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as ex:
            results = list(ex.map(_run, todo, chunksize=1))
    else:
        results = [_run(t) for t in todo]
    wall = time.perf_counter() - t0
    # an interval wider than MAX_REL_WIDTH (e.g. a lower end of 0 where ε is tiny) is of
    # no use as a reference: dropped and counted
    # (the sampler family's intervals are the state of knowledge, wide by nature: kept)
    wide = sorted(
        e["id"] for e, _, _, _ in results
        if e is not None and e["family"] != "sampler" and Decimal(e["rel_width"]) > MAX_REL_WIDTH
    )
    results = [(None if e is not None and e["id"] in wide else e, r, f, t) for e, r, f, t in results]
    entries = sorted((e for e, _, _, _ in results if e is not None), key=lambda e: e["id"])
    refusals = sorted(r for _, r, _, _ in results if r is not None)
    times: Dict[str, float] = {}
    counts: Dict[str, int] = {}
    refused: Dict[str, int] = {}
    for e, r, fam, dt in results:
        times[fam] = times.get(fam, 0.0) + dt
        if e is not None:
            counts[fam] = counts.get(fam, 0) + 1
        elif r is not None:
            refused[fam] = refused.get(fam, 0) + 1
    return {
        "format": FORMAT,
        "generator": "python -m shiftdp_bench.reference" + (" --quick" if quick else "")
        + (f" --families {','.join(families)}" if families is not None else ""),
        "shiftdp_version": shiftdp.__version__,
        "quick": quick,
        "counts": dict(sorted(counts.items())),
        "refusals": {"count": len(refusals), "by_family": dict(sorted(refused.items())), "items": refusals},
        "too_wide": {"max_rel_width": str(MAX_REL_WIDTH), "count": len(wide), "items": wide},
        "seconds": {"wall": round(wall, 1), "cpu_by_family": {k: round(v, 1) for k, v in sorted(times.items())}},
        "notes": [
            "certified: the true value lies in [lower, upper]; decimal ends rounded outward",
            "rel_width = (upper - lower)/upper, rounded up to 3 digits; 0 when upper = 0",
            "compositions refuse delta below 1e-100 (shiftdp.DELTA_FLOOR): those problems are refusals",
            "T = 10^5 and 10^6 Poisson entries are only in the full run (about 50 s each)",
            "entries wider than max_rel_width are dropped (too_wide), except the sampler family's",
        ],
        "entries": entries,
    }


def _task_of(e: Dict[str, Any]) -> Optional[Tuple[Any, ...]]:
    """The task that computes entry ``e`` (the families ``_certify`` computes), or None."""
    fam, p = e["family"], e["params"]
    ((target, value),) = e["query"].items()
    if fam in ("poisson_gaussian", "symmetrized_cp"):
        return (fam, p["q"], p["sigma"], p["steps"], target, value)
    if fam in MECHANISMS:
        items = tuple((k, tuple(v) if isinstance(v, list) else v) for k, v in p.items() if k != "steps")
        return (fam, items, p["steps"], target, value)
    return None


def refine_wide(doc: Dict[str, Any]) -> List[Dict[str, str]]:
    """Recomputes, in place, the entries of ``doc`` wider than :data:`WIDE_REL_WIDTH` that
    ``_certify`` computes (the sampler family's width is the state of knowledge, not
    a numerical one: left alone), keeping the narrower interval. Returns
    ``{"id", "before", "after"}`` per entry tried (relative widths)."""
    out = []
    for i, e in enumerate(doc["entries"]):
        if e["family"] == "sampler" or Decimal(e["rel_width"]) <= Decimal(str(WIDE_REL_WIDTH)):
            continue
        task = _task_of(e)
        if task is None:
            continue
        new, _refusal, _fam, _dt = _run(task)
        after = e["rel_width"]
        if new is not None:
            if new["id"] != e["id"]:
                raise ValueError(f"task of {e['id']} computes {new['id']}")
            if Decimal(new["rel_width"]) < Decimal(e["rel_width"]):
                doc["entries"][i] = new
                after = new["rel_width"]
        out.append({"id": e["id"], "before": e["rel_width"], "after": after})
        print(f"{e['id']}: rel_width {e['rel_width']} -> {after}", file=sys.stderr, flush=True)
    return out


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m shiftdp_bench.reference", description=__doc__.split("\n")[0])
    ap.add_argument("--out", default="bench/shiftdp_bench/data/reference.json")
    ap.add_argument("--quick", action="store_true", help="a small suite (about a minute)")
    ap.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1))
    ap.add_argument("--families", default="", help=f"only these families (comma-separated; of {', '.join(FAMILIES)})")
    ap.add_argument("--refine-wide", action="store_true",
                    help=f"recompute only the entries of the existing --out file wider than {WIDE_REL_WIDTH:g} "
                         "(the sampler family excepted) and keep the narrower intervals")
    a = ap.parse_args(argv)
    if a.refine_wide:
        with open(a.out, encoding="utf-8") as f:
            doc = json.load(f)
        done = refine_wide(doc)
        entries = doc.pop("entries")
        doc["refined_wide"] = {"generator": "python -m shiftdp_bench.reference --refine-wide",
                               "max_rel_width": str(WIDE_REL_WIDTH), "items": done}
        doc["entries"] = entries  # last, as generate() writes it
        with open(a.out, "w", encoding="utf-8") as f:
            json.dump(doc, f, indent=1, ensure_ascii=False)
            f.write("\n")
        return 0
    fams = [f for f in a.families.split(",") if f] or None
    doc = generate(a.quick, a.jobs, fams)
    os.makedirs(os.path.dirname(os.path.abspath(a.out)), exist_ok=True)
    with open(a.out, "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=1, ensure_ascii=False)
        f.write("\n")
    print(
        f"{len(doc['entries'])} entries {doc['counts']}, {doc['too_wide']['count']} too wide, "
        f"{doc['refusals']['count']} refusals "
        f"{doc['refusals']['by_family']}, {doc['seconds']['wall']} s -> {a.out}",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
