"""The floor of a lesson's Plotly chart: a bare Streamlit page with one ``st.plotly_chart``.

``bench_browser.py --lessons`` opens it beside the lessons whose first figure
is a Plotly chart drawn by Streamlit (which loads its own Plotly.js): what
Streamlit and its chart cost on this machine before anything of ours runs.
Run by hand: ``streamlit run benchmarks/floor/chart_app.py``.
"""

import numpy as np
import plotly.graph_objects as go
import streamlit as st

x, y = np.random.default_rng(0).normal(size=(2, 100))
st.plotly_chart(go.Figure(go.Scatter(x=x, y=y, mode="markers")))
