"""ERRATA.md's Reproduce sections run as written.

Every ```python block of ERRATA.md is run with the interpreter running the tests (the
snippets import only mpmath and numpy) and its output must equal the ```text block that
follows it, digit for digit. Every ``$ shiftdp …`` line of a ```console block is run
with the binary named by ``SHIFTDP_BIN`` (skipped without it: a release binary found
in a target directory or on PATH may be older than this checkout, and its output is
not what this ERRATA.md promises), and each expected line under it must appear in the
command's output. The
structure is checked too: one index row per entry, every entry with a command, every
old id resolving to one entry.
"""

import os
import re
import shlex
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ERRATA = (ROOT / "ERRATA.md").read_text(encoding="utf-8")
ENTRY = re.compile(r"^## ([A-Z]{1,4}\d+)\. ", re.M)


def entries():
    """(id, text) of every entry, in file order: from its heading to the next level-1 or
    level-2 heading outside a fenced block."""
    out, cur, fence = [], None, False
    for line in ERRATA.splitlines(keepends=True):
        if line.startswith("```"):
            fence = not fence
        m = None if fence else ENTRY.match(line)
        if m:
            cur = [m.group(1), line]
            out.append(cur)
        elif not fence and re.match(r"#{1,2} ", line):
            cur = None
        elif cur is not None:
            cur[1] += line
    return [tuple(e) for e in out]


def blocks(text, lang):
    """The contents of the fenced blocks of one language, with what follows each."""
    pat = re.compile(r"^```" + lang + r"\n(.*?)^```\n", re.M | re.S)
    return [(m.group(1), text[m.end() :]) for m in pat.finditer(text)]


def python_cases():
    for eid, text in entries():
        for k, (code, rest) in enumerate(blocks(text, "python")):
            m = re.match(r"\s*prints\s*\n```text\n(.*?)^```\n", rest, re.M | re.S)
            assert m, f"{eid}: a python block without its ```text output"
            yield pytest.param(code, m.group(1), id=f"{eid}-{k}")


def command_cases():
    for eid, text in entries():
        for body, _ in blocks(text, "console"):
            lines = body.splitlines()
            i = 0
            while i < len(lines):
                if lines[i].startswith("$ "):
                    cmd = lines[i][2:]
                    j = i + 1
                    while j < len(lines) and not lines[j].startswith("$ "):
                        j += 1
                    yield eid, cmd, [x for x in lines[i + 1 : j] if x.strip()]
                    i = j
                else:
                    i += 1


def shiftdp_binary():
    env = os.environ.get("SHIFTDP_BIN")
    if env and Path(env).is_file() and os.access(env, os.X_OK):
        return env
    return None


def squash(s):
    return " ".join(s.split())


@pytest.mark.parametrize("code,expected", list(python_cases()))
def test_python_snippet_prints_what_errata_says(code, expected):
    r = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60
    )
    assert r.returncode == 0, r.stderr
    assert r.stdout.rstrip("\n").splitlines() == expected.rstrip("\n").splitlines()


def test_every_command_prints_what_errata_says():
    exe = shiftdp_binary()
    if exe is None:
        pytest.skip("no release shiftdp binary (set SHIFTDP_BIN)")
    cases = list(command_cases())
    assert len(cases) == len(entries())

    def run(case):
        eid, cmd, expected = case
        argv = shlex.split(cmd)
        assert argv[0] == "shiftdp", f"{eid}: {cmd}"
        r = subprocess.run(
            [exe] + argv[1:], capture_output=True, text=True, timeout=120, cwd=ROOT
        )
        out = squash(r.stdout + r.stderr)
        return [f"{eid}: `{cmd}` lacks `{e}`" for e in expected if squash(e) not in out]

    with ThreadPoolExecutor(max_workers=2) as pool:
        missing = [m for ms in pool.map(run, cases) for m in ms]
    assert not missing, "\n".join(missing)


def test_index_lists_every_entry_once_and_entries_have_one_shape():
    ids = [eid for eid, _ in entries()]
    assert len(ids) == len(set(ids))
    index = ERRATA.split("\n# ", 1)[0]
    rows = re.findall(r"^\| \[([A-Z]{1,4}\d+)\]\(#([a-z]+\d+)\)", index, re.M)
    assert [r[0] for r in rows] == [r for r in sorted_by_index(ids)]
    for eid, anchor in rows:
        assert anchor == eid.lower()
        assert f'<a id="{anchor}"></a>' in ERRATA
    for eid, text in entries():
        parts = (
            ["**Finding.**", "**Now.**", "**Reproduce.**", "**Evidence.**"]
            if eid.startswith("SD")
            else [
                "**As printed.**",
                "**Why it is wrong.**",
                "**Correct statement.**",
                "**Reproduce.**",
                "**Transcription caveat.**",
                "**Evidence.**",
            ]
        )
        pos = [text.find(p) for p in parts]
        assert all(p >= 0 for p in pos) and pos == sorted(pos), f"{eid}: {parts}"
        assert "```console\n$ shiftdp " in text, eid


def sorted_by_index(ids):
    """The ids as the index lists them: by paper (file order), then by class."""
    order = ["soundness", "wrong statement", "wrong number", "typo", "loose",
             "confirmed", "not checked", "shiftdp"]
    cls = {}
    for eid, text in entries():
        m = re.search(r"\*\*Class:\*\* ([a-z ]+)\.", text)
        cls[eid] = order.index(m.group(1))
    papers = []
    for eid in ids:
        p = re.match(r"[A-Z]+", eid).group()
        if p not in papers:
            papers.append(p)
    return sorted(
        ids,
        key=lambda e: (papers.index(re.match(r"[A-Z]+", e).group()), cls[e],
                       int(re.search(r"\d+", e).group())),
    )


def test_old_ids_resolve_to_exactly_one_entry():
    aliases = {}
    for eid, text in entries():
        m = re.search(r"^Aliases: (.*)$", text, re.M)
        for a in (m.group(1).split(",") if m else []):
            a = a.strip()
            assert a not in aliases, f"{a} on {aliases.get(a)} and {eid}"
            aliases[a] = eid
    # the ids the code's documentation and the evidence file cite
    for old in ["E1", "E2", "S4", "S6", "R1", "X1", "T1", "T3", "I2", "FA9", "FC6", "FB13"]:
        assert old in aliases, old
    table = dict(re.findall(r"\| ([A-Z]{1,2}\d+) \| \[([A-Z]{1,4}\d+)\]", ERRATA))
    assert table == aliases
