"""The certified accountant for Opacus as a plain module: :class:`CertifiedAccountant`, a
subclass of ``opacus.accountants.IAccountant`` registered in Opacus's accountant registry
under the name ``"shiftdp"`` (``PrivacyEngine(accountant="shiftdp")``,
``get_noise_multiplier(..., accountant="shiftdp")``).

Importing this module imports Opacus (and so torch); it raises ``ImportError`` with an
install hint when Opacus cannot be imported. :mod:`shiftdp.accounting` gives the same
class on first use without importing Opacus eagerly (and a plain class with the same
methods when Opacus is missing), and ``import shiftdp`` registers it as soon as
``opacus.accountants`` is imported. The methods and their formulas are documented on
:class:`CertifiedAccountant`.
"""

from __future__ import annotations

from . import _opacus
from ._opacus import _DOC, MECHANISM, SamplerMismatchWarning, _Methods, detect_sampler

# While Opacus's accountants import, the registration hook of `import shiftdp` stands
# aside: this module registers its class itself, once the class exists.
_opacus._BUILDING = True
try:
    from opacus.accountants import IAccountant
except Exception as e:  # noqa: BLE001 - an Opacus that fails to import (torch missing) is none
    raise ImportError(
        "shiftdp.opacus needs Opacus and torch: pip install opacus "
        "(shiftdp.accounting.CertifiedAccountant works without them)"
    ) from e
finally:
    _opacus._BUILDING = False

__all__ = ["CertifiedAccountant", "MECHANISM", "SamplerMismatchWarning", "detect_sampler"]


class CertifiedAccountant(_Methods, IAccountant):  # type: ignore[misc]
    # the mixin first, so that its methods implement IAccountant's abstract ones
    __doc__ = _DOC


def _register() -> None:
    """Registers :class:`CertifiedAccountant` as ``"shiftdp"`` unless a class already is;
    an Opacus without a registry leaves it usable and unregistered."""
    try:
        from opacus.accountants import registry

        if MECHANISM not in getattr(registry, "_ACCOUNTANTS", {}):
            registry.register_accountant(MECHANISM, CertifiedAccountant)
    except Exception:  # noqa: BLE001 - registration is a convenience, never a failure
        pass


_register()
