"""The package's types as a checker sees them: ``mypy --strict`` accepts
python/examples/ and the ``pycon`` examples of python/README.md (turned into one script,
in order), with the configuration of python/pyproject.toml."""

import doctest
import pathlib
import subprocess
import sys

import pytest

from test_readme import blocks

PY = pathlib.Path(__file__).resolve().parents[1]


def test_examples_and_readme_type_check_strictly(tmp_path):
    pytest.importorskip("mypy")
    parser = doctest.DocTestParser()
    source = "\n".join(blocks("python/README.md", "pycon"))
    lines = [ex.source for ex in parser.get_examples(source)]
    snippet = tmp_path / "readme_examples.py"
    snippet.write_text("".join(lines))
    out = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--config-file", str(PY / "pyproject.toml"),
         "--cache-dir", str(tmp_path / "cache"), str(PY / "examples"), str(snippet)],
        capture_output=True, text=True, cwd=PY,
    )
    assert out.returncode == 0, out.stdout + out.stderr
