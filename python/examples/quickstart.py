"""shiftdp from Python: the main tasks in a dozen lines (run by ./scripts/main-job.sh)."""
import shiftdp
from shiftdp.accounting import CertifiedAccountant

# ε(δ) of 1-GDP: a certified interval, .upper is the bound
print("1-GDP at δ = 1e-5:", shiftdp.epsilon(1, "1e-5"))

# every bound of the five papers for BSA24's Table 1 run (E = 50), the best marked
a = shiftdp.analyze("cgd", n=60000, batch=1500, epochs=50, eta=1, noise=1,
                    sensitivity=1000, contraction="0.9999", delta="1e-5")
best = a.best  # None only when no result applies
assert best is not None and best.epsilon is not None
print("Table 1 run: best", best.id, "ε ≤", best.epsilon.upper)

# Opacus's accountant interface, certified: 2249 DP-SGD steps at σ = 1.5, q = 0.04
acc = CertifiedAccountant()
for _ in range(2249):
    acc.step(noise_multiplier=1.5, sample_rate=0.04)
print("DP-SGD (Opacus interface):", acc.get_epsilon_interval(1e-5))

# noise calibration: the smallest σ whose certified ε ≤ 2 (q = 0.01, 1000 steps)
c = shiftdp.calibrate_dpsgd(0.01, 1000, 2.0, delta=1e-5, resolution=1e-2)
print(f"calibrated σ = {c.sigma:.5f} certifies ε ≤ {c.epsilon:.5f} ({c.source})")

# the exact privacy of a concrete run (quadratic loss): every bound must be above it
mu, _tau = shiftdp.exact_mu("gd", n=1, steps=50, eta=1, noise=1, sensitivity=1, curvature="0.1")
print("exact quadratic NoisyGD instance, μ", mu)
