"""Cached work: data sets and trained runs, once per server process.

Every page gets what it computes through these functions, so the same
request (same settings, same seed) never trains twice and always gives the
same picture. Data sets and runs (:func:`app_logic.training.fit_run`) are
kept in the server's one memory budget (:data:`app_logic.memory.SERVER`),
shared by every session without a copy: pages treat a
:class:`~app_logic.datasource.Dataset` and a :class:`~app_logic.training.Run`
as read-only (a data set's arrays are). A small run of a learner not yet
compiled in this process trains uncompiled, with the same numbers; a larger
one waits for its compilation, under a spinner. A run stops between its parts
when the page that asked for it is closed or rerun.
"""

from __future__ import annotations

import logging
import time

import numpy as np
import streamlit as st

from perceptron_core._jit import uncompiled
from perceptron_lab.app_logic import training
from perceptron_lab.app_logic.datasource import DataRequest, Dataset, make_dataset
from perceptron_lab.app_logic.learners import LEARNERS
from perceptron_lab.app_logic.memory import SERVER, digest
from perceptron_lab.app_logic.training import Run, fit_run
from perceptron_lab.app_logic.view_cost import BASE_BYTES, view_bytes, with_cpu_check

log = logging.getLogger("perceptron_lab")


def _read_only(data: Dataset) -> Dataset:
    for array in (data.X, data.y, data.X_test, data.y_test, data.flipped):
        array.flags.writeable = False
    return data


def get_dataset(request: DataRequest) -> Dataset:
    """The data a request describes (see :func:`app_logic.datasource.make_dataset`)."""
    return SERVER.cached("datasets", request, lambda: _read_only(make_dataset(request)))


def still_wanted():
    """A check that raises when the page run that asked for work no longer wants it: its
    visitor closed the tab, or a rerun replaced it (Streamlit's own stop and rerun, which
    otherwise wait for the next ``st.*`` call, after the work). Outside a page run (a
    download's worker thread) there is nothing to ask: the work goes on."""
    try:  # Streamlit's own check (1.67 has it; an older one has none, and the work, within
        # the view's CPU budget, runs to its end)
        from streamlit.runtime.scriptrunner_utils.script_run_context import get_run_yield_check
    except ImportError:
        return lambda: None
    return get_run_yield_check() or (lambda: None)


def train(
    learner_key: str,
    values: tuple,
    epochs: int,
    seed: int,
    X: np.ndarray,
    y: np.ndarray,
    X_test: np.ndarray,
    y_test: np.ndarray,
) -> Run:
    """:func:`fit_run`, once per request and server process.

    A learner that has not been compiled in this process yet trains a small
    run uncompiled (:func:`app_logic.training.runs_uncompiled`); for a larger
    one it compiles first, under a spinner that says so (or waits for the
    background warm-up, which may be compiling it right now).
    """
    key = (learner_key, values, epochs, seed, digest(X, y, X_test, y_test))
    interrupt = with_cpu_check(still_wanted())

    def fit() -> Run:
        start = time.perf_counter()
        run = fit_run(learner_key, values, epochs, seed, X, y, X_test, y_test, interrupt=interrupt)
        # one line per run trained (at Streamlit's logger.level info): a class's view is
        # trained once per process, whoever asks (benchmarks/bench_class.py counts them)
        log.info("trained a run of %s, %d epochs, in %.2f s", learner_key, epochs,
                 time.perf_counter() - start)  # fmt: skip
        return run

    if training.runs_uncompiled(learner_key, X, epochs):
        with uncompiled():
            return SERVER.cached("runs", key, fit)
    if not training.WARMUP.ready(learner_key):
        with st.spinner(
            f"Compiling {LEARNERS[learner_key].title} for its first use on this server "
            "(numba, once per server process: a second or two from numba's cache, up to "
            "half a minute right after an install)…"
        ):
            training.WARMUP.ensure(learner_key)
    return SERVER.cached("runs", key, fit)


def view_key(request: DataRequest, lanes: tuple[str, ...], values: dict, epochs: int) -> tuple:
    """What makes a playground view the same as another (the admission gate's single flight):
    its data, its learners (the first with ``values``, the compared ones with their defaults)
    and its epochs."""
    return (request, lanes, tuple(sorted(values.items())), epochs)


def view_estimate(data: Dataset | None, lanes: tuple[str, ...], epochs: int):
    """The bytes making the view of ``lanes`` on ``data`` allocates
    (:func:`app_logic.view_cost.view_bytes`), as the gate asks for them; compare mode draws
    2-D data only, so other data make one lane."""
    if data is None:
        return lambda: BASE_BYTES
    shown = lanes if data.n_features == 2 else lanes[:1]
    size = view_bytes(len(data.X), len(data.X_test), data.n_features, epochs, shown)
    return lambda: size
