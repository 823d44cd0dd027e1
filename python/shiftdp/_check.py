"""Validation of parameters coming from Python, raising the package's own exception
classes (the ones the compiled core raises), with the parameter named.

``ParameterError`` carries ``name``, ``value`` and ``reason`` and its message has the
library's form ``invalid NAME = VALUE: REASON``.
"""

from __future__ import annotations

import math
import numbers
from typing import Any

from ._core import ParameterError


def parameter_error(name: str, value: Any, reason: str) -> ParameterError:
    """A :class:`ParameterError` as the library builds it (``Error::param``)."""
    e = ParameterError(f"invalid {name} = {value}: {reason}")
    e.name = name
    e.value = str(value)
    e.reason = reason
    return e


def real(name: str, x: Any) -> float:
    """``x`` as a finite float; ``TypeError`` for a non-number (or a bool),
    :class:`ParameterError` for NaN or ±inf."""
    if isinstance(x, bool) or not isinstance(x, numbers.Real):
        raise TypeError(f"{name}: expected a number, got {type(x).__name__}")
    v = float(x)
    if not math.isfinite(v):
        raise parameter_error(name, v, "must be a finite number")
    return v


def noise_multiplier(x: Any, name: str = "noise_multiplier") -> float:
    """A noise multiplier σ ≥ 0 (σ = 0 is the non-private mechanism)."""
    v = real(name, x)
    if v < 0:
        raise parameter_error(name, v, "noise multiplier σ must be ≥ 0")
    return v


def probability(x: Any, name: str = "sample_rate") -> float:
    """A sampling probability in [0, 1]."""
    v = real(name, x)
    if not 0.0 <= v <= 1.0:
        raise parameter_error(name, v, "sampling probability must be in [0, 1]")
    return v


def count(x: Any, name: str = "num_steps") -> int:
    """A repetition count ≥ 0."""
    if isinstance(x, bool) or not isinstance(x, numbers.Integral):
        raise TypeError(f"{name}: expected an int, got {type(x).__name__}")
    if x < 0:
        raise parameter_error(name, x, "must be an integer ≥ 0")
    return int(x)


def delta(x: Any, name: str = "delta") -> float:
    """δ with 0 < δ < 1 (the composition floor is checked by the core)."""
    v = real(name, x)
    if not 0.0 < v < 1.0:
        raise parameter_error(name, v, "must satisfy 0 < δ < 1")
    return v
