"""The research studies of lessons 2, 4 and 5: Novikoff's bound, KW's four predictors, margins.

Each study is a function of the lesson's settings that returns a table and
reports its progress (:mod:`app_logic.progress`); every random draw in it
is seeded from its ``seed``. The lessons read them through
:mod:`app_logic.lesson_studies`, which keeps each result on disk, so a
study with the settings a lesson opens with is computed once, by
``perceptron-lab warm``, not by its first visitor.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from perceptron_core import Perceptron
from perceptron_core.datasets import make_separable
from perceptron_core.experiments import MODES, RunOptions, kw_sets, kw_settings, parameter_search
from perceptron_lab.app_logic.diagnostics import novikoff_bound
from perceptron_lab.app_logic.progress import Progress, folds, quietly

#: The convergence sweep: margins of the 2-D separable sets, sets per margin, points per set.
SWEEP_MARGINS = (0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.4)
SWEEP_SETS, SWEEP_POINTS = 8, 300
#: Enough epochs for every sweep run to reach an epoch without updates (the engine
#: adds the update-free rest at once, so a generous cap costs nothing).
SWEEP_EPOCHS = 5_000
#: Khardon & Wachman's artificial data (2007, section 3.1) for the live experiments: f, M.
KW_FEATURES, KW_MARGIN, KW_SETS_PER_CELL, KW_FOLDS = 50, 0.1, 3, 10
#: Lesson 4's research table: label-noise levels (KW's grid has 0 to 0.25), no margin.
PREDICTOR_NOISE = (0.0, 0.05, 0.15, 0.25)
#: Lesson 5's research table: label-noise levels and margins τ (a part of KW's grid).
MARGIN_NOISE, MARGIN_TAUS = (0.05, 0.15), (0.0, 0.125, 0.5, 1.0)


def sweep(seed: int, progress: Progress = quietly) -> pd.DataFrame:
    """Observed updates and Novikoff's bound for :data:`SWEEP_SETS` sets per margin.

    Set ``i`` of every margin is ``make_separable(SWEEP_POINTS, margin,
    random_state=seed * 1000 + i)``, trained by the plain perceptron
    (η = 0.1, θ_init = C = mean ‖x‖²) until an epoch without updates. The bound is
    :func:`~perceptron_lab.app_logic.diagnostics.novikoff_bound` from the runs' own start
    θ_init (above ``(R/γ)²``, which is for a start at θ = 0), and its column says so.
    """
    rows = []
    for m, margin in enumerate(SWEEP_MARGINS):
        progress(m / len(SWEEP_MARGINS), f"training {SWEEP_SETS} sets with gap {margin:g}")
        for i in range(SWEEP_SETS):
            set_seed = seed * 1000 + i
            X, y, _, target = make_separable(SWEEP_POINTS, margin, random_state=set_seed)
            clf = Perceptron(epochs=SWEEP_EPOCHS, random_state=set_seed).fit(X, y)
            if clf.updates_per_epoch_[-1] != 0:
                raise ValueError(f"A run with margin {margin} did not converge.")
            bound, _, gamma = novikoff_bound(
                X, y, np.asarray(target.w), float(target.theta), clf.eta, clf.C_, clf.theta_init_
            )
            rows.append(
                {"margin": margin, "gamma": gamma, "updates": clf.n_updates_, "bound": bound}
            )
    runs = pd.DataFrame(rows)
    runs["share"] = runs["updates"] / runs["bound"]
    table = runs.groupby("margin", as_index=False).agg(
        gamma=("gamma", "mean"),
        mean_updates=("updates", "mean"),
        most_updates=("updates", "max"),
        bound=("bound", "mean"),
        largest_share=("share", "max"),
    )
    return table.rename(
        columns={
            "margin": "gap of the generator",
            "gamma": "γ (mean)",
            "mean_updates": "updates (mean)",
            "most_updates": "updates (most)",
            "bound": "bound from θ_init (mean)",
            "largest_share": "largest updates ÷ bound",
        }
    ).round(
        {
            "γ (mean)": 3,
            "updates (mean)": 1,
            "bound from θ_init (mean)": 0,
            "largest updates ÷ bound": 3,
        }
    )


def kw_cross_validated(
    noise_levels: tuple[float, ...],
    taus: tuple[float, ...],
    seed: int,
    progress: Progress = quietly,
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
    for i, noise in enumerate(noise_levels):
        sets = kw_sets(KW_FEATURES, KW_MARGIN, noise, KW_SETS_PER_CELL, seed)
        share = i / len(noise_levels), (i + 1) / len(noise_levels)
        counter = folds(progress, *share, f"label noise {noise:.0%}")
        # jobs=1: a Streamlit session is a thread; the search itself is one compiled call per fold
        result = parameter_search(
            sets, grid, n_folds=KW_FOLDS, seed=seed, options=RunOptions(jobs=1, progress=counter)
        )
        acc = 100 * result.accuracy[:, :, -1, :].mean(axis=0)  # (settings, modes)
        for s, tau in enumerate(taus):
            rows.append(
                {"label noise N": noise, "margin τ": tau}
                | {mode: round(float(acc[s, MODES.index(mode)]), 1) for mode in MODES}
            )
    return pd.DataFrame(rows)
