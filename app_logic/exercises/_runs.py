"""What several lessons' exercises compute from a page's run: the same learner fitted at
another value of one control, and the accuracy of a fit's predictors on the test half.

A "find a setting" exercise measures every value of the control the student moves; each fit
is the page's own (the menu's learner with the run's settings, epochs and seed, through
:meth:`app_logic.learners.Learner.make`), so the value the student sets scores what the page's
figure shows.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from perceptron_lab.app_logic.datasource import DataRequest, make_dataset


def refit(run, data, epochs: int | None = None, **changed):
    """``run``'s learner with ``changed`` settings, fitted on ``data`` with its seed and its
    epochs (or ``epochs``)."""
    from perceptron_lab.app_logic.learners import LEARNERS  # the menu imports every learner

    learner = LEARNERS[run.learner_key]
    est = learner.make({**run.values, **changed}, epochs or run.epochs, seed_of(run))
    X, y, _, _ = data.fit_data(learner.learns_classes)  # the class numbers for several classes
    return est.fit(X, y)


def seed_of(run) -> int:
    """The seed ``run`` was trained with (its estimator's ``random_state``)."""
    return int(run.estimator.get_params()["random_state"])


def test_accuracy(est, data, mode: str = "last") -> float:
    """Share of the test half ``est``'s predictor ``mode`` labels right."""
    if mode == "last":
        labels = est.predict(data.X_test)
    else:
        labels = est.predict_all(data.X_test)[mode]
    return float(np.mean(labels == data.y_test))


def with_noise(request: DataRequest, rate: float) -> DataRequest:
    """``request`` with exactly ``rate`` of its training labels flipped (none at 0)."""
    return dataclasses.replace(
        request, noise_kind="exact" if rate > 0 else "none", noise_rate=rate
    )


def with_option(request: DataRequest, name: str, value) -> DataRequest:
    """``request`` with its generator option ``name`` set to ``value``.

    Examples
    --------
    >>> with_option(DataRequest("separable", (("margin", 0.1), ("n_samples", 60))),
    ...             "margin", 0.4).options
    (('margin', 0.4), ('n_samples', 60))
    """
    options = tuple((key, value if key == name else old) for key, old in request.options)
    return dataclasses.replace(request, options=options)


def dataset(request: DataRequest):
    """The data ``request`` makes (as the page's data panel makes them)."""
    return make_dataset(request)


def study(facts, name: str, **settings):
    """The lesson study ``name`` the page's research box shows (for these settings): the
    lab's own reproduction a table exercise reads. A test hands the table in ``facts`` under
    the study's name."""
    if name in facts:
        return facts[name]
    from perceptron_lab.app_logic import lesson_studies

    return lesson_studies.result(name, settings)


def shown(value: float) -> float:
    """A table's number as the page shows it, to one decimal (what a student reads).

    Examples
    --------
    >>> shown(75.86)
    75.9
    """
    return round(float(value), 1)


def updates_per_value(facts, option: str, values) -> list[int]:
    """The updates the figure's learner makes on the data drawn at each of ``values`` of the
    generator's ``option`` (a slider's values), the rest of the figure's request kept."""
    return [
        int(refit(facts["run"], dataset(with_option(facts["request"], option, v))).n_updates_)
        for v in values
    ]
