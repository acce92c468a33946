"""The mistake bound on data no line separates (Freund & Schapire 1999, Theorem 2).

For any unit vector ``u`` and any ``γ > 0``, an example's *deviation* is how
far it falls short of margin ``γ``, ``ξ_j = max(0, γ - y_j <u, z_j>)``, and
``D = sqrt(Σ_j ξ_j²)`` is the total deviation. The perceptron started at 0
then makes at most ``((R + D)/γ)²`` mistakes on the sequence, with
``R = max_j ||z_j||`` (Freund & Schapire 1999, Theorem 2). The threshold is
folded in as in :func:`app_logic.diagnostics.novikoff_bound`: ``z = (x, -√C)``,
``u`` the true boundary ``(w*, θ*/√C)`` at unit length, so the bound is for a
perceptron started at ``w = 0, θ = 0`` (there η only scales the run), and at
``D = 0`` it is Novikoff's ``(R/γ)²``.

Khardon & Wachman (2007, §2.1) quote it as ``(2(R + D)/γ)²``, the form of
Cristianini & Shawe-Taylor (2000, §2.1.1), whose threshold is not folded
into the data: there ``R = max ||x_j||``, ``||w|| = 1`` and ``|b| <= R``, and
folding ``b`` in as an extra coordinate ``R`` costs a factor ``√2`` in the
radius and ``√2`` in ``||u||``: ``((2R + D)/γ)² <= (2(R + D)/γ)²``.
:func:`mistake_bound` computes both forms.

>>> import numpy as np
>>> X, y = np.array([[1.0], [-1.0], [0.5]]), np.array([1, -1, -1])  # the last is on the wrong side
>>> bound, gamma, D, R = noisy_mistake_bound(X, y, np.array([1.0]), 0.0, C=1.0)
>>> bool(D > 0 and bound > 0)
True
"""

from __future__ import annotations

import math

import numpy as np


def deviations(X, y, w_star, theta_star, C: float, gamma: float) -> tuple[np.ndarray, float]:
    """Each example's deviation ``ξ_j`` from margin ``gamma`` of the folded true line, and R."""
    root_C = np.sqrt(C)
    u = np.r_[w_star, theta_star / root_C]
    u = u / np.linalg.norm(u)
    Z = np.c_[X, np.full(len(X), -root_C)]
    return np.maximum(0.0, gamma - y * (Z @ u)), float(np.sqrt((Z**2).sum(axis=1).max()))


def mistake_bound(R: float, D: float, gamma: float, folded: bool = True) -> float:
    """Freund & Schapire's mistake bound ``((R + D)/γ)²`` with the threshold folded into
    ``R``, ``D`` and ``γ`` (``folded=True``), or ``(2(R + D)/γ)²``, the form Khardon & Wachman
    (2007, §2.1) quote for a threshold kept apart.

    The second is four times the first at the same numbers, so it is a looser bound there.

    >>> mistake_bound(1.0, 0.0, 0.5), mistake_bound(1.0, 0.0, 0.5, folded=False)
    (4.0, 16.0)
    """
    return ((1.0 if folded else 2.0) * (R + D) / gamma) ** 2


def noisy_mistake_bound(X, y, w_star, theta_star, C: float, n_gammas: int = 400):
    """The smallest ``((R + D)/γ)²`` over a grid of ``γ`` in (0, R]: ``(bound, γ, D, R)``.

    The bound holds for every ``γ``, so the smallest over the grid is a bound too;
    the γ it picks also minimises Khardon & Wachman's form, four times as large.
    """
    _, R = deviations(X, y, w_star, theta_star, C, 0.0)
    best = (np.inf, np.nan, np.nan)
    for gamma in np.linspace(R / n_gammas, R, n_gammas):
        xi, _ = deviations(X, y, w_star, theta_star, C, gamma)
        D = float(np.sqrt((xi**2).sum()))
        bound = mistake_bound(R, D, gamma)
        if bound < best[0]:
            best = (bound, float(gamma), D)
    return best[0], best[1], best[2], R


def relative_loss_bound(X, y, w_star, theta_star, C: float, mistake_rows, n_gammas: int = 400):
    """Shalev-Shwartz & Ben-David's (2014, section 21.4, Theorem 21.16) bound on the
    perceptron's mistakes against the hinge loss of a fixed line, in lesson 2's folded
    coordinates: ``(bound, L, gamma)``, the smallest over a grid of ``gamma`` in (0, R].

    For any ``v*``, a perceptron started at 0 makes ``M <= L + R||v*|| sqrt(L) +
    R²||v*||²`` mistakes, where ``L = sum over the steps with a mistake of max(0, 1 - y_j
    <v*, z_j>)``. Here ``v* = u/gamma``, ``u`` the true line at unit length, so ``||v*|| =
    1/gamma`` and each hinge term is ``xi_j / gamma`` (:func:`deviations`). The mistake steps
    are the run's: ``mistake_rows`` lists the rows it updated on (a row twice if it erred
    twice).

    >>> X, y = np.array([[1.0], [-1.0], [0.5]]), np.array([1, -1, -1])  # the last is wrong
    >>> bound, L, gamma = relative_loss_bound(X, y, np.array([1.0]), 0.0, 1.0, [0, 2])
    >>> bool(bound >= 2 and L > 0)
    True
    """
    rows = np.asarray(mistake_rows, dtype=np.int64)
    _, R = deviations(X, y, w_star, theta_star, C, 0.0)
    best = (np.inf, np.nan, np.nan)
    for gamma in np.linspace(R / n_gammas, R, n_gammas):
        xi, _ = deviations(X, y, w_star, theta_star, C, gamma)
        L = float(xi[rows].sum() / gamma)
        bound = L + (R / gamma) * np.sqrt(L) + (R / gamma) ** 2
        if bound < best[0]:
            best = (float(bound), L, float(gamma))
    return best


# ---------------------------------------------------------------------------
# Lessons 7–11: what makes a kernel a kernel (lesson 8), one-vs-rest (lesson 8),
# AdaBoost's round error and vote (lesson 10). Appended as one block.
# ---------------------------------------------------------------------------


def gram_matrix(X, kernel: str, gamma: float = 1.0, degree: int = 2, coef0: float = 1.0):
    """``K[i, j] = k(x_i, x_j)`` for lesson 8's kernels and for two functions that are not kernels.

    ``kernel`` is one of ``"linear"`` ``<x, x'>``, ``"poly"``
    ``(γ<x, x'> + c0)^d``, ``"rbf"`` ``exp(-γ||x - x'||²)`` (as
    :class:`perceptron_core.kernel.KernelPerceptron` computes them),
    ``"tanh"`` ``tanh(γ<x, x'> - c0)`` (the "sigmoid kernel", which is not
    positive semi-definite for every γ, c0) or ``"distance"`` ``||x - x'||``
    (zero on the diagonal, so its eigenvalues sum to 0: one is negative as
    soon as two points differ).

    >>> X = np.array([[0.0, 0.0], [1.0, 0.0]])
    >>> gram_matrix(X, "distance")
    array([[0., 1.],
           [1., 0.]])
    """
    X = np.asarray(X, dtype=np.float64)
    inner = X @ X.T
    squared = np.diag(inner)[:, None] + np.diag(inner)[None, :] - 2 * inner
    squared = np.maximum(squared, 0.0)  # rounding can make a zero distance slightly negative
    matrices = {
        "linear": lambda: inner,
        "poly": lambda: (gamma * inner + coef0) ** degree,
        "rbf": lambda: np.exp(-gamma * squared),
        "tanh": lambda: np.tanh(gamma * inner - coef0),
        "distance": lambda: np.sqrt(squared),
    }
    if kernel not in matrices:
        raise ValueError(f"kernel must be one of {sorted(matrices)}; got {kernel!r}.")
    return matrices[kernel]()


def smallest_eigenvalue(K) -> float:
    """The smallest eigenvalue of the symmetric matrix ``K``: ``< 0`` means not a Gram matrix.

    A function ``k`` is a kernel (an inner product of feature vectors) only if
    every matrix ``K[i, j] = k(x_i, x_j)`` it builds is positive semi-definite,
    i.e. this number is ``≥ 0`` (Mercer's condition; Cristianini &
    Shawe-Taylor 2000, chapter 3). Rounding leaves about ``1e-13 · max|K|``.

    >>> smallest_eigenvalue(np.array([[0.0, 1.0], [1.0, 0.0]]))
    -1.0
    """
    return float(np.linalg.eigvalsh(np.asarray(K, dtype=np.float64))[0])


def svm_folded_margin(K, y, C: float, max_iter: int = 100_000) -> float:
    """The margin, with the threshold folded in as lesson 2 folds it, of the hard-margin
    SVM's separator on the Gram matrix ``K`` (Cristianini & Shawe-Taylor 2000, chapter 6);
    a number <= 0 when it does not separate the points.

    The SVM (scikit-learn's ``SVC`` on the precomputed ``K``, box constant 10⁶) finds
    ``f(x) = sum_j a_j y_j k(x_j, x) + b`` with the widest margin for a bias ``b`` kept
    apart. Folded, ``z = (phi(x), -sqrt(C))`` and ``v = (w, -b/sqrt(C))`` give
    ``<v, z> = f(x)``, so its folded margin is ``min_j y_j f(x_j) / ||v||`` with
    ``||v||² = sum_ij a_i y_i a_j y_j K_ij + b²/C``: the margin of a separator (at most the
    widest folded one), so ``(R/margin)²`` bounds the updates. On points no direction of
    the feature space separates, the solver stops at ``max_iter`` with a soft solution
    whose margin is <= 0.

    >>> X = np.array([[1.0, 0.0], [-1.0, 0.0]])
    >>> round(svm_folded_margin(X @ X.T, np.array([1, -1]), 1.0), 6)
    1.0
    """
    import warnings

    from sklearn.exceptions import ConvergenceWarning
    from sklearn.svm import SVC

    y = np.where(np.asarray(y) > 0, 1.0, -1.0)
    K = np.asarray(K, dtype=np.float64)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)  # no separator: a soft solution
        svm = SVC(kernel="precomputed", C=1e6, tol=1e-6, max_iter=max_iter).fit(K, y)
    a = np.zeros(len(y))
    a[svm.support_] = svm.dual_coef_[0]  # a_j y_j
    b = float(svm.intercept_[0])
    length = float(np.sqrt(max(a @ K @ a + b * b / C, 0.0)))
    return float((y * (K @ a + b)).min() / length) if length > 0 else 0.0


def one_vs_rest_label(scores, classes):
    """The multi-class prediction: the class whose one-vs-rest score is largest.

    ``scores[:, c]`` is the score of the problem "class c against the rest"
    (Khardon & Wachman 2007, §2.7); the first class wins a tie, as
    ``numpy.argmax`` does.

    >>> one_vs_rest_label(np.array([[-1.0, 0.5, 0.2]]), np.array([7, 8, 9]))
    array([8])
    """
    return np.asarray(classes)[np.argmax(np.asarray(scores), axis=1)]


def adaboost_vote(epsilon):
    """AdaBoost's vote ``α_t = ½ ln((1 − ε_t)/ε_t)`` of a round with weighted error ``ε_t``.

    ``ε_t`` is the share of the round's distribution ``d_t`` on the patterns
    the round's hypothesis gets wrong (Cantador & Dorronsoro 2005, §3, where
    the formula for ``α_t`` is unnumbered: they number equations (1)-(4)).
    A round at ``ε_t = 1/2`` (a coin toss) gets ``α_t = 0``.

    >>> float(adaboost_vote(0.5)), round(float(adaboost_vote(0.1)), 4)
    (0.0, 1.0986)
    """
    epsilon = np.asarray(epsilon, dtype=np.float64)
    return 0.5 * np.log((1.0 - epsilon) / epsilon)


def weighted_error(d, wrong) -> float:
    """``ε_t = Σ d_t(x)`` over the patterns the hypothesis gets wrong (``wrong`` is a mask).

    >>> weighted_error(np.array([0.5, 0.25, 0.25]), np.array([False, True, False]))
    0.25
    """
    return float(np.sum(np.asarray(d)[np.asarray(wrong, dtype=bool)]))


# --- Lessons 4-6 (course-a): the voted perceptron's guarantee, PAM/PAUM's (Li et al. 2002) ---


def voted_error_bound(mistake_bound: float, m: int) -> float:
    """Freund & Schapire's (1999) guarantee for the voted perceptron, on one data set.

    Trained in one pass over ``m`` examples drawn independently, the voted
    perceptron errs on a new example with probability at most ``2/(m + 1)``
    times the expected mistake bound on ``m + 1`` examples; this is that
    factor times ``mistake_bound`` (the bound of the set at hand, not its
    expectation over sets).

    >>> voted_error_bound(30.0, 59)
    1.0
    """
    return 2.0 * mistake_bound / (m + 1)


def pac_stretch(mistake_bound: float, epsilon: float, delta: float) -> tuple[int, int]:
    """The course notes' conversion of a mistake bound into a PAC guarantee (their section
    2.4), with its numbers: ``(q, examples)``.

    Run the learner on fresh examples drawn independently and keep the hypothesis at the
    end of the first stretch of ``q`` examples without a mistake. A hypothesis whose error
    exceeds ``epsilon`` survives ``q`` of them with probability at most
    ``(1 - epsilon)^q <= exp(-epsilon q)``; at most ``M`` mistakes (``M`` the bound rounded
    down) make at most ``M + 1`` hypotheses, so ``q = ceil(ln((M + 1)/delta)/epsilon)``
    keeps the chance that a bad one survives within ``delta``. The ``M`` mistakes cut the
    sequence into at most ``M + 1`` mistake-free stretches, so ``(M + 1) q + M`` examples
    hold one of length ``q``.

    >>> pac_stretch(9.5, 0.1, 0.05)  # ln(200)/0.1 = 52.98
    (53, 539)
    """
    M = math.floor(mistake_bound)
    q = math.ceil(math.log((M + 1) / delta) / epsilon)
    return q, (M + 1) * q + M


def class_margins(X, y, w, b) -> tuple[float, float]:
    """Li et al.'s (2002, eq. 2.2) negative and positive margins of ``f(x) = <w,x> + b``:
    ``(min over negatives of -f(x)/||w||, min over positives of f(x)/||w||)``.

    >>> X, y = np.array([[-1.0], [-3.0], [2.0]]), np.array([-1, -1, 1])
    >>> class_margins(X, y, np.array([2.0]), 0.0)  # the nearest negative counts
    (1.0, 2.0)
    """
    f = (np.asarray(X) @ np.asarray(w) + b) / np.linalg.norm(w)
    y = np.asarray(y)
    return float((-f[y < 0]).min()), float(f[y > 0].min())


def paum_update_bound(R: float, gamma: float, tau_neg: float, tau_pos: float, eta: float):
    """Li et al.'s (2002, Theorem 2.1, eq. 2.4) bound on PAUM's updates on data that a unit
    ``w_opt`` with ``|b_opt| <= R`` separates with margin ``gamma``:
    ``4((R/gamma)^2 + max(tau_pos, tau_neg)/(eta gamma^2))``.

    With both margins 0 it is Novikoff's bound for the augmented examples,
    ``4 (R/gamma)^2``:

    >>> paum_update_bound(1.0, 0.5, 0.0, 0.0, 1.0)
    16.0
    """
    return 4.0 * ((R / gamma) ** 2 + max(tau_pos, tau_neg) / (eta * gamma**2))


def paum_margin_guarantee(gamma_j: float, tau_j: float, eta: float, R: float) -> float:
    """The margin PAUM's final line keeps on class ``j`` (Li et al. 2002, Theorem 2.1,
    eq. 2.6): more than ``gamma_j tau_j / (sqrt(8) (eta R^2 + tau_j))``.

    ``gamma_j`` is a margin a reference line keeps on class ``j``, with
    ``gamma_{+1} = psi gamma_{-1}`` (:func:`paum_guarantee`). With
    ``tau_j = 0`` nothing is guaranteed beyond separation; with ``tau_j < 0`` the proof
    (their appendix A) gives no bound at all, and this is NaN: its last step divides
    ``tau_j`` by an upper bound on ``||w_t||``, a lower bound on the margin only when
    ``tau_j >= 0``.

    >>> paum_margin_guarantee(0.3, 0.0, 1.0, 1.0)
    0.0
    >>> paum_margin_guarantee(0.3, -0.5, 1.0, 1.0)
    nan
    """
    if tau_j < 0:
        return float("nan")
    return float(gamma_j * tau_j / (np.sqrt(8.0) * (eta * R**2 + tau_j)))


def paum_guarantee(X, y, w_opt, b_opt, tau_neg: float, tau_pos: float, eta: float) -> dict:
    """Both parts of Li et al.'s (2002) Theorem 2.1 for PAUM(tau_neg, tau_pos) on ``(X, y)``,
    with ``(w_opt, b_opt)`` (rescaled to unit ``w``) as the reference line.

    Returns ``R``, the reference's margin ``gamma`` and class margins, ``psi =
    (eta R^2 + tau_pos)/(eta R^2 + tau_neg)``, the ``Gamma_{-1}, Gamma_{+1} =
    psi Gamma_{-1}`` the theorem's second part uses (the largest the
    reference allows), the update bound and the two guaranteed margins.

    Li et al. state part 1, the update bound (2.4), with no sign condition on
    the margins (its proof, appendix A, uses none) and part 2, the margins
    (2.6), for margins in R+; their section 3.2 adds that negative margins leave
    the theorem valid "for small magnitudes". Their proof of part 2 needs
    ``psi``, so ``eta R^2 + tau > 0`` for both margins, and then bounds the
    margin of a class ``j`` with ``tau_j >= 0``; for a class with ``tau_j < 0``
    its guaranteed margin is NaN (:func:`paum_margin_guarantee`).

    Raises
    ------
    ValueError
        When the theorem does not apply: ``eta R^2 + tau <= 0`` for a margin, a
        reference that does not separate the data, or ``|b_opt| > R``.

    >>> X, y = np.array([[-1.0, 0.0], [1.0, 0.0]]), np.array([-1, 1])
    >>> g = paum_guarantee(X, y, np.array([1.0, 0.0]), 0.0, 0.5, 0.5, 1.0)
    >>> g["gamma"], g["updates"], round(g["margin_pos"], 4)
    (1.0, 6.0, 0.1179)
    """
    R = float(np.sqrt((np.asarray(X) ** 2).sum(axis=1).max()))
    if eta * R**2 + min(tau_neg, tau_pos) <= 0:
        raise ValueError(
            "Li et al.'s proof of Theorem 2.1 needs ηR² + τ > 0 for both margins (ψ is their "
            f"ratio); here ηR² = {eta * R**2:.4g}, tau_-1 = {tau_neg:g}, tau_+1 = {tau_pos:g}."
        )
    norm = float(np.linalg.norm(w_opt))
    w, b = np.asarray(w_opt) / norm, b_opt / norm
    neg, pos = class_margins(X, y, w, b)
    gamma = min(neg, pos)
    if gamma <= 0:
        raise ValueError(f"the reference line does not separate the data (margin {gamma:.3g}).")
    if abs(b) > R:
        raise ValueError(f"Theorem 2.1 needs |b_opt| <= R; here |b_opt| = {abs(b):.3g} > R.")
    psi = (eta * R**2 + tau_pos) / (eta * R**2 + tau_neg)
    big_neg = min(neg, pos / psi)  # the largest Gamma_-1 with psi Gamma_-1 <= pos too
    return {
        "R": R,
        "gamma": gamma,
        "margin_neg_opt": neg,
        "margin_pos_opt": pos,
        "psi": psi,
        "Gamma_neg": big_neg,
        "Gamma_pos": psi * big_neg,
        "updates": paum_update_bound(R, gamma, tau_neg, tau_pos, eta),
        "margin_neg": paum_margin_guarantee(big_neg, tau_neg, eta, R),
        "margin_pos": paum_margin_guarantee(psi * big_neg, tau_pos, eta, R),
    }
