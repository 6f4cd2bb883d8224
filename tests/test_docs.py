"""Every command in the README and docs/ runs, and every printed sample output is current.

* ``console`` blocks: each ``$ COMMAND`` line runs; the lines after it up to the next ``$`` are its
  output (standard output, then standard error) and must match exactly. Regenerate them with
  ``python tests/test_docs.py --update`` after a change that moves a digit.
* other shell blocks and inline code spans: every ``maxinfo`` / ``proofs-checks`` command without
  placeholders (``ID``, ``[...]``, ``A|B``, ``…``) runs and exits 0.
* ``python`` blocks: run as doctests when they hold ``>>>``, else executed.

Commands run in-process in a scratch directory that sees ``examples/`` (so plots they write land
there); installing and running the test suite itself (``pip install``, ``pytest``) is CI's job.
"""

from __future__ import annotations

import contextlib
import doctest
import io
import os
import re
import shlex
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
_FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.S | re.M)
_INLINE = re.compile(r"`((?:maxinfo|proofs-checks) [^`]+)`")
_PLACEHOLDER = re.compile(r"\[|\||…|\.\.\.|<|>|_X\b|STUDY|LO:HI|F\.png|(?:^|\s)[A-Z]{1,8}(?:\s|$)")
#: a command's bare name in prose (``maxinfo plan``), not a command line
_BARE = re.compile(r"^maxinfo (plan|bound|solve|correct|plot|explain|estimate)$")
#: commands CI runs itself (installation and the test suite)
_CI_OWN = ("python -m pip", "python -m pytest")
#: documented full campaigns: run in their quick form, into the scratch directory (slow tests)
_HEAVY = tuple(
    f"{pre} run {c}"
    for pre in ("proofs-checks", "python -m proofs_checks")
    for c in ("simulate", "estimate", "counterexample", "fuzz", "enumeration", "claims", "all")
)


def _blocks() -> list[tuple[Path, str, str]]:
    return [(p, m.group(1), m.group(2)) for p in DOCS for m in _FENCE.finditer(p.read_text())]


def _console_cases() -> list[tuple[str, str, str]]:
    """(where, command, expected output) from every console block."""
    out = []
    for path, lang, body in _blocks():
        if lang != "console":
            continue
        cmd: str | None = None
        lines: list[str] = []
        for ln in body.splitlines() + ["$ "]:
            if ln.startswith("$ "):
                if cmd:
                    out.append((path.name, cmd, "\n".join(lines).rstrip()))
                cmd, lines = ln[2:].strip(), []
            else:
                lines.append(ln.rstrip())
    return out


def _plain_commands() -> list[tuple[str, str]]:
    """(where, command) from shell blocks and inline code, placeholders left out."""
    found: list[tuple[str, str]] = []
    for path, lang, body in _blocks():
        if lang in ("", "bash", "sh", "shell"):
            for ln in body.splitlines():
                for part in ln.split(" && "):
                    found.append((path.name, part.strip()))
    for path in DOCS:
        text = _FENCE.sub("", path.read_text())
        found += [(path.name, m.group(1).strip()) for m in _INLINE.finditer(text)]
    keep = []
    for where, cmd in found:
        if not cmd.startswith(("maxinfo ", "proofs-checks ", "python -m proofs_checks")):
            continue
        if _PLACEHOLDER.search(cmd) or _BARE.match(cmd) or cmd.startswith(_CI_OWN):
            continue
        if (where, cmd) not in keep:
            keep.append((where, cmd))
    return keep


def _run(cmd: str, cwd: Path) -> tuple[int, str]:
    from maxinfo_bounds.cli import main as maxinfo_main
    from proofs_checks.__main__ import main as pc_main

    argv = shlex.split(cmd)
    if argv[:3] == ["python", "-m", "proofs_checks"]:
        argv = ["proofs-checks", *argv[3:]]
    if cmd.startswith(_HEAVY) and "--quick" not in argv:
        argv += ["--quick"]
    main = maxinfo_main if argv[0] == "maxinfo" else pc_main
    out, err = io.StringIO(), io.StringIO()
    old = os.getcwd()
    os.chdir(cwd)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                rc = main(argv[1:])
            except SystemExit as exc:
                rc = exc.code if isinstance(exc.code, int) else 1
    finally:
        os.chdir(old)
    text = out.getvalue() + err.getvalue()
    return rc, "\n".join(ln.rstrip() for ln in text.splitlines()).rstrip()


@pytest.fixture
def scratch(tmp_path: Path) -> Path:
    (tmp_path / "examples").symlink_to(ROOT / "examples")
    (tmp_path / "docs").mkdir()
    return tmp_path


CONSOLE = _console_cases()
PLAIN = _plain_commands()


def test_the_docs_have_commands():
    assert len(CONSOLE) >= 5 and len(PLAIN) >= 10


@pytest.mark.parametrize("where, cmd, expected", CONSOLE, ids=[f"{w}: {c}" for w, c, _ in CONSOLE])
def test_console_output_is_current(where, cmd, expected, scratch):
    rc, got = _run(cmd, scratch)
    assert rc in (0, 2)
    assert got == expected, f"{where}: `{cmd}` prints something else; run python tests/test_docs.py --update"


def _plain_params():
    for where, cmd in PLAIN:
        marks = [pytest.mark.slow] if cmd.startswith(_HEAVY) else []
        yield pytest.param(where, cmd, marks=marks, id=f"{where}: {cmd}")


@pytest.mark.parametrize("where, cmd", list(_plain_params()))
def test_documented_command_runs(where, cmd, scratch):
    rc, got = _run(cmd, scratch)
    assert rc == 0, f"{where}: `{cmd}` exits {rc}: {got[-500:]}"


PY = [(p.name, i, body) for i, (p, lang, body) in enumerate(_blocks()) if lang == "python"]


@pytest.mark.parametrize("where, i, body", PY, ids=[f"{w} block {i}" for w, i, _ in PY])
def test_python_blocks_run(where, i, body, scratch):
    old = os.getcwd()
    os.chdir(scratch)
    try:
        if ">>>" in body:
            test = doctest.DocTestParser().get_doctest(body, {}, f"{where}[{i}]", where, 0)
            res = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS).run(test, out=sys.stdout.write)
            assert res.failed == 0
        else:
            with contextlib.redirect_stdout(io.StringIO()):
                exec(compile(body, f"{where}[{i}]", "exec"), {})
    finally:
        os.chdir(old)


def update() -> None:
    """Rewrite every console block's outputs from the current code."""
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        (tmp / "examples").symlink_to(ROOT / "examples")
        (tmp / "docs").mkdir()
        for path in DOCS:
            text = path.read_text()

            def redo(m: re.Match[str]) -> str:
                if m.group(1) != "console":
                    return m.group(0)
                cmds = [ln[2:].strip() for ln in m.group(2).splitlines() if ln.startswith("$ ")]
                parts = []
                for c in cmds:
                    parts.append(f"$ {c}\n{_run(c, tmp)[1]}\n")
                return "```console\n" + "".join(parts) + "```"

            new = _FENCE.sub(redo, text)
            if new != text:
                path.write_text(new)
                print(f"updated {path.relative_to(ROOT)}")


if __name__ == "__main__":
    if "--update" in sys.argv:
        sys.path.insert(0, str(ROOT))
        update()
