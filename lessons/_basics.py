"""What lessons 1–5 (the basics) share: the seed control, the noisy 2-D set, KW's experiment.

The router lists only ``lessons/[0-9]*.py`` as pages, so this module is not
a page. Every random thing it builds is seeded by the lesson's seed control,
so a lesson's numbers change with that control and with nothing else.
"""

from __future__ import annotations

import numpy as np
import streamlit as st

from perceptron_lab.app_logic.datasource import DataRequest
from perceptron_lab.app_logic.studies_basics import (
    KW_FEATURES,
    KW_FOLDS,
    KW_MARGIN,
    KW_SETS_PER_CELL,
)

#: The gap :func:`noisy_line` leaves between the true line and the nearest point.
NOISY_LINE_GAP = 0.05


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
        (("margin", NOISY_LINE_GAP), ("n_samples", n_samples)),
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


def kw_caption(seed: int) -> str:
    """How :func:`app_logic.studies_basics.kw_cross_validated` computed its numbers, for the
    caption under them."""
    return (
        f"Computed live: {KW_SETS_PER_CELL} data sets of KW's artificial data per row "
        f"(f = {KW_FEATURES} features, margin M = {KW_MARGIN}, 600 examples, seed {seed}), "
        f"{KW_FOLDS}-fold cross-validation, η = 0.1, θ_init = C = mean ‖x‖², 100 epochs; "
        "accuracy in %, mean over the data sets (perceptron_core.experiments.parameter_search)."
    )
