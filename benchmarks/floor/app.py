"""The floor of a first figure: a bare Streamlit page whose one component draws 100 points.

``bench_browser.py --first`` opens it beside the playground, after a restart
of each server: the time this page takes is what Streamlit and Plotly.js cost
on this machine before anything of ours runs (the same Plotly.js bundle,
loaded the same way). Run by hand: ``streamlit run benchmarks/floor/app.py``.
"""

import numpy as np
import streamlit as st
from component import scatter_component  # Streamlit puts this folder on the path

st.title("Floor")
points = np.random.default_rng(0).uniform(-1, 1, size=(2, 100))
scatter_component()(x=points[0].tolist(), y=points[1].tolist(), key="scatter")
