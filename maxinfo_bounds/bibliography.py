"""BibTeX for every source the calculator cites (docs/bibliography.md in machine form).

The catalog names each result's paper (``Theorem.paper``, e.g. ``"RRST"``, ``"Dwork-Roth"``);
:data:`PAPER_KEYS` maps those names to BibTeX keys and :data:`ENTRIES` holds the entries, so a
report can cite exactly the sources its derivation used (:func:`keys_for`, :func:`bibtex`).
Only fields checked against the publications are given (authors, title, venue, year; an arXiv
identifier where the paper has one).

>>> keys_for(["RRST-1.4a", "DR-3.16", "RRST-1.3"])
['DFHPRR2015', 'DworkRoth2014', 'RRST2016']
>>> bibtex(["Hoeffding1963"]).splitlines()[0]
'@article{Hoeffding1963,'
"""

from __future__ import annotations

from collections.abc import Iterable

from . import __version__

__all__ = ["ENTRIES", "PAPER_KEYS", "keys_for", "bibtex", "POWER_KEYS"]

ENTRIES: dict[str, str] = {
    "RRST2016": """@inproceedings{RRST2016,
  author = {Rogers, Ryan and Roth, Aaron and Smith, Adam and Thakkar, Om},
  title = {Max-Information, Differential Privacy, and Post-Selection Hypothesis Testing},
  booktitle = {IEEE 57th Annual Symposium on Foundations of Computer Science (FOCS)},
  year = {2016},
  eprint = {1604.03924},
  archivePrefix = {arXiv}
}""",
    "DFHPRR2015": """@inproceedings{DFHPRR2015,
  author = {Dwork, Cynthia and Feldman, Vitaly and Hardt, Moritz and Pitassi, Toniann
            and Reingold, Omer and Roth, Aaron},
  title = {Generalization in Adaptive Data Analysis and Holdout Reuse},
  booktitle = {Advances in Neural Information Processing Systems 28 (NeurIPS)},
  year = {2015},
  eprint = {1506.02629},
  archivePrefix = {arXiv}
}""",
    "DworkRoth2014": """@article{DworkRoth2014,
  author = {Dwork, Cynthia and Roth, Aaron},
  title = {The Algorithmic Foundations of Differential Privacy},
  journal = {Foundations and Trends in Theoretical Computer Science},
  volume = {9},
  number = {3--4},
  year = {2014}
}""",
    "KOV2015": """@inproceedings{KOV2015,
  author = {Kairouz, Peter and Oh, Sewoong and Viswanath, Pramod},
  title = {The Composition Theorem for Differential Privacy},
  booktitle = {Proceedings of the 32nd International Conference on Machine Learning (ICML)},
  year = {2015}
}""",
    "BalleWang2018": """@inproceedings{BalleWang2018,
  author = {Balle, Borja and Wang, Yu-Xiang},
  title = {Improving the {Gaussian} Mechanism for Differential Privacy: Analytical Calibration and Optimal Denoising},
  booktitle = {Proceedings of the 35th International Conference on Machine Learning (ICML)},
  year = {2018}
}""",
    "DRS2022": """@article{DRS2022,
  author = {Dong, Jinshuo and Roth, Aaron and Su, Weijie J.},
  title = {{Gaussian} Differential Privacy},
  journal = {Journal of the Royal Statistical Society Series B},
  volume = {84},
  number = {1},
  year = {2022},
  eprint = {1905.02383},
  archivePrefix = {arXiv}
}""",
    "BunSteinke2016": """@inproceedings{BunSteinke2016,
  author = {Bun, Mark and Steinke, Thomas},
  title = {Concentrated Differential Privacy: Simplifications, Extensions, and Lower Bounds},
  booktitle = {Theory of Cryptography Conference (TCC)},
  year = {2016}
}""",
    "CKS2020": """@inproceedings{CKS2020,
  author = {Canonne, Cl{\\'e}ment and Kamath, Gautam and Steinke, Thomas},
  title = {The Discrete {Gaussian} for Differential Privacy},
  booktitle = {Advances in Neural Information Processing Systems 33 (NeurIPS)},
  year = {2020}
}""",
    "CesarRogers2021": """@inproceedings{CesarRogers2021,
  author = {Cesar, Mark and Rogers, Ryan},
  title = {Bounding, Concentrating, and Truncating: Unifying Privacy Loss Composition for Data Analytics},
  booktitle = {Algorithmic Learning Theory (ALT)},
  year = {2021}
}""",
    "Steinke2024": """@misc{Steinke2024,
  author = {Steinke, Thomas},
  title = {Tight {RDP} \\& {zCDP} Bounds from Pure {DP}},
  howpublished = {differentialprivacy.org},
  year = {2024}
}""",
    "JLNRSS2020": """@inproceedings{JLNRSS2020,
  author = {Jung, Christopher and Ligett, Katrina and Neel, Seth and Roth, Aaron
            and Sharifi-Malvajerdi, Saeed and Shenfeld, Moshe},
  title = {A New Analysis of Differential Privacy's Generalization Guarantees},
  booktitle = {11th Innovations in Theoretical Computer Science Conference (ITCS)},
  year = {2020},
  eprint = {1909.03577},
  archivePrefix = {arXiv}
}""",
    "MarchantRubinstein2025": """@inproceedings{MarchantRubinstein2025,
  author = {Marchant, Neil G. and Rubinstein, Benjamin I. P.},
  title = {Adaptive Data Analysis for Growing Data},
  booktitle = {Advances in Neural Information Processing Systems (NeurIPS)},
  year = {2025},
  eprint = {2405.13375},
  archivePrefix = {arXiv}
}""",
    "Hoeffding1963": """@article{Hoeffding1963,
  author = {Hoeffding, Wassily},
  title = {Probability Inequalities for Sums of Bounded Random Variables},
  journal = {Journal of the American Statistical Association},
  volume = {58},
  number = {301},
  year = {1963}
}""",
    "Notes": """@misc{Notes,
  title = {Expository Notes on Differential Privacy for Adaptive Queries and {Thresholdout}},
  note = {The Thresholdout privacy lemma; see docs/bibliography.md of maxinfo\\_bounds}
}""",
    "Cohen1988": """@book{Cohen1988,
  author = {Cohen, Jacob},
  title = {Statistical Power Analysis for the Behavioral Sciences},
  edition = {2},
  publisher = {Lawrence Erlbaum Associates},
  year = {1988}
}""",
    "Faul2007": """@article{Faul2007,
  author = {Faul, Franz and Erdfelder, Edgar and Lang, Albert-Georg and Buchner, Axel},
  title = {{G*Power} 3: A Flexible Statistical Power Analysis Program for the Social,
           Behavioral, and Biomedical Sciences},
  journal = {Behavior Research Methods},
  volume = {39},
  number = {2},
  year = {2007}
}""",
    "Kish1965": """@book{Kish1965,
  author = {Kish, Leslie},
  title = {Survey Sampling},
  publisher = {Wiley},
  year = {1965}
}""",
    "maxinfo_bounds": f"""@software{{maxinfo_bounds,
  title = {{maxinfo\\_bounds: a formal bound calculator and verification suite for adaptive data analysis}},
  version = {{{__version__}}}
}}""",
}

#: the catalog's paper names (``Theorem.paper``) -> BibTeX keys
PAPER_KEYS: dict[str, tuple[str, ...]] = {
    "RRST": ("RRST2016",),
    "DFHPRR": ("DFHPRR2015",),
    "Dwork-Roth": ("DworkRoth2014",),
    "KOV15": ("KOV2015",),
    "Balle-Wang": ("BalleWang2018",),
    "Dong-Roth-Su": ("DRS2022",),
    "Kairouz-Oh-Viswanath; Dong-Roth-Su": ("KOV2015", "DRS2022"),
    "Bun-Steinke": ("BunSteinke2016",),
    "Canonne-Kamath-Steinke": ("CKS2020",),
    "Cesar-Rogers": ("CesarRogers2021", "Steinke2024"),
    "Steinke": ("Steinke2024",),
    "JLNRSS": ("JLNRSS2020", "MarchantRubinstein2025"),
    "Hoeffding": ("Hoeffding1963",),
    "Notes": ("Notes",),
    "Gaussian maximum": (),  # an exact elementary computation: nothing to cite
    "Binomial tail": (),  # an exact computation, its supremum over p proved in the module: nothing to cite
}

#: what every power analysis cites (effect sizes; the analysis types)
POWER_KEYS = ("Cohen1988", "Faul2007")


def keys_for(theorem_ids: Iterable[str]) -> list[str]:
    """The BibTeX keys of the papers behind catalog results (ids such as ``"RRST-1.4a"``),
    sorted, each once."""
    from .catalog import get

    out: set[str] = set()
    for tid in theorem_ids:
        th = get(tid)
        out.update(PAPER_KEYS[th.paper])
        # a result the catalog files under one paper and whose number names another too
        # ("RRST Thm 1.4 (second part); DFHPRR Thm 8") cites both
        out.update(k for name, ks in PAPER_KEYS.items() if ";" not in name for k in ks if f"{name} " in th.number)
    return sorted(out)


def bibtex(keys: Iterable[str]) -> str:
    """The BibTeX entries of ``keys`` (each once, in the order given), blank-line separated."""
    seen: list[str] = []
    for k in keys:
        if k not in seen:
            seen.append(k)
    return "\n\n".join(ENTRIES[k] for k in seen) + "\n"
