"""What the replay sounds and says, computed in Python from a run: the numbers the browser tests
check the sounds it scheduled (``ui/playback/sound.js``'s ``scheduled``, filled by
``runsound.js``) and the figure's walk by arrow keys (``figurekeys.js``) against.

The replay's scale, as ``runsound.js`` defines it: a step's tone is at
``440 · 2^u`` Hz, ``u = y · score / S`` clipped to [−1, 1], where the score is the one the
narration says (the KW family's ``s − θ``) and ``S``, for a line of the KW family, the largest
``|⟨w, x⟩ − θ|`` over the training points for the hypothesis that scored the example (for
other learners the 95th percentile of the run's |score|, the sorted value at
⌊0.95 (n − 1)⌋); a walked point's tone is ``y · score`` over the largest |score| of the
points at the step; an update knocks at 110 Hz; an update that turns the
line by ``d`` degrees glides from 440 Hz to ``440 · 2^(2 · d / 180)`` (d clipped to ±180); a
finished epoch with error rate ``r`` sounds at ``440 · 2^(4r − 1)`` (clipped), 220 Hz without
errors, 880 Hz at half the examples wrong.
"""

from __future__ import annotations

import math

import numpy as np

MIDDLE_HZ = 440.0
KNOCK_HZ = 110.0
UPDATE_KINDS = (1, 2)  # MISTAKE, MARGIN (perceptron_core/trace.py)


def pitch(u: float, octaves: float = 1.0) -> float:
    """The tone of u in [−1, 1] (clipped), in Hz.

    Examples
    --------
    >>> pitch(0), pitch(1), pitch(-3), pitch(0.5, 2)
    (440.0, 880.0, 220.0, 880.0)
    """
    return MIDDLE_HZ * 2 ** (octaves * min(1.0, max(-1.0, u)))


def narrated_scores(run, has_modes: bool) -> np.ndarray:
    """Each event's score as the narration says it (member 0): the KW family's ``s − θ``,
    with θ of the hypothesis that scored the event."""
    tl = run.timeline
    scores = np.asarray(tl.score[0], dtype=np.float64).copy()
    if has_modes:
        scores -= tl.theta[0, tl.before]
    return scores


def scale(scores: np.ndarray, q: float = 0.95) -> float:
    """The run's scale S (see the module's docstring).

    Examples
    --------
    >>> scale(np.array([-4.0, 1, 2, 3])), scale(np.zeros(3))
    (3.0, 1.0)
    """
    if not len(scores):
        return 1.0
    value = float(np.sort(np.abs(scores))[math.floor(q * (len(scores) - 1))])
    return value or 1.0


def turn_degrees(a, b) -> float:
    """The angle from vector ``a`` to ``b`` in degrees, anticlockwise positive.

    Examples
    --------
    >>> round(turn_degrees((1, 0), (0, 1)), 6), round(turn_degrees((1, 0), (1, -1)), 6)
    (90.0, -45.0)
    """
    return math.degrees(math.atan2(a[0] * b[1] - a[1] * b[0], a[0] * b[0] + a[1] * b[1]))


def spread(run, X: np.ndarray, row: int) -> float:
    """The largest |⟨w, x⟩ − θ| over the points ``X`` for hypothesis ``row`` (1 when 0)."""
    w, theta = run.timeline.W[0, row], run.timeline.theta[0, row]
    return float(np.max(np.abs(X[:, 0] * w[0] + X[:, 1] * w[1] - theta))) or 1.0


def move_sounds(run, data, t: int, has_modes: bool) -> list[tuple]:
    """The sounds of a move to step ``t`` of a single line in the plane: ``(kind, hz, to)`` for
    the step's tone, the update's knock and the line's glide."""
    tl = run.timeline
    if t == 0:
        return []
    i = t - 1
    scores = narrated_scores(run, has_modes)
    S = spread(run, data.X, int(tl.before[i])) if has_modes else scale(scores)
    u = data.y[tl.index[i]] * scores[i] / S
    sounds = [("step", pitch(u), None)]
    if not np.isin(tl.kind[:, i], UPDATE_KINDS).any():
        return sounds
    sounds.append(("update", KNOCK_HZ, None))
    before, after = tl.W[0, tl.before[i]], tl.W[0, tl.after[i]]
    if np.any(before) and np.any(after):
        degrees = turn_degrees(before, after)
        if abs(degrees) >= 1:
            sounds.append(("turn", MIDDLE_HZ, pitch(degrees / 180, 2)))
    return sounds


def epoch_pitch(rate: float) -> float:
    """A finished epoch's tone for its error rate."""
    return pitch(2 * rate / 0.5 - 1)


def nearest_toward(X: np.ndarray, start: int, dx: float, dy: float) -> int:
    """The walk's next point: the nearest to ``start`` within 45° of (dx, dy), or −1."""
    best, far = -1, math.inf
    for j, (x, y) in enumerate(X):
        ax, ay = x - X[start, 0], y - X[start, 1]
        along, across = ax * dx + ay * dy, abs(ax * dy - ay * dx)
        if j == start or along <= 0 or across > along:
            continue
        if math.hypot(ax, ay) < far:
            best, far = j, math.hypot(ax, ay)
    return best


def number(x: float, digits: int = 3) -> str:
    """A number as the replay writes it (Python's g format, a real minus sign)."""
    return f"{0.0 if abs(x) < 1e-12 else x:.{digits}g}".replace("-", "−")


def point_words(data, scores: np.ndarray, j: int, current: int | None) -> str:
    """What the walk says of point ``j`` (``scores``: the figure's scores at the step)."""
    label = "+1" if data.y[j] > 0 else "−1"
    flipped = " (flipped by noise)" if data.flipped[j] else ""
    side = "right" if (1 if scores[j] > 0 else -1) == data.y[j] else "wrong"
    now = ", the current example" if j == current else ""
    return (
        f"Point {j + 1} of {len(data.y)}, label {label}{flipped}, at "
        f"({number(data.X[j, 0])}, {number(data.X[j, 1])}), score {number(scores[j])}, "
        f"on the {side} side{now}."
    )
