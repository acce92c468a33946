"""The lessons' computation questions: a number to work out from the figure on screen.

Not a page (no digit prefix). Each lesson passes the candidate answers it
computed from its live run (the right one and the slips a student is likely
to make); the options are those numbers, sorted, so the right one is not
always in the same place.
"""

from __future__ import annotations

from perceptron_lab.ui.lesson import check_question


def numeric_options(values: dict[str, float], right: str, fmt: str) -> tuple[list[str], int]:
    """The candidates written with ``fmt``, sorted by value, and the index of ``right``.

    A slip that would read the same as the right answer (or as another slip)
    is left out: on some data two formulas give the same number.

    Examples
    --------
    >>> numeric_options({"right": 4.0, "no square": 2.0, "squared twice": 16.0}, "right", ".1f")
    (['2.0', '4.0', '16.0'], 1)
    >>> numeric_options({"right": 1.0, "times": 1.0, "over": 0.5}, "right", ".1f")
    (['0.5', '1.0'], 1)
    """
    shown = {right: format(values[right], fmt)}
    for key, value in values.items():
        if format(value, fmt) not in shown.values():
            shown[key] = format(value, fmt)
    order = sorted(shown, key=values.get)
    return [shown[k] for k in order], order.index(right)


def computation_question(
    prefix: str, question: str, values: dict[str, float], right: str, fmt: str, why: str, hint: str
) -> bool | None:
    """A second check question, under the first one's heading, whose answer is a number
    computed from the run on screen (radio key ``<prefix>calc_check``)."""
    options, answer = numeric_options(values, right, fmt)
    return check_question(
        f"{prefix}calc_",
        question,
        options,
        answer=answer,
        why=why.format(answer=options[answer]),
        hints={i: hint for i in range(len(options)) if i != answer},
        heading=False,
    )
