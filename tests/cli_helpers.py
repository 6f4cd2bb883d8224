"""Running the console command: in a subprocess (checking its one-line error) or in-process."""

from __future__ import annotations

import subprocess
import sys

import pytest


def assert_one_line_error(module: str, argv: list[str], fragment: str) -> None:
    """``python -m module argv`` exits 2 with one stderr line containing ``fragment``."""
    proc = subprocess.run([sys.executable, "-m", module, *argv], capture_output=True, text=True)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and fragment in lines[0], proc.stderr
    assert "Traceback" not in proc.stderr


def run_cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """``maxinfo`` in-process: (exit code, stdout, stderr)."""
    from maxinfo_bounds.cli import main

    code = main(argv)
    cap = capsys.readouterr()
    return code, cap.out, cap.err
