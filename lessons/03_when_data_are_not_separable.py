"""Lesson 3. When data are not separable: the perceptron cycles, and the last hypothesis is luck.

The figure trains on points split by a line with some training labels
flipped; beside it, the accuracy of every hypothesis the run passes
through, so the student sees the last one is just where training stopped.
Session keys start with ``l03_``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from perceptron_core import PassiveAggressive, Perceptron
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
from perceptron_lab.lessons._bounds import (
    deviations,
    mistake_bound,
    noisy_mistake_bound,
    relative_loss_bound,
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
                    "Training and test accuracy",
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


def loss_view_sentence(run, data, seed: int) -> str:
    """The relative loss bound on the figure's training data: one pass of a perceptron
    started at 0 (as :func:`noisy_bound_numbers`), its mistakes M, the true line's hinge
    loss L on those steps at the γ of a grid that makes the bound smallest, and the bound."""
    if run is None:
        return ""
    C = run.estimator.C_
    one_pass = Perceptron(theta_init=0.0, C=C, epochs=1, random_state=seed, record="updates")
    one_pass.fit(data.X, data.y)
    M = one_pass.n_updates_
    bound, L, gamma = relative_loss_bound(
        data.X, data.y, data.w_star, data.theta_star, C, one_pass.trace_.index
    )
    R = deviations(data.X, data.y, data.w_star, data.theta_star, C, gamma)[1]
    largest = (
        " (the largest of the grid: there every step with a mistake costs the line almost 1)"
        if gamma >= 0.99 * R
        else ""
    )
    return (
        f"\n\n**On the training data above**, one pass from 0 (the run of the section "
        f"above): the perceptron erred M = **{M}** times. With $u$ the true line and the "
        f"$\\gamma$ of a grid that makes the right side smallest, γ = {gamma:.3g}{largest} "
        f"with R = {R:.3g}, L = {L:.2f}: M − L = **{M - L:.2f}** against a bound of "
        f"**{bound - L:.2f}**, so M ≤ {bound:.1f}."
    )


def one_pass_table(data, seed: int) -> tuple[pd.DataFrame, float]:
    """One pass from 0 over the figure's training data, in its order: the perceptron and
    the three Passive-Aggressive learners' mistakes, updates and test accuracy, and the
    largest |y f(x) − 1| right after one of PA's updates (0 in exact arithmetic)."""
    C = float(np.mean((data.X**2).sum(axis=1)))
    learners = {
        "perceptron (fixed step, on mistakes)": Perceptron(theta_init=0.0, C=C),
        "PA (the loss-sized step)": PassiveAggressive(variant="PA"),
        "PA-I (step at most C = 1)": PassiveAggressive(variant="PA-I"),
        "PA-II (step damped by C = 1)": PassiveAggressive(variant="PA-II"),
    }
    rows = []
    for name, est in learners.items():
        est.set_params(epochs=1, random_state=seed, record="updates").fit(data.X, data.y)
        rows.append(
            {
                "learner": name,
                "mistakes": int(getattr(est, "n_mistakes_", est.n_updates_)),
                "updates": int(est.n_updates_),
                "test accuracy": f"{est.score(data.X_test, data.y_test):.1%}",
            }
        )
    return pd.DataFrame(rows), margin_after_update(learners["PA (the loss-sized step)"], data)


def margin_after_update(pa, data) -> float:
    """The largest |y f(x) − 1| over PA's updates, right after each (its trace: the rows and
    the additive steps)."""
    trace = pa.trace_
    X = data.X[trace.rows]
    W = trace.w0 + np.cumsum(trace.coef[:, None] * X, axis=0)
    theta = trace.theta0 + np.cumsum(trace.theta_delta)
    y = np.where(data.y[trace.rows] > 0, 1.0, -1.0)
    return float(np.abs(y * ((W * X).sum(axis=1) - theta) - 1.0).max(initial=0.0))


lesson_header(
    3,
    "When data are not separable",
    "See the perceptron keep moving on data no line separates, and why its last line is a "
    "poor choice.",
)
notation(("x, y", "w, θ", "η", "C", "z, v", "R", "u, γ", "ξ_j, D", "ℓ_j, L"))
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
    "time, often a different test accuracy. With a screen reader: the chart's description "
    'follows the step ("at hypothesis", then both accuracies); press **Next update** to '
    "hear the test accuracy change from one update to the next.",
    "Set **flipped training labels** to 0%. The data are separable again: the updates "
    "stop, both curves end flat, and the step counter stops adding updates. With a screen "
    'reader: after the last update every step is announced as "correct, no update", and '
    "the chart's description stays at the same hypothesis to the end.",
    "With **flipped training labels** back at 10%, change the **data seed** and watch where "
    "the line ends up: the flipped points (×) keep dragging it across the true line. With a "
    'screen reader: an update on a flipped point is announced with "(flipped by noise)" '
    "after its label.",
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

st.header("The loss view: mistakes against a line's hinge loss", anchor="the-loss-view")
st.markdown(
    r"""
The rule can be read as an optimiser. With the threshold folded in, take the
**perceptron loss** of one example, $\ell_j(v) = \max(0, -y_j\langle v, z_j\rangle)$:
0 on the right side, growing linearly on the wrong one, where its gradient is
$-y_j z_j$; at 0 it has a kink, and $-y_j z_j$ is one of its subgradients there
(the rule updates at 0 too). A step against that subgradient, one example at
a time, is the perceptron's update:
"""
)
st.latex(
    r"v \leftarrow v - \eta\,\partial\ell_j(v) = "
    r"\begin{cases} v + \eta\,y_j z_j & \text{if } y_j\langle v, z_j\rangle \le 0\\"
    r" v & \text{otherwise}\end{cases}"
)
st.markdown(
    r"""
that is, **stochastic subgradient descent** on $\sum_j \ell_j$. Shalev-Shwartz &
Ben-David (2014, section 21.4) derive the perceptron the same way, as on-line
gradient descent on the **hinge loss** $\max(0, 1 - y_j\langle v, z_j\rangle)$
counted on the steps with a mistake: from a start at 0 the step size changes
no prediction (lesson 1), so asking for a margin of 1 costs nothing. Lesson 5
does the same for the perceptron with margin.

The deviations of the bound above are hinge losses. Scale the comparison
line to $v^* = u/\gamma$, of length $1/\gamma$: then
$\xi_j = \gamma\max(0, 1 - y_j\langle v^*, z_j\rangle)$, $\gamma$ times the hinge
loss of $v^*$ on example $j$, and $D/\gamma$ is the root of the sum of their
squares. The bound compares the perceptron's mistakes with the loss of one
fixed line, any line, chosen after the fact: it is a **relative loss bound**
(Khardon & Wachman 2007, section 4: bounds "relative to the best hypothesis in
a comparison class"). Shalev-Shwartz & Ben-David (2014, Theorem 21.16) state it
with the hinge loss itself, summed over the $M$ steps on which the perceptron
erred, $L = \sum_{j\ \mathrm{erred}} \max(0, 1 - y_j\langle v^*, z_j\rangle)$:
"""
)
st.latex(
    r"\begin{gathered}M \;\le\; L + R\lVert v^*\rVert\sqrt L + R^2\lVert v^*\rVert^2,\\"
    r"\text{that is}\qquad M - L \;\le\; \frac{R}{\gamma}\sqrt L"
    r" + \Big(\frac{R}{\gamma}\Big)^2\end{gathered}"
)
st.markdown(
    r"""
The left side is a **regret**: how many more mistakes the learner made than
the comparison line's loss on the same examples, which only knowing the line
in advance would have avoided. The right side grows like $\sqrt L$, more
slowly than $L$, so over a long sequence the perceptron's mistakes per example
come as close as we like to that line's hinge loss per example. That is all it
promises: where every line has a large loss, as with flipped labels, the bound
is large too.
"""
    + loss_view_sentence(run, data, seed)
)

st.subheader("Passive-Aggressive in this light", anchor="passive-aggressive")
st.markdown(
    r"""
The playground's **Passive-Aggressive** learners (Crammer et al. 2006; the
project's algorithms page, section 5.4) use the hinge loss at margin 1 on
every example, $\ell = \max(0, 1 - y f(x))$ with $f(x) = \langle w, x\rangle + b$,
and choose the step instead of fixing it. On an example with $\ell = 0$ they
stay *passive*; otherwise they step along the same subgradient, $y x$ for $w$
and $y$ for $b$, just far enough that this example's loss becomes 0, to the
nearest weights with margin 1 on it (PA), or less far (PA-I and PA-II, with a
constant $C$):
"""
)
st.latex(
    r"\begin{gathered}\tau = \frac{\ell}{\lVert x\rVert^2 + 1}\ \text{(PA)},\quad"
    r"\min\Big(C, \frac{\ell}{\lVert x\rVert^2 + 1}\Big)\ \text{(PA-I)},\\"
    r"\frac{\ell}{\lVert x\rVert^2 + 1 + 1/(2C)}\ \text{(PA-II)}\\"
    r"w \leftarrow w + \tau\,y\,x,\quad b \leftarrow b + \tau\,y\\"
    r"\Longrightarrow\quad y f_{\mathrm{new}}(x) = y f(x) + \tau\,(\lVert x\rVert^2 + 1)"
    r"\end{gathered}"
)
st.markdown(
    r"""
With PA's $\tau$ the new $y f(x)$ is $y f(x) + \ell = 1$. Khardon & Wachman
(2007, section 4) describe the algorithm as adapting $\eta$ on each example "to
guarantee it is immediately separable with margin", with the step limited for
noisy data. Seen as descent, the perceptron takes a fixed step on the
perceptron loss, on mistakes only; Passive-Aggressive takes a step the size of
the loss on the hinge loss, also on examples it classifies right but within
the margin. Its guarantees are relative loss bounds too, and Khardon & Wachman
remark that bounds of the same kind hold for the plain perceptron, so the
bounds alone do not say which does better on noisy data. One pass over this
lesson's training data, from 0, in the figure's order:
"""
)
if data is not None:
    passes, fit_gap = one_pass_table(data, seed)
    st.dataframe(passes, hide_index=True)
    st.caption(
        f"Computed live (seed {seed}, {noise:.0%} flipped): perceptron_core.Perceptron "
        "(started at w = 0, θ = 0, C = mean ‖x‖²) and PassiveAggressive (C = 1 for PA-I and "
        "PA-II), one epoch each, test accuracy of the final line on the 60 clean test points. "
        f"After each of PA's updates its example's y f(x) is 1 up to {fit_gap:.1e}."
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
