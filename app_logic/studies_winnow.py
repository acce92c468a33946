"""Lesson 9's runs: Winnow against the perceptron on k-of-n disjunctions as n grows.

The data are boolean and labelled by a disjunction of ``k`` of their ``n``
features. :func:`mistakes_vs_n` counts the mistakes of one on-line pass of
both learners for every n of :data:`NS` (the lesson's first figure);
:func:`final_weights` gives the weights they end with for one n;
:func:`perceptron_side` counts the mistakes with ``k = n/2`` (the lesson's
second setting). Every draw is seeded from ``seed``; the lesson reads all
three through :mod:`app_logic.lesson_studies`.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from perceptron_core import Perceptron, Winnow, make_k_of_n_disjunction
from perceptron_core.experiments import derive_seed
from perceptron_lab.app_logic.datasource import DataRequest
from perceptron_lab.app_logic.progress import Progress, quietly

NS = (16, 32, 64, 128, 256, 512, 1024)
DRAWS = 3  # data sets per n; the chart shows their mean
N_TEST = 1000


def draw(n: int, k: int, m: int, seed: int, r: int):
    """Draw ``r`` of the data for ``n`` features: ``m`` training and N_TEST test rows.

    Returns ``X, y, X_test, y_test, relevant`` (the indices of the k features).
    """
    X, y, relevant = make_k_of_n_disjunction(
        n, k, m + N_TEST, random_state=derive_seed(seed, "kofn", n, r), return_relevant=True
    )
    return X[:m], y[:m], X[m:], y[m:], relevant


def learners() -> dict:
    """Both learners for one on-line pass in the order drawn: no shuffle, one epoch."""
    return {
        "Winnow": Winnow(epochs=1, shuffle=False),
        "Perceptron": Perceptron(epochs=1, shuffle=False),
    }


def _one_pass_table(n_list, m: int, data_for, extra, setting: str, progress: Progress):
    """One on-line pass of both learners over ``m`` examples for every n of ``n_list``: the
    mean mistakes and test accuracy over :data:`DRAWS` draws, a row per n.

    ``data_for(n, r)`` draws ``X, y, X_test, y_test``; ``extra(n, active, most)`` gives the
    row's columns after ``n features`` (``active``: the mean number of active features per
    training example; ``most``: the largest number in any training sequence, the
    ``max_i ||x_i||²`` of the perceptron's bound); ``setting(n)`` is added to the progress text.
    """
    rows = []
    for i, n in enumerate(n_list):
        runs = {name: [] for name in learners()}
        active, most = [], []
        for r in range(DRAWS):
            progress(
                (i * DRAWS + r) / (len(n_list) * DRAWS),
                f"n = {n} features{setting(n)}, data set {r + 1} of {DRAWS}",
            )
            X, y, X_test, y_test = data_for(n, r)
            active.append(X.sum(axis=1).mean())
            most.append(int(X.sum(axis=1).max()))
            for name, clf in learners().items():
                clf.fit(X, y)
                runs[name].append((clf.n_updates_, clf.score(X_test, y_test)))
        row = {"n features": n, **extra(n, float(np.mean(active)), max(most))}
        for name, values in runs.items():
            mistakes, accuracy = np.mean(values, axis=0)
            row[f"{name} mistakes"] = round(float(mistakes), 1)
            row[f"{name} test accuracy"] = f"{accuracy:.1%}"
        rows.append(row)
    return pd.DataFrame(rows)


def mistakes_vs_n(k: int, m: int, seed: int, progress: Progress = quietly) -> pd.DataFrame:
    """Mistakes in one pass over ``m`` examples, and test accuracy after it, for every n.

    Each row is the mean over :data:`DRAWS` data sets; the bound column is
    Winnow's ``2 + 3k(1 + log2 n)`` (:class:`perceptron_core.Winnow`).
    """
    table = _one_pass_table(
        NS,
        m,
        lambda n, r: draw(n, k, m, seed, r)[:4],
        lambda n, *_: {"Winnow bound": 2 + 3 * k * (1 + np.log2(n))},
        lambda n: "",
        progress,
    )
    return table.round({"Winnow bound": 1})


def final_weights(n: int, k: int, m: int, seed: int, progress: Progress = quietly) -> dict:
    """``w_i / θ`` of both learners after the pass on the first draw, the thresholds ``θ``
    (as ``"<name> θ"``) and the relevant mask.

    A threshold that is not above 0 (beyond rounding: ``1e-9`` of the largest weight) makes
    the shares meaningless, and they are NaN: the perceptron's θ starts at C and moves by
    ``η C`` per update, so equal numbers of updates each way can bring it to 0.
    """
    X, y, _, _, relevant = draw(n, k, m, seed, 0)
    out = {"relevant": np.isin(np.arange(n), relevant)}
    for i, (name, clf) in enumerate(learners().items()):
        progress(i / 2, f"one pass of {name} over n = {n} features")
        clf.fit(X, y)
        w, theta = clf.coef_[0], float(-clf.intercept_[0])  # the threshold is θ = -intercept
        out[f"{name} θ"] = theta
        out[name] = w / theta if theta > 1e-9 * np.abs(w).max(initial=0.0) else np.full(n, np.nan)
    return out


def perceptron_side(m: int, seed: int, progress: Progress = quietly, n_list=NS) -> pd.DataFrame:
    """Mistakes in one pass over ``m`` examples for every n, with ``k = n/2`` relevant features.

    Each feature is on with chance ``1 - 2^(-1/k)`` (half the labels
    positive), so an example has about ``2 ln 2 ≈ 1.4`` active features
    whatever ``n`` (the most in a sequence: a few more); the mean over
    :data:`DRAWS` draws, as in the other setting (:func:`mistakes_vs_n`).

    Examples
    --------
    >>> table = perceptron_side(500, 0, n_list=(64,))
    >>> [int(v) for v in table.loc[0, ["n features", "k = n/2"]]]
    [64, 32]
    """

    def data_for(n: int, r: int):
        X, y = make_k_of_n_disjunction(
            n, n // 2, m + N_TEST, random_state=derive_seed(seed, "kofn-dense", n, r)
        )
        return X[:m], y[:m], X[m:], y[m:]

    return _one_pass_table(
        n_list,
        m,
        data_for,
        lambda n, active, most: {
            "k = n/2": n // 2,
            "active features per example": round(active, 2),
            "most active features": most,
        },
        lambda n: f", k = {n // 2}",
        progress,
    )


#: The lesson's replay: Balanced Winnow (the course notes' balanced version, α = 2) on 2-D
#: points split by a line, for this many epochs.
FIGURE_POINTS, FIGURE_EPOCHS = 40, 10


def figure_request(seed: int) -> DataRequest:
    """The data of the lesson's replay: :data:`FIGURE_POINTS` points split by a random line
    (the teaching set ``separable``), drawn from ``seed``.

    Examples
    --------
    >>> figure_request(3).options
    (('n_samples', 40),)
    """
    return DataRequest("separable", (("n_samples", FIGURE_POINTS),), seed=seed)
