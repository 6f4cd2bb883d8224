"""Running a console command in a subprocess and checking its one-line error."""

from __future__ import annotations

import subprocess
import sys


def assert_one_line_error(module: str, argv: list[str], fragment: str) -> None:
    """``python -m module argv`` exits 2 with one stderr line containing ``fragment``."""
    proc = subprocess.run([sys.executable, "-m", module, *argv], capture_output=True, text=True)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and fragment in lines[0], proc.stderr
    assert "Traceback" not in proc.stderr
