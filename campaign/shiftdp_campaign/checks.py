"""The randomized differential tester: one *case* (seed, index) draws inputs for one
command family, calls shiftdp (in process, or the `shiftdp` binary for the CLI share),
compares every certified end with an independent reference, and returns one record per
check.

Classes (first that applies): ``crash`` (an exception other than ShiftdpError/TypeError,
an exit code other than 0/2, a panic, a signal), ``nan`` (NaN in a returned bound),
``violation`` (a certified end on the wrong side of a reference), ``timeout`` (over the
per-check limit), ``refusal`` (an error for an input the ordinary rule below accepts),
``wide`` (certified width over 10× the tolerance), ``pass`` (compared with a reference),
``pass-noref`` (no reference for this input: only crash/NaN/refusal/width were checked),
``refused-ok`` (an error for an input outside the ordinary rule).

Ordinary rule (refusing such an input is a defect): Poisson/subsampled rate q ∈ [1e-3, 1],
noise multiplier σ = 1/μ ∈ [0.3, 20], counts k ≤ 1e5 (Σk over a list), δ ∈ [1e-30, 0.1],
ε ∈ [0, 30] for δ(ε) queries; GDP μ ∈ [1e-3, 1e3] with δ ∈ [1e-30, 0.1] or ε ∈ [0, 1e3].

Violation slack: the engine's ends are certified with their own round-off; a reference's
own error is carried explicitly (relative error bounds of the closed forms, L1 round-off
bounds of the numpy PLD), so the slack is 1e-12 relative on top of the reference's bound
(the float rounding of the compared values). For dp_accounting, whose optimistic PLD has
no certified round-off, the slack is 1e-6 relative plus 1e-15 absolute."""

import json
import math
import os
import random
import subprocess
import time

import mpmath as mp
import numpy as np

from . import references as R
from .walk import floats_in

SLACK = 1e-12
MAX_K = 300  # the largest count of a composition checked against the numpy PLD
TOL = 5e-4  # compose's default tolerance (absolute for ε, relative for δ)
GDP_TOL = 1e-11  # the f64 path's stated relative accuracy

PY = "import shiftdp; "


def loguni(rng, lo, hi):
    return math.exp(rng.uniform(math.log(lo), math.log(hi)))


def _nan(x):
    return isinstance(x, float) and math.isnan(x)


class Timeout(Exception):
    """Raised by the per-check alarm."""


CURRENT = {"repro": None}  # the reproducer of the call in progress, for a timeout's record


def call(fn, *a, repro=None, **kw):
    """('ok', result) | ('refused', message) | ('crash', message)."""
    import shiftdp

    CURRENT["repro"] = repro

    try:
        return "ok", fn(*a, **kw)
    except Timeout:
        raise
    except (shiftdp.ShiftdpError, TypeError) as e:
        return "refused", f"{type(e).__name__}: {e}"[:300]
    except BaseException as e:  # noqa: BLE001 - anything else is a crash
        if isinstance(e, KeyboardInterrupt):
            raise
        return "crash", f"{type(e).__name__}: {e}"[:300]


def rec(family, cls, repro, **kw):
    d = {"family": family, "class": cls, "repro": repro}
    d.update(kw)
    return d


def judge_interval(lo, up, ref_lo, ref_hi, rel_err=0.0, abs_slack=0.0):
    """'violation' if the certified upper end is below the reference's lower end or the
    certified lower end above the reference's upper end (beyond the slack), else None."""
    s = SLACK + rel_err
    if ref_lo is not None and up < ref_lo * (1 - s) - abs_slack:
        return "violation"
    if ref_hi is not None and lo > ref_hi * (1 + s) + abs_slack:
        return "violation"
    return None


def outcome_record(family, status, val, ordinary, repro, **kw):
    """The record for a refused or crashed call, or None when the call returned."""
    if status == "crash":
        return rec(family, "crash", repro, error=val, **kw)
    if status == "refused":
        return rec(family, "refusal" if ordinary else "refused-ok", repro, error=val, **kw)
    return None


def interval_nan(iv):
    return _nan(iv.lower) or _nan(iv.upper)


def interval_outcome_record(family, status, val, ordinary, repro):
    """The record for a call that returns an interval and has nothing to compare: a
    refusal or crash (:func:`outcome_record`), or a returned interval with a NaN end;
    None when the interval goes on to the reference."""
    r = outcome_record(family, status, val, ordinary, repro)
    if r:
        return r
    if interval_nan(val):
        return rec(family, "nan", repro, engine=[val.lower, val.upper])
    return None


# --- GDP conversions -------------------------------------------------------------------


def gdp_call(rng, name, mu, x, ordinary):
    """Calls the GDP conversion ``shiftdp.<name>`` ("delta" or "epsilon") at (μ, x) and a
    precision drawn from ``rng`` (the f64 path 90 % of the time, else 64, 128 or 256 bits):
    (result, bits, reproducer, record), the record that of :func:`interval_outcome_record`
    for the family ``gdp_<name>``."""
    import shiftdp

    bits = None if rng.random() < 0.9 else rng.choice([64, 128, 256])
    repro = f"python -c '{PY}print(shiftdp.{name}({mu!r}, {x!r}, bits={bits!r}))'"
    st, v = call(getattr(shiftdp, name), mu, x, bits=bits)
    return v, bits, repro, interval_outcome_record(f"gdp_{name}", st, v, ordinary, repro)


def case_gdp_delta(rng, n=400):
    out = []
    mus, epss, res = [], [], []
    for _ in range(n):
        ext = rng.random() < 0.15
        mu = loguni(rng, 1e-3, 1e3) if not ext else rng.choice([0.0, 1e-12, 1e-300, 1e6, 3e4, float("nan"), -1.0])
        eps = rng.choice([0.0, loguni(rng, 1e-4, 1e3)]) if not ext else rng.choice([0.0, 1e5, 1e300, -1.0, 5e-324])
        ordinary = 1e-3 <= mu <= 1e3 and 0 <= eps <= 1e3
        v, bits, repro, r = gdp_call(rng, "delta", mu, eps, ordinary)
        if r:
            out.append(r)
            continue
        mus.append(mu), epss.append(eps), res.append((v, repro, bits))
    if mus:
        ref, rel = R.gdp_delta_np(np.array(mus), np.array(epss))
        for m, e, r_, rl, (v, repro, bits) in zip(mus, epss, ref, rel, res):
            if math.isnan(r_):
                out.append(rec("gdp_delta", "pass-noref", repro, engine=[v.lower, v.upper]))
                continue
            if r_ < 1e-290:  # compare in mpmath below f64's normal range, with the decimal ends
                try:
                    t = R.gdp_delta_mp(m, e)
                except (OverflowError, ValueError):
                    out.append(rec("gdp_delta", "pass-noref", repro, engine=[v.lower, v.upper]))
                    continue
                up, lo = mp.mpf(v.upper_decimal), mp.mpf(v.lower_decimal)
                bad = up < t * (1 - 1e-12) or lo > t * (1 + 1e-12)
                cls = "violation" if bad else "pass"
                r_ = float(t)
            else:
                cls = judge_interval(v.lower, v.upper, r_, r_, rl) or "pass"
            if cls == "pass" and r_ > 1e-290 and (v.upper - v.lower) > 10 * GDP_TOL * max(v.upper, 1e-300) and bits is None:
                cls = "wide"
            out.append(rec("gdp_delta", cls, repro, ref="closed form (scipy/mpmath)", engine=[v.lower, v.upper], reference=[r_, r_]))
    return out


def case_gdp_epsilon(rng, n=400):
    out = []
    for _ in range(n):
        ext = rng.random() < 0.15
        mu = loguni(rng, 1e-3, 1e3) if not ext else rng.choice([0.0, 1e-12, 1e6, 3e4, float("inf"), -1.0])
        d = loguni(rng, 1e-30, 0.1) if not ext else rng.choice([1e-300, 5e-324, 0.5, 0.999999, 1.0, 0.0, 1e-100])
        ordinary = 1e-3 <= mu <= 1e3 and 1e-30 <= d <= 0.1
        v, bits, repro, r = gdp_call(rng, "epsilon", mu, d, ordinary)
        if r:
            out.append(r)
            continue
        # δ_μ is decreasing: the upper end needs δ_μ(upper) ≤ δ, the lower end δ_μ(lower) ≥ δ
        ends = [v.upper] + ([v.lower] if v.lower > 0 else [])
        vals, rels = R.gdp_delta_np(np.full(len(ends), mu), np.array(ends), exact_eps=True)
        cls = "pass"
        if any(math.isnan(x) for x in vals):
            out.append(rec("gdp_epsilon", "pass-noref", repro, engine=[v.lower, v.upper]))
            continue
        if vals[0] > d * (1 + SLACK + rels[0]):
            cls = "violation"
        if len(ends) > 1 and vals[1] < d * (1 - SLACK - rels[1]):
            cls = "violation"
        if v.upper == 0 and R.gdp_delta_mp(mu, 0) > R.dec(d) * (1 + 1e-12):
            cls = "violation"
        refv = None
        if rng.random() < 0.005:  # the mpmath root as a second reference
            refv = float(R.gdp_epsilon_mp(mu, d))
            if not (v.lower * (1 - 1e-12) <= refv <= v.upper * (1 + 1e-12) + 1e-300):
                cls = "violation"
        if cls == "pass" and bits is None and v.upper - v.lower > 10 * GDP_TOL * max(v.upper, 1e-300) + 1e-300:
            cls = "wide"
        out.append(rec("gdp_epsilon", cls, repro, ref="closed form δ at the ends", engine=[v.lower, v.upper],
                       reference=[float(vals[0]), refv]))
    return out


# --- compositions ----------------------------------------------------------------------


def _component(kind, p, mu, k):
    import shiftdp

    if kind == "gaussian":
        return shiftdp.Gaussian(mu=mu, count=k)
    if kind == "poisson":
        return shiftdp.PoissonGaussian(p, mu=mu, count=k)
    return shiftdp.SubsampledGaussian(p, mu=mu, count=k)


def _cli_parts(parts):
    a = []
    for kind, p, mu, k in parts:
        if kind == "gaussian":
            a += ["--gaussian", f"{mu!r}x{k}"]
        elif kind == "poisson":
            a += ["--poisson-gaussian", repr(p), repr(mu), f"x{k}"]
        else:
            a += ["--subsampled-gaussian", repr(p), repr(mu), f"x{k}"]
    return a


def compose_repro(parts, target, value):
    return "shiftdp compose " + " ".join(_cli_parts(parts)) + f" --{target} {value!r}"


def ordinary_parts(parts):
    if sum(k for *_, k in parts) > 1e5:
        return False
    for kind, p, mu, k in parts:
        if not (0.05 <= mu <= 1 / 0.3):
            return False
        if kind != "gaussian" and not (1e-3 <= p <= 1):
            return False
    return True


def compose_queries(family, parts, eps_list, delta_list, ref_delta, ref_name, ordinary, wide_ok=True):
    """Queries δ(ε) at each ε and ε(δ) at each δ; ref_delta(array of ε) → (lower, upper)
    arrays (None where there is no reference on that side)."""
    import shiftdp

    comps = [_component(*c) for c in parts]
    out = []
    for target, values in (("epsilon", eps_list), ("delta", delta_list)):
        for x in values:
            repro = compose_repro(parts, target, x)
            t0 = time.time()
            st, v = call(shiftdp.compose, comps, repro=repro, **{target: x})
            dt = time.time() - t0
            if target == "delta":
                ordinary_q = ordinary and 1e-30 <= x <= 0.1
            else:
                ordinary_q = ordinary and 0 <= x <= 30
            r = outcome_record(family, st, v, ordinary_q, repro, seconds=round(dt, 3))
            if r:
                if r["class"] == "refusal" and target == "epsilon":
                    # a δ(ε) query whose true δ is below 1e-30 is not ordinary
                    lo_, _ = ref_delta(np.array([x]))
                    if lo_ is not None and lo_[0] is not None and lo_[0] < 1e-30:
                        r["class"] = "refused-ok"
                out.append(r)
                continue
            iv = v.interval
            if interval_nan(iv):
                out.append(rec(family, "nan", repro, engine=[iv.lower, iv.upper]))
                continue
            if target == "epsilon":
                lo, hi = ref_delta(np.array([x]))
                rl = None if lo is None else float(lo[0])
                rh = None if hi is None else float(hi[0])
                cls = judge_interval(iv.lower, iv.upper, rl, rh, abs_slack=1e-300)
                # relative width, judged where the true δ is in the ordinary range [1e-30, 0.1]
                wide = (iv.upper - iv.lower) > 10 * TOL and 1e-30 <= x <= 0.1 * max(iv.upper, 1e-300) and rl is not None and rl >= 1e-30
            else:
                # ε(δ): δ(upper) ≤ δ must not be contradicted by a reference lower end, and
                # δ(lower) ≥ δ not by a reference upper end
                ends = np.array([iv.upper, iv.lower])
                lo, hi = ref_delta(ends)
                cls = None
                if lo is not None and lo[0] is not None and lo[0] > x * (1 + SLACK):
                    cls = "violation"
                if hi is not None and hi[1] is not None and iv.lower > 0 and not v.at_zero and hi[1] < x * (1 - SLACK):
                    cls = "violation"
                rl = None if lo is None else float(lo[0])
                rh = None if hi is None else float(hi[1])
                wide = (iv.upper - iv.lower) > 10 * TOL and 1e-30 <= x <= 0.1
            has_ref = rl is not None or rh is not None
            cls = cls or ("wide" if (wide and wide_ok) else ("pass" if has_ref else "pass-noref"))
            out.append(rec(family, cls, repro, ref=ref_name, engine=[iv.lower, iv.upper], reference=[rl, rh],
                           seconds=round(dt, 3)))
    return out


def draw_mu(rng, ext_p=0.1):
    if rng.random() < ext_p:
        return rng.choice([1e-4, 0.01, 5.0, 10.0, 20.0])
    return 1 / loguni(rng, 0.3, 20)


def draw_q(rng, ext_p=0.1):
    if rng.random() < ext_p:
        return rng.choice([1e-6, 1e-4, 1.0, 0.999])
    return loguni(rng, 1e-3, 1) if rng.random() < 0.9 else 1.0


def draw_queries(rng, n_eps=3, n_delta=3, eps_hi=8.0):
    eps = [round(loguni(rng, 0.05, eps_hi), 4) for _ in range(n_eps)]
    dl = [float(f"{loguni(rng, 1e-12, 0.1):.3g}") for _ in range(n_delta)]
    return eps, dl


def case_compose_gaussian(rng):
    parts = []
    for _ in range(rng.randint(1, 4)):
        mu = loguni(rng, 1e-3, 3) if rng.random() < 0.9 else rng.choice([1e-8, 30.0, 0.0])
        parts.append(("gaussian", None, mu, rng.choice([1, rng.randint(1, 1000), rng.randint(1, 10**6)])))
    m = R.gaussian_mu([(mu, k) for _, _, mu, k in parts])
    relm = 4 * R.U * (len(parts) + 2)

    def ref(eps):
        lo, rl = R.gdp_delta_np(np.full(eps.size, m * (1 - relm)), eps, exact_eps=True)
        hi, rh = R.gdp_delta_np(np.full(eps.size, m * (1 + relm)), eps, exact_eps=True)
        return lo * (1 - rl), hi * (1 + rh)

    eps, dl = draw_queries(rng, eps_hi=max(1.0, 4 * m))
    dl += [float(f"{loguni(rng, 1e-100, 1e-30):.3g}")]
    return compose_queries("compose_gaussian", parts, eps, dl, ref, "G(√Σkμ²) closed form", True)


def case_compose_poisson_1(rng, kind="poisson"):
    q, mu = draw_q(rng), draw_mu(rng)
    parts = [(kind, q, mu, 1)]

    def ref(eps):
        a, ra = R.poisson_delta_np(q, mu, eps, "remove")
        b, rb = R.poisson_delta_np(q, mu, eps, "add")
        v, r = np.maximum(a, b), np.maximum(ra, rb)
        return v * (1 - r), v * (1 + r)

    eps, dl = draw_queries(rng, eps_hi=max(0.2, 3 * mu))
    fam = "compose_poisson_k1" if kind == "poisson" else "compose_subsampled_k1"
    return compose_queries(fam, parts, eps, dl, ref, "one-step closed form (both orders)", ordinary_parts(parts))


_REF_CACHE = {}


def _pld_ref(parts):
    key = tuple(parts)
    if key not in _REF_CACHE:
        if len(_REF_CACHE) > 64:
            _REF_CACHE.clear()
        _REF_CACHE[key] = parts
    ktot = sum(k for *_, k in parts)
    h = R.grid_step(ktot, target=0.006, lo=4e-6, hi=1e-3)
    cache = {}

    def ref(eps):
        k2 = tuple(np.round(eps, 15))
        if k2 not in cache:
            cache[k2] = R.poisson_reference(parts, eps, h=h)
        return cache[k2]

    return ref


class PLDRef:
    """The numpy PLD reference of a list, built once (both orders, both directions) and
    read at any ε."""

    def __init__(self, parts, target=0.006):
        ktot = sum(k for *_, k in parts)
        self.h = R.grid_step(ktot, target=target, lo=4e-6, hi=1e-3)
        self.orders = []
        for order in ("remove", "add"):
            pes, opt = [], []
            for kind, q, mu, k in parts:
                qq = 1.0 if kind == "gaussian" else q
                p, o = R.pld_poisson(qq, mu, order, self.h)
                pes.append((p, k))
                opt.append((o, k))
            self.orders.append((R.compose_all(pes), R.compose_all(opt)))

    def __call__(self, eps):
        lo = np.maximum(*[o.delta(eps) for _, o in self.orders])
        hi = np.maximum(*[p.delta(eps) for p, _ in self.orders])
        return lo, hi


def resolvable_queries(rng, ref, eps_hi, n_eps=8, n_delta=6, floor=1e-14):
    """ε queries where the reference's upper δ is ≥ floor (a genuine comparison, and the
    engine's fast range), one in ten anywhere; δ queries between floor and 0.1."""
    cand = np.array(sorted(round(loguni(rng, 0.01, eps_hi), 4) for _ in range(4 * n_eps)))
    try:
        lo, hi = ref(cand)
    except MemoryError:
        lo = hi = None
    if hi is not None:
        good = [float(e) for e, h in zip(cand, hi) if h >= floor]
    else:
        good = [float(e) for e in cand]
    eps = [rng.choice(good) if good and rng.random() < 0.9 else float(rng.choice(cand)) for _ in range(n_eps)]
    dl = [float(f"{loguni(rng, floor, 0.1):.3g}") for _ in range(n_delta)]
    return sorted(set(eps)), dl


def case_compose_poisson_k(rng):
    q, mu = draw_q(rng, 0.05), draw_mu(rng, 0.05)
    k = int(loguni(rng, 2, MAX_K))
    # keep the reference grid small: bulk width ~ √k·(loss sd), grid step ~ 0.006/k
    parts = [("poisson", q, mu, k)]
    t0 = time.time()
    try:
        ref = PLDRef(parts)
    except MemoryError:
        ref = lambda e: (None, None)  # noqa: E731
    tref = time.time() - t0
    eps, dl = resolvable_queries(rng, ref, eps_hi=max(0.5, 3 * mu * q * math.sqrt(k) + 2 * mu))
    out = compose_queries("compose_poisson_k", parts, eps, dl, ref, "numpy PLD (pessimistic/optimistic)", ordinary_parts(parts))
    for r in out:
        r["ref_seconds"] = round(tref, 3)
    if rng.random() < 0.1 and k <= 300 and q < 1:
        out += dpa_checks("compose_poisson_k", parts, eps)
    return out


def dpa_checks(family, parts, eps):
    import shiftdp

    (_, q, mu, k) = parts[0]
    try:
        lo, hi = R.dpa_reference(q, mu, k, eps)
    except Exception as e:  # noqa: BLE001 - the third reference failing is not the engine's defect
        return [rec(family, "pass-noref", "", ref="dp_accounting", error=f"dp_accounting: {e}"[:200])]
    out = []
    for x, l_, h_ in zip(eps, lo, hi):
        repro = compose_repro(parts, "epsilon", x)
        st, v = call(shiftdp.compose, [_component(*parts[0])], epsilon=x)
        if st != "ok":
            continue  # already classified by the main queries
        iv = v.interval
        if not l_ <= h_:
            # dp_accounting's optimistic δ above its pessimistic one: its double-precision
            # FFT composition has no accuracy at this δ (seed 30, case 877: 1.05e-14
            # against 1e-15 where δ ≈ 1e-17), so it is no reference here
            out.append(rec(family, "pass-noref", repro, ref="dp_accounting PLD (optimistic/pessimistic)",
                           engine=[iv.lower, iv.upper], reference=[float(l_), float(h_)],
                           error="dp_accounting: optimistic δ above pessimistic δ"))
            continue
        # dp_accounting's absolute round-off is of order 1e-14 at these sizes
        cls = judge_interval(iv.lower, iv.upper, l_ * (1 - 1e-6) - 1e-13, h_ * (1 + 1e-6) + 1e-13) or "pass"
        out.append(rec(family, cls, repro, ref="dp_accounting PLD (optimistic/pessimistic)",
                       engine=[iv.lower, iv.upper], reference=[float(l_), float(h_)]))
    return out


def case_compose_subsampled_k(rng):
    q, mu = draw_q(rng, 0.05), draw_mu(rng, 0.05)
    k = int(loguni(rng, 2, MAX_K))
    parts = [("subsampled", q, mu, k)]
    try:
        pld = PLDRef([("poisson", q, mu, k)])
    except MemoryError:
        pld = None
    m = mu * math.sqrt(k) * (1 + 4 * R.U)

    def ref(eps):
        # C_p(G(μ))^{⊗k} lies below both orders' compositions (C_p ≤ f_p, f_p^{-1}) and
        # above G(μ)^{⊗k} = G(μ√k) (f_p ≥ f)
        lo = pld(eps)[0] if pld is not None else None
        hi, rh = R.gdp_delta_np(np.full(eps.size, m), eps)
        return lo, hi * (1 + rh)

    eps, dl = resolvable_queries(rng, ref, eps_hi=max(0.5, 3 * mu * q * math.sqrt(k) + 2 * mu), n_eps=5, n_delta=4)
    return compose_queries("compose_subsampled_k", parts, eps, dl, ref,
                           "max of the two orders' numpy PLDs ≤ δ ≤ G(μ√k)", ordinary_parts(parts))


def case_compose_mixed(rng):
    parts = []
    for _ in range(rng.randint(2, 3)):
        kind = rng.choice(["gaussian", "poisson", "poisson"])
        q = None if kind == "gaussian" else draw_q(rng, 0.0)
        parts.append((kind, q, draw_mu(rng, 0.0), int(loguni(rng, 1, min(300, MAX_K)))))
    try:
        ref = PLDRef(parts)
    except MemoryError:
        ref = lambda e: (None, None)  # noqa: E731
    eps, dl = resolvable_queries(rng, ref, eps_hi=6.0, n_eps=5, n_delta=4)
    return compose_queries("compose_mixed", parts, eps, dl, ref, "numpy PLD of each order", ordinary_parts(parts))


def case_compose_large(rng):
    """Large counts and extreme parameters: only crash / NaN / refusal / width (no reference),
    plus G(μ√K) as the upper reference for the subsampled kind."""
    kind = rng.choice(["poisson", "subsampled"])
    ext = rng.random() < 0.3
    q = loguni(rng, 1e-3, 1) if not ext else rng.choice([1e-9, 1e-6, 1.0, 0.5])
    mu = 1 / loguni(rng, 0.3, 20) if not ext else rng.choice([1e-6, 0.01, 10.0, 50.0])
    k = int(loguni(rng, 1e3, 1e5)) if not ext else rng.choice([10**6, 10**7, 2**40])
    parts = [(kind, q, mu, k)]
    m = mu * math.sqrt(k) * (1 + 4 * R.U)

    def ref(eps):
        if kind != "subsampled":
            return None, None
        hi, rh = R.gdp_delta_np(np.full(eps.size, m), eps)
        return None, hi * (1 + rh)

    eps, dl = draw_queries(rng, n_eps=1, n_delta=2, eps_hi=10.0)
    return compose_queries("compose_large", parts, eps, dl, ref, "G(μ√k) upper (subsampled only)", ordinary_parts(parts))


def case_near_deterministic(rng):
    """Nearly noiseless sampled steps (μ up to 1e300, Laplace b down to 1e-300), where
    losses leave f64's exponential range. Reference, from the mathematics: for the remove
    order P = (1 − q)Q_b + qP_b against Q = Q_b and the event S "output above the midpoint
    of the two means", δ(ε) ≥ qP_b(S) − e^ε Q_b(S) with P_b(S) ≥ 1/2, so
    ε(δ) ≥ ln(q/2 − δ) − ln Q_b(S); ln Q_b(S) ≤ −μ²/8 − ln(μ√(2π)/2) for G(μ) (Mills'
    ratio) and = ln(1/2) − 1/(2b) for Laplace(b) at sensitivity 1. Composition only adds
    loss and C_p ≤ f_p, so the floor holds for both samplers and every count."""
    import shiftdp

    q = loguni(rng, 1e-3, 1.0)
    k = rng.choice([1, 2, 3, 10])
    d = float(f"{loguni(rng, 1e-10, 1e-4):.2g}")
    kind = rng.choice(["poisson", "subsampled", "poisson_laplace"])
    if kind == "poisson_laplace":
        b = 10 ** rng.uniform(-300, 0)
        ln_qb = math.log(0.5) - 1 / (2 * b)
        comp = shiftdp.PoissonLaplace(q, b, 1.0, k)
        repro = f"shiftdp compose --poisson-laplace {q!r} {b!r} 1 x{k} --delta {d!r}"
    else:
        mu = 10 ** rng.uniform(0, 300)
        ln_qb = -mu * mu / 8 - math.log(mu * math.sqrt(2 * math.pi) / 2)  # −inf past f64
        cls = shiftdp.PoissonGaussian if kind == "poisson" else shiftdp.SubsampledGaussian
        comp = cls(q, mu=mu, count=k)
        repro = f"shiftdp compose --{kind}-gaussian {q!r} mu={mu!r} x{k} --delta {d!r}"
    floor = math.log(q / 2 - d) - ln_qb if q / 2 > d else float("-inf")
    if not floor > 0:
        return [rec("near_deterministic", "pass-noref", repro)]
    st, v = call(shiftdp.compose, [comp], delta=d, repro=repro)
    r = outcome_record("near_deterministic", st, v, False, repro)  # refusing is allowed here
    if r:
        return [r]
    up = v.interval.upper
    if _nan(up):
        return [rec("near_deterministic", "nan", repro)]
    cls_ = "violation" if up < floor * (1 - 1e-9) else "pass"
    return [rec("near_deterministic", cls_, repro, ref="analytic floor (output above the midpoint)",
                engine=[v.interval.lower, up], reference=[floor, None])]


# --- calibration, runs, schedules, claims ------------------------------------------------


def case_calibrate(rng):
    import shiftdp

    q = loguni(rng, 1e-3, 0.1)
    t = int(loguni(rng, 1, 400))
    eps = loguni(rng, 0.5, 10)
    d = float(f"{loguni(rng, 1e-8, 1e-4):.2g}")
    repro = f"shiftdp calibrate poisson --q {q!r} --steps {t} --epsilon {eps!r} --delta {d!r}"
    st, v = call(shiftdp.calibrate_dpsgd, q, t, eps, delta=d, repro=repro)
    r = outcome_record("calibrate", st, v, True, repro)
    if r:
        return [r]
    if _nan(v.sigma) or _nan(v.epsilon):
        return [rec("calibrate", "nan", repro)]
    # the calibrated σ must make the true δ(E) ≤ δ: the reference's lower end must not exceed δ
    try:
        ref = PLDRef([("poisson", q, 1 / v.sigma, t)])
        lo, _ = ref(np.array([eps]))
    except MemoryError:
        return [rec("calibrate", "pass-noref", repro)]
    cls = "violation" if lo[0] > d * (1 + SLACK) else "pass"
    return [rec("calibrate", cls, repro, ref="numpy PLD at the calibrated σ", engine=[v.sigma, v.epsilon],
                reference=[float(lo[0]), d])]


def quad_mu(c, t):
    """Exact μ of the quadratic (contraction c) or linear (c = 1) Gaussian GD instance per
    unit L/(nσ): mean shift ηL/n Σ_{s<t} c^s over noise sd ησ (Σ c^{2s})^{1/2}, i.e.
    √((1 − c^t)(1 + c)/((1 − c)(1 + c^t))), √t at c = 1."""
    import mpmath as mp

    c = mp.mpf(c)
    if c == 1:
        return mp.sqrt(t)
    return mp.sqrt((1 - c**t) * (1 + c) / ((1 - c) * (1 + c**t)))


def case_runs(rng):
    """exact_mu (gd) against the closed form of the quadratic instance, every applicable
    bound of analyze('gd') above that instance's ε, and schedule's μ above it."""
    import mpmath as mp
    import shiftdp

    out = []
    n = rng.randint(1, 200)
    t = rng.randint(1, 150)
    eta = rng.choice([1.0, 0.5, 0.1])
    sigma = loguni(rng, 0.2, 10)
    L = loguni(rng, 0.1, 10)
    kappa = rng.choice([0.0, loguni(rng, 1e-3, 0.9) / eta])
    c = 1 - eta * kappa
    unit = mp.mpf(L) / (n * mp.mpf(sigma))
    want = unit * quad_mu(c, t)
    args = dict(n=n, steps=t, eta=eta, noise=sigma, sensitivity=L, curvature=kappa)
    repro = f"python -c '{PY}print(shiftdp.exact_mu(\"gd\", **{args!r}))'"
    st, v = call(shiftdp.exact_mu, "gd", **args)
    r = outcome_record("exact_gd", st, v, True, repro)
    if r:
        out.append(r)
    else:
        iv = v[0]
        cls = "nan" if interval_nan(iv) else (
            "violation" if not (iv.lower * (1 - 1e-12) <= want <= iv.upper * (1 + 1e-12)) else "pass")
        out.append(rec("exact_gd", cls, repro, ref="quadratic instance closed form", engine=[iv.lower, iv.upper],
                       reference=[float(want), float(want)]))
    # every bound of analyze('gd') dominates that instance (it is in the class: c-contractive steps)
    delta = float(f"{loguni(rng, 1e-10, 1e-3):.2g}")
    setting = dict(n=n, steps=t, eta=eta, noise=sigma, sensitivity=L)
    if c < 1:
        setting["contraction"] = c
    repro = f"python -c '{PY}a = shiftdp.analyze(\"gd\", delta={delta!r}, **{setting!r}); print(a)'"
    if rng.random() < 0.5:
        st, a = call(shiftdp.analyze, "gd", delta=delta, **setting)
        r = outcome_record("analyze_gd", st, a, True, repro)
        if r:
            out.append(r)
        else:
            e_true = float(R.gdp_epsilon_mp(want * (1 - mp.mpf("1e-30")), delta))
            for e in a.entries if hasattr(a, "entries") else []:
                if e.epsilon is None:
                    continue
                iv = e.epsilon
                cls = "nan" if interval_nan(iv) else ("violation" if iv.upper < e_true * (1 - 1e-12) else "pass")
                out.append(rec("analyze_gd", cls, repro + f"  # entry {e.id}", ref="ε of the quadratic instance",
                               engine=[iv.lower, iv.upper], reference=[e_true, None]))
    # the shift-schedule optimum per step (c, s = ηL/n, ς = ησ) dominates the same instance
    s_, noise = eta * L / n, eta * sigma
    repro = f"python -c '{PY}print(shiftdp.schedule({c!r}, {s_!r}, {noise!r}, steps={t}))'"
    st, sch = call(shiftdp.schedule, c, s_, noise, steps=t)
    r = outcome_record("schedule", st, sch, 0 < c <= 1, repro)
    if r:
        out.append(r)
    else:
        want_s = mp.mpf(s_) / mp.mpf(noise) * quad_mu(c, t)
        cls = "nan" if _nan(sch.mu) else ("violation" if sch.mu < want_s * (1 - mp.mpf("1e-12")) else "pass")
        out.append(rec("schedule", cls, repro, ref="quadratic instance closed form", engine=[None, sch.mu],
                       reference=[float(want_s), None]))
    return out


def case_claim(rng):
    """An unsound claim must fail and a sound one (the exact linear instance) must pass."""
    import shiftdp

    out = []
    for claim, sound in (("mu <= sqrt(t)*L/(n*sigma)", True), ("mu <= 0.9*sqrt(t)*L/(n*sigma)", False)):
        repro = f"shiftdp verify --claim '{claim}' --setting gd"
        seed = rng.randint(1, 10**6)
        st, v = call(shiftdp.check_claim, claim, "gd", samples=3, seed=seed)
        r = outcome_record("claim", st, v, True, repro + f" --seed {seed}")
        if r:
            out.append(r)
            continue
        if sound:
            cls = "pass" if v.status != "fail" else "refusal"
        else:
            cls = "violation" if v.passed else "pass"
        out.append(rec("claim", cls, repro + f"  # seed {seed}", ref="sqrt(t)·L/(nσ) is the exact linear instance",
                       engine=[v.status, None]))
    return out


EXTREME = [0, 0.0, -1, -0.0, 5e-324, 1e-300, 1e300, float("inf"), float("-inf"), float("nan"),
           2**64, "1e400", "", "abc", None, [], "0.1.2"]


def case_fuzz_api(rng):
    """Garbage and boundary arguments to every public function: only crash / NaN count."""
    import shiftdp

    def v(lo, hi, integer=False):
        if rng.random() < 0.6:
            x = loguni(rng, lo, hi)
            return max(1, int(x)) if integer else x
        return rng.choice(EXTREME)

    fns = [
        lambda: shiftdp.epsilon(v(1e-3, 1e3), v(1e-12, 0.5), bits=rng.choice([None, 64, 0, 10**6, "x"])),
        lambda: shiftdp.delta(v(1e-3, 1e3), v(1e-3, 10)),
        lambda: shiftdp.compose([shiftdp.PoissonGaussian(v(1e-3, 1), mu=v(0.05, 3), count=v(1, 300, True))],
                                **{rng.choice(["delta", "epsilon"]): v(1e-10, 1)}, tolerance=rng.choice([5e-4, 0, -1, 1e-9])),
        lambda: shiftdp.compose([shiftdp.SubsampledGaussian(v(1e-3, 1), mu=v(0.05, 3), count=v(1, 300, True))], delta=v(1e-10, 0.1)),
        lambda: shiftdp.compose([shiftdp.Gaussian(mu=v(1e-3, 3), count=v(1, 300, True))], epsilon=v(1e-3, 10)),
        lambda: shiftdp.sgm_rdp(v(1e-3, 1), v(0.3, 10), v(1.01, 64)),
        lambda: shiftdp.exact_mu(rng.choice(["gd", "cgd", "x"]), n=v(1, 20, True), eta=v(1e-3, 1), noise=v(0.1, 10),
                                 sensitivity=v(1e-2, 2), curvature=v(1e-3, 1), steps=v(1, 30, True)),
        lambda: shiftdp.schedule(v(1e-3, 0.999), v(1e-2, 2), v(0.1, 10), steps=v(1, 200, True)),
    ]
    out = []
    for _ in range(5):
        i = rng.randrange(len(fns))
        st, r = call(fns[i])
        if st == "crash":
            out.append(rec("fuzz_api", "crash", f"fuzz_api function #{i} (seeded case)", error=r))
            continue
        bad = st == "ok" and any(_nan(x) for x in floats_in(r))
        out.append(rec("fuzz_api", "nan" if bad else "pass-noref", f"fuzz_api function #{i}", error=None if st == "ok" else r))
    return out


# --- the CLI surface -------------------------------------------------------------------


def shiftdp_bin():
    here = os.path.dirname(os.path.abspath(__file__))
    return os.environ.get("SHIFTDP_BIN", os.path.join(here, "..", "..", "target", "release", "shiftdp"))


def run_cli(args, timeout):
    t0 = time.time()
    try:
        p = subprocess.run([shiftdp_bin()] + args, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return "timeout", None, time.time() - t0
    dt = time.time() - t0
    if p.returncode < 0 or p.returncode not in (0, 2) or "panicked" in p.stderr:
        return "crash", f"exit {p.returncode}: {p.stderr.strip()[:200]}", dt
    if p.returncode == 2:
        return "refused", p.stderr.strip()[:200], dt
    if "NaN" in p.stdout or '"nan"' in p.stdout:
        return "nan", p.stdout[:200], dt
    return "ok", p.stdout, dt


def _iv(d):
    lo, up = d.get("lower"), d.get("upper")
    return (float(lo) if lo is not None else None), (float(up) if up is not None else None)


def case_cli(rng, timeout=60):
    fam = "cli"
    out = []
    kind = rng.random()
    if kind < 0.3:
        mu, e = loguni(rng, 1e-3, 1e2), loguni(rng, 1e-3, 50)
        args = ["delta", "--mu", repr(mu), "--epsilon", repr(e), "--json"]
        st, s, dt = run_cli(args, timeout)
        r = _cli_outcome(fam, st, s, True, args)
        if r:
            return [r]
        lo, up = _iv(json.loads(s)["delta"])
        ref, rel = R.gdp_delta_np(np.array([mu]), np.array([e]))
        if ref[0] < 1e-290:
            return [rec(fam, "pass-noref", "shiftdp " + " ".join(args))]
        cls = judge_interval(lo, up, ref[0], ref[0], rel[0]) or "pass"
        return [rec(fam, cls, "shiftdp " + " ".join(args), ref="GDP closed form", engine=[lo, up], reference=[float(ref[0])] * 2)]
    if kind < 0.55:
        q, mu, k = draw_q(rng, 0.0), draw_mu(rng, 0.0), int(loguni(rng, 1, 200))
        e = round(loguni(rng, 0.05, 4), 3)
        parts = [("poisson", q, mu, k)]
        args = ["compose"] + _cli_parts(parts) + ["--epsilon", repr(e), "--json"]
        st, s, dt = run_cli(args, timeout)
        r = _cli_outcome(fam, st, s, ordinary_parts(parts), args)
        if r:
            return [r]
        lo, up = _iv(json.loads(s)["delta"])
        try:
            rl, rh = PLDRef(parts)(np.array([e]))
        except MemoryError:
            return [rec(fam, "pass-noref", "shiftdp " + " ".join(args))]
        cls = judge_interval(lo, up, float(rl[0]), float(rh[0]), abs_slack=1e-300) or "pass"
        return [rec(fam, cls, "shiftdp " + " ".join(args), ref="numpy PLD", engine=[lo, up], reference=[float(rl[0]), float(rh[0])])]
    if kind < 0.75:
        mu = loguni(rng, 1e-2, 5)
        p = None if rng.random() < 0.5 else loguni(rng, 1e-3, 1)
        pts = rng.randint(3, 40)
        args = ["curve", "gdp", "--mu", repr(mu), "--points", str(pts), "--json"]
        if p is not None:
            args += ["--subsample", repr(p)]
        st, s, dt = run_cli(args, timeout)
        r = _cli_outcome(fam, st, s, True, args)
        if r:
            return [r]
        for pt in json.loads(s)["points"]:
            a = float(pt["alpha"])
            lo, up = _iv(pt["beta"])
            if p is None:
                t = float(R.gauss_tradeoff(mu, a))
                cls = judge_interval(lo, up, t * (1 - 1e-13) - 1e-300, t * (1 + 1e-13), abs_slack=1e-16) or "pass"
                refs = [t, t]
            else:
                # C_p(G(μ))(α) ≤ f_p(α) = pG(μ)(α) + (1 − p)(1 − α) (the convex hull of a minimum is
                # below each member); the safe (lower) end must not exceed it
                fp = p * float(R.gauss_tradeoff(mu, a)) + (1 - p) * (1 - a)
                cls = "violation" if lo > fp * (1 + 1e-12) + 1e-16 else "pass"
                refs = [None, fp]
            out.append(rec(fam, cls, "shiftdp " + " ".join(args) + f"  # α = {a}", ref="tradeoff closed form",
                           engine=[lo, up], reference=refs))
        return out
    # fuzz argv (scripts/fuzz-cli.py's templates, extreme 20 % of the time)
    import importlib.util

    V = ["0", "-1", "1e-300", "1e400", "nan", "inf", "-inf", "", "abc", "5e-324", "18446744073709551616",
         "1", "0.5", "2", "1e-5", "100", "0.9999", "1.5", "3", "1e6", "-0", "0x10", "1e-20"]
    T = [
        ["epsilon", "--mu", "{}", "--delta", "{}"],
        ["delta", "--mu", "{}", "--epsilon", "{}"],
        ["compose", "--poisson-gaussian", "{}", "{}", "x3", "--delta", "{}"],
        ["compose", "--subsampled-gaussian", "{}", "{}", "x{}", "--epsilon", "{}"],
        ["curve", "gdp", "--mu", "{}", "--points", "{}"],
        ["exact", "gd", "--n", "{}", "--steps", "{}", "--eta", "{}", "--noise", "{}", "--sensitivity", "{}", "--contraction", "{}"],
        ["bound", "gd", "--n", "{}", "--steps", "{}", "--eta", "{}", "--noise", "{}", "--sensitivity", "{}", "--contraction", "{}"],
    ]
    del importlib
    t = rng.choice(T)
    args = [a.format(rng.choice(["0.5", "0.01", "1", "3"] if rng.random() < 0.8 else V)) if "{}" in a else a for a in t]
    st, s, dt = run_cli(args, timeout)
    if st in ("crash", "nan", "timeout"):
        return [rec(fam, st, "shiftdp " + " ".join(repr(a) if a == "" else a for a in args), error=s)]
    return [rec(fam, "pass-noref", "shiftdp " + " ".join(args))]


def _cli_outcome(fam, st, s, ordinary, args):
    repro = "shiftdp " + " ".join(args)
    if st == "ok":
        return None
    if st == "refused":
        return rec(fam, "refusal" if ordinary else "refused-ok", repro, error=s)
    return rec(fam, st, repro, error=s)


# --- the mix -----------------------------------------------------------------------------

FAMILIES = [
    ("gdp_delta", case_gdp_delta, 30),
    ("gdp_epsilon", case_gdp_epsilon, 30),
    ("compose_gaussian", case_compose_gaussian, 5),
    ("compose_poisson_k1", lambda r: case_compose_poisson_1(r, "poisson"), 8),
    ("compose_subsampled_k1", lambda r: case_compose_poisson_1(r, "subsampled"), 6),
    ("compose_poisson_k", case_compose_poisson_k, 12),
    ("compose_subsampled_k", case_compose_subsampled_k, 2),
    ("compose_mixed", case_compose_mixed, 2),
    ("compose_large", case_compose_large, 1),
    ("near_deterministic", case_near_deterministic, 2),
    ("calibrate", case_calibrate, 0.2),
    ("runs", case_runs, 2),
    ("claim", case_claim, 0.2),
    ("fuzz_api", case_fuzz_api, 2),
    ("cli", case_cli, 3),
]


def pick_family(rng, only=None):
    fams = [f for f in FAMILIES if only is None or f[0] in only]
    total = sum(w for *_, w in fams)
    x = rng.uniform(0, total)
    for name, fn, w in fams:
        x -= w
        if x <= 0:
            return name, fn
    return fams[-1][0], fams[-1][1]


def run_case(seed, index, only=None):
    """The records of case `index` of campaign `seed` (deterministic in both)."""
    rng = random.Random(f"{seed}:{index}")
    name, fn = pick_family(rng, only)
    try:
        recs = fn(rng)
    except Timeout:
        raise
    except Exception as e:  # noqa: BLE001 - engine calls go through call(); this is the campaign's own failure
        import traceback

        recs = [rec(name, "ref-error", f"python -m shiftdp_campaign case --seed {seed} --case {index}",
                    error=f"{type(e).__name__}: {e} | {traceback.format_exc(limit=3)[-400:]}")]
    for r in recs:
        r["case"] = index
    return name, recs
