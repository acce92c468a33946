"""Every lesson in a real browser at 1280x720 and 1024x768: no text cut short on screen.

Streamlit runs on localhost; Playwright drives Debian's chromium (see
:mod:`tests.chromium`). After a lesson has finished running (and its player,
if it has one, has painted), the page and every frame in it are searched for
text that the browser shortens with an ellipsis (``text-overflow: ellipsis``
on a box narrower than its text), for display formulas wider than their box
or that KaTeX could not parse, and for a number in a box or table broken over
two lines. Screenshots of every lesson at both sizes go to ``test-artifacts/``
(git-ignored) for a person to look at.
"""

from __future__ import annotations

import pytest

from tests.accessibility import lesson_path
from tests.chromium import ARTIFACTS, ROOT, settle, show_all

pytestmark = pytest.mark.browser

SIZES = {"1280x720": (1280, 720), "1024x768": (1024, 768)}
LESSONS = sorted((ROOT / "lessons").glob("[0-9]*.py"))

#: Elements whose text the browser cut with an ellipsis, and display formulas wider than their
#: box, each as the start of its text (run in the page and in every frame).
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
    found = []
    for frame in page.frames:
        found += frame.evaluate(CUT_TEXT)
    return found


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lesson", LESSONS, ids=lambda p: p.stem[:2])
def test_no_lesson_text_is_cut_short(server, looking, lesson, size):
    width, height = SIZES[size]
    page = looking.new_page()
    page.set_viewport_size({"width": width, "height": height})
    try:
        page.goto(f"{server}/{lesson_path(lesson)}")
        settle(page, opened=True)
        cut = cut_text(page)
        show_all(page, width)  # a window as tall as the page shows all of it
        page.screenshot(path=str(ARTIFACTS / f"lesson-{lesson.stem[:2]}-{size}.png"))
        assert cut == []
    finally:
        page.close()
