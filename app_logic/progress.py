"""Reporting how far a long computation has got, to whoever shows it (a page's progress bar).

A computation that takes seconds (a lesson's study) takes a ``progress``
function and calls ``progress(share, text)``: ``share`` in [0, 1] is the
part done, ``text`` says what it is doing now. :func:`quietly` is the
function to pass when nobody watches; :func:`folds` turns one stretch of the
share into the ``progress(done, total)`` callback that
:class:`perceptron_core.experiments.RunOptions` calls after each fold.
"""

from __future__ import annotations

from collections.abc import Callable

#: ``progress(share, text)``: the share done (0 to 1) and what is being computed.
Progress = Callable[[float, str], object]


def quietly(share: float, text: str) -> None:
    """A :data:`Progress` that shows nothing.

    Examples
    --------
    >>> quietly(0.5, "half way")
    """


def folds(progress: Progress, start: float, end: float, text: str) -> Callable[[int, int], None]:
    """A ``(done, total)`` fold counter that reports the stretch ``start``..``end`` of the share.

    Examples
    --------
    >>> seen = []
    >>> count = folds(lambda share, text: seen.append((share, text)), 0.5, 1.0, "searching")
    >>> count(0, 4), count(2, 4)
    (None, None)
    >>> seen
    [(0.5, 'searching: 0 of 4 folds'), (0.75, 'searching: 2 of 4 folds')]
    """

    def count(done: int, total: int) -> None:
        progress(start + (end - start) * done / max(total, 1), f"{text}: {done} of {total} folds")

    return count
