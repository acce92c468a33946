"""The diagnostics' numbers that need the whole training set: Novikoff's bound, test errors.

The diagnostics themselves (mistakes per epoch with the step marked, the
four predictors' accuracy at the step, the confusion matrix) are drawn in
the browser (``ui/playback/diagnostics.js``); what they need from here is
computed once per run.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from perceptron_core.multiclass import kesler_bound


def novikoff_bound(X, y, w_star, theta_star, eta, C, theta_init) -> tuple[float, float, float]:
    r"""Novikoff's bound on the updates of the thresholded perceptron, and its R and γ.

    Fold the threshold into an extra coordinate: with ``z = (x, -√C)`` and
    ``v = (w, θ/√C)`` the score is ``<v, z> = <w, x> - θ``, and the rule's
    update ``w += η y x``, ``θ -= η y C`` is ``v += η y z`` (the last
    coordinate moves by ``-η y C / √C = -η y √C``). Let ``u`` be the true
    boundary ``(w*, θ*/√C)`` scaled to unit length, ``γ = min_j y_j <u, z_j>``
    and ``R = max_j ||z_j||``. From ``<u, v_k> >= a + kηγ`` and
    ``||v_k||² <= b² + kη²R²`` (with ``a = <u, v_0>``, ``b = ||v_0||``,
    ``v_0 = (0, θ_init/√C)``) the number of updates ``k`` satisfies
    ``(a + kηγ)² <= b² + kη²R²``; the bound is its largest root. Novikoff's
    ``(R/γ)²`` is the case ``θ_init = 0``; the default start
    ``θ_init = mean ||x||²`` shifts it.

    Returns
    -------
    bound, R, gamma : float
        ``bound`` is inf when the data are not separated by the true boundary,
        and inf or nan when it leaves float64's range.

    Raises
    ------
    ValueError
        If ``C <= 0``: the threshold then never moves, and no fold represents it.

    Examples
    --------
    >>> import numpy as np
    >>> X, y = np.array([[1.0, 0.0], [-1.0, 0.0]]), np.array([1, -1])
    >>> bound, R, gamma = novikoff_bound(X, y, np.array([1.0, 0.0]), 0.0, 1.0, 3.0, 0.0)
    >>> print(f"R = {R:.3g}, γ = {gamma:.3g}, bound = {bound:.3g}")   # R = √(1 + 3)
    R = 2, γ = 1, bound = 4
    """
    if not C > 0:
        raise ValueError(
            f"novikoff_bound needs a threshold step C > 0; got C = {C}. With C = 0 the "
            "threshold stays at θ_init and cannot be folded into the weights."
        )
    root_C = np.sqrt(C)
    u = np.r_[w_star, theta_star / root_C]
    u = u / np.linalg.norm(u)
    Z = np.c_[X, np.full(len(X), -root_C)]
    gamma = float((y * (Z @ u)).min())
    R = float(np.sqrt((Z**2).sum(axis=1).max()))
    if gamma <= 0:
        return float("inf"), R, gamma
    # NumPy scalars: beyond float64's range the bound becomes inf (or nan), never an error
    eta, gamma_, R_, theta_init = map(np.float64, (eta, gamma, R, theta_init))
    with np.errstate(all="ignore"):
        a = u[-1] * theta_init / root_C
        b2 = theta_init * (theta_init / C)
        A = (eta * gamma_) ** 2
        B = 2 * a * eta * gamma_ - (eta * R_) ** 2
        disc = B * B - 4 * A * (a * a - b2)
        return float((-B + np.sqrt(disc)) / (2 * A)), R, gamma


def test_mistakes_per_epoch(
    tl, X_test, y_test, interrupt: Callable[[], None] = lambda: None
) -> np.ndarray:
    """Test errors of the hypothesis in force at the end of each epoch (``y_test``: ±1
    labels, or the class numbers for a timeline of several classes).

    A kernel learner's hypotheses are scored from its distinct support points
    (:func:`kernel_epoch_scores`); ``interrupt()`` is asked between its chunks of test rows
    and may raise to stop the work (the view's visitor left, or its CPU is spent).
    """
    if len(X_test) == 0:
        return np.zeros(0, dtype=np.int64)
    ends = np.r_[tl.epoch_starts()[1:], tl.n_events]
    if tl.kernel_trace is not None:
        updates = np.array([tl.row(e) for e in ends], dtype=np.int64)
        scores = kernel_epoch_scores(tl.kernel_trace, updates, X_test, interrupt)
        return (np.where(scores > 0, 1, -1) != y_test).sum(axis=1)
    if tl.classes:
        return np.array([int((tl.predicted_classes(X_test, e) != y_test).sum()) for e in ends])
    return np.array(
        [int((np.where(tl.scores(X_test, e) > 0, 1, -1) != y_test).sum()) for e in ends]
    )


#: Kernel values computed between two looks at ``interrupt`` (support points x test rows).
KERNEL_VALUES_PER_CHUNK = 4_000_000


def kernel_epoch_scores(trace, updates, X, interrupt: Callable[[], None] = lambda: None):
    """Scores on the rows of ``X`` of a kernel trace's hypotheses after ``updates[i]`` updates
    (non-decreasing; one per epoch's end), from its distinct support points.

    Hypothesis ``k`` is ``f_k(x) = sum_{i<k} coef_i k(x_{rows_i}, x) - theta_k``; an example
    updated on many times is one support point whose coefficient is the sum of its updates'
    (its count with their signs and rates). So the kernel is evaluated once per distinct
    support point and test row, and each epoch adds its own updates to the previous epoch's
    coefficients: the work is support points x test rows x (1 + epochs), not every update's
    row at every epoch's end.

    Returns
    -------
    ndarray of shape (len(updates), len(X))

    Examples
    --------
    >>> import numpy as np
    >>> from perceptron_core import KernelPerceptron
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(60, 2)); y = np.where((X**2).sum(1) > 1, 1, -1)
    >>> est = KernelPerceptron(kernel="rbf", epochs=3, record="all", random_state=0).fit(X, y)
    >>> trace = est.trace_
    >>> k = np.array([trace.total_updates // 2, trace.total_updates])
    >>> fast = kernel_epoch_scores(trace, k, X[:5])
    >>> slow = np.stack([trace.scores(X[:5], int(n)) for n in k])
    >>> bool(np.allclose(fast, slow, rtol=1e-9, atol=1e-9))
    True
    """
    X = np.ascontiguousarray(X, dtype=np.float64)
    updates = np.asarray(updates, dtype=np.int64)
    theta = trace.theta0 + np.concatenate(([0.0], np.cumsum(trace.theta_delta)))[updates]
    n = int(updates.max(initial=0))
    if n == 0:
        return np.broadcast_to(-theta[:, None], (len(updates), len(X))).copy()
    support, which = np.unique(trace.rows[:n], return_inverse=True)
    # each update's epoch: the first end whose count includes it
    epoch = np.searchsorted(updates, np.arange(n), side="right")
    added = np.zeros((len(updates), len(support)))
    np.add.at(added, (epoch, which), trace.coef[:n])
    coef = np.cumsum(added, axis=0)  # each epoch's coefficients: the previous ones and its own
    R = np.stack([trace.x_rows[int(r)] for r in support]).astype(np.float64)
    out = np.empty((len(updates), len(X)))
    step = max(1, KERNEL_VALUES_PER_CHUNK // len(support))
    for start in range(0, len(X), step):
        interrupt()
        K = trace.kernel.matrix(R, X[start : start + step])
        out[:, start : start + step] = coef @ K - theta[:, None]
    return out


def novikoff_sentence(run, data) -> str | None:
    """Novikoff's bound for this run in words, ``{updates}`` standing for the updates so far.

    None when the bound does not apply to the learner (margin, λ-trick or
    α-bound on, or not the unified trainer) or the data have no known
    target line.
    """
    return novikoff_for(run, data)[0]


def novikoff_for(run, data) -> tuple[str | None, float | None]:
    """:func:`novikoff_sentence` and the bound itself (None where no bound applies)."""
    learner, est, tl = run.learner, run.estimator, run.timeline
    if learner.learns_classes:
        return kesler_for(run, data)
    margin_true = data.separable_margin
    if not (learner.novikoff and learner.novikoff(est)) or margin_true is None:
        return None, None
    if margin_true <= 0:
        return (
            "Novikoff's bound needs data that a line separates; these training labels are "
            "not (noise or overlap), so no bound applies.",
            None,
        )
    with np.errstate(over="ignore"):
        bound, R, gamma = novikoff_bound(
            data.X, data.y, data.w_star, data.theta_star, est.eta, est.C_, est.theta_init_
        )
        folded = np.float64(R / gamma) ** 2
    if not (np.isfinite(bound) and np.isfinite(folded)):
        return (
            f"Novikoff's bound. The true line separates the training data, but only by "
            f"γ = {gamma:.3g} against R = {R:.3g} (the threshold folded in as a coordinate): "
            "the bound is too large for floating point, so it says nothing here.",
            None,
        )
    return (
        f"Novikoff's bound. The true line separates the training data, so the perceptron "
        f"makes at most {math.floor(bound):,} updates (R = {R:.3g}, γ = {gamma:.3g} with the "
        "threshold "
        f"folded in as a coordinate; see novikoff_bound). Novikoff's (R/γ)² = "
        f"{folded:,.0f} is the bound for a start at θ = 0"
        + (
            f"; this run starts at θ_init = {est.theta_init_:.3g}, which shifts it. "
            if est.theta_init_
            else ", this run's start. "
        )
        + f"Updates so far: {{updates}}, in the whole run: {tl.W.shape[1] - 1:,}."
    ), float(bound)


def kesler_for(run, data) -> tuple[str | None, float | None]:
    """The multiclass perceptron's bound for this run, in words, and the bound: Novikoff's
    ``(R/γ)²`` through Kesler's construction (docs/algorithms.md §11), where a linear machine
    separates the training classes; a sentence saying why not otherwise."""
    est, tl = run.estimator, run.timeline
    classes = data.class_labels()[0]
    xb = 1.0 if est.fit_intercept else 0.0
    with np.errstate(over="ignore"):
        bound, R, gamma = kesler_bound(data.X, classes, len(est.classes_), xb)
    if not (gamma > 0 and np.isfinite(bound)):
        return (
            "The mistake bound (Novikoff's, through Kesler's construction) needs classes that "
            "a linear machine separates; no separating machine was found for these training "
            "classes (noise or overlap), so no bound applies.",
            None,
        )
    return (
        f"The mistake bound. A linear machine separates the training classes, so the "
        f"multiclass perceptron makes at most (R/γ)² = {math.floor(bound):,} updates: "
        f"Novikoff's bound on Kesler's vectors, R = {R:.3g} (√2 times the largest ‖(x, 1)‖) "
        f"and γ = {gamma:.3g} (the widest margin of a unit machine; docs/algorithms.md §11). "
        f"Updates so far: {{updates}}, in the whole run: {tl.W.shape[1] - 1:,}."
    ), float(bound)
