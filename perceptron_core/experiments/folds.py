"""Stratified folds and the seeds of every random choice an experiment makes.

Every random thing in an experiment (which examples form a fold, the order
in which a training part is visited, which artificial data set is drawn)
gets its own seed, derived from the experiment's one ``seed`` and a path of
names and numbers that says what it is for (:func:`derive_seed`). So results
depend on the seed only, never on the order in which parallel workers finish,
and two parts of an experiment never share a random stream by accident.
"""

from __future__ import annotations

import hashlib

import numpy as np
from sklearn.model_selection import StratifiedKFold


def derive_seed(seed: int, *path) -> int:
    """A seed in ``[0, 2**32)`` for the random choice named by ``path``.

    The path's parts (strings or whole numbers) are hashed together with
    ``seed`` into a :class:`numpy.random.SeedSequence`, so nearby seeds and
    paths give unrelated streams.

    Examples
    --------
    >>> derive_seed(0, "fold", 3) == derive_seed(0, "fold", 3)
    True
    >>> derive_seed(0, "fold", 3) != derive_seed(0, "fold", 4)
    True
    """
    text = "/".join(str(p) for p in path).encode()
    words = np.frombuffer(hashlib.sha256(text).digest()[:16], dtype=np.uint32)
    sequence = np.random.SeedSequence([int(seed) & 0xFFFFFFFF, *words.tolist()])
    return int(sequence.generate_state(1)[0])


def stratified_folds(y, n_folds: int, seed: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """``n_folds`` (train, test) index pairs with the class balance of ``y`` in each.

    Every example is in exactly one test part; indices are sorted. The split
    is scikit-learn's :class:`~sklearn.model_selection.StratifiedKFold` with
    shuffling seeded by ``seed``.

    Examples
    --------
    >>> y = np.array([1] * 6 + [-1] * 4)
    >>> folds = stratified_folds(y, 2, seed=0)
    >>> [int((y[test] == 1).sum()) for _, test in folds]
    [3, 3]
    >>> sorted(np.concatenate([test for _, test in folds]).tolist()) == list(range(10))
    True
    """
    y = np.asarray(y)
    if n_folds < 2:
        raise ValueError(f"Cross-validation needs at least 2 folds; got {n_folds}.")
    smallest = np.unique(y, return_counts=True)[1].min()
    if smallest < n_folds:
        raise ValueError(
            f"The rarest class has only {smallest} example{'s' if smallest != 1 else ''}, "
            f"fewer than the {n_folds} folds, so some test parts would lack it. Use fewer "
            "folds or more data."
        )
    splitter = StratifiedKFold(n_splits=n_folds, shuffle=True, random_state=seed)
    return [
        (np.sort(train), np.sort(test)) for train, test in splitter.split(np.zeros((len(y), 1)), y)
    ]
