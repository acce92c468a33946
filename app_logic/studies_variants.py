"""The studies of lessons 6, 7, 8 and 10: PAUM, KW's switches, kernels, boosting committees.

Like :mod:`app_logic.studies_basics`: each returns a table, reports its
progress and seeds every draw from its ``seed``; the lessons read them
through :mod:`app_logic.lesson_studies`. Lesson 10 has two: the boosting
rounds on its figure's training set (:func:`boosting_rounds`, its
section 3) and the NR comparison of its research box (:func:`nr_table`).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from perceptron_core.boosting import AdaBoost, NRBoost
from perceptron_core.datasets import load
from perceptron_core.experiments import (
    RunOptions,
    kw_sets,
    kw_settings,
    nr_comparison,
    parameter_search,
    paum_study,
    resolve,
)
from perceptron_core.kernel import KernelPerceptron
from perceptron_lab.app_logic.datasource import DataRequest, make_dataset
from perceptron_lab.app_logic.progress import Progress, folds, quietly
from perceptron_lab.app_logic.studies_basics import KW_FEATURES, KW_FOLDS, KW_MARGIN

#: Lesson 6: the PAUM study's points, folds and margins (τ₋₁, τ₊₁) in units of R².
PAUM_SAMPLES, PAUM_FOLDS = 1050, 10
PAUM_MARGINS = ((0.0, 0.0), (0.1, 0.1), (0.0, 0.25), (0.0, 1.0), (-0.25, 1.0), (0.0, 2.0))
#: Lesson 7: KW's λ and α values (a part of their grid), τ for comparison.
SWITCH_NOISE = (0.05, 0.15)
SWITCH_TAUS, SWITCH_LAMS, SWITCH_ALPHAS = (0.0, 0.5, 1.0), (0.0, 0.25, 1.0, 4.0), (None, 20, 5)
SWITCH_COLUMNS = {"nothing": "nothing", "lam": "best λ", "alpha": "best α", "tau": "best τ"}
SWITCH_SETS = 2
#: Lesson 8: digits, the first TRAIN rows of a seeded permutation train, the rest test.
DIGITS_TRAIN, DIGITS_EPOCHS, DIGITS_DEGREES = 1000, 10, (1, 2, 3, 4, 5)
#: Lesson 10: the figure's committees train COMMITTEE_EPOCHS epochs; section 3 boosts such
#: committees for BOOSTING_ROUNDS rounds (as many as the research box's members or rounds).
COMMITTEE_EPOCHS, BOOSTING_ROUNDS = 250, 10
#: Lesson 10: the NR protocol, small (one problem, one repeat, 5 folds).
NR_PROBLEM, NR_NOISE, NR_FOLDS = "twonorm", (0.0, 0.1, 0.2, 0.3), 5
NR_COLUMNS = ("PP", "PP bagging", "PP boosting", "NR boosting", "flag precision", "flag recall")


def paum_table(seed: int, rate: float, progress: Progress = quietly) -> pd.DataFrame:
    """The PAUM study on a larger imbalanced set: cross-validated metrics, percent.

    :func:`perceptron_core.experiments.paum_study` with margins in units of
    R², :data:`PAUM_FOLDS`-fold stratified cross-validation.
    """
    data = resolve(f"imbalanced:n={PAUM_SAMPLES},positive_rate={rate}", seed=seed)[0]
    options = RunOptions(jobs=1, progress=folds(progress, 0.0, 1.0, "PAUM and the perceptron"))
    table = paum_study(data, PAUM_MARGINS, n_folds=PAUM_FOLDS, seed=seed, options=options)
    frame = pd.DataFrame(table.records).pivot(index="learner", columns="column", values="value")
    order = [f"PAUM({a:g}, {b:g})" for a, b in PAUM_MARGINS]
    order += ["KW perceptron (last)", "KW perceptron (voted)"]
    columns = ["recall", "precision", "F1", "MAP", "accuracy"]
    return frame.loc[order, columns].round(1).rename_axis(None, axis=1).reset_index()


def switch_table(seed: int, progress: Progress = quietly) -> pd.DataFrame:
    """KW's comparison of the switches, small: the best cross-validated accuracy per switch.

    For each noise level, :data:`SWITCH_SETS` of KW's artificial data sets
    (f = 50, M = 0.1, 600 examples) from ``seed``; every setting of a small
    τ×λ and τ×α grid in 10-fold cross-validation with KW's settings; a
    column is the best setting with its switch on (KW's parameter search,
    :meth:`perceptron_core.experiments.SearchResult.table`), for the last
    hypothesis.
    """
    grid = kw_settings(SWITCH_TAUS, SWITCH_LAMS, SWITCH_ALPHAS)
    sets = [
        d
        for noise in SWITCH_NOISE
        for d in kw_sets(KW_FEATURES, KW_MARGIN, noise, SWITCH_SETS, seed)
    ]
    options = RunOptions(jobs=1, progress=folds(progress, 0.0, 1.0, f"{len(grid)} settings"))
    result = parameter_search(sets, grid, n_folds=KW_FOLDS, seed=seed, options=options)
    table = result.table(
        "switches", group_by=("noise",), columns=tuple(SWITCH_COLUMNS), modes=("last",)
    )
    frame = pd.DataFrame(table.records).pivot(index="noise", columns="column", values="accuracy")
    frame = frame[list(SWITCH_COLUMNS)].rename(columns=SWITCH_COLUMNS).round(1)
    frame = frame.rename_axis(None, axis=1).reset_index()
    frame["noise"] = [f"{n:.0%}" for n in frame["noise"]]  # a label, not a number to round
    return frame.rename(columns={"noise": "label noise N"})


def digits_table(seed: int, progress: Progress = quietly) -> pd.DataFrame:
    """Polynomial kernels of growing degree on the digits, against an SVM with the same kernel.

    Pixels scaled to [0, 1]; kernel ``(<x,x'>/16 + 1)^d``; the kernel
    perceptron trains :data:`DIGITS_EPOCHS` epochs one-vs-rest (10 classes)
    and gives its last, voted and averaged predictors from one run; the SVM
    is scikit-learn's ``SVC(C=10)`` with the same kernel.
    """
    from sklearn.svm import SVC  # scikit-learn only for this reference

    X, y, _ = load("digits")
    X = X / 16.0
    order = np.random.default_rng(seed).permutation(len(y))
    train, test = order[:DIGITS_TRAIN], order[DIGITS_TRAIN:]
    kernel = {"kernel": "poly", "gamma": 1 / 16, "coef0": 1.0}
    rows = []
    for i, degree in enumerate(DIGITS_DEGREES):
        progress(i / len(DIGITS_DEGREES), f"degree {degree}: the kernel perceptron and the SVM")
        clf = KernelPerceptron(degree=degree, epochs=DIGITS_EPOCHS, random_state=seed, **kernel)
        predictions = clf.fit(X[train], y[train]).predict_all(X[test])
        svm = SVC(C=10.0, degree=degree, **kernel).fit(X[train], y[train])
        rows.append(
            {"degree d": degree}
            | {
                m: round(100 * float(np.mean(predictions[m] == y[test])), 1)
                for m in ("last", "voted", "averaged")
            }
            | {
                "support examples": len(clf.support_),
                "SVM": round(100 * svm.score(X[test], y[test]), 1),
                "SVM support vectors": int(svm.n_support_.sum()),
            }
        )
    return pd.DataFrame(rows)


def nr_table(seed: int, progress: Progress = quietly) -> pd.DataFrame:
    """Test accuracy (%) of one PP, bagging, AdaBoost and NR boosting per noise level.

    :func:`perceptron_core.experiments.nr_comparison` on one problem with
    one repeat of :data:`NR_FOLDS`-fold stratified cross-validation; the
    flag columns score the first NR round's "noisy" flags against the
    flipped labels.
    """
    options = RunOptions(jobs=1, progress=folds(progress, 0.0, 1.0, "four committees"))
    table = nr_comparison(
        repeats=1,
        noise=NR_NOISE,
        problems=(NR_PROBLEM,),
        n_folds=NR_FOLDS,
        seed=seed,
        options=options,
    )
    frame = pd.DataFrame(table.records).pivot(index="noise", columns="column", values="accuracy")
    frame = frame[list(NR_COLUMNS)].round(1).rename_axis(None, axis=1).reset_index()
    frame["noise"] = [f"{n:.0%}" for n in frame["noise"]]  # a label, not a number to round
    return frame.rename(columns={"noise": "label noise"})


def noisy_clouds(seed: int, noise: float) -> DataRequest:
    """Lesson 10's figure's data: two Gaussian clouds, half kept clean for testing, exactly
    ``noise`` of the rest flipped."""
    return DataRequest(
        "gaussians",
        (("n_samples", 200), ("separation", 3.0)),
        noise_kind="exact" if noise > 0 else "none",
        noise_rate=noise,
        test_fraction=0.5,
        seed=seed,
    )


def boosting_rounds(H: int, noise: float, seed: int, progress: Progress = quietly) -> pd.DataFrame:
    """AdaBoost and NR boosting of committees of ``H`` on lesson 10's figure's training set
    (:func:`noisy_clouds`), per round: ``ε_t``, whether the round was kept (``ε_t < 1/2``) and
    ``α_t`` (NaN for a dropped round).

    The same committees as the figure (``H`` members, :data:`COMMITTEE_EPOCHS`
    epochs, the app's η and starting ρ), :data:`BOOSTING_ROUNDS` rounds,
    seeded by ``seed``.

    Examples
    --------
    >>> rounds = boosting_rounds(1, 0.0, 0)
    >>> rounds["booster"].unique().tolist(), len(rounds)
    (['AdaBoost', 'NR boosting'], 20)
    """
    from perceptron_lab.app_logic.learners import (
        LEARNERS,  # the menu imports every learner: only here
    )

    data = make_dataset(noisy_clouds(seed, noise))
    base = LEARNERS["parallel"].make({"n_perceptrons": H}, COMMITTEE_EPOCHS, seed)
    base.set_params(record="none")  # the rounds' committees are not drawn
    frames = []
    boosters = (("AdaBoost", AdaBoost), ("NR boosting", NRBoost))
    for i, (name, booster) in enumerate(boosters):
        progress(i / len(boosters), f"{name}, {BOOSTING_ROUNDS} committees of {H}")
        fit = booster(base, n_rounds=BOOSTING_ROUNDS, random_state=seed).fit(data.X, data.y)
        alpha = np.full(BOOSTING_ROUNDS, np.nan)
        alpha[fit.kept_] = fit.estimator_weights_
        frames.append(
            pd.DataFrame(
                {
                    "booster": name,
                    "round t": np.arange(1, BOOSTING_ROUNDS + 1),
                    "ε_t": fit.estimator_errors_,
                    "kept": fit.kept_,
                    "α_t": alpha,
                }
            )
        )
    return pd.concat(frames, ignore_index=True)
