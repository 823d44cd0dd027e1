"""Side-by-side timing of eps(delta) for mu-GDP: scipy (brentq on the same formula),
mpmath at 256 bits (findroot), against shiftdp's criterion medians.

Run through benches/compare_scipy.sh, which creates the virtual environment, runs the
Rust benchmarks and then this script. Values are compared as well as times.
"""
import json
import math
import os
import sys
import time

import mpmath
from scipy.optimize import brentq
from scipy.stats import norm

MU, DELTA = 1.0, 1e-5


def delta_scipy(eps, mu=MU):
    return norm.cdf(-eps / mu + mu / 2) - math.exp(eps) * norm.cdf(-eps / mu - mu / 2)


def eps_scipy(delta=DELTA, mu=MU):
    return brentq(lambda e: delta_scipy(e, mu) - delta, 0.0, 60.0, xtol=1e-15, rtol=8.9e-16)


def eps_mpmath(delta, mu, prec=256):
    mpmath.mp.prec = prec
    mu = mpmath.mpf(mu)
    d = mpmath.mpf(delta)
    f = lambda e: mpmath.ncdf(-e / mu + mu / 2) - mpmath.exp(e) * mpmath.ncdf(-e / mu - mu / 2) - d
    return mpmath.findroot(f, mpmath.mpf(eps_scipy(float(delta), float(mu))))


def timeit(fn, min_time=0.5):
    n, t0 = 0, time.perf_counter()
    while True:
        fn()
        n += 1
        el = time.perf_counter() - t0
        if el > min_time:
            return el / n


def criterion_median_ns(name):
    path = os.path.join("target", "criterion", name, "new", "estimates.json")
    try:
        with open(path) as fh:
            return json.load(fh)["median"]["point_estimate"]
    except OSError:
        return None


def main():
    e_sp = eps_scipy()
    e_mp = eps_mpmath("1e-5", 1, 256)
    t_sp = timeit(eps_scipy)
    t_mp = timeit(lambda: eps_mpmath("1e-5", 1, 256))
    rust_f64 = criterion_median_ns("epsilon_gdp_f64_mu1_delta1e-5")
    rust_256 = criterion_median_ns("epsilon_gdp_256bit_mu1_delta1e-5")
    print(f"eps(1e-5) of G(1): scipy {e_sp!r}   mpmath-256 {mpmath.nstr(e_mp, 30)}")
    print(f"scipy brentq (f64):      {t_sp*1e6:10.2f} us")
    print(f"mpmath findroot (256 b): {t_mp*1e6:10.2f} us")
    if rust_f64:
        print(f"shiftdp f64 (certified): {rust_f64/1e3:10.2f} us   ratio scipy/shiftdp = {t_sp*1e9/rust_f64:.1f}x")
    if rust_256:
        print(f"shiftdp 256 (certified): {rust_256/1e3:10.2f} us   ratio mpmath/shiftdp = {t_mp*1e9/rust_256:.1f}x")
    if not (rust_f64 and rust_256):
        print("(run `cargo bench --bench precision` first for the Rust medians)", file=sys.stderr)


if __name__ == "__main__":
    main()
