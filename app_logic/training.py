"""Training a learner of the menu for the pages: one recorded run, and the warm-up.

:func:`fit_run` fits a learner with every visit recorded and returns a
:class:`Run` (the estimator, its :class:`~app_logic.timeline.Timeline`, the
final predictions and the test errors per epoch), refusing runs too long or
too large for a browser to replay. The pages reach it through the cached
``train`` in ``ui/runs.py``, so the same request never trains twice.

The learners' numba loops compile once per process (:data:`WARMUP`). Until
a learner is compiled, a page trains a small run of it uncompiled
(:func:`runs_uncompiled`: the same code as plain Python, the same numbers),
so no page waits for numba after an install. After the first page the
background thread compiles every learner (in a child process first when
numba's cache is cold, :func:`compile_in_child`, then loaded from that
cache); a larger run of a learner picked before its turn compiles it on
first use.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from perceptron_core._jit import is_cached
from perceptron_core._validation import OverflowedWarning, range_problems
from perceptron_core.datasets import DataError
from perceptron_core.engine import kw_trainer
from perceptron_core.engine.chunks import between_chunks
from perceptron_lab.app_logic.datasource import MAX_ANIMATED_VISITS, DataRequest, make_dataset
from perceptron_lab.app_logic.diagnostics import test_mistakes_per_epoch
from perceptron_lab.app_logic.learners import LEARNERS, LINE
from perceptron_lab.app_logic.lesson_studies import prepare_in_background
from perceptron_lab.app_logic.timeline import Timeline
from perceptron_lab.app_logic.warmup import Warmup, in_child_process

#: The most memory one run's replay may hold: every hypothesis (updates x features x 8 bytes)
#: and every step. A run is refused before it starts when it could hold more
#: (:func:`check_run_size`, with one update per visit, the most there can be).
MAX_RUN_BYTES = 45_000_000
#: Bytes a replay keeps per recorded step (epoch, row, event, score, updates so far).
STEP_BYTES = 25
#: Serial numbers of runs: a payload is cached under its runs' numbers, never reused.
_SERIALS = itertools.count()


@dataclass(frozen=True, eq=False)
class Run:
    """One fit with its recorded timeline.

    Attributes
    ----------
    learner_key : str
    values : dict
        The settings used.
    epochs : int
        The epochs asked for (the run may have stopped earlier, after an epoch without an
        update).
    estimator : fitted estimator
    timeline : Timeline
    fit_seconds : float or None
        Wall time of ``fit`` (recording included); None for a fit made before
        :func:`fit_run` was called (a notebook's fitted estimator).
    final_train, final_test : dict
        ``{mode: labels}`` on the training and the test set from the core
        (``predict_all`` for learners with the four predictors).
    test_errors : ndarray
        Test errors of the hypothesis at the end of each epoch.
    notes : tuple of str
        What the visitor should know of the run's numbers: features too small
        or far from the scale the learner's defaults are meant for
        (:func:`perceptron_core._validation.range_problems`).
    serial : int
        This run's number, unique in the process (a key that does not hold the run).
    """

    learner_key: str
    values: dict
    epochs: int
    estimator: object
    timeline: Timeline
    fit_seconds: float | None
    final_train: dict
    final_test: dict
    test_errors: np.ndarray
    notes: tuple[str, ...] = ()
    serial: int = field(default_factory=lambda: next(_SERIALS))

    @property
    def learner(self):
        return LEARNERS[self.learner_key]


#: The most voted scores one view computes: the sign of every hypothesis's score on every
#: training and test point (points x updates), the work of a voted prediction however it is
#: arranged. Its share of a view's CPU budget: docs/deploy.md ("CPU per view").
MAX_VOTED_SCORES = 2_000_000_000
#: Voted scores computed between two looks at whether the visitor still wants them.
SCORES_PER_CHUNK = 200_000_000


def check_voted_cost(learner, timeline, n_points: int) -> None:
    """Refuse, before they start, voted predictions on ``n_points`` training and test points
    that would compute more than :data:`MAX_VOTED_SCORES` scores, saying what would fit.

    A run's first epochs are those of a run with fewer epochs (the same seed gives the same
    visiting orders), so the epochs offered fit exactly; the points offered are an estimate
    (updates grow with the points, so the scores with their square).

    Raises
    ------
    DataError
    """
    per_epoch = timeline.mistakes_per_epoch()
    scores = n_points * int(per_epoch.sum())
    if scores <= MAX_VOTED_SCORES:
        return
    fitting = int(np.searchsorted(n_points * np.cumsum(per_epoch), MAX_VOTED_SCORES, "right"))
    points = int(n_points * (MAX_VOTED_SCORES / scores) ** 0.5)
    points = int(float(f"{points:.2g}"))  # an estimate: two digits
    advice = (
        f"Use at most {fitting:,} epoch{'s' * (fitting != 1)}, or fewer points"
        if fitting >= 1
        else f"Use fewer points (about {points:,} at these epochs)"
    )
    raise DataError(
        f"{learner.title}'s voted predictor would score each of the run's "
        f"{int(per_epoch.sum()):,} updates on each of the {n_points:,} points: {scores:,} "
        f"voted scores, more than the {MAX_VOTED_SCORES:,} a view may compute (its CPU "
        f"budget, docs/deploy.md). {advice}, or a learner without the voted predictor "
        "(the experiments page and the command line have no such limit)."
    )


def _predictions(estimator, X, learner, updates: int, interrupt: Callable[[], None]) -> dict:
    """The final predictions on ``X``; with the four predictors, in chunks of rows of about
    :data:`SCORES_PER_CHUNK` voted scores (rows x ``updates``), asking ``interrupt()`` before
    each."""
    if len(X) == 0:
        return {}
    if not learner.has_modes:
        return {"last": estimator.predict(X)}
    step = max(256, SCORES_PER_CHUNK // max(updates, 1))
    parts = []
    for start in range(0, len(X), step):
        interrupt()
        parts.append(estimator.predict_all(X[start : start + step]))
    return {mode: np.concatenate([part[mode] for part in parts]) for mode in parts[0]}


def fit_run(
    learner_key: str,
    values: tuple,
    epochs: int,
    seed: int,
    X: np.ndarray,
    y: np.ndarray,
    X_test: np.ndarray,
    y_test: np.ndarray,
    estimator=None,
    interrupt: Callable[[], None] = lambda: None,
) -> Run:
    """Fit a learner from the menu, recording every visit (``train`` in ``ui/runs.py`` caches it).

    ``estimator``, when given, stands for the menu's (the notebook's ``show``,
    :mod:`app_logic.from_estimator`): an estimator of the entry's class set to record every
    visit, fitted here; or one fitted so already (it holds its ``trace_``), whose fit is
    replayed as it is, ``epochs`` being the epochs it recorded.

    ``interrupt()`` is called between the parts of the work and may raise to stop it: the
    app passes Streamlit's check that the visitor's page still wants it (it raises once the
    tab is closed, or a rerun replaces the page's run).

    Raises
    ------
    DataError
        When the run would be too long to animate in a browser, or its voted predictions
        would cost more than a view may (:func:`check_voted_cost`).
    ValueError
        The estimator's own message for impossible settings.
    """
    learner = LEARNERS[learner_key]
    if learner.max_points is not None and len(X) > learner.max_points:
        raise DataError(
            f"{learner.title} redraws its curved boundary from every support point at "
            f"each step; with {len(X):,} points that is too slow for the browser view (at most "
            f"{learner.max_points:,}). Use fewer points or a linear learner."
        )
    check_run_size(learner, *X.shape, epochs, n_classes=len(np.unique(y)))
    settings = dict(values)
    if estimator is None:
        estimator = learner.make(settings, epochs, seed)
    fit_seconds = None
    if not hasattr(estimator, "trace_"):  # not fitted yet (a fit with its record has one)
        start = time.perf_counter()
        with between_chunks(interrupt):  # the on-line rules ask it between pieces of the fit
            estimator.fit(X, y)
        fit_seconds = time.perf_counter() - start
    problems = range_problems(estimator, X)
    for category, message in problems:
        if category is OverflowedWarning:  # no figure can draw infinite numbers
            raise DataError(message)
    interrupt()
    timeline = learner.timeline(estimator, len(X))
    interrupt()
    updates = int(timeline.mistakes_per_epoch().sum())
    if learner.has_modes:
        check_voted_cost(learner, timeline, len(X) + len(X_test))
    return Run(
        learner_key=learner_key,
        values=settings,
        epochs=epochs,
        estimator=estimator,
        timeline=timeline,
        fit_seconds=fit_seconds,
        final_train=_predictions(estimator, X, learner, updates, interrupt),
        final_test=_predictions(estimator, X_test, learner, updates, interrupt),
        test_errors=test_mistakes_per_epoch(timeline, X_test, y_test, interrupt),
        notes=tuple(message for _, message in problems),
    )


def check_run_size(
    learner, n_points: int, n_features: int, epochs: int, n_classes: int = 2
) -> None:
    """Refuse a run, before anything is allocated, that would record too much.

    A run records every visit (:data:`STEP_BYTES` each, at most
    :data:`~app_logic.datasource.MAX_ANIMATED_VISITS` of them); a line's
    replay also keeps every hypothesis it goes through, one per update and
    at most one update per visit (a learner of ``n_classes`` classes together: every class's
    score per step and every class's ``(w, θ)`` per update). That most it could hold must stay
    within
    :data:`MAX_RUN_BYTES`, whatever the data turn out to need: a committee
    keeps one hypothesis per epoch and a kernel its dual counts, both small.

    Raises
    ------
    DataError
        With the numbers, and the epochs that would fit.

    Examples
    --------
    >>> check_run_size(LEARNERS["perceptron"], 100, 2, 20)
    >>> check_run_size(LEARNERS["alma"], 2000, 500, 200)
    Traceback (most recent call last):
    ...
    perceptron_core.datasets.DataError: 2,000 points x 200 epochs is 400,000 steps, ...
    """
    visits = n_points * epochs
    if visits > MAX_ANIMATED_VISITS:
        raise DataError(
            f"{n_points:,} points x {epochs} epochs is {visits:,} steps to record, more than "
            f"the {MAX_ANIMATED_VISITS:,} the browser view animates. Use fewer epochs or fewer "
            "points (the experiments page and the command line have no such limit)."
        )
    per_visit = STEP_BYTES + (n_features * 8 if learner.boundary == LINE else 0)
    if learner.learns_classes:  # every class's score per step, every class's (w, θ) per update
        per_visit += 8 * n_classes + 8 * n_classes * (n_features + 1)
    most = per_visit * visits
    if most > MAX_RUN_BYTES:
        fitting = MAX_RUN_BYTES // (per_visit * max(n_points, 1))
        advice = (f"Use at most {fitting:,} epochs, or" if fitting >= 1 else "Use") + (
            " fewer points or fewer features (the experiments page and the command line "
            "have no such limit)."
        )
        raise DataError(
            f"{n_points:,} points x {epochs} epochs is {visits:,} steps, each of which may "
            f"update {learner.title}'s {n_features:,} weights: replaying the run could hold "
            f"{most / 1e6:,.0f} MB, more than the {MAX_RUN_BYTES / 1e6:,.0f} MB a view may use. "
            + advice
        )


def compile_learner(learner_key: str) -> None:
    """Compile one learner's loops by training it on a few points, the way the pages do.

    The same :func:`fit_run` as a real run (fit, the four predictors,
    timeline, test errors) on float 2-D data with a test part, so every
    compiled function a default page calls is ready afterwards.

    Examples
    --------
    >>> compile_learner("perceptron")
    """
    data = make_dataset(DataRequest("separable", (("n_samples", 20),), test_fraction=0.25))
    defaults = tuple(sorted(LEARNERS[learner_key].defaults().items()))
    learns_classes = LEARNERS[learner_key].learns_classes
    if learns_classes:  # its default page's data: three classes
        data = make_dataset(DataRequest("three_classes", (("n_samples", 21),), test_fraction=0.25))
    fit_run(learner_key, defaults, 2, 0, *data.fit_data(learns_classes))


def compile_learners(*keys: str) -> None:
    """:func:`compile_learner` for each of ``keys``, in turn (:func:`compile_in_child`)."""
    for key in keys:
        compile_learner(key)


def compile_in_child(keys: list[str]) -> None:
    """Compile ``keys`` into numba's on-disk cache in a child process at the lowest priority
    (:func:`app_logic.warmup.in_child_process`); this process then loads them from the cache.
    """
    in_child_process("perceptron_lab.app_logic.training", "compile_learners", *keys)


#: The learner of the app's first page (the playground's default in ui/learner_panel.py):
#: ``app.py`` starts loading it as the server starts, when numba's cache has it.
FIRST_PAGE_LEARNER = "perceptron"
#: The largest runs a page trains uncompiled while their learner is not compiled yet, in
#: visits and in features: small enough for plain Python to train while the visitor waits
#: (``benchmarks/bench_app.py`` times it). Up to 3 features, a dot product adds its terms in the
#: order the compiled loop does, so both give the same numbers; on longer rows the
#: compiled loop may sum in vector lanes, and the last bits differ.
UNCOMPILED_VISITS = 20_000
UNCOMPILED_FEATURES = 3


def first_page_learner_cached() -> bool:
    """Whether numba's on-disk cache holds the first page's learner (the KW driver).

    It does not right after an install, or after an edit of a file compiled into it.
    """
    return is_cached(kw_trainer.run_epochs)


def runs_uncompiled(learner_key: str, X: np.ndarray, epochs: int) -> bool:
    """Whether a page should train this run uncompiled rather than wait for a compilation:
    its learner is not compiled in this process yet and the run is small (see
    :data:`UNCOMPILED_VISITS`)."""
    small = len(X) * epochs <= UNCOMPILED_VISITS and X.shape[1] <= UNCOMPILED_FEATURES
    return small and not WARMUP.ready(learner_key)


def _compile_ahead(keys: list[str]) -> None:
    """:func:`compile_in_child`, unless numba's cache holds the first page's learner.

    Then the others load here quicker than a child process starts (a child
    started then competes with the browser drawing the first figure).
    """
    if not first_page_learner_cached():
        compile_in_child(keys)


#: This process's compilation of every learner in the menu, in menu order.
#: After the learners, its thread prepares the lessons' studies (:mod:`app_logic.lesson_studies`).
WARMUP = Warmup(LEARNERS, compile_learner, _compile_ahead, then=prepare_in_background)
