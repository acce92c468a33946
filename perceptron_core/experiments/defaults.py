"""The experiments' fixed grids, the reproductions' titles and the cache's folder.

Plain numbers and words, importable without NumPy: ``perceptron-lab COMMAND
--help`` shows them without loading the experiments, which take them from here.
"""

from __future__ import annotations

import os
from pathlib import Path

#: Checkpoint epochs of the epoch curve: about four per decade up to 1000.
EPOCH_GRID = (1, 2, 3, 5, 7, 10, 20, 30, 50, 70, 100, 200, 300, 500, 700, 1000)
#: Training-set sizes of the size curve.
SIZE_GRID = (10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000)
#: Margins of the size curve.
SIZE_TAUS = (0.0, 0.125, 0.5, 1.0, 2.0)

#: KW's artificial grid: features f, margins M and label-noise rates N.
KW_FEATURES = (50, 200, 500)
KW_MARGINS = (0.05, 0.1, 0.25, 0.5, 0.75)
KW_NOISE = (0.0, 0.05, 0.1, 0.15, 0.25)

#: What each reproduction of :mod:`perceptron_core.experiments.reproduce` computes.
REPRODUCTION_TITLES = {
    "kw-table2": "dominance of last / longest / voted over the artificial grid",
    "kw-table3": "parameter search on the UCI data sets",
    "kw-table4": "parameter search, artificial f=50, M=0.05, five noise levels",
    "kw-table5": "parameter optimisation (double CV) on the UCI data sets",
    "kw-table6": "parameter optimisation (double CV), artificial f=50, M=0.05",
    "kw-fig3": "accuracy against epochs 1..1000 for the four modes",
    "nr-table1": "NR boosting vs bagging/AdaBoost of parallel perceptrons",
}


def default_cache_dir() -> Path:
    """``$XDG_CACHE_HOME/perceptron-lab/cells`` (``~/.cache/perceptron-lab/cells`` by default)."""
    root = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(root) / "perceptron-lab" / "cells"
