"""The pages' Plotly charts with a text alternative: what a chart shows, and its numbers.

A reader who cannot see a chart (a screen reader reads only its tick labels and
legend) gets the same information from the two parts :func:`chart` adds under
every chart (WCAG 1.1.1): a caption that says what is plotted against what, per
series with its first and last values (:func:`describe`), and a folded table
"The numbers" with every plotted value (:func:`numbers`). Both are read from the
figure itself, so they cannot drift from what is drawn. A button under the caption plays
the chart as sound, and the chart itself takes the focus and walks its points by arrow
keys (``ui/pages.js``). Plotly's toolbar is left
out: its buttons were a dozen Tab stops per chart, and the toolbar Streamlit puts
over every chart keeps the full-screen view.

The lessons and the experiments page draw every chart through :func:`chart`;
``tests/test_accessibility.py`` fails on an ``st.plotly_chart`` anywhere else.
"""

from __future__ import annotations

import html
import math

import pandas as pd
import streamlit as st

#: Plotly's options for the pages' charts: no toolbar (see the module's docstring).
CHART_CONFIG = {"displayModeBar": False, "displaylogo": False}


def chart(fig, key: str | None = None, where=None) -> None:
    """Draw ``fig`` with its caption and its folded table of numbers.

    Parameters
    ----------
    fig : plotly.graph_objects.Figure
    key : str, optional
        The chart's widget key (two charts of one figure on a page need two).
    where : Streamlit container, optional
        Where to draw (a column, a container); the page's main area by default.
    """
    where = st if where is None else where
    where.plotly_chart(fig, width="stretch", config=CHART_CONFIG, key=key)
    caption = describe(fig)
    where.caption(caption)
    where.html(play_button(caption))
    with where.expander("The numbers"):
        # an HTML table, which a screen reader reads row by row (Streamlit's data grid is a
        # canvas that takes one Tab stop per cell)
        st.table(numbers(fig), hide_index=True)


def play_button(caption: str) -> str:
    """The button under a chart that plays it as sound (``ui/pages.js`` plays the chart before
    it), named by the caption's first sentence.

    Examples
    --------
    >>> print(play_button("Chart of count against epoch. mistakes: from 9 at 1 to 2 at 3."))
    <button type="button" class="pl-play-chart" aria-label="Play as sound: Chart of count
    against epoch">Play as sound</button>
    """
    name = html.escape(caption.split(". ")[0].rstrip("."), quote=True)
    return (
        f'<button type="button" class="pl-play-chart" aria-label="Play as sound: {name}">'
        "Play as sound</button>"
    )


def _axis(fig, name: str | None):
    """The layout's axis ``x``, ``y``, ``y2`` ... (Plotly calls the second ``yaxis2``)."""
    name = name or "y"
    return fig.layout[f"{name[0]}axis{name[1:]}"]


def _title(axis, default: str) -> str:
    return str(axis.title.text) if axis.title.text else default


def _text(value, tickformat: str = "") -> str:
    """A plotted value as the chart's reader sees it: 4 significant digits, or a percentage
    on a percentage axis.

    Examples
    --------
    >>> _text(0.12345), _text(0.8512, ".0%"), _text(12.0), _text(63203.4), _text(None)
    ('0.1235', '85.1%', '12', '63,203', '')
    """
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    if not isinstance(value, int | float):
        return str(value)
    if tickformat.endswith("%"):
        return f"{value:.1%}"
    return f"{value:,.0f}" if abs(value) >= 10_000 else f"{value:.4g}"


def _ticked(axis):
    """``value -> label`` for an axis whose ticks are named (rows of a chart), else None."""
    values, labels = axis.tickvals, axis.ticktext
    if values is None or labels is None or len(values) == 0:
        return None
    return lambda v: str(labels[min(range(len(values)), key=lambda i: abs(values[i] - v))])


def _values(raw, axis=None) -> list[str]:
    """Plotted values as text: a series' coordinates along ``axis`` (the tick's name on a
    named axis), or a heat map's values (no axis)."""
    raw = [] if raw is None else [v.item() if hasattr(v, "item") else v for v in raw]
    named = None if axis is None else _ticked(axis)
    if named is not None:
        return [named(v) for v in raw]
    return [_text(v, "" if axis is None else axis.tickformat or "") for v in raw]


def numbers(fig) -> pd.DataFrame:
    """Every value ``fig`` plots, as a table of text: what "The numbers" shows.

    Series drawn over the same x values share the rows: one row per x, one column per
    series. Otherwise a row per point (:func:`points`). A heat map gives its grid: one row
    per y value, one column per x value.

    Examples
    --------
    >>> import plotly.graph_objects as go
    >>> fig = go.Figure(go.Scatter(x=[1, 2], y=[0.5, 0.25], name="error"))
    >>> fig = fig.add_scatter(x=[1, 2], y=[4, 2], name="mistakes")
    >>> numbers(fig.update_layout(xaxis_title="epoch")).values.tolist()
    [['1', '0.5', '4'], ['2', '0.25', '2']]
    >>> heat = go.Figure(go.Heatmap(z=[[1, 2], [3, 4]], x=["a", "b"], y=["p", "q"]))
    >>> numbers(heat).values.tolist()
    [['p', '1', '2'], ['q', '3', '4']]
    """
    traces = fig.data
    if traces and traces[0].type == "heatmap":
        heat = traces[0]
        table = {_title(_axis(fig, "y"), "y"): _values(heat.y, _axis(fig, "y"))}
        for j, column in enumerate(_values(heat.x, _axis(fig, "x"))):
            table[column] = _values([row[j] for row in heat.z])
        return pd.DataFrame(table)
    long = points(fig)
    x_name = _title(_axis(fig, "x"), "x")
    groups = [part for _, part in long.groupby("series", sort=False)]
    names = [part["series"].iloc[0] for part in groups]
    same_x = all(part[x_name].tolist() == groups[0][x_name].tolist() for part in groups)
    if not same_x or "" in names or len(set(names)) < len(names) or "± (error bar)" in long:
        return long
    if "axis" in long:  # series on two y axes: each column says its axis
        names = [f"{name} ({part['axis'].iloc[0]})" for name, part in zip(names, groups)]
    wide = {x_name: groups[0][x_name].tolist()}
    for name, part in zip(names, groups, strict=True):
        wide[name] = part.iloc[:, -1].tolist()
    return pd.DataFrame(wide)


def points(fig) -> pd.DataFrame:
    """Every point of ``fig``'s series, a row each: series, x, y (and the y axis when the
    series use two, and the error bar's half-width when one has one). On a chart whose rows
    are named ticks, y is the tick's name instead of the number the dot sits at.

    Examples
    --------
    >>> import plotly.graph_objects as go
    >>> fig = go.Figure(go.Scatter(x=[1, 2], y=[0.5, 0.25], name="error"))
    >>> points(fig.update_layout(xaxis_title="epoch", yaxis_title="test error")).values.tolist()
    [['error', '1', '0.5'], ['error', '2', '0.25']]
    """
    traces = fig.data
    x_axis = _axis(fig, "x")
    x_name = _title(x_axis, "x")
    shared = {trace.yaxis or "y" for trace in traces} == {"y"}
    value = _title(_axis(fig, "y"), "y") if shared else "value"
    frames = []
    for trace in traces:
        y_axis = _axis(fig, trace.yaxis)
        part = pd.DataFrame(
            {
                "series": trace.name or "",
                x_name: _values(trace.x, x_axis),
                value: _values(trace.y, y_axis),
            }
        )
        if not shared:
            part.insert(2, "axis", _title(y_axis, "y"))
        if trace.error_x.value:
            part["± (error bar)"] = _text(trace.error_x.value, x_axis.tickformat or "")
        frames.append(part)
    return pd.concat(frames, ignore_index=True).fillna("")


#: The caption's last sentence: where the numbers are.
TABLE_NOTE = 'Every value is in the table "The numbers" below.'


def describe(fig) -> str:
    """A few sentences saying what ``fig`` plots, with each series' first and last values:
    the chart's caption.

    Examples
    --------
    >>> import plotly.graph_objects as go
    >>> fig = go.Figure(go.Scatter(x=[1, 2, 3], y=[9, 4, 2], name="mistakes"))
    >>> print(describe(fig.update_layout(xaxis_title="epoch", yaxis_title="count")))
    Chart of count against epoch. mistakes: from 9 at 1 to 2 at 3. Every value is in the table
    "The numbers" below.
    """
    x_name, y_name = _title(_axis(fig, "x"), "x"), _title(_axis(fig, "y"), "y")
    heading = fig.layout.title.text
    named = f" “{heading}”" if heading else ""
    if fig.data and fig.data[0].type == "heatmap":
        return f"Heat map{named} of a value for each {y_name} and {x_name}. {TABLE_NOTE}"
    table = points(fig)
    value = "value" if "axis" in table else table.columns[2]
    if _ticked(_axis(fig, "y")) is None:
        parts = [f"Chart{named} of {y_name} against {x_name}."]
        for name, part in table.groupby("series", sort=False):
            (x0, y0), (x1, y1) = part[[x_name, value]].values[[0, -1]]
            span = f"{y0} at {x0}" if len(part) == 1 else f"from {y0} at {x0} to {y1} at {x1}"
            parts.append(f"{name or 'the series'}: {span}.")
    else:  # rows named on the y axis: the values lie along x
        parts = [f"Chart{named} of {x_name}, in rows: {'; '.join(table[value].unique())}."]
        for name, part in table.groupby("series", sort=False):
            if part[x_name].nunique() == 1:  # one value (a mark, or a line across the rows)
                groups = [(part[value].iloc[0], part[:1])]
            else:
                groups = list(part.groupby(value, sort=False))
            for row, sub in groups:
                # a series named as its row is the row; one in several rows names both
                label = f"{name}, {row}" if name and len(groups) > 1 else name or row
                error = sub["± (error bar)"].iloc[0] if "± (error bar)" in sub else ""
                spread = f" ± {error}" if error else ""
                span = _span(sub[x_name].tolist()) + spread
                parts.append(f"{label}." if label.endswith(span) else f"{label}: {span}.")
    return " ".join([*parts, TABLE_NOTE])


def _span(values: list[str]) -> str:
    """How many values a row of a chart has, and their range.

    Examples
    --------
    >>> _span(["85.1%", "80%", "91.2%"])
    '3 values from 80% to 91.2%'
    >>> _span(["0.5"])
    '0.5'
    """
    ordered = sorted((v for v in values if v), key=lambda text: float(text.rstrip("%")))
    if not ordered:
        return "no values"
    if len(ordered) == 1:
        return ordered[0]
    return f"{len(ordered)} values from {ordered[0]} to {ordered[-1]}"
