#!/usr/bin/env python3
"""Compare shiftdp's certified composition with dp-accounting and prv-accountant.

Objects compared (mind the difference):
  * C_p(G(mu))^{(x)t}: BSA24 Def 4.7, the *symmetrized* subsampled Gaussian. shiftdp
    `--subsampled-gaussian`; prv-accountant with a custom privacy random variable whose
    CDF is the PLD of C_p(G(mu)) derived in src/composition/pld.rs (same formulas here).
  * Poisson add-or-remove subsampled Gaussian (each direction composed separately; a
    different, smaller quantity for t > 1): shiftdp `--poisson-gaussian`, dp-accounting
    `from_gaussian_mechanism(sampling_prob=p)` (ADD_OR_REMOVE), prv-accountant's built-in
    `PoissonSubsampledGaussianMechanism`.
Noise multiplier sigma = 1/mu.
"""
import argparse
import json
import math
import shlex
import subprocess
import time

from scipy.stats import norm
from scipy import integrate


def run_rust(runner, flag, p, mu, t, delta):
    cmd = shlex.split(runner) + [flag, str(p), repr(mu), f"x{t}", "--delta", f"{delta:g}", "--json"]
    t0 = time.perf_counter()
    out = subprocess.run(cmd, capture_output=True, text=True)
    dt = time.perf_counter() - t0
    if out.returncode != 0:
        return f"error: {out.stderr.strip()}", dt
    j = json.loads(out.stdout)
    return f"[{float(j['epsilon']['lower']):.6f}, {float(j['epsilon']['upper']):.6f}]", dt


def cp_prv_class():
    from prv_accountant.privacy_random_variables import PrivacyRandomVariable

    class SymmetrizedSubsampledGaussian(PrivacyRandomVariable):
        """PLD of C_p(G(mu)) (BSA24 Def 4.7): L = ln dQ/dP under Q.
        t < 0: P(X > x(-t)); t >= 0: Phi_c(mu/2) + (1-p)(Phi(mu/2)-Phi(-mu/2))
        + (1-p)(Phi(x_t)-Phi(mu/2)) + p(Phi(x_t-mu)-Phi(-mu/2)),
        x(l) = (ln((e^l - 1 + p)/p) + mu^2/2)/mu."""

        def __init__(self, p, mu):
            self.p, self.mu = p, mu

        def x_of(self, l):
            import numpy as np
            l = np.asarray(l, dtype=float)
            return (np.log((np.expm1(l) + self.p) / self.p) + 0.5 * self.mu ** 2) / self.mu

        def cdf(self, t):
            import numpy as np
            t = np.asarray(t, dtype=float)
            p, mu = self.p, self.mu
            neg = norm.sf(self.x_of(np.abs(t)))
            xt = self.x_of(np.maximum(t, 0.0))
            pos = (norm.sf(mu / 2) + (1 - p) * (norm.cdf(mu / 2) - norm.cdf(-mu / 2))
                   + (1 - p) * (norm.cdf(xt) - norm.cdf(mu / 2))
                   + p * (norm.cdf(xt - mu) - norm.cdf(-mu / 2)))
            return np.where(t < 0, neg, pos)

        def mean(self):
            # E_Q[L] = positive branch + negative branch
            p, mu = self.p, self.mu
            lx = lambda x: math.log1p(p * math.expm1(mu * x - mu * mu / 2))
            mpdf = lambda x: (1 - p) * norm.pdf(x) + p * norm.pdf(x - mu)
            a, _ = integrate.quad(lambda x: lx(x) * mpdf(x), mu / 2, mu / 2 + 40)
            b, _ = integrate.quad(lambda x: -lx(x) * norm.pdf(x), mu / 2, mu / 2 + 40)
            return a + b

        def rdp(self, alpha):
            # D_alpha = ln E_Q[e^{(alpha-1)L}]/(alpha-1) = ln(int q^a p^(1-a))/(alpha-1)
            p, mu = self.p, self.mu
            atom = (1 - p) * (norm.cdf(mu / 2) - norm.cdf(-mu / 2))
            hi = mu / 2 + 40
            # m(x)/phi(x) = 1 + p expm1(mu x - mu^2/2); integrands in log space
            lr = lambda x: math.log1p(p * math.expm1(mu * x - mu * mu / 2))
            f_a = lambda x: math.exp(min(700.0, alpha * lr(x) + norm.logpdf(x)))
            f_b = lambda x: math.exp(min(700.0, (1 - alpha) * lr(x) + norm.logpdf(x)))
            a, _ = integrate.quad(f_a, mu / 2, hi, limit=200)
            b, _ = integrate.quad(f_b, mu / 2, hi, limit=200)
            return math.log(a + b + atom) / (alpha - 1)

    return SymmetrizedSubsampledGaussian


def prv_eps(prv, t, delta, eps_error=1e-3):
    from prv_accountant import PRVAccountant
    t0 = time.perf_counter()
    try:
        acc = PRVAccountant(prvs=[prv], max_self_compositions=[t], eps_error=eps_error,
                            delta_error=delta * 1e-3)
        lo, est, up = acc.compute_epsilon(delta=delta, num_self_compositions=[t])
        res = f"[{lo:.6f}, {up:.6f}] est {est:.6f}"
    except Exception as e:  # report what the accountant did
        res = f"failed: {type(e).__name__}: {str(e)[:120]}"
    return res, time.perf_counter() - t0


def dpa_eps(p, mu, t, delta, vdi=1e-4):
    from dp_accounting.pld import privacy_loss_distribution as pld
    t0 = time.perf_counter()
    try:
        d = pld.from_gaussian_mechanism(standard_deviation=1.0 / mu, sensitivity=1.0,
                                        value_discretization_interval=vdi, sampling_prob=p)
        res = f"{d.self_compose(t).get_epsilon_for_delta(delta):.6f} (pessimistic estimate)"
    except Exception as e:
        res = f"failed: {type(e).__name__}: {str(e)[:120]}"
    return res, time.perf_counter() - t0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runner", required=True)
    ap.add_argument("--p", type=float, default=0.025)
    ap.add_argument("--mu", type=float, default=2.0 / 3.0)
    ap.add_argument("--t", type=int, default=8000)
    ap.add_argument("--deltas", default="1e-5,1e-20")
    ap.add_argument("--only", default="", help="comma-separated row numbers (0-4) to run")
    a = ap.parse_args()
    from prv_accountant.privacy_random_variables import PoissonSubsampledGaussianMechanism
    Cp = cp_prv_class()
    print(f"p = {a.p}, mu = {a.mu} (sigma = {1 / a.mu:.6f}), t = {a.t}")
    ap_only = a.only.split(",") if a.only else None
    for delta in [float(x) for x in a.deltas.split(",")]:
        print(f"\n=== delta = {delta:g} ===")
        jobs = [
            ("C_p(G(mu))^t  shiftdp certified", lambda: run_rust(a.runner, "--subsampled-gaussian", a.p, a.mu, a.t, delta)),
            ("C_p(G(mu))^t  prv-accountant (custom PRV)", lambda: prv_eps(Cp(a.p, a.mu), a.t, delta)),
            ("Poisson add/remove  shiftdp certified", lambda: run_rust(a.runner, "--poisson-gaussian", a.p, a.mu, a.t, delta)),
            ("Poisson add/remove  dp-accounting (vdi 1e-4)", lambda: dpa_eps(a.p, a.mu, a.t, delta)),
            ("Poisson (remove)  prv-accountant built-in",
             lambda: prv_eps(PoissonSubsampledGaussianMechanism(noise_multiplier=1.0 / a.mu,
                                                                sampling_probability=a.p), a.t, delta)),
        ]
        for i, (name, job) in enumerate(jobs):
            if ap_only is not None and str(i) not in ap_only:
                continue
            val, dt = job()
            print(f"{name:48s} eps = {val:50s} {dt * 1000:9.1f} ms", flush=True)


if __name__ == "__main__":
    main()
