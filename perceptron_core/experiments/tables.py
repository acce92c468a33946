"""A result table as records, and its Markdown, CSV and JSON forms.

A :class:`Table` is a list of **records**, one per cell of the printed table,
each a flat dict holding its row labels, its column label and its values
(``accuracy`` in percent, and ``interval`` — the half-width of the 95 %
t-interval, in percent — where there is one). The JSON file is exactly that
list; the CSV file has one line per record; the Markdown table pivots the
records into rows (``row_fields``) and columns (``column_field``).

Examples
--------
>>> t = Table("demo", [
...     {"noise": 0.0, "mode": "last", "column": "tau", "accuracy": 95.0},
...     {"noise": 0.0, "mode": "last", "column": "lam", "accuracy": 93.5, "interval": 1.2}],
...     row_fields=("noise", "mode"), column_field="column")
>>> print(t.to_markdown())
### demo
<BLANKLINE>
| noise | mode | tau | lam |
| --- | --- | --- | --- |
| 0 | last | 95.0 | 93.5 ± 1.2 |
"""

from __future__ import annotations

import csv
import io
import json
import math
from dataclasses import dataclass, field
from pathlib import Path


def _label(value) -> str:
    if isinstance(value, float):
        return f"{value:g}"
    return "∞" if value is None else str(value)


def grouped_cells(datasets, group_by: tuple, modes, columns):
    """The cells of a table over data sets: ``(row_fields, cells)``, each cell
    ``(record, members, mode, column)`` for one row group, mode and column, in table order.

    ``group_by`` names data set tags (e.g. ``("noise",)``): a row group is the data sets
    sharing those tags, and ``record`` starts with them. Without it each data set is a row,
    labelled ``dataset``. ``members`` are the group's data set indices.

    Examples
    --------
    >>> from types import SimpleNamespace as D
    >>> sets = [D(label="a", tags={"noise": 0.0}), D(label="b", tags={"noise": 0.0})]
    >>> fields, cells = grouped_cells(sets, ("noise",), ("last",), ("tau", "lam"))
    >>> fields, [(r, m, c) for r, m, _, c in cells]
    (('noise',), [({'noise': 0.0}, [0, 1], 'tau'), ({'noise': 0.0}, [0, 1], 'lam')])
    """
    groups: dict = {}
    for d, ds in enumerate(datasets):
        key = tuple(ds.tags.get(g) for g in group_by) if group_by else (ds.label,)
        groups.setdefault(key, []).append(d)
    fields = tuple(group_by) if group_by else ("dataset",)
    cells = [
        (dict(zip(fields, key)), members, mode, column)
        for key, members in groups.items()
        for mode in modes
        for column in columns
    ]
    return fields, cells


@dataclass
class Table:
    """Records of one table and how to lay them out.

    Attributes
    ----------
    title : str
    records : list of dict
    row_fields : tuple of str
        Record fields that label a row, in order.
    column_field : str
        The record field that labels a column.
    value_field : str, default "accuracy"
        What a cell shows.
    spread_field : str, default "interval"
        Shown after the value as ``± spread`` when the record has it.
    notes : list of str
        Printed under the Markdown table (assumptions, settings, timing).
    """

    title: str
    records: list
    row_fields: tuple
    column_field: str
    value_field: str = "accuracy"
    spread_field: str = "interval"
    notes: list = field(default_factory=list)
    digits: int = 1

    def cell_text(self, record) -> str:
        """What the Markdown table shows for one record: value, and ± spread if any."""
        value = record.get(self.value_field)
        if value is None or (isinstance(value, float) and math.isnan(value)):
            return "–"
        text = f"{value:.{self.digits}f}" if isinstance(value, float) else str(value)
        half = record.get(self.spread_field)
        if half is not None and not (isinstance(half, float) and math.isnan(half)):
            text += f" ± {half:.{self.digits}f}"
        return text

    def to_markdown(self) -> str:
        columns = list(dict.fromkeys(r[self.column_field] for r in self.records))
        rows: dict = {}
        for r in self.records:
            key = tuple(r[f] for f in self.row_fields)
            rows.setdefault(key, {})[r[self.column_field]] = self.cell_text(r)
        header = list(self.row_fields) + [_label(c) for c in columns]
        lines = [
            f"### {self.title}",
            "",
            "| " + " | ".join(header) + " |",
            "| " + " | ".join("---" for _ in header) + " |",
        ]
        for key, cells in rows.items():
            lines.append(
                "| "
                + " | ".join([_label(k) for k in key] + [cells.get(c, "") for c in columns])
                + " |"
            )
        if self.notes:
            lines += [""] + [f"- {n}" for n in self.notes]
        return "\n".join(lines)

    def to_json(self) -> str:
        return json.dumps(self.records, indent=1, allow_nan=False, default=_json_default)

    def to_csv(self) -> str:
        fields = list(dict.fromkeys(k for r in self.records for k in r))
        out = io.StringIO()
        writer = csv.DictWriter(out, fieldnames=fields, lineterminator="\n")
        writer.writeheader()
        for r in self.records:
            writer.writerow({k: ("" if v is None else v) for k, v in r.items()})
        return out.getvalue()

    def write(self, markdown=None, csv_path=None, json_path=None) -> None:
        """Write the forms whose paths are given."""
        for path, text in (
            (markdown, self.to_markdown),
            (csv_path, self.to_csv),
            (json_path, self.to_json),
        ):
            if path is not None:
                Path(path).write_text(
                    text() + ("\n" if path == markdown else ""), encoding="utf-8"
                )


def _json_default(value):
    if hasattr(value, "item"):  # NumPy scalars
        return value.item()
    raise TypeError(f"{type(value).__name__} is not JSON serialisable")


def clean(value):
    """NaN (no interval) becomes None, so that JSON stays valid."""
    if isinstance(value, float) and math.isnan(value):
        return None
    return value
