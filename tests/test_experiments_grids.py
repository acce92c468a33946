"""The KW grids and the rules by which a table column picks its setting."""

from __future__ import annotations

import numpy as np
import pytest

from perceptron_core.engine.kw_trainer import NO_BOUND
from perceptron_core.experiments.grids import (
    ALPHA_GRID,
    COLUMNS,
    KW_SETTINGS,
    LAM_GRID,
    TAU_GRID,
    choose,
    column_members,
    kw_settings,
)


def test_the_union_of_the_kw_grids_has_91_distinct_settings():
    rows = {tuple(r) for r in KW_SETTINGS.key()}
    assert len(KW_SETTINGS) == len(rows) == 91
    # every tau x lam and every tau x alpha pair is there
    for tau in TAU_GRID:
        for lam in LAM_GRID:
            KW_SETTINGS.index(tau, lam, None)
        for alpha in ALPHA_GRID:
            KW_SETTINGS.index(tau, 0.0, alpha)
    # nothing combines lam with an alpha-bound
    assert not ((KW_SETTINGS.lam > 0) & (KW_SETTINGS.alpha != NO_BOUND)).any()


def test_search_columns_exclude_the_inactive_value():
    sizes = {c: len(column_members(KW_SETTINGS, c, include_inactive=False)) for c in COLUMNS[:6]}
    assert sizes == {"nothing": 1, "tau": 6, "lam": 6, "alpha": 6, "tauxlam": 36, "tauxalpha": 36}
    sizes = {c: len(column_members(KW_SETTINGS, c, include_inactive=True)) for c in COLUMNS[:6]}
    assert sizes == {"nothing": 1, "tau": 7, "lam": 7, "alpha": 7, "tauxlam": 49, "tauxalpha": 49}


# A hand-checkable grid: tau in {0, 1}, lam in {0, 0.5}, alpha in {inf, 10}.
#   index  setting               accuracy
#   0      tau=0, lam=0          0.90   <- plain perceptron: best of all
#   1      tau=0, lam=0.5        0.70
#   2      tau=1, lam=0          0.80
#   3      tau=1, lam=0.5        0.60
#   4      tau=0, alpha=10       0.85
#   5      tau=1, alpha=10       0.95   <- best overall
SMALL = kw_settings((0.0, 1.0), (0.0, 0.5), (None, 10))
ACC = np.array([0.90, 0.70, 0.80, 0.60, 0.85, 0.95])


def test_the_small_grid_is_laid_out_as_the_comment_says():
    assert [SMALL.label(i) for i in range(6)] == [
        "tau=0, lam=0, alpha=inf",
        "tau=0, lam=0.5, alpha=inf",
        "tau=1, lam=0, alpha=inf",
        "tau=1, lam=0.5, alpha=inf",
        "tau=0, lam=0, alpha=10",
        "tau=1, lam=0, alpha=10",
    ]


@pytest.mark.parametrize(
    "column, search, optimisation",
    [
        ("nothing", 0, 0),
        ("tau", 2, 0),  # search must switch tau on (0.80); optimisation keeps it off (0.90)
        ("lam", 1, 0),
        ("alpha", 4, 0),  # alpha=10 (0.85) is the only search choice; 0.90 wins otherwise
        ("tauxlam", 3, 0),  # search: both on, only (1, 0.5)
        ("tauxalpha", 5, 5),  # the best of all either way
        ("tau->lam", 3, 0),  # search: tau=1 first, then lam>0; optimisation: tau=0, lam=0
        ("tau->alpha", 5, 0),  # optimisation picks tau=0 first (0.90 > 0.80) and so misses 0.95
    ],
)
def test_choose_on_a_hand_checked_case(column, search, optimisation):
    assert choose(ACC, SMALL, column, include_inactive=False) == search
    assert choose(ACC, SMALL, column, include_inactive=True) == optimisation


def test_ties_go_to_the_weaker_setting():
    flat = np.full(len(SMALL), 0.5)
    assert choose(flat, SMALL, "tau", include_inactive=True) == 0
    assert choose(flat, SMALL, "tauxalpha", include_inactive=False) == 5


def test_a_grid_without_the_needed_values_is_refused_in_words():
    grid = kw_settings((0.0,), (0.0, 1.0), (None,))
    with pytest.raises(ValueError, match="no setting"):
        choose(np.zeros(len(grid)), grid, "tau", include_inactive=False)
    with pytest.raises(ValueError, match="inactive value"):
        kw_settings((0.5, 1.0))
