"""How the pictures look and what they draw: one place for colours, sizes and view toggles.

:data:`STYLE` goes to the browser component as it is: every font size,
marker size, line width, colour and figure height the playback frontend
uses comes from it, so a different look (a projector's larger fonts and
thicker lines) is a different dictionary, not a code change. Lessons'
server-side charts use the same palette. :class:`Show` is what the picture
draws (the playground's view toggles; lessons preset them).
"""

from __future__ import annotations

import copy
from dataclasses import asdict, dataclass

# Okabe & Ito's colour-blind-safe palette. Their green and reddish purple are darkened (each
# channel times 0.84 and 0.79) so that a mark drawn in them stands out 3:1 from white and from
# every tint, the projector's deeper ones too (WCAG 1.4.11); the other hues keep their values.
BLUE, ORANGE, GREEN, VERMILLION = "#0072B2", "#E69F00", "#008561", "#D55E00"
PURPLE, GREY, BLACK = "#A16084", "#9E9E9E", "#222222"
#: A grey for marks that must stand out from the tints (3:1 or more, WCAG 1.4.11): GREY does not.
DARK_GREY = "#6E6E6E"
#: Predict mode's marks (the point asked about, the candidate lines, a reader's mark of w): a
#: dark violet, apart from the classes' blue and orange and from the boundary's near-black.
VIOLET = "#5E3C99"
#: The +1 class's orange, darkened (times 0.67) for the outline of a hollow mark: the orange
#: itself is under 3:1 on every background, and a hollow mark has no dark edge to carry it.
DARK_ORANGE = "#9A6B00"

STYLE: dict = {
    "colors": {
        "negative": BLUE,  # class -1: blue circles
        "positive": ORANGE,  # class +1: orange diamonds...
        "positive_edge": BLACK,  # ...outlined: orange alone is under 3:1 against the tints
        "positive_hollow": DARK_ORANGE,  # the +1 test points' hollow diamonds
        "current": VERMILLION,
        "current_edge": BLACK,  # a dark halo under the current example's ring
        "update": VERMILLION,
        "line": BLACK,
        "old": DARK_GREY,
        "averaged": GREEN,
        "longest": PURPLE,
        # a white casing under the coloured lines and arrows that cross the tints
        "casing": "#ffffff",
        # the figure's words (arrow labels, "+1 side"): text at 4.5:1 on every tint
        "text": BLACK,
        "rings": PURPLE,
        "rescued": GREEN,
        "capped": DARK_GREY,
        "noisy": GREEN,
        "borderline": DARK_GREY,
        "ensemble": DARK_GREY,
        "question": VIOLET,  # predict mode's marks and candidate lines
        # the margin histogram's sides: not blue and orange, which are the two classes
        "right_side": GREEN,
        "wrong_side": PURPLE,
        "test_curve": BLACK,  # not orange: orange is the +1 class
        "train_curve": BLUE,
        "band": "rgba(120,120,120,0.18)",
        "band_edge": DARK_GREY,  # the band's two edges, drawn: its fill is too faint to see
        "grid": "#EBF0F8",
        # light tints of the decision region: -1 side, boundary, +1 side
        "region": [[0.0, "#cfe3f1"], [0.5, "#ffffff"], [1.0, "#fbe6bd"]],
        # several classes learned together: each class's marks (circles, diamonds, squares,
        # ...), their edges and its region's tint; the first two are the -1 and +1 classes'
        "classes": [BLUE, ORANGE, PURPLE],
        "class_edges": ["#ffffff", BLACK, "#ffffff"],
        "class_tints": ["#cfe3f1", "#fbe6bd", "#f3e6ee"],
    },
    "font": {
        "family": "sans-serif",
        "base": 14,
        "title": 15,
        "axis": 12,
        "legend": 12,
        "arrow": 12,
        "math": 15,
    },
    "marker": {
        "point": 9,
        "test": 8,
        "current": 26,
        "ring": 15,
        "flip": 11,
        "rescued": 13,
        "capped": 9,
        "category": 15,
        "projected": 7,
    },
    "line": {
        "boundary": 3,
        "member": 2,
        "other": 2.5,
        "target": 2.5,
        "arrow": 2.5,
        "ensemble": 1.5,
        "current": 4,
        "curve": 2,
    },
    "figure": {
        "height": 640,
        "compare_height": 420,
        "chart_height": 300,
        "projection_height": 520,
        "layout": "beside",
        # the main figure shrinks (not below min_height) so that it ends inside the window
        "fit": True,
        "min_height": 380,
    },
    # grid points per axis: the tinted region of a line, of the voted vote and of a kernel
    "grid": {"region": 90, "voted": 60, "kernel": 60},
    "ensemble": {"lines": 40, "levels": 6},
}


def style(**changes) -> dict:
    """A copy of :data:`STYLE` with some groups changed: ``style(font={"base": 18})``.

    Examples
    --------
    >>> style(font={"base": 18})["font"]["base"], STYLE["font"]["base"]
    (18, 14)
    """
    out = copy.deepcopy(STYLE)
    for group, values in changes.items():
        out[group].update(values)
    return out


#: The projector's look (presentation mode, ``present=1``): larger type and marks, thicker
#: lines and deeper tints, for the back row of a classroom.
PRESENT: dict = style(
    colors={
        "region": [[0.0, "#b7d6ec"], [0.5, "#ffffff"], [1.0, "#f8d898"]],
        "class_tints": ["#b7d6ec", "#f8d898", "#ecd6e3"],
    },
    font={"base": 19, "title": 20, "axis": 17, "legend": 17, "arrow": 17, "math": 20},
    marker={
        "point": 14,
        "test": 12,
        "current": 36,
        "ring": 22,
        "flip": 16,
        "rescued": 18,
        "capped": 14,
        "category": 22,
        "projected": 10,
    },
    line={
        "boundary": 5,
        "member": 3.5,
        "other": 4,
        "target": 3,
        "arrow": 4,
        "ensemble": 2.5,
        "current": 6,
        "curve": 3.5,
    },
    figure={"min_height": 420},
)


@dataclass(frozen=True)
class Show:
    """What the picture draws (the playground's view toggles; lessons preset them)."""

    region: bool = True
    band: bool = True
    arrows: bool = True
    test_points: bool = True
    flips: bool = True
    ensemble: bool = False  # voted: hypotheses at opacity ∝ votes, and the voted region
    averaged: bool = False
    longest: bool = False
    target: bool = False
    categories: bool = True  # parallel perceptrons: safe / noisy / borderline

    def to_json(self) -> dict:
        return asdict(self)
