"""Lesson 12. More than two classes: one against the rest, and the multiclass perceptron.

Khardon & Wachman's one-against-the-rest (their section 2.7, what every other learner of the lab
does with more than two classes) against the multiclass perceptron, a weight vector per class
of which a mistake moves two; Kesler's construction turns it into the two-class perceptron, so
Novikoff's bound counts its updates. The figure trains the multiclass perceptron on three
classes; the research box cross-validates both on the multi-class sets the lab has. Session
keys start with ``l12_``.
"""

from __future__ import annotations

import math

import numpy as np
import streamlit as st

from perceptron_core import Perceptron
from perceptron_core.engine import multiclass_trainer
from perceptron_core.modes import MODES
from perceptron_core.multiclass import kesler_bound, kesler_vectors
from perceptron_lab.app_logic.datasource import DataRequest
from perceptron_lab.app_logic.exercises.lesson_12 import REPLAY
from perceptron_lab.app_logic.payload.extras import Panel, Text
from perceptron_lab.app_logic.studies_multiclass import (
    COMPARE_EPOCHS,
    COMPARE_FOLDS,
    LEARNER_NAMES,
)
from perceptron_lab.app_logic.style import Show
from perceptron_lab.lessons._basics import seed_control
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
from perceptron_lab.ui.studies import lesson_study

PREFIX = "l12_"
EPOCHS = 30
N_POINTS = 90


def kesler_box(run, data) -> list[Panel]:
    """Beside the figure: the bound through Kesler's construction and the updates so far."""
    classes = data.class_labels()[0]
    bound, R, gamma = kesler_bound(data.X, classes, len(data.all_classes))
    if not (gamma > 0 and np.isfinite(bound)):
        return [
            Panel(
                "The bound through Kesler's construction",
                [
                    Text(
                        "No linear machine separates these training classes (the noise put "
                        "points in other classes' wedges): the bound does not apply, and the "
                        "updates go on. Updates so far: {updates}."
                    )
                ],
            )
        ]
    # the bar of the updates against the bound is the replay's own (the meter above this box)
    return [
        Panel(
            "The bound through Kesler's construction",
            [
                Text(
                    f"R = {R:.3g} (√2 times the longest (x, 1)), γ = {gamma:.3g}: at most "
                    f"(R/γ)² = {math.floor(bound):,} updates. Updates so far: {{updates}}."
                )
            ],
        )
    ]


def one_against_the_rest(data, seed: int) -> tuple[list[int], float]:
    """The lab's one-against-the-rest perceptron on the figure's data: the updates each class's
    perceptron made in the last of :data:`EPOCHS` epochs, and its training accuracy."""
    X, classes = data.X, data.class_labels()[0]
    clf = Perceptron(epochs=EPOCHS, random_state=seed, record="updates").fit(X, classes)
    last = [int(np.sum(clf.trace_[k].epoch == EPOCHS - 1)) for k in clf.classes_]
    return last, float(clf.score(X, classes))


lesson_header(
    12,
    "More than two classes",
    "See two ways a perceptron learns several classes, and why the one that learns them "
    "together keeps Novikoff's guarantee.",
)
notation(("x, y", "w, θ", "θ_init", "η", "K, c", "w_k, b_k", "r", "φ, U", "R", "u, γ"))
st.markdown(
    r"""
Every learner of the earlier lessons tells two classes apart. Khardon & Wachman meet data of
more than two labels (the digits of USPS and MNIST) and use the standard answer (their
section 2.7): **one against the rest**. For each label $l$ a perceptron learns to separate
the examples labelled $l$ (the positive ones) from all the others (the negative ones); the
perceptrons train side by side, on-line, in the same pass over the data; and a new example
gets the label whose perceptron gives it the largest score, taken before the sign. The lab's
other on-line learners learn several classes this way (the playground draws one of those
perceptrons: the class you pick against the rest; the committees of lesson 10 take two
classes only), and none of the perceptrons sees the others' scores.

The **multiclass perceptron** learns the classes together. Class $k$ has weights $w_k$ and
a bias $b_k$ and scores $s_k = \langle w_k, x\rangle + b_k$; the prediction is the class of
the highest score, a *linear machine* (Duda, Hart & Stork, *Pattern Classification*, 2001,
§5.2.2). All start at 0. On an example $x$ of class $c$, let the **rival** $r$ be the other
class with the highest score:
"""
)
st.latex(
    r"\begin{gathered}s_c \le s_r \;\Longrightarrow\; w_c \leftarrow w_c + \eta x,\quad"
    r" b_c \leftarrow b_c + \eta,\\"
    r"w_r \leftarrow w_r - \eta x,\quad b_r \leftarrow b_r - \eta\end{gathered}"
)
st.markdown(
    r"""
and nothing moves when $s_c > s_r$. A mistake moves exactly two vectors: the true class's
towards $x$ and the rival's away from it, which raises $s_c$ and lowers $s_r$ by
$\eta(\lVert x\rVert^2 + 1)$ each. Duda, Hart & Stork write this fixed-increment rule for the
linear machine (§5.12.2). **Ties** (docs/algorithms.md §11): in training a tie is a mistake,
so from all-zero weights the first example always updates, and the rival is the first of the
highest other scores in class order; a prediction gives the first of the classes with the
highest score.

**Kesler's construction** (Duda, Hart & Stork, §5.12.1) makes it a two-class perceptron. Stack
every class's $(w_k, b_k)$ into one vector $U$ of $K(n + 1)$ numbers, and write an example $x$
of class $c$ as $K - 1$ vectors, one per other class $k$: $\varphi(x, c, k)$ holds $(x, 1)$ in
class $c$'s block, $-(x, 1)$ in class $k$'s and zeros elsewhere. Then
"""
)
st.latex(
    r"\langle U, \varphi(x, c, k)\rangle = s_c - s_k, \qquad "
    r"U \leftarrow U + \eta\,\varphi(x, c, r) \text{ on a mistake}"
)
st.markdown(
    r"""
The machine classifies $x$ right exactly when all its $K - 1$ vectors have
$\langle U, \varphi\rangle > 0$, and its update is the two-class perceptron's update on a
vector with $\langle U, \varphi\rangle \le 0$, a mistake of that perceptron (labels all $+1$).
So Novikoff's theorem (lesson 2; CS 446 notes, §0.3.3) applies to the vectors $\varphi$ as
they are: if a unit vector $u$ has $\langle u, \varphi\rangle \ge \gamma > 0$ for every
$\varphi$ of the training set, the multiclass perceptron makes at most
"""
)
st.latex(
    r"\left(\frac{R}{\gamma}\right)^{2} \text{ updates}, \qquad "
    r"R = \max \lVert\varphi\rVert = \sqrt{2}\,\max_j \lVert (x_j, 1)\rVert"
)
st.markdown(
    r"""
($\varphi$ holds $(x, 1)$ twice, hence $\sqrt 2$), for any $\eta > 0$: from zero weights
$\eta$ only scales every vector. One against the rest has no such guarantee: each of its
perceptrons has Novikoff's bound only when its own class can be cut from all the others by
one line, and the regions of a linear machine need not allow that (under the figure, its
perceptrons on the same points, computed live).

**In the figure:** three classes, each a wedge of a random linear machine with a gap you
choose (the set `three_classes`), trained by the multiclass perceptron. The regions are the
classes the chosen predictor gives each point; the arrows are the class vectors $w_k$ from
the middle of the view, and at an update the two that moved are thick, their old vectors
grey. The box under the math panel gives $R$, $\gamma$ and the bound for these points, and
the updates so far.
"""
)

a, b, c, d = st.columns(4)
with a:
    margin = st.select_slider(
        "Gap at the boundaries",
        options=(0.01, 0.02, 0.05, 0.1, 0.2, 0.3),
        value=0.1,
        key=f"{PREFIX}margin",
        help="Distance from every point to the boundaries of its class (the generator's margin).",
    )
with b:
    noise = st.select_slider(
        "Label noise",
        options=(0.0, 0.05, 0.1, 0.2),
        value=0.0,
        format_func=lambda p: f"{p:.0%}",
        key=f"{PREFIX}noise",
        help="Share of the training labels moved to another class.",
    )
with c:
    mode = st.radio(
        "The regions show",
        MODES,
        index=0,
        key=f"{PREFIX}mode",
        help="Which of the four predictors of the one run the regions and their borders show.",
    )
with d:
    seed = seed_control(PREFIX)
request = DataRequest(
    "three_classes",
    (("margin", margin), ("n_samples", N_POINTS)),
    noise_kind="uniform" if noise else "none",
    noise_rate=noise,
    seed=seed,
)
data, run = stage(
    PREFIX,
    request,
    "multiclass",
    values={"predict_with": mode},
    epochs=EPOCHS,
    show=Show(band=False),
    extras=kesler_box,
    start=lambda tl: tl.next_update(tl.next_update(0)),
    predict=REPLAY.predict,
)

if run is not None:
    last, accuracy = one_against_the_rest(data, seed)
    converged = run.estimator.converged_
    st.markdown(
        f"**On these points**, computed live: the multiclass perceptron made "
        f"{run.estimator.n_updates_:,} updates and "
        + (
            f"stopped after epoch {run.estimator.n_iter_ - 1}, the last with an update."
            if converged
            else f"was still updating in epoch {EPOCHS}."
        )
        + f" One against the rest (the KW perceptron, one per class, {EPOCHS} epochs) made, in "
        "its last epoch, "
        + ", ".join(f"{n} updates for class {name}" for n, name in zip(last, data.all_classes))
        + (
            " (a perceptron still updating has not separated its class from the rest)"
            if any(last)
            else " (each separated its class from the rest)"
        )
        + f"; its training accuracy at the end is {accuracy:.1%}."
    )

try_this(
    "Press **Next update** (or U) a few times. Two arrows thicken each time: the true class's "
    "w gains ηx and the rival's loses it, their old vectors in grey; the third class's arrow "
    "stays. With a screen reader: each move reads the example's class, the three scores, "
    "which class gains η x and which, the rival, loses it; **Figure in words** says which "
    "corners each class's region reaches.",
    "Set the **gap** to 0.01: γ shrinks and the bound in the box grows about as 1/γ². Press "
    "**End** (or End): the run needs more updates (on some seeds more than the figure's "
    "epochs hold), and still uses a small part of its bound. A screen reader reads the "
    "box's numbers as text.",
    "Set the **label noise** to 10 %: no machine separates the classes any more, the box says "
    "the bound does not apply, and the run updates to the end. Switch **The regions show** from "
    "last to averaged and step through the last epoch: the averaged regions hardly move while "
    "the last ones jump (**Points at this step** lists the class each point is given).",
)

check_question(
    PREFIX,
    "The multiclass perceptron makes a mistake on an example of class B whose rival is class "
    "C. Which weight vectors change?",
    [
        "Only w_B, towards x",
        "w_B gains ηx and w_C loses it; w_A stays",
        "All three: w_B gains ηx, w_A and w_C each lose it",
    ],
    answer=1,
    why="A mistake moves the two vectors it is about: the true class's towards x, the rival's "
    "away from it. In Kesler's construction that is one perceptron update on φ(x, B, C).",
    hints={
        0: "The rival's score must fall too: look at the two thick arrows after an update.",
        2: "Only the rival, the class that beat B, is pushed away; step to an update and count "
        "the thick arrows.",
    },
)

if data is not None:
    largest = float(np.sqrt(1 + (data.X**2).sum(axis=1)).max())
    computation_question(
        f"{PREFIX}calc_",
        f"Compute it: the longest (x, 1) among the figure's points has length ‖(x, 1)‖ = "
        f"{largest:.4g}. What is R in Kesler's construction?",
        {
            "right": math.sqrt(2) * largest,
            "no root 2": largest,
            "twice": 2 * largest,
            "squared": largest**2,
        },
        "right",
        ".4g",
        why=f"φ(x, c, k) holds (x, 1) twice, once with a minus sign, so ‖φ‖ = √2 ‖(x, 1)‖ and "
        f"R = √2 × {largest:.4g} ≈ {{answer}}.",
        hints={
            "no root 2": "φ holds (x, 1) in two blocks: its squared length is twice ‖(x, 1)‖².",
            "twice": "Lengths add as squares: ‖φ‖² = 2‖(x, 1)‖², so ‖φ‖ = √2 ‖(x, 1)‖.",
            "squared": "R is a length, not a squared length.",
        },
        seed=seed,
    )

result = research(
    r"""
Khardon & Wachman (2007, §2.7) learn their multi-class data one against the rest, all the
classes' perceptrons in one pass, the largest score winning; Duda, Hart & Stork (2001, §5.12;
a textbook outside the papers this app reproduces) prove with Kesler's construction that the
multiclass perceptron converges on data a linear machine separates. Neither text runs the two
side by side on data. Computed here, on the multi-class sets the lab has
(`perceptron-lab datasets`: the digits, shipped inside scikit-learn, and the three-class
teaching set; Fashion-MNIST is read only from a local install), with both learners' defaults:
""",
    "R. Khardon and G. Wachman, “Noise tolerant variants of the perceptron algorithm”, JMLR 8, "
    "227–248 (2007); R. O. Duda, P. E. Hart and D. G. Stork, Pattern Classification, 2nd ed., "
    "Wiley (2001), §5.12.",
    compute=lambda: lesson_study("l12_compare", seed=seed),  # studies_multiclass.compare_table
    caption=f"Test accuracy in %, the mean over {COMPARE_FOLDS} stratified folds (seed {seed}, "
    f"from the data seed above), {COMPARE_EPOCHS} epochs; updates per fold as each learner "
    "counts them (one against the rest counts every class's perceptron apart). One against the "
    "rest: perceptron_core.Perceptron (η = 0.1, θ_init = C = mean ‖x‖²); multiclass: "
    "perceptron_core.MulticlassPerceptron (η = 1, a bias input 1). The three-class sets are "
    "drawn with this seed (gap 0.05).",
)
if result is not None:
    names = list(LEARNER_NAMES.values())
    by = {(row["data"], row["learner"]): row for _, row in result.iterrows()}
    lines = []
    for title in dict.fromkeys(result["data"]):
        ovr, mc = by[(title, names[0])], by[(title, names[1])]
        lines.append(
            f"- {title}: last hypothesis {mc['last']:.1f} % (multiclass) against "
            f"{ovr['last']:.1f} % (one against the rest), averaged {mc['averaged']:.1f} % against "
            f"{ovr['averaged']:.1f} %, with {mc['updates per fold']:,} updates per fold against "
            f"{ovr['updates per fold']:,}."
        )
    st.markdown("In words:\n\n" + "\n".join(lines))

show_code(
    multiclass_trainer.run_epochs,
    kesler_vectors,
    kesler_bound,
    intro="The compiled loop that trains the multiclass perceptron (the rival, the tie, the "
    "two updates), Kesler's vectors, and the bound computed from them.",
)

exercises(12, seed=seed, margin=margin, request=request, data=data, run=run)
