"""The timing helpers the benchmark scripts share (run them as scripts: this directory is on
sys.path then).

Every figure a script prints is a :class:`Timing`: the median wall time, the median CPU time
of this process (``time.process_time``: user + system, all threads) and the one-minute load
average read when the measurement ended, so a reader sees on every line whether the machine
was busy and whether the wall time was spent computing. :func:`paired` measures a case and
its floor interleaved (each repetition calls every function once, in order), so load moves
them alike and their ratio holds where absolute times do not.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path


def load_now() -> float:
    """The one-minute load average (``nan`` where /proc/loadavg is missing)."""
    try:
        return float(Path("/proc/loadavg").read_text().split()[0])
    except (OSError, ValueError, IndexError):  # pragma: no cover - not Linux
        return float("nan")


@dataclass(frozen=True)
class Timing:
    """Median wall and CPU seconds of one case, and the load when it was measured."""

    wall: float
    cpu: float
    load: float

    def __truediv__(self, other: Timing) -> float:
        """Wall-time ratio (the same-run comparison every line prints)."""
        return self.wall / other.wall

    def s(self, digits: int = 3) -> str:
        """``0.123 s (CPU 0.120 s, load 0.53)``."""
        return f"{self.wall:.{digits}f} s (CPU {self.cpu:.{digits}f} s, load {self.load:.2f})"

    def ms(self, digits: int = 1) -> str:
        """``12.3 ms (CPU 12.1 ms, load 0.53)``."""
        return f"{self.wall * 1e3:.{digits}f} ms (CPU {self.cpu * 1e3:.{digits}f} ms, load {self.load:.2f})"

    def us(self, digits: int = 1) -> str:
        """``12.3 us (CPU 12.1 us, load 0.53)``."""
        return f"{self.wall * 1e6:.{digits}f} us (CPU {self.cpu * 1e6:.{digits}f} us, load {self.load:.2f})"

    def cols(self, scale: float = 1.0, digits: int = 4) -> str:
        """Three markdown table cells: wall | CPU | load (times multiplied by ``scale``)."""
        return f"{self.wall * scale:.{digits}f} | {self.cpu * scale:.{digits}f} | {self.load:.2f}"


def paired(fns: Mapping[str, Callable[[], object]], repeats: int) -> dict[str, Timing]:
    """Each function's median wall and CPU time over ``repeats`` interleaved repetitions (every
    repetition calls every function once, in the mapping's order), with the load at the end."""
    walls: dict[str, list[float]] = {k: [] for k in fns}
    cpus: dict[str, list[float]] = {k: [] for k in fns}
    for _ in range(max(1, repeats)):
        for name, fn in fns.items():
            c0, t0 = time.process_time(), time.perf_counter()
            fn()
            walls[name].append(time.perf_counter() - t0)
            cpus[name].append(time.process_time() - c0)
    load = load_now()
    return {k: Timing(statistics.median(walls[k]), statistics.median(cpus[k]), load) for k in fns}


def once(fn: Callable[[], object]) -> tuple[Timing, object]:
    """One call's wall and CPU time and the load after it, with the call's result (for work
    too long to repeat: an enumeration, a simulation)."""
    c0, t0 = time.process_time(), time.perf_counter()
    out = fn()
    return Timing(time.perf_counter() - t0, time.process_time() - c0, load_now()), out


def median_time(fn: Callable[[], object], repeats: int) -> Timing:
    """One function's :class:`Timing` (use :func:`paired` to measure it beside its floor)."""
    return paired({"fn": fn}, repeats)["fn"]
