"""Run independent simulation units locally or on a Dask cluster, resumably.

A *unit* is one call of a module-level function with keyword arguments (a repetition of the
holdout experiment, a chunk of post-selection repetitions). :func:`run_units` runs the units
that a log file does not already hold, appends one JSON line per unit as it finishes (its key,
the campaign's configuration hash, seed, seconds, versions and result), and returns every
unit's result, finished earlier or now. The configuration hash includes the code's identity
(:func:`~proofs_checks.report.code_identity`: the version and a hash of the sources), so a
line written by another build is never reused; ``fresh=True`` ignores every earlier line (the
old log is kept beside the new one as ``LOG.previous``). Each line carries the campaign's
parameters and the unit's own, so a line is interpretable alone. An interrupted run therefore loses only the units in
flight: rerun the same command and it resumes.

**A log that cannot lie.** Each line carries a checksum of its own content (``check``: SHA-256
of the record's canonical JSON without it). On resume a line is reused only when it decodes as
UTF-8, parses as a complete JSON record with its unit, configuration and result, and its
checksum matches; any other line (edited after it was written, cut by a hard kill, with a stray
byte) is named, file and line, in the progress output and in ``stats["corrupt"]``, and its
unit runs again. A log whose last line was torn gets a line break before the first record
appended, so that record is never glued onto the torn one (and lost on the next resume).

Backends: ``workers=1`` runs in this process (no pickling; the tests' default);
``workers > 1`` a :class:`concurrent.futures.ProcessPoolExecutor` (spawned processes, one BLAS
thread each); ``scheduler="tcp://host:port"`` a running ``dask.distributed`` scheduler (units
are submitted with ``pure=False`` and collected with ``distributed.as_completed``).
"""

from __future__ import annotations

import hashlib
import json
import multiprocessing as mp
import os
import signal
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from maxinfo_bounds.numeric import local_workers

from ..progress import Progress
from ..report import code_identity, versions

__all__ = ["Unit", "Interrupted", "config_hash", "local_workers", "run_units"]


@dataclass(frozen=True)
class Unit:
    """One independent piece of work: ``func(**kwargs)`` must return a JSON-able dict."""

    key: str
    func: Callable[..., dict[str, Any]]
    kwargs: dict[str, Any] = field(default_factory=dict)
    seed: dict[str, Any] = field(default_factory=dict)  # recorded with the result
    params: dict[str, Any] = field(default_factory=dict)  # the unit's own parameters, too


class Interrupted(RuntimeError):
    """The run was interrupted; finished units are saved in the log."""

    def __init__(self, done: int, total: int, log: Path) -> None:
        super().__init__(f"interrupted: {done} of {total} units are saved in {log}; rerun the same command to resume")
        self.done, self.total, self.log = done, total, log


def config_hash(config: dict[str, Any]) -> str:
    """A short stable hash of a JSON-able configuration (what a log line must match)."""
    return hashlib.sha256(json.dumps(config, sort_keys=True, default=str).encode()).hexdigest()[:16]


def record_check(rec: dict[str, Any]) -> str:
    """The checksum a log record carries: SHA-256 of its canonical JSON without ``check``."""
    body = {k: v for k, v in rec.items() if k != "check"}
    return hashlib.sha256(json.dumps(body, sort_keys=True, default=str).encode()).hexdigest()[:16]


def _load(log: Path, chash: str) -> tuple[dict[str, dict[str, Any]], int, list[str]]:
    """The log's verified records for this configuration hash, the count of lines from another
    configuration or build (stale), and each line that cannot be trusted ("FILE:LINE: why")."""
    done: dict[str, dict[str, Any]] = {}
    stale = 0
    corrupt: list[str] = []
    if not log.exists():
        return done, stale, corrupt
    for i, raw in enumerate(log.read_bytes().split(b"\n"), 1):
        if not raw.strip():
            continue
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            corrupt.append(f"{log}:{i}: not UTF-8 (byte {exc.start} of the line)")
            continue
        try:
            rec = json.loads(line)
        except json.JSONDecodeError:
            corrupt.append(f"{log}:{i}: not a complete JSON record (a line cut by a hard kill?)")
            continue
        missing = [k for k in ("unit", "config", "result", "check") if not isinstance(rec, dict) or k not in rec]
        if missing:
            corrupt.append(f"{log}:{i}: not a record of this runner (missing {', '.join(missing)})")
            continue
        if rec["config"] != chash:
            stale += 1
            continue
        if rec["check"] != record_check(rec):
            corrupt.append(f"{log}:{i}: checksum mismatch (the record was changed after it was written)")
            continue
        done[rec["unit"]] = rec
    return done, stale, corrupt


def _end_with_newline(log: Path) -> None:
    """A torn last line (a hard kill mid-write) gets its line break, so the next record appended
    starts a line of its own."""
    if log.exists() and log.stat().st_size:
        with log.open("rb") as fh:
            fh.seek(-1, os.SEEK_END)
            last = fh.read(1)
        if last != b"\n":
            with log.open("ab") as fh:
                fh.write(b"\n")


def _call(func: Callable[..., dict[str, Any]], kwargs: dict[str, Any]) -> tuple[dict[str, Any], float]:
    t0 = time.perf_counter()
    res = func(**kwargs)
    return res, time.perf_counter() - t0


def _sigterm(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt


def _init_worker() -> None:  # pragma: no cover - runs in the worker processes
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[var] = "1"


def run_units(
    units: Sequence[Unit],
    log: Path,
    config: dict[str, Any],
    *,
    workers: int = 1,
    scheduler: str | None = None,
    label: str = "simulate",
    progress: bool = True,
    stats: dict[str, int] | None = None,
    fresh: bool = False,
) -> dict[str, dict[str, Any]]:
    """Run the units not yet in ``log`` (for this ``config`` and this code); return every
    unit's log record.

    ``stats``, if given, receives ``computed`` (units run now), ``resumed`` (found in the
    log), ``stale`` (lines of the log from another configuration or build, not reused) and
    ``corrupt`` (lines that failed verification, each named, file and line: their units run
    again).
    ``fresh``: reuse nothing (the old log is renamed ``LOG.previous``)."""
    chash = config_hash({**config, "code": code_identity()})
    log.parent.mkdir(parents=True, exist_ok=True)
    if fresh and log.exists():
        log.replace(log.with_name(log.name + ".previous"))
    done, stale, corrupt = _load(log, chash)
    _end_with_newline(log)
    keys = [u.key for u in units]
    if len(set(keys)) != len(keys):
        raise ValueError(f"{label}: unit keys must be unique")
    pending = [u for u in units if u.key not in done]
    total = len(units)
    vers = versions()
    n_new = 0
    bar = Progress(total, label, initial=total - len(pending), enabled=progress)

    def record(u: Unit, res: dict[str, Any], secs: float, fh: Any) -> None:
        nonlocal n_new
        rec = {
            "unit": u.key,
            "config": chash,
            "code": code_identity(),
            "parameters": {**config, **u.params},
            "seed": u.seed,
            "seconds": round(secs, 4),
            "versions": vers,
            "result": res,
        }
        rec["check"] = record_check(rec)
        fh.write(json.dumps(rec) + "\n")
        fh.flush()
        done[u.key] = rec
        n_new += 1
        bar.done(u.key, secs)

    if pending:
        bar.resuming(log, stale, corrupt)
    # SIGTERM (``kill PID``) ends the run like Ctrl-C: pending work is cancelled, the log keeps
    # every finished unit, and the worker processes exit instead of lingering as orphans
    old_term = None
    if threading.current_thread() is threading.main_thread():
        old_term = signal.signal(signal.SIGTERM, _sigterm)
    with log.open("a") as fh, bar:
        try:
            if not pending:
                pass
            elif scheduler is not None:
                _run_dask(pending, scheduler, lambda u, r, s: record(u, r, s, fh))
            elif workers <= 1:
                for u in pending:
                    res, secs = _call(u.func, u.kwargs)
                    record(u, res, secs, fh)
            else:
                _run_pool(pending, workers, lambda u, r, s: record(u, r, s, fh))
        except KeyboardInterrupt:
            raise Interrupted(len(done), total, log) from None
        finally:
            if old_term is not None:
                signal.signal(signal.SIGTERM, old_term)
    if stats is not None:
        stats.update(computed=n_new, resumed=total - len(pending), stale=stale, corrupt=len(corrupt))
    return {k: done[k] for k in keys}


def _run_pool(units: Iterable[Unit], workers: int, on_done: Callable[[Unit, dict[str, Any], float], None]) -> None:
    ctx = mp.get_context("spawn")
    ex = ProcessPoolExecutor(max_workers=workers, mp_context=ctx, initializer=_init_worker)
    futs: dict[Future[tuple[dict[str, Any], float]], Unit] = {}
    try:
        for u in units:
            futs[ex.submit(_call, u.func, u.kwargs)] = u
        left = set(futs)
        while left:
            finished, left = wait(left, return_when=FIRST_COMPLETED)
            for f in finished:
                res, secs = f.result()
                on_done(futs[f], res, secs)
    except BaseException:
        ex.shutdown(wait=False, cancel_futures=True)
        raise
    ex.shutdown(wait=True)


def _run_dask(units: Sequence[Unit], address: str, on_done: Callable[[Unit, dict[str, Any], float], None]) -> None:
    try:
        from distributed import Client, as_completed
    except ImportError as exc:  # pragma: no cover - the optional [scale] extra
        raise ValueError("--scheduler needs the 'distributed' package: pip install 'maxinfo_bounds[scale]'") from exc
    try:
        client = Client(address, timeout="20s")  # type: ignore[no-untyped-call]
    except (OSError, TimeoutError) as exc:
        raise ValueError(
            f"scheduler={address!r} is invalid: cannot connect to a Dask scheduler there ({type(exc).__name__})"
        ) from None
    with client:
        futs = {client.submit(_call, u.func, u.kwargs, pure=False, key=f"{u.key}-{id(u)}"): u for u in units}
        try:
            for f in as_completed(list(futs)):  # type: ignore[no-untyped-call]
                res, secs = f.result()
                on_done(futs[f], res, secs)
        except BaseException:
            client.cancel(list(futs))  # type: ignore[no-untyped-call]
            raise
