"""Lesson 9. Winnow against the perceptron: multiplicative and additive updates.

The data are boolean and labelled by a disjunction of ``k`` of their ``n``
features; everything else is irrelevant. The figure counts the mistakes of
one on-line pass of Winnow and of the perceptron as ``n`` grows (computed
live, averaged over a few draws), next to Winnow's bound; a second chart
shows the weights each learner ends with. The research box tabulates the
same runs. Session keys start with ``l09_``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from perceptron_core.rules import winnow
from perceptron_lab.app_logic.studies_winnow import DRAWS, N_TEST, NS, learners
from perceptron_lab.app_logic.style import BLUE, GREY, ORANGE, VERMILLION
from perceptron_lab.lessons._basics import seed_control
from perceptron_lab.lessons._charts import one_decimal, small_chart
from perceptron_lab.ui.lesson import (
    CHART_CONFIG,
    check_question,
    lesson_header,
    research,
    show_code,
    try_this,
)
from perceptron_lab.ui.studies import lesson_study

PREFIX = "l09_"
KS = (1, 2, 3, 5, 8)
PASSES = (500, 1000, 2000, 4000)


def mistakes_figure(table: pd.DataFrame) -> go.Figure:
    """Mistakes against n on a log axis: Winnow, the perceptron and Winnow's bound."""
    fig = go.Figure()
    for name, color in (("Winnow", ORANGE), ("Perceptron", BLUE)):
        fig.add_scatter(
            x=table["n features"], y=table[f"{name} mistakes"], name=name,
            mode="lines+markers", line={"color": color, "width": 3},
        )  # fmt: skip
    fig.add_scatter(
        x=table["n features"], y=table["Winnow bound"], name="Winnow's bound 2 + 3k(1 + log₂n)",
        mode="lines", line={"color": ORANGE, "dash": "dot"},
    )  # fmt: skip
    return small_chart(
        fig,
        420,
        {"title": "n (features; all but k irrelevant)", "type": "log", "tickvals": list(NS)},
        {"title": "mistakes in one on-line pass"},
    )


def weights_figure(weights: dict) -> go.Figure:
    """Every feature's weight as a share of the threshold, one row per learner."""
    relevant = weights["relevant"]
    fig = go.Figure()
    for mask, label, color, size in (
        (~relevant, "irrelevant feature", GREY, 6),
        (relevant, "relevant feature (in the disjunction)", VERMILLION, 12),
    ):
        for row, name in enumerate(("Winnow", "Perceptron")):
            fig.add_scatter(
                x=weights[name][mask], y=row + 0.25 * (np.random.default_rng(row).random(
                    mask.sum()) - 0.5), mode="markers", name=label, legendgroup=label,
                showlegend=row == 0, marker={"color": color, "size": size, "opacity": 0.7},
                hovertemplate=f"{name}: w/θ = %{{x:.3f}}<extra></extra>",
            )  # fmt: skip
    return small_chart(
        fig,
        300,
        {"title": "weight ÷ threshold  (one active feature with w ≥ θ fires alone)"},
        {"tickvals": [0, 1], "ticktext": ["Winnow", "Perceptron"], "range": [-0.5, 1.5]},
    )


lesson_header(
    9,
    "Winnow against the perceptron",
    "See why multiplying weights beats adding to them when only a few of many features matter.",
)
st.markdown(
    r"""
The data are boolean, $x \in \{0,1\}^n$, and the label is a **disjunction**
of $k$ of the $n$ features: $y = x_{i_1} \lor \dots \lor x_{i_k}$. The other
$n - k$ features are noise the learner must learn to ignore. The perceptron
*adds* on a mistake; **Winnow** (Littlestone) starts every weight at 1,
predicts positive when $\langle w, x\rangle \ge \theta = n$, and *multiplies*
the weights of the active features:
"""
)
st.latex(
    r"\begin{gathered}\text{perceptron: } w \leftarrow w + \eta\,y\,x \\"
    r"\text{Winnow: } w_i \leftarrow w_i \cdot 2^{\,y} \ \text{ for every } i \text{ with } x_i = 1"
    r"\end{gathered}"
)
st.markdown(
    r"""
with $y = +1$ on a missed positive (promotion: double) and $y = -1$ on a
false alarm (demotion: halve). A relevant weight needs only about
$\log_2 n$ doublings to reach $\theta$ on its own, and each false alarm
halves many irrelevant weights at once. That gives Winnow's mistake bound,
against the perceptron's, whose Novikoff bound $(R/\gamma)^2$ grows with $n$
because $R^2$ counts the active features:
"""
)
st.latex(
    r"\begin{gathered}M_{\mathrm{Winnow}} \le 2 + 3k\,(1 + \log_2 n) = O(k \log n)"
    r"\qquad\text{vs.}\\ M_{\mathrm{perceptron}} = \Omega(n)"
    r" \text{ on some sequences, for a fixed } k\end{gathered}"
)
st.markdown(
    r"""
**In the chart:** for each $n$, data sets of $m$ examples are drawn (each
feature on with the same chance for every $n$, so half the labels are
positive), and each learner makes one on-line pass in the same order,
predicting each example before learning from it. The curves are the
mistakes of that pass, the mean over three draws; the dotted curve is
Winnow's bound (a pass over $m$ examples can make at most $m$ mistakes,
which is why the perceptron's curve bends at large $n$). The second chart shows the weights after the pass, divided by the
threshold: a feature at 1 or more fires a positive on its own.
"""
)

cols = st.columns(3)
with cols[0]:
    k = st.select_slider(
        "Relevant features k", options=KS, value=3, key=f"{PREFIX}k",
        help="How many features the disjunction uses.",
    )  # fmt: skip
with cols[1]:
    m = st.select_slider(
        "Examples in the pass m", options=PASSES, value=2000, key=f"{PREFIX}m",
        help="One on-line pass: each is predicted, then learned from.",
    )  # fmt: skip
with cols[2]:
    seed = seed_control(PREFIX)
table = lesson_study("l09_mistakes", k=k, m=m, seed=seed)  # prepared by perceptron-lab warm
st.plotly_chart(
    mistakes_figure(table), width="stretch", config=CHART_CONFIG, key=f"{PREFIX}mistakes"
)
n_shown = st.select_slider(
    "Weights after the pass for n =", options=NS, value=256, key=f"{PREFIX}n",
)  # fmt: skip
st.plotly_chart(
    weights_figure(lesson_study("l09_weights", n=n_shown, k=k, m=m, seed=seed)),
    width="stretch", config=CHART_CONFIG,
    key=f"{PREFIX}weights",
)  # fmt: skip

try_this(
    "Read the two curves at n = 16 and at n = 1024: Winnow's mistakes grow by a constant "
    "for every doubling of n (a straight line on this log axis), the perceptron's multiply. "
    "Now set **k** to 8: Winnow's line moves up (its bound grows with k) but stays straight.",
    "Set **m** to 500: the perceptron's curve bends flat at large n. It has not learned "
    "faster: it is still wrong on a large share of the pass when it runs out of examples "
    "(the research table gives its test accuracy).",
    "Move **weights after the pass** from n = 256 to 1024: Winnow's relevant weights stay at "
    "the threshold (one of them fires a positive alone) and the irrelevant ones near 0; the "
    "perceptron's relevant weights fall far below the threshold, so it needs irrelevant "
    "features to help, and misfires.",
)

check_question(
    PREFIX,
    "The number of features n doubles from 512 to 1024; k stays 3. Roughly how does "
    "Winnow's mistake bound change?",
    [
        "It doubles, like n",
        "It grows by a constant, about 3k = 9 mistakes",
        "It does not change: Winnow ignores irrelevant features from the start",
    ],
    answer=1,
    why="The bound 2 + 3k(1 + log₂ n) grows by 3k when log₂ n grows by 1: one more doubling "
    "per relevant weight. Growth proportional to n is the perceptron's worst case.",
    hints={
        0: "That is the perceptron's worst case. Where does n enter Winnow's bound?",
        2: "Every weight starts at 1, irrelevant ones included; false alarms must halve "
        "them first.",
    },
)

research(
    r"""
Littlestone (1988) introduced Winnow to learn "quickly when irrelevant
attributes abound" (his title): in his analysis of Winnow, the mistakes on a
$k$-literal disjunction are $O(k \log n)$, only logarithmic in the number of
features, while additive
rules like the perceptron can need a number of mistakes that grows linearly
with $n$ (the course notes build such a sequence for a $k$-disjunction;
Kivinen, Warmuth & Auer, in a paper outside the ones this app reproduces,
study the gap in general: "linear versus logarithmic mistake bounds when
few input variables are relevant", in their title's words). The runs
behind the chart above:
""",
    "N. Littlestone, “Learning quickly when irrelevant attributes abound: a new "
    "linear-threshold algorithm”, Machine Learning 2, 285–318 (1988); J. Kivinen, M. K. "
    "Warmuth and P. Auer, “The perceptron algorithm versus Winnow: linear versus logarithmic "
    "mistake bounds when few input variables are relevant”, Artificial Intelligence 97, "
    "325–343 (1997).",
    compute=lambda: one_decimal(table),
    caption=f"Computed live (perceptron_core.Winnow with α = 2, θ = n; perceptron_core."
    f"Perceptron with η = 0.1, θ_init = C = mean ‖x‖²): one pass over m = {m} examples of "
    f"make_k_of_n_disjunction with k = {k}, mean over {DRAWS} draws (seed {seed}); test "
    f"accuracy on {N_TEST} fresh examples after the pass.",
)
growth = {
    name: table[f"{name} mistakes"].iloc[-1] / table[f"{name} mistakes"].iloc[0]
    for name in learners()
}
st.markdown(
    f"From n = {NS[0]} to n = {NS[-1]} (×{NS[-1] // NS[0]}): Winnow's mistakes grew "
    f"×**{growth['Winnow']:.1f}**, the perceptron's ×**{growth['Perceptron']:.1f}**."
)

show_code(
    winnow.step,
    intro="Promotion is `w[i] *= alpha` for the active features on a false negative, "
    "demotion `w[i] = max(w[i] / alpha, floor)` on a false positive (floor 0 for Winnow). "
    "The perceptron's rule, for comparison, is lesson 1's `update`: `w += eta * y * x`.",
)
