"""An Opacus-interface accountant with certified answers: :class:`CertifiedAccountant`
(exported as :class:`shiftdp.accounting.CertifiedAccountant`).

Opacus's ``IAccountant`` interface (``opacus/accountants/accountant.py``): ``step(*,
noise_multiplier, sample_rate)``, ``history`` (a list of ``(noise_multiplier,
sample_rate, num_steps)`` with consecutive equal steps merged, as Opacus's RDP and PRV
accountants keep it), ``get_epsilon(delta, **kwargs)``, ``__len__``, ``mechanism()``,
``get_optimizer_hook_fn(sample_rate)``, ``state_dict()`` / ``load_state_dict()``.

When ``opacus`` can be imported (it needs torch), the class is
:class:`shiftdp.opacus.CertifiedAccountant`, which subclasses
``opacus.accountants.IAccountant`` and is registered under the name ``"shiftdp"``
(``PrivacyEngine(accountant="shiftdp")``, ``get_noise_multiplier(...,
accountant="shiftdp")``) as soon as both ``shiftdp`` and ``opacus.accountants`` are
imported, in either order (:func:`register_with_opacus`, run by ``import shiftdp``);
otherwise it is a plain class with the same methods, so the package never needs torch.
"""

from __future__ import annotations

import decimal
import importlib.abc
import importlib.util
import inspect
import math
import warnings
import numbers
import sys
from collections import OrderedDict
from copy import deepcopy
from typing import Any, Callable, Dict, List, NamedTuple, Optional, Tuple

from . import _check, _core
from ._types import Analysis, Entry, Interval, PoissonGaussian

__all__ = [
    "CertifiedAccountant",
    "MECHANISM",
    "SamplerMismatchWarning",
    "detect_sampler",
    "register_with_opacus",
]

MECHANISM = "shiftdp"
"""The name of the accountant in Opacus's registry and in its ``state_dict``."""


class SamplerMismatchWarning(UserWarning):
    """The batches drawn are not Poisson-sampled, yet the accountant composes the
    Poisson-subsampled Gaussian: its ε is not a bound for the run (see
    :func:`shiftdp.sampler_report` for the sampler used)."""


_POISSON_LOADERS = {"DPDataLoader"}
_POISSON_SAMPLERS = {"UniformWithReplacementSampler", "DistributedUniformWithReplacementSampler"}


def detect_sampler(data_loader: Any) -> str:
    """The sampler of a PyTorch/Opacus data loader, by its classes (torch is not
    imported): ``"poisson"`` for Opacus's ``DPDataLoader`` or a batch sampler
    ``UniformWithReplacementSampler`` (each record independently with probability
    ``sample_rate``); ``"shuffle"`` for a ``BatchSampler`` over a ``RandomSampler``
    without replacement (a fresh permutation every epoch, PyTorch's ``shuffle=True``);
    ``"sequential"`` for a ``SequentialSampler`` (a fixed order: no amplification at all,
    ``shuffle=False``); ``"unknown"`` otherwise (sampling with replacement, custom
    samplers, iterable datasets: no analysis applies)."""
    if type(data_loader).__name__ in _POISSON_LOADERS:
        return "poisson"
    batch_sampler = getattr(data_loader, "batch_sampler", None)
    if type(batch_sampler).__name__ in _POISSON_SAMPLERS:
        return "poisson"
    if type(batch_sampler).__name__ != "BatchSampler":
        return "unknown"
    sampler = getattr(batch_sampler, "sampler", getattr(data_loader, "sampler", None))
    name = type(sampler).__name__
    if name == "RandomSampler":
        if getattr(sampler, "replacement", False) or getattr(sampler, "_num_samples", None):
            return "unknown"
        return "shuffle"
    if name == "SequentialSampler":
        return "sequential"
    return "unknown"


def _loader_from_caller() -> Optional[Tuple[str, bool]]:
    """``(sampler, poisson_sampling)`` of the Opacus ``make_private`` call on the stack
    (:func:`detect_sampler` of its data loader, and its ``poisson_sampling`` argument),
    or ``None`` when not called from ``make_private``."""
    frame = inspect.currentframe()
    try:
        f = frame.f_back if frame else None
        for _ in range(8):
            if f is None:
                return None
            if f.f_code.co_name in ("make_private", "make_private_with_epsilon"):
                loc = f.f_locals
                loader = loc.get("data_loader")
                kind = detect_sampler(loader) if loader is not None else "unknown"
                return kind, bool(loc.get("poisson_sampling", True))
            f = f.f_back
        return None
    finally:
        del frame


def _mismatch(loader: Optional[Tuple[str, bool]]) -> Optional[str]:
    """Why the batches of a ``make_private`` call are not Poisson-sampled
    (``poisson_sampling=False`` or a loader :func:`detect_sampler` does not read as
    Poisson), or ``None`` (Poisson, or not called from ``make_private``)."""
    if loader is None:
        return None
    kind, poisson_sampling = loader
    if poisson_sampling and kind == "poisson":
        return None
    return (
        f"the data loader is not Poisson-sampled (detected: {kind}; "
        f"poisson_sampling={poisson_sampling!r}), but Opacus "
        "reports the Poisson-subsampled Gaussian's ε for it, and so does this "
        "accountant: that ε is not a bound for these batches. Use "
        "CertifiedAccountant(sampler='shuffle') or shiftdp.sampler_report(…) "
        "for certified bounds of the sampler used, or "
        "make_private(poisson_sampling=True)."
    )


def _decimal(x: float) -> decimal.Decimal:
    """The float as the decimal its shortest round-trip text denotes (``1.5`` is 3/2,
    ``0.1`` is 1/10) — the reading of every float in the package."""
    return decimal.Decimal(repr(float(x)))


class _Methods:
    """The methods of :class:`CertifiedAccountant`; mixed into Opacus's ``IAccountant``
    when Opacus is importable."""

    history: List[Tuple[float, float, int]]

    def __init__(
        self,
        *,
        tolerance: float = _core.DEFAULT_TOLERANCE,
        sampler: str = "poisson",
        relation: str = "zero-out",
    ) -> None:
        # history of (noise_multiplier, sample_rate, num_steps), as Opacus keeps it
        self.history = []
        self.tolerance = _check.real("tolerance", tolerance)
        if sampler not in _core.SAMPLERS:
            raise _check.parameter_error("sampler", sampler, "unknown sampler: " + ", ".join(_core.SAMPLERS))
        self.sampler = sampler
        self.relation = relation
        self.sampler_mismatch: Optional[str] = None
        # the sampler of the loader seen by make_private (detect_sampler), if any
        self.loader_sampler: Optional[str] = None

    # -- the Opacus interface --------------------------------------------------

    def step(self, *, noise_multiplier: float, sample_rate: float) -> None:
        """Records one step of the Poisson-subsampled Gaussian mechanism: each record
        in the batch with probability ``sample_rate`` (q), Gaussian noise of standard
        deviation ``noise_multiplier`` (σ) times the clipping norm added to the sum of
        clipped per-sample gradients (Opacus's DP-SGD step). A step equal to the last
        one increments its count (Opacus's run-length ``history``).

        Raises :class:`shiftdp.ParameterError` naming ``noise_multiplier`` (σ < 0, NaN,
        ±inf) or ``sample_rate`` (q ∉ [0, 1], NaN); nothing is recorded then.
        """
        _step_part(noise_multiplier, sample_rate, 1)  # validates (nothing recorded on error)
        if self.history:
            last_sigma, last_q, k = self.history[-1]
            if last_sigma == noise_multiplier and last_q == sample_rate:
                self.history[-1] = (last_sigma, last_q, k + 1)
                return
        self.history.append((noise_multiplier, sample_rate, 1))

    def get_epsilon(self, delta: float, *args: Any, **kwargs: Any) -> float:
        """Certified upper bound on ε(δ) of the whole history (the upper end of
        :meth:`get_epsilon_interval`). Extra arguments of other accountants
        (``eps_error``, ``delta_error``, ``alphas``, ``poisson``) are accepted and
        ignored: the answer is a certified bound, not an estimate with an error bar.
        """
        if getattr(self, "sampler_mismatch", None):
            warnings.warn(SamplerMismatchWarning(self.sampler_mismatch), stacklevel=2)
        return self.get_epsilon_interval(delta).upper

    def __len__(self) -> int:
        """The number of history segments, as Opacus's own accountants (RDP, PRV)
        return it; :attr:`steps` is the number of optimization steps."""
        return len(self.history)

    @property
    def steps(self) -> int:
        """The number of optimization steps taken so far (the sum of the history's
        counts)."""
        return sum(int(k) for _, _, k in self.history)

    @classmethod
    def mechanism(cls) -> str:
        """``"shiftdp"``: the registry name, also stored in the ``state_dict``."""
        return MECHANISM

    def get_optimizer_hook_fn(self, sample_rate: float) -> Callable[[Any], None]:
        """A callback for Opacus's ``DPOptimizer`` (``attach_step_hook``): one
        :meth:`step` with the optimizer's noise multiplier and ``sample_rate`` times its
        accumulated iterations (Opacus's base-class hook).

        Opacus calls this from ``PrivacyEngine.make_private``; when that call kept the
        user's data loader (``poisson_sampling=False``) or the loader is not
        Poisson-sampled (:func:`~shiftdp.detect_sampler`), the batches are not the
        Poisson batches every Opacus accountant assumes: a
        :class:`~shiftdp.SamplerMismatchWarning` says so at once, and again with every ε
        (``sampler_mismatch`` keeps the message).
        """
        loader = _loader_from_caller()
        self.loader_sampler = None if loader is None else loader[0]
        self.sampler_mismatch = _mismatch(loader) if self.sampler == "poisson" else None
        if self.sampler_mismatch:
            warnings.warn(SamplerMismatchWarning(self.sampler_mismatch), stacklevel=3)

        def hook_fn(optim: Any) -> None:
            self.step(
                noise_multiplier=optim.noise_multiplier,
                sample_rate=sample_rate * optim.accumulated_iterations,
            )

        return hook_fn

    def state_dict(self, destination: Any = None) -> Any:
        """``{"history": …, "mechanism": "shiftdp"}`` (Opacus's base-class format)."""
        if destination is None:
            destination = OrderedDict()
        destination["history"] = deepcopy(self.history)
        destination["mechanism"] = self.mechanism()
        return destination

    def load_state_dict(self, state_dict: Any) -> None:
        """Restores ``history`` from a :meth:`state_dict`; ``ValueError`` (as Opacus)
        if it is empty, lacks ``history`` or ``mechanism``, or is of another mechanism.
        Each history entry is validated (:class:`shiftdp.ParameterError` naming the
        parameter)."""
        if state_dict is None or len(state_dict) == 0:
            raise ValueError(
                "state dict is either None or empty and hence cannot be loaded into Privacy Accountant."
            )
        for key in ("history", "mechanism"):
            if key not in state_dict.keys():
                raise ValueError(
                    f"state_dict does not have the key `{key}`. Cannot be loaded into Privacy Accountant."
                )
        if state_dict["mechanism"] != self.mechanism():
            raise ValueError(
                f"state_dict of {state_dict['mechanism']} cannot be loaded into "
                f" Privacy Accountant with mechanism {self.mechanism()}"
            )
        history = [tuple(h) for h in state_dict["history"]]
        _segments(history)  # validate before replacing
        self.history = history

    # -- certified answers -----------------------------------------------------

    def components(self) -> HistoryComponents:
        """The history as :class:`shiftdp.PoissonGaussian` components (equal (σ, q)
        segments merged, μ = 1/σ rounded up) and whether a step is non-private (σ = 0
        with q > 0): a ``HistoryComponents`` named tuple, which unpacks as the pair
        ``(components, non_private)``."""
        return _segments(self.history)

    def get_epsilon_interval(self, delta: float) -> Interval:
        """Certified enclosure of ε(δ) of the history under Poisson subsampling and
        add-or-remove adjacency (Opacus's setting).

        Formula: the history is ``⊗_j P_{q_j}(G(1/σ_j))^{⊗k_j}`` where ``P_q(G(μ))`` is
        the Poisson-subsampled Gaussian pair (``q N(μ, 1) + (1 − q) N(0, 1)`` against
        ``N(0, 1)``), both orders of the pair composed (remove and add) and the larger
        ε reported; composed by :func:`shiftdp.compose` (certified PLD composition,
        discretization and FFT round-off included: Koskela et al. 2020, Gopi et al.
        2021, Doroshenko et al. 2022). ``.upper`` is the bound.

        Raises :class:`shiftdp.ParameterError` (δ ∉ (0, 1), NaN; a bad history entry),
        :class:`shiftdp.NotCertifiedError` (δ below ``shiftdp.DELTA_FLOOR``).
        """
        from . import compose

        d = _check.delta(delta)
        comps, non_private = self.components()
        if non_private:
            return Interval(math.inf, math.inf, "inf", "inf", "non-private step (σ = 0)")
        if not comps:
            return Interval(0.0, 0.0, "0", "0", "no step")
        if self.sampler != "poisson":
            return self._sampler_interval(d)
        return compose(comps, delta=d, tolerance=self.tolerance).interval

    def _sampler_interval(self, delta: float) -> Interval:
        """``[lower, upper]`` of :func:`shiftdp.sampler_report` for the declared sampler:
        one noise multiplier over the history, ``T = round(1/sample_rate)`` batches per
        epoch (Opacus's ``sample_rate = 1/len(loader)``; ``n = T`` records in batches of
        1 give the same bounds, which depend on ``T`` only). A partial last epoch counts
        whole for the upper end (more epochs only raise it) and not at all for the lower
        end (the iterates of the whole epochs are a post-processing of the run's)."""
        from . import sampler_report

        sigmas = {s for s, _, _ in self.history}
        rates = {q for _, q, _ in self.history}
        if len(sigmas) != 1 or len(rates) != 1:
            raise _check.parameter_error(
                "history",
                f"σ ∈ {sorted(sigmas)}, q ∈ {sorted(rates)}",
                "the sampler analyses need one noise multiplier and one sample rate over the run",
            )
        (sigma,), (q,) = sigmas, rates
        t = max(1, round(1.0 / q))
        full, rest = divmod(self.steps, t)

        def report(epochs: int) -> Any:
            return sampler_report(self.sampler, t, 1, epochs, sigma, self.relation, delta, False, 1e-3)

        up = report(full + (rest > 0))
        lo = up if rest == 0 else (report(full) if full >= 1 else None)
        return Interval(
            lo.lower if lo is not None else 0.0,
            up.upper,
            lo.lower_decimal if lo is not None else "0",
            up.upper_decimal,
            f"sampler {self.sampler}",
        )

    def get_delta(self, epsilon: float) -> float:
        """Certified upper bound on δ(ε) of the history (same composition)."""
        from . import compose

        eps = _check.real("epsilon", epsilon)
        comps, non_private = self.components()
        if non_private:
            return 1.0
        if not comps:
            return 0.0
        return compose(comps, epsilon=eps, tolerance=self.tolerance).upper

    # -- hidden-state bounds ---------------------------------------------------

    def hidden_state_analysis(
        self,
        delta: float,
        *,
        dataset_size: int,
        learning_rate: float,
        max_grad_norm: float,
        smoothness: Optional[float] = None,
        strong_convexity: Optional[float] = None,
        diameter: Optional[float] = None,
        batching: str = "sgd",
    ) -> Analysis:
        """Every bound of the five papers for this run *when only the last iterate is
        released* (hidden state), ε at δ — :func:`shiftdp.analyze` on the run's setting.

        The history must have one segment (σ, q, t): constant noise multiplier and
        sample rate, ``t`` steps. The setting passed to the analysis
        (docs/conventions.md §2, BSA24 eq. 2.1,
        ``X_{k+1} = Π_K[X_k − η((1/b) Σ_{i∈B_k} ∇f_i(X_k) + Z_{k+1})]``):
        ``n = dataset_size``, ``b = q·n`` (must be an integer), ``steps = t``,
        ``eta = learning_rate``, gradient sensitivity ``L = 2·max_grad_norm`` (two
        per-sample gradients of norm ≤ C differ by ≤ 2C: replace-one), noise
        ``σ_BSA = σ·C/b`` rounded down (Opacus adds ``N(0, σ²C²)`` to the sum and
        divides by the batch size), so the per-step unit is ``L/(bσ_BSA) = 2/σ``;
        ``smoothness`` M, ``strong_convexity`` m, ``diameter`` D as given.

        **What you must guarantee** (the hypotheses of the hidden-state results; the
        analysis checks the ones it can see — η range, c < 1, b ≤ n — and names any
        that fails in the entry's ``reason``): every per-example loss f_i is convex
        (m-strongly convex if ``strong_convexity`` is given) and M-smooth; each
        per-example gradient has norm ≤ ``max_grad_norm`` everywhere on the iterates'
        domain, so that clipping never changes it (clipping a convex loss's gradient
        is in general not the gradient of a convex loss); with ``diameter`` the
        iterates are projected onto a convex set of that diameter after every step;
        only the final iterate is released (no intermediate checkpoints, no logged
        models); batches are ``batching="sgd"``: a uniformly random subset of exactly
        b records each step, independently across steps (**not** Opacus's default
        Poisson sampling), or ``"cgd"``: the fixed cyclic order of l = n/b disjoint
        batches. Adjacency is replace-one (the data set size n is public) — a different
        relation from :meth:`get_epsilon`'s add-or-remove.

        Raises :class:`shiftdp.ParameterError` for a history that is empty or has more
        than one segment, a non-integer b = q·n, or an invalid value.
        """
        from . import analyze

        comps_history = [h for h in self.history if int(h[2]) > 0]
        if len(comps_history) != 1:
            raise _check.parameter_error(
                "history",
                f"{len(comps_history)} segments",
                "the hidden-state analysis needs one (noise_multiplier, sample_rate) for the whole run",
            )
        sigma, q, t = comps_history[0]
        sigma = _check.noise_multiplier(sigma)
        q = _check.probability(q)
        if sigma == 0:
            raise _check.parameter_error("noise_multiplier", sigma, "must be > 0 for a finite bound")
        if isinstance(dataset_size, bool) or not isinstance(dataset_size, numbers.Integral) or dataset_size < 1:
            raise _check.parameter_error("dataset_size", dataset_size, "must be an integer ≥ 1")
        c = _check.real("max_grad_norm", max_grad_norm)
        if c <= 0:
            raise _check.parameter_error("max_grad_norm", c, "clipping norm C must be > 0")
        b_exact = _decimal(q) * dataset_size
        b = int(b_exact.to_integral_value())
        if b < 1 or abs(b_exact - b) > decimal.Decimal("1e-9") * dataset_size:
            raise _check.parameter_error(
                "sample_rate",
                q,
                f"sample_rate × dataset_size = {b_exact} must be an integer batch size b ≥ 1",
            )
        if batching not in ("sgd", "cgd"):
            raise _check.parameter_error("batching", batching, "one of sgd, cgd")
        with decimal.localcontext() as ctx:
            ctx.prec = 60
            ctx.rounding = decimal.ROUND_FLOOR  # smaller noise, larger ε: the safe side
            noise = _decimal(sigma) * _decimal(c) / b
        setting: Dict[str, Any] = {
            "n": dataset_size,
            "batch": b,
            "steps": int(t),
            "eta": learning_rate,
            "noise": str(noise),
            "sensitivity": str(2 * _decimal(c)),
        }
        for key, value in (
            ("smoothness", smoothness),
            ("strong_convexity", strong_convexity),
            ("diameter", diameter),
        ):
            if value is not None:
                setting[key] = value
        setting["n"] = int(dataset_size)
        analysis = analyze(batching, delta=delta, **setting)
        return analysis.with_notes(
            self._hidden_state_notes(delta, batching, sigma, b, dataset_size, int(t))
        )

    def _hidden_state_notes(
        self, delta: float, batching: str, sigma: float, b: int, n: int, t: int
    ) -> List[str]:
        """The relation and sampler the hidden-state entries assume, the every-iterate
        composition of the same run under them (the baseline the last-iterate results
        improve on), and why :meth:`get_epsilon` differs; a
        :class:`SamplerMismatchWarning` when the run's loader was seen to be
        Poisson-sampled."""
        from . import compose
        from ._types import Gaussian, SubsampledGaussian
        from ._types import p_up as _p_up

        if batching == "sgd":
            sampler = f"batches of exactly b = {b} of n = {n} records, drawn uniformly and independently every step"
            comp: Any = SubsampledGaussian(_p_up(b, n), noise_multiplier=sigma, count=t)
            baseline_name = f"C_{{{b}/{n}}}(G(2/σ))^⊗{t} at noise multiplier σ = {sigma!r}"
        else:
            uses = -(-t * b // n)  # each record is in one batch per pass of n/b steps
            sampler = f"a fixed cyclic order of n/b = {n // b} disjoint batches of b = {b}"
            comp = Gaussian(noise_multiplier=sigma / 2.0, count=uses)  # μ = 2/σ, σ/2 exact
            baseline_name = f"G(2/σ)^⊗{uses} at noise multiplier σ = {sigma!r} (each record in {uses} steps)"
        baseline = compose([comp], delta=delta).interval
        notes = [
            f"every entry assumes replace-one adjacency (n = {n} public), {sampler}, and that only "
            "the last iterate is released",
            f"every-iterate baseline under the same relation and sampler: {baseline_name}, "
            f"ε ≤ {baseline.upper_readable}; a last-iterate entry above it adds nothing",
            "get_epsilon answers Poisson sampling under add-or-remove adjacency, another sampler "
            "and relation: the two numbers are not comparable",
        ]
        if getattr(self, "loader_sampler", None) == "poisson":
            message = (
                "the run's data loader is Poisson-sampled (Opacus's default): the hidden-state "
                f"results assume batching={batching!r} ({sampler}) and are not bounds for this run"
            )
            notes.append(message)
            warnings.warn(SamplerMismatchWarning(message), stacklevel=3)
        return notes

    def get_epsilon_hidden_state(self, delta: float, **loss: Any) -> Entry:
        """The best certified bound of :meth:`hidden_state_analysis` (same keywords):
        an :class:`shiftdp.Entry` with the result's ``id`` (e.g. ``"BSA24 Thm 4.9"``),
        ``paper`` and ``epsilon`` (``.epsilon.upper`` is the bound). The same
        guarantees are required of the run; raises :class:`shiftdp.NotCertifiedError`
        when no result applies."""
        from . import NotCertifiedError

        a = self.hidden_state_analysis(delta, **loss)
        best = a.best
        if best is None or best.epsilon is None:
            reasons = "; ".join(f"{e.id}: {e.reason}" for e in a.entries if e.reason)
            err = NotCertifiedError(f"could not certify hidden-state ε: no result applies ({reasons})")
            err.what = "hidden-state ε"
            err.reason = reasons
            raise err
        return best

    def __repr__(self) -> str:
        return f"CertifiedAccountant(steps={self.steps}, history={self.history!r})"

    def _repr_html_(self) -> str:
        rows = "".join(
            f"<tr><td>{s}</td><td>{q}</td><td>{k}</td></tr>" for s, q, k in self.history
        )
        return (
            f"<p>shiftdp CertifiedAccountant: {self.steps} steps (Poisson, add-or-remove)</p>"
            "<table><tr><th>noise multiplier σ</th><th>sample rate q</th><th>steps</th></tr>"
            + rows
            + "</table>"
        )


class HistoryComponents(NamedTuple):
    """An accountant's history as components (what ``CertifiedAccountant.components()``
    returns): ``components``, the Poisson-subsampled Gaussian components with equal
    (σ, q) segments merged, and ``non_private``, whether a step has σ = 0 with q > 0
    (ε = ∞)."""

    components: List[PoissonGaussian]
    non_private: bool


HistoryComponents.__module__ = "shiftdp.accounting"


def _step_part(noise_multiplier: Any, sample_rate: Any, count: int) -> Any:
    """What ``count`` steps (σ, q) add: :func:`shiftdp._core.map_event` of the step
    (the Poisson-subsampled Gaussian under add-or-remove, μ = 1/σ rounded up; σ = 0 is
    non-private, q = 0 nothing), which validates σ and q by their names here."""
    step = ("OpacusStep", {"noise_multiplier": noise_multiplier, "sample_rate": sample_rate})
    return _core.map_event(step, "ADD_OR_REMOVE_ONE", count)


def _segments(history: List[Tuple[Any, Any, Any]]) -> HistoryComponents:
    """Validated, merged components of a history."""
    merged: Dict[PoissonGaussian, int] = {}
    non_private = False
    for entry in history:
        if len(entry) != 3:
            raise _check.parameter_error(
                "history", entry, "entries are (noise_multiplier, sample_rate, num_steps)"
            )
        part = _step_part(entry[0], entry[1], _check.count(entry[2]))
        non_private = non_private or part.non_private
        if part.component is not None:
            key = part.component.with_count(1)
            merged[key] = merged.get(key, 0) + part.component.count
    return HistoryComponents([c.with_count(k) for c, k in merged.items()], non_private)


_BUILDING = False
"""True while :mod:`shiftdp.opacus` imports Opacus (the import hook then leaves the
registration to it)."""


def _build() -> type:
    """The class: :class:`shiftdp.opacus.CertifiedAccountant` (a subclass of Opacus's
    ``IAccountant``, registered as ``"shiftdp"``) when Opacus imports, else the plain
    class with the same methods."""
    try:  # Opacus imports torch; any failure means "no Opacus"
        from .opacus import CertifiedAccountant as registered

        return registered
    except Exception:  # noqa: BLE001 - an unusable Opacus is the same as none
        pass

    class CertifiedAccountant(_Methods):
        __doc__ = _DOC

    CertifiedAccountant.__module__ = "shiftdp.accounting"
    CertifiedAccountant.__qualname__ = "CertifiedAccountant"
    return CertifiedAccountant


def _register() -> None:
    """Builds the class, which registers it in Opacus's registry; an Opacus whose
    accountants cannot be used leaves it unregistered (never an import error)."""
    if _BUILDING:
        return
    try:
        from . import accounting

        accounting.CertifiedAccountant  # noqa: B018 - built on access, registered then
    except Exception:  # noqa: BLE001 - registration is a convenience, never a failure
        pass


class _RegisteringLoader(importlib.abc.Loader):
    """The loader of ``opacus.accountants`` with :func:`_register` run after the module
    executes; every other attribute is the wrapped loader's."""

    def __init__(self, inner: Any) -> None:
        self._inner = inner

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    def create_module(self, spec: Any) -> Any:
        return self._inner.create_module(spec)

    def exec_module(self, module: Any) -> None:
        self._inner.exec_module(module)
        _register()


class _OpacusImportHook(importlib.abc.MetaPathFinder):
    """A one-shot finder: when ``opacus.accountants`` is first imported, its loader is
    wrapped so that the accountant is registered as soon as the module exists. Torch is
    never imported by shiftdp itself."""

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> Any:
        if fullname != "opacus.accountants":
            return None
        if self in sys.meta_path:
            sys.meta_path.remove(self)
        spec = importlib.util.find_spec(fullname)
        if spec is not None and spec.loader is not None:
            spec.loader = _RegisteringLoader(spec.loader)
        return spec


def register_with_opacus() -> None:
    """Makes ``accountant="shiftdp"`` available to Opacus (``PrivacyEngine``,
    ``get_noise_multiplier``, ``make_private_with_epsilon``): registers the accountant
    now if ``opacus.accountants`` is already imported, or when it is, if Opacus is
    installed. Called by ``import shiftdp``."""
    module = sys.modules.get("opacus.accountants")
    if module is not None:
        _register()
        return
    try:
        installed = importlib.util.find_spec("opacus") is not None
    except (ImportError, ValueError):
        installed = False
    if installed and not any(isinstance(f, _OpacusImportHook) for f in sys.meta_path):
        sys.meta_path.insert(0, _OpacusImportHook())


_DOC = """Opacus-interface privacy accountant with certified answers (shiftdp).

``step(noise_multiplier=σ, sample_rate=q)`` records a Poisson-subsampled Gaussian step
(Opacus's DP-SGD); ``get_epsilon(delta)`` returns a *certified upper bound* on ε(δ) under
add-or-remove adjacency (Opacus's relation): the upper end of the interval of
:meth:`get_epsilon_interval`, computed by shiftdp's certified PLD composition of the
history's segments (heterogeneous histories are composed exactly as a list of
components). ``history``, ``mechanism()`` (``"shiftdp"``),
``get_optimizer_hook_fn``, ``state_dict``, ``load_state_dict`` are Opacus's;
``__len__`` counts history segments as Opacus's accountants do, ``steps`` the steps.

With the loss assumptions declared, :meth:`get_epsilon_hidden_state` /
:meth:`hidden_state_analysis` give the hidden-state (last-iterate) bounds of the papers
(BSA24, AT22, YS22, …) for the same run — see their documentation for what the run
must guarantee.

``tolerance`` is the target width of the certified interval (absolute, in ε).

Example (Opacus's PRV test run)::

    acc = CertifiedAccountant()
    for _ in range(2249):
        acc.step(noise_multiplier=1.5, sample_rate=0.04)
    acc.get_epsilon(1e-5)          # ≈ 6.76 (certified upper bound)
"""
