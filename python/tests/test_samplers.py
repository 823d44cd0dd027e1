"""The samplers' certified bounds from Python, and the Opacus sampler detection."""

import math
import warnings

import pytest

import shiftdp
from shiftdp.accounting import CertifiedAccountant


def test_shuffle_report_flags_the_poisson_number():
    r = shiftdp.sampler_report("shuffle", n=10_000, batch_size=100, epochs=1, noise_multiplier=1.0)
    assert isinstance(r, shiftdp.SamplerReport)
    assert r.steps_per_epoch == 100
    assert 0 < r.lower <= r.upper
    assert r.upper_bound is not None and r.upper == r.upper_bound.upper
    assert max(b.lower for b in r.lower_bounds) == r.lower
    assert r.poisson_below_lower == (r.poisson.upper < r.lower)
    assert r.poisson_below_lower


def test_bad_runs_name_the_parameter():
    with pytest.raises(shiftdp.ParameterError, match="sampler"):
        shiftdp.sampler_report("random", 10, 2, 1, 1.0)
    with pytest.raises(shiftdp.ParameterError, match="batch"):
        shiftdp.sampler_report("shuffle", 10, 20, 1, 1.0)
    with pytest.raises(shiftdp.HypothesisError, match="n fixed"):
        shiftdp.sampler_report("shuffle", 10, 2, 1, 1.0, relation="add-remove")
    with pytest.raises(shiftdp.ParameterError, match="noise_multiplier"):
        shiftdp.sampler_report("shuffle", 10, 2, 1, float("nan"))


# loaders described by their classes only, as detect_sampler reads them (no torch)
class DPDataLoader:
    pass


class UniformWithReplacementSampler:
    pass


class RandomSampler:
    def __init__(self, replacement=False):
        self.replacement = replacement
        self._num_samples = None


class SequentialSampler:
    pass


class BatchSampler:
    def __init__(self, sampler):
        self.sampler = sampler


class DataLoader:
    def __init__(self, sampler):
        self.sampler = sampler
        self.batch_sampler = BatchSampler(sampler)


def test_detect_sampler_reads_pytorch_and_opacus_loaders():
    assert shiftdp.detect_sampler(DPDataLoader()) == "poisson"
    dl = DataLoader(RandomSampler())
    assert shiftdp.detect_sampler(dl) == "shuffle"
    dl.batch_sampler = UniformWithReplacementSampler()
    assert shiftdp.detect_sampler(dl) == "poisson"
    assert shiftdp.detect_sampler(DataLoader(SequentialSampler())) == "sequential"
    assert shiftdp.detect_sampler(DataLoader(RandomSampler(replacement=True))) == "unknown"
    assert shiftdp.detect_sampler(object()) == "unknown"


def make_private(accountant, data_loader, poisson_sampling=True):
    """Opacus's ``PrivacyEngine.make_private`` as far as the accountant sees it: it asks
    for the optimizer hook with the loader and the flag in its frame."""
    return accountant.get_optimizer_hook_fn(sample_rate=0.01)


def test_opacus_run_with_a_shuffled_loader_reports_the_mismatch():
    acc = CertifiedAccountant()
    with pytest.warns(shiftdp.SamplerMismatchWarning, match="not Poisson-sampled"):
        hook = make_private(acc, DataLoader(RandomSampler()), poisson_sampling=False)

    class Optim:
        noise_multiplier = 1.0
        accumulated_iterations = 1

    hook(Optim())
    with pytest.warns(shiftdp.SamplerMismatchWarning):
        acc.get_epsilon(1e-5)
    # a Poisson loader: no warning
    acc = CertifiedAccountant()
    with warnings.catch_warnings():
        warnings.simplefilter("error", shiftdp.SamplerMismatchWarning)
        make_private(acc, DPDataLoader())
    assert not acc.sampler_mismatch


def test_accountant_with_a_declared_sampler_reports_its_bounds():
    # 100 batches per epoch (sample_rate = 1/len(loader)), 2 epochs, σ = 1, shuffled
    acc = CertifiedAccountant(sampler="shuffle")
    for _ in range(200):
        acc.step(noise_multiplier=1.0, sample_rate=0.01)
    iv = acc.get_epsilon_interval(1e-5)
    r = shiftdp.sampler_report("shuffle", n=100, batch_size=1, epochs=2, noise_multiplier=1.0)
    assert (iv.lower, iv.upper) == (r.lower, r.upper)
    assert float(iv.upper_decimal) >= iv.upper and float(iv.lower_decimal) <= iv.lower
    # the Poisson accountant reports less than the certified lower bound for shuffling
    poisson = CertifiedAccountant()
    for _ in range(200):
        poisson.step(noise_multiplier=1.0, sample_rate=0.01)
    assert poisson.get_epsilon(1e-5) < iv.lower
    # declared shuffling: no mismatch warning from a shuffled loader
    with warnings.catch_warnings():
        warnings.simplefilter("error", shiftdp.SamplerMismatchWarning)
        make_private(acc, DataLoader(RandomSampler()), poisson_sampling=False)
    with pytest.raises(shiftdp.ParameterError, match="sampler"):
        CertifiedAccountant(sampler="random")
    # a partial last epoch: counted whole for the upper end, dropped for the lower end
    for _ in range(50):
        acc.step(noise_multiplier=1.0, sample_rate=0.01)
    iv = acc.get_epsilon_interval(1e-5)
    three = shiftdp.sampler_report("shuffle", n=100, batch_size=1, epochs=3, noise_multiplier=1.0)
    assert (iv.lower, iv.upper) == (r.lower, three.upper)
    half = CertifiedAccountant(sampler="shuffle")
    for _ in range(50):
        half.step(noise_multiplier=1.0, sample_rate=0.01)
    iv = half.get_epsilon_interval(1e-5)
    one = shiftdp.sampler_report("shuffle", n=100, batch_size=1, epochs=1, noise_multiplier=1.0)
    assert (iv.lower, iv.upper) == (0.0, one.upper)


def test_declared_losses_add_the_last_iterate_results():
    """Shuffle-once batches run NoisyCGD with its order drawn once: the report lists the
    last-iterate results, the best below the every-iterate lower bound; BSA24 Thm 4.4
    (nothing hidden) is the sampler's no-amplification upper bound again."""
    loss = {"eta": 0.1, "strong_convexity": "0.5", "smoothness": 1}
    r = shiftdp.sampler_report(
        "shuffle-once", n=1000, batch_size=100, epochs=10, noise_multiplier=1.0,
        relation="replace-one", tolerance=1e-3, loss=loss,
    )
    assert "order shuffled once" in r.last_iterate_setting
    by_id = {e.id: e for e in r.last_iterate}
    assert by_id["YS22 Thm 4.2"].epsilon is not None
    best = [e for e in r.last_iterate if e.best]
    assert len(best) == 1 and best[0].epsilon < r.lower
    assert r.upper_bound.lower - 1e-9 <= by_id["BSA24 Thm 4.4"].epsilon <= r.upper + 1e-9

    r = shiftdp.sampler_report(
        "shuffle", n=1000, batch_size=100, epochs=1, noise_multiplier=1.0,
        relation="replace-one", tolerance=1e-2, loss=loss,
    )
    assert r.last_iterate == [] and "shuffle" in r.last_iterate_reason
    with pytest.raises(shiftdp.ParameterError, match="loss"):
        shiftdp.sampler_report(
            "shuffle-once", n=1000, batch_size=100, epochs=1, noise_multiplier=1.0,
            relation="replace-one", loss={"noise": 3},
        )


def test_sampler_claims():
    """The moments-accountant rule of thumb ``2q√(S ln(1/δ))/σ`` is refuted for shuffled
    batches at the first grid point, where it is written out here; the no-amplification
    Gaussian bound passes."""
    region = "sigma=0.5,2 E=1 T=10 delta=1e-5"
    bad = shiftdp.check_sampler_claim("epsilon <= 2*q*sqrt(S*ln(1/delta))/sigma", "shuffle", region=region)
    assert not bad.passed
    cx = bad.counterexample
    assert cx.params["sigma"] == "0.5" and cx.params["T"] == "10"
    claimed = 2 * 0.1 * math.sqrt(10 * math.log(1e5)) / 0.5
    assert f"{claimed:.6f}"[:5] in cx.detail
    good = shiftdp.check_sampler_claim(
        "epsilon <= E/(2*sigma^2) + sqrt(2*E*ln(1/delta))/sigma", "shuffle", region=region
    )
    assert good.passed and "implied by the certified upper bound at 2" in good.obligations[0].summary
    with pytest.raises(shiftdp.HypothesisError, match="n fixed"):
        shiftdp.check_sampler_claim("epsilon <= 1", "shuffle", relation="add-remove", region=region)
    with pytest.raises(shiftdp.ParameterError, match="region"):
        shiftdp.check_sampler_claim("epsilon <= 1", "shuffle", region="speed=3")


def test_k_of_t_participations():
    """Balls-in-bins with each record in k of the T = ⌈n·k/b⌉ batches: T grows with k, the
    interval is ordered, more participations never lower the certified lower end here,
    and k > 1 is refused for other samplers."""
    r1 = shiftdp.sampler_report("balls-in-bins", 1000, 50, 2, 1.0, tolerance=1e-2)
    r3 = shiftdp.sampler_report("balls-in-bins", 1000, 50, 2, 1.0, tolerance=1e-2, participations=3)
    assert (r1.steps_per_epoch, r3.steps_per_epoch, r3.participations) == (20, 60, 3)
    assert 0 < r3.lower <= r3.upper and r3.lower >= r1.lower
    with pytest.raises(shiftdp.ParameterError, match="participations"):
        shiftdp.sampler_report("shuffle", 1000, 50, 2, 1.0, participations=2)
