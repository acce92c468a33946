"""A researcher's estimator as a run of the playground's replay (the notebook's ``show``).

``show(estimator, X, y)`` (``widget/``) replays any estimator of :mod:`perceptron_core` that
the playground's menu (:data:`app_logic.learners.LEARNERS`) can draw, with the estimator's
own parameters:

* unfitted: :func:`fit_estimator` fits a clone that records every visit (``record="all"``)
  through the app's own :func:`app_logic.training.fit_run`, so under the view's limits,
  checked before the fit;
* fitted with ``record="all"``: :func:`fitted_run` replays that very fit, through the same
  :func:`~app_logic.training.fit_run` (which does not fit it again), once
  :func:`check_fitted_on` has found the data given to be those it was fitted on.

The menu's entry is that of the estimator's class or of its nearest base: an
``AveragedKernelPerceptron`` replays as the kernel perceptron, showing its averaged
predictor. The replay reads the fitted estimator (its record, its kernel, its threshold), so
every parameter that changes the fit shows in it; the few it cannot show are refused in one
line that names them (:func:`check_showable`), as are estimators the menu cannot draw.

Examples
--------
>>> from perceptron_core import KWPerceptron
>>> from perceptron_lab.app_logic.datasource import DataRequest, make_dataset
>>> data = make_dataset(DataRequest("gaussians", (("n_samples", 40),)))
>>> run = fit_estimator(KWPerceptron(tau=0.5, epochs=3, random_state=1), data)
>>> run.learner_key, run.values["tau"], run.timeline.n_events
('kw', 0.5, 120)
>>> fitted = KWPerceptron(tau=0.5, epochs=3, random_state=1, record="all").fit(data.X, data.y)
>>> bool((fitted_run(fitted, data).timeline.kind == run.timeline.kind).all())
True
"""

from __future__ import annotations

import numbers
import warnings
from dataclasses import replace
from functools import partial

import numpy as np
from sklearn.base import clone
from sklearn.exceptions import NotFittedError
from sklearn.utils.validation import check_is_fitted

from perceptron_core._jit import uncompiled
from perceptron_lab.app_logic.learners import LEARNERS
from perceptron_lab.app_logic.training import Run, fit_run, runs_uncompiled


def menu_key(estimator) -> str:
    """The menu entry that replays ``estimator``: its class's, or its nearest base's.

    Raises
    ------
    ValueError
        One line: the menu draws no such estimator, and which it draws.

    Examples
    --------
    >>> from perceptron_core import AveragedKernelPerceptron, PAUMPerceptron, Winnow
    >>> menu_key(PAUMPerceptron()), menu_key(AveragedKernelPerceptron())
    ('paum', 'kernel')
    >>> menu_key(Winnow())
    Traceback (most recent call last):
    ...
    ValueError: The playground's replay has no entry for Winnow; show replays ...
    """
    for cls in type(estimator).__mro__:
        for key, learner in LEARNERS.items():
            if learner.cls is cls:
                return key
    drawn = ", ".join(sorted({learner.cls.__name__ for learner in LEARNERS.values()}))
    hint = " (a search: pass its best_estimator_)" if hasattr(estimator, "best_estimator_") else ""
    raise ValueError(
        f"The playground's replay has no entry for {type(estimator).__name__}{hint}; show "
        f"replays one recorded on-line run of {drawn}, or a menu name ({', '.join(LEARNERS)})."
    )


def check_showable(estimator) -> None:
    """Refuse, naming it, a parameter whose effect the replay cannot draw.

    The browser evaluates the built-in kernels on its grid, so a kernel function cannot be
    drawn; a seed is replayed as a number, so ``random_state`` must be an int or None.

    Raises
    ------
    ValueError
        One line naming the parameter and what the replay accepts.
    """
    name, params = type(estimator).__name__, estimator.get_params(deep=False)
    if callable(params.get("kernel")):
        raise ValueError(
            f"{name}'s kernel={params['kernel']!r} cannot be replayed: the replay draws the "
            'boundary of kernel="rbf", "poly" or "linear" in the browser, not of a kernel '
            "function."
        )
    seed = params.get("random_state")
    if seed is not None and not isinstance(seed, numbers.Integral):
        raise ValueError(
            f"{name}'s random_state (a {type(seed).__name__}) cannot be replayed: pass an int "
            "(the visits' order is then the estimator's own) or None."
        )


def changed_params(estimator) -> dict:
    """The estimator's parameters that differ from its class's defaults (``record`` apart:
    a replay always records every visit), as scikit-learn's repr shows them.

    Examples
    --------
    >>> from perceptron_core import PAUMPerceptron
    >>> changed_params(PAUMPerceptron(tau_neg=0.5, max_epochs=10, record="all"))
    {'max_epochs': 10, 'tau_neg': 0.5}
    """
    defaults = type(estimator)().get_params(deep=False)
    return {
        name: value
        for name, value in estimator.get_params(deep=False).items()
        if name != "record" and value != defaults.get(name)
    }


def settings_of(estimator, key: str) -> dict:
    """The run's settings: the menu's settings in the menu's units (an α-bound of None is 0),
    the predictor the estimator answers with, and every other parameter not at its default.

    Examples
    --------
    >>> from perceptron_core import VotedPerceptron
    >>> settings_of(VotedPerceptron(lam=0.5, C=2.0, shuffle=False, epochs=5), "voted")
    {'eta': 0.1, 'tau': 0.0, 'lam': 0.5, 'alpha_bound': 0, 'predict_with': 'voted', \
'C': 2.0, 'shuffle': False}
    """
    learner = LEARNERS[key]
    params = estimator.get_params(deep=False)
    values = {}
    for setting in learner.settings:
        if setting.name in params:
            value = params[setting.name]
            off = value is None and setting.none_at != "never"
            values[setting.name] = setting.none_at if off else value
    if learner.has_modes:
        values["predict_with"] = estimator.predict_with
    passes = (learner.epochs_name, "random_state")
    for name, value in changed_params(estimator).items():
        if name not in values and name not in passes:
            values[name] = value
    return values


def passes_of(estimator, key: str) -> int:
    """The epochs the estimator's fit may run (one pass when it has no such parameter)."""
    return int(estimator.get_params(deep=False).get(LEARNERS[key].epochs_name, 1))


def seed_of(estimator, seed: int | None) -> int:
    """The visits' order: the estimator's ``random_state``, else ``seed`` (0 if None).

    Raises
    ------
    ValueError
        When both are given and differ (the replay would not be the estimator's fit).
    """
    own = estimator.get_params(deep=False).get("random_state")
    if own is None:
        return 0 if seed is None else int(seed)
    if seed is not None and int(seed) != int(own):
        raise ValueError(
            f"seed={seed} differs from the estimator's random_state={own}; the replay fits "
            "with the estimator's own: leave seed out, or set random_state."
        )
    return int(own)


def fit_like_the_app(key: str, values: dict, epochs: int, seed: int, data, estimator=None) -> Run:
    """:func:`app_logic.training.fit_run` on ``data`` (a :class:`~app_logic.datasource.Dataset`)
    as a page calls it: a small run of a learner not compiled yet in this process trains
    uncompiled (:func:`app_logic.training.runs_uncompiled`), with the same numbers."""
    parts = data.fit_data(LEARNERS[key].learns_classes)
    settings = tuple(sorted(values.items()))
    fit = partial(fit_run, key, settings, epochs, seed, *parts, estimator=estimator)
    if runs_uncompiled(key, data.X, epochs):
        with uncompiled():
            return fit()
    return fit()


def fit_estimator(estimator, data, seed: int | None = None) -> Run:
    """Fit a clone of the unfitted ``estimator`` on ``data`` recording every visit, within the
    view's limits (checked before the fit), and return its :class:`~app_logic.training.Run`.

    Parameters
    ----------
    estimator : unfitted estimator of :mod:`perceptron_core`
    data : app_logic.datasource.Dataset
    seed : int, optional
        The visits' order when the estimator's ``random_state`` is None (:func:`seed_of`).
    """
    key = menu_key(estimator)
    check_showable(estimator)
    seed = seed_of(estimator, seed)
    params = {"record": "all"}
    if "random_state" in estimator.get_params(deep=False):
        params["random_state"] = seed
    recording = clone(estimator).set_params(**params)
    values = settings_of(estimator, key)
    return fit_like_the_app(key, values, passes_of(estimator, key), seed, data, recording)


def is_fitted(estimator) -> bool:
    """Whether ``estimator`` has been fitted (scikit-learn's test)."""
    try:
        check_is_fitted(estimator)
    except NotFittedError:
        return False
    return True


def recorded_traces(estimator) -> list:
    """The traces of a fit that recorded every visit (one per committee member).

    Raises
    ------
    ValueError
        One line when the fit kept no record of every visit: fit with ``record="all"``, or
        pass the estimator unfitted.
    """
    name = type(estimator).__name__
    record = estimator.get_params(deep=False).get("record")
    trace = getattr(estimator, "trace_", None)
    traces = trace if isinstance(trace, list) else [trace]
    if trace is None or isinstance(trace, dict) or not all(t.visits for t in traces):
        raise ValueError(
            f"This {name} was fitted with record={record!r}, which keeps no record of every "
            f'visit to replay: fit it with record="all", or pass it unfitted and show fits it.'
        )
    return traces


def check_fitted_on(estimator, data, classes=(-1, 1)) -> None:
    """Refuse ``data`` (a :class:`~app_logic.datasource.Dataset`, whose labels -1/+1 stand for
    ``classes``) unless it holds the data ``estimator`` was fitted on, as far as its fit tells:
    the classes, the features, the
    points visited per epoch, every point it updated on (the record keeps them), and the
    label each additive update moved towards (``w += coef * x``, ``coef`` of the label's sign).

    Raises
    ------
    ValueError
        One line: what differs, and what to pass instead.
    """
    name, X, y = type(estimator).__name__, data.X, data.y
    advice = "pass the X, y it was fitted on, or the estimator unfitted (show then fits it)"
    traces = recorded_traces(estimator)
    fitted = np.asarray(estimator.classes_)
    if fitted.shape != np.shape(classes) or not (fitted == np.asarray(classes)).all():
        raise ValueError(
            f"This {name} was fitted on the classes {', '.join(map(str, fitted))} and y has "
            f"{', '.join(map(str, classes))}: {advice}."
        )
    n_features = getattr(estimator, "n_features_in_", X.shape[1])
    if n_features != X.shape[1]:
        raise ValueError(
            f"This {name} was fitted on {n_features} features and X has {X.shape[1]}: {advice}."
        )
    visits = np.bincount(traces[0].epoch)
    if not (visits == len(X)).all():
        raise ValueError(
            f"This {name}'s record visits {visits[0]:,} points per epoch and X has "
            f"{len(X):,} rows: {advice}."
        )
    for trace in traces:
        rows = np.fromiter(trace.x_rows, dtype=np.int64, count=len(trace.x_rows))
        if len(rows):
            kept = np.stack([np.asarray(trace.x_rows[int(r)], np.float64) for r in rows])
            differ = rows[(X[rows] != kept).any(axis=1)]
            if len(differ):
                raise ValueError(
                    f"Row {differ[0]} of X is not the point this {name} updated on there: "
                    f"{advice}."
                )
        if hasattr(trace, "true"):  # classes learned together: each update's true class
            against = trace.rows[trace.true != data.class_labels()[0][trace.rows]]
            if len(against):
                raise ValueError(
                    f"y[{against[0]}] is not the class this {name}'s update on row "
                    f"{against[0]} moved towards: {advice}."
                )
        elif trace.weight_history is None and len(trace.rows):  # additive updates
            against = trace.rows[np.sign(trace.coef) != y[trace.rows]]
            if len(against):
                raise ValueError(
                    f"y[{against[0]}] is not the label this {name}'s update on row "
                    f"{against[0]} moved towards: {advice}."
                )


def fitted_run(estimator, data, classes=(-1, 1)) -> Run:
    """The :class:`~app_logic.training.Run` of a fit made elsewhere with ``record="all"``:
    that very fit, replayed, once its data and the view's limits allow it.

    Parameters
    ----------
    estimator : fitted estimator of :mod:`perceptron_core`
    data : app_logic.datasource.Dataset
        The data it was fitted on (its labels -1/+1 here), and any test part.
    classes : sequence of two labels
        What -1 and +1 stand for: the labels the estimator was fitted with.

    Raises
    ------
    ValueError
        Not a fit the replay can show, or not on these data (:func:`check_fitted_on`).
    DataError
        A record longer than the view replays (:func:`app_logic.training.fit_run`'s checks).
    """
    key = menu_key(estimator)
    check_showable(estimator)
    check_fitted_on(estimator, data, classes)
    epochs = len(recorded_traces(estimator)[0].epoch) // len(data.X)
    own = estimator.get_params(deep=False).get("random_state")
    with warnings.catch_warnings():
        # the replay predicts on X as an array, the estimator may know it as a DataFrame
        warnings.filterwarnings("ignore", "X does not have valid feature names", UserWarning)
        run = fit_like_the_app(
            key, settings_of(estimator, key), epochs, own or 0, data, estimator=estimator
        )
    # its predictions are in the labels it was fitted with; the replay's are -1/+1 (the class
    # numbers 0, 1 for a learner of the classes together)
    positive, learns_classes = estimator.classes_[-1], run.learner.learns_classes

    def code(labels):
        if learns_classes:
            return np.searchsorted(estimator.classes_, labels)
        return np.where(labels == positive, 1, -1)

    signs = {
        part: {mode: code(labels) for mode, labels in found.items()}
        for part, found in (("final_train", run.final_train), ("final_test", run.final_test))
    }
    return replace(run, **signs)
