"""The data every lane is drawn over: points on 2-D data, a fixed projection otherwise.

On 2-D data the browser gets the training and test points as they are. On
more features it gets one projection plane per page, fixed for the whole
run: ``e1`` along the true target ``w*`` and ``e2`` along the part of the
final learned ``w`` orthogonal to it (without a target: the final ``w`` and
the data's main spread), and every training point's two coordinates in it
(float32: they are drawn, never computed with). A hypothesis's line in the
view is where the plane meets its hyperplane; it is the hyperplane itself
only for hypotheses that lie in the plane, such as the final one.
"""

from __future__ import annotations

import numpy as np

from perceptron_core.modes import MODES
from perceptron_lab.app_logic.payload.pack import Packer, index_dtype

MAX_PROJECTED_POINTS = 2_000


def axis_box(*arrays: np.ndarray, pad: float = 0.08) -> tuple[float, float, float, float]:
    """``(x0, x1, y0, y1)`` around all points, padded, never degenerate.

    Examples
    --------
    >>> axis_box(np.array([[0.0, 0.0], [1.0, 2.0]]), pad=0.0)
    (0.0, 1.0, 0.0, 2.0)
    """
    P = np.vstack([a for a in arrays if len(a)])
    lo, hi = P.min(axis=0), P.max(axis=0)
    span = np.maximum(hi - lo, 1e-9)
    lo, hi = lo - pad * span, hi + pad * span
    return float(lo[0]), float(hi[0]), float(lo[1]), float(hi[1])


def subsample(n: int, limit: int = MAX_PROJECTED_POINTS, seed: int = 0) -> np.ndarray:
    """At most ``limit`` row indices, chosen at random with ``seed`` (all rows if fewer).

    Examples
    --------
    >>> subsample(5).tolist(), len(subsample(10_000, seed=3))
    ([0, 1, 2, 3, 4], 2000)
    """
    if n <= limit:
        return np.arange(n)
    return np.sort(np.random.default_rng(seed).choice(n, size=limit, replace=False))


def projection_basis(w_star, w, X) -> tuple[np.ndarray, tuple[str, str], str]:
    """The plane of the high-dimensional view: rows ``e1``, ``e2``, axis titles, its name.

    With a known target: ``e1 = w*`` and ``e2`` the part of ``w`` orthogonal
    to it. Without one: ``e1 = w`` and ``e2`` the data's main direction of
    spread orthogonal to it. Degenerate cases fall back to the main spread.

    Examples
    --------
    >>> plane, titles, _ = projection_basis(np.array([1.0, 0, 0]), np.array([1.0, 1, 0]), None)
    >>> plane.tolist(), titles[0]
    ([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]], 'along w* (true target)')
    """
    known = w_star is not None and bool(np.any(w_star))
    first = w_star if known else w
    if not np.any(first):
        first = _main_direction(X, np.zeros(X.shape[1]))
    e1 = first / np.linalg.norm(first)
    rest = w - (w @ e1) * e1 if known else np.zeros_like(e1)
    if np.linalg.norm(rest) <= 1e-9 * max(np.linalg.norm(w), 1.0):
        rest = _main_direction(X, e1)
    e2 = rest / np.linalg.norm(rest)
    if known:
        return (
            np.vstack([e1, e2]),
            ("along w* (true target)", "final w, part ⟂ w*"),
            "w* and the final w",
        )
    return (
        np.vstack([e1, e2]),
        ("along the final w", "main spread of the data ⟂ w"),
        "the final w and the data's main spread",
    )


def _main_direction(X, e1) -> np.ndarray:
    """The top principal direction of ``X`` after removing the ``e1`` component."""
    Xc = X - X.mean(axis=0)
    Xc = Xc - np.outer(Xc @ e1, e1)
    _, _, Vt = np.linalg.svd(Xc[:MAX_PROJECTED_POINTS], full_matrices=False)
    v = Vt[0] - (Vt[0] @ e1) * e1
    return v if np.linalg.norm(v) > 1e-12 else np.eye(len(e1))[np.argmin(np.abs(e1))]


def _labels(packer: Packer, prefix: str, y: np.ndarray) -> str:
    return packer.add(prefix, y, np.int8)


def scene(
    data, final_w: np.ndarray | None, packer: Packer, seed: int, classes: bool = False
) -> tuple[dict, np.ndarray | None]:
    """Add the data's arrays to ``packer``; returns the JSON description and the plane.

    ``final_w`` is the first lane's final weight vector (None when it has
    none, e.g. a non-linear kernel): it fixes the projection plane on data
    with more than two features. ``classes``: a lane learns the classes together, and the
    points' classes (numbers into ``class_list``) are sent too.
    """
    meta = {
        "title": data.title,
        "feature_names": list(data.feature_names),
        "class_names": list(data.class_names),
        "n_train": len(data.X),
        "n_test": len(data.X_test),
        "n_flipped": int(data.flipped.sum()),
        "separable_margin": data.separable_margin,
        # the predictors' names, in the order of the lanes' accuracy tables
        "modes": list(MODES),
    }
    arrays = {
        "y": _labels(packer, "scene/y", data.y),
        "flipped": packer.add("scene/flipped", data.flipped, np.uint8),
    }
    class_numbers, class_numbers_test = data.class_labels()
    if classes:
        meta["class_list"] = list(data.all_classes)  # every class, as the numbers count them
        arrays["classes"] = packer.add("scene/classes", class_numbers, np.uint8)
    if data.n_features == 2:
        arrays["X"] = packer.add("scene/X", data.X, np.float64)
        arrays["X_test"] = packer.add("scene/X_test", data.X_test.reshape(-1, 2), np.float64)
        arrays["y_test"] = _labels(packer, "scene/y_test", data.y_test)
        if classes:
            arrays["classes_test"] = packer.add("scene/classes_test", class_numbers_test, np.uint8)
        target = None
        if data.w_star is not None:
            target = {"w": data.w_star.tolist(), "theta": float(data.theta_star)}
        meta |= {"view": "plane", "box": axis_box(data.X, data.X_test), "target": target}
        return meta | {"arrays": arrays}, None
    meta["view"] = "projection"
    # the math panel writes ||x|| for every learner, also one without a figure here
    arrays["sqnorm"] = packer.add("scene/sqnorm", (data.X**2).sum(axis=1), np.float64)
    if final_w is None:
        meta["view"] = "none"
        return meta | {"arrays": arrays}, None
    plane, titles, plane_name = projection_basis(data.w_star, final_w, data.X)
    P = data.X @ plane.T
    rows = subsample(len(data.X), seed=seed)
    arrays["P"] = packer.add("scene/P", P, np.float32)
    arrays["sample"] = packer.add("scene/sample", rows, index_dtype(len(data.X)))
    target = None
    if data.w_star is not None:
        target = {"w": (plane @ data.w_star).tolist(), "theta": float(data.theta_star)}
    meta |= {
        "box": axis_box(P[rows]),
        "target": target,
        "axis_titles": list(titles),
        "plane": plane_name,
        "sample_seed": seed,
        "n_drawn": len(rows),
    }
    return meta | {"arrays": arrays}, plane
