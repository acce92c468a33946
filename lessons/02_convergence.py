"""Lesson 2. Convergence: Novikoff's bound (R/γ)² against the updates the perceptron makes.

The figure trains on separable points whose gap the student sets; beside it,
the bound for that data and the updates so far. The research box trains on
many seeded sets per margin and draws observed updates against the bound.
Session keys start with ``l02_``.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from perceptron_core.rules import kw
from perceptron_lab.app_logic.datasource import DataRequest
from perceptron_lab.app_logic.diagnostics import novikoff_bound
from perceptron_lab.app_logic.exercises.lesson_02 import REPLAY
from perceptron_lab.app_logic.payload.extras import Panel, Text
from perceptron_lab.app_logic.studies_basics import SWEEP_POINTS, SWEEP_SETS
from perceptron_lab.app_logic.style import BLACK, BLUE, VERMILLION, Show
from perceptron_lab.lessons._basics import at_end, seed_control
from perceptron_lab.lessons._notation import notation
from perceptron_lab.lessons._questions import computation_question
from perceptron_lab.ui.charts import chart
from perceptron_lab.ui.exercises import exercises
from perceptron_lab.ui.lesson import (
    check_question,
    lesson_header,
    research,
    show_code,
    stage,
    try_this,
)
from perceptron_lab.ui.studies import lesson_study

PREFIX = "l02_"
EPOCHS = 30


def bound_box(run, data) -> list[Panel]:
    """Beside the figure: Novikoff's bound for these data and the updates so far."""
    tl, est = run.timeline, run.estimator
    bound, R, gamma = novikoff_bound(
        data.X, data.y, data.w_star, data.theta_star, est.eta, est.C_, est.theta_init_
    )
    per_epoch = tl.mistakes_per_epoch()
    clean = np.flatnonzero(per_epoch == 0)
    whole_run = f"The whole run: {tl.W.shape[1] - 1} updates; " + (
        f"epoch {clean[0] + 1} is the first without one."
        if len(clean)
        else f"still updating after {EPOCHS} epochs."
    )
    from_zero = (R / gamma) ** 2
    return [
        Panel(
            "Novikoff's bound on these data, from this run's start θ_init",
            [
                # whole updates: the same floor as the bar of the box above it
                Text(
                    f"R = {R:.3g}, γ = {gamma:.3g}: at most {math.floor(bound):,} updates from "
                    f"θ_init = {est.theta_init_:.3g} (from θ = 0, (R/γ)² allows "
                    f"{math.floor(from_zero):,})"
                ),
                Text(whole_run, caption=True),
            ],
        )
    ]


def sweep_figure(table: pd.DataFrame) -> go.Figure:
    """Observed updates and the bound against γ, both axes logarithmic."""
    gamma = table["γ (mean)"]
    fig = go.Figure()
    fig.add_scatter(
        x=gamma,
        y=table["bound from θ_init (mean)"],
        name="bound from θ_init (mean)",
        mode="lines+markers",
        line={"color": VERMILLION, "dash": "dash"},
        marker={"symbol": "square"},
    )
    fig.add_scatter(
        x=gamma,
        y=table["updates (most)"],
        name="updates (most)",
        mode="lines+markers",
        line={"color": BLACK, "width": 1},
        marker={"symbol": "triangle-up"},
    )
    fig.add_scatter(
        x=gamma,
        y=table["updates (mean)"],
        name="updates (mean)",
        mode="lines+markers",
        line={"color": BLUE},
        marker={"symbol": "circle"},
    )
    fig.update_layout(
        height=360,
        template="plotly_white",
        margin={"l": 10, "r": 10, "t": 30, "b": 10},
        title={"text": "Updates until convergence against the margin γ", "font": {"size": 14}},
        xaxis={
            "type": "log",
            "title": "γ (margin with the threshold folded in)",
            "tickvals": gamma,
            "ticktext": [f"{g:.3g}" for g in gamma],
        },
        yaxis={"type": "log", "title": "updates", "dtick": 1},  # a label per power of ten
        legend={"orientation": "h", "y": -0.2},
    )
    return fig


lesson_header(
    2,
    "Convergence",
    "Learn why the perceptron stops on separable data, and how the margin limits its updates.",
)
notation(("x, y", "w, θ", "η", "C", "θ_init", "z, v", "R", "u, γ"))
st.markdown(
    r"""
If some line separates the training data, the perceptron stops making
updates after finitely many of them, however the examples are ordered.
Novikoff's proof needs two numbers. Fold the threshold into the vectors,
$z = (x, -\sqrt{C})$ and $v = (w, \theta/\sqrt{C})$, so the score is
$\langle v, z\rangle = \langle w, x\rangle - \theta$ and the rule's update
($w \leftarrow w + \eta y x$, $\theta \leftarrow \theta - \eta y C$) is
$v \leftarrow v + \eta y z$. Let $u$ be any separating line
scaled to length 1 in these coordinates (here the true line the data came
from), and
"""
)
st.latex(r"R = \max_j \lVert z_j\rVert \qquad \gamma = \min_j\, y_j\,\langle u, z_j\rangle > 0")
st.markdown(
    r"""
$\gamma$ is the **margin**: how far the closest example is from the line,
measured in these folded coordinates (never more than its distance in the plane).
Khardon & Wachman and Cristianini & Shawe-Taylor measure $R$ and $\gamma$
with the threshold kept apart; lesson 3 shows what that costs.
Each update raises $\langle u, v\rangle$ by at least $\eta\gamma$ (the line
gets more aligned with $u$) but raises $\lVert v\rVert^2$ by at most
$\eta^2 R^2$ (a mistake means $y\langle v, z\rangle \le 0$). After $k$
updates, starting from $v = 0$, Cauchy–Schwarz gives
"""
)
st.latex(
    r"k\,\eta\gamma \;\le\; \langle u, v_k\rangle \;\le\; \lVert v_k\rVert \;\le\; "
    r"\sqrt{k}\,\eta R \quad\Longrightarrow\quad k \;\le\; \left(\frac{R}{\gamma}\right)^{2}"
)
st.markdown(
    r"""
Novikoff's $(R/\gamma)^2$ holds for a perceptron started at $\theta = 0$.
Ours starts at $\theta = \theta_{init}$ (the mean $\lVert x\rVert^2$), which
shifts the bound: the one shown is the largest $k$ with
$(a + k\eta\gamma)^2 \le b^2 + k\eta^2R^2$, where $a = \langle u, v_0\rangle$
and $b = \lVert v_0\rVert$ for the start $v_0 = (0, \theta_{init}/\sqrt{C})$;
with $\theta_{init} = 0$ it is exactly $(R/\gamma)^2$. The bound depends on
neither the number of examples nor the dimension, but on two numbers, the
radius $R$ and the margin $\gamma$: **with $R$ fixed, halve $\gamma$ and
the bound quadruples.**

**In the figure:** separable points with a gap you choose, trained by the
plain perceptron (lesson 1's figure). The box under the panel gives $R$,
$\gamma$ and the bound for these points, and how much of it the run has used.
"""
)

left, right = st.columns(2)
with left:
    margin = st.select_slider(
        "Gap between the classes",
        options=(0.01, 0.02, 0.05, 0.1, 0.2, 0.3, 0.4),
        value=0.1,
        key=f"{PREFIX}margin",
        help="Distance from the true line to the nearest point (the generator's margin).",
    )
with right:
    seed = seed_control(PREFIX)
request = DataRequest("separable", (("margin", margin), ("n_samples", 60)), seed=seed)
data, run = stage(
    PREFIX,
    request,
    "perceptron",
    epochs=EPOCHS,
    show=Show(band=False, test_points=False, target=True),
    extras=bound_box,
    start=at_end,
    predict=REPLAY.predict,
)

try_this(
    "The figure opens at the end of training: the box shows that the run used only a "
    "small part of the bound. The bound is a worst case over every order of the "
    "examples, not a forecast.",
    "Set the **gap** to 0.01. γ shrinks, the bound grows with 1/γ², and the dotted true "
    "line hugs points of both classes; press **End** and see whether the run needs more "
    "updates. With a screen reader: the box beside the figure says R, γ and the bound in "
    "words; γ is how close the nearest point comes to the true line.",
    "Change the **data seed** with the gap at 0.01: R hardly moves, but γ and the bound jump, "
    "because they depend on the one point nearest the line.",
)

check_question(
    PREFIX,
    "R stays the same and the margin γ is halved. What happens to Novikoff's bound?",
    ["It doubles", "It is four times as large", "It stays the same: it counts examples"],
    answer=1,
    why="The bound is (R/γ)²: halving γ multiplies it by 2² = 4.",
    hints={
        0: "Look at the exponent of R/γ.",
        2: "The bound does not depend on the number of examples at all.",
    },
)

if run is not None:
    _, R, gamma = novikoff_bound(
        data.X, data.y, data.w_star, data.theta_star, run.estimator.eta, run.estimator.C_, 0.0
    )
    computation_question(
        f"{PREFIX}calc_",
        f"Compute it: for the figure's data the box gives R = {R:.4g} and γ = {gamma:.4g}. "
        "How many updates at most does Novikoff's bound allow a perceptron started at θ = 0?",
        {
            "right": (R / gamma) ** 2,
            "no square": R / gamma,
            "R² over γ": R**2 / gamma,
            "twice": (2 * R / gamma) ** 2,
        },
        "right",
        ",.0f",
        why="(R/γ)² = " + f"({R:.4g} / {gamma:.4g})² ≈ " + "{answer}. (The box's larger number "
        "is for this run's start θ_init; θ = 0 gives exactly (R/γ)².)",
        hints={
            "no square": "Novikoff's bound is a square: (R/γ)².",
            "R² over γ": "Both R and γ are squared: (R/γ)² = R²/γ².",
            "twice": "That is (2R/γ)², the form for a threshold kept apart (lesson 3). Here R "
            "and γ are measured with the threshold folded in.",
        },
        seed=seed,
    )

research_result = research(
    r"""
Novikoff (1962) proved that the perceptron, started at zero, makes at most
$(R/\gamma)^2$ updates on data of radius $R$ separated with margin $\gamma$,
whatever their number, dimension or order; Li et al. (2002; see their
abstract) generalise the theorem to the uneven margins of lesson 6. Being a
guarantee for every order, it is far above what
random data need; but the count the perceptron needs still tends to grow
as the margin shrinks. Computed live for 2-D sets of
300 points:
""",
    "A. B. J. Novikoff, “On convergence proofs on perceptrons”, Proceedings of the "
    "Symposium on the Mathematical Theory of Automata 12, 615–622 (1962); Y. Li, H. Zaragoza, "
    "R. Herbrich, J. Shawe-Taylor and J. Kandola, “The perceptron algorithm with uneven "
    "margins”, ICML 2002, 379–386.",
    compute=lambda: lesson_study("l02_sweep", seed=seed),  # app_logic.studies_basics.sweep
    caption=f"{SWEEP_SETS} sets of {SWEEP_POINTS} points per gap (seeds {seed * 1000}–"
    f"{seed * 1000 + SWEEP_SETS - 1}, from the data seed above), plain perceptron "
    "(η = 0.1, θ_init = C = mean ‖x‖²) trained until an epoch without updates; γ and the "
    "bound with the threshold folded in and the θ_init start counted "
    "(perceptron_lab.app_logic.diagnostics.novikoff_bound).",
)
if research_result is not None:
    st.markdown(
        f"The most any of these runs used of its own bound: "
        f"**{research_result['largest updates ÷ bound'].max():.1%}**."
    )
    chart(sweep_figure(research_result), key=f"{PREFIX}sweep")

show_code(
    kw.decide,
    kw.update,
    novikoff_bound,
    intro="The decision and the update that the bound counts, and the function that "
    "computes the bound with the threshold folded in.",
)

exercises(2, seed=seed, margin=margin, request=request, data=data, run=run)
