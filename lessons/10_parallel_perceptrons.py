"""Lesson 10. Committees and NR boosting: parallel perceptrons' margins flag label noise.

Three sections, one figure each. 1: the figure trains a committee of
perceptrons (p-delta rule) on two Gaussian clouds with some training labels
flipped; at the end of training it marks the patterns the committee calls
noisy or borderline. Beside it: the categories, and the precision and recall
of the "noisy" flag against the flips the lesson injected. 2: the same run's
committee mistakes and margin ρ epoch by epoch (batch p-delta). 3: AdaBoost's
and NR boosting's ε_t and α_t, round by round, on the same training set, with
a question that asks for α_t from ε_t (the rounds are a study,
:func:`app_logic.studies_variants.boosting_rounds`, prepared for the opening
settings by ``perceptron-lab warm`` and kept for every visitor). The
research box runs the NR comparison
(:func:`perceptron_core.experiments.nr_comparison`) small. Session keys
start with ``l10_``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from perceptron_core.boosting import AdaBoost, NRBoost
from perceptron_core.metrics import flag_precision_recall
from perceptron_core.parallel import _p_delta
from perceptron_lab.app_logic.exercises.lesson_10 import REPLAY
from perceptron_lab.app_logic.payload.extras import Panel, Text, Value
from perceptron_lab.app_logic.studies_variants import (
    BOOSTING_ROUNDS,
    COMMITTEE_EPOCHS,
    NR_FOLDS,
    NR_PROBLEM,
    noisy_clouds,
)
from perceptron_lab.app_logic.style import BLUE, ORANGE, Show
from perceptron_lab.lessons._basics import at_end, seed_control
from perceptron_lab.lessons._bounds import adaboost_vote
from perceptron_lab.lessons._charts import one_decimal, small_chart
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

PREFIX = "l10_"
NOISE = (0.0, 0.05, 0.1, 0.2, 0.3)
COMMITTEES = (1, 3, 5, 7)
#: The boosters keep every round's weighted error at least this (their default eps_floor).
EPSILON_FLOOR = AdaBoost().eps_floor


def flag_numbers(run, data) -> list[Panel]:
    """Beside the figure: the trained committee's categories and how well "noisy" finds flips."""
    est = run.estimator
    categories = est.categorize(data.X, data.y)
    precision, recall = flag_precision_recall(categories, data.flipped)
    test_acc = float(np.mean(est.predict(data.X_test) == data.y_test))
    counts = [
        Value(name.capitalize(), np.sum(categories == name), per="run", format=",", when="end")
        for name in ("safe", "borderline", "noisy")
    ]
    return [
        Panel(
            "The committee's verdict on the training labels",
            [
                Text(
                    "The categories come from the trained committee: press End.",
                    when="before_end",
                    caption=True,
                ),
                *counts,
                Value("flag precision", precision, per="run", format=".0%", when="end"),
                Value("flag recall", recall, per="run", format=".0%", when="end"),
                Text(
                    f"{int(data.flipped.sum())} labels were flipped. Final margin ρ = "
                    f"{est.gamma_:.3f}; the committee's test accuracy: {test_acc:.1%}.",
                    when="end",
                ),
            ],
        )
    ]


def rounds_figure(rounds: pd.DataFrame, column: str, title: str) -> go.Figure:
    """``column`` (ε_t or α_t) against the round, one line per booster."""
    fig = go.Figure()
    for name, color in (("AdaBoost", BLUE), ("NR boosting", ORANGE)):
        part = rounds[rounds["booster"] == name]
        fig.add_scatter(
            x=part["round t"],
            y=part[column],
            name=name,
            mode="lines+markers",
            line={"color": color, "width": 3},
        )
    return small_chart(fig, 300, {"title": "boosting round t", "dtick": 1}, {"title": title})


def p_delta_figure(est) -> go.Figure:
    """The committee's mistakes on the training set and the margin ρ after every epoch."""
    epochs = np.arange(1, len(est.errors_per_epoch_) + 1)
    fig = go.Figure()
    fig.add_scatter(
        x=epochs,
        y=est.errors_per_epoch_,
        name="committee mistakes in the epoch",
        line={"color": BLUE, "width": 3},
    )
    fig.add_scatter(
        x=epochs,
        y=est.gamma_history_,
        name="margin ρ after the epoch",
        line={"color": ORANGE, "width": 3},
        yaxis="y2",
    )
    fig = small_chart(fig, 300, {"title": "epoch"}, {"title": "mistakes", "rangemode": "tozero"})
    fig.update_layout(
        yaxis2={
            "title": "ρ",
            "overlaying": "y",
            "side": "right",
            "rangemode": "tozero",
            "showgrid": False,
        }
    )
    return fig


def alpha_candidates(epsilon: float) -> dict[str, float]:
    """The computation question's candidates for ``α_t`` at ``ε_t``: the right
    ``½ ln((1 − ε)/ε)``, ``ln((1 − ε)/ε)`` (no ½), ``½ ln(1/ε)`` and ``½ log₁₀((1 − ε)/ε)``
    (the wrong logarithm). At the floor ``ε = 10⁻¹⁰`` the third reads as the right one and
    is left out; the fourth still differs, so three options remain."""
    return {
        "right": float(adaboost_vote(epsilon)),
        "no half": 2 * float(adaboost_vote(epsilon)),
        "one over": 0.5 * float(np.log(1 / epsilon)),
        "base 10": float(adaboost_vote(epsilon)) / np.log(10),
    }


def epsilon_text(epsilon: float) -> str:
    """``ε_t`` as the question writes it: four decimals, or two significant digits below
    10⁻⁴ (the floor ``1e-10`` among them), which four decimals would show as 0.0000 (and a
    reason that divides by it).

    >>> epsilon_text(0.123456), epsilon_text(1e-10), epsilon_text(5.31e-5)
    ('0.1235', '1e-10', '5.3e-05')
    """
    return f"{epsilon:.4f}" if epsilon >= 1e-4 else f"{epsilon:.2g}"


lesson_header(
    10,
    "Committees and NR boosting",
    "Let a committee of perceptrons say which training labels look wrong, and use that to "
    "keep boosting from chasing noise.",
)
notation(("x, y", "w, θ", "η", "ρ", "ε_t, α_t", "r(x)"))
st.markdown(
    r"""
Three ideas, one figure each: a **committee** of perceptrons that votes and
sorts the training patterns by its margins; the **batch p-delta rule** that
trains it; and **boosting**, which trains committee after committee on
re-weighted data, in AdaBoost's form and in Cantador & Dorronsoro's NR form.
"""
)

st.header("1. A committee that votes", anchor="a-committee-that-votes")
st.markdown(
    r"""
A **parallel perceptron** is an odd committee of $H$ perceptrons that vote.
Each has its own weights $W_i$ (unit length, the bias folded in as a last
input 1) and activation $\mathrm{act}_i(x) = \langle W_i, (x, 1)\rangle$:
"""
)
st.latex(
    r"h(x) = \operatorname{sign}\Big(\sum_{i=1}^{H} \operatorname{sign}\,\mathrm{act}_i(x)\Big)"
)
st.markdown(
    r"""
Training (section 2) leaves a margin $\rho$ (Cantador & Dorronsoro call it
$\gamma$; here $\gamma$ is kept for lesson 2's margin). After training, the
activation margins $y\,\mathrm{act}_i(x)$ sort the training patterns, with
their labels as given; a majority is $\lfloor H/2\rfloor + 1$ members:
"""
)
st.latex(
    r"\begin{gathered}\text{safe: a majority has } y\,\mathrm{act}_i > \rho,\\"
    r"\text{noisy: a majority has } y\,\mathrm{act}_i < -\rho,\\"
    r"\text{borderline: otherwise}\end{gathered}"
)
st.markdown(
    r"""
(Cantador & Dorronsoro 2005, section 3. The NR paper writes
$\lfloor H/2\rfloor$ "i.e., their majority"; for odd $H$ that is one member
short of a majority, and with it a pattern of a committee of 3 could be safe
and noisy at once, so the lesson counts the majority the paper names.) A
*noisy* pattern sits clearly on the other class's side: a candidate for a
flipped label.

**In the figure:** every member's line is drawn (solid, dashed, dotted, …),
the tint is the committee's vote, × marks the training labels the lesson
flipped and the dotted line is the true (Bayes) boundary. At the end of
training, green squares are the patterns the committee calls *noisy* and
grey rings the *borderline* ones; the rest are safe. Beside it: how
many of the green squares are real flips (precision) and how many flips got
a square (recall).
"""
)

cols = st.columns(3)
with cols[0]:
    noise = st.select_slider(
        "Flipped training labels",
        options=NOISE,
        value=0.1,
        key=f"{PREFIX}noise",
        format_func=lambda p: f"{p:.0%}",
        help="Exactly this share of the 100 training labels.",
    )
with cols[1]:
    H = st.select_slider(
        "Committee size H",
        options=COMMITTEES,
        value=3,
        key=f"{PREFIX}H",
        help="Odd, so the vote never ties.",
    )
with cols[2]:
    seed = seed_control(PREFIX)
data, run = stage(
    PREFIX,
    noisy_clouds(seed, noise),
    "parallel",
    {"n_perceptrons": H},
    epochs=COMMITTEE_EPOCHS,
    show=Show(target=True, test_points=False),
    extras=flag_numbers,
    start=at_end,
    predict=REPLAY.predict,
)

try_this(
    "The figure opens at the end of training with 10 % flipped. Count the × with a green "
    "square around them (flags that are right) and the squares without a × (false alarms); "
    "the box gives both as precision and recall. Then set **flipped labels** to 30 %: the "
    "flipped points start to outvote the truth near the boundary, and precision drops. With "
    "a screen reader: the box beside the figure gives the counts of safe, borderline and "
    "noisy patterns and those two shares in words.",
    "Set **flipped labels** to 0 %: every flag would now be a false alarm, and the committee "
    "raises none or almost none, so the green squares respond to the noise itself. With a "
    "screen reader: the box's count of noisy patterns says the same.",
    "Set the **committee size** to 1: a single perceptron needs only its own vote, so "
    "*borderline* means just |act| ≤ ρ. With H = 5 or 7 the categories need a majority and "
    "the borderline set changes.",
)

st.header("2. Training the committee: batch p-delta", anchor="batch-p-delta")
st.markdown(
    r"""
Cantador & Dorronsoro (2005, section 2) train the committee with the rule of
Auer, Burgsteiner & Maass (2002), known as the **p-delta rule**: where
classic committee training corrects the fewest wrong members that fix the
vote, it corrects every member that voted wrong. They run it in batch mode:
over an epoch it sums, then applies, the steps
"""
)
st.latex(
    r"\begin{gathered}\Delta W_i \mathrel{+}= \eta\,y\,(x,1)\quad\text{if}\\"
    r"\begin{cases} h(x) \ne y \text{ and } y\,\mathrm{act}_i(x) < 0 "
    r"& \text{(voted wrong)}\\"
    r"h(x) = y \text{ and } 0 < y\,\mathrm{act}_i(x) < \rho"
    r"& \text{(right, too close)}\end{cases}\end{gathered}"
)
st.markdown(
    r"""
then scales every $W_i$ back to unit length. The margin $\rho$ adapts,
and only after a pattern the committee gets right: it grows by $0.25\,\eta$
if every right member clears it ($y\,\mathrm{act}_i > \rho$), and shrinks
by $0.75\,\eta$ if at least one right member is inside the band
($0 < y\,\mathrm{act}_i < \rho$): Cantador and Dorronsoro's rule (2005,
section 2, after Auer, Burgsteiner and Maass 2002), as the app runs it.

**In the chart:** the run of the figure above, epoch by epoch: the
committee's mistakes on the training set during the epoch (blue, left axis)
and the margin $\rho$ at the end of the epoch (orange, right axis). The
final $\rho$ is the one the categories of section 1 use.
"""
)
if run is not None:
    est = run.estimator
    chart(p_delta_figure(est), key=f"{PREFIX}pdelta")
    st.markdown(
        f"In this run: {int(est.errors_per_epoch_[0])} committee mistakes in the first epoch, "
        f"{int(est.errors_per_epoch_[-1])} in the last ({len(data.y)} training patterns, "
        f"{int(data.flipped.sum())} flipped); ρ went from {est.gamma:g} at the start to "
        f"**{est.gamma_:.3f}**."
    )

st.header("3. Boosting committees: AdaBoost and NR boosting", anchor="boosting")
st.markdown(
    r"""
Boosting trains a new committee $h_t$ in every round $t$ on a distribution
$d_t$ over the training patterns ($d_1$ uniform), and gives it a vote
$\alpha_t$ (no relation to lesson 7's α-bound) that grows as its **weighted
error** $\varepsilon_t$ falls
(Cantador & Dorronsoro 2005: the update in section 1, the error and the
vote in section 3):
"""
)
st.latex(
    r"\begin{gathered}\varepsilon_t = \sum_{x:\ y\,h_t(x) = -1} d_t(x),\qquad"
    r"\alpha_t = \tfrac12 \ln\frac{1 - \varepsilon_t}{\varepsilon_t},\\"
    r"H(x) = \operatorname{sign}\Big(\sum_t \alpha_t\,h_t(x)\Big)\end{gathered}"
)
st.markdown(
    r"""
A committee no better than a coin toss ($\varepsilon_t = \tfrac12$) gets
$\alpha_t = 0$. As `perceptron_core.boosting` runs it, a round with
$\varepsilon_t \ge \tfrac12$ is dropped and $d$ starts again from uniform,
and $\varepsilon_t$ is kept at least $10^{-10}$, so a round without a
weighted error gets $\alpha_t = \tfrac12\ln(10^{10}) \approx 11.5$ rather
than an infinite vote. Then the weights change: **AdaBoost** raises the
weight of every misclassified pattern, which with label noise means the
flipped ones, again and again; **NR boosting** (Cantador & Dorronsoro)
*lowers* the weight of the noisy patterns, raises that of the safe ones and
leaves the borderline ones alone (Cantador & Dorronsoro write the factor
$R(X)$; here $R$ is kept for a radius):
"""
)
st.latex(
    r"d_{t+1}(x) \propto d_t(x)\,e^{-\alpha_t r(x)\,y\,h_t(x)},\qquad "
    r"r(x) = \begin{cases}1 & \text{AdaBoost}\\ -1 & \text{NR, safe or noisy}\\"
    r"0 & \text{NR, borderline}\end{cases}"
)
st.markdown(
    r"""
**In the charts:** both boosters on the figure's training set, with
committees like the figure's ($H$ members, 250 epochs), computed live:
$\varepsilon_t$ (left) and $\alpha_t$ (right) for each round; a missing
$\alpha_t$ is a dropped round.
"""
)
if data is not None:
    rounds = lesson_study("l10_boosting", H=H, noise=noise, seed=seed)
    left, right = st.columns(2)
    chart(rounds_figure(rounds, "ε_t", "weighted error ε_t"), key=f"{PREFIX}eps", where=left)
    chart(rounds_figure(rounds, "α_t", "vote α_t"), key=f"{PREFIX}alpha", where=right)
    st.caption(
        f"Computed live: perceptron_core.boosting.AdaBoost and NRBoost, {BOOSTING_ROUNDS} "
        f"rounds, committees of H = {H}, {COMMITTEE_EPOCHS} epochs, the figure's "
        f"{len(data.y)} training patterns "
        f"(seed {seed}, {noise:.0%} flipped); ε_t after the floor of 10⁻¹⁰."
    )
    first = rounds[(rounds["booster"] == "AdaBoost") & rounds["kept"]].iloc[0]
    eps_shown = epsilon_text(first["ε_t"])
    at_floor = first["ε_t"] <= EPSILON_FLOOR * (1 + 1e-9)
    computation_question(
        f"{PREFIX}a",
        f"AdaBoost's round {int(first['round t'])} on screen has weighted error "
        f"ε_t = {eps_shown}"
        + (" (the floor: its committee made no weighted error)" if at_floor else "")
        + ". What vote α_t does its committee get?",
        alpha_candidates(first["ε_t"]),
        "right",
        ".3f",
        why="α_t = ½ ln((1 − ε_t)/ε_t) = ½ ln("
        + (f"(1 − {eps_shown})" if first["ε_t"] < 1e-4 else f"{1 - first['ε_t']:.4f}")
        + f" / {eps_shown}) "
        "= {answer}, the right chart's value for that round.",
        hints={
            "no half": "That is ln((1 − ε_t)/ε_t): the formula has a factor ½ in front.",
            "one over": "That is ½ ln(1/ε_t): the numerator is 1 − ε_t, the committee's "
            "weighted accuracy.",
            "base 10": "That is ½ log₁₀((1 − ε_t)/ε_t): the logarithm is the natural one, ln.",
        },
        seed=seed,
        heading=True,
    )

check_question(
    PREFIX,
    "A training pattern is flagged noisy: most members put it clearly on the other side of "
    "its label. What does NR boosting do with its weight in the next round, and what would "
    "AdaBoost do?",
    [
        "NR lowers it; AdaBoost raises it",
        "Both raise it, because the pattern is misclassified",
        "NR leaves it alone; AdaBoost lowers it",
    ],
    answer=0,
    why="For a noisy pattern y·h(x) = −1; AdaBoost (r = 1) multiplies its weight by e^{α}, NR "
    "boosting (r = −1) by e^{−α}, so a probably flipped label stops attracting the next "
    "committees.",
    hints={
        1: "That is AdaBoost's rule for every pattern. What does r = −1 do to the exponent?",
        2: "Leaving the weight alone is NR's rule for the borderline patterns (r = 0).",
    },
    heading=data is None,  # the first one sits in section 3,
)

research(
    r"""
Cantador & Dorronsoro (2005) trained parallel perceptrons with the p-delta
rule of Auer, Burgsteiner & Maass (ICANN 2002, which they cite; a paper
outside the ones this app reproduces), used their activation margins to
flag noise, and compared the ensembles on twonorm, threenorm and ringnorm
with up to 30 % flipped labels (their Table 1). NR boosting of parallel
perceptrons was more robust to label noise than AdaBoost of the same
committees. Against bagging it was at least as good in 14 of the 15 cells;
in the remaining one, threenorm without noise, bagging did better (79.4
against 78.2). Their comparison, small and live (test accuracy in %, clean test folds):
""",
    "P. Auer, H. Burgsteiner and W. Maass, “Reducing communication for distributed "
    "learning in neural networks”, ICANN 2002, LNCS 2415, 123–128 (the p-delta rule "
    "only); I. Cantador and J. R. Dorronsoro, “Boosting "
    "parallel perceptrons for "
    "label noise reduction in classification problems”, IWINAC 2005, LNCS 3562, 586–593.",
    compute=lambda: one_decimal(lesson_study("l10_nr", seed=seed)),
    caption=f"Computed live: {NR_PROBLEM}, 300 examples, one repeat of {NR_FOLDS}-fold "
    "stratified cross-validation (seed "
    f"{seed}), exactly that share of each training part flipped; committees of 3, 250 epochs, "
    "10 members or rounds (perceptron_core.experiments.nr_comparison). Flag precision and "
    "recall: the first NR round's noisy flags against the flipped labels, pooled over folds.",
)

show_code(
    _p_delta,
    NRBoost._reweighting,
    intro="`_p_delta` is the committee's training loop (the summed steps, the unit-norm "
    "rescaling, the adaptive ρ (`gamma`) and η); `NRBoost._reweighting` turns the categories into "
    "r = 0 or −1.",
)

exercises(10, seed=seed, noise=noise, H=H, data=data, run=run)
