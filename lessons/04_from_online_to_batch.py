"""Lesson 4. From on-line to batch: the longest survivor, the voted and the averaged perceptron.

One run, four predictors: the figure draws the last line, the longest
survivor, the averaged line and the voted ensemble at once; beside it, their
accuracies at the current step; under it, the mistake bound behind the vote
(Freund & Schapire 1999, as Khardon & Wachman quote it) on the figure's data.
The research box repeats Khardon &
Wachman's comparison on their artificial data. Session keys start with ``l04_``.
"""

from __future__ import annotations

import math

import numpy as np
import streamlit as st

from perceptron_core import Perceptron
from perceptron_core.engine import kw_trainer
from perceptron_core.engine.record import HypothesisRecord, RunningAverage
from perceptron_core.modes import MODES
from perceptron_core.rules import kw
from perceptron_lab.app_logic.exercises.lesson_04 import REPLAY
from perceptron_lab.app_logic.learners import KW_SWITCHES_OFF
from perceptron_lab.app_logic.payload.extras import Accuracies, Panel, Text
from perceptron_lab.app_logic.style import Show
from perceptron_lab.lessons._basics import (
    NOISY_LINE_GAP,
    accuracy,
    at_end,
    kw_caption,
    noisy_line,
    seed_control,
)
from perceptron_lab.lessons._bounds import (
    mistake_bound,
    noisy_mistake_bound,
    pac_stretch,
    voted_error_bound,
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

PREFIX = "l04_"
#: The PAC numbers the conversion box shows: error at most ε with probability 1 − δ.
PAC_EPSILON, PAC_DELTA = 0.1, 0.05


def four_predictors(run, data) -> list[Panel]:
    """Beside the figure: each predictor's accuracy at this step, and after training."""
    final = {m: accuracy(run.final_test[m], data.y_test) for m in MODES}
    return [
        Panel(
            "The four predictors at this step",
            [
                Accuracies(),
                Text(
                    "After the whole run, from the core's predict_all (test): "
                    + ", ".join(f"{m} {v:.1%}" for m, v in final.items())
                    + ".",
                    caption=True,
                ),
            ],
        )
    ]


def unmet_conditions(noise: float) -> list[str]:
    """The conditions of Freund & Schapire's guarantee that the figure does not meet: the
    one pass and the expectation always, one distribution only when labels are flipped.

    >>> len(unmet_conditions(0.0)), len(unmet_conditions(0.15))
    (2, 3)
    """
    unmet = ["its vote trains 20 epochs, not one pass"]
    if noise > 0:
        unmet.append(
            "its training labels are flipped while its test half is clean (two distributions)"
        )
    unmet.append(
        "one training set gives one sample's bound, where the theorem takes the expected bound "
        "over draws of m + 1 examples"
    )
    return unmet


def listing(parts: list[str]) -> str:
    """``["a", "b", "c"]`` -> ``"a, b and c"``."""
    return ", ".join(parts[:-1]) + (" and " if len(parts) > 1 else "") + parts[-1]


def guarantee_verdict(error: float, noise: float) -> str:
    """What the box's ``2/(m+1)`` × bound says, for the caption under it, with the
    conditions the figure does not meet at this share of flipped labels."""
    if error >= 1:
        return (
            "Above 1: on this few examples the guarantee says nothing about the vote, even "
            "where its conditions hold."
        )
    return (
        "Below 1, but an illustration, not a guarantee for this figure: its conditions do not "
        f"hold here ({listing(unmet_conditions(noise))})."
    )


def clean_guarantee(data) -> dict:
    """What Freund & Schapire's guarantee needs on the clean distribution the figure's points
    come from: every point in the square [-1, 1]² and at least the generator's gap from the
    true line, so with the true labels every sample has ``R <= √(2 + C)`` and folded margin
    ``γ >= gap/‖(w*, θ*/√C)‖``, ``D = 0`` and a mistake bound of at most ``(R/γ)²``."""
    C = float(np.mean((data.X**2).sum(axis=1)))
    R = float(np.sqrt(2.0 + C))
    u = np.r_[data.w_star, data.theta_star / np.sqrt(C)]  # ‖w*‖ = 1: distance is the score
    gamma = NOISY_LINE_GAP / float(np.linalg.norm(u))
    return {"C": C, "R": R, "gamma": gamma, "bound": mistake_bound(R, 0.0, gamma)}


def guarantee_numbers(data, seed: int) -> dict:
    """The mistake bound behind the voted perceptron on the figure's training set, the
    mistakes of one pass of a perceptron started at 0 there, and Freund & Schapire's
    2/(m+1) times the bound (the examples' order: the figure's, ``random_state=seed``)."""
    C = float(np.mean((data.X**2).sum(axis=1)))
    bound, gamma, D, R = noisy_mistake_bound(data.X, data.y, data.w_star, data.theta_star, C)
    one_pass = Perceptron(theta_init=0.0, C=C, epochs=1, random_state=seed).fit(data.X, data.y)
    m = len(data.y)
    return {
        "bound": bound,
        "gamma": gamma,
        "D": D,
        "R": R,
        "m": m,
        "mistakes": one_pass.n_updates_,
        "error": voted_error_bound(bound, m),
        "quoted": mistake_bound(R, D, gamma, folded=False),
    }


def predictors_differ(run, data) -> int:
    """How many test points the averaged and the voted predictor of the run label
    differently (from the core's ``predict_all``)."""
    return int(np.sum(run.final_test["averaged"] != run.final_test["voted"]))


lesson_header(
    4,
    "From on-line to batch",
    "Turn the perceptron's many hypotheses into one good classifier: longest survivor, "
    "voted and averaged.",
)
notation(("x, y", "w, θ", "η", "C", "z, v", "R", "u, γ", "ξ_j, D", "ε, δ"))
st.markdown(
    r"""
The perceptron is an **on-line** learner: it passes through hypotheses
$(w_1,\theta_1), (w_2,\theta_2), \dots, (w_K,\theta_K)$, one per update. For a
**batch** task (train once, then classify new data) we must choose what to
keep, and lesson 3 showed that the last one is a lottery on noisy data.
Count, for every hypothesis, the correct predictions it made before the next
update: its **vote** $c_k$ (how long it *survived*). One run gives four
predictors:
"""
)
st.latex(
    r"""
\begin{aligned}
\text{last:}\quad & \operatorname{sign}(\langle w_K, x\rangle - \theta_K) \\
\text{longest survivor:}\quad & \operatorname{sign}(\langle w_{k^*}, x\rangle - \theta_{k^*}),
  \quad k^* = \arg\max_k c_k \\
\text{voted:}\quad & \operatorname{sign}\Big(\sum_{k\ge1} c_k\,
  \operatorname{sign}(\langle w_k, x\rangle - \theta_k)\Big) \\
\text{averaged:}\quad & \operatorname{sign}(\langle \bar w, x\rangle - \bar\theta),\quad
  \bar w = \frac{\sum_k c_k w_k}{\sum_k c_k},\ \ \bar\theta
  = \frac{\sum_k c_k \theta_k}{\sum_k c_k}
\end{aligned}
"""
)
st.markdown(
    r"""
The longest survivor is the hypothesis that got the longest run of
examples right; Khardon & Wachman credit the guarantee for it to Kearns et
al. (1987), and the variations proposed as the *pocket* algorithm, with the
evidence that they help, to Gallant (1990). Gallant's pocket is related, not
the same: with its ratchet it also checks a candidate on the whole training
set. The voted perceptron
lets every hypothesis vote with weight $c_k$, so long-lived ones dominate and short-lived ones
(made right after a noisy example) hardly count; its boundary is not a
line. The averaged perceptron averages the weights instead of the votes: one
line, as cheap to use as the last one, and usually very close to the voted
one. Votes carry over between epochs; only an update starts a new count.

**In the figure:** the tint is the voted predictor's side (the sign of the
vote sum); grey lines are the hypotheses with the most votes, darker for
more votes; black is the last line, dashed green the averaged line and
dotted purple the longest survivor. Flipped training labels carry a ×; the
clean test half is not drawn. The table under the panel scores all four at
the current step.
"""
)

left, right = st.columns(2)
with left:
    noise = st.select_slider(
        "Flipped training labels",
        options=(0.0, 0.05, 0.1, 0.15, 0.2, 0.3),
        value=0.15,
        format_func=lambda p: f"{p:.0%}",
        key=f"{PREFIX}noise",
        help="Exactly this share of the 60 training labels is flipped.",
    )
with right:
    seed = seed_control(PREFIX, default=4)  # a set whose last line ends far from the others
data, run = stage(
    PREFIX,
    noisy_line(seed, noise),
    "kw",
    KW_SWITCHES_OFF,
    epochs=20,
    show=Show(  # no w arrows: four predictors are already a lot to read
        ensemble=True,
        averaged=True,
        longest=True,
        arrows=False,
        band=False,
        test_points=False,
        target=True,
    ),
    extras=four_predictors,
    start=at_end,
    predict=REPLAY.predict,
)

st.header("The guarantee behind the vote", anchor="the-guarantee-behind-the-vote")
st.markdown(
    r"""
Freund & Schapire (1999) built the voted perceptron on lesson 3's mistake
bound for data no line separates (their Theorem 2). Take any unit vector $u$
and any margin $\gamma > 0$; an example's *deviation* is how far it falls
short of that margin, $\xi_j = \max(0, \gamma - y_j\langle u, z_j\rangle)$,
with the threshold folded in as a coordinate, $z_j = (x_j, -\sqrt C)$, as in
lessons 2 and 3. A perceptron started at $w = 0$, $\theta = 0$ then makes on
$m$ examples at most
"""
)
st.latex(
    r"\Big(\frac{R + D}{\gamma}\Big)^2\ \text{mistakes},\qquad "
    r"R = \max_j \lVert z_j\rVert,\quad D = \sqrt{\textstyle\sum_j \xi_j^2}"
)
st.markdown(
    r"""
(Khardon & Wachman, 2007, section 2.1, quote it with a factor 2 inside the
square, for a threshold kept apart: lesson 3 says where it comes from.) The
margin enters squared: the larger the margin that most examples keep, the
fewer mistakes. Freund & Schapire turn the mistake count into the voted
perceptron's guarantee (their Theorem 3), under three conditions: the $m$
training examples and the test example are drawn independently from **one
distribution**, the vote is trained in **one pass**, and the bound is the
**expected** one over draws of $m + 1$ examples. Then the vote errs on the
test example with probability at most
"""
)
st.latex(
    r"\frac{2}{m+1}\;\mathbb{E}\Big[\inf_{u,\ \gamma}"
    r"\Big(\frac{R + D}{\gamma}\Big)^2\Big]\quad"
    r"\text{(}R, D\text{ over the } m + 1 \text{ examples)}"
)
unmet = unmet_conditions(noise)
st.markdown(
    (
        "The figure meets none of the three: "
        if len(unmet) == 3
        else "With no label flipped, the training and the test half come from one "
        "distribution, but the figure meets neither of the other two conditions: "
    )
    + listing(unmet)
    + r""". The box
below plugs that one sample's bound into the formula, with $u$ the true line
and the best $\gamma$ of a grid: **an illustration of the sizes involved,
not a guarantee for this figure.**
"""
)
if data is not None:
    bound = guarantee_numbers(data, seed)
    shown = {
        "R, D, γ": f"{bound['R']:.3f}, {bound['D']:.3f}, {bound['gamma']:.3f}",
        "Mistake bound ((R+D)/γ)²": f"{bound['bound']:.1f}",
        "Mistakes, one pass from 0": f"{bound['mistakes']}",
        f"2/(m+1) × bound, m = {bound['m']} (an illustration)": f"{bound['error']:.2f}",
    }
    cols = st.columns(2)  # two per row: four side by side cut their labels at 1024 px
    for i, (name, value) in enumerate(shown.items()):
        cols[i % 2].metric(name, value)
    st.caption(
        f"Computed live (seed {seed}, {noise:.0%} of the labels flipped): γ is the best of "
        "400 values in (0, R], D the deviations of the training examples from the true "
        "line at that γ; the one-pass perceptron starts at w = 0, θ = 0 with C = mean ‖x‖² "
        f"(Khardon & Wachman's form of the bound would read {bound['quoted']:.1f}). "
        + guarantee_verdict(bound["error"], noise)
    )
    st.markdown(
        r"""
**How the bounds fit together.** Lesson 2's Novikoff bound $(R/\gamma)^2$
counts the updates on data a line separates with margin $\gamma$. Lesson 3's
$((R + D)/\gamma)^2$ drops the separation and pays for it with the total
deviation $D$; with $D = 0$ it is lesson 2's bound, and both are measured in
the same folded coordinates, from a start at 0. Here the same count becomes
a statement about new data: divided by $(m + 1)/2$ and taken in expectation,
it bounds the voted perceptron's chance of an error, under the conditions
above.
"""
    )


try_this(
    "Press **Play** (or drag the time slider) and watch the black last line jump at every "
    "update while the dashed green averaged line and the voted tint barely move. With a "
    "screen reader: press **Next update** and read the table beside the figure, *The four "
    "predictors at this step*: the last line's training accuracy changes by several points "
    "from one update to the next, the averaged and the voted predictor's hardly at all.",
    "Set **flipped training labels** to 0%. The data are separable: once training stops "
    "updating, the last hypothesis collects all later votes, and the voted predictor and "
    "the longest survivor agree with it; the averaged line still carries the early "
    "hypotheses in its mean and may label a test point or two differently.",
    "Change the **data seed** a few times and compare the last row of the table: which "
    "predictor is most often at the top on the test half?",
)

st.header("Why the vote generalises, and what is known of the average", anchor="why")
st.markdown(
    r"""
**Where the form comes from.** Think of the test example as one more example
of the sequence, the $(m+1)$-th, drawn like the others. At every step the
on-line perceptron predicts an example it has not learned from yet, so the
hypothesis in force at a step picked at random errs on a new example exactly
as often as the run erred at that step: on average, the expected number of
mistakes divided by $m + 1$, at most $M/(m+1)$ for a mistake bound $M$
(Shalev-Shwartz & Ben-David 2014, section 21.7, exercise 5, for data a line
separates; Freund & Schapire's Theorem 3 takes the expected bound with the
deviations $D$). That random pick is Helmbold & Warmuth's (1995) way from
on-line to batch learning, and the vote is its deterministic version (the
LingPipe notes on the averaged perceptron). Where the vote errs, hypotheses
holding at least half of the votes err, so it errs at most twice as often as
the random pick: that is the 2. The conditions come from the same argument:
the examples must be drawn independently from the test example's
distribution, and each must be predicted before it is learned from, which
holds in the first pass only; Khardon & Wachman (2007, section 4) note that
the on-line to batch guarantees hold for one pass, and that in their
experiments a few passes helped.

**The course notes' conversion** (section 2.4) turns any mistake bound into a
guarantee in the PAC model (Valiant 1984, which Khardon & Wachman cite:
with probability at least $1 - \delta$ over the training examples, an error of
at most $\varepsilon$ on new ones): run the learner on fresh examples, wait for
a long stretch without a mistake ("there must be one") and keep the
hypothesis at its end. Why that works: a hypothesis whose error exceeds
$\varepsilon$ survives $q$ fresh examples with probability at most
$(1 - \varepsilon)^q \le e^{-\varepsilon q}$, and at most $M$ mistakes make at
most $M + 1$ hypotheses, so
"""
)
st.latex(
    r"\begin{gathered}(M + 1)\,e^{-\varepsilon q} \le \delta \iff "
    r"q \ge \frac{1}{\varepsilon}\ln\frac{M + 1}{\delta},\\"
    r"\text{within } (M + 1)\,q + M \text{ examples}\end{gathered}"
)
st.markdown(
    r"""
(the $M$ mistakes cut the sequence into at most $M + 1$ mistake-free
stretches, so that many examples hold one of length $q$). This is the idea
behind the longest survivor, whose guarantee in the PAC model Khardon &
Wachman (2007, section 2.5) credit to Kearns et al. (1987): keep the
hypothesis with the longest run of correct predictions. In this lesson's
figure the runs are counted over 20 passes of the same 60 examples, which
after the first pass are not fresh: there the guarantee does not apply.
"""
)
if data is not None:
    clean = clean_guarantee(data)
    q, needed = pac_stretch(clean["bound"], PAC_EPSILON, PAC_DELTA)
    cols = st.columns(2)
    cols[0].metric("Mistake bound M, clean labels", f"{math.floor(clean['bound']):,}")
    cols[1].metric(f"Stretch q (ε = {PAC_EPSILON:g}, δ = {PAC_DELTA:g})", f"{q:,}")
    cols[0].metric("Examples at most, (M + 1)q + M", f"{needed:,}")
    st.caption(
        f"Computed live from this seed's data (seed {seed}): with clean labels every sample "
        f"of this generator has R ≤ {clean['R']:.4g} and folded margin γ ≥ "
        f"{clean['gamma']:.4g}, so M = ⌊(R/γ)²⌋ (the question below explains why). The vote "
        "needs fewer examples for an expected error of ε, about ln((M + 1)/δ)/2 times fewer at "
        f"these ε and δ, but the conversion holds with probability {1 - PAC_DELTA:.0%}, "
        "not on average."
    )

st.markdown(
    r"""
**What is known of the average.** The averaged perceptron scores with the
vote-weighted mean of the hypotheses' scores,
$\sum_k c_k(\langle w_k, x\rangle - \theta_k)/\sum_k c_k$, where the vote takes
the weighted majority of their signs. The step that gives the vote its 2,
"where the vote errs, half of the votes err", has no counterpart for a mean of
scores: one hypothesis with a large score can outweigh many with small scores
of the other sign. Freund & Schapire's Theorem 3 is stated for the vote, and
Khardon & Wachman (2007, section 4) list explaining when the averaging version
works, and why, among the open questions. What convexity does give is a bound
on a loss rather than on the mistakes: the hinge loss of lesson 3 is convex in
the score, so the averaged line's hinge loss on any example is at most the
vote-weighted mean of the hypotheses' hinge losses (Jensen's inequality), and a
hinge loss at a positive margin is at least that margin times a mistake.
Bounds on the loss of an on-line run become error bounds for a batch
hypothesis built from its hypotheses "even in the unrealizable case"
(Khardon & Wachman, section 4, on Cesa-Bianchi, Conconi & Gentile 2004).
"""
    + (
        ""
        if run is None
        else f"In the run above, the averaged and the voted predictor label "
        f"**{predictors_differ(run, data)}** of the {len(data.y_test)} test points "
        "differently."
    )
)

check_question(
    PREFIX,
    "Why is the voted perceptron's boundary bent while the averaged perceptron's is a "
    "straight line?",
    [
        (
            "Voting adds the *signs* of many lines (not linear in x); averaging adds the "
            "*weights*, which gives one line"
        ),
        "The voted perceptron uses a kernel",
        "The averaged perceptron only keeps the longest survivor",
    ],
    answer=0,
    why="A sum of signs of linear functions is a step function, not linear; "
    "Σ c_k(⟨w_k,x⟩ − θ_k) is linear in x, so its zero set is a line.",
    hints={
        1: "Every hypothesis here is a line in the plane: no kernel is involved.",
        2: "Averaging uses every hypothesis from the first update on, weighted by its votes.",
    },
)

if data is not None:
    clean = clean_guarantee(data)
    computation_question(
        f"{PREFIX}calc_",
        f"Compute it: suppose the labels were clean, training and test (flipped labels 0 %), "
        "and the vote trained in one pass. This generator puts every point in the square "
        f"[−1, 1]² and at least {NOISY_LINE_GAP:g} from the true line, so with C = "
        f"{clean['C']:.3f} every sample has ‖z‖ ≤ R = √(2 + C) = {clean['R']:.4g} and margin "
        f"at least γ = {clean['gamma']:.4g} (folded): D = 0, and the mistake bound is at most "
        "(R/γ)² on every sample, whatever m. How many training examples m make Freund & "
        "Schapire's bound on the vote's chance of an error 0.1?",
        {
            "right": 20 * clean["bound"] - 1,
            "without the 2": 10 * clean["bound"] - 1,
            "Khardon & Wachman's constant": 80 * clean["bound"] - 1,
            "for 0.01": 200 * clean["bound"] - 1,
        },
        "right",
        ",.0f",
        why="2/(m + 1) × (R/γ)² = 0.1 gives m + 1 = 20 (R/γ)² = "
        + f"20 × {clean['bound']:,.1f}, so m ≈ "
        + "{answer}: far more examples than the figure's "
        + f"{len(data.y)}, because this generator leaves a thin gap.",
        hints={
            "without the 2": "The guarantee is 2/(m + 1) times the bound: keep the 2.",
            "Khardon & Wachman's constant": "That puts Khardon & Wachman's (2R/γ)² in place "
            "of (R/γ)²: here R and γ are measured with the threshold folded in.",
            "for 0.01": "That brings the guarantee to 0.01: solve 2/(m + 1) × (R/γ)² = 0.1.",
        },
        seed=seed,
    )

research(
    r"""
Freund & Schapire (1999) introduced the voted perceptron as a way to turn
the on-line perceptron into a batch learner with a margin-based guarantee.
Khardon & Wachman (2007, Section 3) compared the predictors on artificial
data with label noise. There the voted perceptron, which needs no
parameter, was not as accurate as the margin τ of lesson 5 used alone with
the last hypothesis; over all their experiments their abstract finds the
voted perceptron similar to the margin "in most cases". The table below
has no τ column: it compares the four predictors of one plain-perceptron
run with each other (lesson 5's table sets τ against them), computed live:
""",
    "Y. Freund and R. E. Schapire, “Large margin classification using the perceptron "
    "algorithm”, Machine Learning 37(3), 277–296 (1999); R. Khardon and G. Wachman, "
    "“Noise tolerant variants of the perceptron algorithm”, JMLR 8, 227–248 (2007).",
    # app_logic.studies_basics.kw_cross_validated at its PREDICTOR_NOISE, τ = 0
    compute=lambda: lesson_study("l04_predictors", seed=seed).drop(columns="margin τ"),
    caption=kw_caption(seed) + " Plain perceptron (no margin); the four columns come from "
    "the same runs.",
)

show_code(
    kw.survive,
    kw.start_hypothesis,
    kw_trainer.note_correct,
    kw_trainer.note_update,
    kw_trainer.keep_longest,
    RunningAverage.fold,
    HypothesisRecord.voted_scores,
    intro="The trainer counts the votes: a correct prediction adds one to the current "
    "hypothesis's vote and survival tally, an update starts a new hypothesis with none. "
    "Before the update that ends the longest survivor so far, the trainer copies it; the "
    "averaged hypothesis is summed per example (each update weighted by the votes cast "
    "after it); only the voted prediction keeps every hypothesis and scores each of them.",
)

exercises(4, seed=seed, noise=noise, request=noisy_line(seed, noise), data=data, run=run)
