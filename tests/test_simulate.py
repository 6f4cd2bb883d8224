"""The simulation campaign (proofs_checks.simulate): statistics, machinery, backends, resume.

The campaign's own checks use one-sided 0.999 confidence bounds (two-sided 0.999 where an
interval must contain a known value), in the reduced version too; the seeds are fixed, so the
outcome is deterministic, and each assertion would fail by chance with probability <= 1e-3.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
from scipy import stats

from proofs_checks.__main__ import main as pc_main
from proofs_checks.codes import TooLarge
from proofs_checks.simulate import campaign as sim
from proofs_checks.simulate import holdout_reuse as hr
from proofs_checks.simulate import selection as sel
from proofs_checks.simulate.runner import Interrupted, Unit, run_units

TINY = sim.SimulateConfig(
    reps=3,
    holdout=hr.HoldoutConfig(n=2000, d=400, ks=(0, 10, 50), block=100),
    selection=sel.SelectionConfig(reps=4000, chunk=2000, eps=(0.01,), gaussian=((0.001, 1e-20),)),
)


@pytest.fixture(scope="module")
def quick(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict, Path]:
    out = tmp_path_factory.mktemp("simulate")
    return sim.run(sim.quick_config(), out, workers=2, progress=False), out


# ---------------------------------------------------------------------------- the campaign


@pytest.mark.heavy  # the quick campaign: about 9 s
def test_quick_campaign_checks_hold(quick):
    summary, out = quick
    assert summary["ok"], summary["failures"]
    verdicts = {r["verdict"] for r in summary["records"]}
    assert verdicts <= {"holds", "observed"}
    claimed = [r for r in summary["records"] if r["verdict"] == "holds"]
    assert len(claimed) >= 50
    for r in summary["records"]:
        assert {"id", "check", "mechanism", "inputs", "value", "bound", "verdict", "seconds"} <= set(r)
    for f in (
        "report.md",
        "report.json",
        "holdout-nosignal.png",
        "holdout-signal.png",
        "selection.png",
        "units-holdout.jsonl",
        "units-selection.jsonl",
    ):
        assert (out / f).stat().st_size > 0
    assert summary["invocations"][0]["units_computed"] == {"holdout": 20, "selection": 20}
    line = json.loads((out / "units-holdout.jsonl").read_text().splitlines()[0])
    assert line["seed"]["entropy"] == sim.DEFAULT_SEED and len(line["seed"]["spawn_key"]) == 3
    assert {"numpy", "scipy", "maxinfo_bounds", "python"} <= set(line["versions"])
    assert line["parameters"]["holdout"]["n"] == 10_000 and line["parameters"]["setting"] == "nosignal"


@pytest.mark.heavy  # the quick campaign: about 9 s
def test_quick_standard_holdout_overfits_and_thresholdout_does_not(quick):
    summary, _ = quick
    t = summary["holdout"]["nosignal"]
    T = sim.quick_config().holdout.threshold
    std = t["standard"]
    # the paper's phenomenon at reduced scale: the reused holdout reports > 5 points too much
    assert std["holdout_reported"]["mean"][-1] - std["fresh"]["mean"][-1] > 0.05
    # negative control: the check Thresholdout passes ("the holdout's exact accuracy stays
    # within T of the truth") fails for the standard holdout
    assert std["holdout_exact"]["mean"][-1] - std["fresh"]["mean"][-1] > T
    for v in ("thresholdout-gaussian", "thresholdout-laplace"):
        assert abs(t[v]["holdout_reported"]["mean"][-1] - 0.5) < T
        assert abs(t[v]["fresh"]["mean"][-1] - 0.5) < 0.01  # no classifier beats chance
    lap = t["thresholdout-laplace"]
    assert 0 < lap["over_threshold_mean"] < 2000  # the budget never bound


@pytest.mark.heavy  # the quick campaign: about 9 s
def test_quick_selection_rates(quick):
    summary, _ = quick
    rows = {r["procedure"]: r for r in summary["selection"]}
    cfg = sim.quick_config().selection
    # exact naive rate, computed here with scipy alone: 1 - (1 - P(S >= c))^d
    c = int(stats.binom.isf(cfg.alpha, cfg.n, 0.5))
    while stats.binom.sf(c - 1, cfg.n, 0.5) > cfg.alpha:
        c += 1
    size = stats.binom.sf(c - 1, cfg.n, 0.5)
    exact = 1 - (1 - size) ** cfg.d
    assert 0.63 < exact < 0.64
    naive = rows["naive-argmax"]
    assert naive["exact_naive"] == pytest.approx(exact, rel=1e-9)
    assert naive["naive"]["lower"] <= exact <= naive["naive"]["upper"]
    # gamma for a 20-way choice via DFHPRR Thm 6 at beta = alpha/2: alpha^2 / (4 d), by hand
    assert naive["gamma"] == pytest.approx(0.05**2 / 80, rel=1e-12, abs=0)
    assert naive["gamma"] <= 0.05**2 / 80
    for name, r in rows.items():
        assert r["corrected"]["upper"] <= cfg.alpha, name
        assert 0 <= r["conservativeness"] < 1
    # eps = 0.03 report noisy max: the naive test is measurably invalid, the corrected one is not
    r = rows["report-noisy-max eps=0.03"]
    assert r["naive"]["lower"] > cfg.alpha and r["corrected"]["upper"] <= cfg.alpha


@pytest.mark.heavy  # the quick campaign: about 9 s
def test_cli_resumes_the_finished_quick_run(quick, tmp_path, capsys):
    """The CLI on the same --out finds every unit finished and recomputes nothing."""
    _, out = quick
    log = (out / "units-holdout.jsonl").read_text()
    js = tmp_path / "records.json"
    target = tmp_path / "o"  # the CLI writes into OUT/simulate: copy the logs there
    (target / "simulate").mkdir(parents=True)
    for f in ("units-holdout.jsonl", "units-selection.jsonl"):
        (target / "simulate" / f).write_text((out / f).read_text())
    capsys.readouterr()
    assert pc_main(["run", "simulate", "--quick", "--out", str(target), "--json", str(js)]) == 0
    assert "units already" not in capsys.readouterr().err  # nothing pending: no resume notice
    assert (target / "simulate" / "units-holdout.jsonl").read_text() == log  # nothing appended
    recs = json.loads(js.read_text())
    assert recs and all(r["verdict"] in ("holds", "observed") for r in recs)
    inv = json.loads((target / "simulate" / "report.json").read_text())["invocations"]
    assert len(inv) == 1 and inv[0]["units_computed"] == {"holdout": 0, "selection": 0}
    assert inv[0]["units_resumed"] == {"holdout": 20, "selection": 20}
    assert "units computed: 0 holdout, 0 selection" in (target / "simulate" / "report.md").read_text()


# ---------------------------------------------------------------------------- machinery


def test_thresholdout_gaussian_by_hand():
    rng = np.random.default_rng(3)
    tr = np.array([0.60, 0.52, 0.70])
    ho = np.array([0.50, 0.50, 0.69])
    got = hr.thresholdout_gaussian(tr, ho, 0.04, 1e-12, rng)
    # |diff| = 0.10 > T: holdout (+ negligible noise); 0.02 and 0.01 < T: training value
    assert got[0] == pytest.approx(0.50, abs=1e-9) and got[1] == 0.52 and got[2] == 0.70


def _reference_standard(cfg: hr.HoldoutConfig, setting: str, seed: int, fresh_features: list[int]) -> dict[str, list]:
    """The standard-holdout variant written out the paper's way, on full matrices, with the
    same random draws (labels, then feature blocks of train and holdout; the fresh set's labels
    then the rows of ``fresh_features`` from its own stream)."""
    s_data, _, _, s_fresh = np.random.SeedSequence(seed).spawn(4)
    rng = np.random.default_rng(s_data)
    n, d = cfg.n, cfg.d
    ys = [(rng.integers(0, 2, n, dtype=np.int8) * 2 - 1).astype(np.float32) for _ in range(2)]
    X = [np.empty((d, n), np.float32) for _ in range(3)]
    for j0 in range(0, d, cfg.block):
        j1 = min(j0 + cfg.block, d)
        for s in range(2):
            rng.standard_normal(out=X[s][j0:j1], dtype=np.float32)
    rf = np.random.default_rng(s_fresh)
    ys.append((rf.integers(0, 2, n, dtype=np.int8) * 2 - 1).astype(np.float32))
    X[2][:] = np.nan  # a fresh row the classifier never uses
    X[2][fresh_features] = rf.standard_normal((len(fresh_features), n), dtype=np.float32)
    if setting == "signal":
        for s in range(3):
            X[s][: cfg.n_signal] += np.float32(cfg.signal) * ys[s]
    ct = (X[0] @ ys[0]).astype(np.float64) / n
    ch = (X[1] @ ys[1]).astype(np.float64) / n
    cut = 1 / math.sqrt(n)
    keep = ((ct > cut) & (ch > cut)) | ((ct < -cut) & (ch < -cut))
    score = np.where(keep, np.abs(ct), 0.0)
    order = np.argsort(-score, kind="stable")
    out: dict[str, list] = {"train": [], "holdout": [], "fresh": [], "kept": int(keep.sum())}
    for k in cfg.ks:
        top = order[: min(k, int(keep.sum()))]
        w = np.sign(ct[top])
        for s, name in enumerate(("train", "holdout", "fresh")):
            if k == 0:
                out[name].append(0.5)
            else:
                pred = np.sign(w @ X[s][top].astype(np.float64))
                out[name].append(float(np.mean(pred == ys[s])))
    return out


@pytest.mark.parametrize("setting", ["nosignal", "signal"])
def test_repetition_matches_full_matrix_reference(setting):
    cfg = hr.HoldoutConfig(n=1500, d=700, ks=(0, 5, 40, 120), block=64, n_signal=20, signal=6 / math.sqrt(1500))
    got = hr.run_repetition(cfg, setting, 11, details=True)
    ref = _reference_standard(cfg, setting, 11, got["fresh_features"])
    std = got["variants"]["standard"]
    assert std["kept_variables"] == ref["kept"]
    np.testing.assert_allclose(std["train"], ref["train"], atol=1e-12)
    np.testing.assert_allclose(std["holdout_exact"], ref["holdout"], atol=1e-12)
    np.testing.assert_allclose(std["fresh"], ref["fresh"], atol=1e-12)
    again = hr.run_repetition(cfg, setting, 11, details=True)
    assert again == got  # reproducible
    assert hr.run_repetition(cfg, setting, 12) != got


def test_clopper_pearson_against_scipy_binomtest():
    for k, n in ((0, 50), (7, 50), (50, 50), (1234, 40000)):
        lo, up = sel.clopper_pearson(k, n, 0.99)
        ci = stats.binomtest(k, n).proportion_ci(confidence_level=0.98, method="exact")
        assert lo == pytest.approx(ci.low, abs=1e-12) and up == pytest.approx(ci.high, abs=1e-12)


def test_exponential_kind_samples_the_softmax():
    """Coefficient 0 makes the exponential mechanism a uniform choice (Gumbel trick), so its
    false-discovery probability is exactly the size of one binomial test."""
    n, d, reps = 1000, 5, 200_000
    res = sel.run_chunk("expmech", {"coefficient": 0.0}, n, d, [0.05], reps, 1, [0])
    c = int(stats.binom.isf(0.05, n, 0.5))
    while stats.binom.sf(c - 1, n, 0.5) > 0.05:
        c += 1
    size = stats.binom.sf(c - 1, n, 0.5)
    lo, up = sel.clopper_pearson(res["rejections"][0], reps, 0.9995)
    assert lo <= size <= up


# ---------------------------------------------------------------------------- execution


def _unit(i: int, boom_at: int, calls: str) -> dict:
    with open(calls, "a") as fh:
        fh.write(f"{i}\n")
    if i == boom_at:
        raise KeyboardInterrupt
    return {"i": i, "sq": i * i}


def test_interrupted_run_resumes_without_losing_finished_units(tmp_path):
    log, calls = tmp_path / "u.jsonl", tmp_path / "calls.txt"
    units = [Unit(f"u{i}", _unit, {"i": i, "boom_at": 3, "calls": str(calls)}, {"seed": i}) for i in range(6)]
    with pytest.raises(Interrupted, match="3 of 6 units are saved"):
        run_units(units, log, {"c": 1}, progress=False)
    assert len(log.read_text().splitlines()) == 3
    with log.open("a") as fh:
        fh.write('{"unit": "u5", "config": "trunc')  # a line cut by a hard kill
    units2 = [Unit(u.key, _unit, {**u.kwargs, "boom_at": -1}, u.seed) for u in units]
    res = run_units(units2, log, {"c": 1}, progress=False)
    assert [res[f"u{i}"]["result"]["sq"] for i in range(6)] == [0, 1, 4, 9, 16, 25]
    assert calls.read_text().split() == ["0", "1", "2", "3", "3", "4", "5"]
    # a different configuration reuses nothing
    run_units(units2[:2], log, {"c": 2}, progress=False)
    assert calls.read_text().split()[-2:] == ["0", "1"]


def _three_unit_log(tmp_path):
    log, calls = tmp_path / "u.jsonl", tmp_path / "calls.txt"
    units = [Unit(f"u{i}", _unit, {"i": i, "boom_at": -1, "calls": str(calls)}) for i in range(3)]
    run_units(units, log, {"c": 1}, progress=False)
    return log, calls, units


@pytest.mark.parametrize(
    "kind, damage, why",
    [
        # valid JSON, another result: the report would have claimed it (issue 46)
        ("edited", lambda b: b.replace(b'"sq": 1', b'"sq": 7'), "u.jsonl:2: checksum mismatch"),
        ("no result", lambda b: b.replace(b'"result": {"i": 1, "sq": 1}', b'"other": 0'), "u.jsonl:2: not a record"),
        ("stray byte", lambda b: b.replace(b'"u1"', b'"u\xff1"'), "u.jsonl:2: not UTF-8"),
        ("cut", lambda b: b.replace(b'"unit": "u1"', b'"unit": "u1'), "u.jsonl:2: not a complete JSON record"),
    ],
)
def test_a_damaged_record_is_named_and_never_reused(tmp_path, capsys, kind, damage, why):
    """Each kind of damage to a finished record: the line is named (file and line), its unit
    runs again, the others are reused, and the next resume finds every record sound."""
    log, calls, units = _three_unit_log(tmp_path)
    log.write_bytes(damage(log.read_bytes()))
    st: dict = {}
    res = run_units(units, log, {"c": 1}, stats=st)
    assert st == {"computed": 1, "resumed": 2, "stale": 0, "corrupt": 1}
    assert why in capsys.readouterr().err
    assert [res[f"u{i}"]["result"]["sq"] for i in range(3)] == [0, 1, 4]
    assert calls.read_text().split() == ["0", "1", "2", "1"]
    st = {}
    run_units(units, log, {"c": 1}, stats=st)  # the damaged line stays, the new record is sound
    assert st == {"computed": 0, "resumed": 3, "stale": 0, "corrupt": 1}


def test_a_torn_last_line_loses_no_record_written_after_it(tmp_path):
    """A hard kill mid-write leaves a last line without its line break; the first record of
    the resumed run used to be appended onto it (one undecodable line), so the next resume ran
    that unit again. Now it starts a line of its own."""
    log, calls, units = _three_unit_log(tmp_path)
    with log.open("a") as fh:
        fh.write('{"unit": "u3", "config": "trunc')
    more = [*units, Unit("u3", _unit, {"i": 3, "boom_at": -1, "calls": str(calls)})]
    run_units(more, log, {"c": 1}, progress=False)
    st: dict = {}
    res = run_units(more, log, {"c": 1}, progress=False, stats=st)
    assert st["computed"] == 0 and st["resumed"] == 4 and res["u3"]["result"]["sq"] == 9
    assert calls.read_text().split() == ["0", "1", "2", "3"]


def test_records_of_another_build_are_never_reused(tmp_path, monkeypatch, capsys):
    """A changed build (here: another code identity, as after any edit of the sources) runs
    every unit again instead of reporting the old results; --fresh reuses nothing even for
    the same build."""
    from proofs_checks.simulate import runner

    log, calls = tmp_path / "u.jsonl", tmp_path / "calls.txt"
    units = [Unit(f"u{i}", _unit, {"i": i, "boom_at": -1, "calls": str(calls)}) for i in range(3)]
    run_units(units, log, {"c": 1}, progress=False)
    assert {json.loads(x)["code"] for x in log.read_text().splitlines()} == {runner.code_identity()}
    run_units(units, log, {"c": 1}, progress=False)  # same build: all resumed
    assert calls.read_text().split() == ["0", "1", "2"]
    monkeypatch.setattr(runner, "code_identity", lambda: "0.1.0+another-build")
    st: dict = {}
    run_units(units, log, {"c": 1}, stats=st)
    assert calls.read_text().split() == ["0", "1", "2"] * 2
    assert st == {"computed": 3, "resumed": 0, "stale": 3, "corrupt": 0}
    assert "3 lines of" in capsys.readouterr().err
    run_units(units, log, {"c": 1}, progress=False, fresh=True)  # fresh: the same build again
    assert calls.read_text().split() == ["0", "1", "2"] * 3
    assert len(log.read_text().splitlines()) == 3  # only this run's lines
    assert len((tmp_path / "u.jsonl.previous").read_text().splitlines()) == 6


def test_code_identity_hashes_the_sources(tmp_path, monkeypatch):
    from proofs_checks import report

    ident = report.code_identity()
    version, _, digest = ident.partition("+")
    assert version == __import__("maxinfo_bounds").__version__ and len(digest) == 16
    # an edited copy of the sources gets another identity
    import shutil

    import maxinfo_bounds
    import proofs_checks

    for pkg in (maxinfo_bounds, proofs_checks):
        shutil.copytree(
            Path(pkg.__file__).parent, tmp_path / pkg.__name__, ignore=shutil.ignore_patterns("__pycache__")
        )
    monkeypatch.setattr(maxinfo_bounds, "__file__", str(tmp_path / "maxinfo_bounds" / "__init__.py"))
    monkeypatch.setattr(report, "__file__", str(tmp_path / "proofs_checks" / "report.py"))
    report.code_identity.cache_clear()
    try:
        assert report.code_identity() == ident  # same sources, same identity
        f = tmp_path / "maxinfo_bounds" / "holdout_mutant.py"
        f.write_text("x = 1\n")
        report.code_identity.cache_clear()
        assert report.code_identity() != ident
    finally:
        report.code_identity.cache_clear()


@pytest.mark.slow
def test_local_pool_and_dask_cluster_give_identical_results(tmp_path):
    from distributed import LocalCluster

    inproc = sim.run(TINY, tmp_path / "a", workers=1, progress=False)
    pool = sim.run(TINY, tmp_path / "b", workers=2, progress=False)
    with LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        host="127.0.0.1",
        processes=True,
        dashboard_address=":0",
        worker_dashboard_address=":0",
    ) as cluster:
        dask = sim.run(TINY, tmp_path / "c", scheduler=cluster.scheduler_address, progress=False)
    for other in (pool, dask):
        assert other["holdout"] == inproc["holdout"]
        assert [r["naive"] for r in other["selection"]] == [r["naive"] for r in inproc["selection"]]
    assert dask["scheduler"].startswith("tcp://127.0.0.1:")


@pytest.mark.slow
def test_bad_input_and_memory_guard(capsys):
    with pytest.raises(TooLarge, match="workers=4096 is invalid"):
        sim.check_memory(sim.SimulateConfig(), 4096)
    with pytest.raises(TooLarge, match="refused before allocation"):
        sim.check_memory(sim.SimulateConfig(), 2, limit=10**8)
    assert sim.check_memory(sim.SimulateConfig(), 2) < 2 * 2**30  # ~0.4 GB per worker
    with pytest.raises(ValueError, match="ks"):
        hr.HoldoutConfig(ks=(0, 600), d=500)
    with pytest.raises(ValueError, match="setting"):
        hr.run_repetition(hr.HoldoutConfig(n=10, d=5, ks=(0, 1), block=2, n_signal=2), "weak", 0)
    assert pc_main(["run", "simulate", "--workers", "100000", "--out", "/tmp/never"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "workers=100000 is invalid" in err[0]
    assert not Path("/tmp/never/simulate").exists()
    assert pc_main(["run", "simulate", "--scheduler", "tcp://127.0.0.1:1", "--quick", "--out", "/tmp/never2"]) == 2
    assert "cannot connect" in capsys.readouterr().err
    with pytest.raises(SystemExit) as e:
        pc_main(["run", "simulate", "--reps", "1"])
    assert e.value.code == 2


@pytest.mark.slow
def test_cli_sigterm_saves_finished_units_and_resumes(tmp_path):
    """``kill PID`` mid-run: exit status 130 with one line, finished units kept, no orphaned
    workers; the same command then resumes and completes."""
    import os
    import signal
    import subprocess
    import sys
    import time

    repo = Path(__file__).resolve().parents[1]
    cmd = [
        sys.executable,
        "-m",
        "proofs_checks",
        "run",
        "simulate",
        "--quick",
        "--selection-reps",
        "20000",
        "--workers",
        "2",
        "--out",
        str(tmp_path),
    ]
    env = {**os.environ, "PYTHONPATH": str(repo)}
    proc = subprocess.Popen(cmd, cwd=repo, env=env, stderr=subprocess.PIPE, text=True)
    log = tmp_path / "simulate" / "units-holdout.jsonl"
    t0 = time.monotonic()
    while not (log.exists() and log.read_text().count("\n") >= 1):
        assert time.monotonic() - t0 < 120 and proc.poll() is None
        time.sleep(0.2)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 130
    lines = [ln for ln in err.splitlines() if not ln.startswith("[simulate")]
    assert len(lines) == 1 and "interrupted:" in lines[0] and "rerun the same command" in lines[0]
    saved = log.read_text().count("\n")
    assert 1 <= saved < 20
    done = subprocess.run(cmd, cwd=repo, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert f"resuming: {saved} of 20 units" in done.stderr
    assert log.read_text().count("\n") == 20
