"""The look every small chart and table of lessons 6–11 shares (not a page: no digit prefix).

The router lists only ``lessons/[0-9]*.py`` as pages.
"""

from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go


def small_chart(fig: go.Figure, height: int, xaxis: dict, yaxis: dict) -> go.Figure:
    """Give ``fig`` the lessons' chart style: white, tight margins, the legend on top.

    ``xaxis`` and ``yaxis`` are Plotly axis dicts (title, range, type, format).
    """
    fig.update_layout(
        height=height,
        template="plotly_white",
        margin={"l": 10, "r": 10, "t": 40, "b": 10},
        xaxis=xaxis,
        yaxis=yaxis,
        legend={"orientation": "h", "y": 1.02, "yanchor": "bottom", "x": 0, "font": {"size": 12}},
    )
    return fig


def one_decimal(frame: pd.DataFrame, places: int = 1):
    """``frame`` styled to show every number with one decimal (68.0 stays 68.0, not 68), or
    ``places`` of them.

    ``st.dataframe`` shows a Styler's text but keeps the numbers sortable. An
    undefined number (e.g. a flag precision when no label was flipped) shows as
    a dash: ``st.dataframe`` writes "None" for a missing number whatever the
    Styler says, so a column with one holds text instead.

    Examples
    --------
    >>> shown = one_decimal(pd.DataFrame({"a": [68.0, 1.25], "b": [float("nan"), 85.14]}))
    >>> shown.data["b"].tolist(), shown.data["a"].dtype.kind
    (['—', '85.1'], 'f')
    >>> one_decimal(pd.DataFrame({"c": [0.123456, float("nan")]}), places=4).data["c"].tolist()
    ['0.1235', '—']
    """
    frame = frame.copy()
    for name in frame.columns:
        column = frame[name]
        if pd.api.types.is_float_dtype(column) and column.isna().any():
            frame[name] = ["—" if pd.isna(v) else f"{v:.{places}f}" for v in column]
    return frame.style.format(precision=places)
