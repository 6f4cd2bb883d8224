"""Evaluate every catalog entry on a fixed grid and write the outputs (repr) as JSON.

A restructure must not change a certified output: run this before and after and compare
(``python tools/catalog_snapshot.py > before.json``; ``diff before.json after.json``). The grid
is a product of per-parameter values below (by parameter name), plus the array paths and the
variants of the public functions; exceptions are recorded by type and message.
"""

from __future__ import annotations

import itertools
import json
import sys

import numpy as np

from maxinfo_bounds import theorems  # noqa: F401
from maxinfo_bounds.catalog import entries
from maxinfo_bounds.theorems.maxinfo_dp import approx_dp_max_information
from maxinfo_bounds.theorems.mutual_info import approx_max_information_to_mi, mi_to_approx_max_information
from maxinfo_bounds.theorems.pvalues import mi_pvalue_correction

VALUES: dict[str, list[object]] = {
    "eps": [1e-6, 0.01, 0.3, 0.5, 2.0],
    "delta": [0.0, 1e-12, 1e-6, 0.2],
    "n": [1, 17, 1000, 10**6],
    "beta": [0.0, 1e-9, 0.01, 0.5, 1.0],
    "alpha": [0.0, 0.01, 0.05, 1.0],
    "k": [0, 1, 2.5, 40.0, 12],
    "m": [0.0, 0.7, 5.0, 1000],
    "range_size": [1, 20, 2**40],
    "tau": [0.001, 0.05, 0.3],
    "sensitivity": [0.001, 1.0, 3.0],
    "scale": [0.1, 2.0],
    "coefficient": [0.5, 3.0],
    "support_size": [1, 2, 1024],
    "delta_prime": [1e-9, 0.1],
    "delta_total": [1e-6, 0.1, 1.0],
    "c": [1, 5],
    "threshold_scale": [0.5, 2.5],
    "query_scale": [1.0, 3.0],
    "budget": [0, 1, 10],
    "sigma": [0.001, 0.1],
    "i": [1, 7],
    "beta_i": [0.0, 0.001],
    "mu": [1e-3, 0.1, 1.0, 3.0],
    "rho": [1e-6, 0.01, 0.5],
    "eta": [0.01, 1.0],
    "eps_step": [0.01, 0.5],
    "d": [1e-3, 0.5],
}


def rec(f, *a, **kw):
    try:
        r = f(*a, **kw)
        if isinstance(r, np.ndarray):
            return [repr(float(x)) for x in r.ravel()]
        if isinstance(r, tuple):
            return [repr(x) for x in r]
        return repr(r)
    except Exception as exc:  # noqa: BLE001
        return f"{type(exc).__name__}: {exc}"


def main() -> None:
    out: dict[str, object] = {}
    for e in entries():
        if any(p.kind not in (int, float) for p in e.params):
            continue
        grids = [VALUES[p.name] for p in e.params]
        for combo in itertools.product(*grids):
            out[f"{e.id}{combo}"] = rec(e.evaluator, *combo)
    rng = np.random.default_rng(7)
    e = rng.uniform(0.01, 0.5, 50)
    d = e * 10.0 ** rng.uniform(-12, -3, 50)
    n = np.round(10 ** rng.uniform(0, 5, 50))
    for v in ("sound", "paper"):
        out[f"3.1-array-{v}"] = rec(approx_dp_max_information, e, d, n, variant=v, strict=False)
        for b in (1e-3, 0.05):
            out[f"3.1-beta-{v}-{b}"] = [
                rec(approx_dp_max_information, float(e[i]), float(d[i]), int(n[i]), beta=b, variant=v)
                for i in range(0, 50, 7)
            ]
    for v in ("exact", "paper"):
        out[f"1.5a-{v}"] = [
            rec(mi_to_approx_max_information, m, k, variant=v) for m in (0.0, 0.5, 3.0) for k in (0.5, 2.0, 30.0)
        ]
    for v in ("sound", "paper"):
        out[f"1.5b-{v}"] = [
            rec(approx_max_information_to_mi, k, b, s, variant=v, strict=False)
            for k in (0.5, 3.0)
            for b in (0.0, 0.001, 0.02)
            for s in (2, 1000)
        ]
    for v in ("optimal", "paper"):
        out[f"C.2-{v}"] = [rec(mi_pvalue_correction, a, m, variant=v) for a in (0.01, 0.05) for m in (0.0, 0.3, 4.0)]
    json.dump(out, sys.stdout, indent=0, sort_keys=True)


if __name__ == "__main__":
    main()
