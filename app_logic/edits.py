"""Points a person added, removed or changed on a 2-D training set (no Streamlit here).

The playground lets a class edit the data by clicking on the plot or in a
table. :class:`PointEdits` stores the edits *relative to the generated
data* (rows removed, rows changed, points added), not the edited table, so
it is small, hashable (part of the cached data request) and fits in the
page URL: a copied link rebuilds the same data from the same seed and
applies the same edits.

Every way of editing goes through one path: take the current points with
their origin (:meth:`PointEdits.apply`), change the arrays, and diff them
against the generated data (:meth:`PointEdits.between`), after
:func:`check_points` has accepted them.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from perceptron_core.datasets import DataError

#: Coordinates are kept to this many significant digits (the URL stays short).
DIGITS = 6
ADDED = -1  # origin of a point that is not a generated row


def _round(value: float) -> float:
    return float(f"{value:.{DIGITS}g}")


#: The most point edits one view keeps (and a link carries): a class's worth of clicks and
#: table rows; a crafted link once added about 20,000 points.
MAX_EDITS = 1_000


@dataclass(frozen=True)
class PointEdits:
    """Edits of a training set of 2-D points with labels in {-1, +1}.

    Attributes
    ----------
    removed : tuple of int
        Generated rows taken out.
    changed : tuple of (int, float, float, int)
        Generated rows with new ``(x1, x2, label)``.
    added : tuple of (float, float, int)
        New points, in the order they were added.

    Examples
    --------
    >>> X0, y0 = np.array([[0.0, 0.0], [1.0, 1.0]]), np.array([-1, 1])
    >>> edits = PointEdits(removed=(0,), added=((2.0, 0.5, -1),))
    >>> origin, X, y = edits.apply(X0, y0)
    >>> origin.tolist(), X.tolist(), y.tolist()
    ([1, -1], [[1.0, 1.0], [2.0, 0.5]], [1, -1])
    >>> PointEdits.from_text(edits.to_text()) == edits
    True
    """

    removed: tuple[int, ...] = ()
    changed: tuple[tuple[int, float, float, int], ...] = ()
    added: tuple[tuple[float, float, int], ...] = ()

    def __bool__(self) -> bool:
        return bool(self.removed or self.changed or self.added)

    def __len__(self) -> int:
        return len(self.removed) + len(self.changed) + len(self.added)

    def summary(self) -> str:
        """'3 added, 1 removed, 2 changed' (only the parts that are not zero)."""
        parts = [
            f"{len(self.added)} added" if self.added else "",
            f"{len(self.removed)} removed" if self.removed else "",
            f"{len(self.changed)} changed" if self.changed else "",
        ]
        return ", ".join(p for p in parts if p) or "no edits"

    # -- the edited points ------------------------------------------------------

    def apply(self, X0: np.ndarray, y0: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The edited points ``(origin, X, y)``: kept rows in order, then the added points.

        ``origin`` is the generated row of each point, :data:`ADDED` for a new one.

        Raises
        ------
        DataError
            When the edits name rows the data do not have (a link made for
            other data).
        """
        n = len(X0)
        rows = [i for i, *_ in self.changed] + list(self.removed)
        if any(not 0 <= i < n for i in rows):
            raise DataError(
                f"The point edits refer to rows this data set of {n:,} points does not have "
                "(a link made for other data?); they were not applied."
            )
        keep = np.setdiff1d(np.arange(n), np.asarray(self.removed, dtype=np.int64))
        X, y = X0[keep].astype(np.float64), y0[keep].astype(np.int64)
        position = {int(i): k for k, i in enumerate(keep)}
        for i, a, b, label in self.changed:
            if i in position:
                X[position[i]] = (a, b)
                y[position[i]] = label
        new = np.asarray(self.added, dtype=np.float64).reshape(-1, 3)
        origin = np.r_[keep, np.full(len(new), ADDED)]
        return origin, np.vstack([X, new[:, :2]]), np.r_[y, new[:, 2].astype(np.int64)]

    @classmethod
    def between(cls, X0, y0, origin, X, y) -> PointEdits:
        """The edits that turn the generated ``(X0, y0)`` into ``(X, y)``.

        ``origin`` gives the generated row of each point of ``X`` (:data:`ADDED`
        for new points), as :meth:`apply` returns it and the editing keeps it.
        """
        origin = np.asarray(origin, dtype=np.int64)
        kept = origin[origin != ADDED]
        removed = tuple(int(i) for i in np.setdiff1d(np.arange(len(X0)), kept))
        changed, added = [], []
        for i, (a, b), label in zip(origin.tolist(), np.asarray(X, np.float64).tolist(), y):
            point = (_round(a), _round(b), int(label))
            if i == ADDED:
                added.append(point)
            elif point != (_round(X0[i, 0]), _round(X0[i, 1]), int(y0[i])):
                changed.append((i, *point))
        return cls(removed, tuple(sorted(changed)), tuple(added))

    # -- the URL form -----------------------------------------------------------

    def to_text(self) -> str:
        """A compact text for the URL: ``-4~=7,0.5,1.2,1~+0.3,-2,-1`` (remove, change, add)."""
        items = [f"-{i}" for i in self.removed]
        items += [f"={i},{a:.{DIGITS}g},{b:.{DIGITS}g},{label}" for i, a, b, label in self.changed]
        items += [f"+{a:.{DIGITS}g},{b:.{DIGITS}g},{label}" for a, b, label in self.added]
        return "~".join(items)

    @classmethod
    def from_text(cls, text: str) -> PointEdits:
        """Read :meth:`to_text`'s form; ValueError when it is not that."""
        removed, changed, added = [], [], []
        items = text.split("~")
        if len(items) > MAX_EDITS:
            raise ValueError(
                f"a link may carry at most {MAX_EDITS:,} point edits, not {len(items):,}"
            )
        for item in filter(None, items):
            kind, fields = item[0], item[1:].split(",")
            if kind == "-" and len(fields) == 1:
                removed.append(int(fields[0]))
            elif kind == "=" and len(fields) == 4:
                changed.append((int(fields[0]), *map(float, fields[1:3]), _label(fields[3])))
            elif kind == "+" and len(fields) == 3:
                added.append((*map(float, fields[:2]), _label(fields[2])))
            else:
                raise ValueError(f"not a point edit: {item!r}")
        points = [p[1:3] for p in changed] + [p[:2] for p in added]
        if not np.isfinite(np.asarray(points, dtype=np.float64)).all():
            raise ValueError("a point edit is not a finite number")
        return cls(tuple(sorted(set(removed))), tuple(sorted(changed)), tuple(added))


def _label(text: str) -> int:
    label = int(text)
    if label not in (-1, 1):
        raise ValueError(f"label {label} is not -1 or +1")
    return label


def check_points(X: np.ndarray, y: np.ndarray) -> None:
    """Refuse an edited table the learners cannot train on, with a message for a person.

    Raises
    ------
    DataError
        For an empty coordinate or label, a label other than -1 and +1, or
        only one class left.
    """
    X, y = np.asarray(X, dtype=np.float64), np.asarray(y, dtype=np.float64)
    for name, column in (("x1", X[:, 0]), ("x2", X[:, 1]), ("label", y)):
        bad = np.flatnonzero(~np.isfinite(column))
        if len(bad):
            raise DataError(
                f"Row {bad[0] + 1} has no number in {name}; every point needs x1, x2 and a label."
            )
    wrong = np.flatnonzero(~np.isin(y, (-1, 1)))
    if len(wrong):
        raise DataError(
            f"Row {wrong[0] + 1} has the label {y[wrong[0]]:g}; a label is −1 or +1 "
            "(the perceptron separates two classes)."
        )
    if len(np.unique(y)) < 2:
        raise DataError("The points must keep both classes; a learner needs a −1 and a +1.")


# -- changes: functions (origin, X, y) -> (origin, X, y), as PointEdits.apply returns -------


def add_point(point, label: int):
    """The change that appends ``point`` with ``label``."""

    def change(origin, X, y):
        return np.r_[origin, ADDED], np.vstack([X, point]), np.r_[y, label]

    return change


def remove_near(point, reach: float):
    """The change that removes the point nearest ``point``, if one is within ``reach``."""

    def change(origin, X, y):
        distance = np.hypot(*(X - np.asarray(point, dtype=np.float64)).T)
        k = int(np.argmin(distance))
        if distance[k] > reach:
            raise DataError("There is no point near the click to remove.")
        keep = np.arange(len(X)) != k
        return origin[keep], X[keep], y[keep]

    return change


def table_delta(delta: dict, columns=("x1", "x2", "label")):
    """The change a table editor's delta describes (Streamlit's ``st.data_editor`` state).

    ``delta`` has ``edited_rows`` ({row: {column: value}}), ``added_rows``
    ([{column: value}]) and ``deleted_rows`` ([row]); an empty cell becomes
    NaN, for :func:`check_points` to refuse.
    """

    def change(origin, X, y):
        T = np.c_[X, y].astype(np.float64)
        for row, cells in delta.get("edited_rows", {}).items():
            for column, value in cells.items():
                T[int(row), columns.index(column)] = np.nan if value is None else value
        added = [
            [np.nan if row.get(c) is None else row[c] for c in columns]
            for row in delta.get("added_rows", [])
        ]
        keep = np.setdiff1d(np.arange(len(T)), delta.get("deleted_rows", []))
        T = np.vstack([T[keep], np.asarray(added, dtype=np.float64).reshape(-1, 3)])
        return np.r_[origin[keep], np.full(len(added), ADDED)], T[:, :2], T[:, 2]

    return change


def edited(edits: PointEdits, X0, y0, change) -> PointEdits:
    """``edits`` followed by ``change``, checked: the new edits of the generated ``(X0, y0)``.

    Raises
    ------
    DataError
        When the change is impossible or leaves points no learner can use
        (see :func:`check_points`).
    """
    origin, X, y = change(*edits.apply(X0, y0))
    check_points(X, y)
    new = PointEdits.between(X0, y0, origin, X, y)
    if len(new) > MAX_EDITS:
        raise DataError(
            f"A view keeps at most {MAX_EDITS:,} point edits (added, changed or removed points); "
            f"this would make {len(new):,}. Reset the edits, or download the points as CSV and "
            "upload them as a file."
        )
    return new
