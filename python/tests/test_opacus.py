"""shiftdp.accounting.CertifiedAccountant: Opacus's accountant interface, certified.

Consistency with Opacus's PRV accountant (opacus/tests/accountants_test.py,
``test_prv_accountant``): 2249 steps (``int(90 // 0.04)``) at σ = 1.5, q = 0.04 give
``get_epsilon(1e-5) == 6.777395712150674``. Opacus returns ε_up of
``DiscretePRV.compute_epsilon``: with eps_error = 0.01 and δ_err = δ/1000,

    ε_up  = ε̂(δ − δ_err) + 0.01,        ε_low = ε̂(δ + δ_err) − 0.01,

where ε̂ is the ε of its discretized PRV (Gopi, Lee, Wutschitz 2021, Thm 5.5: the true ε
of its privacy loss variable — the remove direction of the Poisson pair — is in
[ε_low, ε_up]). ε̂ moves by less than 0.001 between δ(1 ± 10⁻³) here (|dε/d ln δ| < 1),
so [ε_low, ε_up] ⊆ [ε_up − 0.021, ε_up]. shiftdp's interval encloses the maximum of
both directions, which is ≥ the remove direction's ε; the criterion is therefore

    upper ≥ ε_up − 0.021     (never below Opacus's certified lower end: soundness), and
    lower ≤ ε_up             (the remove direction dominates at these parameters —
                              checked below against prv-accountant's estimate).

When ``prv-accountant`` (the reference implementation Opacus's code is taken from) is
installed (the test script installs it), its (ε_low, ε_est, ε_up) at Opacus's settings
must intersect our interval and its estimate be within 0.01 of our upper end.
"""

import math
import pickle
import subprocess
import sys
import textwrap

import pytest

import shiftdp
from shiftdp import PoissonGaussian
from shiftdp.accounting import CertifiedAccountant

OPACUS_PRV_TEST_VALUE = 6.777395712150674  # ε_up = ε̂(δ − δ/1000) + 0.01


@pytest.fixture(scope="module")
def prv_run():
    acc = CertifiedAccountant()
    for _ in range(int(90 // 0.04)):
        acc.step(noise_multiplier=1.5, sample_rate=0.04)
    return acc


def test_acceptance_opacus_prv_run(prv_run):
    acc = prv_run
    assert acc.history == [(1.5, 0.04, 2249)]
    assert acc.steps == 2249 and len(acc) == 1
    iv = acc.get_epsilon_interval(1e-5)
    assert acc.get_epsilon(1e-5) == iv.upper
    assert iv.upper - iv.lower < 1e-3
    assert iv.upper >= OPACUS_PRV_TEST_VALUE - 0.021, iv
    assert iv.lower <= OPACUS_PRV_TEST_VALUE, iv
    # Opacus's other keyword arguments are accepted (and do not change a certified bound)
    assert acc.get_epsilon(1e-5, eps_error=0.1, delta_error=1e-9) == iv.upper


def test_against_prv_accountant(prv_run):
    prv = pytest.importorskip("prv_accountant")
    mech = prv.PoissonSubsampledGaussianMechanism(noise_multiplier=1.5, sampling_probability=0.04)
    # Opacus's own settings (eps_error 0.01; δ_err = δ/1000 = 1e-8)
    ref = prv.PRVAccountant(prvs=mech, max_self_compositions=2249, eps_error=1e-2, delta_error=1e-8)
    low, est, up = ref.compute_epsilon(delta=1e-5, num_self_compositions=2249)
    iv = prv_run.get_epsilon_interval(1e-5)
    assert iv.upper >= low and iv.lower <= up, ((low, est, up), iv)
    assert abs(iv.upper - est) < 0.01, (est, iv)


def test_history_is_opacus_run_length():
    acc = CertifiedAccountant()
    for s, q in [(1.0, 0.1), (1.0, 0.1), (2.0, 0.1), (1.0, 0.1), (1.0, 0.2)]:
        acc.step(noise_multiplier=s, sample_rate=q)
    assert acc.history == [(1.0, 0.1, 2), (2.0, 0.1, 1), (1.0, 0.1, 1), (1.0, 0.2, 1)]
    assert len(acc) == 4 and acc.steps == 5  # segments, as Opacus's accountants
    with pytest.raises(TypeError):
        acc.step(1.0, 0.1)  # keyword-only, as Opacus


def test_heterogeneous_history_is_the_certified_composition():
    acc = CertifiedAccountant()
    acc.history = [(2.0, 0.05, 30), (4.0, 0.1, 100), (2.0, 0.05, 20)]  # as get_noise_multiplier sets it
    comps, non_private = acc.components()
    assert not non_private
    assert sorted((c.p, c.count) for c in comps) == [(0.05, 50), (0.1, 100)]
    for c in comps:
        assert c.mu >= 1.0 / {0.05: 2.0, 0.1: 4.0}[c.p]
    r = shiftdp.compose(comps, delta=1e-6)
    assert acc.get_epsilon(1e-6) == r.upper
    # more steps never give a smaller bound
    acc2 = CertifiedAccountant()
    acc2.history = [(2.0, 0.05, 51), (4.0, 0.1, 100)]
    assert acc2.get_epsilon_interval(1e-6).lower > acc.get_epsilon_interval(1e-6).lower
    assert acc2.get_epsilon(1e-6) > acc.get_epsilon(1e-6)
    # δ(ε) is the same composition
    d = acc.get_delta(acc.get_epsilon(1e-6))
    assert 0 < d <= 1e-6 * 1.01


def test_poisson_with_q_one_is_the_gaussian(exact):
    acc = CertifiedAccountant()
    acc.step(noise_multiplier=0.5, sample_rate=1.0)
    iv = acc.get_epsilon_interval(1e-5)
    assert iv.lower <= exact.epsilon(2, "1e-5") <= iv.upper


def test_trivial_histories():
    acc = CertifiedAccountant()
    assert acc.get_epsilon(1e-5) == 0.0 and len(acc) == 0
    acc.step(noise_multiplier=1.0, sample_rate=0.0)
    assert acc.get_epsilon(1e-5) == 0.0
    acc.step(noise_multiplier=0.0, sample_rate=0.1)
    assert math.isinf(acc.get_epsilon(1e-5))
    assert acc.get_delta(3.0) == 1.0


@pytest.mark.parametrize(
    "kw, name",
    [
        ({"noise_multiplier": -1.0, "sample_rate": 0.1}, "noise_multiplier"),
        ({"noise_multiplier": float("nan"), "sample_rate": 0.1}, "noise_multiplier"),
        ({"noise_multiplier": float("inf"), "sample_rate": 0.1}, "noise_multiplier"),
        ({"noise_multiplier": 1.0, "sample_rate": 1.5}, "sample_rate"),
        ({"noise_multiplier": 1.0, "sample_rate": -0.1}, "sample_rate"),
        ({"noise_multiplier": 1.0, "sample_rate": float("nan")}, "sample_rate"),
    ],
)
def test_bad_steps_name_the_parameter(kw, name):
    acc = CertifiedAccountant()
    acc.step(noise_multiplier=1.0, sample_rate=0.1)
    with pytest.raises(shiftdp.ParameterError, match=name) as e:
        acc.step(**kw)
    assert e.value.name == name
    assert acc.history == [(1.0, 0.1, 1)]  # nothing recorded


@pytest.mark.parametrize("delta", [0.0, -1e-5, 1.0, float("nan")])
def test_bad_delta(delta):
    acc = CertifiedAccountant()
    acc.step(noise_multiplier=1.0, sample_rate=0.1)
    with pytest.raises(shiftdp.ParameterError) as e:
        acc.get_epsilon(delta)
    assert e.value.name == "delta"


def test_bad_history_set_directly():
    acc = CertifiedAccountant()
    acc.history = [(1.0, 1.5, 10)]
    with pytest.raises(shiftdp.ParameterError) as e:
        acc.get_epsilon(1e-5)
    assert e.value.name == "sample_rate"
    acc.history = [(-2.0, 0.1, 10)]
    with pytest.raises(shiftdp.ParameterError, match="noise_multiplier"):
        acc.get_epsilon(1e-5)
    acc.history = [(1.0, 0.1)]
    with pytest.raises(shiftdp.ParameterError, match="history"):
        acc.get_epsilon(1e-5)


def test_state_dict_round_trip_and_refusals():
    acc = CertifiedAccountant()
    acc.history = [(1.0, 0.1, 3), (2.0, 0.2, 4)]
    sd = acc.state_dict()
    assert sd["mechanism"] == "shiftdp" == CertifiedAccountant.mechanism()
    other = CertifiedAccountant()
    other.load_state_dict(sd)
    assert other.history == acc.history
    assert other.get_epsilon(1e-5) == acc.get_epsilon(1e-5)
    sd["history"].append((9.0, 0.9, 9))
    assert acc.history == [(1.0, 0.1, 3), (2.0, 0.2, 4)]  # a deep copy
    for bad in [None, {}, {"history": []}, {"mechanism": "shiftdp"}, {"history": [], "mechanism": "rdp"}]:
        with pytest.raises(ValueError):
            other.load_state_dict(bad)
    with pytest.raises(shiftdp.ParameterError):
        other.load_state_dict({"history": [(1.0, 2.0, 1)], "mechanism": "shiftdp"})
    assert other.history == acc.history


def test_optimizer_hook():
    acc = CertifiedAccountant()
    hook = acc.get_optimizer_hook_fn(sample_rate=0.01)

    class Optim:  # what Opacus's DPOptimizer exposes to the hook
        noise_multiplier = 1.2
        accumulated_iterations = 2

    hook(Optim())
    hook(Optim())
    assert acc.history == [(1.2, 0.02, 2)]


def test_picklable_and_repr(prv_run):
    again = pickle.loads(pickle.dumps(prv_run))
    assert again.history == prv_run.history
    assert "2249" in repr(prv_run) and "<table>" in prv_run._repr_html_()


def test_hidden_state_cyclic_matches_analyze():
    acc = CertifiedAccountant()
    acc.history = [(4.0, 0.1, 200)]
    kw = dict(dataset_size=1000, learning_rate=0.5, max_grad_norm=1.0, smoothness=1.0, strong_convexity=0.5)
    best = acc.get_epsilon_hidden_state(1e-5, batching="cgd", **kw)
    # the same setting by hand: b = q·n = 100, noise σ·C/b = 0.04, L = 2C
    ref = shiftdp.analyze(
        "cgd", delta=1e-5, n=1000, batch=100, steps=200, eta=0.5, noise="0.04", sensitivity=2,
        smoothness=1, strong_convexity=0.5,
    )
    assert best.id == ref.best.id
    assert best.epsilon.upper == ref.best.epsilon.upper
    assert best.paper == "BSA24"
    full = acc.hidden_state_analysis(1e-5, batching="cgd", **kw)
    assert full.best.id == best.id and "σ = 0.04" in full.setting and "L = 2" in full.setting
    # the answer states its relation and sampler, and its every-iterate baseline is the
    # composition G(2/σ)^⊗20 (each record in t·b/n = 20 steps) — BSA24 Thm 4.4's bound
    relation, baseline, contrast = full.notes
    assert "replace-one" in relation and "cyclic order" in relation
    g = shiftdp.compose([shiftdp.Gaussian(mu=0.5, count=20)], delta=1e-5).interval
    assert f"ε ≤ {g.upper_readable}" in baseline and "add-or-remove" in contrast
    assert full.entry("BSA24 Thm 4.4").epsilon.upper_readable == g.upper_readable
    # a run whose loader was seen to be Poisson-sampled is warned
    acc.loader_sampler = "poisson"
    with pytest.warns(shiftdp.SamplerMismatchWarning, match="Poisson-sampled"):
        acc.hidden_state_analysis(1e-5, batching="cgd", **kw)


def test_hidden_state_refusals():
    acc = CertifiedAccountant()
    kw = dict(dataset_size=1000, learning_rate=0.5, max_grad_norm=1.0, smoothness=1.0)
    with pytest.raises(shiftdp.ParameterError, match="history"):
        acc.get_epsilon_hidden_state(1e-5, **kw)  # no step
    acc.history = [(1.0, 0.1, 5), (2.0, 0.1, 5)]
    with pytest.raises(shiftdp.ParameterError, match="history"):
        acc.get_epsilon_hidden_state(1e-5, **kw)
    acc.history = [(1.0, 0.1234567, 5)]
    with pytest.raises(shiftdp.ParameterError, match="sample_rate"):
        acc.get_epsilon_hidden_state(1e-5, **kw)
    acc.history = [(1.0, 0.1, 5)]
    with pytest.raises(shiftdp.ParameterError, match="max_grad_norm"):
        acc.get_epsilon_hidden_state(1e-5, **{**kw, "max_grad_norm": -1.0})
    with pytest.raises(shiftdp.ParameterError, match="batching"):
        acc.get_epsilon_hidden_state(1e-5, batching="poisson", **kw)
    with pytest.raises(shiftdp.ParameterError, match="eta"):
        acc.get_epsilon_hidden_state(1e-5, batching="cgd", **{**kw, "learning_rate": 0.0})


def test_without_opacus_a_plain_class():
    code = textwrap.dedent(
        """
        import sys
        sys.modules['opacus'] = None  # not importable
        from shiftdp.accounting import CertifiedAccountant
        acc = CertifiedAccountant()
        acc.step(noise_multiplier=1.0, sample_rate=0.01)
        print([b.__name__ for b in CertifiedAccountant.__mro__], acc.get_epsilon(1e-5) > 0)
        """
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "['CertifiedAccountant', '_Methods', 'object'] True", out


def test_with_opacus_a_registered_iaccountant(tmp_path):
    # the stand-in package below (the real one needs torch): the class subclasses its
    # IAccountant and is the one in its registry
    code = textwrap.dedent(
        """
        from opacus.accountants import IAccountant, registry
        from shiftdp.accounting import CertifiedAccountant
        acc = registry._ACCOUNTANTS['shiftdp']()
        assert type(acc) is CertifiedAccountant and isinstance(acc, IAccountant)
        acc.step(noise_multiplier=1.0, sample_rate=0.01)
        print(acc.get_epsilon(1e-5) > 0, len(acc), acc.mechanism())
        """
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=_stand_in_env(tmp_path))
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["True", "1", "shiftdp"], out


def test_the_opacus_module_is_the_registered_class(tmp_path):
    """``shiftdp.opacus`` is a plain module whose class subclasses Opacus's
    ``IAccountant``; imported first (before ``shiftdp.accounting``), it is still the one
    class of the registry and of ``shiftdp.accounting``. Without Opacus, importing it
    raises ImportError naming what to install."""
    code = textwrap.dedent(
        """
        import shiftdp.opacus
        from opacus.accountants import IAccountant, registry
        from shiftdp.accounting import CertifiedAccountant
        cls = shiftdp.opacus.CertifiedAccountant
        assert cls is CertifiedAccountant is registry._ACCOUNTANTS['shiftdp']
        assert issubclass(cls, IAccountant) and cls.__module__ == 'shiftdp.opacus'
        import pickle
        acc = cls()
        acc.step(noise_multiplier=1.0, sample_rate=0.01)
        assert type(pickle.loads(pickle.dumps(acc))) is cls
        print(acc.get_epsilon(1e-5) > 0)
        """
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=_stand_in_env(tmp_path))
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["True"], out
    missing = subprocess.run(
        [sys.executable, "-c", "import sys; sys.modules['opacus'] = None; import shiftdp.opacus"],
        capture_output=True, text=True,
    )
    assert missing.returncode != 0 and "pip install opacus" in missing.stderr


def test_real_opacus_if_installed():
    opacus = pytest.importorskip("opacus")  # needs torch; skipped in the default suite
    from opacus.accountants import IAccountant, create_accountant

    acc = create_accountant("shiftdp")
    assert isinstance(acc, CertifiedAccountant) and isinstance(acc, IAccountant)
    assert opacus is not None


def test_components_use_mu_rounded_up():
    acc = CertifiedAccountant()
    acc.history = [(3.0, 0.5, 1)]
    (c,), _ = acc.components()
    assert isinstance(c, PoissonGaussian) and c.mu > 1 / 3.0 and c.mu - 1 / 3.0 < 1e-15


def test_uncertifiable_history_is_an_exception_not_a_number():
    # the composition engine's window does not always reach δ for large μ·q (σ = 0.5,
    # q = 0.05 here): the refusal is NotCertifiedError, never a wrong number or a crash
    acc = CertifiedAccountant()
    acc.history = [(0.5, 0.05, 10)]
    try:
        eps = acc.get_epsilon(1e-5)
    except shiftdp.NotCertifiedError as e:
        assert "certify" in str(e)
    else:
        assert math.isfinite(eps) and eps > 0


@pytest.mark.filterwarnings("ignore::UserWarning")  # torch and Opacus notices
@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_real_opacus_run_with_a_shuffled_loader():
    """A real Opacus training loop over a ``DataLoader(shuffle=True)`` with
    ``accountant="shiftdp"``: the mismatch is reported, and the accountant declared
    with ``sampler="shuffle"`` answers the sampler's certified upper bound, above the
    Poisson ε (needs torch; skipped in the default suite)."""
    torch = pytest.importorskip("torch")
    pytest.importorskip("opacus")
    from opacus import PrivacyEngine
    from torch.utils.data import DataLoader, TensorDataset

    def train(accountant=None):
        torch.manual_seed(0)
        x = torch.randn(200, 4)
        data = DataLoader(TensorDataset(x, (x[:, 0] > 0).long()), batch_size=20, shuffle=True)
        model = torch.nn.Linear(4, 2)
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        engine = PrivacyEngine(accountant="shiftdp")
        if accountant is not None:
            engine.accountant = accountant
        model, opt, data = engine.make_private(
            module=model, optimizer=opt, data_loader=data,
            noise_multiplier=1.0, max_grad_norm=1.0, poisson_sampling=False,
        )
        for _ in range(2):
            for xb, yb in data:
                opt.zero_grad()
                torch.nn.functional.cross_entropy(model(xb), yb).backward()
                opt.step()
        return engine, data

    with pytest.warns(shiftdp.SamplerMismatchWarning, match="detected: shuffle"):
        engine, data = train()
    assert shiftdp.detect_sampler(data) == "shuffle"
    assert engine.accountant.steps == 20 and len(engine.accountant) == 1
    poisson = engine.get_epsilon(1e-5)
    shuffled = CertifiedAccountant(sampler="shuffle")
    engine, _ = train(shuffled)
    report = shiftdp.sampler_report("shuffle", n=200, batch_size=20, epochs=2, noise_multiplier=1.0)
    assert report.poisson_below_lower and poisson < report.lower
    assert abs(engine.get_epsilon(1e-5) - report.upper) < 1e-9


# A stand-in for the `opacus` package on disk (the real one needs torch): the interface,
# the registry and `get_noise_multiplier` as in opacus/accountants/{accountant,registry,
# utils}.py (Opacus 1.6), so that the import order of a user's script is reproduced.
STAND_IN = {
    "opacus/__init__.py": "",
    "opacus/accountants/__init__.py": textwrap.dedent(
        """
        import abc
        class IAccountant(abc.ABC):
            @abc.abstractmethod
            def __init__(self): self.history = []
            @abc.abstractmethod
            def step(self, *, noise_multiplier, sample_rate): ...
            @abc.abstractmethod
            def get_epsilon(self, delta, *args, **kwargs): ...
            @abc.abstractmethod
            def __len__(self): ...
            @classmethod
            @abc.abstractmethod
            def mechanism(cls): ...
        from . import registry
        from .registry import create_accountant, register_accountant
        """
    ),
    "opacus/accountants/registry.py": textwrap.dedent(
        """
        _ACCOUNTANTS = {}
        def register_accountant(mechanism, accountant, force=False):
            if mechanism in _ACCOUNTANTS and not force:
                raise ValueError(f"Accountant for mechanism {mechanism} is already registered")
            _ACCOUNTANTS[mechanism] = accountant
        def create_accountant(mechanism):
            if mechanism in _ACCOUNTANTS:
                return _ACCOUNTANTS[mechanism]()
            raise ValueError(f"Unexpected accounting mechanism: {mechanism}")
        """
    ),
    "opacus/accountants/utils.py": textwrap.dedent(
        """
        from opacus.accountants import create_accountant
        def get_noise_multiplier(*, target_epsilon, target_delta, sample_rate, epochs=None,
                                 steps=None, accountant="rdp", epsilon_tolerance=0.01, **kwargs):
            if steps is None:
                steps = int(epochs / sample_rate)
            eps_high = float("inf")
            accountant = create_accountant(mechanism=accountant)
            sigma_low, sigma_high = 0, 10
            while eps_high > target_epsilon:
                sigma_high = 2 * sigma_high
                accountant.history = [(sigma_high, sample_rate, steps)]
                eps_high = accountant.get_epsilon(delta=target_delta, **kwargs)
                if sigma_high > 1e6:
                    raise ValueError("The privacy budget is too low.")
            while target_epsilon - eps_high > epsilon_tolerance:
                sigma = (sigma_low + sigma_high) / 2
                accountant.history = [(sigma, sample_rate, steps)]
                eps = accountant.get_epsilon(delta=target_delta, **kwargs)
                if eps < target_epsilon:
                    sigma_high, eps_high = sigma, eps
                else:
                    sigma_low = sigma
            return sigma_high
        """
    ),
}

CALIBRATE = """
from opacus.accountants import create_accountant
from opacus.accountants.utils import get_noise_multiplier
sigma = get_noise_multiplier(target_epsilon=2, target_delta=1e-5, sample_rate=0.05, epochs=3,
                             accountant="shiftdp")
acc = create_accountant("shiftdp")
acc.history = [(sigma, 0.05, 60)]
print(type(acc).__name__, sigma, acc.get_epsilon(1e-5))
"""


def _stand_in_env(tmp_path):
    """The environment of a child interpreter that imports the stand-in ``opacus``."""
    import os

    for name, text in STAND_IN.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    path = os.pathsep.join(p for p in [str(tmp_path), os.environ.get("PYTHONPATH")] if p)
    return dict(os.environ, PYTHONPATH=path)


@pytest.mark.parametrize("first", ["import shiftdp\nimport opacus.accountants\n",
                                   "import opacus.accountants\nimport shiftdp\n"])
def test_import_shiftdp_alone_registers_and_calibration_meets_the_target(tmp_path, first):
    """``import shiftdp`` alone, before or after Opacus, makes ``accountant="shiftdp"``
    work, and Opacus's calibration (the probes at large ε included) returns a σ whose
    certified ε meets the target."""
    env = _stand_in_env(tmp_path)
    code = first + "assert 'torch' not in __import__('sys').modules\n" + CALIBRATE
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert out.returncode == 0, out.stderr
    name, sigma, eps = out.stdout.split()
    assert name == "CertifiedAccountant"
    # certified ε at the σ returned is within Opacus's tolerance below the target
    assert 2 - 0.01 <= float(eps) <= 2
    # and σ is not overly conservative: a 1 % smaller σ exceeds the target
    acc = CertifiedAccountant()
    acc.history = [(float(sigma) * 0.99, 0.05, 60)]
    assert acc.get_epsilon(1e-5) > 2 - 0.01


def test_real_opacus_calibration_after_import_shiftdp_alone():
    """Opacus's own ``get_noise_multiplier`` and ``make_private_with_epsilon`` with
    ``accountant="shiftdp"`` after ``import shiftdp`` (needs torch; skipped in the
    default suite)."""
    pytest.importorskip("torch")
    pytest.importorskip("opacus")
    code = "import warnings\nwarnings.simplefilter('ignore')\nimport shiftdp\n" + CALIBRATE + textwrap.dedent(
        """
        import torch
        from torch.utils.data import DataLoader, TensorDataset
        from opacus import PrivacyEngine
        torch.manual_seed(0)
        x = torch.randn(200, 4)
        data = DataLoader(TensorDataset(x, (x[:, 0] > 0).long()), batch_size=20)
        model, opt = torch.nn.Linear(4, 2), None
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        engine = PrivacyEngine(accountant="shiftdp")
        model, opt, data = engine.make_private_with_epsilon(
            module=model, optimizer=opt, data_loader=data, target_epsilon=3.0,
            target_delta=1e-5, epochs=2, max_grad_norm=1.0)
        for _ in range(2):
            for xb, yb in data:
                opt.zero_grad()
                torch.nn.functional.cross_entropy(model(xb), yb).backward()
                opt.step()
        print(engine.get_epsilon(1e-5))
        """
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    name, _, eps, final = out.stdout.split()
    assert name == "CertifiedAccountant" and float(eps) <= 2
    assert float(final) <= 3.0
