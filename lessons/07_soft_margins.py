"""Lesson 7. Soft margins: the λ-trick in both forms, and the α-bound.

The figure trains on points with flipped labels using one of three
soft-margin devices: KW's λ-trick (indicator form), PAUM's λ-trick (kernel
form, growing with each update) or the α-bound. Beside it, the last pass
before the current step: how many updates there were and how many of them
the flipped points forced, how many visits the λ push rescued or the
α-bound blocked, and the test accuracy. The research box repeats Khardon &
Wachman's comparison of the switches on their artificial data. Session keys
start with ``l07_``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from perceptron_core.rules import kw
from perceptron_lab.app_logic.exercises.lesson_07 import REPLAY
from perceptron_lab.app_logic.learners import KW_SWITCHES_OFF
from perceptron_lab.app_logic.payload.extras import Panel, Value
from perceptron_lab.app_logic.studies_basics import KW_FEATURES, KW_FOLDS, KW_MARGIN
from perceptron_lab.app_logic.studies_variants import (
    SWITCH_ALPHAS,
    SWITCH_COLUMNS,
    SWITCH_LAMS,
    SWITCH_SETS,
    SWITCH_TAUS,
)
from perceptron_lab.app_logic.style import Show
from perceptron_lab.app_logic.timeline import BLOCKED, RESCUED, UPDATE_KINDS
from perceptron_lab.lessons._basics import at_end, line_accuracies, noisy_line, seed_control
from perceptron_lab.lessons._charts import one_decimal
from perceptron_lab.lessons._notation import notation
from perceptron_lab.lessons._questions import computation_question
from perceptron_lab.ui.exercises import exercises
from perceptron_lab.ui.lesson import (
    check_question,
    lesson_header,
    research,
    show_code,
    stage,
    try_this,
)
from perceptron_lab.ui.runs import get_dataset
from perceptron_lab.ui.studies import lesson_study

PREFIX = "l07_"
NOISE = 0.15
EPOCHS = 30
FORMS = {
    "λ-trick, indicator form (KW)": "kw_lam",
    "λ-trick, kernel form (PAUM)": "paum_lam",
    "α-bound": "alpha",
}
LAMS = (0.0, 0.125, 0.25, 0.5, 1.0, 2.0, 4.0)
ALPHAS = (0, 1, 2, 3, 5, 10, 20)  # 0: no bound


def settings_for(form: str, strength: float, mean_sq_norm: float) -> tuple[str, dict]:
    """The learner key and its settings for a soft-margin device at a strength.

    PAUM's λ is an absolute score; it is scaled by the mean ‖x‖² so that one
    update's push has the size KW's form gives a typical point.
    """
    if form == "kw_lam":
        return "kw", {**KW_SWITCHES_OFF, "lam": strength}
    if form == "paum_lam":
        return "paum", {"tau_pos": 0.0, "tau_neg": 0.0, "eta": 1.0, "lam": strength * mean_sq_norm}
    return "kw", {**KW_SWITCHES_OFF, "alpha_bound": int(strength)}


def last_pass(run, data) -> list[Panel]:
    """Beside the figure: the last pass before each step, and the line's test accuracy."""
    tl = run.timeline
    kinds = tl.kind[0]
    updating = np.isin(kinds, UPDATE_KINDS)

    def per_pass(events: np.ndarray) -> np.ndarray:
        """At every step t: how many of the events t - m .. t - 1 are marked (m: one pass)."""
        so_far = np.r_[0, np.cumsum(events)]
        steps = np.arange(tl.n_events + 1)
        return so_far[steps] - so_far[np.maximum(steps - tl.n_samples, 0)]

    visits = np.minimum(np.arange(tl.n_events + 1), tl.n_samples)
    return [
        Panel(
            f"The last visits (at most one pass of {tl.n_samples}) before this step",
            [
                Value("visits counted", visits, per="step", format=","),
                Value("updates", per_pass(updating), per="step", format=","),
                Value(
                    "…forced by flipped points",
                    per_pass(updating & data.flipped[tl.index]),
                    per="step",
                    format=",",
                ),
                Value("rescued by the λ push", per_pass(kinds == RESCUED), per="step", format=","),
                Value(
                    "blocked by the α-bound", per_pass(kinds == BLOCKED), per="step", format=","
                ),
                Value(
                    "test accuracy of this line",
                    line_accuracies(run, data.X_test, data.y_test),
                    format=".1%",
                ),
            ],
        )
    ]


def push_candidates(x: np.ndarray, y: int, lam: float) -> dict[str, float]:
    """The computation question's candidates for the KW push λ y ‖x‖² of one point: the
    right one, −λ y ‖x‖² (the wrong way), λ y ‖x‖ (not squared) and, for when that shows
    the same three decimals (‖x‖ near 1), λ y (|x₁| + |x₂|)."""
    squared = float(np.sum(x**2))
    return {
        "right": lam * y * squared,
        "away": -lam * y * squared,
        "unsquared": lam * y * float(np.sqrt(squared)),
        "sum of sizes": lam * y * float(np.sum(np.abs(x))),
    }


def listed(values) -> str:
    """Grid values as a person writes them: ``(0.25, 1.0)`` -> ``"0.25, 1"``."""
    return ", ".join(f"{v:g}" for v in values)


def gains(table: pd.DataFrame) -> str:
    """One sentence from the research table: what each switch added to "nothing", per noise."""
    levels = ", ".join(table["label noise N"])
    parts = [
        f"{name} **{', '.join(f'{g:+.1f}' for g in table[name] - table['nothing'])}**"
        for name in list(SWITCH_COLUMNS.values())[1:]
    ]
    return f"Points gained over no switch at N = {levels}: " + "; ".join(parts) + "."


lesson_header(
    7,
    "Soft margins",
    "Stop a few mislabelled points from dragging the line around, with the λ-trick or an "
    "α-bound, and see how the two forms of the λ-trick differ.",
)
notation(("x, y", "w, θ", "η", "C", "τ", "λ", "a_j, α"))
st.markdown(
    r"""
On noisy data (lesson 3) the same few points, often the flipped ones, cause
update after update. A **soft margin** lets the learner give up on them. The
**λ-trick** does it by pretending, during training only, that every example
which has already caused an update is a little more on its own side. In
Khardon & Wachman's *indicator form*, with $a_j$ the updates example $j$ has
caused so far (its dual coefficient, which Khardon & Wachman write
$\alpha_j$: hence the name of the α-bound below):
"""
)
st.latex(
    r"\begin{gathered}s_j = \langle w, x_j\rangle + \lambda\,y_j\,\lVert x_j\rVert^2\,[a_j > 0]"
    r"\\ \text{(one fixed push, once the example has updated)}\end{gathered}"
)
st.markdown(
    r"""
PAUM's paper writes it as a kernel, $k(x,x') + \lambda[x = x']$; in the
dual score $\sum_i \eta a_i y_i k(x_i, x_j)$ the extra diagonal term is
"""
)
st.latex(
    r"\begin{gathered}f_j = \langle w, x_j\rangle + b + \lambda\,\eta\,a_j\,y_j"
    r"\\ \text{(a push that grows with every update it causes)}\end{gathered}"
)
st.markdown(
    r"""
A point that keeps being wrong, which is what a flipped label does, gets a
bigger push each time in the kernel form, until it lands on its own side and
stops updating. In the indicator form the push has one size, set by
$\lambda\lVert x_j\rVert^2$; a point deep on the wrong side is never rescued.
(The lesson scales the kernel form's $\lambda$ by the mean $\lVert x\rVert^2$,
so one update's push has the size the indicator form gives a typical point.)
Neither push ever changes $w$, and neither is used at test time.

The **α-bound** is blunter: example $j$ may cause at most $\alpha$ updates;
after that it is ignored:
"""
)
st.latex(r"\text{update only if } y_j\,(s_j - \theta) \le 0 \ \text{ and }\ a_j < \alpha")
st.markdown(
    r"""
Both borrow from the SVM's soft margin (lesson 5 writes out its objective,
the hinge loss plus a penalty on $\lVert w\rVert^2$), by analogy rather than
as its optimisation. Khardon & Wachman describe the α-bound as "motivated by the L1
soft margin technique", whose box constraint also caps each example's dual
weight; here the cap is on a count of updates. PAUM's kernel form of the
λ-trick is the kernel of the quadratic (L2) soft margin, a ridge $\lambda$
on the kernel's diagonal.

**In the figure:** × marks the flipped training labels; the dotted line is
the true boundary. With the KW λ-trick, purple rings mark the points that
have caused an update (their push is on) and a green ✚ a visit the push
rescued; with the α-bound, grey points have used up their updates. The box
beside it counts the last pass before the current step.
"""
)

cols = st.columns(3)
with cols[0]:
    form = FORMS[
        st.radio("Soft margin", list(FORMS), key=f"{PREFIX}form", help="Which device is on.")
    ]
with cols[1]:
    if form == "alpha":
        strength = st.select_slider(
            "α-bound (0 = off)",
            options=ALPHAS,
            value=3,
            key=f"{PREFIX}alpha",
            help="The most updates one example may cause.",
        )
    else:
        strength = st.select_slider(
            "λ (0 = off)",
            options=LAMS,
            value=1.0,
            key=f"{PREFIX}lam",
            help="Strength of the push towards the example's own label.",
        )
with cols[2]:
    seed = seed_control(PREFIX, default=1)
request = noisy_line(seed, NOISE)
mean_sq_norm = float(np.mean(np.sum(get_dataset(request).X ** 2, axis=1)))
learner_key, values = settings_for(form, strength, mean_sq_norm)
data, run = stage(
    PREFIX,
    request,
    learner_key,
    values,
    epochs=EPOCHS,
    show=Show(test_points=False, target=True, arrows=False),
    extras=last_pass,
    start=at_end,
    predict=REPLAY.predict,
)

try_this(
    "The figure opens at the end of training with the KW λ-trick at λ = 1. Set **λ** to 0 and "
    "read the box again: without the trick every pass has updates again, several of them "
    "forced by flipped points, and the line never settles.",
    "Switch **soft margin** to the kernel form (PAUM) and press **Next update** a few times "
    "from **Start**: the same flipped points come back, but each time with a larger push, "
    "until the box's *rescued* count takes over from their updates. With a screen reader: "
    'such a visit is announced as "rescued by the λ-trick, no update".',
    "Switch to the **α-bound** and set it to 1: every point may update once, so the last "
    "pass has almost no updates and many blocked visits. Is the line then any good? Compare "
    "the test accuracy with α = 20. With a screen reader: a blocked visit is announced as "
    '"blocked by the α-bound, no update".',
)

check_question(
    PREFIX,
    "A mislabelled point has already caused 5 updates. In which form of the λ-trick is its "
    "push now larger than after its first update?",
    [
        "The indicator form λ‖x‖²[a > 0] (KW)",
        "The kernel form λ η a_j (PAUM)",
        "Neither: both add the same fixed amount",
    ],
    answer=1,
    why="The kernel form's push is proportional to a_j, the updates the point has caused, "
    "so after 5 updates it is 5 times the first one; KW's indicator form switches on once "
    "and stays the same size.",
    hints={
        0: "[a > 0] is 0 or 1: does it grow after the first update?",
        2: "Look at where a_j enters each formula.",
    },
)

data = get_dataset(request)
lam_q = strength if form != "alpha" and strength > 0 else 1.0
x_q, y_q = data.X[data.flipped][0], int(data.y[data.flipped][0])
computation_question(
    f"{PREFIX}p",
    f"A push by hand: the first flipped training point (a × in the figure) is x = "
    f"({x_q[0]:.3f}, {x_q[1]:.3f}) with the label y = {y_q:+d}. Once it has caused an update, "
    f"what does the KW λ-trick at λ = {lam_q:g} add to its score s_j?",
    push_candidates(x_q, y_q, lam_q),
    "right",
    "+.3f",
    why=f"λ y ‖x‖² = {lam_q:g} · ({y_q:+d}) · {float(np.sum(x_q**2)):.4f} = "
    "{answer}: towards the side of its (flipped) label.",
    hints={
        "away": "The push moves the score towards the point's own label y, so it has y's sign.",
        "unsquared": "The indicator form pushes by λ times the squared Euclidean norm "
        "‖x‖² = x₁² + x₂².",
        "sum of sizes": "The indicator form pushes by λ times the squared Euclidean norm "
        "‖x‖² = x₁² + x₂², not |x₁| + |x₂|.",
    },
    seed=seed,
)

table = research(
    r"""
Khardon & Wachman (2007, Section 3) tested the λ-trick and the α-bound,
which come from SVM theory with noise tolerance in mind, against the plain
perceptron and the perceptron with margin, on artificial data with label
noise and on UCI data. The two soft-margin switches improved on the plain
perceptron "in a number of cases", but not on every data set, and "λ
sometimes leads to a drop in performance"; in their abstract's words they
"do not give additional performance benefits" over the margin τ of lesson
5, which was not designed for noise at all, and they cost more run time.
That is a verdict over many data sets, not cell by cell: in their own
Table 4 the α-bound edges past τ at 10 % noise (85.1 against 84.6, last
hypothesis), and the live table below can put a switch above τ in a row
too. Their parameter search, small and live (accuracy of the last
hypothesis in %, the best setting of each switch):
""",
    "R. Khardon and G. Wachman, “Noise tolerant variants of the perceptron algorithm”, "
    "JMLR 8, 227–248 (2007); Y. Li et al., “The perceptron algorithm with uneven margins”, "
    "ICML 2002 (the kernel form).",
    compute=lambda: one_decimal(lesson_study("l07_switches", seed=seed)),
    caption=f"Computed live: {SWITCH_SETS} data sets of KW's artificial data per row "
    f"(f = {KW_FEATURES}, M = {KW_MARGIN}, 600 examples, seed {seed}), {KW_FOLDS}-fold "
    f"cross-validation, η = 0.1, 100 epochs; λ ∈ {{{listed(SWITCH_LAMS[1:])}}}, "
    f"α ∈ {{{listed(SWITCH_ALPHAS[1:])}}}, τ ∈ {{{listed(SWITCH_TAUS[1:])}}}; each column is the "
    "best of its switch's settings on the test "
    "folds themselves, so it is optimistic (lesson 11 shows the honest way).",
)

if table is not None:
    st.markdown(gains(table.data))

show_code(
    kw.decide,
    intro="Lesson 1's decision with both switches: `push = y * lam * norms2[j]`, added to "
    "`raw` once `a > 0`, is the indicator form (the trace records it beside the score, and the "
    "playground's math panel shows it), and `if a < alpha_bound` is the α-bound. PAUM's kernel "
    "form is the line `f = raw + lam * eta * a * y` of lesson 6's code.",
)

exercises(
    7, seed=seed, form=form, strength=strength, mean_sq_norm=mean_sq_norm, data=data, run=run
)
