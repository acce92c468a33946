"""The playground's replay in a notebook cell: ``show(learner, X, y)``.

Needs the ``notebook`` extra (``pip install "perceptron-lab[notebook]"``: anywidget). The tests
run it in JupyterLab; anywidget also serves Notebook 7, VS Code and Colab, where it has not
been tried. :func:`show` fits a learner of the app's menu on your data with every visit
recorded, exactly as the playground does (:func:`app_logic.training.fit_run`, with the same
limits on what a browser can replay), and returns a :class:`Replay` widget: the app's own
replay (``ui/playback/``, the same modules, the same payload) with its steps, play, scrubber,
keys, figure, math panel and diagnostics, and the projection for more than two features.
:meth:`Replay.to_html` writes the same view as one page that plays with no server.

Examples
--------
>>> from perceptron_core.datasets import load
>>> from perceptron_lab.widget import show
>>> X, y, _ = load("gaussians", n_samples=50, random_state=0)
>>> replay = show("voted", X, y, epochs=4)   # in a notebook: the replay, in the cell
>>> replay.run.timeline.n_events
200

``replay.to_html("voted.html")`` then writes the page that plays with no server.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path

import anywidget
import numpy as np
import traitlets

from perceptron_core._jit import uncompiled
from perceptron_core.datasets import DataError
from perceptron_lab.app_logic import training
from perceptron_lab.app_logic.datasource import Dataset, check_magnitudes
from perceptron_lab.app_logic.learners import LEARNERS
from perceptron_lab.app_logic.payload import build_payload
from perceptron_lab.app_logic.playback_args import View
from perceptron_lab.app_logic.style import Show
from perceptron_lab.app_logic.training import fit_run
from perceptron_lab.ui.standalone_page import PLAYBACK, about_run, page_html


class Replay(anywidget.AnyWidget):
    """A recorded run, replayed in the cell (the page of :mod:`ui.standalone_page`).

    Attributes
    ----------
    run : app_logic.training.Run
        The fit: ``run.estimator`` is the fitted estimator, ``run.timeline`` every step.
    """

    _esm = PLAYBACK / "notebook.js"
    page = traitlets.Unicode("").tag(sync=True)

    def __init__(self, page: str, run, **kwargs):
        super().__init__(page=page, **kwargs)
        self.run = run

    def to_html(self, path) -> Path:
        """Write the replay as one web page that plays offline, with no server."""
        path = Path(path)
        path.write_text(self.page, encoding="utf-8")
        return path


def _labels(y, classes=None) -> tuple[np.ndarray, np.ndarray]:
    """``y`` as -1/+1 (the larger of two classes is +1), and the two classes."""
    y = np.asarray(y).ravel()
    found = np.unique(y)
    if classes is None:
        if len(found) != 2:
            listed = ", ".join(map(str, found[:5])) + (", ..." if len(found) > 5 else "")
            raise DataError(f"show draws two classes; y has {len(found)} ({listed}).")
        classes = found
    elif not set(found.tolist()) <= set(classes.tolist()):
        raise DataError(f"y_test has classes that y has not: the classes are {classes.tolist()}.")
    return np.where(y == classes[1], 1, -1).astype(np.int8), classes


def _features(X, name: str) -> np.ndarray:
    X = np.asarray(X, dtype=np.float64)
    if X.ndim != 2 or X.shape[0] == 0 or X.shape[1] == 0:
        raise DataError(f"{name} must be a 2-D array (points x features); got shape {X.shape}.")
    if not np.isfinite(X).all():
        raise DataError(f"{name} holds NaN or infinite values; the learners need numbers.")
    check_magnitudes(X)  # the sizes the figure can compute with and draw, as in the app
    return X


def dataset(
    X, y, X_test=None, y_test=None, title: str = "your data", feature_names=None
) -> Dataset:
    """Your arrays as the app's :class:`~app_logic.datasource.Dataset` (labels mapped to -1/+1:
    the larger class value is +1)."""
    X = _features(X, "X")
    y, classes = _labels(y)
    if len(y) != len(X):
        raise DataError(f"X has {len(X)} rows but y has {len(y)} labels.")
    if X_test is None:
        X_test, y_test = np.empty((0, X.shape[1])), np.empty(0, dtype=np.int8)
    else:
        X_test = _features(X_test, "X_test")
        y_test, _ = _labels(y_test, classes)
    names = (
        tuple(feature_names)
        if feature_names is not None
        else tuple(f"x{i + 1}" for i in range(X.shape[1]))
    )
    return Dataset(
        X=X,
        y=y,
        X_test=X_test,
        y_test=y_test,
        flipped=np.zeros(len(X), bool),
        w_star=None,
        theta_star=None,
        feature_names=names,
        class_names=(str(classes[0]), str(classes[1])),
        title=title,
    )


def show(
    learner: str,
    X,
    y,
    *,
    epochs: int = 20,
    seed: int = 0,
    test=None,
    title: str = "your data",
    view: Show | None = None,
    **settings,
) -> Replay:
    """Fit ``learner`` (a key of the app's menu) on ``X, y`` recording every visit; replay it.

    Parameters
    ----------
    learner : str
        One of :data:`app_logic.learners.LEARNERS` ("perceptron", "voted", "kw", ...).
    X, y : array-like
        Points (n x d) and their two classes (any two values; the larger is +1).
    epochs, seed : int
        As in the playground (the seed orders the visits).
    test : tuple (X_test, y_test), optional
        Held-out points: hollow markers and the test error per epoch.
    title : str
        The data's name on the page.
    view : app_logic.style.Show, optional
        What the figure draws (the playground's View toggles).
    **settings
        The learner's settings by name (its defaults otherwise), e.g. ``tau=0.5``.

    Raises
    ------
    DataError
        The app's limits: too many points x epochs, or a replay too large for a browser.
    """
    if learner not in LEARNERS:
        raise ValueError(f"Unknown learner {learner!r}; the menu has {', '.join(LEARNERS)}.")
    spec = LEARNERS[learner]
    unknown = set(settings) - {s.name for s in spec.settings}
    if unknown:
        raise ValueError(
            f"{spec.title} has no setting {', '.join(sorted(unknown))}; its "
            f"settings are {', '.join(s.name for s in spec.settings)}."
        )
    X_test, y_test = test if test is not None else (None, None)
    data = dataset(X, y, X_test, y_test, title)
    values = spec.defaults() | settings
    fit = partial(
        fit_run,
        learner,
        tuple(sorted(values.items())),
        epochs,
        seed,
        data.X,
        data.y,
        data.X_test,
        data.y_test,
    )
    if training.runs_uncompiled(learner, data.X, epochs):
        with uncompiled():  # a small run as the app trains it: no wait for numba
            run = fit()
    else:
        run = fit()
    payload = build_payload(data, [run], seed)
    about = about_run(run, data, epochs, seed)
    return Replay(page_html(payload, run, data, about, View(show=view or Show())), run)
