"""The on-line rules' entries in the learner menu: the app's choices for each rule.

Each entry holds the keyword arguments of a
:class:`perceptron_lab.app_logic.learners.Learner`: the menu's title and summary, the
estimator class of :mod:`perceptron_core.rules`, the widgets of its settings (their defaults
are the estimator's own, read from ``get_params()``), the rule in LaTeX for the math panel,
and what its picture draws. The core's rule files carry no app choice; the menu lists these
entries in this order, after the Khardon–Wachman trainer's.
"""

from __future__ import annotations

from perceptron_core.rules.alma import ALMA
from perceptron_core.rules.balanced_winnow import BalancedWinnow
from perceptron_core.rules.passive_aggressive import PassiveAggressive
from perceptron_core.rules.paum import PAUMPerceptron
from perceptron_core.rules.pocket import PocketPerceptron
from perceptron_core.rules.relative_update import RelativeUpdatePerceptron
from perceptron_core.rules.thick_separator import ThickSeparatorPerceptron
from perceptron_lab.app_logic.setting import INTERCEPT, Setting


def _paum_numbers(est) -> dict:
    """PAUM's step size and its λ: the kernel form's ``k + λ[x = x']``, a term ``η λ a_j y``."""
    return {"eta": float(est.eta), "lam": float(est.lam), "lam_form": "paum"}


#: The entries, in the menu's order.
ENTRIES = (
    {
        "key": "paum",
        "title": "PAUM (uneven margins)",
        "summary": "Each class has its own margin: a large τ₊ pushes the line into the negatives, "
        "raising recall of a rare positive class.",
        "cls": PAUMPerceptron,
        "settings": (
            Setting(
                "tau_pos",
                "Margin τ₊₁",
                "How far past the line positives must be: the band's upper edge (in score units).",
                -2.0,
                10.0,
                0.25,
            ),
            Setting(
                "tau_neg",
                "Margin τ₋₁",
                "The same for negatives: the band's lower "
                "edge; negative values let negatives sit close to the line.",
                -2.0,
                10.0,
                0.25,
            ),
            Setting(
                "eta",
                "Learning rate η",
                "Step of w; the bias moves by η R².",
                0.05,
                2.0,
                0.05,
            ),
            Setting(
                "lam",
                "λ (kernel form)",
                "Adds λ η a_j y_j to a point's own score: grows with each "
                "update the point forces.",
                0.0,
                4.0,
                0.125,
            ),
        ),
        "rule": r"\text{update if } y\,(\langle w,x\rangle + b) \le \tau_y: \\ "
        r"w \leftarrow w + \eta\,y\,x,\quad b \leftarrow b + \eta\,y\,R^2",
        "epochs_name": "max_epochs",
        "band": lambda est: (-float(est.tau_neg), float(est.tau_pos)),
        "numbers": _paum_numbers,
        "bias": True,
    },
    {
        "key": "thick",
        "title": "Thick separator",
        "summary": "Also update on near misses: points within κ of the line on the right side.",
        "cls": ThickSeparatorPerceptron,
        "settings": (
            Setting(
                "gamma",
                "Slab half-width κ",
                "Width of the band (in score units) inside which correct points still update "
                "(the course notes write γ).",
                0.0,
                5.0,
                0.1,
            ),
            Setting("eta", "Learning rate η", "Length of each update arrow.", 0.05, 2.0, 0.05),
            INTERCEPT,
        ),
        "rule": r"\text{update if } y\,(\langle w,x\rangle+b) \le \kappa: \\ "
        r"w \leftarrow w + \eta\,y\,x,\quad b \leftarrow b + \eta\,y",
        "band": lambda est: (-float(est.gamma), float(est.gamma)) if est.gamma > 0 else None,
    },
    {
        "key": "pocket",
        "title": "Pocket algorithm (Gallant)",
        "summary": "The classic perceptron moves the line; the pocket keeps the weights with the "
        "longest run of correct answers, and answers with those.",
        "cls": PocketPerceptron,
        "settings": (
            Setting("eta", "Learning rate η", "Length of each update arrow.", 0.05, 2.0, 0.05),
            Setting(
                "ratchet",
                "Ratchet",
                "On: a longer run goes into the pocket only if it also makes "
                "fewer training errors.",
            ),
            INTERCEPT,
        ),
        "rule": r"\text{if } y\,(\langle w,x\rangle+b) \le 0: \ w \leftarrow w + \eta\,y\,x,"
        r"\ b \leftarrow b + \eta\,y,\ \text{run} \leftarrow 0 \\ "
        r"\text{else run} \mathrel{+}= 1;\ \text{if run} > \text{run}_{pocket}"
        r"\text{ (ratchet: and fewer errors): pocket} \leftarrow w",
    },
    {
        "key": "relative",
        "title": "Threshold-relative update",
        "summary": "Step sized by how far the score missed the threshold.",
        "cls": RelativeUpdatePerceptron,
        "settings": (
            Setting(
                "r",
                "Relaxation r",
                "1 parks the point on the line, 2 mirrors it; in between it "
                "lands on the right side.",
                0.1,
                2.0,
                0.05,
            ),
            Setting("theta", "Threshold θ", "Sets the scale of w only.", 0.1, 5.0, 0.1),
            INTERCEPT,
        ),
        "rule": r"\text{on a mistake: } w \leftarrow w + r\,\frac{\theta - \langle w,x\rangle}"
        r"{\langle x,x\rangle}\,x",
    },
    {
        "key": "pa",
        "title": "Passive-Aggressive",
        "summary": "The smallest change of w that gives the point a margin of 1.",
        "cls": PassiveAggressive,
        "settings": (
            Setting(
                "variant",
                "Variant",
                "PA jumps all the way; PA-I caps the step "
                "at C; PA-II damps it: noisy points drag the line less.",
                choices=("PA", "PA-I", "PA-II"),
            ),
            Setting(
                "C",
                "Aggressiveness C",
                "Cap on the step: smaller C, steadier line.",
                0.01,
                5.0,
                0.01,
            ),
            INTERCEPT,
        ),
        "rule": r"\ell = \max(0, 1 - y\,f(x)),\quad w \leftarrow w + \tau\,y\,x \\ "
        r"\tau = \ell/\lVert x\rVert^2\ (\mathrm{PA}),\ \min(C, \cdot)\ (\mathrm{PA\!-\!I})",
        "band": lambda est: (-1.0, 1.0),
    },
    {
        "key": "alma",
        "title": "ALMA (approximate max margin)",
        "summary": "Normalised updates with a margin target that shrinks like 1/√k.",
        "cls": ALMA,
        "settings": (
            Setting(
                "alpha",
                "Approximation α",
                "Smaller α aims at a wider margin (more updates, a line "
                "further from both classes).",
                0.05,
                1.0,
                0.05,
            ),
            INTERCEPT,
        ),
        "rule": r"\text{update if } y\,\langle w,\hat x\rangle \le (1-\alpha)\,\frac{B}{\sqrt k}:"
        r" \\ w \leftarrow \frac{w + \frac{C}{\sqrt k}\,y\,\hat x}{\max(1, \lVert\cdot"
        r"\rVert)}",
    },
    {
        "key": "balanced_winnow",
        "title": "Balanced Winnow",
        "summary": "Multiplicative updates on two positive weight vectors.",
        "cls": BalancedWinnow,
        "settings": (
            Setting(
                "alpha",
                "Update factor α",
                "How much each mistake multiplies the weights: larger α, "
                "bigger jumps of the line.",
                1.05,
                4.0,
                0.05,
            ),
            INTERCEPT,
        ),
        "rule": r"\text{on a mistake: } w^+_i \leftarrow w^+_i\,\alpha^{y x_i} \\ "
        r"w^-_i \leftarrow w^-_i\,\alpha^{-y x_i}",
    },
)
