"""Sphinx configuration of the rendered API documentation of the Python package shiftdp.

Built by ``scripts/build-py-docs.sh`` into ``target/py-docs/`` in nitpicky mode
(``-n -W --keep-going``): every cross-reference that does not resolve is an error. The
package must be importable (autodoc imports it, including the compiled ``shiftdp._core``).
"""

from __future__ import annotations

import shiftdp

project = "shiftdp"
author = "the shiftdp authors"
copyright = "the shiftdp authors"
version = release = shiftdp.__version__

extensions = ["sphinx.ext.autodoc"]

root_doc = "index"
exclude_patterns = ["_build"]
templates_path: list = []

html_theme = "alabaster"  # Sphinx's bundled default theme (the PyPI package alabaster)
html_title = f"shiftdp {release} — Python API"
html_static_path: list = []
html_show_sourcelink = False

autodoc_default_options = {
    "members": True,
    "show-inheritance": True,
}
autodoc_member_order = "bysource"
autodoc_typehints = "signature"
autodoc_preserve_defaults = True

nitpicky = True

# Names that autodoc's signatures and the docstrings refer to but that no page of this
# build documents: the targets live in other projects' documentation, which this offline
# build has no inventory of (no intersphinx: the build needs no network). Each entry
# says why it is ignored. Every name of shiftdp itself must resolve.
nitpick_ignore = [
    # standard library (annotations of shiftdp's number and path arguments, and the
    # module the benchmark reads its packaged suite with)
    ("py:class", "decimal.Decimal"),
    ("py:class", "os.PathLike"),
    ("py:mod", "importlib.resources"),
    # dp_accounting: the base class of shiftdp.accounting.CertifiedPLDAccountant
    ("py:class", "dp_accounting.privacy_accountant.PrivacyAccountant"),
    # Opacus: the base class of shiftdp.accounting.CertifiedAccountant where Opacus is
    # installed (a plain class otherwise)
    ("py:class", "opacus.accountants.accountant.IAccountant"),
]


def _public_bases(app, name, obj, options, bases):
    """Lists only public bases: no ``object``, no private mixin (``_Name``)."""
    bases[:] = [b for b in bases if b is not object and not b.__name__.startswith("_")]


def setup(app):
    app.connect("autodoc-process-bases", _public_bases)
