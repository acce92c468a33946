"""Lesson 9. Winnow against the perceptron: multiplicative and additive updates.

The data are boolean and labelled by a disjunction of ``k`` of their ``n``
features; everything else is irrelevant. The figure counts the mistakes of
one on-line pass of Winnow and of the perceptron as ``n`` grows (computed
live, averaged over a few draws), next to Winnow's bound; a second chart
shows the weights each learner ends with. A second setting (k = n/2, about
1.4 active features per example) shows the perceptron's side. All three are
studies (:mod:`app_logic.studies_winnow`), prepared for the opening settings
by ``perceptron-lab warm``. A replay shows the notes' balanced version learning
a line in the plane, in predict mode. A question asks for Winnow's bound. The
research box tabulates the same runs. Session keys start with ``l09_``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from perceptron_core.rules import winnow
from perceptron_lab.app_logic.exercises.lesson_09 import REPLAY
from perceptron_lab.app_logic.studies_winnow import (
    DRAWS,
    FIGURE_EPOCHS,
    LEARNER_NAMES,
    N_TEST,
    NS,
    figure_request,
    promotions_and_demotions,
)
from perceptron_lab.app_logic.style import BLUE, GREY, ORANGE, VERMILLION, Show
from perceptron_lab.lessons._basics import seed_control
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

PREFIX = "l09_"
KS = (1, 2, 3, 5, 8)
PASSES = (500, 1000, 2000, 4000)
#: The two settings: k from the slider (few relevant features, Winnow's side), or half of the
#: n features relevant, which leaves about 2 ln 2 ≈ 1.4 active features per example.
SIDES = {
    "Few relevant features (Winnow's side)": "winnow",
    "Few active features per example (the perceptron's side)": "perceptron",
}
N_COMPARED = 256  # the n of the sentence under the chart
N_BEYOND = 4 * NS[-1]  # the bound question's n: past the chart, so no curve or table has it


def bound_candidates(k: int, n: int) -> dict[str, float]:
    """The computation question's candidates for Winnow's bound at ``k``, ``n``: the right
    ``2 + 3k(1 + log₂ n)``, ``3k log₂ n`` (the 2 and the 1 left out) and
    ``2 + 3k(1 + ln n)`` (the natural logarithm)."""
    return {
        "right": 2 + 3 * k * (1 + np.log2(n)),
        "no 2 and 1": 3 * k * np.log2(n),
        "natural log": 2 + 3 * k * (1 + np.log(n)),
    }


def mistakes_figure(table: pd.DataFrame) -> go.Figure:
    """Mistakes against n on a log axis: Winnow, the perceptron and Winnow's bound."""
    fig = go.Figure()
    for name, color in (("Winnow", ORANGE), ("Perceptron", BLUE)):
        fig.add_scatter(
            x=table["n features"],
            y=table[f"{name} mistakes"],
            name=name,
            mode="lines+markers",
            line={"color": color, "width": 3},
        )
    if "Winnow bound" in table:  # the perceptron's side: k = n/2 puts the bound off the chart
        fig.add_scatter(
            x=table["n features"],
            y=table["Winnow bound"],
            name="Winnow's bound 2 + 3k(1 + log₂n)",
            mode="lines",
            line={"color": ORANGE, "dash": "dot"},
        )
    return small_chart(
        fig,
        420,
        {"title": "n (features; all but k irrelevant)", "type": "log", "tickvals": list(NS)},
        {"title": "mistakes in one on-line pass"},
    )


def step_sizes(run) -> str:
    """How far the figure's first and last updates moved w, and the largest move."""
    W = run.timeline.W[0]
    moves = np.linalg.norm(np.diff(W, axis=0), axis=1)
    if len(moves) == 0:
        return "In this run Balanced Winnow made no update: change the data seed."
    return (
        f"**In this run:** {len(moves)} updates; the first moved w by "
        f"**{moves[0]:.3g}**, the last by **{moves[-1]:.3g}**, the largest by "
        f"**{moves.max():.3g}**."
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
                x=weights[name][mask],
                y=row + 0.25 * (np.random.default_rng(row).random(mask.sum()) - 0.5),
                mode="markers",
                name=label,
                legendgroup=label,
                showlegend=row == 0,
                marker={"color": color, "size": size, "opacity": 0.7},
                hovertemplate=f"{name}: w/θ = %{{x:.3f}}<extra></extra>",
            )
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
notation(("x, y", "w, θ", "η", "C", "θ_init", "2"))
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
    r"\text{Winnow: } w_i \leftarrow w_i \cdot 2^{\,y} \ "
    r"\text{ for every } i \text{ with } x_i = 1"
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
predicting each example before learning from it. Winnow starts every weight
at 1 with $\theta = n$ and predicts +1 when $\langle w, x\rangle \ge \theta$, as
the course notes write it, so a score of exactly 0 counts as +1. The
perceptron is lesson 1's form with $\eta = 0.1$ and $\theta_{init} = C$, $C$ the
mean number of active features (the mean $\lVert x\rVert^2$) rounded to a multiple
of 1/1024, run as $\eta = 1$ and $\theta_{init} = 10\,C$ (the same run scaled by
10, lesson 1), so that every weight is a whole number and every threshold and
score a whole number of 1/1024, which the computer holds exactly; its test
$y(\langle w, x\rangle - \theta) \le 0$ makes a score of exactly 0 a mistake on
either label (after the pass, a score of 0 predicts −1). On boolean data such
ties do happen, and both learners compute them exactly. The curves are the
mistakes of that pass, the mean over three draws; the dotted curve is
Winnow's bound (a pass over $m$ examples can make at most $m$ mistakes,
which is why the perceptron's curve bends at large $n$). The second chart
shows the weights after the pass, divided by the threshold: a feature at 1
or more fires a positive on its own.
"""
)

side = SIDES[st.radio("Setting", list(SIDES), key=f"{PREFIX}side", horizontal=True)]
cols = st.columns(3)
with cols[0]:
    k = st.select_slider(
        "Relevant features k",
        options=KS,
        value=3,
        key=f"{PREFIX}k",
        help="How many features the disjunction uses (Winnow's side; on the perceptron's "
        "side k = n/2).",
        disabled=side == "perceptron",
    )
with cols[1]:
    m = st.select_slider(
        "Examples in the pass m",
        options=PASSES,
        value=2000,
        key=f"{PREFIX}m",
        help="One on-line pass: each is predicted, then learned from.",
    )
with cols[2]:
    seed = seed_control(PREFIX)
if side == "winnow":
    table = lesson_study("l09_mistakes", k=k, m=m, seed=seed)
else:
    table = lesson_study("l09_perceptron_side", m=m, seed=seed)
chart(mistakes_figure(table), key=f"{PREFIX}mistakes")
compared = table[table["n features"] == N_COMPARED].iloc[0]
winner = min(LEARNER_NAMES, key=lambda name: compared[f"{name} mistakes"])
setting = (
    f"k = {k} relevant features"
    if side == "winnow"
    else f"k = {N_COMPARED // 2} relevant features, "
    f"{compared['active features per example']:.2f} active features per example on average, "
    f"at most {compared['most active features']} in a sequence"
)
st.markdown(
    f"At n = {N_COMPARED} ({setting}): Winnow **{compared['Winnow mistakes']:.1f}** mistakes, "
    f"the perceptron **{compared['Perceptron mistakes']:.1f}**: fewer for "
    f"**{'Winnow' if winner == 'Winnow' else 'the perceptron'}**."
)
if side == "winnow":
    n_shown = st.select_slider(
        "Weights after the pass for n =",
        options=NS,
        value=256,
        key=f"{PREFIX}n",
    )
    weights = lesson_study("l09_weights", n=n_shown, k=k, m=m, seed=seed)
    chart(weights_figure(weights), key=f"{PREFIX}weights")
    for name in ("Winnow", "Perceptron"):
        if np.isnan(weights[name]).all():
            st.caption(
                f"After this pass the {name.lower()}'s threshold is θ = "
                f"{weights[f'{name} θ']:.2g}, not above 0 (an example with no active "
                "feature already scores at or above it): weights divided by θ say nothing, so "
                "its row is empty. Pick another n or data seed."
            )

st.header("Where Winnow's bound comes from", anchor="winnow-bound")
st.markdown(
    r"""
The course notes (section 1.2) derive the bound by counting Winnow's mistakes
on positives, its **promotions** $p$, and on negatives, its **demotions** $d$
(they write $u$ and $v$). Three steps:

1. **Promotions.** A negative example of a disjunction has none of the $k$
   relevant features on, so a relevant weight is never halved. A missed positive
   has $\langle w, x\rangle < \theta = n$ and at least one relevant feature on,
   whose weight is then below $n$: every promotion doubles a relevant weight
   that is below $n$. Starting at 1, one weight can be doubled that way at most
   $1 + \log_2 n$ times, so $p \le k\,(1 + \log_2 n)$.
2. **Demotions.** Follow the total weight $W = \sum_i w_i$, $n$ at the start and
   always above 0. A promotion doubles active weights that sum to less than
   $\theta = n$: $W$ grows by less than $n$. A demotion halves active weights
   that sum to at least $n$: $W$ falls by at least $n/2$. So
   $0 < W < n + p\,n - d\,n/2$, that is $d < 2(p + 1)$.
3. **Together**, $p + d < 3p + 2 \le 2 + 3k\,(1 + \log_2 n)$: the bound above.
"""
)
if side == "winnow":
    st.dataframe(promotions_and_demotions(N_COMPARED, k, m, seed), hide_index=True)
    st.caption(
        f"Computed live: Winnow's pass over each of the {DRAWS} data sets of the chart at "
        f"n = {N_COMPARED} (k = {k}, m = {m}, seed {seed}), its mistakes split by the label "
        "of the example (perceptron_core.Winnow, record='updates')."
    )

st.header("One update at a time: the balanced version", anchor="one-update")
st.markdown(
    r"""
Winnow's weights never turn negative, so it learns monotone concepts such as
the disjunctions of the chart. For the general case the course notes
(section 1.3) give a **balanced version**: two positive weights per feature,
$w^+_i$ and $w^-_i$, whose difference $w_i = w^+_i - w^-_i$ is the weight the
score uses. A missed positive doubles $w^+_i$ and halves $w^-_i$ for every
active feature; a false alarm does the reverse. The playground's Balanced
Winnow writes the same rule for features of any value, with $\alpha = 2$:
"""
)
st.latex(
    r"w^+_i \leftarrow w^+_i\,\alpha^{\,y\,x_i} \qquad w^-_i \leftarrow w^-_i\,\alpha^{-y\,x_i}"
)
st.markdown(
    r"""
For $x_i \in \{0, 1\}$ that is the notes' rule, and a feature with $x_i = 0$
keeps its weights. Every weight starts at 1 (so $w = 0$), $\theta$ is the
number of features ($n = 2$ here), and a constant input 1 with a weight pair
of its own moves the line's offset.

**In the figure:** Balanced Winnow on 40 points of the plane split by a
random line (the dotted one), ten passes, drawn from the data seed above. The
arrow is $w = w^+ - w^-$ and the math panel does the arithmetic of each step.
An update changes $w_i$ by $w^+_i(\alpha^{y x_i} - 1) + w^-_i(1 - \alpha^{-y x_i})$:
an amount proportional to the weights themselves, where the perceptron's
step $\eta y x$ has the same size at every update. Predict mode is on: before
a few steps the figure asks what the learner will do.
"""
)
figure_data, figure_run = stage(
    PREFIX,
    figure_request(seed),
    "balanced_winnow",
    epochs=FIGURE_EPOCHS,
    show=Show(band=False, test_points=False, target=True),
    predict=REPLAY.predict,
)
if figure_run is not None:
    st.markdown(step_sizes(figure_run))

st.header("The other side: few active features", anchor="the-other-side")
st.markdown(
    r"""
The course notes (section 2.1) compare the two families by their mistake
bounds. For the multiplicative family (Winnow) the bound is
$2 \ln n\,\lVert u\rVert_1^2 \max_i \lVert x^{(i)}\rVert_\infty^2 / \min_i (u
\cdot x^{(i)})^2$, the better one when the concept has few relevant
features; for the additive family (the perceptron) it is $\lVert
u\rVert_2^2 \max_i \lVert x^{(i)}\rVert_2^2 / \min_i (u \cdot x^{(i)})^2$,
which "has an advantage when there are few active features per example"
(their words). Both are for a separator through the origin, so fold the
disjunction's threshold in first (as lesson 2 did): an extra feature, always
1, with weight $-\tfrac12$ in $u$, next to $k$ ones. Then
$u \cdot x = (\text{relevant active features}) - \tfrac12$ is at least
$\tfrac12$ on a positive and $-\tfrac12$ on a negative, so both denominators
are $\min_i (u \cdot x^{(i)})^2 = \tfrac14$. With $\lVert u\rVert_1 = k +
\tfrac12$, $\lVert u\rVert_2^2 = k + \tfrac14$, $\lVert x\rVert_\infty = 1$
and $\lVert x\rVert_2^2 = a + 1$ for an example with $a$ active features,
the numerators are
"""
)
st.latex(
    r"\text{Winnow: } 2\ln(n + 1)\,\big(k + \tfrac12\big)^2 \qquad"
    r"\text{perceptron: } \big(k + \tfrac14\big)\big(a_{\max} + 1\big)"
)
st.markdown(
    r"""
where $a_{\max} = \max_i a_i$ is the largest number of active features of
any example in the sequence, not their mean. With few relevant features ($k$
small) and many active ones ($a_{\max}$ grows with $n$), Winnow's is the
smaller once $n$ is large; with many relevant features and few active ones
($k = n/2$: about 1.4 active features on average, and $a_{\max}$ only a few
more, which the sentence under the chart gives) the perceptron's is, for
every $n$. Pick **the
perceptron's side** under **Setting** to see the second case: the chart
then counts the mistakes with $k = n/2$, each feature on with chance
$1 - 2^{-1/k}$ (so half the labels are still positive), and the sentence
under it compares the two at $n = 256$.
"""
)

try_this(
    "Read the two curves at n = 16 and at n = 1024: Winnow's mistakes grow by a constant "
    "for every doubling of n (a straight line on this log axis), the perceptron's multiply. "
    "Now set **k** to 8: Winnow's line moves up (its bound grows with k) but stays straight. "
    "With a screen reader: **The numbers**, under the chart, lists both curves n by n.",
    "Set **m** to 500: the perceptron's curve bends flat at large n. It has not learned "
    "faster: it is still wrong on a large share of the pass when it runs out of examples "
    "(the research table gives its test accuracy). With a screen reader: **The numbers**, "
    "under the chart, gives the curve n by n.",
    "Move **weights after the pass** from n = 256 to 1024: Winnow's relevant weights stay at "
    "the threshold (one of them fires a positive alone) and the irrelevant ones near 0; the "
    "perceptron's relevant weights fall from above the threshold to below it, so it needs "
    "irrelevant features to help, and misfires. With a screen reader: **The numbers**, under "
    "that chart, lists every weight ÷ threshold, the relevant features as their own series.",
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

beyond_bound = 2 + 3 * k * (1 + np.log2(N_BEYOND))
computation_question(
    f"{PREFIX}b",
    f"A bound by hand: with k = {k} relevant features (the slider) and n = {N_BEYOND:,} "
    f"features, four times the chart's largest n, how many mistakes at most does Winnow's "
    "bound 2 + 3k(1 + log₂ n) allow?",
    bound_candidates(k, N_BEYOND),
    "right",
    ".1f",
    why=f"log₂ {N_BEYOND:,} = {np.log2(N_BEYOND):g}, so 2 + 3·{k}·(1 + "
    f"{np.log2(N_BEYOND):g}) = {beyond_bound:.1f}: two doublings past n = {NS[-1]:,} add "
    f"2·3k = {6 * k} to the bound there (the end of the dotted curve on Winnow's side).",
    hints={
        "no 2 and 1": "That leaves out the 2 and the 1 in 2 + 3k(1 + log₂ n).",
        "natural log": "The logarithm is base 2: one doubling of a weight per step of log₂ n.",
    },
    seed=seed,
)

research(
    r"""
Littlestone (1988) introduced Winnow to learn "quickly when irrelevant
attributes abound" (his title): in his analysis of Winnow, the mistakes on a
$k$-literal disjunction are $O(k \log n)$, only logarithmic in the number of
features, while additive
rules like the perceptron can need a number of mistakes that grows linearly
with $n$ (the course notes, section 0.3.4, pose the search for a sequence
that forces $O(n)$ perceptron mistakes on a $k$-disjunction, without
building one;
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
    caption="Computed live (perceptron_core.Winnow with promotion factor 2, its alpha, θ = n, "
    "+1 at a score of 0; perceptron_core.Perceptron with η = 1, θ_init = 10 C, C the mean "
    "number of active features rounded to a multiple of 1/1024, a score of 0 a mistake): one pass "
    "over "
    f"m = {m} examples of "
    "make_k_of_n_disjunction with "
    + (f"k = {k}" if side == "winnow" else "k = n/2 (the perceptron's side)")
    + f", mean over {DRAWS} draws (seed {seed}); test accuracy on {N_TEST} fresh examples "
    "after the pass.",
)
growth = {
    name: table[f"{name} mistakes"].iloc[-1] / table[f"{name} mistakes"].iloc[0]
    for name in LEARNER_NAMES
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

exercises(9, seed=seed, k=k, m=m, side=side, table=table, data=figure_data, run=figure_run)
