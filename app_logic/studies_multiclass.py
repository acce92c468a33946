"""Lesson 12's study: one against the rest and the multiclass perceptron, side by side.

Like :mod:`app_logic.studies_variants`: a table, its progress reported, every draw seeded
from ``seed``; the lesson reads it through :mod:`app_logic.lesson_studies`. The data are the
multi-class sets the lab has (``perceptron-lab datasets``): the digits, shipped inside
scikit-learn, and the three-class teaching set, with and without label noise. (Fashion-MNIST,
the other, is read from a local install when one is there, and is too large for a lesson.)
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from sklearn.model_selection import StratifiedKFold

from perceptron_core import MulticlassPerceptron, Perceptron
from perceptron_core.datasets import load
from perceptron_lab.app_logic.progress import Progress, quietly

#: The data sets: (name in the table, registry name, options).
COMPARE_SETS = (
    ("three classes, 300 points, gap 0.05", "three_classes", {"n_samples": 300, "margin": 0.05}),
    (
        "three classes, 300 points, 10 % noise",
        "three_classes",
        {"n_samples": 300, "margin": 0.05, "noise": 0.1},
    ),
    ("digits (10 classes, 1,797 images)", "digits", {}),
)
COMPARE_FOLDS, COMPARE_EPOCHS = 10, 20
#: The two learners, as the table names them.
LEARNER_NAMES = {
    "one-vs-rest": "one against the rest (KW perceptron, per class)",
    "multiclass": "multiclass perceptron",
}
COMPARE_MODES = ("last", "voted", "averaged")


def _learners(seed: int) -> dict:
    """The two learners with their defaults: Khardon & Wachman's perceptron, which learns one
    perceptron per class (KW section 2.7), and the multiclass perceptron."""
    return {
        "one-vs-rest": Perceptron(epochs=COMPARE_EPOCHS, random_state=seed, record="updates"),
        "multiclass": MulticlassPerceptron(epochs=COMPARE_EPOCHS, random_state=seed),
    }


def compare_table(seed: int, progress: Progress = quietly) -> pd.DataFrame:
    """Test accuracy (%, mean over :data:`COMPARE_FOLDS` stratified folds) of each learner's
    last, voted and averaged predictors, and the updates per fold, on every set of
    :data:`COMPARE_SETS`.

    The one-against-the-rest perceptron counts an update of each class's perceptron apart
    (a mistake of the machine can cost several); the multiclass perceptron's update moves two
    vectors at once.
    """
    rows = []
    steps = len(COMPARE_SETS) * COMPARE_FOLDS
    for s, (title, name, options) in enumerate(COMPARE_SETS):
        generated = name != "digits"
        X, y, _ = load(name, **options, **({"random_state": seed} if generated else {}))
        folds = StratifiedKFold(COMPARE_FOLDS, shuffle=True, random_state=seed)
        scores = {key: {m: [] for m in COMPARE_MODES} for key in LEARNER_NAMES}
        updates = {key: [] for key in LEARNER_NAMES}
        for f, (train, test) in enumerate(folds.split(X, y)):
            progress((s * COMPARE_FOLDS + f) / steps, f"{title}: fold {f + 1}")
            for key, clf in _learners(seed).items():
                clf.fit(X[train], y[train])
                predicted = clf.predict_all(X[test])
                for m in COMPARE_MODES:
                    scores[key][m].append(float(np.mean(predicted[m] == y[test])))
                updates[key].append(clf.n_updates_)
        for key, learner in LEARNER_NAMES.items():
            rows.append(
                {"data": title, "learner": learner}
                | {m: round(100 * float(np.mean(scores[key][m])), 1) for m in COMPARE_MODES}
                | {"updates per fold": round(float(np.mean(updates[key])))}
            )
    return pd.DataFrame(rows)
