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


def one_decimal(frame: pd.DataFrame):
    """``frame`` styled to show every number with one decimal (68.0 stays 68.0, not 68).

    ``st.dataframe`` shows a Styler's text but keeps the numbers sortable; an
    undefined number (e.g. a recall without any positive) shows as a dash.
    """
    return frame.style.format(precision=1, na_rep="—")
