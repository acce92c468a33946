"""The playground's replay in a notebook cell: ``show(estimator, X, y)``.

Needs the ``notebook`` extra (``pip install "perceptron-lab[notebook]"``: anywidget). The tests
run it in JupyterLab and in Notebook 7; anywidget also serves VS Code and Colab, where it has
not been tried. :func:`show` replays

* an estimator of :mod:`perceptron_core` that the playground can draw, unfitted (it fits a
  clone with every visit recorded, ``record="all"``, with the estimator's own parameters),
  or fitted with ``record="all"`` on the same ``X, y`` (that very fit);
* or a learner of the app's menu by name, with its settings (``show("voted", X, y)``),

under the app's limits on what a browser can replay (:mod:`app_logic.from_estimator`,
:func:`app_logic.training.fit_run`). It returns a :class:`Replay` widget: the app's own replay
(``ui/playback/``, the same modules, the same payload) with its steps, play, scrubber, keys,
figure, math panel and diagnostics, and the projection for more than two features. Its
``step`` is shared with Python (read it, set it, observe it); :meth:`Replay.to_html` writes
the same view as one page that plays with no server.

A notebook holds each run once, as bytes, and the replay's page and Plotly.js once
(:class:`PlaybackFiles`, which every replay refers to); ``ui/playback/notebook.js`` builds
each replay's frame from them in the browser.

Examples
--------
>>> from perceptron_core import KWPerceptron
>>> from perceptron_core.datasets import load
>>> from perceptron_lab.widget import show
>>> X, y, _ = load("gaussians", n_samples=50, random_state=0)
>>> replay = show(KWPerceptron(tau=0.5, epochs=4, random_state=0), X, y)  # in a cell: the replay
>>> replay.run.timeline.n_events
200
>>> replay.step = int(replay.steps("mistake")[0])   # the step just after the first mistake
>>> show("voted", X, y, epochs=4).run.learner.title
'Voted perceptron'

``replay.to_html("kw.html")`` then writes the page that plays with no server.

In predict mode (``predict=True``, or the replay's own switch) the student answers a question
before each step is shown; the replay keeps the run's score and hands it to Python:

>>> quiz = show("perceptron", X, y, epochs=4, predict=True)
>>> quiz.score                                # before any answer
{'asked': 0, 'right': 0, 'skipped': 0, 'marks': '', 'history': []}
>>> question = quiz.question(1)               # what the replay asks before step 1
>>> question.is_right(question.answer)
True

After the student's answers ``quiz.score`` reads, e.g., ``{'asked': 3, 'right': 2,
'skipped': 0, 'marks': '✓✗✓', 'history': [...]}``.
"""

from __future__ import annotations

import datetime as dt
import html
import numbers
from dataclasses import replace
from pathlib import Path

import anywidget
import ipywidgets
import numpy as np
import pandas as pd
import traitlets
from scipy import sparse

from perceptron_core.datasets import DataError
from perceptron_core.trace import EVENT_KINDS
from perceptron_lab.app_logic.datasource import Dataset, check_magnitudes
from perceptron_lab.app_logic.from_estimator import (
    changed_params,
    fit_estimator,
    fit_like_the_app,
    fitted_run,
    is_fitted,
    menu_key,
    passes_of,
)
from perceptron_lab.app_logic.learners import LEARNERS
from perceptron_lab.app_logic.payload import build_payload
from perceptron_lab.app_logic.playback_args import View
from perceptron_lab.app_logic.predictions import Predict, Question, Questions
from perceptron_lab.app_logic.style import Show
from perceptron_lab.app_logic.timeline import UPDATE_KINDS
from perceptron_lab.app_logic.training import check_run_size
from perceptron_lab.ui.standalone_page import (
    PLAYBACK,
    PLOTLY,
    About,
    about_run,
    fill,
    page_args,
    page_html,
    page_template,
    playback_file,
    version,
)


class PlaybackFiles(ipywidgets.Widget):
    """What every replay of a notebook needs, sent to the browser once per kernel (and saved
    once with the notebook): the replay's page with its run left out
    (:func:`ui.standalone_page.page_template`) and Plotly.js's basic bundle.

    A plain widget model with no view; each :class:`Replay` refers to it.
    """

    page = traitlets.Unicode("").tag(sync=True)
    plotly = traitlets.Unicode("").tag(sync=True)


_FILES: PlaybackFiles | None = None


def playback_files() -> PlaybackFiles:
    """This kernel's :class:`PlaybackFiles` (made again after ``Widget.close_all()``)."""
    global _FILES
    if _FILES is None or _FILES.comm is None:
        page = fill(page_template(), generator=html.escape(version()))
        _FILES = PlaybackFiles(page=page, plotly=playback_file(PLOTLY))
    return _FILES


class Replay(anywidget.AnyWidget):
    """A recorded run, replayed in the cell: the page of :mod:`ui.standalone_page`, built in the
    browser from the notebook's :class:`PlaybackFiles` and this run.

    Attributes
    ----------
    run : app_logic.training.Run
        The fit: ``run.estimator`` is the fitted estimator, ``run.timeline`` every step.
    data : app_logic.datasource.Dataset
        The data as the replay draws them (labels -1/+1).
    about : ui.standalone_page.About
        What the page says it shows.
    step : int
        The step the replay shows (0 before the first visit, ``t`` just after visit ``t``),
        shared with the browser: a reader's Step, key, scrub or Play changes it, and setting
        it moves the replay there. Observe it with ``replay.observe(f, "step")``.
    score : dict
        Predict mode's score for this run, kept by the replay and sent to Python after each
        answer: ``asked`` (questions answered or skipped), ``right``, ``skipped``, ``marks``
        (one per question, in order: ✓ right, ✗ wrong, – skipped) and ``history`` (per
        question: its ``step``, ``kind``, the ``answer`` given, the ``expected`` one, whether
        it was ``right``, whether ``skipped``). A frame shown again (the notebook reopened)
        goes on from it. Observe it with ``replay.observe(f, "score")``.
    """

    _esm = PLAYBACK / "notebook.js"
    files = traitlets.Instance(PlaybackFiles).tag(sync=True, **ipywidgets.widget_serialization)
    args = traitlets.Dict().tag(sync=True)
    payload = traitlets.Bytes().tag(sync=True)
    title = traitlets.Unicode("").tag(sync=True)
    header = traitlets.Unicode("").tag(sync=True)
    step = traitlets.Int(0).tag(sync=True)
    score = traitlets.Dict({"asked": 0, "right": 0, "skipped": 0, "marks": "", "history": []}).tag(
        sync=True
    )

    def __init__(self, run, data, payload, about: About, view: View = View()):
        self.run, self.data, self.about = run, data, about
        self._payload, self._view = payload, view
        args, blob = page_args(payload, run, data, view)
        super().__init__(
            files=playback_files(),
            args=args,
            payload=blob,
            title=about.title(),
            header=about.html(file=False),
            step=view.initial_t,
        )

    @traitlets.validate("step")
    def _step_in_the_run(self, proposal):
        step, last = proposal["value"], self.run.timeline.n_events
        if not 0 <= step <= last:
            raise traitlets.TraitError(
                f"step must be between 0 (before the first visit) and {last:,} (the last "
                f"visit); got {step}."
            )
        return step

    def question(self, step: int) -> Question | None:
        """The question predict mode asks before ``step`` with this replay's settings, and its
        right answer (:class:`app_logic.predictions.Question`); None where no question is
        asked. Computed in Python as the browser computes it."""
        return Questions([self.run], self.data, self._view.predict).at(step)

    def steps(self, kind: str = "mistake") -> np.ndarray:
        """The steps just after each visit of ``kind``, in order: a name of
        :data:`perceptron_core.trace.EVENT_KINDS`, or ``"update"`` (a mistake or a margin
        error). ``replay.step = replay.steps("mistake")[2]`` shows the third mistake's update.
        """
        tl = self.run.timeline
        if kind == "update":
            hits = np.isin(tl.kind, UPDATE_KINDS)
        elif kind in EVENT_KINDS:
            hits = tl.kind == EVENT_KINDS.index(kind)
        else:
            raise ValueError(
                f"kind must be one of {', '.join(EVENT_KINDS)} or update; got {kind!r}."
            )
        return np.flatnonzero(hits.any(axis=0)) + 1

    def to_html(self, path) -> Path:
        """Write the replay, at its current step, as one web page that plays offline."""
        view = replace(self._view, initial_t=self.step)
        path = Path(path)
        path.write_text(
            page_html(self._payload, self.run, self.data, self.about, view), encoding="utf-8"
        )
        return path


# -- your data as the app's ----------------------------------------------------------------


def _features(X, name: str) -> tuple[np.ndarray, tuple[str, ...] | None]:
    """``X`` as float64 points x features, and its column names if it is a DataFrame."""
    if sparse.issparse(X):
        raise DataError(
            f"{name} is a sparse matrix; the replay draws every point and needs a dense "
            f"array: pass {name}.toarray()."
        )
    names = None
    if isinstance(X, pd.DataFrame):
        text = [str(c) for c, kind in X.dtypes.items() if not pd.api.types.is_numeric_dtype(kind)]
        if text:
            raise DataError(
                f"{name}'s columns {', '.join(text)} are not numbers; every feature must be "
                "(encode them first)."
            )
        names = tuple(str(c) for c in X.columns)
    try:
        X = np.asarray(X, dtype=np.float64)
    except (TypeError, ValueError):
        raise DataError(
            f"{name} must be numbers in rows of equal length (points x features)."
        ) from None
    if X.ndim != 2 or X.shape[0] == 0 or X.shape[1] == 0:
        raise DataError(f"{name} must be a 2-D array (points x features); got shape {X.shape}.")
    if not np.isfinite(X).all():
        raise DataError(f"{name} holds NaN or infinite values; the learners need numbers.")
    check_magnitudes(X)  # the sizes the figure can compute with and draw, as in the app
    return X, names


def _labels(y, name: str, classes=None) -> tuple[np.ndarray, np.ndarray]:
    """``y`` as -1/+1 (the larger of two classes is +1), and the two classes."""
    y = np.asarray(y)
    if y.ndim == 2 and y.shape[1] == 1:
        y = y[:, 0]
    if y.ndim != 1:
        raise DataError(f"{name} must hold one label per point; got shape {y.shape}.")
    missing = np.flatnonzero(pd.isna(y))
    if len(missing):
        raise DataError(
            f"{name} has {len(missing):,} missing labels (None or NaN), the first at row "
            f"{missing[0]}; every point needs one of the two classes."
        )
    try:
        found = np.unique(y)
    except TypeError:
        raise DataError(
            f"{name} mixes kinds of labels (e.g. numbers and text); give both classes as one kind."
        ) from None
    if classes is None:
        if len(found) != 2:
            listed = ", ".join(map(str, found[:5])) + (", ..." if len(found) > 5 else "")
            raise DataError(f"show draws two classes; {name} has {len(found)} ({listed}).")
        classes = found
    elif not set(found.tolist()) <= set(classes.tolist()):
        raise DataError(f"{name} has classes that y has not: the classes are {classes.tolist()}.")
    return np.where(y == classes[1], 1, -1).astype(np.int8), classes


def dataset(
    X, y, X_test=None, y_test=None, title: str = "your data", feature_names=None
) -> Dataset:
    """Your arrays as the app's :class:`~app_logic.datasource.Dataset` (labels mapped to -1/+1:
    the larger class value is +1). ``X`` may be a NumPy array or a pandas DataFrame, whose
    column names label the axes; ``y`` any two labels, named in the legend.

    Raises
    ------
    DataError
        One line: what is wrong with the data, and what is accepted.
    """
    if not isinstance(title, str):
        raise DataError(f"title must be text (the data's name on the page); got {title!r}.")
    X, columns = _features(X, "X")
    y, classes = _labels(y, "y")
    if len(y) != len(X):
        raise DataError(f"X has {len(X)} rows but y has {len(y)} labels.")
    if X_test is None:
        X_test, y_test = np.empty((0, X.shape[1])), np.empty(0, dtype=np.int8)
    else:
        X_test, _ = _features(X_test, "X_test")
        y_test, _ = _labels(y_test, "y_test", classes)
        if X_test.shape[1] != X.shape[1] or len(y_test) != len(X_test):
            raise DataError(
                f"X_test must have X's {X.shape[1]} features and one label per row; got "
                f"{X_test.shape[1]} features, {len(X_test)} rows and {len(y_test)} labels."
            )
    names = feature_names if feature_names is not None else columns
    if names is None:
        names = tuple(f"x{i + 1}" for i in range(X.shape[1]))
    if len(names) != X.shape[1]:
        raise DataError(f"feature_names has {len(names)} names for {X.shape[1]} features.")
    return Dataset(
        X=X,
        y=y,
        X_test=X_test,
        y_test=y_test,
        flipped=np.zeros(len(X), bool),
        w_star=None,
        theta_star=None,
        feature_names=tuple(str(n) for n in names),
        class_names=(str(classes[0]), str(classes[1])),
        title=title,
    )


def _whole(value, name: str, low: int) -> int:
    """``value`` as an int of at least ``low``, or a one-line refusal."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < low:
        raise DataError(f"{name} must be a whole number, {low} or more; got {value!r}.")
    return int(value)


def _test_part(test) -> tuple:
    if test is None:
        return None, None
    if not isinstance(test, (tuple, list)) or len(test) != 2:
        raise DataError("test must be a pair (X_test, y_test) of held-out points and labels.")
    return tuple(test)


# -- show ---------------------------------------------------------------------------------


def _classes(data) -> str:
    negative, positive = data.class_names
    return f"{negative} (−1), {positive} (+1)"


def _menu_entry(key: str, settings: dict):
    """The menu's learner ``key``, once ``settings`` are found to be its own."""
    if key not in LEARNERS:
        raise ValueError(f"Unknown learner {key!r}; the menu has {', '.join(LEARNERS)}.")
    spec = LEARNERS[key]
    unknown = set(settings) - {s.name for s in spec.settings}
    if unknown:
        raise ValueError(
            f"{spec.title} has no setting {', '.join(sorted(unknown))}; its "
            f"settings are {', '.join(s.name for s in spec.settings)}."
        )
    return spec


def _fits_the_view(learner, X, epochs: int) -> None:
    """The app's limit on what a view records (:func:`app_logic.training.check_run_size`),
    on ``X``'s shape: before ``X`` is converted, and before anything is fitted."""
    shape = np.shape(X)
    if len(shape) == 2:
        check_run_size(learner, *shape, epochs)


def _menu_run(spec, data, epochs: int, seed: int, settings: dict) -> tuple:
    """A learner of the app's menu, fitted as the playground fits it."""
    run = fit_like_the_app(spec.key, spec.defaults() | settings, epochs, seed, data)
    about = about_run(run, data, epochs, seed)
    return run, replace(about, settings=about.settings | {"classes": _classes(data)}), seed


def _estimator_run(estimator, data, classes, seed) -> tuple:
    """An estimator of :mod:`perceptron_core`: its fit replayed (fitted on ``classes``), or
    a recorded clone's."""
    fitted = is_fitted(estimator)
    if fitted:
        run = fitted_run(estimator, data, classes)
    else:
        run = fit_estimator(estimator, data, seed)
    settings = changed_params(estimator)
    seed = run.estimator.get_params(deep=False).get("random_state")
    settings["random_state"] = seed
    settings["epochs run"] = len(run.timeline.mistakes_per_epoch())
    settings["training points"] = len(data.X)
    if len(data.X_test):
        settings["test points"] = len(data.X_test)
    settings["classes"] = _classes(data)
    settings["fitted"] = "by you" if fitted else "by show, recording every visit"
    about = About(
        type(estimator).__name__, data.title, settings, dt.date.today().isoformat(), version()
    )
    return run, about, 0 if seed is None else seed


def show(
    learner,
    X,
    y,
    *,
    epochs: int | None = None,
    seed: int | None = None,
    test=None,
    title: str = "your data",
    view: Show | None = None,
    predict: bool | Predict = False,
    **settings,
) -> Replay:
    """Replay a fit of ``learner`` on ``X, y``, every visit recorded, in the cell.

    Parameters
    ----------
    learner : estimator of perceptron_core, or str
        An estimator the playground draws (:data:`app_logic.learners.LEARNERS`): unfitted, it
        fits a clone recording every visit, with its own parameters; fitted with
        ``record="all"`` on these ``X, y``, that very fit. Or a key of the menu
        ("perceptron", "voted", "kw", ...) with its ``settings``.
    X : array-like or pandas DataFrame
        Points (n x d); a DataFrame's column names label the axes.
    y : array-like
        Their two classes (any two values, named in the legend; the larger is +1).
    epochs : int, optional
        A menu learner's passes (20 by default); an estimator's are its own.
    seed : int, optional
        The visits' order (0 by default): a menu learner's, or an estimator's whose
        ``random_state`` is None.
    test : tuple (X_test, y_test), optional
        Held-out points: hollow markers and the test error per epoch.
    title : str
        The data's name on the page.
    view : app_logic.style.Show, optional
        What the figure draws (the playground's View toggles).
    predict : bool or app_logic.predictions.Predict
        Open in predict mode: ``True`` asks before every step; a :class:`Predict` chooses the
        steps (``Predict(on=True, ask="updates")``) and the questions' seed (the run's seed by
        default). The student can switch it in the replay either way; the score is
        :attr:`Replay.score`.
    **settings
        A menu learner's settings by name (its defaults otherwise), e.g. ``tau=0.5``.

    Raises
    ------
    DataError
        The data, or the app's limits: too many points x epochs, a replay too large for a
        browser (before anything is fitted).
    ValueError
        An estimator the replay cannot draw, a parameter it cannot show, a fit without its
        record or on other data.
    """
    if epochs is not None:
        _whole(epochs, "epochs", 1)
    if seed is not None:
        _whole(seed, "seed", 0)
    if view is not None and not isinstance(view, Show):
        raise DataError(f"view must be an app_logic.style.Show; got {type(view).__name__}.")
    if not isinstance(predict, bool | Predict):
        raise DataError(
            f"predict must be True, False or an app_logic.predictions.Predict; got {predict!r}."
        )
    X_test, y_test = _test_part(test)
    if isinstance(learner, str):
        spec, epochs = _menu_entry(learner, settings), 20 if epochs is None else epochs
        _fits_the_view(spec, X, epochs)
        data = dataset(X, y, X_test, y_test, title)
        run, about, seed = _menu_run(spec, data, epochs, 0 if seed is None else seed, settings)
    else:
        key = menu_key(learner)  # an estimator the replay draws, before the data are converted
        given = [f"{k}={v!r}" for k, v in {"epochs": epochs, **settings}.items() if v is not None]
        if given:
            raise ValueError(
                f"show takes {type(learner).__name__}'s own parameters; set "
                f"{', '.join(given)} on the estimator (e.g. with set_params), not in show."
            )
        if not is_fitted(learner):
            _fits_the_view(LEARNERS[key], X, passes_of(learner, key))
        data = dataset(X, y, X_test, y_test, title)
        classes = np.unique(np.asarray(y))  # what -1 and +1 stand for (dataset checked y)
        run, about, seed = _estimator_run(learner, data, classes, seed)
    payload = build_payload(data, [run], seed)
    if not isinstance(predict, Predict):
        predict = Predict(on=predict, seed=seed)
    return Replay(run, data, payload, about, View(show=view or Show(), predict=predict))
