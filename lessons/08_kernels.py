"""Lesson 8. Kernels: the perceptron in dual form, curved boundaries, and sparsity.

The figure trains the kernel perceptron on XOR or two circles with a linear,
polynomial or Gaussian kernel; the support points (``a_j > 0``) are ringed.
Beside it: support points, sparsity, updates and the test accuracy at the
current step. The research box runs polynomial kernels of growing degree
on handwritten digits, with the last, voted and averaged predictors, next
to an SVM. Session keys start
with ``l08_``.
"""

from __future__ import annotations

import numpy as np
import streamlit as st

from perceptron_core.kernel import _dual_epoch
from perceptron_lab.app_logic.datasource import DataRequest
from perceptron_lab.app_logic.payload.extras import Panel, Text, Value
from perceptron_lab.app_logic.studies_variants import DIGITS_EPOCHS, DIGITS_TRAIN
from perceptron_lab.app_logic.style import Show
from perceptron_lab.app_logic.timeline import UPDATE_KINDS
from perceptron_lab.lessons._basics import at_end, seed_control
from perceptron_lab.lessons._charts import one_decimal
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
                Text("f(x) is a sum of kernel terms, one per ringed point.", when="started",
                     caption=True),
            ],
        )
    ]  # fmt: skip


lesson_header(
    8,
    "Kernels",
    "Write the perceptron in terms of its examples, swap the inner product for a kernel, and "
    "learn XOR and circles, which no line separates.",
)
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
    r"\begin{gathered}k_{\mathrm{poly}}(x,x') = (\gamma\langle x,x'\rangle + 1)^d \\ "
    r"k_{\mathrm{rbf}}(x,x') = e^{-\gamma\lVert x-x'\rVert^2} = e^{-\lVert x-x'\rVert^2/2\sigma^2}"
    r"\end{gathered}"
)
st.markdown(
    r"""
A polynomial kernel of degree $d$ contains every product of up to $d$
coordinates: degree 2 has $x_1x_2$ (XOR's rule) and $x_1^2 + x_2^2$ (the
circle's). The Gaussian kernel makes each support point a bump of width
$\sigma = 1/\sqrt{2\gamma}$. The points with $a_j = 0$ never enter $f$: the
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
            "Kernel width γ (rbf)", options=GAMMAS, value=1.0, key=f"{PREFIX}gamma",
            help="Larger γ: narrower bumps around each support point.",
        )  # fmt: skip
    elif kernel == "poly":
        values["degree"] = st.select_slider(
            "Degree d (poly)", options=DEGREES, value=2, key=f"{PREFIX}degree",
            help="The highest power of the coordinates the boundary can use.",
        )  # fmt: skip
    else:
        st.caption("The linear kernel has no setting: k(x, x') = ⟨x, x'⟩.")
with cols[3]:
    seed = seed_control(PREFIX)
stage(
    PREFIX,
    DataRequest(data_name, (("n_samples", 200),), test_fraction=0.5, seed=seed),
    "kernel",
    values,
    epochs=EPOCHS,
    show=Show(arrows=False),
    extras=support_numbers,
    start=at_end,
)

try_this(
    "The figure opens at the end of training on XOR with the Gaussian kernel. Set the "
    "**kernel** to linear and press **End**: no line separates XOR, so updates never stop, "
    "most points become support points and the test accuracy is near a coin toss.",
    "Back on the Gaussian kernel, set **γ** to 100: each support point is now a narrow bump; "
    "the region breaks into islands around the ringed points. Then try 0.1: one wide, smooth "
    "boundary.",
    "Switch the **data** to two circles and the kernel to polynomial, then move the "
    "**degree** from 1 to 2: at d = 1 it is a line again; at d = 2 the boundary becomes a "
    "closed curve, because x₁² + x₂² is one of the features.",
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

show_code(
    _dual_epoch,
    intro="The loop of lesson 1 in dual form: it reads the running score `S[c, j]` "
    "instead of computing ⟨w, x⟩, and an update adds one kernel column "
    "`eta * y * cache[slot, r]` to every running score and increments `counts[c, j]` "
    "(the a_j).",
)
