"""Independent references, written from the mathematics (never from the engine).

Closed forms:

* μ-GDP (Dong, Roth, Su 2022, Cor 2.13):
  ``δ_μ(ε) = Φ(−ε/μ + μ/2) − e^ε Φ(−ε/μ − μ/2)``; ε(δ) is its inverse (root finding).
* One step of the Poisson-subsampled Gaussian (sampling rate q, μ = 1/σ):
  remove order ``P = (1−q)N(0,1) + qN(μ,1)`` against ``Q = N(0,1)``, add order the pair
  swapped. With the likelihood ratio monotone in x, the optimal set is a half-line:
  remove: ``x* = (ln((e^ε − 1 + q)/q) + μ²/2)/μ``,
  ``δ = q Φc(x* − μ) − (e^ε − 1 + q) Φc(x*)``;
  add (only when ``e^{−ε} > 1 − q``): ``x' = (ln((e^{−ε} − 1 + q)/q) + μ²/2)/μ``,
  ``δ = Φ(x') − e^ε ((1−q) Φ(x') + q Φ(x' − μ))``.
* BSA24 Def 4.7, ``C_p(f) = min{f_p, f_p^{-1}}**`` with ``f_p = p f + (1−p) Id``: the
  convex conjugate of a convex hull of a minimum is the maximum of the conjugates, and
  ``δ_f(ε) = 1 + f*(−e^ε)``, so ``δ_{C_p(G(μ))}(ε) = max(δ_remove(ε), δ_add(ε))`` of the
  two one-step orders above (``f_p`` is the tradeoff function of the remove order).
* All-Gaussian lists: ``⊗ G(μ_i)^{⊗k_i} = G(√Σ k_i μ_i²)``.

The numpy versions are vectorized and return a relative error bound beside each value
(from the cancellation between the two terms); where that bound exceeds ``1e-10`` the
value is recomputed with mpmath at 60 digits.
"""

import math

import mpmath as mp
import numpy as np
from scipy.special import log_ndtr, ndtr

mp.mp.dps = 60
U = 2.0**-52
MP_REL = mp.mpf("1e-40")


def dec(x):
    """x as the package reads it: a float by its shortest round-trip decimal (``1e-5`` is
    10⁻⁵, ``5e-324`` is 5·10⁻³²⁴), anything else exactly."""
    if isinstance(x, (float, np.floating)):
        return mp.mpf(repr(float(x)))
    return mp.mpf(x)


# --- μ-GDP --------------------------------------------------------------------------


def gdp_delta_mp(mu, eps, exact_eps=False):
    """δ_μ(ε) in mpmath (60 digits); ``exact_eps`` reads a float ε by its exact binary value
    (an end returned by shiftdp) instead of its shortest decimal (an input as typed)."""
    mu, eps = dec(mu), (mp.mpf(float(eps)) if exact_eps else dec(eps))
    if mu == 0:
        return mp.mpf(0) if eps >= 0 else -mp.expm1(eps)
    return mp.ncdf(-eps / mu + mu / 2) - mp.exp(eps) * mp.ncdf(-eps / mu - mu / 2)


def gdp_epsilon_mp(mu, delta):
    """ε_μ(δ) by bisection on the decreasing δ_μ (80 steps after bracketing; 0 when δ_μ(0) ≤ δ)."""
    mu, delta = dec(mu), dec(delta)
    if gdp_delta_mp(mu, 0) <= delta:
        return mp.mpf(0)
    lo, hi = mp.mpf(0), mp.mpf(1)
    while gdp_delta_mp(mu, hi) > delta:
        lo, hi = hi, 2 * hi
    for _ in range(200):
        mid = (lo + hi) / 2
        if gdp_delta_mp(mu, mid) > delta:
            lo = mid
        else:
            hi = mid
        if hi - lo < mp.mpf("1e-45") * max(1, hi):
            break
    return (lo + hi) / 2


def _log_diff(la, lb):
    """ln(e^la − e^lb) for la > lb, with the relative error bound of the result."""
    with np.errstate(all="ignore"):
        x = lb - la
        v = la + np.log(-np.expm1(x))
        # rounding of la and lb (each ~ 2u·(|l|+1)) amplified by 1/|expm1(x)| near x = 0
        rel = 8 * U * (np.abs(la) + np.abs(lb) + 2) * np.exp(x) / np.maximum(-np.expm1(x), 1e-300) + 1e-14
    return v, rel


def gdp_delta_np(mu, eps, exact_eps=False):
    """Vectorized δ_μ(ε) as (value, relative error bound), mpmath where the bound exceeds 1e-10
    (``exact_eps`` as in :func:`gdp_delta_mp`)."""
    mu = np.asarray(mu, dtype=float)
    eps = np.asarray(eps, dtype=float)
    mu, eps = np.broadcast_arrays(mu, eps)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        a, b = -eps / mu + mu / 2, -eps / mu - mu / 2
        la = log_ndtr(a)
        lb = eps + log_ndtr(b)
        # the arguments carry an absolute error ~2u(|ε/μ| + μ/2) (cancellation in a);
        # |d ln Φ(x)/dx| ≤ |x| + 1 turns it into a relative error of each term
        arg = 4 * U * (np.abs(eps / mu) + mu / 2)
        targ = (np.abs(a) + 1) * arg + (np.abs(b) + 1) * arg
    lv, rel = _log_diff(la, lb)
    rel = rel + targ * 8  # a relative error e in each term is amplified like ln's rounding in _log_diff
    v = np.exp(lv)
    bad = ~(np.isfinite(rel) & (rel < 1e-10) & (mu > 0) & np.isfinite(v) & (v > 0))
    v = np.array(v, dtype=float)
    rel = np.array(rel, dtype=float)
    for i in zip(*np.nonzero(bad)):
        try:
            v[i] = float(gdp_delta_mp(mu[i], eps[i], exact_eps))
            rel[i] = 1e-15
        except (OverflowError, ValueError, ZeroDivisionError):
            v[i], rel[i] = math.nan, math.inf  # no reference here (mpmath's erfc overflows)
    return v, rel


# --- one step of the Poisson-subsampled Gaussian ------------------------------------


def poisson_delta_mp(q, mu, eps, order):
    """δ(ε) of one Poisson-subsampled Gaussian step in mpmath (erfc), order 'remove' or 'add'."""
    q, mu, eps = dec(q), dec(mu), dec(eps)
    phic = lambda x: mp.erfc(x / mp.sqrt(2)) / 2  # noqa: E731
    if mu == 0 or q == 0:
        return mp.mpf(0) if eps >= 0 else -mp.expm1(eps)
    if order == "remove":
        c = mp.expm1(eps) + q
        xs = (mp.log(c / q) + mu**2 / 2) / mu
        return q * phic(xs - mu) - c * phic(xs)
    c = mp.expm1(-eps) + q
    if c <= 0:
        return mp.mpf(0)
    xs = (mp.log(c / q) + mu**2 / 2) / mu
    # Φ(x') − e^ε((1−q)Φ(x') + qΦ(x'−μ)), written with Φ(x) = Φc(−x)
    return phic(-xs) - mp.exp(eps) * ((1 - q) * phic(-xs) + q * phic(mu - xs))


def poisson_delta_np(q, mu, eps, order):
    """Vectorized one-step δ(ε) as (value, relative error bound), mpmath fallback."""
    q, mu, eps = (np.asarray(a, dtype=float) for a in (q, mu, eps))
    q, mu, eps = np.broadcast_arrays(q, mu, eps)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        if order == "remove":
            c = np.expm1(eps) + q
            xs = (np.log(c / q) + mu**2 / 2) / mu
            la = np.log(q) + log_ndtr(mu - xs)
            lb = np.log(c) + log_ndtr(-xs)
        else:
            c = np.expm1(-eps) + q
            xs = (np.log(c / q) + mu**2 / 2) / mu
            la = log_ndtr(xs)
            lmix = np.logaddexp(np.log1p(-q) + log_ndtr(xs), np.log(q) + log_ndtr(xs - mu))
            lb = eps + lmix
    lv, rel = _log_diff(la, lb)
    v = np.exp(lv)
    # x* carries an absolute error ~8u(|x*| + μ + |ln(c/q)|/μ + 1); |d ln Φ/dx| ≤ |x| + μ + 1
    with np.errstate(invalid="ignore", divide="ignore"):
        dx = 8 * U * (np.abs(xs) + mu + np.abs(np.log(np.abs(c / q))) / mu + 1)
        rel = rel + 1e-14 + 16 * (np.abs(xs) + mu + 1) * dx * np.exp(np.minimum(lb - la, 0)) / np.maximum(-np.expm1(np.minimum(lb - la, 0)), 1e-300)
    v = np.array(v, dtype=float)
    rel = np.array(rel, dtype=float)
    zero = (order == "add") & (c <= 0) if order == "add" else np.zeros(v.shape, bool)
    bad = ~(np.isfinite(rel) & (rel < 1e-10) & np.isfinite(v) & (v > 0)) & ~zero
    v[zero] = 0.0
    rel[zero] = 0.0
    for i in zip(*np.nonzero(bad)):
        try:
            v[i] = float(poisson_delta_mp(q[i], mu[i], eps[i], order))
            rel[i] = 1e-15
        except (OverflowError, ValueError, ZeroDivisionError):
            v[i], rel[i] = math.nan, math.inf
    return v, rel


def cp_delta_np(p, mu, eps):
    """δ(ε) of BSA24's C_p(G(μ)): the larger of the two one-step orders."""
    a, ra = poisson_delta_np(p, mu, eps, "remove")
    b, rb = poisson_delta_np(p, mu, eps, "add")
    return np.maximum(a, b), np.maximum(ra, rb)


def gauss_tradeoff(mu, alpha):
    """G(μ)(α) = Φ(Φ^{-1}(1 − α) − μ) (DRS22 Def 2.7), f64 (relative error ~1e-14)."""
    from scipy.special import ndtri

    alpha = np.asarray(alpha, dtype=float)
    with np.errstate(divide="ignore"):
        return ndtr(ndtri(1 - alpha) - mu)


def gaussian_mu(parts):
    """√Σ k_i μ_i² of an all-Gaussian list [(μ, k), …] (f64, relative error ≤ 4u·len)."""
    return math.sqrt(math.fsum(k * m * m for m, k in parts))


# --- an independent up/down discretization of the privacy loss -----------------------


class PLD:
    """A privacy-loss distribution on the grid ``h·ℤ`` for one order of a dominating pair
    (P, Q): ``mass[i]`` at loss ``(start + i)·h``, ``inf`` at +∞. Floating error of
    ``mass``: entrywise at most ``rel·mass[i]`` plus an L1 total ``abs``. δ(ε) =
    E_P[(1 − e^{ε−L})_+] is increasing in every loss and in the mass at +∞, so rounding
    losses up and moving mass up (to +∞ at the top) gives an upper bound
    (``pessimistic``), rounding down and dropping mass a lower bound."""

    __slots__ = ("h", "start", "mass", "inf", "rel", "abs", "pessimistic")

    def __init__(self, h, start, mass, inf, rel, abs_, pessimistic):
        self.h, self.start, self.mass, self.inf = h, start, mass, inf
        self.rel, self.abs, self.pessimistic = rel, abs_, pessimistic

    def delta(self, eps):
        """δ(ε) bound for each ε (upper for a pessimistic PLD, lower for an optimistic one)."""
        losses = (self.start + np.arange(self.mass.size)) * self.h
        out = []
        for e in np.atleast_1d(eps):
            i0 = int(np.searchsorted(losses, e, side="right"))
            d = math.fsum(self.mass[i0:] * -np.expm1(e - losses[i0:]))
            slack = (self.rel + 1e-13) * d + self.abs
            if self.pessimistic:
                d = d + slack + self.inf
            else:
                d = max(0.0, d - slack)
            out.append(min(d, 1.0))
        return np.array(out)


def _tail_sums(q, mu, order, edges):
    """(P(L > ℓ), P(L ≤ ℓ)) at each loss ℓ of ``edges`` for one order of the Poisson pair."""
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        if order == "remove":
            c = np.expm1(edges) + q
        else:
            c = np.expm1(-edges) + q
        x = (np.log(c / q) + mu * mu / 2) / mu
        x = np.where(c <= 0, -np.inf, x)
        if order == "remove":
            s = (1 - q) * ndtr(-x) + q * ndtr(mu - x)
            f = (1 - q) * ndtr(x) + q * ndtr(x - mu)
        else:
            s = ndtr(x)
            f = ndtr(-x)
    return s, f


NDTR_REL = 1e-14  # scipy's ndtr: relative error ≲ 1e-15 on the whole line (Cephes); 10× margin


def pld_poisson(q, mu, order, h, tail=1e-30):
    """Pessimistic and optimistic PLDs of one step (q = 1 is the Gaussian G(μ); q = 0 or
    μ = 0 the identity, all loss at 0)."""
    if q == 0 or mu == 0:
        one = np.array([1.0])
        return PLD(h, 0, one, 0.0, 0.0, 0.0, True), PLD(h, 0, one.copy(), 0.0, 0.0, 0.0, False)
    lo_b = math.log1p(-q) if (order == "remove" and q < 1) else None
    hi_b = -math.log1p(-q) if (order == "add" and q < 1) else None

    def find(side):
        a, b = -1.0, 1.0
        for _ in range(200):
            s, f = _tail_sums(q, mu, order, np.array([a, b]))
            if side == "hi":
                if s[1] < tail:
                    break
                a, b = b, 2 * b + 1
            else:
                if f[0] < tail:
                    break
                b, a = a, 2 * a - 1
        for _ in range(60):
            m = (a + b) / 2
            s, f = _tail_sums(q, mu, order, np.array([m]))
            if side == "hi":
                a, b = (m, b) if s[0] >= tail else (a, m)
            else:
                a, b = (a, m) if f[0] >= tail else (m, b)
        return b if side == "hi" else a

    lmax = hi_b if hi_b is not None else find("hi")
    lmin = lo_b if lo_b is not None else find("lo")
    j0 = math.floor(lmin / h)
    j1 = math.ceil(lmax / h)
    if j1 - j0 > MAX_POINTS:
        raise MemoryError("reference grid too large")
    edges = np.arange(j0, j1 + 1) * h
    s, f = _tail_sums(q, mu, order, edges)
    # mass in (ℓ_j, ℓ_{j+1}]: the difference of the smaller tail, for accuracy
    use_s = s[:-1] < 0.5
    a_, b_ = np.where(use_s, s[:-1], f[1:]), np.where(use_s, s[1:], f[:-1])
    m = np.clip(a_ - b_, 0, None)
    bound = (NDTR_REL + 4 * U) * (a_ + b_)  # error of the two tails and of their difference
    with np.errstate(divide="ignore", invalid="ignore"):
        relative = bound <= 1e-9 * m
    rel = 1e-9
    abs_ = float(np.sum(bound[~relative]))
    below = f[0] * (1 + NDTR_REL)  # mass at loss ≤ ℓ_{j0}
    above = s[-1] * (1 + NDTR_REL)  # mass at loss > ℓ_{j1}
    pess = PLD(h, j0, np.concatenate([[below], m]), above, rel, abs_, True)
    opt = PLD(h, j0, np.concatenate([m, [0.0]]), 0.0, rel, abs_, False)
    return pess, opt


def _truncate(d, tail):
    """Cuts tails of mass ≤ tail: pessimistic moves the low tail up onto the cut and the
    high tail to +∞, optimistic drops both; both only move δ in their safe direction."""
    m = d.mass
    if m.size < 64:
        return d
    cl = np.cumsum(m)
    ch = np.cumsum(m[::-1])
    i = int(np.searchsorted(cl, tail, side="right"))
    j = int(np.searchsorted(ch, tail, side="right"))
    if i + j >= m.size - 1:
        return d
    low, high = (cl[i - 1] if i else 0.0), (ch[j - 1] if j else 0.0)
    keep = m[i : m.size - j].copy()
    if d.pessimistic:
        keep[0] += low * (1 + 1e-12)
        return PLD(d.h, d.start + i, keep, d.inf + high * (1 + 1e-12), d.rel, d.abs, True)
    return PLD(d.h, d.start + i, keep, d.inf, d.rel, d.abs, False)


DIRECT_OPS = 20_000_000
MAX_POINTS = 1_000_000  # per array: keeps a reference within ~200 MB and a few seconds


def _conv(a, b, tail):
    from scipy.signal import fftconvolve

    na, nb = a.mass.size, b.mass.size
    ma, mb = float(np.sum(a.mass)), float(np.sum(b.mass))
    rel = a.rel + b.rel + a.rel * b.rel
    abs_ = a.abs * mb * (1 + b.rel) + b.abs * ma * (1 + a.rel) + a.abs * b.abs
    if (na + nb) > 8 * MAX_POINTS:
        raise MemoryError("reference grid too large")
    if na * nb <= DIRECT_OPS:
        m = np.convolve(a.mass, b.mass)
        rel += 2 * U * min(na, nb)  # sums of non-negative products
    else:
        m = fftconvolve(a.mass, b.mass)
        n = m.size
        # entrywise FFT round-off ≲ c·u·log2(n)·‖a‖₂‖b‖₂ with c = 10 (generous), L1 over n
        abs_ += 10 * U * math.log2(n) * float(np.linalg.norm(a.mass) * np.linalg.norm(b.mass)) * n
        m = np.clip(m, 0, None)
    inf = (a.inf + b.inf) if a.pessimistic else 0.0
    return _check_size(_truncate(PLD(a.h, a.start + b.start, m, inf, rel, abs_, a.pessimistic), tail))


def self_compose(d, k, tail=1e-28):
    """d^{⊗k} by repeated squaring (np.convolve while small, FFT beyond), tails cut at `tail`."""
    result = None
    base = d
    while k:
        if k & 1:
            result = base if result is None else _conv(result, base, tail)
        k >>= 1
        if k:
            base = _conv(base, base, tail)
    return result


def compose_all(plds, tail=1e-28):
    """The convolution of a list of (PLD, count)."""
    out = None
    for d, k in plds:
        c = self_compose(d, k, tail)
        out = c if out is None else _conv(out, c, tail)
    return out


def _check_size(d):
    if d.mass.size > 2 * MAX_POINTS:
        raise MemoryError("reference grid too large")
    return d


def grid_step(parts_k_total, target=0.02, lo=2e-5, hi=2e-3):
    """h with k·h ≈ target (the pessimistic/optimistic loss gap after k steps), clamped."""
    return min(hi, max(lo, target / max(1, parts_k_total)))


def poisson_reference(parts, eps_list, h=None):
    """[lower, upper] of δ(ε) for a list of ('poisson'|'gaussian', q, μ, k): each order
    (remove, add) composed from its own pessimistic/optimistic PLDs, the larger order taken
    (the add-or-remove neighbouring relation needs both)."""
    ktot = sum(k for _, _, _, k in parts)
    if h is None:
        h = grid_step(ktot)
    lows, highs = [], []
    for order in ("remove", "add"):
        pes, opt = [], []
        for kind, q, mu, k in parts:
            qq = 1.0 if kind == "gaussian" else q
            p, o = pld_poisson(qq, mu, order, h)
            pes.append((p, k))
            opt.append((o, k))
        P = compose_all(pes)
        O = compose_all(opt)
        highs.append(P.delta(eps_list))
        lows.append(O.delta(eps_list))
    return np.maximum(*lows), np.maximum(*highs)


def dpa_reference(q, mu, k, eps_list, h=1e-3):
    """dp_accounting's pessimistic and optimistic PLDs (both orders) for a Poisson list
    of one component: [optimistic, pessimistic] δ(ε)."""
    import logging

    from dp_accounting.pld import privacy_loss_distribution as pldm

    logging.getLogger().setLevel(logging.ERROR)

    out = []
    for pess in (False, True):
        d = pldm.from_gaussian_mechanism(
            standard_deviation=1.0 / mu,
            sensitivity=1.0,
            sampling_prob=q,
            pessimistic_estimate=pess,
            value_discretization_interval=h,
        ).self_compose(k)
        out.append(np.array([d.get_delta_for_epsilon(e) for e in eps_list]))
    return out[0], out[1]
