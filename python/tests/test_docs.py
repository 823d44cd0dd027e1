"""The rendered API documentation (python/docs/, built by scripts/build-py-docs.sh) builds
in Sphinx's nitpicky mode with warnings as errors: every cross-reference in the public
docstrings resolves, and every documented module imports.

scripts/test-python.sh installs Sphinx (python/docs/requirements.txt); elsewhere the test
is skipped when Sphinx or dp_accounting (whose classes shiftdp.accounting's accountant is
built from) is missing. Sphinx runs in a subprocess, with the current interpreter."""

import importlib.util
import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
DOCS = ROOT / "python" / "docs"
PAGES = ["index.html", "api/shiftdp.html", "api/accounting.html", "api/plot.html", "api/bench.html"]


def test_api_docs_build_without_warnings(tmp_path):
    for module, why in [
        ("sphinx", "Sphinx is not installed (pip install -r python/docs/requirements.txt)"),
        ("dp_accounting", "dp_accounting is not installed (the docs of shiftdp.accounting need it)"),
    ]:
        if importlib.util.find_spec(module) is None:
            pytest.skip(why)
    out = tmp_path / "html"
    proc = subprocess.run(
        [sys.executable, "-m", "sphinx", "-b", "html", "-n", "-W", "--keep-going", "-E", "-q",
         "-d", str(tmp_path / "doctrees"), str(DOCS), str(out)],
        capture_output=True, text=True, cwd=str(ROOT),
    )
    assert proc.returncode == 0, f"sphinx-build failed:\n{proc.stderr}\n{proc.stdout}"
    assert proc.stderr.strip() == "", proc.stderr
    for page in PAGES:
        assert (out / page).is_file(), page
    html = (out / "api" / "shiftdp.html").read_text(encoding="utf-8")
    for name in ["shiftdp.compose", "shiftdp.SamplerReport", "shiftdp.SamplerBound",
                 "shiftdp.LastIterateResult", "shiftdp.ShiftdpError", "shiftdp.ParameterError"]:
        assert f'id="{name}"' in html, name
    accounting = (out / "api" / "accounting.html").read_text(encoding="utf-8")
    for name in ["shiftdp.accounting.CertifiedPLDAccountant", "shiftdp.accounting.CertifiedAccountant"]:
        assert f'id="{name}"' in accounting, name
