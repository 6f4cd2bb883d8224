"""Progress of a long campaign: a tqdm bar on a terminal, plain timed lines otherwise.

Every campaign reports through :class:`Progress` (via :func:`.simulate.runner.run_units`):

* on a terminal, a `tqdm <https://tqdm.github.io>`_ bar with rate and time left, redrawn every
  second even while a long unit runs;
* otherwise (a log file, CI), one line per finished unit at most every ``interval`` seconds,
  plus the last one, each with units done, elapsed time and an estimate of the time left, and a
  ``still running`` line when no unit has finished for ``interval`` seconds, so that a log never
  goes quiet for long.

A resumed run starts with ``resuming: i of N units already in LOG``.

>>> import io
>>> out = io.StringIO()
>>> with Progress(3, "demo", stream=out, interval=60.0, tty=False) as p:
...     p.done("a", 0.5)
...     p.done("b", 0.5)
...     p.done("c", 0.5)
>>> print(out.getvalue().splitlines()[-1].split(";")[0])
[demo] 3/3 units (c, 0.5 s)
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Sequence
from types import TracebackType
from typing import IO, Any

__all__ = ["Progress"]


class Progress:
    """Units of a campaign finishing one by one (``total`` in all, ``initial`` already done)."""

    def __init__(
        self,
        total: int,
        label: str,
        *,
        initial: int = 0,
        enabled: bool = True,
        stream: IO[str] | None = None,
        interval: float = 10.0,
        tty: bool | None = None,
    ) -> None:
        self.total, self.label, self.count = total, label, initial
        self.initial, self.enabled, self.interval = initial, enabled, interval
        self.stream: IO[str] = stream if stream is not None else sys.stderr
        self.tty = (self.stream.isatty() if tty is None else tty) and enabled
        self.t0 = self.last = time.monotonic()
        self.bar: Any = None
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._beat: threading.Thread | None = None

    def __enter__(self) -> Progress:
        if not self.enabled or self.count >= self.total:
            return self
        if self.tty:
            from tqdm import tqdm

            self.bar = tqdm(
                total=self.total,
                initial=self.initial,
                desc=self.label,
                unit="unit",
                file=self.stream,
                dynamic_ncols=True,
                smoothing=0.05,
            )
        self._beat = threading.Thread(target=self._heartbeat, daemon=True)
        self._beat.start()
        return self

    def resuming(self, log: object, stale: int = 0, corrupt: Sequence[str] = ()) -> None:
        if self.enabled and self.initial:
            self._write(f"[{self.label}] resuming: {self.initial} of {self.total} units already in {log}")
        if self.enabled and stale:
            self._write(
                f"[{self.label}] {stale} lines of {log} come from another build or "
                "configuration: not reused (their units run again)"
            )
        # a record that fails verification is said whether or not progress is shown
        for why in corrupt[:10]:
            self._write(f"[{self.label}] not reused, its unit runs again: {why}")
        if len(corrupt) > 10:
            self._write(f"[{self.label}] ... and {len(corrupt) - 10} more lines that failed verification")

    def _write(self, line: str) -> None:
        if self.bar is not None:
            self.bar.write(line, file=self.stream)
        else:
            print(line, file=self.stream, flush=True)

    def _eta(self) -> str:
        el = time.monotonic() - self.t0
        new = self.count - self.initial
        left = el / new * (self.total - self.count) if new else float("nan")
        return f"{el:.0f} s elapsed" + (f", ~{left:.0f} s left" if new else "")

    def done(self, key: str, seconds: float) -> None:
        """One unit finished (``seconds`` of work)."""
        with self._lock:
            self.count += 1
            if not self.enabled:
                return
            if self.bar is not None:
                self.bar.set_postfix_str(f"{key}, {seconds:.1f} s", refresh=False)
                self.bar.update(1)
                return
            now = time.monotonic()
            if now - self.last >= self.interval or self.count == self.total or self.count == self.initial + 1:
                self.last = now
                self._write(f"[{self.label}] {self.count}/{self.total} units ({key}, {seconds:.1f} s); {self._eta()}")

    def _heartbeat(self) -> None:
        tick = 1.0 if self.bar is not None else max(self.interval, 0.1)
        while not self._stop.wait(tick):
            with self._lock:
                if self.bar is not None:
                    self.bar.refresh()
                elif time.monotonic() - self.last >= self.interval:
                    self.last = time.monotonic()
                    self._write(f"[{self.label}] {self.count}/{self.total} units; still running ({self._eta()})")

    def __exit__(self, et: type[BaseException] | None, ev: BaseException | None, tb: TracebackType | None) -> None:
        self._stop.set()
        if self._beat is not None:
            self._beat.join()
        if self.bar is not None:
            self.bar.close()
