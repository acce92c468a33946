"""The right answers of the lessons' replay exercises, computed without the page's code: each
rule a lesson's figure runs written out in NumPy from its description (docs/algorithms.md,
the lessons' formulas), visiting the examples in the fitted estimator's seeded order, and
the committee's vote and marks from its fitted weights (as tests/test_predictions.py reads
them). :func:`expected` answers one question of :class:`app_logic.predictions.Question`.

These are slow and simple on purpose: a full weight vector per visit, no running sums.
"""

from __future__ import annotations

import numpy as np
from sklearn.metrics.pairwise import linear_kernel, polynomial_kernel, rbf_kernel

from perceptron_core.trace import EVENT_KINDS
from tests.reference import reference_kw


class Visits:
    """A run written out: per visit its event and the hypothesis ``(w, θ)`` after it (the
    line ``⟨w, x⟩ = θ``), or for a kernel the score of every training point after it."""

    def __init__(self, kinds, W=None, theta=None, scores=None):
        self.kinds = [EVENT_KINDS.index(k) if isinstance(k, str) else int(k) for k in kinds]
        self.W, self.theta, self.scores = W, theta, scores

    def line_after(self, s: int) -> np.ndarray:
        return np.r_[self.W[s - 1], self.theta[s - 1]]

    def score_after(self, s: int, x: np.ndarray, j: int) -> float:
        if self.scores is not None:
            return float(self.scores[s - 1][j])
        return float(x @ self.W[s - 1] - self.theta[s - 1])


def order_of(est, m: int) -> np.ndarray:
    """The rows an estimator visits in an epoch: its seeded order (a batch committee goes
    through them in the data's order)."""
    return getattr(est, "_order", np.arange(m))


def _visits(est, X, epochs):
    """The rows an estimator fitted on ``X`` visits, epoch after epoch, in its seeded order."""
    return [int(j) for _ in range(epochs) for j in order_of(est, len(X))]


def kw_visits(run, data, epochs: int) -> Visits:
    """Khardon & Wachman's rule (tests/reference.py) with the run's switches."""
    est = run.estimator
    ref = reference_kw(
        data.X,
        np.where(data.y > 0, 1, -1),
        eta=float(est.eta),
        theta_init=float(est.theta_init_),
        C=float(est.C_),
        tau=float(est.tau),
        lam=float(est.lam),
        alpha_bound=est.alpha_bound,
        epochs=epochs,
        order=est._order,
    )
    updating = np.array([k in ("mistake", "margin") for k in ref["kinds"]])
    rows = np.cumsum(updating)
    return Visits(ref["kinds"], ref["W"][rows], ref["theta"][rows])


def thick_visits(run, data, epochs: int) -> Visits:
    """The thick separator: update while ``y (⟨w, x⟩ + b) ≤ κ``; ``w += ηyx``, ``b += ηy``."""
    est = run.estimator
    eta, kappa = float(est.eta), float(est.gamma)
    w, b = np.zeros(data.X.shape[1]), 0.0
    kinds, W, theta = [], [], []
    for j in _visits(est, data.X, epochs):
        x, y = data.X[j], int(data.y[j])
        s = x @ w + b
        if y * s <= kappa:
            kinds.append("mistake" if (s > 0) != (y > 0) else "margin")
            w, b = w + eta * y * x, b + eta * y
        else:
            kinds.append("correct")
        W.append(w)
        theta.append(-b)
    return Visits(kinds, np.array(W), np.array(theta))


def paum_visits(run, data, epochs: int) -> Visits:
    """PAUM (Li et al. 2002) with the λ-trick's kernel form: update while ``y f ≤ τ_y``, with
    ``f = ⟨w, x⟩ + b + λ η a_j y``; ``w += ηyx``, ``b += ηyR²``, R² the largest ‖x‖²."""
    est = run.estimator
    eta, lam = float(est.eta), float(est.lam)
    taus = {1: float(est.tau_pos), -1: float(est.tau_neg)}
    R2 = float(np.max(np.sum(data.X**2, axis=1)))
    w, b, a = np.zeros(data.X.shape[1]), 0.0, np.zeros(len(data.y), int)
    kinds, W, theta = [], [], []
    for j in _visits(est, data.X, epochs):
        x, y = data.X[j], int(data.y[j])
        raw = x @ w + b
        f = raw + lam * eta * a[j] * y
        if y * f <= taus[y]:
            kinds.append("mistake" if (f > 0) != (y > 0) else "margin")
            w, b = w + eta * y * x, b + eta * y * R2
            a[j] += 1
        else:
            kinds.append("rescued" if y * raw <= taus[y] else "correct")
        W.append(w)
        theta.append(-b)
    return Visits(kinds, np.array(W), np.array(theta))


def balanced_winnow_visits(run, data, epochs: int) -> Visits:
    """The course notes' balanced Winnow (section 1.3) for real features: on a mistake
    ``w⁺ᵢ *= α^{y xᵢ}``, ``w⁻ᵢ /= α^{y xᵢ}``, the same for the pair of a constant input 1;
    every weight starts at 1, θ = n; +1 when the score is at least 0."""
    est = run.estimator
    alpha = float(est.alpha)
    n = data.X.shape[1]
    wp, wn, bp, bn, threshold = np.ones(n), np.ones(n), 1.0, 1.0, float(n)
    kinds, W, theta = [], [], []
    for j in _visits(est, data.X, epochs):
        x, y = data.X[j], int(data.y[j])
        s = (wp - wn) @ x + (bp - bn) - threshold
        if (y > 0 and s < 0) or (y < 0 and s >= 0):
            kinds.append("mistake")
            factor = alpha ** (y * x)
            wp, wn = wp * factor, wn / factor
            bp, bn = bp * alpha**y, bn / alpha**y
        else:
            kinds.append("correct")
        W.append(wp - wn)
        theta.append(threshold - (bp - bn))
    return Visits(kinds, np.array(W), np.array(theta))


def kernel_visits(run, data, epochs: int) -> Visits:
    """The kernel perceptron in Khardon & Wachman's dual form: ``s = Σ η a_i y_i k(x_i, x)``,
    an update on an error (``a_j += 1``, ``θ −= η y C``), θ from θ_init = mean k(x, x);
    the kernel from scikit-learn."""
    est = run.estimator
    X, y = data.X, np.where(data.y > 0, 1, -1)
    kernel = {
        "rbf": lambda A: rbf_kernel(A, A, gamma=float(est.gamma_)),
        "poly": lambda A: polynomial_kernel(
            A, A, degree=int(est.degree), gamma=float(est.gamma_), coef0=float(est.coef0)
        ),
        "linear": lambda A: linear_kernel(A, A),
    }[est.kernel]
    K = kernel(X)
    eta, C = float(est.eta), float(est.C_)
    theta, a = float(est.theta_init_), np.zeros(len(y))
    kinds, scores = [], []
    for j in _visits(est, X, epochs):
        s = (eta * a * y) @ K[:, j]
        if y[j] * (s - theta) <= 0:
            kinds.append("mistake")
            a[j] += 1
            theta -= eta * y[j] * C
        else:
            kinds.append("correct")
        scores.append((eta * a * y) @ K - theta)
    return Visits(kinds, scores=scores)


def p_delta_visits(run, data, epochs: int) -> Visits:
    """A committee of one trained by batch p-delta (Cantador & Dorronsoro 2005, section 2, as
    lesson 10 writes it): over an epoch, a step ηy(x, 1) when the member is wrong, or right
    with 0 < y act < ρ, applied at the epoch's end and rescaled to unit length; ρ grows by
    0.25η after a right pattern the member clears, shrinks by 0.75η otherwise; η shrinks by
    a tenth after an epoch with more mistakes than the one before. The start is the fitted
    estimator's first recorded weights."""
    est = run.estimator
    (trace,) = est.trace_
    W = np.r_[trace.w0, -trace.theta0]
    rho, eta, previous = float(est.gamma), float(est.eta), np.inf
    kinds = []
    for _ in range(epochs):
        step, errors = np.zeros_like(W), 0
        for j in range(len(data.y)):
            x, y = np.r_[data.X[j], 1.0], int(data.y[j])
            margin = y * (W @ x)
            if (1 if W @ x > 0 else -1) != y:  # sign(0) = −1
                errors += 1
                if margin < 0:  # at exactly 0 nothing moves
                    step += eta * y * x
                kinds.append("mistake" if margin < 0 else "correct")
            elif 0 < margin < rho:
                step += eta * y * x
                kinds.append("margin")
                rho -= 0.75 * eta
            else:
                kinds.append("correct")
                rho += 0.25 * eta
        W = (W + step) / np.linalg.norm(W + step)
        if errors > previous:
            eta *= 0.9
        previous = errors
    return Visits(kinds)


#: The rule each learner of the lessons' figures runs.
def multiclass_visits(run, data, epochs: int) -> Visits:
    """The multiclass perceptron (Duda, Hart & Stork 2001, §5.12; docs/algorithms.md §11):
    a visit is a mistake when a rival's score ⟨w_k, x⟩ + b_k is at least the true class's
    (a tie is a mistake; the rival is the highest-scoring other class, the first on a tie),
    and then w_c gains ηx and b_c η, the rival's lose them. Only the outcomes are kept."""
    est = run.estimator
    classes = data.class_labels()[0]
    W = np.zeros((len(est.classes_), data.X.shape[1]))
    b = np.zeros(len(est.classes_))
    kinds = []
    for j in _visits(est, data.X, epochs):
        x, c = data.X[j], int(np.searchsorted(est.classes_, classes[j]))
        scores = W @ x + b
        rivals = np.where(np.arange(len(b)) == c, -np.inf, scores)
        r = int(np.argmax(rivals))
        if rivals[r] >= scores[c]:
            kinds.append("mistake")
            W[c] += est.eta * x
            W[r] -= est.eta * x
            b[c] += est.eta
            b[r] -= est.eta
        else:
            kinds.append("correct")
    return Visits(kinds)


RULES = {
    "perceptron": kw_visits,
    "kw": kw_visits,
    "margin": kw_visits,
    "thick": thick_visits,
    "paum": paum_visits,
    "balanced_winnow": balanced_winnow_visits,
    "kernel": kernel_visits,
    "parallel": p_delta_visits,
    "multiclass": multiclass_visits,
}


def votes(visits: Visits, s: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every hypothesis an update made up to step ``s``, with its votes: a visit that is
    right (or rescued) votes for the hypothesis in force; the first hypothesis, before any
    update, never votes (docs/algorithms.md §1.4)."""
    made = [i for i in range(s) if visits.kinds[i] in (1, 2)]  # a mistake or a margin error
    count = np.zeros(len(made))
    row = -1
    for i in range(s):
        if visits.kinds[i] in (1, 2):
            row += 1
        elif visits.kinds[i] in (0, 3) and row >= 0:
            count[row] += 1
    return visits.W[made], visits.theta[made], count


def predictor_says(visits: Visits, s: int, x: np.ndarray, mode: str) -> int:
    """The voted or averaged predictor's label at ``x`` after step ``s`` (the last hypothesis
    before any hypothesis has a vote)."""
    W, theta, count = votes(visits, s)
    if count.sum() == 0:
        return 1 if visits.score_after(s, x, 0) > 0 else -1
    if mode == "voted":
        total = count @ np.sign(W @ x - theta)
    else:
        total = (count @ W) @ x / count.sum() - count @ theta / count.sum()
    return 1 if total > 0 else -1


def committee_answer(run, data, q) -> str:
    """A committee's vote on the example at step ``q.step`` (the batch rule scores an epoch
    with its start's weights), or its mark after training, from the fitted weights."""
    est = run.estimator
    j = q.point
    if q.kind == "vote":
        epoch = (q.step - 1) // len(data.X)
        acts = [t.weight_history[epoch] @ data.X[j] - t.theta_history[epoch] for t in est.trace_]
        vote = 1 if sum(1 if a > 0 else -1 for a in acts) > 0 else -1
        return "right" if vote == data.y[j] else "wrong"
    margins = data.y[j] * (est.weights_[:, :-1] @ data.X[j] + est.weights_[:, -1])
    majority = est.n_perceptrons // 2 + 1
    if (margins > est.gamma_).sum() >= majority:
        return "safe"
    return "noisy" if (margins < -est.gamma_).sum() >= majority else "borderline"


def expected(run, data, q, visits: Visits | None):
    """The right answer of question ``q`` about ``run``: an event code, a side, a letter, a
    point, a committee's answer."""
    if q.kind in ("vote", "noisy"):
        return committee_answer(run, data, q)
    s, x = q.step, data.X[q.point] if q.point is not None else None
    if q.kind == "outcome":
        assert q.point == order_of(run.estimator, len(data.X))[(s - 1) % len(data.X)]
        return visits.kinds[s - 1]
    if q.kind == "side":
        score = visits.score_after(s, x, q.point)
        assert abs(score) > 1e-9
        return 1 if score > 0 else -1
    if q.kind == "lines":
        line = visits.line_after(s)
        near = [c[0] for c in q.candidates if np.allclose(c[2], line, rtol=1e-9, atol=1e-9)]
        assert len(near) == 1, (q.candidates, line)
        return near[0]
    if q.kind == "where":
        return tuple(visits.W[s - 1])
    if q.kind == "predictor":
        return predictor_says(visits, s, x, q.mode)
    raise ValueError(q.kind)


def written_out(run, data) -> Visits | None:
    """The run's visits written out by its rule (None for a committee of several: its vote
    and marks are read from its fit)."""
    if run.learner_key == "parallel" and run.timeline.n_members > 1:
        return None
    return RULES[run.learner_key](run, data, run.epochs)
