"""Lesson 8. Kernels: the perceptron in dual form, curved boundaries, and sparsity.

The figure trains the kernel perceptron on XOR or two circles with a linear,
polynomial or Gaussian kernel; the support points (``a_j > 0``) are ringed.
Beside it: support points, sparsity, updates and the test accuracy at the
current step. Under it: the smallest eigenvalue of the Gram matrix of the
figure's training points, for the figure's kernel and for two functions that
are not kernels, and a question that asks for a kernel value. The research
box runs polynomial kernels of growing degree on handwritten digits, with
the last, voted and averaged predictors, next to an SVM; after it, how the
ten one-vs-rest scores give one prediction (one test digit's scores on
demand). Session keys start with ``l08_``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from perceptron_core.datasets import load
from perceptron_core.engine.dual_trainer import dual_epoch
from perceptron_core.kernel import KernelPerceptron
from perceptron_lab.app_logic.datasource import DataRequest
from perceptron_lab.app_logic.exercises.lesson_08 import REPLAY
from perceptron_lab.app_logic.learners import LEARNERS
from perceptron_lab.app_logic.payload.extras import Panel, Text, Value
from perceptron_lab.app_logic.studies_variants import DIGITS_EPOCHS, DIGITS_TRAIN
from perceptron_lab.app_logic.style import Show
from perceptron_lab.app_logic.timeline import UPDATE_KINDS
from perceptron_lab.lessons._basics import at_end, seed_control
from perceptron_lab.lessons._bounds import (
    gram_matrix,
    one_vs_rest_label,
    smallest_eigenvalue,
    svm_folded_margin,
)
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
from perceptron_lab.ui.studies import lesson_study

PREFIX = "l08_"
DATA = {"XOR": "xor", "Two circles": "circles"}
KERNELS = {"Gaussian (rbf)": "rbf", "Polynomial": "poly", "Linear": "linear"}
GAMMAS = (0.1, 0.3, 1.0, 3.0, 10.0, 30.0, 100.0)
DEGREES = (1, 2, 3, 4, 6)
EPOCHS = 20
#: Two functions of two points that are not kernels, for the Gram-matrix check.
NOT_KERNELS = {
    "tanh(⟨x, x'⟩ − 1)": ("tanh", {"gamma": 1.0, "coef0": 1.0}),
    "‖x − x'‖ (a distance)": ("distance", {}),
}
#: Relative size below which a negative eigenvalue is rounding: |λ| < 1e-9 · the largest.
ROUNDING = 1e-9


def gram_check(X: np.ndarray, values: dict) -> pd.DataFrame:
    """The smallest eigenvalue of the Gram matrix of ``X`` for the lesson's kernel and two
    functions that are not kernels, with the verdict.

    ``values`` are the lesson's kernel settings (``kernel``, ``gamma``,
    ``degree``; the polynomial kernel's constant is 1).
    """
    name = {
        "rbf": f"Gaussian, β = {values['gamma']:g}",
        "poly": f"polynomial, d = {values['degree']}",
        "linear": "linear ⟨x, x'⟩",
    }[values["kernel"]]
    settings = {"gamma": values["gamma"], "degree": values["degree"]}
    shown = {name: (values["kernel"], settings), **NOT_KERNELS}
    rows = []
    for name, (kernel, params) in shown.items():
        K = gram_matrix(X, kernel, **params)
        smallest = smallest_eigenvalue(K)
        largest = float(np.linalg.eigvalsh(K)[-1])
        psd = smallest >= -ROUNDING * abs(largest)
        rows.append(
            {
                "function k(x, x')": name,
                "smallest eigenvalue": f"{smallest:.3g}",
                "largest eigenvalue": f"{largest:.3g}",
                "Gram matrix": "positive semi-definite" if psd else "NOT positive semi-definite",
            }
        )
    return pd.DataFrame(rows)


def digit_scores(seed: int, degree: int = 2):
    """One-vs-rest on the digits, one test digit: its ten class scores, the prediction, its label.

    The research box's split and kernel (first ``DIGITS_TRAIN`` rows of a
    permutation seeded by ``seed`` train; ``(<x,x'>/16 + 1)^d`` on pixels in
    [0, 1]); the digit is the first test row.
    """
    X, y, _ = load("digits")
    X = X / 16.0
    order = np.random.default_rng(seed).permutation(len(y))
    train, first_test = order[:DIGITS_TRAIN], order[DIGITS_TRAIN]
    clf = KernelPerceptron(
        kernel="poly",
        gamma=1 / 16,
        coef0=1.0,
        degree=degree,
        epochs=DIGITS_EPOCHS,
        random_state=seed,
    ).fit(X[train], y[train])
    scores = clf.decision_function(X[[first_test]])
    return scores[0], clf.classes_, one_vs_rest_label(scores, clf.classes_)[0], y[first_test]


def kernel_question_points(X: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The computation question's two points: the first training point and its nearest
    other training point (near, so the Gaussian kernel is not 0 to four digits)."""
    distances = np.sum((X[1:] - X[0]) ** 2, axis=1)
    return X[0], X[1 + int(np.argmin(distances))]


def kernel_value_candidates(X: np.ndarray, beta: float) -> dict[str, float]:
    """The candidates for k_rbf(x₁, x₂) of :func:`kernel_question_points`: the right
    ``exp(-β d²)``, ``exp(-β d)`` (the distance not squared), ``exp(-d²/2β)`` (β taken for
    σ²) and ``exp(-β² d²)`` (β squared)."""
    x1, x2 = kernel_question_points(X)
    squared = float(np.sum((x1 - x2) ** 2))
    return {
        "right": float(np.exp(-beta * squared)),
        "not squared": float(np.exp(-beta * np.sqrt(squared))),
        "sigma squared": float(np.exp(-squared / (2 * beta))),
        "beta squared": float(np.exp(-(beta**2) * squared)),
    }


def support_numbers(run, data) -> list[Panel]:
    """Beside the figure: support points, sparsity, updates and test accuracy at every step."""
    tl = run.timeline
    updating = np.isin(tl.kind[0], UPDATE_KINDS)
    counts = np.zeros(tl.n_samples, dtype=np.int64)
    first = np.zeros(tl.n_events, dtype=bool)  # the row's first update: a new support point
    busiest = np.zeros(tl.n_events + 1, dtype=np.int64)
    for i in np.flatnonzero(updating):
        j = tl.index[i]
        first[i] = counts[j] == 0
        counts[j] += 1
        busiest[i + 1] = counts[j]
    busiest = np.maximum.accumulate(busiest)  # a_j only grows
    support = np.r_[0, np.cumsum(first)]
    if tl.kernel_trace is not None:
        test_scores = tl.kernel_trace.scores(data.X_test)  # every hypothesis, one row each
    else:  # the linear kernel: the hypotheses are weight vectors
        test_scores = tl.W[0] @ data.X_test.T - tl.theta[0][:, None]
    test_acc = (np.where(test_scores > 0, 1, -1) == data.y_test).mean(axis=1)
    return [
        Panel(
            f"The dual hypothesis at this step ({tl.n_samples} training points)",
            [
                Value("support points (a_j > 0)", support, per="step", format=","),
                Value("sparsity (a_j = 0)", tl.n_samples - support, per="step", format=","),
                Value("updates so far (Σ a_j)", np.arange(len(test_acc)), format=","),
                Value("test accuracy", test_acc, format=".1%"),
                Value("the busiest point's a_j", busiest, per="step", format=","),
                Text(
                    "f(x) is a sum of kernel terms, one per ringed point.",
                    when="started",
                    caption=True,
                ),
            ],
        )
    ]


def feature_space_bound(data, values: dict, seed: int, C: float) -> dict:
    """Novikoff's bound in the kernel's feature space, with the threshold folded in as
    lesson 2 folds it (``||z||² = k(x, x) + C``), on the figure's training points: ``R``,
    the widest margin ``gamma`` (<= 0: no separator), the bound and the updates of the
    figure's learner started at θ = 0 (``EPOCHS`` epochs, the figure's order), and whether
    its last epoch made none."""
    K = gram_matrix(data.X, values["kernel"], gamma=values["gamma"], degree=values["degree"])
    R = float(np.sqrt(K.diagonal().max() + C))
    gamma = svm_folded_margin(K, data.y, C)
    learner = LEARNERS["kernel"]
    zero = learner.make({**learner.defaults(), **values}, EPOCHS, seed)
    zero.set_params(theta_init=0.0, C=C, record="none").fit(data.X, data.y)
    return {
        "R": R,
        "gamma": gamma,
        "bound": (R / gamma) ** 2 if gamma > 0 else float("inf"),
        "updates": int(zero.n_updates_),
        "stopped": bool(zero.updates_per_epoch_[-1] == 0),
    }


lesson_header(
    8,
    "Kernels",
    "Write the perceptron in terms of its examples, swap the inner product for a kernel, and "
    "learn XOR and circles, which no line separates.",
)
notation(("x, y", "w, θ", "η", "C", "u, γ", "a_j, α", "β"))
st.markdown(
    r"""
Every update adds $\eta\,y_j x_j$ to $w$, so after training $w$ is a sum of
the examples that caused updates, each counted $a_j$ times:
"""
)
st.latex(
    r"\begin{gathered}w = \sum_j \eta\,a_j\,y_j\,x_j \quad\Longrightarrow\\ "
    r"f(x) = \langle w, x\rangle - \theta = \sum_j \eta\,a_j\,y_j\,\langle x_j, x\rangle - \theta"
    r"\end{gathered}"
)
st.markdown(
    r"""
This is the **dual form**: the learner stores the counts $a_j$, not $w$, and
only ever needs inner products. Replace $\langle x_j, x\rangle$ by a
**kernel** $k(x_j, x)$, the inner product of some feature map
$\varphi(x_j)$ and $\varphi(x)$, and the same rule learns a linear separator
in that feature space, which is a curve in the plane:
"""
)
st.latex(
    r"\begin{gathered}f(x) = \sum_j \eta\,a_j\,y_j\,k(x_j, x) - \theta,\\"
    r"\text{on an error: } a_j \leftarrow a_j + 1,\ \ \theta \leftarrow \theta - \eta\,y_j\,C"
    r"\end{gathered}"
)
st.latex(
    r"\begin{gathered}k_{\mathrm{poly}}(x,x') = (\beta\langle x,x'\rangle + 1)^d \\ "
    r"k_{\mathrm{rbf}}(x,x') = e^{-\beta\lVert x-x'\rVert^2} = e^{-\lVert x-x'\rVert^2/2\sigma^2}"
    r"\end{gathered}"
)
st.markdown(
    r"""
A polynomial kernel of degree $d$ contains every product of up to $d$
coordinates: degree 2 has $x_1x_2$ (XOR's rule) and $x_1^2 + x_2^2$ (the
circle's). The Gaussian kernel makes each support point a bump of width
$\sigma = 1/\sqrt{2\beta}$. We write the width $\beta$, as the playground does
(its setting *Kernel width β*); scikit-learn names it `gamma`, and the lessons
keep γ for the margin of lessons 2–4. The points with $a_j = 0$ never enter $f$: the
**sparsity** of the dual solution is how many there are.

**In the figure:** the tint is the sign and size of $f(x)$ at the current
step (orange $f > 0$, blue $f < 0$); black rings are the support points, the
only ones $f$ is built from; hollow markers are the test half. With the
linear kernel the boundary is the straight line of the earlier lessons.
"""
)

cols = st.columns(4)
with cols[0]:
    data_name = DATA[st.radio("Data", list(DATA), key=f"{PREFIX}data", horizontal=True)]
with cols[1]:
    kernel = KERNELS[st.radio("Kernel", list(KERNELS), key=f"{PREFIX}kernel")]
with cols[2]:
    values = {"kernel": kernel, "gamma": 1.0, "degree": 2}
    if kernel == "rbf":
        values["gamma"] = st.select_slider(
            "Kernel width β (rbf)",
            options=GAMMAS,
            value=1.0,
            key=f"{PREFIX}gamma",
            help="Larger β: narrower bumps around each support point (scikit-learn's gamma).",
        )
    elif kernel == "poly":
        values["degree"] = st.select_slider(
            "Degree d (poly)",
            options=DEGREES,
            value=2,
            key=f"{PREFIX}degree",
            help="The highest power of the coordinates the boundary can use.",
        )
    else:
        st.caption("The linear kernel has no setting: k(x, x') = ⟨x, x'⟩.")
with cols[3]:
    seed = seed_control(PREFIX)
data, run = stage(
    PREFIX,
    DataRequest(data_name, (("n_samples", 200),), test_fraction=0.5, seed=seed),
    "kernel",
    values,
    epochs=EPOCHS,
    show=Show(arrows=False),
    extras=support_numbers,
    start=at_end,
    predict=REPLAY.predict,
)

try_this(
    "The figure opens at the end of training on XOR with the Gaussian kernel. Set the "
    "**kernel** to linear and press **End**: no line separates XOR, so updates never stop, "
    "most points become support points and the test accuracy is near a coin toss.",
    "Back on the Gaussian kernel, set **β** to 100: each support point is now a narrow bump; "
    "the region breaks into islands around the ringed points. Then try 0.1: wide regions "
    "with smooth boundaries and no islands. With a screen reader: **Figure in words** says "
    "which corners of the view are on the +1 side; on most seeds, the opening one among "
    'them, at β = 100 it "reaches no corner of the view" (only islands round the points), '
    "and at 0.1 it covers the upper right and the lower left, two of XOR's quadrants.",
    "Switch the **data** to two circles and the kernel to polynomial, then move the "
    "**degree** from 1 to 2: at d = 1 it is a line again (on some seeds outside the figure, "
    "which then shows one side only); at d = 2 the boundary becomes a closed curve, because "
    "x₁² + x₂² is one of the features. With a screen reader: at d = 2 **Figure in words** "
    'says the +1 side "reaches no corner of the view": it is closed inside it.',
)

check_question(
    PREFIX,
    "After training, how many terms does the kernel perceptron add up to score a new point?",
    [
        "One per training point",
        "One per support point, i.e. per training point with a_j > 0",
        "One per feature of the kernel's feature space",
    ],
    answer=1,
    why="f(x) = Σ η a_j y_j k(x_j, x) − θ, and a term with a_j = 0 is zero; that is why "
    "sparsity (many a_j = 0) makes prediction fast.",
    hints={
        0: "Look at the formula: what does a term with a_j = 0 contribute?",
        2: "That is the primal form; the point of the dual is never to build those "
        "features (the Gaussian kernel's feature space is infinite).",
    },
)

st.header("No line separates XOR, in two lines", anchor="xor-in-two-lines")
st.markdown(
    r"""
Minsky and Papert (1969) made XOR the standard example of what one perceptron
cannot represent (the course notes, section 0.3.1, on their book). The reason
takes two lines. Put XOR's positives at $(1, 1)$ and $(-1, -1)$ and its
negatives at $(1, -1)$ and $(-1, 1)$, the centres of the figure's four clouds:
both pairs have the midpoint $(0, 0)$. A line's score
$f(x) = \langle w, x\rangle - \theta$ is affine, so at a midpoint it is the mean
of the scores at the two ends:
"""
)
st.latex(r"f(1, 1) + f(-1, -1) \;=\; 2 f(0, 0) \;=\; f(1, -1) + f(-1, 1)")
st.markdown(
    r"""
A separating line would make the left side positive and the right side at most
0. The same argument rules out a line wherever the two classes' convex hulls
meet: a point of both would have to score above 0 and at most 0. One more
feature is enough: $x_1x_2$, which the polynomial kernel of degree 2 contains,
scores $+1$ at the positives and $-1$ at the negatives.
"""
)

st.header("What makes a kernel a kernel", anchor="what-makes-a-kernel")
st.markdown(
    r"""
Not every function of two points is an inner product of feature vectors.
For any points $x_1, \dots, x_m$, the **Gram matrix** $K_{ij} = k(x_i, x_j)$
of a kernel is the matrix of inner products $\langle\varphi(x_i),
\varphi(x_j)\rangle$, so it is symmetric and **positive semi-definite**:
"""
)
st.latex(
    r"\begin{gathered}c^\top K c = \Big\lVert \sum_i c_i\,\varphi(x_i)\Big\rVert^2 \ge 0"
    r"\ \text{ for every } c \in \mathbb{R}^m\\ \iff"
    r"\ \text{every eigenvalue of } K \text{ is} \ge 0\end{gathered}"
)
st.markdown(
    r"""
Mercer's condition turns this around: a symmetric $k$ whose Gram matrices
are all positive semi-definite *is* an inner product in some feature space
(Cristianini & Shawe-Taylor 2000, chapter 3). One set of points with a
negative eigenvalue is enough to show a function is not a kernel. Below, the
Gram matrix of the figure's training points for the kernel you picked, and
for two functions that fail: $\tanh(\langle x, x'\rangle - 1)$ (the
"sigmoid kernel" with these parameters) and the distance $\lVert x -
x'\rVert$, whose matrix has zeros on the diagonal, so its eigenvalues add up
to 0 and one of them must be negative. Computed live with numpy
(`numpy.linalg.eigvalsh`); a negative eigenvalue smaller in size than
$10^{-9}$ times the largest counts as rounding.
"""
)
if data is not None:
    st.dataframe(gram_check(data.X, values), hide_index=True)
    st.caption(
        f"The Gram matrices of the figure's {len(data.X)} training points ({data_name}, seed "
        f"{seed}); the first row is the kernel the figure uses, with its setting."
    )
    beta_q = values["gamma"] if kernel == "rbf" else 1.0
    x1, x2 = kernel_question_points(data.X)
    computation_question(
        f"{PREFIX}k",
        f"A kernel value by hand: the first training point is x₁ = ({x1[0]:.3f}, "
        f"{x1[1]:.3f}) and its nearest neighbour among the training points x₂ = "
        f"({x2[0]:.3f}, {x2[1]:.3f}). What is the Gaussian kernel "
        f"k(x₁, x₂) = exp(−β‖x₁ − x₂‖²) at β = {beta_q:g}?",
        kernel_value_candidates(data.X, beta_q),
        "right",
        ".4g",
        why="‖x₁ − x₂‖² is the sum of the squared coordinate differences, "
        f"{np.sum((x1 - x2) ** 2):.4f}; times β = {beta_q:g}, negated and exponentiated: "
        "{answer}.",
        hints={
            "not squared": "That is exp(−β‖x₁ − x₂‖): the distance is squared in the Gaussian "
            "kernel.",
            "sigma squared": "That is exp(−‖x₁ − x₂‖²/2β), β taken for σ²: here β multiplies "
            "the squared distance.",
            "beta squared": "That is exp(−β²‖x₁ − x₂‖²): β enters once, not squared.",
        },
        seed=seed,
    )

st.header("The kernel perceptron's bound, in feature space", anchor="feature-space-bound")
st.markdown(
    r"""
Novikoff's proof (lesson 2) uses only inner products and lengths, never a
coordinate, so it holds in the feature space as it stands. Fold the threshold
in, $z = (\varphi(x), -\sqrt C)$, so that $\lVert z\rVert^2 = k(x, x) + C$; if a
unit direction of that space separates the training points with margin
$\gamma$, the kernel perceptron started at 0 makes at most
"""
)
st.latex(
    r"\begin{gathered}\Big(\frac{R}{\gamma}\Big)^2\ \text{updates},\qquad"
    r" R^2 = \max_j k(x_j, x_j) + C,\\"
    r"\gamma = \min_j\ y_j\,\langle u, z_j\rangle > 0,\ \lVert u\rVert = 1\end{gathered}"
)
st.markdown(
    r"""
whatever the number of features, infinite for the Gaussian kernel, where
$k(x, x) = 1$ and $R^2 = 1 + C$. Li et al. (2002, section 2) state the
perceptron this way, in a feature space, guaranteed to converge "whenever the
training data is linearly separable in feature space"; Cristianini &
Shawe-Taylor (2000, chapters 2 and 3) give its dual form and the kernels. Any
separator's margin gives a bound, the widest the smallest. The lesson takes the
hard-margin SVM's separator (Cristianini & Shawe-Taylor 2000, chapter 6),
widest for a bias kept apart and found from the Gram matrix alone, and
measures its margin with the bias folded in. On the figure's training points,
with the kernel you picked:
"""
)
if data is not None and run is not None:
    fs = feature_space_bound(data, values, seed, run.estimator.C_)
    cols = st.columns(2)
    cols[0].metric("R", f"{fs['R']:.4g}")
    cols[1].metric(
        "margin γ of the SVM's separator", f"{fs['gamma']:.4g}" if fs["gamma"] > 0 else "none"
    )
    cols[0].metric("bound (R/γ)²", f"{fs['bound']:,.1f}" if fs["gamma"] > 0 else "none")
    cols[1].metric(f"updates from θ = 0, {EPOCHS} epochs", f"{fs['updates']:,}")
    st.caption(
        (
            "The SVM finds no direction of this feature space that separates the training "
            "points (the linear kernel on XOR has none, by the argument above): no bound of "
            "this kind; lesson 3's bound with the deviations D applies instead. "
            if fs["gamma"] <= 0
            else ""
        )
        + f"Computed live (seed {seed}): the SVM is scikit-learn's SVC on the Gram matrix "
        f"(box constant 10⁶), its margin measured on every training point with the bias "
        f"folded in at the threshold's C = {run.estimator.C_:.4g}; the run from θ = 0 is "
        "the figure's learner started at θ = 0, in the "
        f"figure's order, {'stopped by its last epoch' if fs['stopped'] else 'still updating'}."
    )

research(
    r"""
The voted perceptron of Freund & Schapire (1999) needs only inner
products, so it runs in this dual form with any kernel, and one run gives
the last, voted and averaged predictors (lesson 4). How much a polynomial
kernel of higher degree helps on handwritten digits, and how the three
predictors compare with an SVM, measured here rather than quoted: on
scikit-learn's small 8×8 digits, live (test accuracy in %):
""",
    "Y. Freund and R. E. Schapire, “Large margin classification using the perceptron "
    "algorithm”, Machine Learning 37(3), 277–296 (1999); M. A. Aizerman, E. M. Braverman "
    "and L. I. Rozonoer, Automation and Remote Control 25 (1964) (the kernel perceptron).",
    compute=lambda: one_decimal(lesson_study("l08_digits", seed=seed)),
    caption=f"Computed live: 1,797 digits (10 classes, one-vs-rest), {DIGITS_TRAIN} for training "
    f"and the rest for testing (permutation seed {seed}); kernel (⟨x,x'⟩/16 + 1)^d on pixels "
    f"in [0, 1]; {DIGITS_EPOCHS} epochs, η = 0.1; *support examples* counts the training "
    "points with a_j > 0 for some class (perceptron_core.kernel.KernelPerceptron). SVM: "
    "scikit-learn's SVC(C = 10) with the same kernel.",
)

st.header("Several classes: one-vs-rest", anchor="one-vs-rest")
st.markdown(
    r"""
The digits have ten classes and a perceptron separates two. The table above
trains one kernel perceptron per class $c$, "$c$ against the rest" (the
examples of $c$ positive, all others negative), all ten in the same pass, and
predicts the class whose score is largest (Khardon & Wachman 2007, §2.7):
"""
)
st.latex(
    r"\hat y(x) = \operatorname*{arg\,max}_{c}\ f_c(x),\qquad "
    r"f_c(x) = \sum_j \eta\,a_{c,j}\,y_{c,j}\,k(x_j, x) - \theta_c"
)
st.markdown(
    r"""
with $y_{c,j} = +1$ if $x_j$ is a $c$ and $-1$ otherwise, and $a_{c,j}$ the
updates of problem $c$ on $x_j$. The scores are compared *before* the sign:
the prediction is a class even when every $f_c$ is negative, or when several
are positive. On a tie the smaller class label wins (`numpy.argmax`, as
`perceptron_core` predicts).
"""
)
if st.toggle(
    "Show one test digit's ten scores (trains degree 2, under a second)", key=f"{PREFIX}ovr"
):
    scores, classes, predicted, label = digit_scores(seed)
    st.dataframe(
        pd.DataFrame([scores], columns=[f"c = {c}" for c in classes], index=["f_c(x)"]),
        hide_index=False,
    )
    st.markdown(
        f"Largest score: class **{predicted}** (f = {scores.max():.3f}); "
        f"{int(np.sum(scores > 0))} of the {len(classes)} scores are positive; the digit "
        f"is a **{label}**."
    )
    st.caption(
        f"Computed live: the research box's split (seed {seed}), kernel (⟨x,x'⟩/16 + 1)², "
        f"{DIGITS_EPOCHS} epochs, η = 0.1 (perceptron_core.kernel.KernelPerceptron."
        "decision_function); the first test digit."
    )

show_code(
    dual_epoch,
    intro="The loop of lesson 1 in dual form: it reads the running score `S[c, j]` "
    "instead of computing ⟨w, x⟩, and an update adds one kernel column "
    "`eta * y * cache[slot, r]` to every running score and increments `counts[c, j]` "
    "(the a_j).",
)

exercises(8, seed=seed, kernel=kernel, values=values, data=data, run=run)
