"""The label column: which it is, its values as codes, and the classes they stand for.

Numeric labels are compared as exact numbers (:class:`~decimal.Decimal`),
never through float64: ``1`` and ``1.0`` are one class,
``100000000000000001`` and ``100000000000000000`` two.
"""

from __future__ import annotations

from decimal import MAX_PREC, Context, Decimal, InvalidOperation

import numpy as np

from ._common import DataError
from ._csv_text import quoted

_MAX_CLASSES = 100
#: Different spellings of labels read before a label column is called a measurement.
_MAX_LABEL_SPELLINGS = 1_000


def pick_label(label_column, names: list[str], has_header: bool) -> int:
    width = len(names)
    if label_column is None:
        return width - 1
    if isinstance(label_column, bool) or not isinstance(label_column, (int, np.integer, str)):
        raise DataError(
            f"label_column must be a column name or a position (0 = first); got "
            f"{quoted(label_column)}."
        )
    if isinstance(label_column, str):
        if not has_header:
            raise DataError(
                f"The file has no header row, so its columns have no names and "
                f"label_column={quoted(label_column)} cannot be found. Give the label column's "
                "position instead (0 = first, -1 = last)."
            )
        if label_column in names:
            return names.index(label_column)
        folded = [n.casefold() for n in names]
        if label_column.strip().casefold() in folded:
            return folded.index(label_column.strip().casefold())
        shown = ", ".join(quoted(n) for n in names[:20]) + (" ..." if width > 20 else "")
        raise DataError(
            f"There is no column called {quoted(label_column)}. The columns are: {shown}."
        )
    j = int(label_column)
    if not -width <= j < width:
        raise DataError(
            f"label_column={j} is outside the {width} columns (positions 0 to "
            f"{width - 1}, or -1 for the last)."
        )
    return j % width


def label_codes(labels, label_name: str) -> tuple[np.ndarray, list[str]]:
    """Per data row, its label's index into the spellings; the spellings (stripped of
    spaces) in order of appearance."""
    import pyarrow.compute as pc

    from ._csv_rows import POOL, SPACE

    stripped = pc.replace_substring_regex(labels, f"^[{SPACE}]+|[{SPACE}]+$", "", memory_pool=POOL)
    encoded = pc.dictionary_encode(stripped.combine_chunks(memory_pool=POOL), memory_pool=POOL)
    if len(encoded.dictionary) > _MAX_LABEL_SPELLINGS:
        raise DataError(
            f"The label column {quoted(label_name)} has more than "
            f"{_MAX_LABEL_SPELLINGS:,} different values; a classifier needs a few "
            f"classes (two for a binary task, at most {_MAX_CLASSES} for a multi-class "
            "one). It looks like a measurement or an identifier rather than a class; "
            "choose another label column."
        )
    return encoded.indices.to_numpy(), encoded.dictionary.to_pylist()


def _label_key(values: list[str]):
    """Exact numeric keys when every label is a finite number, else None (text labels).

    Decimals, not floats: ``100000000000000001`` and ``100000000000000000``
    are one float64 but two classes; ``1`` and ``1.0`` are one number.
    """
    try:
        nums = [Decimal(v) for v in values]
    except InvalidOperation:
        return None
    if not all(v.is_finite() for v in nums):
        return None
    return nums


#: Normalising in this context never rounds (a cell may hold more digits than the default 28).
_EXACT = Context(prec=MAX_PREC)


def _format_number(v: Decimal) -> str:
    """A label value as a class name: ``1`` for ``1.0``, ``2.5`` for ``2.50``, exactly.

    Examples
    --------
    >>> _format_number(Decimal("100000000000000001.0")), _format_number(Decimal("2.50"))
    ('100000000000000001', '2.5')
    """
    if v.adjusted() < 40 and v == v.to_integral_value():  # a whole number: all its digits
        return str(int(v))
    return str(v.normalize(_EXACT))


def encode_labels(
    spellings: list[str], codes: np.ndarray, label_name: str, task: str, positive_label
):
    """``(y, class names, labels)`` from each row's index into ``spellings``.

    Only the spellings that rows still use count (dropped rows take theirs
    with them); numeric spellings of one number (``1``, ``1.0``) are one class.
    """
    present, codes = np.unique(codes, return_inverse=True)
    spellings = [spellings[c] for c in present]
    nums = _label_key(spellings)
    if nums is not None:
        uniq = sorted(set(nums))
        index = {v: i for i, v in enumerate(uniq)}
        class_of = np.array([index[v] for v in nums], dtype=np.int64)
        names = [_format_number(v) for v in uniq]
    else:
        uniq = names = sorted(spellings)
        index = {n: i for i, n in enumerate(names)}
        class_of = np.array([index[v] for v in spellings], dtype=np.int64)
    classes = class_of[codes]
    k = len(names)
    label = quoted(label_name)
    if k < 2:
        raise DataError(
            f"The label column {label} has only one value ({quoted(names[0])}) in every "
            "row. A classifier needs examples of two classes; pick another label column or "
            "add examples of the other class."
        )
    if task == "binary" and k != 2:
        shown = ", ".join(quoted(n) for n in names[:8]) + (" ..." if k > 8 else "")
        hint = (
            " It looks like a measurement rather than a class."
            if nums is not None and k > 20
            else ""
        )
        raise DataError(
            f"The label column {label} has {k} different values ({shown}) but a binary "
            f"task needs exactly two.{hint} Choose another label column, merge the classes "
            "into two, or use a multi-class task."
        )
    if task == "multiclass" and k > _MAX_CLASSES:
        raise DataError(
            f"The label column {label} has {k} different values, more than "
            f"{_MAX_CLASSES} classes. It looks like a measurement or an identifier rather than "
            "a class; choose another label column."
        )
    if task == "multiclass":
        if positive_label is not None:
            raise DataError(
                "load_csv: positive_label applies to binary tasks only; a "
                "multi-class task numbers the classes 0, 1, 2, ..."
            )
        return classes.astype(np.int64), names, list(range(k))
    pos = 1
    if positive_label is not None:
        target = str(positive_label).strip()
        matches = [i for i, n in enumerate(names) if n == target]
        if not matches and nums is not None:
            try:
                matches = [i for i, v in enumerate(uniq) if Decimal(target) == v]
            except InvalidOperation:
                matches = []
        if not matches:
            raise DataError(
                f"positive_label={quoted(positive_label)} is not one of the two "
                f"label values {quoted(names[0])} and {quoted(names[1])}."
            )
        pos = matches[0]
    y = np.where(classes == pos, 1, -1).astype(np.int64)
    return y, [names[1 - pos], names[pos]], [-1, 1]
