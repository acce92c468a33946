"""Lesson 11's estimates: single splits, cross-validation and double cross-validation of τ.

One small noisy data set (KW's artificial data, :data:`N_DATA` examples)
and the perceptron with margin; :func:`estimates` computes every accuracy
the lesson's figure shows, all seeded from ``seed``. The lesson reads it
through :mod:`app_logic.lesson_studies`.
"""

from __future__ import annotations

import numpy as np
from sklearn.model_selection import train_test_split

from perceptron_core import KWPerceptron
from perceptron_core.datasets import load
from perceptron_core.experiments import (
    RunOptions,
    choose,
    derive_seed,
    kw_settings,
    make_dataset,
    parameter_optimisation,
    parameter_search,
    run_fold,
)
from perceptron_core.experiments.fold_run import as_plus_minus
from perceptron_core.experiments.optimize import OptimisationResult
from perceptron_lab.app_logic.datasource import DataRequest
from perceptron_lab.app_logic.progress import Progress, folds, quietly

N_DATA, N_FRESH, N_SPLITS, N_INNER = 300, 5000, 40, 5
KW_DATA = {"n_features": 50, "margin": 0.1, "noise": 0.1}
TAUS = (0.0, 0.125, 0.25, 0.5, 1.0, 2.0)
FIXED_TAU = 0.5
GRID = kw_settings(TAUS, (0.0,), (None,))
FIXED = GRID.index(FIXED_TAU, 0.0, None)
LAST = 0  # the last hypothesis: MODES[0]
DATA_LABEL = "lesson 11"  # the experiments derive their fold seeds from it
#: The share of the work each part takes (roughly its fold count), for the progress bar.
_SPLITS_DONE, _SEARCH_DONE = 0.25, 0.35


def estimates(test_share: float, k: int, seed: int, progress: Progress = quietly) -> dict:
    """Compute every estimate on one data set drawn from ``seed``.

    Returns a dict of accuracies in [0, 1]:

    ``single_fixed``, ``single_best`` : arrays of shape (N_SPLITS,)
        Test accuracy of each single split: with τ fixed, and with the τ that
        did best on that split's own test part.
    ``cv_folds``, ``double_folds`` : arrays of shape (k,)
        Fold accuracies of k-fold CV with τ fixed, and of double CV.
    ``search_best`` : float
        The best cross-validated accuracy over the τ grid (the parameter search).
    ``double_choices`` : list of float
        The τ each outer fold of the double CV chose.
    ``fresh_fixed``, ``fresh_chosen`` : float
        Accuracy on N_FRESH new examples of τ fixed and of the τ chosen by
        k-fold CV (``chosen_tau``), each trained on all N_DATA examples.

    The data are the first :data:`N_DATA` of :data:`N_DATA` + :data:`N_FRESH`
    examples of one KW generator run; the rest only measure the truth.
    Training follows KW (η = 0.1, θ_init = C = mean ‖x‖², 100 epochs, the
    last hypothesis); every split and permutation is seeded from ``seed``.
    """
    X, y, _ = load("kw", n_samples=N_DATA + N_FRESH, random_state=seed, **KW_DATA)
    X_fresh, y_fresh, X, y = X[N_DATA:], y[N_DATA:], X[:N_DATA], y[:N_DATA]
    y_pm = as_plus_minus(y)
    single = []
    for i in range(N_SPLITS):
        progress(_SPLITS_DONE * i / N_SPLITS, f"single splits: {i} of {N_SPLITS}")
        train, test = train_test_split(
            np.arange(N_DATA),
            test_size=test_share,
            stratify=y,
            random_state=derive_seed(seed, "split", i) % 2**31,
        )
        single.append(
            run_fold(X, y_pm, train, test, GRID, derive_seed(seed, "perm", i)).accuracy[
                :, -1, LAST
            ]
        )
    single = np.array(single)  # (splits, settings)
    data = [make_dataset(DATA_LABEL, X, y)]
    # jobs=1: a Streamlit session is a thread; each fold is one call
    counter = folds(progress, _SPLITS_DONE, _SEARCH_DONE, f"{k}-fold cross-validation")
    search = parameter_search(
        data, GRID, n_folds=k, seed=seed, options=RunOptions(jobs=1, progress=counter)
    )
    cv = search.fold_accuracy[0, :, :, -1, LAST]  # (folds, settings)
    best = choose(cv.mean(axis=0), GRID, "tau", include_inactive=True)
    counter = folds(progress, _SEARCH_DONE, 1.0, "double cross-validation")
    double: OptimisationResult = parameter_optimisation(
        data,
        GRID,
        n_folds=k,
        n_inner=N_INNER,
        seed=seed,
        options=RunOptions(jobs=1, progress=counter),
    )
    double_folds, picks = double.fold_values(0, "tau", "last")

    def fresh(tau: float) -> float:
        return KWPerceptron(tau=tau, random_state=seed).fit(X, y).score(X_fresh, y_fresh)

    return {
        "single_fixed": single[:, FIXED],
        "single_best": single.max(axis=1),
        "cv_folds": cv[:, FIXED],
        "double_folds": double_folds,
        "search_best": float(cv.mean(axis=0)[best]),
        "double_choices": [float(GRID.tau[p]) for p in picks],
        "fresh_fixed": fresh(FIXED_TAU),
        "fresh_chosen": fresh(float(GRID.tau[best])),
        "chosen_tau": float(GRID.tau[best]),
    }


def figure_request(seed: int) -> DataRequest:
    """The data of the lesson's replay: the :data:`N_DATA` examples :func:`estimates` draws
    from ``seed`` (the same generator run, with its own label noise, none kept for testing).

    Examples
    --------
    >>> dict(figure_request(0).options)["noise"], dict(figure_request(0).options)["n_samples"]
    (0.1, 300)
    """
    return DataRequest("kw", tuple(sorted({**KW_DATA, "n_samples": N_DATA}.items())), seed=seed)
