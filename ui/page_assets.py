"""What every page of the app carries into the browser: ``ui/pages.css`` and ``ui/pages.js``.

``pages.js`` imports :file:`playback/scrollboxes.js`, the code the replay uses for the same
job. A ``<script>`` that Streamlit puts into the page has no URL to import from, so the
imported module's text is written in place of the import: one inline module, with nothing
to fetch.
"""

from __future__ import annotations

import re
from pathlib import Path

import streamlit as st

UI = Path(__file__).resolve().parent
#: The one import of ``pages.js``, as it is written there, and the module it names.
IMPORT = 'import { watchScrollBoxes } from "./playback/scrollboxes.js";\n'
IMPORTED = UI / "playback" / "scrollboxes.js"
#: Text that Streamlit's HTML element reads as markup even inside a script (a tag's start, an
#: end tag, a comment), after which the browser runs none of the script, silently.
MARKUP = re.compile(r"<[A-Za-z/!]")


def pages_script() -> str:
    """``<script type="module">`` with ``pages.js`` and the module it imports.

    Raises
    ------
    ValueError
        If ``pages.js`` does not hold :data:`IMPORT` once (its import changed and this
        function was not told), or if the script holds :data:`MARKUP` (write "a caption",
        not the tag, in its comments).

    Examples
    --------
    >>> script = pages_script()
    >>> script.startswith('<script type="module">'), "import {" in script
    (True, False)
    """
    source = (UI / "pages.js").read_text(encoding="utf-8")
    if source.count(IMPORT) != 1:
        raise ValueError(f"ui/pages.js should import once, as {IMPORT.strip()!r}; it does not")
    inlined = source.replace(IMPORT, IMPORTED.read_text(encoding="utf-8"))
    if found := MARKUP.search(inlined):
        line = inlined.count("\n", 0, found.start()) + 1
        raise ValueError(
            f"the pages' script has markup at line {line} ({found.group()!r}): "
            "the page would not run it"
        )
    return f'<script type="module">{inlined}</script>'


def add_page_assets() -> None:
    """Put the pages' style and script into the page being drawn (the router, on every run)."""
    st.html(f"<style>{(UI / 'pages.css').read_text(encoding='utf-8')}</style>")
    st.html(pages_script(), unsafe_allow_javascript=True)
