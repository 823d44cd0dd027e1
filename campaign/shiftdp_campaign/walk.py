"""The floats of a returned result, for the NaN checks of the campaign's ``fuzz_api``
family and of ``python/tests/test_fuzz.py``. Imports nothing beyond the standard
library, so that the test suite can use it without the campaign's dependencies."""


def floats_in(obj, depth=0):
    """All floats reachable in a result (dataclasses, the core's classes, tuples, lists,
    dicts), at most four levels down."""
    if depth > 4:
        return
    if isinstance(obj, float):
        yield obj
    elif isinstance(obj, (list, tuple)):
        for x in obj:
            yield from floats_in(x, depth + 1)
    elif isinstance(obj, dict):
        for x in obj.values():
            yield from floats_in(x, depth + 1)
    elif hasattr(obj, "__dataclass_fields__"):
        for k in obj.__dataclass_fields__:
            yield from floats_in(getattr(obj, k), depth + 1)
    elif type(obj).__module__.startswith("shiftdp"):
        # the compiled core's classes (Interval, Composed, …): every public attribute
        for k in dir(obj):
            v = getattr(obj, k) if not k.startswith("_") else None
            if not callable(v):
                yield from floats_in(v, depth + 1)
