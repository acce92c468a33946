"""The replay's colours against WCAG 2.1's contrast minimums, computed from the style values.

Text at 4.5:1 or more (1.4.3), marks, outlines and the focus ring at 3:1 (1.4.11), in the
app's look (:data:`STYLE`), the projector's (:data:`PRESENT`) and the component's CSS
(``ui/playback/style.css``'s ``:root`` colours), so a colour changed later that fails is
caught here. The figure's marks sit on white or on the decision region's tints, which run
from white at the boundary to the scale's end colours. Also the words the live region says.
"""

from __future__ import annotations

import re

import pytest

from perceptron_lab.app_logic.math_panel import OUTCOME, SPOKEN
from perceptron_lab.app_logic.style import PRESENT, STYLE
from tests.chromium import PLAYBACK

TEXT, MARK = 4.5, 3.0


def luminance(color: str) -> float:
    """WCAG 2.1's relative luminance of a ``#rrggbb`` colour.

    Examples
    --------
    >>> luminance("#ffffff"), luminance("#000000")
    (1.0, 0.0)
    """
    channels = [int(color.lstrip("#")[i : i + 2], 16) / 255 for i in (0, 2, 4)]
    r, g, b = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    """WCAG 2.1's contrast ratio of two colours, from 1 to 21.

    Examples
    --------
    >>> round(contrast("#ffffff", "#000000"), 1), contrast("#777777", "#777777")
    (21.0, 1.0)
    """
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def backgrounds(style: dict) -> list[str]:
    """What the figure's marks sit on: white, and the region's deepest tint on either side."""
    scale = style["colors"]["region"]
    return ["#ffffff", scale[0][1], scale[-1][1]]


STYLES = pytest.mark.parametrize("style", [STYLE, PRESENT], ids=["app", "presentation"])


@STYLES
@pytest.mark.parametrize(
    "mark",
    [
        "negative",  # the −1 circles' fill
        "positive_edge",  # the +1 diamonds' edge (their orange is pale)
        "current_edge",  # the current example's halo
        "band_edge",  # the margin band's edges
        "line",  # the boundary, the members, w
        "old",  # the old w's arrow
        "capped",  # points that used up their α-bound
        "positive_hollow",  # the +1 test points' hollow diamonds
        "averaged",  # the averaged line (cased in white, and 3:1 without its casing too)
        "longest",  # the longest survivor's line
        "rings",  # the λ-trick's rings
        "rescued",  # the λ-trick's crosses
        "noisy",  # the parallel perceptrons' noisy squares
        "borderline",  # ... and borderline rings
        "ensemble",  # the voted ensemble's lines at full opacity
        "question",  # predict mode's rings and candidate lines
    ],
)
def test_every_mark_stands_out_from_white_and_the_tints(style, mark):
    for background in backgrounds(style):
        ratio = contrast(style["colors"][mark], background)
        assert ratio >= MARK, f"{mark} on {background}: {ratio:.2f}"


@STYLES
def test_the_figures_words_are_text_on_every_tint(style):
    for background in backgrounds(style):
        assert contrast(style["colors"]["text"], background) >= TEXT


@STYLES
@pytest.mark.parametrize(
    "color, edge",
    [
        ("current", "current_edge"),  # the ring against its halo
        ("update", "casing"),  # Δw against its casing
        ("averaged", "casing"),
        ("longest", "casing"),
        ("question", "casing"),  # predict mode's candidate lines
    ],
)
def test_coloured_lines_stand_out_from_their_casing(style, color, edge):
    assert contrast(style["colors"][color], style["colors"][edge]) >= MARK


@STYLES
def test_the_pale_marks_need_their_edges_and_the_sides_their_labels(style):
    """Why the edges, the halo and the side labels exist: without them these pairs fail."""
    colors = style["colors"]
    tint = backgrounds(style)[2]
    assert contrast(colors["positive"], tint) < MARK
    assert contrast(colors["current"], backgrounds(style)[1]) < MARK
    # in greyscale the two sides' tints are the same grey: the figure writes "+1 side", "−1 side"
    assert contrast(backgrounds(style)[1], backgrounds(style)[2]) < 1.2


def css_colors() -> dict[str, str]:
    """The ``--name: #rrggbb`` colours of style.css's ``:root`` rule."""
    css = (PLAYBACK / "style.css").read_text(encoding="utf-8")
    root = re.search(r":root\s*{([^}]*)}", css).group(1)
    found = dict(re.findall(r"--([\w-]+):\s*(#[0-9a-fA-F]{6})\b", root))
    return {**found, "white": "#ffffff"}


@pytest.mark.parametrize(
    "text, background",
    [
        ("text", "white"),
        ("muted", "white"),  # captions, the readout, the settings
        ("muted", "header-bg"),
        ("text", "header-bg"),  # table headers
        ("white", "accent"),  # Play and its key
        ("white", "accent-dark"),  # Play, hovered
        ("accent", "white"),  # a hovered button's text
        ("accent", "accent-tint"),  # the chosen "Play by"
        ("text", "accent-tint"),  # the current example's row
        ("kbd-text", "kbd-bg"),  # a key's hint
        ("notice-text", "notice-bg"),
        ("right", "white"),  # predict mode: a right answer's word
        ("accent-dark", "white"),  # ... a wrong one's, and the note after a refused Step
    ],
)
def test_the_controls_text_is_readable(text, background):
    colors = css_colors()
    ratio = contrast(colors[text], colors[background])
    assert ratio >= TEXT, f"--{text} on --{background}: {ratio:.2f}"


@pytest.mark.parametrize("outline", ["focus", "accent"])
def test_the_focus_ring_and_the_accent_are_seen(outline):
    assert contrast(css_colors()[outline], "#ffffff") >= MARK


def test_every_outcome_has_words_a_screen_reader_says():
    assert SPOKEN.keys() == OUTCOME.keys()
    for said in SPOKEN.values():
        assert not set(said) & set("→←·×"), said  # read out as symbols, or skipped
        assert said.endswith("update"), said  # says whether the line moved


@STYLES
@pytest.mark.parametrize("c", [0, 1, 2])
def test_every_class_mark_stands_out_from_white_and_every_class_tint(style, c):
    """Several classes learned together: each class's mark (its fill, or for the pale orange
    its dark edge) against white and every class's region tint, and the figure's words on
    every tint (the region names are written on them)."""
    colors = style["colors"]
    mark = (
        colors["classes"][c] if colors["class_edges"][c] == "#ffffff" else colors["class_edges"][c]
    )
    for background in ["#ffffff", *colors["class_tints"]]:
        assert contrast(mark, background) >= MARK, f"class {c} on {background}"
        assert contrast(colors["text"], background) >= TEXT
        assert contrast(colors["line"], background) >= MARK  # the regions' borders, the arrows


@STYLES
def test_the_classes_are_told_apart_without_colour(style):
    """Okabe & Ito's hues for the classes, none of them the current example's vermillion; the
    marks differ in shape too (classesfigure.js), and each region's name is written on it."""
    colors = style["colors"]
    assert len(set(colors["classes"])) == len(colors["classes"]) == len(colors["class_tints"])
    assert colors["current"] not in colors["classes"]
    js = (PLAYBACK / "classesfigure.js").read_text(encoding="utf-8")
    symbols = re.search(r"CLASS_SYMBOLS = \[([^\]]*)\]", js).group(1)
    assert len(set(re.findall(r'"([\w-]+)"', symbols))) >= len(colors["classes"])
