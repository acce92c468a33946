"""Perceptron Lab: a first look (the full playground is on its way).

Trains the classic perceptron on a small 2-D set and draws the learned line.
"""

import numpy as np
import plotly.graph_objects as go
import streamlit as st

from perceptron_core import KWPerceptron

st.set_page_config(page_title="Perceptron Lab", layout="wide")
st.title("Perceptron Lab")

seed = st.sidebar.number_input("Seed", min_value=0, max_value=10_000, value=0, step=1)
epochs = st.sidebar.slider("Epochs", 1, 50, 10)
tau = st.sidebar.slider("Margin τ (units of θ_init)", 0.0, 2.0, 0.0, 0.125)

rng = np.random.default_rng(int(seed))
X = rng.normal(size=(80, 2))
y = np.where(X @ np.array([1.0, -0.7]) + 0.2 > 0, 1, -1)
clf = KWPerceptron(epochs=epochs, tau=tau, random_state=int(seed)).fit(X, y)
(w1, w2), b = clf.coef_[0], clf.intercept_[0]

fig = go.Figure()
for label, symbol, colour in ((-1, "circle", "#0072B2"), (1, "diamond", "#E69F00")):
    pts = X[y == label]
    fig.add_scatter(x=pts[:, 0], y=pts[:, 1], mode="markers", name=f"class {label:+d}",
                    marker=dict(symbol=symbol, size=9, color=colour))
xs = np.array([X[:, 0].min(), X[:, 0].max()])
if abs(w2) > 1e-12:
    fig.add_scatter(x=xs, y=-(w1 * xs + b) / w2, mode="lines", name="⟨w,x⟩ = θ",
                    line=dict(color="black"))
fig.update_layout(height=520, yaxis=dict(scaleanchor="x"))
st.plotly_chart(fig, width="stretch")
st.write(f"Updates: {clf.n_updates_} · training accuracy: {clf.score(X, y):.1%}")
