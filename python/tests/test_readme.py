"""The examples of README.md and python/README.md run as written and print what the
text says they print: the ``pycon`` blocks of python/README.md as doctests (in one
namespace, in order), the ``$ target/release/shiftdp …`` block of README.md with the
binary of ``SHIFTDP_BIN`` (every shown line in the output, in order; ``…`` stands for
lines left out)."""

import doctest
import os
import pathlib
import re
import shlex
import subprocess

import pytest

import shiftdp

ROOT = pathlib.Path(__file__).resolve().parents[2]


def blocks(path, lang):
    text = (ROOT / path).read_text()
    return re.findall(rf"^```{lang}\n(.*?)^```$", text, flags=re.S | re.M)


def test_python_readme_examples_print_what_they_say():
    pytest.importorskip("dp_accounting")
    pytest.importorskip("numpy")
    shiftdp.clear_kept_composition()  # the examples' numbers are those of a fresh process
    source = "\n".join(blocks("python/README.md", "pycon"))
    assert source.count(">>>") >= 15
    test = doctest.DocTestParser().get_doctest(source, {}, "python/README.md", "python/README.md", 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    shiftdp.clear_kept_composition()
    assert runner.failures == 0, "python/README.md examples differ (see the doctest output above)"


def test_readme_command_prints_what_it_says():
    binary = os.environ.get("SHIFTDP_BIN")
    if not binary:
        pytest.skip("SHIFTDP_BIN not set (the test script sets it to the release binary)")
    (block,) = [b for b in blocks("README.md", "") if b.startswith("$ target/release/shiftdp")]
    lines = block.splitlines()
    command, i = "", 0
    while True:
        command += lines[i].lstrip("$ ").rstrip("\\").strip() + " "
        if not lines[i].endswith("\\"):
            break
        i += 1
    args = shlex.split(command)[1:]
    out = subprocess.run([binary, *args], capture_output=True, text=True, check=True).stdout.splitlines()
    at = 0
    for want in lines[i + 1:]:
        if want.strip() == "…":
            continue
        while at < len(out) and out[at].rstrip() != want.rstrip():
            at += 1
        assert at < len(out), f"README.md shows {want!r}, which `shiftdp {' '.join(args)}` does not print here"
        at += 1
