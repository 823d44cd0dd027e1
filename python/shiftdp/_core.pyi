"""Type stubs of the compiled module ``shiftdp._core`` (python/src/lib.rs).

Private: use the typed wrappers in :mod:`shiftdp`, which re-exports the classes. A
certified value crosses the boundary as an :class:`Interval`, each end rounded outward.
"""

from typing import Any, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple, Union

from typing_extensions import Self

Num = Union[str, float]

class Interval:
    lower: float
    upper: float
    lower_decimal: str
    upper_decimal: str
    path: str
    def __init__(
        self, lower: float, upper: float, lower_decimal: str, upper_decimal: str, path: str = ""
    ) -> None: ...
    @property
    def width(self) -> float: ...
    @property
    def upper_readable(self) -> str: ...
    @property
    def lower_readable(self) -> str: ...
    def __contains__(self, x: float) -> bool: ...
    def __float__(self) -> float: ...
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...
    def _repr_html_(self) -> str: ...

class CompositionCheck:
    object: str
    theorem_epsilon: float
    composition_epsilon: Optional[float]
    grid_exp: Optional[int]
    composition_tighter: bool
    def __init__(
        self,
        object: str,
        theorem_epsilon: float,
        composition_epsilon: Optional[float],
        grid_exp: Optional[int],
        composition_tighter: bool,
    ) -> None: ...

class Entry:
    id: str
    paper: str
    kind: str
    title: str
    epsilon: Optional[Interval]
    conversion: Optional[str]
    reason: Optional[str]
    best: bool
    eligible_for_best: bool
    alpha: Optional[float]
    tau: Optional[int]
    curve: Optional[str]
    hypotheses: List[str]
    notes: List[str]
    reason_kind: Optional[str]
    hypothesis: Optional[str]
    composition: Optional[CompositionCheck]
    def __init__(
        self,
        id: str,
        paper: str,
        kind: str,
        title: str,
        epsilon: Optional[Interval],
        conversion: Optional[str],
        reason: Optional[str],
        best: bool,
        eligible_for_best: bool,
        alpha: Optional[float] = None,
        tau: Optional[int] = None,
        curve: Optional[str] = None,
        hypotheses: List[str] = ...,
        notes: List[str] = ...,
        reason_kind: Optional[str] = None,
        hypothesis: Optional[str] = None,
        composition: Optional[CompositionCheck] = None,
    ) -> None: ...
    @property
    def applicable(self) -> bool: ...
    def __eq__(self, other: object) -> bool: ...
    def _repr_html_(self) -> str: ...

class Analysis:
    setting: str
    delta: str
    entries: List[Entry]
    best_id: Optional[str]
    notes: List[str]
    def __init__(
        self,
        setting: str,
        delta: str,
        entries: List[Entry],
        best_id: Optional[str],
        notes: List[str] = ...,
    ) -> None: ...
    @property
    def best(self) -> Optional[Entry]: ...
    def entry(self, id: str) -> Optional[Entry]: ...
    def with_notes(self, notes: List[str]) -> "Analysis": ...
    def __iter__(self) -> Iterator[Entry]: ...
    def __len__(self) -> int: ...
    def __eq__(self, other: object) -> bool: ...
    def _repr_html_(self) -> str: ...

class Calibration:
    sigma: float
    epsilon: float
    source: str
    sigma_below: float
    epsilon_below: Optional[float]
    evaluations: int
    tolerance: Optional[float]
    def __init__(
        self,
        sigma: float,
        epsilon: float,
        source: str,
        sigma_below: float,
        epsilon_below: Optional[float],
        evaluations: int,
        tolerance: Optional[float] = None,
    ) -> None: ...
    def __float__(self) -> float: ...
    def __eq__(self, other: object) -> bool: ...
    def _repr_html_(self) -> str: ...

class Counterexample:
    detail: str
    def __init__(self, params: Dict[str, str], detail: str) -> None: ...
    @property
    def params(self) -> Dict[str, str]: ...
    def __eq__(self, other: object) -> bool: ...

class Obligation:
    label: str
    kind: str
    status: str
    summary: str
    points: int
    min_margin: Optional[float]
    counterexample: Optional[Counterexample]
    def __init__(
        self,
        label: str,
        kind: str,
        status: str,
        summary: str,
        points: int,
        min_margin: Optional[float],
        counterexample: Optional[Counterexample],
    ) -> None: ...
    def __eq__(self, other: object) -> bool: ...

class ClaimCheck:
    claim: str
    family: str
    status: str
    obligations: List[Obligation]
    def __init__(self, claim: str, family: str, status: str, obligations: List[Obligation]) -> None: ...
    @property
    def passed(self) -> bool: ...
    @property
    def counterexample(self) -> Optional[Counterexample]: ...
    def __bool__(self) -> bool: ...
    def __eq__(self, other: object) -> bool: ...
    def _repr_html_(self) -> str: ...

class Grid:
    h: float
    window: Tuple[float, float]
    points: int
    fft_l1_error_pess: float
    fft_l1_error_opt: float
    infinity_mass_upper: float
    def __init__(
        self,
        h: float,
        window: Tuple[float, float],
        points: int,
        fft_l1_error_pess: float,
        fft_l1_error_opt: float,
        infinity_mass_upper: float,
    ) -> None: ...
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

class Composed:
    composition: str
    quantity: str
    at: float
    interval: Interval
    orders: int
    grid: List[Grid]
    clt_mu: Optional[float]
    method: str
    gaussian_mu_upper: Optional[float]
    at_zero: bool
    note: Optional[str]
    def __init__(
        self,
        composition: str,
        quantity: str,
        at: float,
        interval: Interval,
        orders: int,
        grid: List[Grid],
        clt_mu: Optional[float],
        method: str = "pld",
        gaussian_mu_upper: Optional[float] = None,
        at_zero: bool = False,
        note: Optional[str] = None,
    ) -> None: ...
    @property
    def upper(self) -> float: ...
    @property
    def lower(self) -> float: ...
    def __float__(self) -> float: ...
    def __eq__(self, other: object) -> bool: ...
    def _repr_html_(self) -> str: ...

def readable(text: str, up: bool, digits: int = 6) -> str: ...

class _Component:
    count: int
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...
    def with_count(self, count: int) -> Self: ...

class Gaussian(_Component):
    mu: float
    noise_multiplier: Optional[float]
    def __init__(
        self, *, mu: Optional[float] = None, noise_multiplier: Optional[float] = None, count: int = 1
    ) -> None: ...

class _SampledGaussian(_Component):
    p: float
    mu: float
    noise_multiplier: Optional[float]
    def __init__(
        self,
        p: float,
        *,
        mu: Optional[float] = None,
        noise_multiplier: Optional[float] = None,
        count: int = 1,
    ) -> None: ...

class SubsampledGaussian(_SampledGaussian): ...
class PoissonGaussian(_SampledGaussian): ...

class Laplace(_Component):
    b: float
    sensitivity: float
    def __init__(self, b: float, sensitivity: float = 1.0, count: int = 1) -> None: ...

class PoissonLaplace(_Component):
    p: float
    b: float
    sensitivity: float
    def __init__(self, p: float, b: float, sensitivity: float = 1.0, count: int = 1) -> None: ...

class DiscreteLaplace(_Component):
    a: float
    sensitivity: int
    def __init__(self, a: float, sensitivity: int = 1, count: int = 1) -> None: ...

class RandomizedResponse(_Component):
    noise_parameter: float
    buckets: int
    def __init__(self, noise_parameter: float, buckets: int, count: int = 1) -> None: ...

class MixtureOfGaussians(_Component):
    sigma: float
    sensitivities: Tuple[float, ...]
    probabilities: Tuple[float, ...]
    def __init__(
        self, sigma: float, sensitivities: Sequence[float], probabilities: Sequence[float], count: int = 1
    ) -> None: ...

class PoissonMixtureOfGaussians(_Component):
    p: float
    sigma: float
    sensitivities: Tuple[float, ...]
    probabilities: Tuple[float, ...]
    def __init__(
        self, p: float, sigma: float, sensitivities: Sequence[float], probabilities: Sequence[float], count: int = 1
    ) -> None: ...

class ApproxDp(_Component):
    epsilon: float
    delta: float
    def __init__(self, epsilon: float, delta: float, count: int = 1) -> None: ...

class TruncatedSubsampledGaussian(_Component):
    dataset_size: int
    sampling_probability: float
    truncated_batch_size: int
    noise_multiplier: float
    def __init__(
        self,
        dataset_size: int,
        sampling_probability: float,
        truncated_batch_size: int,
        noise_multiplier: float,
        count: int = 1,
    ) -> None: ...

def mu_up(noise_multiplier: float, sensitivity: float = 1.0) -> float: ...
def p_up(m: int, n: int) -> float: ...

DELTA_FLOOR: float
SAMPLERS: List[str]

class ShiftdpError(ValueError):
    """Base class of every refusal of shiftdp."""

class ParameterError(ShiftdpError):
    name: str
    value: str
    reason: str

class ParseError(ShiftdpError):
    input: str
    reason: str

class PrecisionError(ShiftdpError):
    bits: int
    min: int
    max: int

class DomainError(ShiftdpError):
    what: str
    reason: str

class NotCertifiedError(ShiftdpError):
    what: str
    reason: str

class MemoryLimitError(ShiftdpError):
    what: str
    needed: str
    limit: str

class HypothesisError(ShiftdpError):
    result: str
    hypothesis: str
    detail: str

def set_memory_limit(size: Union[int, str]) -> int: ...
def memory_limit() -> int: ...
def check_delta(delta: Num) -> None: ...
def gdp_epsilon(mu: Num, delta: Num, bits: Optional[int] = None) -> Interval: ...
def gdp_delta(mu: Num, epsilon: Num, bits: Optional[int] = None) -> Interval: ...
DEFAULT_TOLERANCE: float

def compose(
    components: Iterable[_Component],
    target: str,
    value: float,
    tolerance: float = ...,
    grid: Optional[int] = None,
) -> Composed: ...
def clear_kept_composition() -> None: ...
def has_kept_composition() -> bool: ...
def exact_mu(
    algorithm_name: str,
    n: int,
    eta: Num,
    noise: Num,
    sensitivity: Num,
    curvature: Num,
    steps: Optional[int] = None,
    epochs: Optional[int] = None,
    batch: Optional[int] = None,
    position: Optional[int] = None,
    bits: int = 128,
) -> Tuple[Interval, Optional[int]]: ...
def calibrate_poisson(
    q: float, steps: int, delta: float, epsilon: float, resolution: float = 1e-3
) -> Calibration: ...
def calibrate_run(
    algorithm_name: str,
    setting: Sequence[Tuple[str, Num]],
    delta: Num,
    epsilon: float,
    only: Optional[str] = None,
    resolution: float = 1e-3,
) -> Calibration: ...
def analyze(
    algorithm_name: str,
    setting: Sequence[Tuple[str, Num]],
    delta: Num,
    bits: Optional[int] = None,
) -> Analysis: ...
def check_claim(
    claim: str,
    family: str,
    region: Optional[str] = None,
    tolerance: float = 1e-6,
    samples: Optional[int] = None,
    seed: int = 1,
    bits: int = 128,
) -> ClaimCheck: ...
def schedule(
    c: Sequence[float],
    s: Sequence[float],
    noise: Sequence[float],
    diameter: Optional[float] = None,
    tau: Optional[int] = None,
    bits: int = 128,
) -> Tuple[int, str, float, float, List[float], List[float], List[Tuple[int, float]]]: ...
def rdp_epsilon(
    components: Sequence[Tuple[str, Sequence[float], int]], delta: float
) -> Tuple[float, str, Optional[float]]: ...
def compose_curve(
    components: Iterable[_Component],
    delta: float,
    points: int = 200,
    grid: Optional[int] = None,
) -> Tuple[List[Tuple[float, float]], int]: ...
def sgm_rdp(
    q: float,
    sigma: float,
    alpha: float,
    order: str = "mixture-base",
    bits: Optional[int] = None,
) -> Interval: ...

def check_sampler_claim(
    claim: str,
    sampler: str,
    relation: str = ...,
    region: Optional[str] = ...,
    bits: int = ...,
) -> ClaimCheck: ...

class SamplerBound:
    name: str
    source: str
    lower: float
    upper: float

class SamplerReport:
    sampler: str
    relation: str
    steps_per_epoch: int
    participations: int
    epochs: int
    noise_multiplier: float
    delta: float
    lower: float
    upper: float
    lower_decimal: str
    upper_decimal: str
    upper_bound: Optional[SamplerBound]
    upper_note: Optional[str]
    lower_bounds: List[SamplerBound]
    poisson: SamplerBound
    poisson_below_lower: bool
    last_iterate_setting: Optional[str]
    last_iterate: List[LastIterateResult]
    last_iterate_reason: Optional[str]

class LastIterateResult:
    id: str
    paper: str
    title: str
    epsilon: Optional[float]
    reason: Optional[str]
    best: bool

def sampler_report(
    sampler: str,
    n: int,
    batch_size: int,
    epochs: int,
    noise_multiplier: float,
    relation: str = ...,
    delta: float = ...,
    drop_last: bool = ...,
    tolerance: float = ...,
    loss: Optional[List[Tuple[str, Union[str, float]]]] = ...,
    participations: int = ...,
) -> SamplerReport: ...

SWOR_CONVENTION: str

class EventPart:
    component: Optional[_Component]
    rdp: Optional[Tuple[str, List[float]]]
    non_private: bool
    convention: Optional[str]

def map_event(event: Tuple[str, Dict[str, Any]], relation: str, count: int) -> EventPart: ...
def is_rdp_event(name: str) -> bool: ...

class PaperResult:
    """One published result of the registry (``shiftdp.results()``)."""

    id: str
    paper: str
    family: str
    algorithms: List[str]
    proof_file: Optional[str]
    eligible_for_best: bool
    sampled: bool
    not_sampled_because: Optional[str]
    def __eq__(self, other: object) -> bool: ...

def results(algorithm: Optional[str] = None) -> List[PaperResult]: ...
