"""The floor of a first figure: a bare Streamlit page whose one component draws 100 points.

``bench_browser.py --first`` opens it beside the playground, after a restart
of each server: the time this page takes is what Streamlit and Plotly.js cost
on this machine before anything of ours runs (the same Plotly.js bundle,
loaded the same way). Run by hand: ``streamlit run benchmarks/floor/app.py``.
"""

import shutil
import tempfile
from pathlib import Path

import numpy as np
import streamlit as st
import streamlit.components.v1 as components

HERE = Path(__file__).resolve().parent
PLOTLY = HERE.parents[1] / "ui" / "playback" / "vendor" / "plotly-basic.min.js"


@st.cache_resource
def scatter_component():
    """The component, once per server: it serves only the files of its folder, so the page
    and a copy of the bundle go to a folder of their own."""
    folder = Path(tempfile.gettempdir()) / "perceptron-lab-floor"
    folder.mkdir(exist_ok=True)
    shutil.copy(HERE / "index.html", folder / "index.html")
    shutil.copy(PLOTLY, folder / PLOTLY.name)
    return components.declare_component("floor.playback", path=str(folder))


st.title("Floor")
points = np.random.default_rng(0).uniform(-1, 1, size=(2, 100))
scatter_component()(x=points[0].tolist(), y=points[1].tolist(), key="scatter")
