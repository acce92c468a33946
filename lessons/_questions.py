"""The lessons' computation questions: a number to work out from the figure on screen.

Not a page (no digit prefix). Each lesson passes the candidate answers it
computed from its live run: the right one and the slips a student is likely
to make, each slip with its own hint. The options are those numbers in an
order drawn from the page's seed, so the right one is not always in the same
place, and a slip that would read the same as the right answer (or as an
earlier slip) is left out, so exactly one option is right.
"""

from __future__ import annotations

import zlib

import numpy as np

from perceptron_lab.ui.lesson import check_question

#: At most this many options: the right one and the first slips that read differently.
MAX_OPTIONS = 4


def numeric_options(
    values: dict[str, float], right: str, fmt: str, seed: int, prefix: str = ""
) -> tuple[list[str], int, list[str]]:
    """The candidates written with ``fmt``, in an order drawn from ``seed`` and ``prefix``,
    the index of ``right`` and the key of each option.

    A slip that reads the same as the right answer or as an earlier slip is left
    out (on some data two formulas give the same number); at most
    :data:`MAX_OPTIONS` are kept, in the order ``values`` lists them.

    Examples
    --------
    >>> options, right, keys = numeric_options(
    ...     {"right": 4.0, "no square": 2.0, "squared twice": 16.0}, "right", ".1f", seed=0)
    >>> sorted(options), options[right], keys[right]
    (['16.0', '2.0', '4.0'], '4.0', 'right')
    >>> sorted(numeric_options({"right": 1.0, "times": 1.0, "over": 0.5}, "right", ".1f", 0)[0])
    ['0.5', '1.0']
    """
    shown = {right: format(values[right], fmt)}
    for key, value in values.items():
        if len(shown) < MAX_OPTIONS and format(value, fmt) not in shown.values():
            shown[key] = format(value, fmt)
    keys = list(shown)
    # the same order for the same page and seed; another seed, most likely another order
    rng = np.random.default_rng([seed, zlib.crc32(prefix.encode())])
    keys = [keys[i] for i in rng.permutation(len(keys))]
    return [shown[k] for k in keys], keys.index(right), keys


def computation_question(
    prefix: str,
    question: str,
    values: dict[str, float],
    right: str,
    fmt: str,
    why: str,
    hints: str | dict[str, str],
    seed: int,
    heading: bool = False,
) -> bool | None:
    """A check question whose answer is a number computed from the run on screen (radio key
    ``<prefix>check``; a lesson's second question passes ``"<lesson prefix>calc_"``).

    ``hints`` is one hint for every slip, or one per key of ``values``; ``why`` may
    contain ``{answer}``, the right option as shown.
    """
    options, answer, keys = numeric_options(values, right, fmt, seed, prefix)
    return check_question(
        prefix,
        question,
        options,
        answer=answer,
        why=why.format(answer=options[answer]),
        hints={
            i: hints if isinstance(hints, str) else hints[key]
            for i, key in enumerate(keys)
            if i != answer
        },
        heading=heading,
    )
