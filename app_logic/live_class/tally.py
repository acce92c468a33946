"""A class's answers counted into a histogram: the "where" marks of a replay's question, one
per coordinate, and the numbers typed for a lesson's exercise.

Only counts leave here: the teacher's page draws the bars, and nothing says who answered what.
"""

from __future__ import annotations

#: A histogram's bins between its two ends.
BINS = 10


def histogram(values: list[float], low: float, high: float) -> dict:
    """``values`` in :data:`BINS` equal bins from ``low`` to ``high`` (``high`` itself in the
    last), and how many fell below and above.

    Examples
    --------
    >>> histogram([0.05, 0.5, 1.0, 1.5], 0.0, 1.0)["counts"], histogram([-1, 2], 0, 1)["above"]
    ([1, 0, 0, 0, 0, 1, 0, 0, 0, 1], 1)
    """
    counts, below, above = [0] * BINS, 0, 0
    width = (high - low) / BINS
    for value in values:
        if value < low:
            below += 1
        elif value > high:
            above += 1
        else:
            counts[min(BINS - 1, int((value - low) / width))] += 1
    return {"low": low, "high": high, "counts": counts, "below": below, "above": above}
