"""Every view of the app, and the exported offline page, against WCAG 2.1 AA in chromium.

axe-core (``npm ci``; :mod:`tests.accessibility`) runs in the page
and in every frame of it, the replay component's included, with the WCAG 2.0 and 2.1 A and
AA rules: no serious or critical violation may remain, with no exception (Streamlit's
menu with sections broke list markup; the router's flat menu does not). Then what axe
does not check: each page's own title (2.4.2), headings in order (1.3.1), a visible focus on
every control reached with Tab (2.4.7), the edges of inputs and the focus outline at 3:1
(1.4.11), and nothing running off a 320 px wide window (1.4.10).

axe runs on each view in forced colours too (Windows' contrast themes, emulated in chromium
with ``forced-colors: active``; the controls' own looks there are
``test_forced_colours_browser.py``'s): on the same page, switched to forced colours after the
normal run, since the app and the replay follow the mode in their style sheets alone (no
script asks for it), so a page switched over is the page a reader in that mode opens.

And in every lesson, at 1280x720 and 1024x768, no text cut short on screen: after the
lesson has finished running (and its player, if it has one, has painted), the page and every
frame in it are searched for text the browser shortens with an ellipsis, display formulas
wider than their box or that KaTeX could not parse, a chart's title past its chart's edges,
and a number in a box or table broken over two lines (:data:`tests.accessibility.CUT_TEXT`).

One server and one chromium for the module. Each view is opened once at 1280x720, by one
worker (the tests that read that visit are one ``xdist_group``): its first window is
searched for cut text, then the window is made as tall as the page, so axe sees every
element on screen. A lesson's window is then made 1024x768 and searched again: every lesson
measures the same resized as opened at that size, element by element in the page and
its frames (docs/benchmarks.md, "a11y-lessons-resized"). Each view is opened again at
320 px, where the page first lays itself out for a phone (the sidebar put away).
Screenshots of the first window of each go to ``test-artifacts/`` (of a lesson at
1024x768, the whole page) for a person to look at.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from tests.accessibility import (
    SERIOUS,
    app_views,
    audit,
    axe_core,
    cut_text,
    headings,
    open_view,
    skipped_levels,
)
from tests.chromium import ARTIFACTS, settle, show_all

pytestmark = pytest.mark.browser

VIEWS = app_views()
#: Views of the same page as another (the playground in compare and presentation mode, and
#: with the multiclass perceptron).
SAME_PAGE = ("compare", "present", "classes")
LESSONS = [name for name in VIEWS if name.startswith("lesson ")]
WIDE, NARROW = 1280, 320
#: The tests that read the visit of :func:`seen` run on one worker, which opens each view once.
VISITED = pytest.mark.xdist_group("accessibility: the views at 1280 px")


#: JavaScript: a promise of the next frame painted after this one (a change of media painted).
NEXT_PAINT_JS = "() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))"


@dataclass
class Seen:
    """What one view showed at 1280 px: the text cut short in its first window, axe's
    violations (in the normal mode and in forced colours), the title, the headings; and, of a
    lesson, the text cut short at 1024x768."""

    cut: list[str]
    violations: list[dict]
    forced_violations: list[dict]
    title: str
    headings: dict[str, list[tuple[int, str]]]
    cut_at_1024: list[str] | None


@pytest.fixture(scope="module")
def seen(server, looking, tmp_path_factory):
    """``seen(view)``: the view opened once at 1280 px (on first use), as :class:`Seen`."""
    axe_core()  # skip (or fail under CI) before opening anything
    found: dict[str, Seen] = {}
    folder = tmp_path_factory.mktemp("exported")

    def visit(name: str) -> Seen:
        if name not in found:
            page = looking.new_page()
            page.set_viewport_size({"width": WIDE, "height": 720})
            try:
                open_view(page, server, name, folder)
                page.screenshot(path=str(ARTIFACTS / f"a11y-{name.replace(' ', '-')}.png"))
                cut = cut_text(page)
                show_all(page, WIDE)
                violations = audit(page)
                page.emulate_media(forced_colors="active")
                page.evaluate(NEXT_PAINT_JS)
                forced = audit(page)
                title, heads = page.title(), headings(page)
                page.emulate_media(forced_colors="none")
                cut_at_1024 = _cut_at_1024x768(page, name) if name in LESSONS else None
                found[name] = Seen(cut, violations, forced, title, heads, cut_at_1024)
            finally:
                page.close()
        return found[name]

    return visit


def _described(violation: dict) -> str:
    targets = "; ".join(node["target"] for node in violation["nodes"][:3])
    return f"{violation['impact']} {violation['id']} in {violation['frame']}: {targets}"


def _serious(violations: list[dict]) -> list[str]:
    return [_described(v) for v in violations if v["impact"] in SERIOUS]


@VISITED
@pytest.mark.parametrize("name", [*VIEWS, "exported"])
def test_axe_finds_no_serious_violation(seen, name):
    assert _serious(seen(name).violations) == []


@VISITED
@pytest.mark.parametrize("name", [*VIEWS, "exported"])
def test_axe_finds_no_serious_violation_in_forced_colours(seen, name):
    assert _serious(seen(name).forced_violations) == []


@VISITED
def test_every_page_has_its_own_title(seen):
    titles = {name: seen(name).title for name in [*VIEWS, "exported"] if name not in SAME_PAGE}
    assert len(set(titles.values())) == len(titles), titles
    assert titles["lesson 3"] == "Lesson 3 · When data are not separable — Perceptron Lab"
    assert all(title.endswith("Perceptron Lab") for title in titles.values()), titles


@VISITED
@pytest.mark.parametrize("name", VIEWS)
def test_headings_do_not_skip_a_level(seen, name):
    found = seen(name).headings
    assert found["main"] and found["main"][0][0] == 1, found  # the page starts with its h1
    assert skipped_levels(found["main"]) + skipped_levels(found["sidebar"], above=1) == []


@VISITED
@pytest.mark.parametrize("name", LESSONS)
def test_no_lesson_text_is_cut_short(seen, name):
    assert seen(name).cut == []


def _cut_at_1024x768(page, name: str) -> list[str]:
    """The text cut short in ``page``'s window made 1024x768; a screenshot of the whole page."""
    page.set_viewport_size({"width": 1024, "height": 768})
    settle(page)
    cut = cut_text(page)
    show_all(page, 1024)  # a window as tall as the page shows all of it
    page.screenshot(path=str(ARTIFACTS / f"a11y-{name.replace(' ', '-')}-1024.png"))
    return cut


@VISITED
@pytest.mark.parametrize("name", LESSONS)
def test_no_lesson_text_is_cut_short_at_1024x768(seen, name):
    assert seen(name).cut_at_1024 == []


#: JavaScript: where the keyboard's focus is, if it is in this document and on screen.
FOCUSED_JS = """() => {
  const el = document.activeElement;
  if (!el || el === document.body || el.tagName === 'IFRAME') return null;
  const r = el.getBoundingClientRect();
  if (r.width < 1 || r.height < 1 || r.bottom < 0 || r.top > innerHeight) return null;
  return {x: r.x, y: r.y, width: r.width, height: r.height,
          name: (el.getAttribute('aria-label') || el.innerText || el.tagName).slice(0, 40)};
}"""

#: JavaScript: whether the focus is back on the element the first Tab of the page reached
#: (the first call remembers it).
BACK_TO_THE_FIRST_JS = """() => {
  const el = document.activeElement;
  if (window.__firstStop === undefined) { window.__firstStop = el; return false; }
  return el === window.__firstStop;
}"""


@pytest.mark.parametrize("name", ["playground", "lesson 2", "experiments"])
def test_every_control_shows_where_the_focus_is(server, browser, name):
    """Tab through the page once round, back to where the first Tab went (the component's own
    controls are in its frame: its tests): at every stop, the control and the few pixels
    around it look different focused and not."""
    page = browser.new_page(viewport={"width": WIDE, "height": 720})
    try:
        page.goto(server + VIEWS[name])
        settle(page, opened=True)
        page.add_style_tag(content="* { caret-color: transparent !important; }")  # no blink
        unseen, stops, most = [], 0, 300
        for _ in range(most):
            page.keyboard.press("Tab")
            page.wait_for_timeout(60)
            if page.evaluate(BACK_TO_THE_FIRST_JS):
                break
            box = page.evaluate(FOCUSED_JS)
            if box is None:
                continue
            stops += 1
            clip = {"x": max(box["x"] - 6, 0), "y": max(box["y"] - 6, 0)}
            clip |= {"width": box["width"] + 12, "height": box["height"] + 12}
            focused = page.screenshot(clip=clip)
            page.evaluate("() => { window.__focused = document.activeElement; __focused.blur(); }")
            page.wait_for_timeout(60)
            if page.screenshot(clip=clip) == focused:
                unseen.append(box["name"])
            page.evaluate("() => window.__focused.focus()")
        else:
            pytest.fail(
                f"{most} presses of Tab did not come back to the first stop ({stops} stops)"
            )
        assert stops > 10 and unseen == []
    finally:
        page.close()


#: JavaScript: ``contrast(element, property)``, the contrast of the colour ``property`` of
#: ``element`` (a CSS colour) with the background behind the element.
CONTRAST_JS = """
  const rgb = (c) => c.match(/[\\d.]+/g).map(Number);
  const lum = ([r, g, b]) => [r, g, b].map((v) => { v /= 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; })
    .reduce((s, v, i) => s + v * [0.2126, 0.7152, 0.0722][i], 0);
  const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
    return (x + 0.05) / (y + 0.05); };
  const behind = (el) => { for (let p = el.parentElement; p; p = p.parentElement) {
      const c = rgb(getComputedStyle(p).backgroundColor);
      if (c.length === 3 || c[3] > 0) return c.slice(0, 3); } return [255, 255, 255]; };
  const contrast = (el, property) => ratio(rgb(getComputedStyle(el)[property]), behind(el));
"""
EDGES_JS = (
    "() => {"
    + CONTRAST_JS
    + """return [...document.querySelectorAll('[data-testid=stSelectbox] [role=group], '
    + '[data-testid=stMultiSelect] [role=group], [data-testid=stNumberInputContainer]')]
    .map((el) => [el.closest('[data-testid]').innerText.split('\\n')[0],
                  contrast(el, 'borderTopColor')]); }"""
)
OUTLINE_JS = "() => {" + CONTRAST_JS + "return contrast(document.activeElement, 'outlineColor'); }"


def test_input_edges_and_the_focus_outline_stand_out(server, browser):
    """WCAG 1.4.11: 3:1 for what shows where a control is and which one has the focus."""
    page = browser.new_page(viewport={"width": WIDE, "height": 720})
    try:
        page.goto(server + VIEWS["playground"])
        settle(page, opened=True)
        edges = page.evaluate(EDGES_JS)
        assert len(edges) >= 5
        assert [(what, round(r, 2)) for what, r in edges if r < 3] == []
        for _ in range(2):  # past "Skip to main content", to the menu's first link
            page.keyboard.press("Tab")
        assert page.evaluate(OUTLINE_JS) >= 3
    finally:
        page.close()


#: JavaScript: elements of the page that lie beyond the window's edges, unless a box that
#: scrolls on its own (a table, a displayed formula) and fits the window holds them, or they
#: are not drawn at all (clipped to nothing for screen readers only).
RUNS_OFF_JS = """() => {
  const width = document.documentElement.clientWidth;
  const main = document.querySelector('[data-testid=stMain]');
  const fits = (el) => { const r = el.getBoundingClientRect();
    return r.left >= -1 && r.right <= width + 1; };
  const held = (el) => { for (let p = el; p && p !== main; p = p.parentElement) {
      const style = getComputedStyle(p);
      if (p !== el && ['auto', 'scroll'].includes(style.overflowX) && fits(p)) return true;
      // clipped to nothing: a copy for screen readers (formulas' MathML, hidden inputs)
      if (style.clip !== 'auto' || style.clipPath !== 'none') return true;
    }
    return false; };
  const off = [];
  for (const el of document.querySelectorAll('body *')) {
    const r = el.getBoundingClientRect();
    if (el.ownerSVGElement) continue;  // a shape, drawn only inside its <svg>'s box
    if (r.width === 0 || r.height === 0 || fits(el) || held(el)) continue;
    const sidebar = el.closest('[data-testid=stSidebar]');
    if (sidebar && sidebar.getBoundingClientRect().right <= 1) continue;  // put away
    if (el.closest('#js-plotly-tester')) continue;  // where Plotly measures text, unseen
    off.push((el.dataset.testid || el.tagName) + ': ' + (el.innerText || '').slice(0, 40));
  }
  if (main.scrollWidth > main.clientWidth + 1) off.push('the page scrolls sideways');
  return off;
}"""


@pytest.mark.parametrize("name", VIEWS)
def test_nothing_runs_off_a_320_px_window(server, browser, name):
    """WCAG 1.4.10, at the page's level (the component's insides are its own tests'); and
    axe at that width (what scrolls sideways there must be reachable by keyboard)."""
    page = browser.new_page(viewport={"width": NARROW, "height": 640})
    try:
        page.goto(server + VIEWS[name])
        settle(page, opened=True)
        page.screenshot(path=str(ARTIFACTS / f"a11y-{name.replace(' ', '-')}-320.png"))
        show_all(page, NARROW)
        assert page.evaluate(RUNS_OFF_JS) == []
        # the sidebar, put away on a phone, fits too once opened (the menu, the playground's
        # settings)
        page.locator("[data-testid=stExpandSidebarButton]").click()
        page.wait_for_function(  # it slides in
            "() => document.querySelector('[data-testid=stSidebar]')"
            ".getBoundingClientRect().left === 0"
        )
        assert page.evaluate(RUNS_OFF_JS) == []
        assert _serious(audit(page)) == []
    finally:
        page.close()
