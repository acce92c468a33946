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


#: The two learners, in the order the lesson's tables and charts give them.
LEARNER_NAMES = ("Winnow", "Perceptron")


#: The perceptron's threshold step is the mean number of active features rounded to a
#: multiple of this binary fraction, which every sum then holds exactly.
STEP_GRID = 2.0**-10


def threshold_step(X) -> float:
    """The perceptron's threshold step ``C`` for the examples ``X``: the mean number of
    active features (Khardon & Wachman's mean ``||x||²`` on boolean data), rounded to a
    multiple of :data:`STEP_GRID`.

    >>> threshold_step(np.array([[1, 0, 1], [0, 0, 1], [1, 1, 1]])) * 1024  # 2 = 2048/1024
    2048.0
    >>> threshold_step(np.array([[1, 0], [0, 0], [0, 0]]))  # 1/3 to the nearest 1/1024
    0.3330078125
    """
    mean = float(np.asarray(X, dtype=np.float64).sum(axis=1).mean())
    return float(np.rint(mean / STEP_GRID) * STEP_GRID)


def learners(X) -> dict:
    """Both learners for one on-line pass over ``X`` in the order drawn (no shuffle, one
    epoch), each in exact arithmetic, so that a score of exactly 0 is a real tie and counts
    as each learner's rule says, whatever order a sum is taken in.

    Winnow's weights are powers of 2 and ``θ = n``: its sums are exact. It predicts +1 at
    ``w·x >= θ`` (the course notes), so a score of 0 is a mistake only on a negative.

    The perceptron is Khardon & Wachman's form with ``η = 0.1`` and ``θ_init = C`` run as
    ``η = 1``, ``θ_init = 10 C``, the same run scaled by 10 (lesson 1), with ``C`` the
    mean number of active features rounded to a multiple of 1/1024
    (:func:`threshold_step`): every weight is then a whole number and every threshold and
    score a multiple of 1/1024, held exactly. Its rule updates when
    ``y(<w, x> - θ) <= 0``, so a score of 0 is a mistake on either label; at test time a
    score of 0 predicts the negative class. (With ``η = 0.1`` and ``C`` the mean itself, a
    tie came out a few units of the last bit to either side, and the mean count at
    ``n = 512`` was 654.3 compiled and 656.3 in plain Python, whose sums run in another
    order.)
    """
    C = threshold_step(X)
    return {
        "Winnow": Winnow(epochs=1, shuffle=False),
        "Perceptron": Perceptron(
            eta=1.0, theta_init=10.0 * C, C=float(C), epochs=1, shuffle=False
        ),
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
        runs = {name: [] for name in LEARNER_NAMES}
        active, most = [], []
        for r in range(DRAWS):
            progress(
                (i * DRAWS + r) / (len(n_list) * DRAWS),
                f"n = {n} features{setting(n)}, data set {r + 1} of {DRAWS}",
            )
            X, y, X_test, y_test = data_for(n, r)
            active.append(X.sum(axis=1).mean())
            most.append(int(X.sum(axis=1).max()))
            for name, clf in learners(X).items():
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


def promotions_and_demotions(n: int, k: int, m: int, seed: int) -> pd.DataFrame:
    """Winnow's promotions (mistakes on positives) and demotions (mistakes on negatives) in
    the pass over each draw of :func:`mistakes_vs_n` at ``n``, beside the two steps of its
    mistake bound (the course notes, section 1.2): promotions at most ``k(1 + log2 n)``,
    demotions below twice the promotions plus 2.

    >>> table = promotions_and_demotions(64, 3, 500, 0)
    >>> bool((table["promotions p"] <= table["at most k(1 + log₂ n)"]).all())
    True
    """
    rows = []
    for r in range(DRAWS):
        X, y, *_ = draw(n, k, m, seed, r)
        winnow = learners(X)["Winnow"].set_params(record="updates").fit(X, y)
        promotions = int(np.sum(y[winnow.trace_.index] > 0))
        demotions = int(winnow.n_updates_ - promotions)
        rows.append(
            {
                "data set": r + 1,
                "promotions p": promotions,
                "at most k(1 + log₂ n)": round(k * (1 + np.log2(n)), 1),
                "demotions d": demotions,
                "below 2(p + 1)": 2 * (promotions + 1),
                "mistakes p + d": promotions + demotions,
            }
        )
    return pd.DataFrame(rows)


def final_weights(n: int, k: int, m: int, seed: int, progress: Progress = quietly) -> dict:
    """``w_i / θ`` of both learners after the pass on the first draw, the thresholds ``θ``
    (as ``"<name> θ"``) and the relevant mask.

    A threshold that is not above 0 makes the shares meaningless, and they are NaN: the
    perceptron's θ starts at ``10 C`` and moves by ``C`` per update (:func:`learners`), so
    it is exactly 0 after ten more updates on positives than on negatives.
    """
    X, y, _, _, relevant = draw(n, k, m, seed, 0)
    out = {"relevant": np.isin(np.arange(n), relevant)}
    for i, (name, clf) in enumerate(learners(X).items()):
        progress(i / 2, f"one pass of {name} over n = {n} features")
        clf.fit(X, y)
        w, theta = clf.coef_[0], float(-clf.intercept_[0])  # the threshold is θ = -intercept
        out[f"{name} θ"] = theta
        out[name] = w / theta if theta > 0 else np.full(n, np.nan)
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
