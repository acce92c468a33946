"""Lesson 6. Rare positives: uneven margins (PAUM), precision–recall and macro-averaged precision.

The figure trains PAUM on two Gaussian clouds with a rare positive class,
the band between ``-tau_-1`` and ``tau_+1`` drawn; beside it, the current
line's precision, recall and macro-averaged precision on the clean test half, and
its precision–recall curve. The research box runs the PAUM study
(:func:`perceptron_core.experiments.paum_study`) on the same kind of data,
then Li et al.'s Theorem 2.1 (updates and class margins) checked live on a
separable set drawn with the lesson's seed.
Session keys start with ``l06_``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from perceptron_core import PAUMPerceptron
from perceptron_core.metrics import average_precision, precision_recall_curve
from perceptron_core.rules import paum
from perceptron_lab.app_logic.datasource import DataRequest
from perceptron_lab.app_logic.exercises.lesson_06 import REPLAY
from perceptron_lab.app_logic.payload.extras import Curves, Panel, Text, Value
from perceptron_lab.app_logic.studies_variants import PAUM_FOLDS, PAUM_MARGINS, PAUM_SAMPLES
from perceptron_lab.app_logic.style import Show
from perceptron_lab.lessons._basics import at_end, seed_control
from perceptron_lab.lessons._bounds import class_margins, paum_guarantee, paum_update_bound
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
from perceptron_lab.ui.safety import attempt
from perceptron_lab.ui.studies import lesson_study

PREFIX = "l06_"
N_SAMPLES = 630  # half of them train, half test
RATIOS = {"1 : 10": 1 / 11, "1 : 20": 1 / 21, "1 : 40": 1 / 41}
#: Margins offered, in units of R² (one update moves the bias by η R²).
TAU_POS = (0.0, 0.1, 0.25, 0.5, 1.0, 2.0)
TAU_NEG = (-0.5, -0.25, 0.0, 0.1)


def rare_request(seed: int, rate: float) -> DataRequest:
    """Two Gaussian clouds with a share ``rate`` of positives; half kept clean for testing."""
    return DataRequest(
        "imbalanced",
        (("n_samples", N_SAMPLES), ("positive_rate", rate)),
        test_fraction=0.5,
        seed=seed,
    )


#: The most hypotheses whose precision–recall curve the browser receives (evenly spaced).
MAX_CURVES = 200


def ranking_numbers(run, data) -> list[Panel]:
    """Beside the figure: precision, recall, macro-averaged precision and the precision–recall
    curve of every hypothesis on the test points (the curve at up to :data:`MAX_CURVES` of
    them)."""
    W, theta = run.timeline.W[0], run.timeline.theta[0]
    scores = data.X_test @ W.T - theta  # f(x) = <w,x> + b: the timeline stores θ = -b
    positive = data.y_test > 0
    predicted = scores > 0  # sign(0) is the negative class
    hits = (predicted & positive[:, None]).sum(axis=0)
    with np.errstate(divide="ignore", invalid="ignore"):
        recall = hits / positive.sum()
        precision = np.where(predicted.any(axis=0), hits / predicted.sum(axis=0), np.nan)
    ranks = np.ptp(scores, axis=0) > 0  # w = 0 ranks nothing
    ap = np.array(
        [average_precision(data.y_test, s) if r else np.nan for s, r in zip(scores.T, ranks)]
    )
    rows = np.unique(
        np.linspace(0, len(theta) - 1, min(len(theta), MAX_CURVES)).round().astype(int)
    )
    rows = rows[ranks[rows]]
    curves = [precision_recall_curve(data.y_test, scores[:, k])[:2] for k in rows]
    return [
        Panel(
            f"On the {len(data.y_test)} test points ({int(positive.sum())} positive)",
            [
                Value("recall", recall, format=".0%"),
                Value("precision", precision, format=".0%"),
                Value("MAP (precision averaged over the positives)", ap, format=".3f"),
                Text(
                    "w = 0: every test point gets the same score, so there is no ranking yet.",
                    caption=True,
                    values=~ranks,
                ),
                Curves(
                    "Precision–recall",
                    rows,
                    x=tuple(r for _, r in curves),
                    y=tuple(p for p, _ in curves),
                    point=(recall, precision),
                    curve_name="threshold moved along the ranking",
                    point_name="the line (f(x) > 0)",
                    x_title="recall",
                    y_title="precision",
                ),
            ],
        )
    ]


def study_summary(table: pd.DataFrame) -> str:
    """One sentence from the study: what the largest positive margin did to recall and MAP."""
    even = table.iloc[0]
    uneven = table.iloc[len(PAUM_MARGINS) - 1]
    return (
        f"From {even['learner']} to {uneven['learner']}: recall "
        f"**{even['recall']:.1f}% → {uneven['recall']:.1f}%**, precision "
        f"**{even['precision']:.1f}% → {uneven['precision']:.1f}%**, macro-averaged precision "
        f"**{even['MAP']:.1f}% → {uneven['MAP']:.1f}%**."
    )


def separable_request(seed: int) -> DataRequest:
    """100 points a known line separates with a gap (both classes alike): the data of Li et
    al.'s guarantee, drawn with the lesson's seed."""
    return DataRequest("separable", (("margin", 0.1), ("n_samples", 100)), seed=seed)


def guarantee_rows(X, y, w_star, theta_star, seed: int, tau_neg: float, tau_pos: float):
    """PAM(τ₊₁, τ₊₁) and PAUM(τ₋₁, τ₊₁) (margins in units of R², η = 1) on separable
    ``(X, y)``: each run's updates and class margins beside Li et al.'s Theorem 2.1 for
    them, with the true line ``<w*, x> = θ*`` as the reference. With τ₋₁ < 0 the
    negatives' guaranteed margin is NaN (:func:`lessons._bounds.paum_guarantee`).

    Each run may take as many epochs as the theorem's update bound allows (every epoch
    before the last makes an update), so it stops by itself.
    """
    R2 = float(np.max(np.sum(X**2, axis=1)))
    pairs = {f"PAM({tau_pos:g}, {tau_pos:g})": (tau_pos, tau_pos)}
    if tau_neg != tau_pos:
        pairs[f"PAUM({tau_neg:g}, {tau_pos:g})"] = (tau_neg, tau_pos)
    rows = []
    for name, (neg, pos) in pairs.items():
        bound = paum_guarantee(X, y, w_star, -theta_star, neg * R2, pos * R2, 1.0)
        est = PAUMPerceptron(
            tau_neg=neg * R2,
            tau_pos=pos * R2,
            eta=1.0,
            max_epochs=int(bound["updates"]) + 2,
            random_state=seed,
        ).fit(X, y)
        margin_neg, margin_pos = class_margins(X, y, est.coef_.ravel(), est.intercept_[0])
        rows.append(
            {
                "learner": name,
                "stopped": bool(est.converged_),
                "updates": est.n_updates_,
                "bound (2.4)": bound["updates"],
                "γ₋₁ of the line": margin_neg,
                "guaranteed γ₋₁ >": bound["margin_neg"],
                "γ₊₁ of the line": margin_pos,
                "guaranteed γ₊₁ >": bound["margin_pos"],
            }
        )
    return pd.DataFrame(rows), bound


lesson_header(
    6,
    "Rare positives",
    "See how asking more margin of the rare class than of the common one moves the line and "
    "trades precision for recall.",
)
notation(("x, y", "w, θ", "η", "θ_init", "R", "u, γ", "τ₋₁, τ₊₁", "τ"))
st.markdown(
    r"""
When one positive comes with ten or forty negatives, a plain perceptron
settles where the many negatives push it: close to the positives, and it
misses many of them. Accuracy hides this (calling everything negative is
already 95 % right at 1 : 20). The **perceptron with uneven margins** (PAUM)
of Li et al. asks each class for its own functional margin. With
$f(x) = \langle w,x\rangle + b$, starting from $w = 0$, $b = 0$, and
$R = \max_j \lVert x_j\rVert$:
"""
)
st.latex(
    r"\text{update if}\quad y_j\,f(x_j) \le \tau_{y_j}\qquad "
    r"w \leftarrow w + \eta\,y_j\,x_j,\quad b \leftarrow b + \eta\,y_j\,R^2"
)
st.markdown(
    r"""
A large $\tau_{+1}$ keeps every positive updating until it is deep inside
its side, so the line is pushed into the negatives; a small or negative
$\tau_{-1}$ lets negatives sit near (or a little past) the line without
complaint. The margins are in score units, and one update moves $b$ by
$\eta R^2$, so the lesson gives them in units of $R^2$. (Lesson 5's $\tau$
is in units of $\theta_{init}$, the mean $\lVert x\rVert^2$: $\tau_{+1} = t R^2$
asks the score margin that lesson 5's $\tau = t R^2/\theta_{init}$ asks. Li et
al.'s bias $b$ is the other lessons' $-\theta$, and their $R$ is measured
without folding it in.) Prediction is still
$\operatorname{sign} f(x)$: the margins act only during training.

How to judge a ranking of a rare class: sort the test points by $f(x)$ and
move a threshold down the list. At each threshold,
"""
)
st.latex(
    r"\begin{gathered}\text{precision} = \frac{\#\text{positives above}}{\#\text{points above}},"
    r"\qquad\text{recall} = \frac{\#\text{positives above}}{\#\text{positives}},\\"
    r"\text{MAP}_{z,f} = \frac{1}{P}\sum_{i\,:\,y_i=+1} \text{precision at } f(x_i)"
    r"\end{gathered}"
)
st.markdown(
    r"""
Li et al. (2002, section 3.2) call this mean, over the $P$ positives, of
the precision at each positive's own score the *macro-averaged precision*,
$\text{MAP}_{z,f}$ (elsewhere it often goes by *average precision*): 1 when
every positive is ranked above every negative. They compute it for each
topic and report its mean over three groups of topics: all topics (ALL),
the ten most frequent (TOP10) and the thirty rarest (LAST30). This lesson
has one rare class, so its MAP is that one class's $\text{MAP}_{z,f}$.

**In the figure:** orange diamonds are the rare positives, blue circles the
negatives (the clean test half is drawn hollow); the grey band runs from
$f = -\tau_{-1}$ to $f = \tau_{+1}$: a positive inside it, or any point on
the wrong side, still forces an update. The box beside it scores the current
line on the test half; the curve is its precision–recall curve (every
threshold along its ranking), the ring marks where the line itself
($f(x) > 0$) operates.
"""
)

cols = st.columns(4)
with cols[0]:
    tau_pos = st.select_slider(
        "τ₊₁ (× R²)",
        options=TAU_POS,
        value=1.0,
        key=f"{PREFIX}tau_pos",
        help="The margin asked of the rare positives.",
    )
with cols[1]:
    tau_neg = st.select_slider(
        "τ₋₁ (× R²)",
        options=TAU_NEG,
        value=0.0,
        key=f"{PREFIX}tau_neg",
        help="The margin asked of the negatives; below 0 they may sit a little past the line.",
    )
with cols[2]:
    ratio = st.radio(
        "Positives : negatives", list(RATIOS), index=1, key=f"{PREFIX}ratio", horizontal=True
    )
with cols[3]:
    seed = seed_control(PREFIX)
request = rare_request(seed, RATIOS[ratio])
R2 = float(np.max(np.sum(get_dataset(request).X ** 2, axis=1)))
data, run = stage(
    PREFIX,
    request,
    "paum",
    {"tau_pos": tau_pos * R2, "tau_neg": tau_neg * R2, "eta": 1.0, "lam": 0.0},
    epochs=20,
    show=Show(arrows=False),
    extras=ranking_numbers,
    start=at_end,
    predict=REPLAY.predict,
)
# Li et al.'s guarantee on separable data (shown under the research box; the question uses it)
sep = get_dataset(separable_request(seed))
# attempt: a message, not a traceback, on a set where the theorem's conditions would fail
rows, ref = attempt(
    "Applying Li et al.'s theorem",
    guarantee_rows,
    sep.X,
    sep.y,
    sep.w_star,
    sep.theta_star,
    seed,
    tau_neg,
    tau_pos,
) or (None, None)
st.caption(
    f"R² = {R2:.3g} on this training set; at most 20 epochs (PAUM stops after an epoch "
    "without an update)."
)

try_this(
    "The figure opens at the end of training with τ₊₁ = 1. Note recall and precision, then "
    "set **τ₊₁** to 0 (the classic perceptron with a bias) and press **End**: on most seeds, "
    "the opening one among them, the line moves towards the positives, recall drops and "
    "precision rises. With a screen reader: the box beside the figure reads recall and "
    "precision at every step, and **Figure in words** gives the line's equation.",
    "Set **τ₋₁** to −0.5: negatives a little past the line stop forcing updates, so you might "
    "expect the line to move further into the negatives. On the opening data (seed 0) it "
    "moves the other way: recall stays, precision rises. No line separates these clouds, so "
    "PAUM never gets through an epoch without an update and the figure shows whichever "
    "hypothesis the last update left; Li et al.'s guarantee (their Theorem 2.1) is for "
    "separable data, and they add the λ-trick of lesson 7 otherwise. Change the **data seed** "
    "a few times: the line moves into the negatives on some seeds and out of them on others.",
    "Set **positives : negatives** to 1 : 40: with about eight positives in the test half, "
    "one positive more or less found moves recall by more than 10 points. Change the **data "
    "seed** a few times to see how much recall jumps.",
)

check_question(
    PREFIX,
    "The positives are rare. You raise τ₊₁ and keep τ₋₁ = 0. What happens to the learned line?",
    [
        "It moves into the negatives: recall of the positives rises, precision usually falls",
        "It moves into the positives: fewer positives are found",
        "Nothing changes at test time, because the margins play no part in prediction",
    ],
    answer=0,
    why="Every positive keeps updating until y·f(x) > τ₊₁, and each of those updates adds "
    "ηR² to b and y·x to w, so the line ends further from the positives.",
    hints={
        1: "Which class forces the extra updates, and in which direction does an update "
        "on a positive move b?",
        2: "Prediction is sign f(x), true, but the margins change which updates training "
        "makes, and so the w and b it ends with.",
    },
)

if ref is not None:
    sep_R, sep_gamma, sep_tau = ref["R"], ref["gamma"], tau_pos * ref["R"] ** 2
    computation_question(
        f"{PREFIX}calc_",
        f"Compute it: below, the separable data have R = {sep_R:.4g} and the reference margin "
        f"Γ = {sep_gamma:.4g}; PAM asks τ = {tau_pos:g} × R² = {sep_tau:.4g} of both classes, and "
        "the table gives Li et al.'s bound (2.4) for η = 1. At most how many updates does the "
        "bound allow with the learning rate halved, η = 0.5?",
        {
            "right": paum_update_bound(sep_R, sep_gamma, sep_tau, sep_tau, 0.5),
            "the table's, η = 1": paum_update_bound(sep_R, sep_gamma, sep_tau, sep_tau, 1.0),
            "η multiplying τ": 4 * ((sep_R / sep_gamma) ** 2 + 0.5 * sep_tau / sep_gamma**2),
            "no 4": paum_update_bound(sep_R, sep_gamma, sep_tau, sep_tau, 0.5) / 4,
            "R/Γ not squared": 4 * (sep_R / sep_gamma + sep_tau / (0.5 * sep_gamma**2)),
        },
        "right",
        ",.0f",
        why="4((R/Γ)² + τ/(ηΓ²)) = " + f"4(({sep_R:.4g}/{sep_gamma:.4g})² + "
        f"{sep_tau:.4g}/(0.5 × {sep_gamma:.4g}²)) ≈ " + "{answer}: a smaller η makes the "
        "margin's term larger, because each update moves the score less against the same τ.",
        hints={
            "the table's, η = 1": "That is the table's bound, for η = 1: η = 0.5 divides the "
            "margin's term by 0.5.",
            "η multiplying τ": "Bound (2.4) is 4((R/Γ)² + max τ/(ηΓ²)): η divides the "
            "margin's term.",
            "no 4": "Bound (2.4) has a factor 4 in front: 4((R/Γ)² + max τ/(ηΓ²)).",
            "R/Γ not squared": "R/Γ is squared in bound (2.4): 4((R/Γ)² + max τ/(ηΓ²)).",
        },
        seed=seed,
    )

table = research(
    r"""
Li, Zaragoza, Herbrich, Shawe-Taylor and Kandola (2002) ran PAUM on document
categorisation, where most categories are rare: the "Mod-Apte" split of the
Reuters-21578 collection and a subset of the new Reuters-Vol1 collection
(their experiments on text). PAUM(1, 50) beat the plain perceptron (PA)
and the perceptron with an even margin, PAM(1), on both collections, most
of all on the thirty smallest topics (LAST30 on Reuters-Vol1: MAP 0.345
against 0.269 and 0.303, their Table 3). Not every uneven pair did:
PAUM(−1, 1) stayed below PAM(1) on Reuters-Vol1 (ALL 0.538 against 0.561,
LAST30 0.275 against 0.303).
On Reuters-21578, PAUM(1, 50), its margins chosen by cross-validation, did
better than a standard SVM (MAP 0.751 against 0.746) and halved the SVM's
training time; the paper notes that uneven margins in an SVM would only
change its bias. Their study, small and live, on this lesson's clouds
(cross-validated, in %):
""",
    "Y. Li, H. Zaragoza, R. Herbrich, J. Shawe-Taylor and J. Kandola, “The perceptron "
    "algorithm with uneven margins”, ICML 2002, 379–386.",
    compute=lambda: one_decimal(lesson_study("l06_paum", seed=seed, rate=RATIOS[ratio])),
    caption=f"Computed live: {PAUM_SAMPLES} points at {ratio}, seed {seed}, "
    f"{PAUM_FOLDS}-fold stratified cross-validation (perceptron_core.experiments.paum_study); "
    "PAUM(τ₋₁, τ₊₁) in units of R², the KW perceptron as the even-margin reference. Accuracy "
    "is there to show how little it says.",
)
if table is not None:
    st.markdown(
        study_summary(table.data)
        + " In two dimensions the ranking depends only on the direction of w, which the "
        "margins barely turn, so MAP moves little while the threshold moves a lot; in the "
        "paper's thousands of word features the margins also reshape w."
    )

st.subheader("Li et al.'s guarantee, on data a line separates")
st.markdown(
    r"""
Li et al. (2002, Theorem 2.1, proof in their appendix A) prove two things
about PAUM started at $w = 0$, $b = 0$ on a sample that some line
$(w_{opt}, b_{opt})$ with $\lVert w_{opt}\rVert = 1$ and
$|b_{opt}| \le R$ separates with margin $\Gamma$ (their margin is
$\min_j y_j(\langle w,x_j\rangle + b)/\lVert w\rVert$, eq. 2.1). First,
it stops after at most
"""
)
st.latex(
    r"4\Big(\Big(\frac{R}{\Gamma}\Big)^2 + "
    r"\frac{\max\{\tau_{+1}, \tau_{-1}\}}{\eta\,\Gamma^2}\Big)\ \text{updates}"
)
st.markdown(
    r"""
(eq. 2.4; with both margins 0, Novikoff's bound for the examples extended by
a coordinate $R$). Second, with margins $\tau_{\pm1} \ge 0$ and
$\psi = (\eta R^2 + \tau_{+1})/(\eta R^2 + \tau_{-1})$: if a unit line
keeps margin at least $\Gamma_{-1}$ on the negatives and
$\Gamma_{+1} = \psi\,\Gamma_{-1}$ on the positives, the line PAUM stops
with keeps on class $j$ a margin (eq. 2.2: the smallest $\pm f(x)/\lVert w\rVert$
over that class)
"""
)
st.latex(r"\gamma_j(w_t, b_t) > \Gamma_j\,\frac{\tau_j}{\sqrt 8\,(\eta R^2 + \tau_j)}")
st.markdown(
    r"""
For the perceptron with margin, PAM($\tau$) = PAUM($\tau$, $\tau$), $\psi = 1$
and both classes get $\Gamma\tau/(\sqrt 8(\eta R^2 + \tau))$. The smaller
$\eta$ against $\tau$, the closer the guarantee comes to the best margin
(up to $1/\sqrt 8$) and the larger the update bound: $\eta$ trades time for
margin (Li et al. 2002, section 2.1). The lesson's clouds overlap, so the
theorem says nothing about them; the table runs PAM and PAUM with the
margins set above ($\eta = 1$) on 100 points that a known line separates
with a gap, drawn with the lesson's seed, that line as the reference:
"""
)
if rows is not None:
    st.dataframe(
        one_decimal(rows, places=4).format("{:.1f}", subset=["bound (2.4)"]), hide_index=True
    )
    st.caption(
        f"Computed live (seed {seed}): R = {ref['R']:.3f}, the reference line's margin "
        f"Γ = {ref['gamma']:.4f} (negatives {ref['margin_neg_opt']:.4f}, positives "
        f"{ref['margin_pos_opt']:.4f}), |b_opt| ≤ R holds. The guaranteed margins use the largest "
        "Γ₋₁ with ψΓ₋₁ within the reference's positive margin. "
        + (
            ""
            if tau_neg >= 0
            else f"τ₋₁ = {tau_neg:g} R² < 0: the update bound (2.4) holds as it is, and (2.6) "
            f"for the positives, since ηR² + τ₋₁ = {1 + tau_neg:g} R² > 0; the negatives get "
            "no guaranteed margin (a dash). "
        )
        + "A better reference (the widest-margin line) would give larger guarantees."
    )

st.subheader("How Li et al. prove it", anchor="how-li-et-al-prove-it")
st.markdown(
    r"""
The proof (Li et al. 2002, appendix A) is Novikoff's (lesson 2) with the bias
folded in as a coordinate $R$: $\hat x = (x, R)$ and $\hat w = (w, b/R)$, so
$f(x) = \langle \hat w, \hat x\rangle$, an update is
$\hat w \leftarrow \hat w + \eta\,y\,\hat x$, every $\lVert \hat x\rVert^2 \le 2R^2$,
and the reference folds to a $\hat w_{opt}$ with $\lVert \hat w_{opt}\rVert^2 \le 2$
(because $|b_{opt}| \le R$). PAUM updates only when
$y\langle \hat w, \hat x\rangle \le \tau_y$, so one update lengthens $\hat w$ by
little and turns it towards the reference by a fixed amount:
"""
)
st.latex(
    r"\begin{gathered}\lVert \hat w_t\rVert^2 \le \lVert \hat w_{t-1}\rVert^2"
    r" + 2\eta\tau_{y} + 2\eta^2R^2,\qquad"
    r"\langle \hat w_{opt}, \hat w_t\rangle \ge \langle \hat w_{opt}, \hat w_{t-1}\rangle"
    r" + \eta\Gamma\\"
    r"t^2\eta^2\Gamma^2 \le \langle \hat w_{opt}, \hat w_t\rangle^2 \le"
    r" 2\cdot 2t\eta\,(\eta R^2 + \max\{\tau_{+1}, \tau_{-1}\})\end{gathered}"
)
st.markdown(
    r"""
by Cauchy–Schwarz after $t$ updates, which is (2.4). For (2.6) they count the
updates of each class apart, $t_{+1}$ and $t_{-1}$: the same two steps bound
$\psi t_{+1} + t_{-1}$ (this is where $\Gamma_{+1} = \psi\Gamma_{-1}$ makes the
two classes add up), hence
$\lVert w_t\rVert \le \lVert \hat w_t\rVert \le \sqrt 8\,(\eta R^2 + \tau_j)/\Gamma_j$.
When PAUM stops, every example of class $j$ scores more than $\tau_j$, so its
margin is more than $\tau_j/\lVert w_t\rVert$; dividing by the bound on
$\lVert w_t\rVert$ gives (2.6).

**Negative margins.** Li et al. state part 1 for any margins: its proof
uses no sign of $\tau$. Part 2 they state for $\tau_{-1}, \tau_{+1} \in
\mathbb{R}^+$ (their Algorithm 1 asks the same of both), and their experiments
(section 3.2) add that negative margins, which let some training examples stay
misclassified, leave Theorem 2.1 valid "for small magnitudes", without saying
how small. The proof above says: with $\tau_{-1} < 0$, (2.4) holds as it stands;
part 2 needs $\psi$, that is $\eta R^2 + \tau_{-1} > 0$, and then (2.6) holds
for the positives; for the negatives its last step divides $\tau_{-1} < 0$ by
an upper bound on $\lVert w_t\rVert$, which bounds their margin from below by
nothing. With **τ₋₁** below 0 the table above still runs PAUM and checks it
against (2.4) and against (2.6) for the positives (ηR² + τ₋₁ > 0 for every
τ₋₁ the slider offers, at η = 1), with a dash for the negatives.
"""
)

show_code(
    paum.step,
    intro="The test is `if y * f <= tau` with `tau = tau_pos if y > 0 else tau_neg`; the "
    "update adds `eta * y * x` to w and `eta * y * R2` to b. (The `lam * eta * a * y` "
    "term is lesson 7's λ-trick.)",
)

exercises(
    6, seed=seed, tau_pos=tau_pos, tau_neg=tau_neg, rate=RATIOS[ratio], R2=R2, data=data, run=run
)
