"""axe-core in chromium: the views of the app, and what axe, the titles and the headings say.

axe-core comes from the npm registry, pinned in the repository's ``package-lock.json``;
``.ci/run`` installs it with ``npm ci``. Elsewhere a test that needs it is skipped with
one line saying how to install it; under CI (``CI`` set) it fails instead, as a missing
program does (:mod:`tests.programs`).

:func:`audit` injects axe into the page and into every frame in it (the
playback component's), runs it with the WCAG 2.0 and 2.1 A and AA rules and
returns every violation with the frame it was found in. Used by
``tests/browser/test_accessibility_browser.py`` and ``benchmarks/audit_a11y.py``.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from tests.chromium import ROOT

#: Where ``npm ci`` puts axe-core.
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
INSTALL_AXE = "npm ci in the repository's root"
#: The rules axe runs: WCAG 2.0 and 2.1, levels A and AA.
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
#: The impacts a test fails on.
SERIOUS = ("serious", "critical")
IMPACTS = ("critical", "serious", "moderate", "minor")


def axe_core() -> Path:
    """The path of ``axe.min.js``; skips the test (fails it under CI) when it is not installed."""
    if AXE.is_file():
        return AXE
    message = f"axe-core is not installed ({INSTALL_AXE} to run this test)"
    if os.environ.get("CI"):
        pytest.fail(f"{message}; under CI a missing module fails the run", pytrace=False)
    pytest.skip(message)


def app_views() -> dict[str, str]:
    """Every view of the app: its name and its address on the server (a path and a query)."""
    views = {
        "playground": "/",
        "compare": "/?compare=voted,pa&data=xor",
        "present": "/?present=1",
        # a region per class, every class's w: the multiclass perceptron part way through
        "classes": "/?data=three_classes&learner=multiclass&t=40",
    }
    for lesson in sorted((ROOT / "lessons").glob("[0-9]*.py")):
        views[f"lesson {int(lesson.stem[:2])}"] = "/" + lesson_path(lesson)
    views["experiments"] = "/experiments"
    views["about"] = "/about"
    return views


def lesson_path(lesson: Path) -> str:
    """Streamlit's page address for a lesson file: its name without the number.

    Examples
    --------
    >>> lesson_path(Path("lessons/03_when_data_are_not_separable.py"))
    'when_data_are_not_separable'
    """
    return lesson.stem.split("_", 1)[1]


def exported_page(folder: Path) -> Path:
    """The playground's first view (the perceptron on the separable set, 20 epochs) written as
    the exported offline page (:func:`ui.standalone_page.run_page`) into ``folder``."""
    from perceptron_lab.app_logic.datasource import DataRequest, make_dataset
    from perceptron_lab.ui.standalone_page import run_page
    from tests.pages import page_run

    request = DataRequest("separable")
    data = make_dataset(request)
    run = page_run("perceptron", {}, 20, request.seed, data)
    path = folder / "perceptron-run.html"
    path.write_text(run_page(run, data, request, 20), encoding="utf-8")
    return path


def open_exported(page, path: Path) -> None:
    """Open the exported page from ``file://`` and wait until its replay has painted."""
    page.goto(path.as_uri())
    page.wait_for_function("() => window.playback && window.playback.settled", timeout=60_000)


def open_view(page, server: str, name: str, folder: Path) -> None:
    """Open the view ``name`` of :func:`app_views` on ``server`` (or "exported": the exported
    page, written into ``folder``) in ``page``, once it has settled."""
    from tests.chromium import settle

    if name == "exported":
        open_exported(page, exported_page(folder))
    else:
        page.goto(server + app_views()[name])
        settle(page, opened=True)


#: Elements whose text the browser cut with an ellipsis, display formulas wider than their
#: box, charts' titles past their chart's edges, and numbers broken over two lines, each as the
#: start of its text (run in the page and in every frame).
CUT_TEXT = r"""() => {
  const cut = [];
  for (const el of document.querySelectorAll('body *')) {
    if (!el.offsetParent && getComputedStyle(el).position !== 'fixed') continue;  // not shown
    const style = getComputedStyle(el);
    const wider = el.scrollWidth > el.clientWidth + 2;  // KaTeX's rounding leaves up to 2 px
    if (wider && style.textOverflow === 'ellipsis' && (el.innerText || '').trim())
      cut.push('ellipsis: ' + el.innerText.trim().slice(0, 80));
    else if (el.classList.contains('katex-error'))  // KaTeX could not parse it: red source
      cut.push('formula error: ' + el.innerText.trim().slice(0, 80));
    else if (wider && el.classList.contains('katex-display'))
      cut.push('formula ' + (el.scrollWidth - el.clientWidth) + ' px: '
               + el.innerText.replace(/\s+/g, '').slice(0, 60));
  }
  // a chart's title, or an axis's, running past the chart: Plotly centres it and cuts it at
  // the chart's edges without an ellipsis
  for (const plot of document.querySelectorAll('.js-plotly-plot')) {
    if (!plot.offsetParent) continue;
    const box = plot.getBoundingClientRect();
    for (const title of plot.querySelectorAll('.gtitle, .xtitle, .ytitle')) {
      const r = title.getBoundingClientRect();
      if (r.width && (r.left < box.left - 1 || r.right > box.right + 1))
        cut.push('chart title past its chart: ' + title.textContent.slice(0, 80));
    }
  }
  // a number broken over two lines reads as two numbers ("0.85" above "4")
  for (const el of document.querySelectorAll('.extra-number, table.numbers td:not(.words)')) {
    if (!el.offsetParent) continue;
    const range = document.createRange();
    range.selectNodeContents(el);
    const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
    if (lines.size > 1) cut.push('number on ' + lines.size + ' lines: ' + el.innerText.trim());
  }
  return cut;
}"""


def cut_text(page) -> list[str]:
    """What :data:`CUT_TEXT` finds in ``page`` and in every frame of it."""
    found = []
    for frame in page.frames:
        found += frame.evaluate(CUT_TEXT)
    return found


#: JavaScript: ``pixels(png)``, the RGBA bytes of a PNG given in base64 (decoded by the page).
PIXELS_JS = """const pixels = async (png) => {
  const image = new Image();
  image.src = `data:image/png;base64,${png}`;
  await image.decode();
  const canvas = document.createElement('canvas');
  [canvas.width, canvas.height] = [image.width, image.height];
  const context = canvas.getContext('2d');
  context.drawImage(image, 0, 0);
  return context.getImageData(0, 0, image.width, image.height).data;
};"""
#: JavaScript: how many colours a PNG (base64) has: 1 where nothing is drawn.
COLOURS_JS = f"""async (png) => {{
  {PIXELS_JS}
  const data = await pixels(png), seen = new Set();
  for (let i = 0; i < data.length; i += 4) {{
    seen.add((data[i] << 16) | (data[i + 1] << 8) | data[i + 2]);
  }}
  return seen.size;
}}"""
#: JavaScript: the greatest contrast (WCAG's ratio) between a pixel of one PNG and the same
#: pixel of another: how strongly a change between two screenshots shows.
CHANGE_JS = f"""async ([one, other]) => {{
  {PIXELS_JS}
  const [a, b] = [await pixels(one), await pixels(other)];
  const lum = (d, p) => [0, 1, 2].map((k) => {{ const v = d[p + k] / 255;
      return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; }})
    .reduce((s, v, k) => s + v * [0.2126, 0.7152, 0.0722][k], 0);
  let most = 1;
  for (let p = 0; p < a.length; p += 4) {{
    const [x, y] = [lum(a, p), lum(b, p)];
    most = Math.max(most, (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05));
  }}
  return most;
}}"""


def colours(page, shot: bytes) -> int:
    """How many colours a screenshot (PNG bytes) has, counted by ``page``."""
    import base64

    return page.evaluate(COLOURS_JS, base64.b64encode(shot).decode())


def change_contrast(page, one: bytes, other: bytes) -> float:
    """The greatest contrast between a pixel of one screenshot and the same pixel of another."""
    import base64

    return page.evaluate(CHANGE_JS, [base64.b64encode(s).decode() for s in (one, other)])


#: JavaScript: run axe on this document alone (each frame is audited in its own document).
RUN_AXE_JS = """async (tags) => {
  const result = await axe.run(document, {
    runOnly: {type: 'tag', values: tags}, iframes: false, resultTypes: ['violations']});
  return result.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map((n) => ({impact: n.impact, target: n.target.join(' '),
                                html: n.html.slice(0, 160)})),
  }));
}"""


def audit(page) -> list[dict]:
    """Every axe violation in ``page`` and its frames, each with ``frame``: "page" for the
    page itself, else the frame's address without its query."""
    axe = axe_core()
    found = []
    for frame in page.frames:
        if frame.url in ("", "about:blank") or frame.is_detached():
            continue
        if not frame.evaluate("() => typeof window.axe === 'object'"):
            frame.add_script_tag(path=str(axe))
        where = "page" if frame == page.main_frame else frame.url.split("?")[0]
        found += [{**v, "frame": where} for v in frame.evaluate(RUN_AXE_JS, TAGS)]
    return found


def counts(violations: list[dict]) -> dict[str, tuple[int, int]]:
    """``{impact: (rules, elements)}``: how many rules failed at each impact, on how many
    elements.

    Examples
    --------
    >>> counts([{"impact": "serious", "nodes": [1, 2]}, {"impact": "minor", "nodes": [1]}])
    {'critical': (0, 0), 'serious': (1, 2), 'moderate': (0, 0), 'minor': (1, 1)}
    """
    return {
        impact: (
            sum(v["impact"] == impact for v in violations),
            sum(len(v["nodes"]) for v in violations if v["impact"] == impact),
        )
        for impact in IMPACTS
    }


#: JavaScript: the visible headings of the page's main part and of its sidebar, each in
#: document order, as [level, text].
HEADINGS_JS = """() => {
  const list = (root) => root ? [...root.querySelectorAll(
      'h1, h2, h3, h4, h5, h6, [role=heading]')]
    .filter((h) => h.getClientRects().length > 0)
    .map((h) => [Number(h.getAttribute('aria-level') || h.tagName.slice(1)),
                 h.innerText.trim().slice(0, 60)]) : [];
  return {main: list(document.querySelector('[data-testid=stMain]')),
          sidebar: list(document.querySelector('[data-testid=stSidebar]'))};
}"""


def headings(page) -> dict[str, list[tuple[int, str]]]:
    """The headings of the page's main part and of its sidebar, each in document order, as
    ``(level, text)``."""
    return {part: [tuple(h) for h in found] for part, found in page.evaluate(HEADINGS_JS).items()}


def skipped_levels(found: list[tuple[int, str]], above: int = 0) -> list[str]:
    """Each heading that goes more than one level deeper than the one before it; the first
    counts from level ``above`` (0 for a page's main part: it starts with its h1; 1 for the
    sidebar, whose sections sit under the page's title).

    Examples
    --------
    >>> skipped_levels([(1, "Lesson"), (2, "Try this"), (3, "a"), (2, "b"), (4, "c")])
    ['h2 "b" -> h4 "c"']
    >>> skipped_levels([(3, "Data")], above=1)
    ['h1 "" -> h3 "Data"']
    """
    jumps, before = [], (above, "")
    for level, text in found:
        if level > before[0] + 1:
            jumps.append(f'h{before[0]} "{before[1]}" -> h{level} "{text}"')
        before = (level, text)
    return jumps


_MARKDOWN_HEADING = re.compile(r"^(#{1,6})\s+(.+)$", re.MULTILINE)


def written_headings(block) -> list[tuple[int, str]]:
    """The headings a page wrote into ``block`` of Streamlit's AppTest (``at.main``,
    ``at.sidebar``), in page order: ``st.title``, ``st.header``, ``st.subheader`` by their
    tag, and Markdown's ``#`` lines."""
    found = []
    for node in block.children.values():
        tag = getattr(node, "tag", "")
        if isinstance(tag, str) and re.fullmatch(r"h[1-6]", tag):
            found.append((int(tag[1]), str(node.value)))
        elif getattr(node, "type", "") == "markdown":
            text = re.sub(r"```.*?```", "", str(node.value), flags=re.DOTALL)
            found += [(len(m[1]), m[2]) for m in _MARKDOWN_HEADING.finditer(text)]
        if getattr(node, "children", None):
            found += written_headings(node)
    return found
