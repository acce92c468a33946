"""Crafted links in a real browser: no exception box, the values shown as text.

Uses the server and page of ``test_e2e_browser`` (Debian's chromium). Every
request the page makes is recorded: a link's Markdown image must not make
the browser fetch anything.
"""

from __future__ import annotations

from urllib.parse import quote, urlsplit

import pytest

from perceptron_lab.app_logic.visitor_text import as_text

pytestmark = pytest.mark.browser

MARKDOWN = "[log in](https://example.com) ![i](http://127.0.0.1:9/t.png) <b>x</b>"

LINKS = [  # (query, what the toast says, text the toast shows as typed)
    ("epochs=" + quote(MARKDOWN), "was not understood", MARKDOWN),
    ("epochs=" + "9" * 60_000, "60,000 characters long", None),
    (
        "data=" + quote("<img src=x onerror=alert(1)>"),
        "was not understood",
        "<img src=x onerror=alert(1)>",
    ),
    ("noise=uniform&noise_rate=nan", "was not understood", "nan"),
    (
        "hide=" + "x," * 20_000 + "&seed=" + quote("$x$ :red[r]"),
        "was not understood",
        "$x$ :red[r]",
    ),
]

#: The toast that says ``says``: its text, and how many links, images, formulas and bold
#: runs it holds (None until it is there).
TOAST_JS = """(says) => {
    const toast = [...document.querySelectorAll('[data-testid=stToast]')]
        .find(el => el.innerText.includes(says));
    return toast && {text: toast.innerText,
                     marked: toast.querySelectorAll('a, img, .katex, strong').length};
}"""


@pytest.mark.parametrize("query, says, shown", LINKS, ids=lambda v: str(v)[:20])
def test_a_hostile_link_opens_the_page_and_shows_its_value_as_text(
    server,
    page,
    query,
    says,
    shown,  # noqa: F811  (the imported fixtures)
):
    requested = []
    page.on("request", record := lambda request: requested.append(request.url))
    try:
        page.goto(f"{server}/?{query}")
        # read the toast in the page the moment it is there: it fades after a few seconds
        toast = page.wait_for_function(TOAST_JS, arg=says, timeout=60_000).json_value()
        page.get_by_role("heading", name="Playground").wait_for(timeout=60_000)
        assert page.locator("[data-testid=stException]").count() == 0
    finally:
        page.remove_listener("request", record)
    if shown is not None:  # as typed (and cut)
        assert as_text(shown, markdown=False) in toast["text"].replace("\u2060", "")
    assert toast["marked"] == 0
    assert not {urlsplit(url).netloc for url in requested} & {"127.0.0.1:9", "example.com"}
