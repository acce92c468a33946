"""Lesson 3. When data are not separable: the perceptron cycles, and the last hypothesis is luck.

The figure trains on points split by a line with some training labels
flipped; beside it, the accuracy of every hypothesis the run passes
through, so the student sees the last one is just where training stopped.
Session keys start with ``l03_``.
"""

from __future__ import annotations

import streamlit as st

from perceptron_core import Perceptron
from perceptron_core.rules import kw
from perceptron_lab.app_logic.exercises.lesson_03 import REPLAY
from perceptron_lab.app_logic.payload.extras import Panel, Trail
from perceptron_lab.app_logic.style import BLUE, ORANGE, Show
from perceptron_lab.lessons._basics import (
    accuracy,
    at_end,
    line_accuracies,
    noisy_line,
    seed_control,
)
from perceptron_lab.lessons._bounds import mistake_bound, noisy_mistake_bound
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

PREFIX = "l03_"


def accuracy_trail(run, data) -> list[Panel]:
    """Beside the figure: accuracy of each hypothesis so far, the current one marked."""
    train = line_accuracies(run, data.X, data.y)
    test = line_accuracies(run, data.X_test, data.y_test)
    low = min(0.4, float(min(train.min(), test.min())) - 0.02)  # room for a line gone wrong
    return [
        Panel(
            "Accuracy of each hypothesis so far",
            [
                Trail(
                    "",
                    (
                        ("training (noisy labels)", train, BLUE),
                        ("test (clean labels)", test, ORANGE),
                    ),
                    x_title="after update number",
                    y_format=".0%",
                    y_range=(low, 1.02),
                )
            ],
        )
    ]


def live_numbers(run, data) -> dict:
    """From the run: updates never stop, and the test accuracy depends on where it stops."""
    tl = run.timeline
    test_acc = 1 - run.test_errors / len(data.y_test)
    last = accuracy(run.final_test["last"], data.y_test)  # from the core's predict_all
    later = test_acc[len(test_acc) // 2 :]  # epochs of the second half: long past the start
    return {
        "Updates in the last epoch": f"{tl.mistakes_per_epoch()[-1]}",
        "Test accuracy of the last hypothesis": f"{last:.1%}",
        "Worst epoch end (2nd half)": f"{later.min():.1%}",
        "Best epoch end (2nd half)": f"{later.max():.1%}",
    }


def bound_verdict(bound: float, quoted: float, m: int) -> str:
    """What the bound ``((R + D)/γ)²`` says about one pass over ``m`` examples, and what
    Khardon & Wachman's form ``(2(R + D)/γ)²`` (``quoted``) would say."""
    if bound >= m:
        return (
            f" A pass has only {m} examples, so on these data the bound promises nothing a pass "
            f"does not (Khardon & Wachman's form, {quoted:,.1f}, even less): a guarantee for "
            "every sequence, not a forecast."
        )
    return (
        f" That is fewer than the {m} examples of a pass, so the bound does say something, "
        "though far above what this order of the examples needed: it holds for every order. "
        + (
            f"Khardon & Wachman's form would read {quoted:,.1f}, more than a pass has: "
            "with the threshold folded in, the factor 4 is not needed."
            if quoted >= m
            else f"Khardon & Wachman's form would read {quoted:,.1f}."
        )
    )


def noisy_bound_numbers(run, data, seed: int) -> str:
    """The bound with the true line and the best γ, against one pass of a zero-start perceptron."""
    C = run.estimator.C_
    bound, gamma, D, R = noisy_mistake_bound(data.X, data.y, data.w_star, data.theta_star, C)
    one_pass = Perceptron(theta_init=0.0, C=C, epochs=1, random_state=seed).fit(data.X, data.y)
    return (
        f"\n\n**On the training data above** ({len(data.y)} examples, {int(data.flipped.sum())} "
        f"labels flipped), with $u$ the true line and the best $\\gamma$ of a grid: "
        f"R = {R:.3g}, γ = {gamma:.3g}, D = {D:.3g}, so at most **{bound:,.1f}** mistakes in "
        f"one pass; a perceptron started at 0 made **{one_pass.n_updates_}** in its first pass "
        "over them (seeded as the run above)."
        + bound_verdict(bound, mistake_bound(R, D, gamma, folded=False), len(data.y))
    )


lesson_header(
    3,
    "When data are not separable",
    "See the perceptron keep moving on data no line separates, and why its last line is a "
    "poor choice.",
)
notation(("x, y", "w, θ", "η", "C", "z, v", "R", "u, γ", "ξ_j, D"))
st.markdown(
    r"""
Flip a few labels of separable data and no line gets every training example
right. Then every epoch contains at least one mistake, every mistake
triggers an update, and training never settles:
"""
)
st.latex(
    r"\begin{gathered}\forall (w,\theta)\ \exists j:\ y_j\big(\langle w,x_j\rangle-\theta\big)"
    r" \le 0\\ \Longrightarrow\quad \text{at least one update per epoch, for ever.}"
    r"\end{gathered}"
)
st.markdown(
    r"""
Nor does it run off. The course notes on on-line learning state the
*perceptron cycling theorem* as: the perceptron "will eventually repeat the
same set of weights". The theorem is Minsky and Papert's (*Perceptrons*,
1969); Block and Levin (1970) gave the general proof. What it proves is
that the weights stay bounded; an exact repeat follows when the inputs are
integers or rationals, since bounded weights then take finitely many
values. This lesson's points are real numbers, so the line keeps coming
back *near* the same positions, pulled back and forth by the examples it
keeps getting wrong (often the flipped ones, marked ×). Each update helps the example it was
made for and may hurt many others. The hypothesis left at the end is
whichever one the last mistake produced:
"""
)
st.latex(
    r"(w_{last}, \theta_{last}) = \text{the hypothesis after the final update,"
    r" good or bad}"
)
st.markdown(
    r"""
**In the figure:** half of the points are kept apart for testing (not drawn;
their labels are never flipped, so they measure how close the line gets to
the truth); the training points with flipped labels carry a ×, and the
dotted line is the true boundary. The chart under the panel follows every
hypothesis of the run: training accuracy (on the noisy labels) and test
accuracy after each update. On separable data both curves would stop
changing once the updates stop (before that neither climbs steadily: one
update can lower both); here they saw-tooth for as long as you train.
"""
)

cols = st.columns(3)
with cols[0]:
    noise = st.select_slider(
        "Flipped training labels",
        options=(0.0, 0.05, 0.1, 0.2, 0.3),
        value=0.1,
        format_func=lambda p: f"{p:.0%}",
        key=f"{PREFIX}noise",
        help="Exactly this share of the 60 training labels is flipped.",
    )
with cols[1]:
    epochs = st.slider(
        "Stop after epoch",
        min_value=5,
        max_value=60,
        value=30,
        key=f"{PREFIX}epochs",
        help="Training runs this many passes; the last hypothesis is the one in force then.",
    )
with cols[2]:
    seed = seed_control(PREFIX, default=5)  # its epoch ends differ a lot: the point at a glance
data, run = stage(
    PREFIX,
    noisy_line(seed, noise),
    "perceptron",
    epochs=epochs,
    show=Show(band=False, test_points=False, target=True),
    extras=accuracy_trail,
    start=at_end,
    predict=REPLAY.predict,
)

try_this(
    "The figure opens at the end of training: the test curve keeps jumping up and down "
    "until the very last update. Read its last value, then move **Stop after epoch** from "
    "30 to 31, then 32, pressing **End** each time: a different last hypothesis each "
    "time, often a different test accuracy.",
    "Set **flipped training labels** to 0%. The data are separable again: the updates "
    "stop, both curves end flat, and the step counter stops adding updates.",
    "With **flipped training labels** back at 10%, change the **data seed** and watch where "
    "the line ends up: the flipped points (×) keep dragging it across the true line.",
)

st.header("How many mistakes, when no line separates?")
st.markdown(
    r"""
Novikoff's bound (lesson 2) needs a line that separates the data. Freund &
Schapire (1999, Theorem 2) give one that does not. Take any line at unit
length, $u$, in lesson 2's coordinates (the threshold folded in as a last
coordinate, $z = (x, -\sqrt{C})$, and $R = \max_j \lVert z_j\rVert$), and
any margin $\gamma > 0$. Each example falls short of that margin by its
*deviation* $\xi_j$ (Freund & Schapire write $d_j$); add them up as $D$:
"""
)
st.latex(
    r"\begin{gathered}\xi_j = \max\big(0,\ \gamma - y_j\langle u, z_j\rangle\big),\qquad "
    r"D = \sqrt{\textstyle\sum_j \xi_j^2}\\"
    r"\text{mistakes} \;\le\; \Big(\frac{R + D}{\gamma}\Big)^2\end{gathered}"
)
st.markdown(
    r"""
for a perceptron started at $w = 0,\ \theta = 0$, on the sequence of
examples it sees. With $D = 0$ the line separates with margin $\gamma$ and
this is lesson 2's $(R/\gamma)^2$. The proof is Novikoff's, three lines, on
data made separable: give the $j$-th example of the sequence a coordinate of
its own, $\Delta$, and $u$ the entries $y_j\xi_j/\Delta$ there (the
perceptron's run does not change: example $j$'s own coordinate is still 0 in
$v$ when $j$ comes):
"""
)
st.latex(
    r"\begin{gathered}z_j' = (z_j,\ \Delta e_j),\quad u' = \frac{(u,\ y_1\xi_1/\Delta,\ "
    r"\dots,\ y_m\xi_m/\Delta)}{\sqrt{1 + D^2/\Delta^2}}\\"
    r"y_j\langle u', z_j'\rangle = \frac{y_j\langle u, z_j\rangle + \xi_j}"
    r"{\sqrt{1 + D^2/\Delta^2}} \ge \frac{\gamma}{\sqrt{1 + D^2/\Delta^2}},\quad "
    r"\lVert z_j'\rVert^2 \le R^2 + \Delta^2\\"
    r"\text{mistakes} \le \frac{(R^2 + \Delta^2)(1 + D^2/\Delta^2)}{\gamma^2}"
    r" = \Big(\frac{R + D}{\gamma}\Big)^2 \ \text{ at } \Delta^2 = RD\end{gathered}"
)
noisy_bound = noisy_bound_numbers(run, data, seed)
st.markdown(
    r"""
Khardon & Wachman (2007, section 2.1) quote the bound as
$\big(2(R + D)/\gamma\big)^2$. That is the form of Cristianini &
Shawe-Taylor (2000, chapter 2), who keep the threshold apart: their $R$
is $\max_j \lVert x_j\rVert$, their $\gamma$ and $D$ are measured with a
unit $w$ and a bias $|b| \le R$. Folding that bias in as an extra
coordinate $R$ makes $\lVert z\rVert$ up to $\sqrt2 R$ and the folded
$u$ up to $\sqrt 2$ long: the two factors $\sqrt 2$ give the 2 (more
exactly $((2R + D)/\gamma)^2 \le (2(R + D)/\gamma)^2$). With $R$, $\gamma$
and $D$ measured after folding, as here, the bound needs no 2. A flipped label is an example
far on the wrong side of the true line: it adds to $D$, so a few flips cost
a bounded number of extra mistakes ("thus one can expect some robustness to
noise", Khardon & Wachman). Epoch after epoch the same examples come back,
and over $T$ epochs $D$ is $\sqrt{T}$ times one epoch's: the bound grows
with $T$, as the updates do.
"""
    + noisy_bound
)

check_question(
    PREFIX,
    "No line separates the training data. What happens to the number of updates per epoch "
    "as training goes on?",
    [
        "It falls to 0 once the perceptron has seen every example often enough",
        "It never reaches 0: every epoch has at least one mistake, so at least one update",
        "It grows without bound, because ‖w‖ grows without bound",
    ],
    answer=1,
    why="Some example is always on the wrong side, and every mistake updates; by the "
    "cycling theorem the perceptron's weights stay bounded, so the line wanders instead "
    "of settling.",
    hints={
        0: "Set the flipped labels to 10% and press End: is there an epoch without updates?",
        2: "The cycling theorem says the perceptron's weights stay bounded, so they cannot "
        "grow for ever; the updates per epoch stay roughly level.",
    },
)

if run is not None:
    bound, gamma, D, R = noisy_mistake_bound(
        data.X, data.y, data.w_star, data.theta_star, run.estimator.C_
    )
    computation_question(
        f"{PREFIX}calc_",
        f"Compute it: on the figure's training data the text above gives R = {R:.4g}, "
        f"γ = {gamma:.4g} and D = {D:.4g}, and the bound they give. How large would the bound "
        "be if no example fell short of the margin γ (D = 0)?",
        {
            "right": mistake_bound(R, 0.0, gamma),
            "Khardon & Wachman's 2": mistake_bound(R, 0.0, gamma, folded=False),
            "with D, as above": bound,
            "no square": R / gamma,
        },
        "right",
        ",.1f",
        why=f"(R/γ)² = ({R:.4g} / {gamma:.4g})² ≈ " + "{answer}: lesson 2's Novikoff bound, "
        "as it must be, since D = 0 means the line separates with margin γ. The rest of the "
        "bound above is the price of the deviations D.",
        hints={
            "Khardon & Wachman's 2": "That is (2R/γ)², Khardon & Wachman's form, for a "
            "threshold kept apart. Here R and γ are measured with the threshold folded in: "
            "the bound is ((R + D)/γ)².",
            "with D, as above": "That is the bound with the deviations: set D to 0.",
            "no square": "The bound is a square: ((R + D)/γ)².",
        },
        seed=seed,
    )

if run is not None:
    research(
        r"""
The course notes on on-line learning state the *cycling theorem* this way:
on data no line separates, the perceptron "will eventually repeat the same
set of weights". The theorem is Minsky and Papert's (*Perceptrons*, 1969);
Block and Levin (1970) gave the general proof that the weights stay bounded
(both outside the papers this app reproduces); an exact repeat needs integer
or rational inputs. Either way it neither
converges nor runs off. The last hypothesis is then whatever the cycle passed
through when training stopped. Gallant's *pocket algorithm* (1990) keeps another
one: the hypothesis with the longest run of correct classifications,
and, with its *ratchet*, only if it also classifies more of the training set
correctly. Lesson 4's longest survivor keeps the longest run without that check:
related, not the same. Khardon & Wachman (2007, their description of the
variants) credit its guarantee to Kearns et al. (1987) and the variations of
the idea proposed as the pocket algorithm, with evidence that they help, to
Gallant (1990). Numbers from the run
above:
""",
        "M. Minsky and S. Papert, *Perceptrons*, MIT Press (1969); H. D. Block and S. A. "
        "Levin, “On the boundedness of an iterative procedure "
        "for solving a system of linear inequalities”, Proc. AMS 26, 229–235 (1970) (both "
        "outside the papers this app reproduces); S. I. Gallant, “Perceptron-based learning "
        "algorithms”, IEEE Trans. Neural Networks 1(2), 179–191 (1990); R. Khardon and G. "
        "Wachman, “Noise tolerant variants of the perceptron algorithm”, JMLR 8, 227–248 "
        "(2007).",
        compute=lambda: live_numbers(run, data),
        caption=f"From the recorded run above (seed {seed}, {noise:.0%} flipped, {epochs} "
        "epochs): test accuracy on the 60 clean test points of the hypothesis in force at "
        "the end of each epoch of the second half, and of the last one.",
    )

show_code(
    kw.decide,
    kw.update,
    intro="The same rule as in lesson 1: nothing in it knows whether the data are "
    "separable, so on noisy labels `decide` finds mistakes in every epoch.",
)

exercises(
    3, seed=seed, noise=noise, epochs=epochs, request=noisy_line(seed, noise), data=data, run=run
)
