"""Lesson 1. The perceptron rule: what one update does to the line.

The playground's figure on 20 separable points; beside it, the numbers of
the current update, which show that an update always moves the example's
score towards its label by exactly η(‖x‖² + C). The text starts from the
textbook rule (θ folded in as a bias feature, w = 0) and a table counts the
updates of each form of the rule, to show when η matters. Session keys start
with ``l01_``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from perceptron_core import Perceptron
from perceptron_core.rules import kw
from perceptron_lab.app_logic.datasource import DataRequest
from perceptron_lab.app_logic.exercises.lesson_01 import REPLAY
from perceptron_lab.app_logic.payload.extras import Panel, Text, Value
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

PREFIX = "l01_"
EPOCHS = 20


def score_changes(run, data) -> tuple[np.ndarray, np.ndarray]:
    """For every update of the run: the change of ``y(<w,x> - θ)`` on its own example, and
    the change the rule predicts, ``η(‖x‖² + C)``."""
    tl, est = run.timeline, run.estimator
    events = np.flatnonzero(tl.before != tl.after)
    j = tl.index[events]
    x, y = data.X[j], data.y[j]
    W, theta = tl.W[0], tl.theta[0]
    old = y * ((W[tl.before[events]] * x).sum(axis=1) - theta[tl.before[events]])
    new = y * ((W[tl.after[events]] * x).sum(axis=1) - theta[tl.after[events]])
    return new - old, est.eta * ((x**2).sum(axis=1) + est.C_)


def update_numbers(run, data) -> list[Panel]:
    """Beside the figure: at each update, the example's score before and after it, against
    the rule's η(‖x‖² + C) (one value per time step, shown by the browser)."""
    tl, est = run.timeline, run.estimator
    updates = np.flatnonzero(tl.before != tl.after)
    change, predicted = score_changes(run, data)
    j = tl.index[updates]
    X, y = data.X[j], data.y[j]
    W, theta = tl.W[0], tl.theta[0]
    per_step = {name: np.full(tl.n_events + 1, np.nan) for name in ("before", "after", "sq")}
    step = updates + 1  # the time step just after each update
    per_step["before"][step] = y * (
        (W[tl.before[updates]] * X).sum(axis=1) - theta[tl.before[updates]]
    )
    per_step["after"][step] = per_step["before"][step] + change
    per_step["sq"][step] = (X**2).sum(axis=1)
    rule = np.full(tl.n_events + 1, np.nan)
    rule[step] = predicted
    return [
        Panel(
            "What this update did to the example's own score",
            [
                Text(
                    "No update at this step. Press Next update to jump to one.",
                    when="no_update",
                    caption=True,
                ),
                Value("y(⟨w,x⟩ − θ) before", per_step["before"], per="step", when="update"),
                Value("y(⟨w,x⟩ − θ) after", per_step["after"], per="step", when="update"),
                Value("change", per_step["after"] - per_step["before"], per="step", when="update"),
                Value("‖x‖²", per_step["sq"], per="step", when="update"),
                Value(
                    f"η(‖x‖² + C), with η = {est.eta:g}, C = {est.C_:.4g}",
                    rule,
                    per="step",
                    when="update",
                ),
            ],
        )
    ]


def live_numbers(run, data) -> dict:
    """The run's own numbers for the research box (cheap: the run is cached already)."""
    change, predicted = score_changes(run, data)
    per_epoch = run.timeline.mistakes_per_epoch()
    clean = np.flatnonzero(per_epoch == 0)
    C = run.estimator.C_
    wrong_way = int(((data.X**2).sum(axis=1) < C).sum())
    return {
        "Updates made": f"{len(change)}",
        "First epoch without a mistake": f"{clean[0] + 1}" if len(clean) else f"none in {EPOCHS}",
        "Largest |change − η(‖x‖²+C)|": f"{np.abs(change - predicted).max(initial=0):.1e}",
        "Points a '+θ' step would hurt": f"{wrong_way} of {len(data.y)}",
    }


def eta_forms(X, y, eta: float, seed: int) -> pd.DataFrame:
    """Updates of the textbook form and of Khardon & Wachman's form at ``eta`` and at η = 1.

    Every run sees the examples in the figure's order (``random_state=seed``)
    for :data:`EPOCHS` epochs; C is the mean of ‖x‖² throughout, except in the
    textbook row.

    Examples
    --------
    >>> X, y = np.array([[1.0, 0.2], [-1.0, 0.1], [0.8, -0.3]]), np.array([1, -1, 1])
    >>> table = eta_forms(X, y, 0.5, 0)
    >>> bool(table["updates"].iloc[1] == table["updates"].iloc[2])  # θ from 0: η changes nothing
    True
    """
    C = float(np.mean((X**2).sum(axis=1)))
    forms = [("textbook: θ starts at 0, η = 1, C = 1", 1.0, 0.0, 1.0)]
    for rate in dict.fromkeys((eta, 1.0)):  # η = 1 once when the slider is at 1
        forms.append((f"θ starts at 0, η = {rate:g}", rate, 0.0, C))
    for rate in dict.fromkeys((eta, 1.0)):
        forms.append(
            (f"θ_init = C, η = {rate:g}" + (" (the figure)" if rate == eta else ""), rate, C, C)
        )
    if eta != 1.0:
        forms.append((f"θ_init = C / {eta:g}, η = 1 (both divided by {eta:g})", 1.0, C / eta, C))
    rows = []
    for name, rate, start, step in forms:
        est = Perceptron(eta=rate, theta_init=start, C=step, epochs=EPOCHS, random_state=seed)
        est.fit(X, y)
        clean = np.flatnonzero(np.asarray(est.updates_per_epoch_) == 0)
        rows.append(
            {
                "form": name,
                "updates": est.n_updates_,
                "first epoch without a mistake": int(clean[0]) + 1 if len(clean) else None,
            }
        )
    return pd.DataFrame(rows)


def first_update(run, data) -> dict:
    """The figure's first update, for the computation question: the example, η, C and the
    score change the run made (η(‖x‖² + C) by the rule)."""
    tl, est = run.timeline, run.estimator
    i = tl.next_update(0) - 1
    j = int(tl.index[i])
    change, _ = score_changes(run, data)
    return {
        "x": data.X[j],
        "y": int(data.y[j]),
        "eta": float(est.eta),
        "C": float(est.C_),
        "change": float(change[0]),
    }


def change_candidates(numbers: dict) -> dict[str, float]:
    """Candidate score changes for the first update in the textbook form (η = C = 1): the
    right ‖x‖² + 1, ‖x‖² (forgetting the bias feature), the figure's own η(‖x‖² + C),
    which the box under the panel shows (copying it is the mistake this catches), and
    ‖x‖ + 1 (the length where its square belongs)."""
    sq, eta, C = float(numbers["x"] @ numbers["x"]), numbers["eta"], numbers["C"]
    return {
        "right": sq + 1.0,
        "no bias": sq,
        "the figure's": eta * (sq + C),
        "not squared": float(np.sqrt(sq)) + 1.0,
    }


lesson_header(
    1,
    "The perceptron rule",
    "See what a single update does to the weight vector, the threshold and the line.",
)
notation(("x, y", "w, θ", "η", "C", "θ_init"))
st.markdown(
    r"""
A perceptron draws a line and calls everything on one side **+1** and on the
other **−1**. The line is all points $x$ with $\langle w, x\rangle = \theta$:
the weight vector $w$ is its normal (it points to the +1 side) and the
threshold $\theta$ sets how far it sits from the origin.
"""
)
st.latex(r"\hat y(x) = \operatorname{sign}\big(\langle w, x\rangle - \theta\big)")
st.markdown(
    r"""
Training visits the examples one by one. When the prediction for $(x, y)$ is
right nothing changes; when it is wrong, the perceptron corrects itself with
the example (Rosenblatt's *error correction*). The textbook form folds the
threshold into the weights: give every example a constant extra feature 1,
$\tilde x = (x, 1)$, and write $\tilde w = (w, -\theta)$, so that
$\langle \tilde w, \tilde x\rangle = \langle w,x\rangle - \theta$. Start at
$\tilde w = 0$ and, on a mistake, add the example signed by its label (the
form in which the course notes state Novikoff's theorem, lesson 2):
"""
)
st.latex(
    r"\tilde w \leftarrow \tilde w + y\,\tilde x"
    r"\qquad\text{that is}\qquad w \leftarrow w + y\,x,\quad \theta \leftarrow \theta - y"
)
st.markdown(
    r"""
Khardon & Wachman (2007, section 2.1 and Figure 1), whose variants this
course follows, write the same rule with two more numbers, a learning rate
$\eta$ and a threshold step $C$, and let $\theta$ start at $\theta_{init}$
instead of 0:
"""
)
st.latex(r"w \leftarrow w + \eta\, y\, x \qquad \theta \leftarrow \theta - \eta\, y\, C")
st.markdown(
    r"""
The textbook form is $\eta = 1$, $C = 1$, $\theta_{init} = 0$ (the extra
feature is $\sqrt C$). In their experiments they set
$\theta_{init} = C = $ the mean of $\lVert x_j\rVert^2$, the scale of the
inner products, so that $\theta$ is kept in units of $\theta_{init}$
(Khardon & Wachman 2007, section 3); $w$ still starts at 0. This lesson's
figure does the same.

**Does $\eta$ matter?** Started at $\theta = 0$, every $w$ and $\theta$ of
a run is $\eta$ times what $\eta = 1$ gives, so every prediction
$\operatorname{sign}(\langle w,x\rangle-\theta)$, and so every update, is
the same: $\eta$ has no effect. Started at $\theta_{init} \ne 0$ it matters,
because the start does not grow with $\eta$. Scaling $\eta$ and
$\theta_{init}$ by the same factor scales the whole run again, so there is
only one degree of freedom between the two: one could fix $\eta = 1$ and
vary $\theta_{init}$ alone (Khardon & Wachman 2007, section 2.1). The table
under the figure counts the updates of each form on the figure's data.

Why an update fixes the mistake: the example's own score
$y(\langle w,x\rangle-\theta)$, negative before the update, grows by
"""
)
st.latex(
    r"y\big(\langle w + \eta y x, x\rangle - (\theta - \eta y C)\big)"
    r" - y\big(\langle w,x\rangle - \theta\big) = \eta\,(\lVert x\rVert^2 + C) > 0"
)
st.markdown(
    r"""
so $w$ turns towards $x$ for a positive example and away from it for a
negative one, and the threshold moves so that the example gets easier to
classify right. One update may not be enough to fix the example, and it may
break others: that is why training makes several passes (*epochs*).

**In the figure:** orange diamonds are +1, blue circles −1; the tint is the
side each region is given; the black line is $\langle w,x\rangle = \theta$ and
the black arrow is $w$. The red ring marks the example being visited; after
an update the grey arrow is the old $w$ and the red arrow the change
$\Delta w = \eta y x$. The panel on the right does the arithmetic of the
current step, and the box under it checks the score change above.
"""
)

left, right = st.columns(2)
with left:
    seed = seed_control(PREFIX)
with right:
    eta = st.select_slider(
        "Learning rate η",
        options=(0.05, 0.1, 0.2, 0.5, 1.0, 2.0),
        value=0.5,  # larger steps than KW's 0.1: the first line is already in view
        key=f"{PREFIX}eta",
        help="How far one update moves w (and θ: the step is η·C).",
    )
request = DataRequest("separable", (("margin", 0.15), ("n_samples", 20)), seed=seed)
data, run = stage(
    PREFIX,
    request,
    "perceptron",
    {"eta": eta},
    epochs=EPOCHS,
    show=Show(band=False, test_points=False),
    extras=update_numbers,
    start=lambda timeline: timeline.next_update(0),  # open on the first update
    predict=REPLAY.predict,
)

if run is not None:
    forms = eta_forms(data.X, data.y, eta, seed)
    st.dataframe(forms, hide_index=True)
    st.caption(
        f"Computed live on the figure's {len(data.y)} points (seed {seed}, the figure's order, "
        f"{EPOCHS} epochs, C = mean ‖x‖² = {run.estimator.C_:.4g} except in the textbook row): "
        "the two runs started at θ = 0 make the same updates whatever η; started at "
        "θ_init = C they need not, and dividing η and θ_init by the same number gives the "
        "figure's run back."
    )

try_this(
    "The figure opens on the first update. Press **Next update** a few times. On a +1 "
    "example (orange) the red arrow Δw points *towards* the example, on a −1 example "
    "(blue) *away* from it; check that the box under the panel reports a change of "
    "exactly η(‖x‖² + C) every time. With a screen reader: each press announces the step, "
    'the example\'s label and "mistake, update"; set **Announce after a move** to *verdict '
    'and arithmetic* and it also reads the math panel\'s update of w ("becomes" for the '
    "arrow ←), w + η y x: the sign of y is the arrow's direction, towards x or away.",
    "Change the **learning rate η** from 0.5 to 0.1. The score change in the box shrinks "
    "fivefold and the first lines fall outside the view: the starting threshold θ_init now "
    "outweighs the steps η·y·x and η·y·C. Press **End**: the step counter above the figure "
    "(*updates so far*) shows that this run needs more updates. With a screen reader: "
    "**Figure in words**, under the figure, gives the line's equation and adds \"It lies "
    'outside the view." while it is off the figure.',
    "Set the **learning rate η** back to 0.5 and change the **data seed**. A new line and new "
    "points: press **End** and compare the number of updates with the previous seed. Some "
    "sets need only two updates, others three times as many or more.",
)

check_question(
    PREFIX,
    "The perceptron misclassifies a positive example (y = +1). What happens to θ?",
    [
        "θ decreases by η·C, so positive predictions get easier",
        "θ increases by η·C, so positive predictions get harder",
        "θ stays; only w changes",
    ],
    answer=0,
    why="θ ← θ − η·y·C with y = +1 lowers θ, and a point is called +1 when "
    "⟨w,x⟩ > θ: the missed positive example moves towards the +1 side.",
    hints={
        1: "That is the sign printed in Khardon & Wachman's figures; with the rule "
        "sign(⟨w,x⟩ − θ) it would make the missed positive *harder* to get right.",
        2: "Look at the math panel during an update: both w and θ change.",
    },
)

if run is not None:
    numbers = first_update(run, data)
    x1, x2 = numbers["x"]
    computation_question(
        f"{PREFIX}calc_",
        f"Compute it: the figure opens on its first update, on x = ({x1:.3f}, {x2:.3f}) "
        f"with y = {numbers['y']:+d}. The box under the panel gives the change of its score "
        f"with η = {numbers['eta']:g} and C = {numbers['C']:.4f}. In the textbook form "
        "(η = 1, the extra feature 1, so C = 1), by how much would the same update raise "
        "the example's score y(⟨w,x⟩ − θ)?",
        change_candidates(numbers),
        "right",
        ".3f",
        why=f"‖x‖² + 1 = {x1:.3f}² + {x2:.3f}² + 1 = "
        + "{answer}: the update adds y·(x, 1) to (w, −θ), which raises the score by the "
        "squared length of (x, 1). The box's number is the same formula, η(‖x‖² + C), with "
        "the figure's η and C.",
        hints={
            "no bias": "The threshold moves too: the extra feature 1 adds 1² to ‖x‖².",
            "the figure's": "That is the box's number, with the figure's η and C. With η = 1 "
            "and C = 1 the change η(‖x‖² + C) is ‖x‖² + 1.",
            "not squared": "The change is the squared length of (x, 1): ‖x‖² + 1.",
        },
        seed=seed,
    )

if run is not None:
    research(
        r"""
Rosenblatt (1958) proposed this *error-correction* rule: change the weights
only after a mistake, by the example itself, signed by its label. Every
update raises the example's own score by $\eta(\lVert x\rVert^2 + C)$, and on
data that a line separates the corrections stop after finitely many updates
(lesson 2 counts them). Khardon & Wachman (2007, Figures 1–2) print the
threshold step as $\theta + \eta y C$; with their own prediction rule
$\operatorname{sign}(\langle w,x\rangle-\theta)$ that changes the example's
score by $\eta(\lVert x\rVert^2 - C)$ instead, which is negative for every
point with $\lVert x\rVert^2 < C$. This app uses the minus sign, the one that agrees
with their own prediction rule (Khardon & Wachman 2007, section 2.1).
Numbers from the run above:
""",
        "F. Rosenblatt, “The perceptron: a probabilistic model for information storage and "
        "organization in the brain”, Psychological Review 65(6), 386–408 (1958); R. Khardon "
        "and G. Wachman, “Noise tolerant variants of the perceptron algorithm”, JMLR 8, "
        "227–248 (2007).",
        compute=lambda: live_numbers(run, data),
        caption=f"From the recorded run above (seed {seed}, η = {eta:g}, {EPOCHS} epochs): "
        "every update's score change compared with η(‖x‖² + C); the last metric counts "
        "the training points with ‖x‖² < C.",
    )

show_code(
    kw.decide,
    kw.predict_margin,
    kw.update,
    intro="What the compiled trainer does with each example of the run above. `decide` "
    "compares the prediction with the label (the λ and α lines are switches of lessons 5 "
    "and 7, off here); on a mistake `update` adds `eta * y * x` to w and moves θ by "
    "`-eta * y * C`.",
)

exercises(1, seed=seed, eta=eta, data=data, run=run)
