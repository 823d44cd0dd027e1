#!/usr/bin/env python3
"""Generate bench/reference.sample.json: a small suite in the shiftdp-reference/1 format
(the runner's test fixture; the full suite is bench/shiftdp_bench/data/reference.json), via
shiftdp's Python API."""
import json, sys, time
import shiftdp

def iv_entry(eid, family, relation, params, query, quantity, iv, source="shiftdp grid (sample)"):
    lo, up = iv.lower_decimal, iv.upper_decimal
    rw = (float(up) - float(lo)) / float(up) if float(up) != 0 else 0.0
    return {"id": eid, "family": family, "relation": relation, "params": params, "query": query,
            "quantity": quantity, "certified": {"lower": lo, "upper": up}, "rel_width": f"{rw:.3e}",
            "source": source, "published": None}

entries = []
for mu in ["0.5", "1", "2", "4"]:
    for d in ["1e-5", "1e-10", "1e-15", "1e-20", "1e-30"]:
        entries.append(iv_entry(f"gdp-mu{mu}-d{d}", "gdp", "none", {"mu": mu}, {"delta": d}, "epsilon",
                                shiftdp.epsilon(mu, d)))
for mu in ["1", "2"]:
    entries.append(iv_entry(f"gdp-mu{mu}-e1", "gdp", "none", {"mu": mu}, {"epsilon": "1"}, "delta",
                            shiftdp.delta(mu, "1")))
for q, sigma, steps in [("0.01", "2", 1500), ("0.01", "1", 1000), ("0.001", "0.8", 10000), ("0.1", "4", 100), ("0.02", "1.5", 1)]:
    for d in ["1e-5", "1e-10", "1e-15", "1e-20"]:
        try:
            c = shiftdp.compose([shiftdp.PoissonGaussian(float(q), noise_multiplier=float(sigma), count=steps)], delta=float(d))
        except shiftdp.ShiftdpError as e:
            print("skipped", q, sigma, steps, d, e, file=sys.stderr)
            continue
        entries.append(iv_entry(f"pg-q{q}-s{sigma}-T{steps}-d{d}", "poisson_gaussian", "add_remove",
                                {"q": q, "sigma": sigma, "steps": steps}, {"delta": d}, "epsilon", c.interval))
for p, mu, steps in [("0.01", "0.5", 1000), ("0.05", "1", 100)]:
    for d in ["1e-5", "1e-15"]:
        c = shiftdp.compose([shiftdp.SubsampledGaussian(float(p), mu=float(mu), count=steps)], delta=float(d))
        entries.append(iv_entry(f"cp-p{p}-mu{mu}-T{steps}-d{d}", "symmetrized_cp", "replace_one",
                                {"p": p, "mu": mu, "steps": steps}, {"delta": d}, "epsilon", c.interval))
c = shiftdp.compose([shiftdp.PoissonGaussian(0.01, noise_multiplier=1.0, count=1000)], epsilon=2.0)
entries.append(iv_entry("pg-q0.01-s1-T1000-e2", "poisson_gaussian", "add_remove",
                        {"q": "0.01", "sigma": "1", "steps": 1000}, {"epsilon": "2"}, "delta", c.interval))
out = {"format": "shiftdp-reference/1", "generated_by": "scripts/make-bench-sample.py",
       "shiftdp_version": shiftdp.__version__, "entries": entries}
json.dump(out, open(sys.argv[1] if len(sys.argv) > 1 else "bench/reference.sample.json", "w"), indent=1)
print(len(entries), "entries")
