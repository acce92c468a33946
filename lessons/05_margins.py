"""Lesson 5. Margins: the perceptron with margin (PAM) and the thick separator, and noise.

The figure trains either learner on points with flipped labels, with the
margin band drawn; beside it, the band's width in distance units, ‖w‖ and
the test accuracy of the current line. The research box repeats Khardon &
Wachman's margin comparison on their artificial data. Session keys start
with ``l05_``.
"""

from __future__ import annotations

import numpy as np
import streamlit as st

from perceptron_core.rules import kw, thick_separator
from perceptron_lab.app_logic.exercises.lesson_05 import REPLAY
from perceptron_lab.app_logic.payload.extras import Panel, Text, Value
from perceptron_lab.app_logic.style import Show
from perceptron_lab.app_logic.timeline import MARGIN, MISTAKE
from perceptron_lab.lessons._basics import (
    at_end,
    kw_caption,
    line_accuracies,
    noisy_line,
    seed_control,
)
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

PREFIX = "l05_"
NOISE = 0.1
LEARNER_KEYS = {"Perceptron with margin (PAM)": "margin", "Thick separator": "thick"}
#: Each learner's margin slider: its symbol and its opening value.
MARGIN_NAME = {"margin": "τ", "thick": "κ"}
BAND_OPENING = {"margin": 0.5, "thick": 1.0}


def band_numbers(run, data) -> list[Panel]:
    """Beside the figure: the band in distance units, ‖w‖, the updates, the test accuracy."""
    tl, learner = run.timeline, run.learner
    norms = np.linalg.norm(tl.W[0], axis=1)
    band = learner.band(run.estimator)
    half_width = band[1] if band else 0.0
    with np.errstate(divide="ignore", invalid="ignore"):
        distance = np.where(norms > 0, half_width / norms, np.nan)
    so_far = {kind: np.r_[0, np.cumsum(tl.kind[0] == kind)] for kind in (MISTAKE, MARGIN)}
    return [
        Panel(
            "The band and the line at this step",
            [
                Text("w = 0: no line and no band yet.", caption=True, values=norms == 0),
                Value(f"half-width = {half_width:.3g} / ‖w‖", distance, format=".3g"),
                Value("‖w‖", norms, format=".3g"),
                Value("updates so far on mistakes", so_far[MISTAKE], per="step", format=","),
                Value("updates so far inside the band", so_far[MARGIN], per="step", format=","),
                Value(
                    "test accuracy of this line",
                    line_accuracies(run, data.X_test, data.y_test),
                    format=".1%",
                ),
            ],
        )
    ]


def margin_gain(table) -> str:
    """One sentence from the research table: what the best margin added, per noise level."""
    parts = []
    for noise, rows in table.groupby("label noise N"):
        plain = rows.loc[rows["margin τ"] == 0, "last"].iloc[0]
        best = rows.loc[rows["margin τ"] > 0].sort_values("last").iloc[-1]
        parts.append(
            f"at N = {noise:g}, τ = {best['margin τ']:g} changes the last hypothesis's "
            f"accuracy by **{best['last'] - plain:+.1f}** points"
        )
    return "Best margin against none: " + "; ".join(parts) + "."


def hinge_numbers(run, data) -> str:
    """The training set's hinge loss at the margin the run asks for, at its start and end."""
    band = run.learner.band(run.estimator)
    margin = band[1] if band else 0.0
    tl = run.timeline

    def losses(t):
        return np.maximum(0.0, margin - data.y * tl.scores(data.X, t))

    start, end = losses(0), losses(tl.n_events)
    return (
        f"**In the run above** (margin {margin:.3g} in score units): the mean loss over the "
        f"{len(data.y)} training examples went from **{start.mean():.3g}** at the start to "
        f"**{end.mean():.3g}** at the end; **{int((end > 0).sum())}** examples still have a "
        "positive loss: each of them would force an update if it came next."
    )


lesson_header(
    5,
    "Margins",
    "Make the perceptron update on near misses too, and see why that helps even when "
    "labels are wrong.",
)
notation(("x, y", "w, θ", "η", "C", "θ_init", "τ", "κ", "μ", "ℓ_j, L"))
st.markdown(
    r"""
The plain perceptron stops caring about an example as soon as it is on the
right side, even by a hair. The **perceptron with margin** (PAM, Krauth &
Mézard's idea, in Khardon & Wachman's form) also updates when the example
is right but too close to the line:
"""
)
st.latex(
    r"\begin{gathered}\text{update if}\quad y\,\big(\langle w,x\rangle - \theta\big) \;\le\;"
    r" \tau\,\theta_{init}\\"
    r"w \leftarrow w + \eta\,y\,x,\quad \theta \leftarrow \theta - \eta\,y\,C\end{gathered}"
)
st.markdown(
    r"""
The update is lesson 1's; only the test changed. $\tau$ is measured in units
of $\theta_{init}$ (the mean $\lVert x\rVert^2$), so the same $\tau$ means
the same thing for data of any scale; $\tau = 0$ is the plain perceptron.
The course notes on on-line learning add a margin $\kappa$ to the threshold
and call it a **thick separator** (they write it $\gamma$, which the lessons
keep for the margin of lessons 2–4; the playground writes $\kappa$ too, in its
setting *Slab half-width κ*); they print its rules as "Promote if $w \cdot x > \theta + \gamma$;
Demote if $w \cdot x < \theta - \gamma$" (their letter), which read
literally promote the positives that already clear the slab, and they give
no update for the threshold. The app's thick separator is our reading of the
idea: a positive is promoted while its score is not above the slab, a
negative demoted while its score is not below it, for the form
$f(x) = \langle w,x\rangle + b$ started at $w = 0, b = 0$ (so $\theta = -b$), with
the bias learned as the weight of a constant input 1 and an absolute slab
half-width $\kappa$ in score units:
"""
)
st.latex(
    r"\text{update if}\quad y\,f(x) \;\le\; \kappa"
    r"\qquad w \leftarrow w + \eta\,y\,x,\quad b \leftarrow b + \eta\,y"
)
st.markdown(
    r"""
Both bands are fixed in *score* units, so in *distance* their half-width is
$\tau\theta_{init}/\lVert w\rVert$ or $\kappa/\lVert w\rVert$: as updates make
$w$ longer, the band narrows around the line. *Why* a margin helps against
noise is open: Khardon & Wachman, who found that it does, say there is "no
theoretical explanation" for it. What you can watch in the figure is a
picture, not a proof: the clean examples near the line keep pushing until
they are outside the band, so the line is held in the middle of the gap,
not next to the last example it fixed; and the extra updates make
$\lVert w\rVert$ larger, so one update on a flipped label turns the line less.

**In the figure:** the grey band is where correct examples still update; the
dotted line is the true boundary and × marks the {noise:.0%} flipped training
labels; the clean test half is not drawn. The box under the panel gives the
band's half-width in distance units, how many updates were mistakes and how
many were margin updates, and the test accuracy of the current line.
""".replace("{noise:.0%}", f"{NOISE:.0%}")
)

cols = st.columns(3)
with cols[0]:
    learner_key = LEARNER_KEYS[
        st.radio("Learner", list(LEARNER_KEYS), key=f"{PREFIX}learner", horizontal=True)
    ]
with cols[1]:
    if learner_key == "margin":
        values = {
            "tau": st.select_slider(
                "Margin τ (× θ_init)",
                options=(0.0, 0.125, 0.25, 0.5, 1.0, 2.0),
                value=BAND_OPENING["margin"],
                key=f"{PREFIX}tau",
                help="0 is the plain perceptron.",
            )
        }
    else:
        values = {
            "gamma": st.select_slider(
                "Slab half-width κ (score units)",
                options=(0.0, 0.25, 0.5, 1.0, 2.0, 4.0),
                value=BAND_OPENING["thick"],
                key=f"{PREFIX}gamma",
                help="0 is the textbook perceptron without a threshold start.",
            )
        }
with cols[2]:
    seed = seed_control(PREFIX)
data, run = stage(
    PREFIX,
    noisy_line(seed, NOISE),
    learner_key,
    values,
    epochs=20,
    show=Show(test_points=False, target=True),
    extras=band_numbers,
    start=at_end,
    predict=REPLAY.predict,
)

st.header("The perceptron as stochastic gradient descent")
st.markdown(
    r"""
Each update is one step of *stochastic gradient descent*: a step against
the gradient of one example's loss, as lesson 3 reads the plain perceptron's
update. PAM's loss $\ell_j$ is the **hinge loss** at the margin it asks for,
and it is zero once the example is outside the band:
"""
)
st.latex(
    r"\begin{gathered}\ell_j(w,\theta) = \max\big(0,\ \tau\theta_{init}"
    r" - y_j(\langle w,x_j\rangle - \theta)\big)\\"
    r"\frac{\partial \ell_j}{\partial w} = -y_j\,x_j,\ \ "
    r"\frac{\partial \ell_j}{\partial \theta} = y_j\ \text{ where } \ell_j > 0\\"
    r"w \leftarrow w - \eta\,\frac{\partial \ell_j}{\partial w} = w + \eta\,y_j\,x_j\\"
    r"\theta \leftarrow \theta - \eta C\,\frac{\partial \ell_j}{\partial \theta}"
    r" = \theta - \eta\,y_j\,C\end{gathered}"
)
st.markdown(
    r"""
With $\tau = 0$ it is the plain perceptron's loss,
$\max(0, -y_j(\langle w,x_j\rangle - \theta))$: only an example on the wrong
side has a gradient (the app also updates at exactly 0, a subgradient). The
soft-margin support vector machine minimises the same hinge loss, with
margin 1, plus a penalty on the length of $w$:
$\tfrac{\mu}{2}\lVert w\rVert^2 + \tfrac1m\sum_j
\max(0, 1 - y_j(\langle w,x_j\rangle - \theta))$ (standard; see Cristianini &
Shawe-Taylor, 2000, whose form of the perceptron Khardon & Wachman follow; the
penalty's weight, $\mu$ here, is often written $\lambda$, which lesson 7
keeps for the λ-trick).
PAM has no penalty, so it can meet its margin in score units just by making
$w$ longer: that is why the band narrows in distance as $\lVert w\rVert$
grows; the penalty is what makes the SVM's margin a distance. (The thick
separator is the same descent on $\max(0, \kappa - y_j f(x_j))$, with
$C = 1$.)

"""
    + hinge_numbers(run, data)
)

try_this(
    "The figure opens at the end of training: note the test accuracy and ‖w‖ (the "
    "denominator) in the box, then set **τ** to 0 and press **End**: without a margin w "
    "ends many times shorter, and for most seeds the test accuracy of the last line drops.",
    "Set **τ** to 2, press **Start**, then **Next update** a few times: many updates are now "
    "on points that were already right (*inside the band*), and the band narrows as ‖w‖ "
    "grows, from wider than the view at the first update to inside it before the first "
    'epoch ends. With a screen reader: those updates are announced as "inside the margin '
    "band, update\", and the box's half-width, in distance units, falls as ‖w‖ grows.",
    "Switch the **learner** to the thick separator, press **Start**, then **Next update** a "
    "few times: κ is an absolute score, so while w is short the band is wide in distance, "
    "and it narrows quickly as w grows. With a screen reader: the box's half-width, in "
    "distance units, says the same.",
)

check_question(
    PREFIX,
    "A training example is on the correct side of the line but inside the grey band. What "
    "does the perceptron with margin do?",
    [
        "Nothing: it is classified correctly",
        "The same update as for a mistake: w ← w + ηyx, θ ← θ − ηyC",
        "A smaller update, scaled by how deep the example is in the band",
    ],
    answer=1,
    why="Inside the band counts as an error (PAM's prediction is 0 there), and the update "
    "is the ordinary perceptron update, which pushes the line away from the example.",
    hints={
        0: "That is the plain perceptron (τ = 0). Step through the run with τ = 2.",
        2: "The step does not depend on the score here (Passive-Aggressive does that).",
    },
)

if run is not None:
    band, norm = run.learner.band(run.estimator), float(np.linalg.norm(run.timeline.W[0][-1]))
    if band:
        half, which = band[1], "the band reaches the scores"
    else:  # no band at a margin of 0: the question takes the slider's opening one
        opening = BAND_OPENING[learner_key]
        half = opening * (run.estimator.theta_init_ if learner_key == "margin" else 1.0)
        which = (
            f"this margin draws no band; at {MARGIN_NAME[learner_key]} = {opening:g} the band "
            "would reach the scores"
        )
    computation_question(
        f"{PREFIX}calc_",
        f"Compute it: at the end of training the panel gives ‖w‖ = {norm:.3g}, and {which} "
        f"±{half:.3g}, so in the plane it reaches {half / norm:.3g} from the line (the box's "
        "half-width). Updates keep making w longer. How far from the line will the band reach "
        "once ‖w‖ has doubled, with the margin and θ_init unchanged?",
        {
            "right": half / (2 * norm),
            "doubled": 2 * half / norm,
            "over 4‖w‖": half / (4 * norm),
            "unchanged": half / norm,
        },
        "right",
        ".3g",
        why="The score ⟨w,x⟩ − θ changes by ‖w‖ per unit of distance, so the same band of "
        + f"scores ±{half:.3g} reaches {half:.3g} / (2 × {norm:.3g}) = "
        + "{answer}: half as far. This is why the band narrows as w grows.",
        hints=dict.fromkeys(
            ("doubled", "over 4‖w‖", "unchanged"),
            "Distance from the line is the score divided by ‖w‖ (not by ‖w‖²), and the scores "
            "the band reaches do not change.",
        ),
        seed=seed,
    )

table = research(
    r"""
Khardon & Wachman (2007) compared the perceptron's noise-tolerant variants
on artificial data with label noise and on UCI data (Section 3) and found
the perceptron with margin an effective way to tolerate noise and
stabilise the algorithm (their abstract). They call this surprising: the
margin was not designed for noise, comes with no known guarantee for it,
and they have "no theoretical explanation" for it. On their artificial
data the margin alone, with the last hypothesis, was more accurate than
the voted perceptron (lesson 4); over all their experiments the voted
perceptron, which needs no parameter, did similarly "in most cases".
Their comparison for a few margins, computed live:
""",
    "R. Khardon and G. Wachman, “Noise tolerant variants of the perceptron algorithm”, "
    "JMLR 8, 227–248 (2007); W. Krauth and M. Mézard, “Learning algorithms with optimal "
    "stability in neural networks”, J. Phys. A 20, L745 (1987).",
    # app_logic.studies_basics.kw_cross_validated at its MARGIN_NOISE and MARGIN_TAUS
    compute=lambda: lesson_study("l05_margins", seed=seed),
    caption=kw_caption(seed),
)
if table is not None:
    st.markdown(margin_gain(table))

show_code(
    kw.predict_margin,
    thick_separator.step,
    intro="PAM changes only the test: `predict_margin` returns 0 inside the band, which "
    "differs from every label, so lesson 1's `decide` calls for an update. The thick "
    "separator's rule tests `if y * s <= gamma` (`gamma` is κ).",
)

exercises(
    5,
    seed=seed,
    learner=learner_key,
    **values,
    request=noisy_line(seed, NOISE),
    data=data,
    run=run,
)
