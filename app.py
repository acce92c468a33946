"""Perceptron Lab's server: ``streamlit run app.py`` serves the pages listed in ``router.py``.

Before the server listens, it imports the app's modules (scikit-learn, numba,
Plotly: 1.6-2 s that the first visitor's page otherwise waited for) and
reads the lessons' titles for the menu (0.2 s the first time), then starts
loading the first page's learner from numba's cache (0.2 s), or compiling it
right after an install (5-11 s on our test machine), in a thread of its own:
the first visitor's browser loads Streamlit's page meanwhile, and the page
waits only for what is left. The other learners compile in the background after
the first page, see :mod:`app_logic.training`.
"""

import importlib
import sys
import threading
from contextlib import asynccontextmanager
from pathlib import Path

import streamlit as st

HERE = Path(__file__).resolve().parent


@asynccontextmanager
async def first_page_ready(app):
    """Load what the first page needs, once per server process, before it serves anyone."""
    if str(HERE) not in sys.path:  # the pages import their parts as ui.... and app_logic....
        sys.path.insert(0, str(HERE))
    for package in ("app_logic", "ui"):
        for module in sorted((HERE / package).glob("*.py")):
            importlib.import_module(f"{package}.{module.stem}")
    # the menu's lesson titles: 0.2 s to parse the lessons the first time, 0.4 ms after
    importlib.import_module("ui.lesson").lessons(HERE / "lessons")
    training = importlib.import_module("app_logic.training")
    threading.Thread(
        target=training.WARMUP.ensure,
        args=(training.FIRST_PAGE_LEARNER,),
        name="first-page-learner",
        daemon=True,
    ).start()
    yield


app = st.App(HERE / "router.py", lifespan=first_page_ready)
