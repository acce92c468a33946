"""The learner menu: one table, one entry per learner the playground can animate.

Each :class:`Learner` names the estimator class, its settings (each with the
widget range and a one-line help that says what it does to the picture),
the update rule in LaTeX for the math panel, what its picture is made of
(:attr:`Learner.boundary`, :attr:`Learner.predictors`) and the numbers its
math panel writes (:attr:`Learner.numbers`). The pages ask the entry; none
of them tests which learner it is. Adding a learner to every page is adding
one entry to :data:`LEARNERS`; the on-line rules of :mod:`perceptron_core.rules`
have theirs in :mod:`perceptron_lab.app_logic.rule_menu` (the keyword arguments of a
:class:`Learner`). A setting's default is the estimator's own (``get_params()``) unless
the entry names another for its picture.

The estimators are always fitted with ``record="all"`` (one event per
visit) so that the pages can move through time without retraining.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace

from perceptron_core import (
    AveragedPerceptron,
    KWPerceptron,
    LongestSurvivorPerceptron,
    MarginPerceptron,
    Perceptron,
    VotedPerceptron,
)
from perceptron_core.average_algorithm import AverageAlgorithm
from perceptron_core.kernel import KernelPerceptron
from perceptron_core.modes import MODES
from perceptron_core.multiclass import MulticlassPerceptron
from perceptron_core.parallel import ParallelPerceptron
from perceptron_lab.app_logic import rule_menu
from perceptron_lab.app_logic.setting import Setting
from perceptron_lab.app_logic.timeline import Timeline

#: What a learner's boundary is (:attr:`Learner.boundary`): one line; the lines of a
#: committee that votes; the zero level of a kernel score, redrawn from its support points;
#: the borders of the regions of several classes learned together, a region per class.
LINE, MEMBERS, CONTOUR, CLASSES = "line", "members", "contour", "classes"
#: The most training points a kernel learner animates (its region costs points x grid).
KERNEL_MAX_POINTS = 3_000


@dataclass(frozen=True)
class Learner:
    """A menu entry.

    Attributes
    ----------
    key : str
        Stable id (used in URLs).
    title, summary : str
        Menu label and one line on what the learner does.
    cls : type
        The estimator class.
    settings : tuple of Setting
    rule : str or callable
        The update rule in LaTeX, ``\\`` between lines (the math panel
        fills in the numbers); a callable writes it for a fitted estimator
        with only the terms its settings use (:meth:`rule_of`).
    fixed : dict
        Constructor arguments this entry fixes.
    predict_with : str
        Which predictor the picture's line and region show.
    boundary : {"line", "members", "contour", "classes"}
        What the picture draws as the boundary: one line (:data:`LINE`), a
        committee's lines that vote, with safe/noisy/borderline categories
        (:data:`MEMBERS`; the trace holds one hypothesis per member and
        epoch), the zero level of a dual (kernel) score (:data:`CONTOUR`), or
        a region per class, the classes learned together (:data:`CLASSES`:
        the learner is fitted on the class numbers, not on ±1 labels).
    predictors : tuple of str
        The predictors one fit yields: ``("last",)``, or :data:`MODES` for
        the Khardon–Wachman trainer in primal or dual form.
    numbers : callable or None
        ``numbers(estimator) -> dict``: the fitted numbers the math panel
        writes (``eta``, ``C``, ``theta_init``, ``tau_margin``, ``alpha``,
        ``lam`` and ``lam_form``, which names how λ enters the score).
    max_points : int or None
        The most training points the browser view can redraw at every step.
    epochs_name : str
        The constructor's name for the number of passes.
    band : callable or None
        ``band(estimator) -> (low, high)``: the scores between which a
        correctly classified example still updates (drawn as the margin band).
    novikoff : callable or None
        ``novikoff(estimator) -> bool``: whether Novikoff's bound applies.
    bias : bool
        The rule writes the threshold as a bias ``b = -θ`` (PAUM's
        ``<w,x> + b``); the math panel then shows ``b``.
    """

    key: str
    title: str
    summary: str
    cls: type
    settings: tuple[Setting, ...]
    rule: str | Callable
    fixed: dict = field(default_factory=dict)
    predict_with: str = "last"
    boundary: str = LINE
    predictors: tuple[str, ...] = ("last",)
    numbers: Callable | None = None
    max_points: int | None = None
    epochs_name: str = "epochs"
    band: Callable | None = None
    novikoff: Callable | None = None
    bias: bool = False

    def __post_init__(self):
        # a setting without a default of its own takes the estimator's
        params = self.cls().get_params()
        filled = tuple(s.filled(params) for s in self.settings)
        object.__setattr__(self, "settings", filled)

    @property
    def has_modes(self) -> bool:
        """Whether the fit yields the last, longest, voted and averaged predictors."""
        return len(self.predictors) > 1

    @property
    def linear(self) -> bool:
        """Whether the boundary is one line, or a committee's lines."""
        return self.boundary in (LINE, MEMBERS)

    @property
    def learns_classes(self) -> bool:
        """Whether the learner is fitted on every class together (the class numbers)."""
        return self.boundary == CLASSES

    @property
    def replays_votes(self) -> bool:
        """Whether the browser replays the four predictors (the votes are sent)."""
        return self.has_modes and self.boundary in (LINE, CLASSES)

    def shown_mode(self, values: dict) -> str:
        """The predictor the picture shows with these settings."""
        return values.get("predict_with", self.predict_with)

    def defaults(self) -> dict:
        return {s.name: s.default for s in self.settings}

    def rule_of(self, estimator) -> str:
        """The rule in LaTeX as ``estimator``'s settings make it."""
        return self.rule(estimator) if callable(self.rule) else self.rule

    def make(self, values: dict, epochs: int, seed: int):
        """The estimator with these settings, recording every visit."""
        params = {s.name: s.to_estimator(values.get(s.name, s.default)) for s in self.settings}
        params.update(self.fixed)
        accepted = self.cls().get_params()
        if self.epochs_name in accepted:
            params[self.epochs_name] = int(epochs)
        if "random_state" in accepted:
            params["random_state"] = int(seed)
        return self.cls(record="all", **params)

    def timeline(self, estimator, n_samples: int) -> Timeline:
        if self.boundary == MEMBERS:
            return Timeline.from_epoch_traces(estimator.trace_, n_samples)
        if self.boundary == CONTOUR:
            return Timeline.from_kernel_trace(estimator.trace_, n_samples)
        if self.boundary == CLASSES:
            return Timeline.from_multiclass_trace(estimator.trace_, n_samples)
        return Timeline.from_trace(estimator.trace_, n_samples)


# -- helpers for the table ------------------------------------------------------

ETA = Setting(
    "eta",
    "Learning rate η",
    "How far one update moves w and θ. It would only rescale them if θ started at 0; here θ "
    "starts at θ_init = mean ‖x‖² (mean k(x, x) with a kernel), so η changes the run (its "
    "updates and the line's angle): η and θ_init share one degree of freedom (Khardon & "
    "Wachman 2007, §2.1).",
    0.01,
    2.0,
    0.01,
)
TAU = Setting(
    "tau",
    "Margin τ (× θ_init)",
    "Width of the shaded band around the line; "
    "points inside it also force updates, pushing the line away from both classes.",
    0.0,
    2.0,
    0.125,
)
LAM = Setting(
    "lam",
    "λ-trick strength",
    "Ringed points (those that already forced an "
    "update) get a push of λ‖x‖² towards their label while training: noisy points "
    "stop dragging the line around (marked ✚ when the push rescues them).",
    0.0,
    4.0,
    0.125,
)
ALPHA = Setting(
    "alpha_bound",
    "α-bound (0 = off)",
    "The most updates one point may force; "
    "points that used them up turn grey and are ignored from then on.",
    0,
    50,
    1,
    none_at=0,
)
#: The KW entry with every switch off: the classic rule with the four predictors (lessons 4, 7).
KW_SWITCHES_OFF = {"tau": 0.0, "lam": 0.0, "alpha_bound": 0}


def _kw_band(est):
    t = est.margin_
    return (-t, t) if t > 0 else None


def _kw_novikoff(est):
    return float(est.tau) == 0 and float(est.lam) == 0 and est.alpha_bound is None


def _kw_numbers(est) -> dict:
    """What the Khardon–Wachman math panel writes; λ enters as ``y λ‖x‖²`` once ``a_j > 0``."""
    return {
        "eta": float(est.eta),
        "C": float(est.C_),
        "theta_init": float(est.theta_init_),
        "tau_margin": est.margin_,
        "alpha": None if est.alpha_bound is None else int(est.alpha_bound),
        "lam": float(est.lam),
        "lam_form": "kw",
    }


def _kernel_numbers(est) -> dict:
    """The same in dual form: λ enters as ``y λ k(x, x)``."""
    return _kw_numbers(est) | {"lam_form": "kernel"}


def _kw_learner(key, title, summary, cls, settings, **extra) -> Learner:
    """An entry of the Khardon–Wachman trainer: its rule with the switches in use, the four
    predictors, its margin band and when Novikoff's bound holds."""
    return Learner(
        key,
        title,
        summary,
        cls,
        settings,
        _kw_rule,
        predictors=MODES,
        numbers=_kw_numbers,
        band=_kw_band,
        novikoff=_kw_novikoff,
        **extra,
    )


def _kw_rule(est) -> str:
    r"""Khardon and Wachman's rule with only the switches ``est`` turns on.

    Examples
    --------
    >>> from perceptron_core import KWPerceptron
    >>> [term in _kw_rule(KWPerceptron()) for term in (r"\lambda", r"\tau", r"\alpha")]
    [False, False, False]
    >>> rule = _kw_rule(KWPerceptron(tau=0.5, lam=1.0))
    >>> [term in rule for term in (r"\lambda", r"\tau", r"\alpha")]
    [True, True, False]
    """
    score = r"s = \langle w, x\rangle"
    if float(est.lam) > 0:
        score += r" + \lambda\,y\,\lVert x\rVert^2\,[a_j>0]"
    test = r"y\,(s-\theta) \le " + (r"\tau\,\theta_{init}" if float(est.tau) > 0 else "0")
    if est.alpha_bound is not None:
        test += r"\text{ and } a_j < \alpha"
    return (
        score
        + r" \\"
        + r"\text{update if } "
        + test
        + r": \\ w \leftarrow w + \eta\,y\,x,\quad \theta \leftarrow \theta - \eta\,y\,C"
    )


LEARNERS: dict[str, Learner] = {
    learner.key: learner
    for learner in [
        _kw_learner(
            "perceptron",
            "Perceptron (classic)",
            "Rosenblatt's rule with a threshold: update on every mistake.",
            Perceptron,
            (ETA,),
        ),
        _kw_learner(
            "kw",
            "Khardon–Wachman (all switches)",
            "The unified trainer: margin τ, λ-trick and α-bound together, all three on "
            "(τ = 0.5, λ = 1, α = 5). On the default data it reached 100 % test accuracy against "
            "the classic perceptron's 98.7 %, on overlapping Gaussians 90.0 % against 76.0 % "
            "(5 seeds, 30 % test, 20 epochs); set them to 0 to get the classic rule back.",
            KWPerceptron,
            (
                ETA,
                replace(TAU, default=0.5),
                replace(LAM, default=1.0),
                replace(ALPHA, default=5),
                Setting(
                    "predict_with",
                    "Line shows",
                    "Which of the four predictors of this one run the line and region show.",
                    choices=MODES,
                ),
            ),
        ),
        _kw_learner(
            "margin",
            "Perceptron with margin (PAM)",
            "Points inside a band around the line count as errors too.",
            MarginPerceptron,
            (ETA, TAU),
        ),
        _kw_learner(
            "longest",
            "Longest survivor",
            "Keep the hypothesis with the longest run of correct predictions.",
            LongestSurvivorPerceptron,
            (ETA, TAU, LAM, ALPHA),
            predict_with="longest",
        ),
        _kw_learner(
            "voted",
            "Voted perceptron",
            "Every hypothesis votes, weighted by how long it survived.",
            VotedPerceptron,
            (ETA, TAU, LAM, ALPHA),
            predict_with="voted",
        ),
        _kw_learner(
            "averaged",
            "Averaged perceptron",
            "The vote-weighted mean of all hypotheses: one line.",
            AveragedPerceptron,
            (ETA, TAU, LAM, ALPHA),
            predict_with="averaged",
        ),
        # the on-line rules' entries, each written in its rule's file
        *(Learner(**entry) for entry in rule_menu.ENTRIES),
        Learner(
            "kernel",
            "Kernel perceptron (dual)",
            "The same rule on k(x, x'): curved boundaries for XOR and circles.",
            KernelPerceptron,
            (
                Setting(
                    "kernel",
                    "Kernel",
                    "rbf: smooth blobs; poly: curved "
                    "boundaries of the chosen degree; linear: the ordinary line.",
                    choices=("rbf", "poly", "linear"),
                ),
                Setting(
                    "gamma",
                    "Kernel width β",
                    "rbf: exp(−β‖x − x'‖²), larger β makes tighter blobs around the ringed "
                    "support points; poly: the scale of ⟨x, x'⟩ inside (β⟨x, x'⟩ + 1)^d. "
                    "scikit-learn calls it gamma.",
                    0.05,
                    10.0,
                    0.05,
                    when=("kernel", ("rbf", "poly")),
                    default=1.0,
                ),
                Setting(
                    "degree",
                    "Degree (poly)",
                    "poly: degree of the boundary curve.",
                    1,
                    6,
                    1,
                    when=("kernel", ("poly",)),
                    default=2,
                ),
                ETA,
                TAU,
                LAM,
                ALPHA,
            ),
            r"f(x) = \sum_j \eta\,a_j\,y_j\,k(x_j, x) - \theta \\ \text{on an error: } "
            r"a_j \leftarrow a_j + 1,\ \theta \leftarrow \theta - \eta\,y\,C",
            boundary=CONTOUR,
            predictors=MODES,
            numbers=_kernel_numbers,
            max_points=KERNEL_MAX_POINTS,
        ),
        Learner(
            "multiclass",
            "Multiclass perceptron (a vector per class)",
            "One weight vector per class; a mistake moves two: the true class's towards x, "
            "the rival's away.",
            MulticlassPerceptron,
            (
                Setting(
                    "eta",
                    "Learning rate η",
                    "How far one update moves the two vectors. From all-zero weights it only "
                    "scales every vector, so it changes no prediction (docs/algorithms.md §11).",
                    0.05,
                    2.0,
                    0.05,
                ),
                Setting(
                    "predict_with",
                    "Regions show",
                    "Which of the four predictors of this one run the regions show.",
                    choices=MODES,
                ),
            ),
            r"s_k = \langle w_k, x\rangle + b_k,\quad r = \arg\max_{k \ne y} s_k \\ "
            r"\text{update if } s_y \le s_r\text{ (a tie too):} \\ "
            r"w_y \leftarrow w_y + \eta\,x,\quad b_y \leftarrow b_y + \eta \\ "
            r"w_r \leftarrow w_r - \eta\,x,\quad b_r \leftarrow b_r - \eta",
            boundary=CLASSES,
            predictors=MODES,
            numbers=lambda est: {"eta": float(est.eta), "xb": 1.0 if est.fit_intercept else 0.0},
        ),
        Learner(
            "average",
            "Average algorithm (baseline)",
            "w is the mean of y·x: no mistakes drive it, no threshold.",
            AverageAlgorithm,
            (),
            r"w = \frac1m \sum_j y_j\,x_j",
        ),
        Learner(
            "parallel",
            "Parallel perceptrons (committee)",
            "An odd committee votes; its margins flag safe, noisy and borderline points.",
            ParallelPerceptron,
            (
                Setting(
                    "n_perceptrons",
                    "Committee size H",
                    "Number of lines (odd): more lines can bend the boundary.",
                    1,
                    9,
                    2,
                ),
                Setting(
                    "eta",
                    "Learning rate η",
                    "Start rate; it shrinks when an epoch "
                    "makes more mistakes than the one before.",
                    1e-4,
                    0.05,
                    1e-4,
                ),
                Setting(
                    "gamma",
                    "Start margin ρ",
                    "Band that members are pushed out of; it adapts during training "
                    "(Cantador & Dorronsoro write γ).",
                    0.0,
                    0.5,
                    0.01,
                ),
            ),
            r"h(x) = \mathrm{sign}\sum_i \mathrm{sign}\langle W_i,(x,1)\rangle \\ "
            r"\Delta W_i \mathrel{+}= \eta\,y\,(x,1) \text{ if:} \\ "
            r"h(x) \ne y \text{ and } y\,\mathrm{act}_i < 0\text{, or} \\ "
            r"h(x) = y \text{ and } 0 < y\,\mathrm{act}_i < \rho \\ "
            r"\text{(summed per epoch). After each} \\ "
            r"h(x) = y\text{: } \rho \mathrel{+}= 0.25\,\eta \text{ if every} \\ "
            r"\text{right member has } y\,\mathrm{act}_i \ge \rho\text{,} \\ "
            r"\text{else } \rho \mathrel{-}= 0.75\,\eta\text{. Safe / noisy:} \\ "
            r"\lfloor H/2\rfloor + 1 \text{ with } y\,\mathrm{act}_i > \rho"
            r"\text{ / } {<}\,{-\rho}",
            boundary=MEMBERS,
        ),
    ]
}
