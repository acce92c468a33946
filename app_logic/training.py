"""Training a learner of the menu for the pages: one recorded run, and the warm-up.

:func:`fit_run` fits a learner with every visit recorded and returns a
:class:`Run` (the estimator, its :class:`~app_logic.timeline.Timeline`, the
final predictions and the test errors per epoch), refusing runs too long or
too large for a browser to replay. The pages reach it through the cached
:func:`ui.runs.train`, so the same request never trains twice.

The learners' numba loops compile once per process (:data:`WARMUP`): the
first page run compiles only the learner it shows, then the background
thread compiles the others (in a child process first,
:func:`compile_in_child`, then loaded from numba's cache); a learner picked
before its turn compiles on first use.
"""

from __future__ import annotations

import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from app_logic.datasource import MAX_ANIMATED_VISITS, DataRequest, make_dataset
from app_logic.diagnostics import test_mistakes_per_epoch
from app_logic.learners import LEARNERS, LINE
from app_logic.timeline import Timeline
from app_logic.warmup import Warmup
from perceptron_core.datasets import DataError

#: The app's folder (app.py, router.py, ui/, app_logic/), first on sys.path under streamlit run.
APP_FOLDER = Path(__file__).resolve().parents[1]
#: The most memory one run's replay may hold: every hypothesis (updates x features x 8 bytes)
#: and every step. Building it (and the four predictors' scores) peaks at about 4.4 times
#: that: the largest runs allowed peaked at 198 MB (ringnorm, 60 to 500 features). A crafted
#: link (500 features, 200 epochs) once kept about 650 MB per run.
MAX_RUN_BYTES = 45_000_000
#: Bytes a replay keeps per recorded step (epoch, row, event, score, updates so far).
STEP_BYTES = 25


@dataclass(frozen=True, eq=False)
class Run:
    """One fit with its recorded timeline.

    Attributes
    ----------
    learner_key : str
    values : dict
        The settings used.
    estimator : fitted estimator
    timeline : Timeline
    fit_seconds : float
        Wall time of ``fit`` (recording included).
    final_train, final_test : dict
        ``{mode: labels}`` on the training and the test set from the core
        (``predict_all`` for learners with the four predictors).
    test_errors : ndarray
        Test errors of the hypothesis at the end of each epoch.
    """

    learner_key: str
    values: dict
    estimator: object
    timeline: Timeline
    fit_seconds: float
    final_train: dict
    final_test: dict
    test_errors: np.ndarray

    @property
    def learner(self):
        return LEARNERS[self.learner_key]


def _predictions(estimator, X, learner) -> dict:
    if len(X) == 0:
        return {}
    if learner.has_modes:
        return estimator.predict_all(X)
    return {"last": estimator.predict(X)}


def fit_run(learner_key: str, values: tuple, epochs: int, seed: int, X: np.ndarray,
            y: np.ndarray, X_test: np.ndarray, y_test: np.ndarray) -> Run:  # fmt: skip
    """Fit a learner from the menu, recording every visit (:func:`ui.runs.train` caches it).

    Raises
    ------
    DataError
        When the run would be too long to animate in a browser.
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
    visits = len(X) * epochs
    if visits > MAX_ANIMATED_VISITS:
        raise DataError(
            f"{len(X):,} points x {epochs} epochs is {visits:,} steps to record, more than the "
            f"{MAX_ANIMATED_VISITS:,} the browser view animates. Use fewer epochs or fewer points "
            "(the experiments page and the command line have no such limit)."
        )
    settings = dict(values)
    estimator = learner.make(settings, epochs, seed)
    start = time.perf_counter()
    estimator.fit(X, y)
    fit_seconds = time.perf_counter() - start
    _check_replay_size(learner, estimator.trace_, X.shape[1])
    timeline = learner.timeline(estimator, len(X))
    return Run(
        learner_key=learner_key,
        values=settings,
        estimator=estimator,
        timeline=timeline,
        fit_seconds=fit_seconds,
        final_train=_predictions(estimator, X, learner),
        final_test=_predictions(estimator, X_test, learner),
        test_errors=test_mistakes_per_epoch(timeline, X_test, y_test),
    )


def _check_replay_size(learner, trace, n_features: int) -> None:
    """Refuse, before it is built, a replay that would hold more than :data:`MAX_RUN_BYTES`.

    A line's replay keeps every hypothesis it went through; a committee's keeps one per
    epoch and a kernel's its dual counts, both small.
    """
    if learner.boundary != LINE:
        return
    history = trace.weight_history
    hypotheses = (len(trace.rows) if history is None else len(history)) + 1
    steps = len(trace.epoch)
    held = hypotheses * n_features * 8 + steps * STEP_BYTES
    if held > MAX_RUN_BYTES:
        raise DataError(
            f"This run made {hypotheses - 1:,} updates on {n_features:,} features over {steps:,} "
            f"steps: replaying it would hold {held / 1e6:,.0f} MB, more than the "
            f"{MAX_RUN_BYTES / 1e6:,.0f} MB a view may use. Use fewer epochs, fewer points or "
            "fewer features (the experiments page and the command line have no such limit)."
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
    fit_run(learner_key, defaults, 2, 0, data.X, data.y, data.X_test, data.y_test)


#: The child process of :func:`compile_in_child`: argv is the app's folder, then the learners.
_CHILD = """
import os, sys, threading
if hasattr(os, "nice"):
    os.nice(19)  # only the CPU that pages and browsers leave
def orphaned():  # stdin ends when the server process does: stop compiling for nobody
    sys.stdin.read()
    os._exit(0)
threading.Thread(target=orphaned, daemon=True).start()
sys.path.insert(0, sys.argv[1])
from app_logic.training import compile_learner
for key in sys.argv[2:]:
    compile_learner(key)
"""


def compile_in_child(keys: list[str]) -> None:
    """Compile ``keys`` into numba's on-disk cache in a child process at the lowest priority.

    numba's compiler is Python that holds the GIL: in a thread of the server, the
    background warm-up after an install slowed every page served meanwhile (the first
    figure's Plotly script arrived 1.3-1.6 s into the frame instead of 0.3 s). In a child,
    it takes only idle CPU, and this process then loads each learner from the cache.
    The child stops when this process ends. Raises ``subprocess.CalledProcessError``
    (with the child's output) when it fails.
    """
    command = [sys.executable, "-c", _CHILD, str(APP_FOLDER), *keys]
    pipes = {"stdin": subprocess.PIPE, "stdout": subprocess.PIPE, "stderr": subprocess.STDOUT}
    with subprocess.Popen(command, text=True, **pipes) as child:
        output = child.stdout.read()  # until the child ends; its stdin stays open till then
    if child.returncode:
        raise subprocess.CalledProcessError(child.returncode, command, output)


#: The learner of the app's first page (the playground's default in ui.learner_panel):
#: ``app.py`` starts loading it (or compiling it) as the server starts.
FIRST_PAGE_LEARNER = "perceptron"
#: Loading a learner from numba's cache takes about 0.2 s, compiling it 1 to 11 s.
COLD_CACHE_SECONDS = 1.0


def _compile_ahead(keys: list[str]) -> None:
    """:func:`compile_in_child`, unless the first page's learner came from a warm cache.

    Then the others load here quicker than a child process starts (a child there
    delayed the first figure after a restart by about 0.3 s).
    """
    first = WARMUP.status().done.get(FIRST_PAGE_LEARNER)
    if first is None or first.seconds >= COLD_CACHE_SECONDS:
        compile_in_child(keys)


#: This process's compilation of every learner in the menu, in menu order.
WARMUP = Warmup(LEARNERS, compile_learner, _compile_ahead)
