"""Output files: refused before any work when they cannot be written, written without a traceback.

A command that computes for seconds and then fails to write its plot wastes the work and, worse,
prints a result and a traceback. :func:`check_output_file` is called before any work: the name
must end in a plot format, its directory must exist, and the file must be creatable there (a
probe creates and removes it, so a read-only directory or a missing permission is found before
anything is computed). :func:`save_figure` turns a late failure into the same one-line refusal.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from .errors import InvalidParameter

__all__ = ["PLOT_SUFFIXES", "check_output_file", "save_figure"]

#: the plot formats matplotlib's Agg backend writes
PLOT_SUFFIXES = (".png", ".svg", ".pdf")


def check_output_file(name: str, path: object, suffixes: tuple[str, ...] = PLOT_SUFFIXES) -> str:
    """``path`` as a string when a file can be written there (else :class:`InvalidParameter`
    naming ``name``); nothing is left behind by the check."""
    if not isinstance(path, (str, os.PathLike)):
        raise InvalidParameter(name, path, "a file path (str or pathlib.Path)")
    p = Path(path)
    if p.suffix.lower() not in suffixes:
        raise InvalidParameter(name, str(path), "a file name ending in " + ", ".join(suffixes))
    parent = p.parent if str(p.parent) else Path(".")
    if not parent.is_dir():
        raise InvalidParameter(name, str(path), f"a file in an existing directory ({parent} is not one)")
    if p.is_dir():
        raise InvalidParameter(name, str(path), "a file name, not a directory")
    existed = p.exists()
    try:
        with p.open("ab"):
            pass
    except OSError as exc:
        raise InvalidParameter(name, str(path), f"a writable file ({exc.strerror or exc})") from None
    if not existed:
        p.unlink()
    return str(path)


def save_figure(fig: Any, name: str, path: str | Path) -> None:
    """``fig.savefig(path)``, a failure refused in one line naming ``name``; the figure is closed."""
    import matplotlib.pyplot as plt

    try:
        fig.savefig(path)
    except OSError as exc:
        raise InvalidParameter(name, str(path), f"a writable file ({exc.strerror or exc})") from None
    finally:
        plt.close(fig)
