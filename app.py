"""Perceptron Lab's server: ``streamlit run app.py`` serves the pages listed in ``router.py``.

Before the server listens, it imports the app's modules (scikit-learn, numba,
Plotly), which the first visitor's page would otherwise wait for, reads the
lessons' titles for the menu, and sets what it made aside from Python's garbage
collector (it lives as long as the server). When numba's cache holds the first
page's learner, a thread of its own loads it while the first visitor's browser loads
Streamlit's page. Right after an install the cache is empty: the first page
then trains its small run uncompiled, with the same numbers, and the
learners compile in a child process in the background after the first page
(see :mod:`app_logic.training`).

Beside Streamlit's routes it serves the live class's websocket (``class_socket.py``).
"""

import gc
import importlib
import logging
import threading
from contextlib import asynccontextmanager
from pathlib import Path

import streamlit as st
from streamlit import config

from perceptron_lab import class_socket

HERE = Path(__file__).resolve().parent


def _log_like_streamlit() -> None:
    """The app's own log lines (logger ``perceptron_lab``) at Streamlit's ``logger.level``,
    in its server log."""
    logger = logging.getLogger("perceptron_lab")
    logger.setLevel(str(config.get_option("logger.level")).upper())
    if not logger.handlers:
        handler = logging.StreamHandler()
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(message)s"))
        logger.addHandler(handler)


@asynccontextmanager
async def first_page_ready(app):
    """Load what the first page needs, once per server process, before it serves anyone."""
    _log_like_streamlit()
    for package in ("app_logic", "ui"):
        for module in sorted((HERE / package).glob("*.py")):
            importlib.import_module(f"perceptron_lab.{package}.{module.stem}")
    # the menu's lesson titles: parsing the lessons is slow the first time, cached after
    importlib.import_module("perceptron_lab.ui.lesson").lessons(HERE / "lessons")
    # What the imports made lives as long as the server. Frozen, it is left out of Python's
    # full collections, which a class's views set off and which otherwise walk all of it,
    # holding the GIL (docs/benchmarks.md, "lean-views-floor").
    gc.collect()
    gc.freeze()
    training = importlib.import_module("perceptron_lab.app_logic.training")
    if training.first_page_learner_cached():  # else the first page trains uncompiled
        threading.Thread(
            target=training.WARMUP.ensure,
            args=(training.FIRST_PAGE_LEARNER,),
            name="first-page-learner",
            daemon=True,
        ).start()
    yield


# the live class's websocket beside Streamlit's routes (class_socket.py)
app = st.App(
    HERE / "router.py",
    lifespan=first_page_ready,
    routes=class_socket.routes(config.get_option("server.baseUrlPath") or ""),
)
