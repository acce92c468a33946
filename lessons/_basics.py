"""What lessons 1–5 (the basics) share: the seed control, the noisy 2-D set, KW's experiment.

The router lists only ``lessons/[0-9]*.py`` as pages, so this module is not
a page. Every random thing it builds is seeded by the lesson's seed control,
so a lesson's numbers change with that control and with nothing else.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from app_logic.datasource import DataRequest
from perceptron_core.experiments import MODES, RunOptions, kw_sets, kw_settings, parameter_search

#: KW's artificial data for the live experiments: f features, margin M (SPEC §4).
KW_FEATURES, KW_MARGIN, KW_SETS_PER_CELL, KW_FOLDS = 50, 0.1, 3, 10


def seed_control(prefix: str, default: int = 0) -> int:
    """The lesson's data seed (key ``<prefix>seed``): new data, same settings.

    ``default`` picks a set that shows the lesson's point at its first view.
    """
    return int(
        st.number_input(
            "Data seed",
            min_value=0,
            max_value=9_999,
            value=default,
            step=1,
            key=f"{prefix}seed",
            help="Draws a new data set (and a new visiting order); everything else stays.",
        )
    )


def noisy_line(seed: int, noise: float, n_samples: int = 120) -> DataRequest:
    """Points split by a random line, half kept clean for testing, ``noise`` of the rest flipped.

    The test half is never flipped (see :mod:`app_logic.datasource`), so test
    accuracy measures how well the true line was found.
    """
    return DataRequest(
        "separable",
        (("margin", 0.05), ("n_samples", n_samples)),
        noise_kind="exact" if noise > 0 else "none",
        noise_rate=noise,
        test_fraction=0.5,
        seed=seed,
    )


def at_end(timeline) -> int:
    """``stage(start=at_end)``: open the figure at the end of training."""
    return timeline.n_events


def line_accuracies(run, X: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Accuracy on ``(X, y)`` of every hypothesis of a linear run (row k: after k updates)."""
    W, theta = run.timeline.W[0], run.timeline.theta[0]
    return (np.where(X @ W.T - theta > 0, 1, -1) == y[:, None]).mean(axis=0)


def accuracy(labels: np.ndarray, y: np.ndarray) -> float:
    """Share of ``labels`` equal to ``y``."""
    return float(np.mean(np.asarray(labels) == np.asarray(y)))


@st.cache_data(max_entries=16, show_spinner=False)
def kw_cross_validated(
    noise_levels: tuple[float, ...], taus: tuple[float, ...], seed: int
) -> pd.DataFrame:
    """Khardon & Wachman's protocol, small: cross-validated accuracy of the four predictors.

    For each label-noise level ``N``, :data:`KW_SETS_PER_CELL` artificial data
    sets ``(f, M, N)`` = (:data:`KW_FEATURES`, :data:`KW_MARGIN`, ``N``) with
    600 examples are drawn from ``seed``; every margin ``tau`` is trained
    with KW's settings (η = 0.1, θ_init = C = mean ‖x‖², 100 epochs) in
    :data:`KW_FOLDS`-fold cross-validation. The last, longest-survivor, voted
    and averaged accuracies all come from the same runs
    (:func:`perceptron_core.experiments.parameter_search`).

    Returns
    -------
    DataFrame
        One row per ``(N, tau)``: the accuracy (%) of each predictor, the
        mean over the data sets.
    """
    grid = kw_settings(taus, (0.0,), (None,))
    rows = []
    for noise in noise_levels:
        sets = kw_sets(KW_FEATURES, KW_MARGIN, noise, KW_SETS_PER_CELL, seed)
        # jobs=1: a Streamlit session is a thread; the search itself is one compiled call per fold
        result = parameter_search(
            sets, grid, n_folds=KW_FOLDS, seed=seed, options=RunOptions(jobs=1)
        )
        acc = 100 * result.accuracy[:, :, -1, :].mean(axis=0)  # (settings, modes)
        for s, tau in enumerate(taus):
            rows.append(
                {"label noise N": noise, "margin τ": tau}
                | {mode: round(float(acc[s, MODES.index(mode)]), 1) for mode in MODES}
            )
    return pd.DataFrame(rows)


def kw_caption(seed: int) -> str:
    """How :func:`kw_cross_validated` computed its numbers, for the caption under them."""
    return (
        f"Computed live: {KW_SETS_PER_CELL} data sets of KW's artificial data per row "
        f"(f = {KW_FEATURES} features, margin M = {KW_MARGIN}, 600 examples, seed {seed}), "
        f"{KW_FOLDS}-fold cross-validation, η = 0.1, θ_init = C = mean ‖x‖², 100 epochs; "
        "accuracy in %, mean over the data sets (perceptron_core.experiments.parameter_search)."
    )
