"""Where the focus shows and stays, and what a screen reader is told, in chromium: the criteria
an audit found failing in narrow ways (WCAG 2.1 2.4.7 Focus Visible, 4.1.3 Status Messages,
1.4.12 Text Spacing) and the rough edges beside them.

* 2.4.7: the figure and the replay's charts take the focus, and show it over the plot; so does
  lesson 2's data grid.
* 4.1.3: "copied" after Copy link, the end of an experiment and a check question's right
  answer are said in live regions that were there before their words.
* 1.4.12: with WCAG's text-spacing style, no entry of the menu is cut short.
* The focus stays on a download button after its download and on the uploader after a file;
  a chart of a lesson 3's panel has a name and a description that starts with its name; a new
  learner or compare mode is said; the scrubber's spoken value changes no faster than the
  live region speaks while playing; Play says at once where it starts.

Each test fails on the code before these fixes; the exported page carries the replay where no
server is needed.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from tests.accessibility import change_contrast, exported_page, open_exported
from tests.chromium import replay_frame, settle

pytestmark = pytest.mark.browser

LIVE = "[role=status][aria-live=polite]"
#: WCAG 2.1's text-spacing bookmarklet, as success criterion 1.4.12 states the spacing.
TEXT_SPACING = (
    "* { line-height: 1.5 !important; letter-spacing: 0.12em !important;"
    " word-spacing: 0.16em !important; } p { margin-bottom: 2em !important; }"
)


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    return exported_page(tmp_path_factory.mktemp("focus"))


@pytest.fixture
def replay(browser, exported):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    errors = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    open_exported(page, exported)
    yield page
    assert errors == []
    page.close()


def _looks_focused(page, element, margin: int = 6) -> bool:
    """Whether ``element`` (focused) and the pixels around it look different unfocused."""
    box = element.bounding_box()
    clip = {"x": max(box["x"] - margin, 0), "y": max(box["y"] - margin, 0)}
    clip |= {"width": box["width"] + 2 * margin, "height": box["height"] + 2 * margin}
    page.wait_for_timeout(100)
    focused = page.screenshot(clip=clip)
    element.evaluate("(el) => el.blur()")
    page.wait_for_timeout(100)
    return page.screenshot(clip=clip) != focused


# -- 2.4.7 Focus Visible --------------------------------------------------------------------


def test_the_figure_and_a_chart_show_their_focus(replay):
    page = replay
    page.locator(".seg[data-unit=epoch]").focus()  # "Play by": a few Tab stops before the figure
    plot = page.locator(".figure-box .js-plotly-plot")
    for _ in range(8):  # past predict mode's and the sound's switches
        page.keyboard.press("Tab")
        if plot.evaluate("(el) => el === document.activeElement"):
            break
    assert plot.evaluate("(el) => el === document.activeElement")
    assert _looks_focused(page, plot)
    chart = page.locator(".diagnostics .js-plotly-plot").first
    chart.evaluate("(el) => el.focus({focusVisible: true})")
    assert _looks_focused(page, chart)


#: JavaScript: focus the control before the data grid ``grid``'s cells (a canvas) in the Tab
#: order (its toolbar's last button).
BEFORE_GRID_JS = """(grid) => {
  const stops = [...document.querySelectorAll('a[href], button, input, select, [tabindex]')]
    .filter((el) => el.tabIndex >= 0 && !el.disabled && el.getClientRects().length);
  const cells = stops.findIndex((el) => el.tagName === 'CANVAS' && grid.contains(el));
  stops[cells - 1].focus();
}"""


def test_lesson_2s_data_grid_shows_its_focus(server, page):
    """Tab into the grid, as a keyboard does: the focus shows at 3:1 or more against the grid
    without it (its own mark of the chosen cell, a pale fill, changed pixels by 1.2:1)."""
    page.goto(f"{server}/convergence")
    settle(page, opened=True)
    grid = page.locator("[data-testid=stDataFrame]").first
    grid.scroll_into_view_if_needed()
    page.wait_for_timeout(300)
    box = grid.bounding_box()
    clip = {"x": box["x"] - 6, "y": box["y"] - 6, "width": box["width"] + 12, "height": 60}
    grid.evaluate(BEFORE_GRID_JS)
    page.keyboard.press("Tab")
    page.wait_for_timeout(300)
    assert grid.evaluate(
        "(el) => el.contains(document.activeElement) && !document.activeElement.closest("
        "'[data-testid=stElementToolbar]')"
    )
    focused = page.screenshot(clip=clip)
    page.evaluate("() => document.activeElement.blur()")
    page.wait_for_timeout(300)
    assert not grid.evaluate("(el) => el.contains(document.activeElement)")
    assert change_contrast(page, focused, page.screenshot(clip=clip)) >= 3


# -- 4.1.3 Status Messages ------------------------------------------------------------------


def test_copied_is_said_in_a_status_region_there_before(server, page):
    frame = replay_frame(page, f"{server}/")
    frame.get_by_text("Share and export").click()
    copied = frame.locator(".link-row [role=status]")
    assert copied.count() == 1 and copied.text_content() == ""
    frame.get_by_role("button", name="Copy link").click()
    frame.wait_for_function(
        "() => document.querySelector('.link-row [role=status]').textContent !== ''"
    )
    assert copied.text_content() in ("copied", "selected: press Ctrl+C")


def test_the_page_says_a_right_answer_in_a_region_there_before(server, page):
    page.goto(f"{server}/convergence")
    settle(page, opened=True)
    live = page.locator("#pl-live")
    assert live.get_attribute("role") == "status" and live.get_attribute("aria-live") == "polite"
    assert live.text_content() == ""
    question = page.locator(".st-key-l02_check")  # the check question (the exercises follow)
    options = question.locator("[data-testid=stRadioOption]")
    for k in range(options.count()):
        options.nth(k).click()
        settle(page)
        right = page.locator(
            "[data-testid=stAlertContentSuccess] [data-testid=stMarkdownContainer]"
        )
        if right.count():
            break
    said = live.text_content()
    assert said.startswith("Right. ") and said == right.inner_text().strip()


def test_the_end_of_an_experiment_is_said(server, page):
    page.goto(f"{server}/experiments")
    settle(page, opened=True)
    page.get_by_text("Real data set").click()
    settle(page)
    for label, value in (("folds", "2"), ("epochs", "1"), ("worker processes", "1")):
        field = page.get_by_label(label, exact=True)
        field.fill(value)
        field.press("Enter")
        settle(page)
    page.get_by_role("button", name="Run").click()
    page.wait_for_function(
        "() => document.querySelector('#pl-live').textContent"
        ".startsWith('The experiment finished')",
        timeout=600_000,
    )
    title = page.locator("[data-testid=stMain] h2").first.inner_text()
    assert page.locator("#pl-live").text_content() == (
        f"The experiment finished: “{title.strip()}” is below."
    )


# -- 1.4.12 Text Spacing --------------------------------------------------------------------

#: JavaScript: the menu's entries whose text is cut: drawn beyond a box that clips it (an
#: ellipsis too: the text runs on under it).
CUT_JS = """() => [...document.querySelectorAll('[data-testid=stSidebarNav] a')].filter((a) => {
  const range = document.createRange();
  range.selectNodeContents(a);
  const text = range.getBoundingClientRect();
  for (let box = a; box && box.dataset.testid !== 'stSidebar'; box = box.parentElement) {
    if (box !== a && !box.contains(a)) break;
    if (getComputedStyle(box).overflow === 'visible') continue;
    const r = box.getBoundingClientRect();
    if (text.left < r.left - 1 || text.right > r.right + 1 || text.top < r.top - 1
        || text.bottom > r.bottom + 1) return true;
  }
  for (const el of a.querySelectorAll('*')) {
    if (getComputedStyle(el).overflow === 'visible') continue;
    const r = el.getBoundingClientRect(), inner = document.createRange();
    inner.selectNodeContents(el);
    const t = inner.getBoundingClientRect();
    if (t.width && (t.left < r.left - 1 || t.right > r.right + 1)) return true;
  }
  return false;
}).map((a) => a.innerText)"""


def test_text_spacing_cuts_no_entry_of_the_menu(server, page):
    page.goto(f"{server}/")
    settle(page, opened=True)
    page.get_by_text(re.compile(r"^View \d+ more$")).click()
    page.add_style_tag(content=TEXT_SPACING)
    page.wait_for_timeout(500)
    assert page.locator("[data-testid=stSidebarNav] a").count() >= 14  # every lesson is listed
    assert page.evaluate(CUT_JS) == []


# -- focus and announcements ----------------------------------------------------------------


def _press_focused(page, element, key: str, expect):
    """Focus ``element``, press ``key`` and return what ``expect`` (a page's ``expect_...``)
    waited for; again, up to three times, after a late script run drew the element anew
    without its focus (CI saw the first press lost)."""
    for _ in range(3):
        element.focus()
        try:
            with expect(timeout=10_000) as event:
                page.keyboard.press(key)
            return event.value
        except PlaywrightTimeoutError:
            settle(page)
    raise AssertionError(f"{key} on the focused element started nothing")


def test_the_focus_stays_on_a_download_button(server, page):
    page.goto(f"{server}/")
    settle(page, opened=True)
    page.get_by_text("Download the trace, the points or a web page").click()
    settle(page)
    button = page.get_by_role("button", name="Training points as CSV")
    _press_focused(page, button, "Enter", page.expect_download)
    page.wait_for_timeout(1000)
    assert button.evaluate("(el) => el === document.activeElement")


def test_the_focus_stays_on_the_uploader_after_a_file(server, page, tmp_path):
    csv = tmp_path / "points.csv"
    rows = [f"{k / 10},{(7 * k % 10) / 10},{1 if k % 2 else -1}" for k in range(20)]
    csv.write_text("x1,x2,label\n" + "\n".join(rows) + "\n")
    page.goto(f"{server}/?data=csv")
    settle(page, opened=True)
    upload = page.locator("[data-testid=stFileUploaderDropzone] button")
    chooser = _press_focused(page, upload, "Space", page.expect_file_chooser)
    chooser.set_files(str(csv))
    settle(page)
    page.wait_for_timeout(500)
    focused = page.evaluate(
        "() => document.activeElement.closest('[data-testid=stFileUploader]') !== null"
    )
    assert focused  # the uploader's "Add files", where "Upload" was, not the page's body


def test_a_lesson_panels_chart_is_named(server, page):
    """Lesson 3's accuracy trail is named by its own title (the panel's title is above it)."""
    frame = replay_frame(page, f"{server}/when_data_are_not_separable")
    charts = frame.locator(".extras .js-plotly-plot")
    assert charts.count() >= 1
    for k in range(charts.count()):
        chart = charts.nth(k)
        name = chart.get_attribute("aria-label")
        assert name == "Training and test accuracy"
        first = chart.get_attribute("aria-describedby").split()[0]
        described = frame.locator(f"#{first}").text_content()
        assert described.startswith(f"{name}, at hypothesis ")


def test_a_new_learner_and_compare_mode_are_said(server, page):
    page.goto(f"{server}/")
    settle(page, opened=True)
    live = page.locator("#pl-live")
    assert live.text_content() == ""  # opening the page says nothing
    page.get_by_role("combobox", name="Learner").click()
    page.keyboard.type("Perceptron with margin (PAM)")  # the list shows only a few at a time
    page.keyboard.press("Enter")
    settle(page)
    assert live.text_content() == (
        "The replay now shows Perceptron with margin (PAM) on Separable with a margin (2-D): "
        "2,000 steps."
    )
    page.get_by_role("combobox", name="Compare with").click()
    page.keyboard.type("Passive-Aggressive")
    page.keyboard.press("Enter")
    page.keyboard.press("Escape")
    settle(page)
    assert live.text_content() == (
        "Compare mode: Perceptron with margin (PAM) and Passive-Aggressive side by side on "
        "Separable with a margin (2-D)."
    )


#: JavaScript: how often the scrubber's spoken value changes over ``seconds`` of playing.
VALUETEXT_JS = """(seconds) => new Promise((done) => {
  const scrubber = document.querySelector('.scrubber');
  let changes = 0;
  new MutationObserver((records) => { changes += records.length; })
    .observe(scrubber, {attributes: true, attributeFilter: ['aria-valuetext']});
  document.querySelector('.btn-play').click();
  setTimeout(() => { document.querySelector('.btn-play').click(); done(changes); },
             seconds * 1000);
})"""


def test_the_scrubbers_spoken_value_changes_as_seldom_as_the_live_region(replay):
    page = replay
    page.locator(".speed").select_option("20")
    changes = page.evaluate(VALUETEXT_JS, 2.5)
    # at the start, and once 3 s after (not within 2.5 s), and at the pause: 20 steps a second
    # changed it at every frame
    assert changes <= 2
    painted = page.evaluate("() => window.playback.painted")
    assert painted >= 30  # it did play
    text = page.locator(".scrubber").get_attribute("aria-valuetext")
    assert text.startswith(f"step {painted:,} of ")  # paused: the value is where it stopped


def test_play_says_at_once_where_it_starts(replay):
    page = replay
    live = page.locator(LIVE)
    page.locator(".btn-step").click()
    page.wait_for_function(
        "(sel) => document.querySelector(sel).textContent.startsWith('Step 1 ')", arg=LIVE
    )
    page.locator(".btn-play").click()
    page.wait_for_function(
        "(sel) => document.querySelector(sel).textContent.startsWith('Playing')",
        arg=LIVE,
        timeout=500,
    )
    page.locator(".btn-play").click()
    assert live.text_content().startswith("Paused at step ")
