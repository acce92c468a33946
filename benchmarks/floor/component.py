"""The floor pages' one component: ``index.html`` beside the playground's Plotly.js bundle."""

import shutil
import tempfile
from pathlib import Path

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
