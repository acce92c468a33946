"""What every page of the app carries into the browser: ``ui/pages.css`` and ``ui/pages.js``.

``pages.js`` imports a few modules of the replay (``playback/``): the code the replay uses
for the same jobs (boxes that scroll sideways, the reader's settings, sound, a chart walked
by the keyboard). A ``<script>`` that Streamlit puts into the page has no URL to import from,
so each imported module's text is written in place of its import: one inline module, with
nothing to fetch. That works for modules that import nothing themselves (their names then
share one scope, where a name declared twice is an error the browser reports); an imported
module that imports is refused here.

Checking the modules (each one's imports, read by tokenizing its text) costs more than the
rest of a page's assets; a page run reads the files, and checks them only when this process
has not checked the same texts before (``docs/benchmarks.md``, "Lean views").
"""

from __future__ import annotations

import dataclasses
import functools
import re
from pathlib import Path

import streamlit as st

from perceptron_lab.ui.module_graph import module_graph

UI = Path(__file__).resolve().parent
PLAYBACK = UI / "playback"
#: An import of ``pages.js``: one line, ``import { names } from "./playback/<file>.js";``.
IMPORT = re.compile(r'^import \{[^}]*\} from "\./playback/([\w-]+\.js)";\n', re.MULTILINE)
#: Text that Streamlit's HTML element reads as markup even inside a script (a tag's start, an
#: end tag, a comment), after which the browser runs none of the script, silently.
MARKUP = re.compile(r"<[A-Za-z/!]")


def imported_modules(source: str) -> list[str]:
    """The replay's modules ``source`` (``pages.js``) imports, in its order.

    Raises
    ------
    ValueError
        If one of them imports a module itself (it cannot be written in place of its import).

    Examples
    --------
    >>> imported_modules('import { say } from "./playback/settings.js";\\nsay();\\n')
    ['settings.js']
    """
    names = IMPORT.findall(source)
    for name in names:
        reached = [module.name for module in module_graph(PLAYBACK, name)]
        if reached != [name]:
            raise ValueError(
                f"ui/pages.js imports playback/{name}, which imports {reached[:-1]}: only a "
                "module that imports nothing can be written into the pages' script"
            )
    return names


def pages_script() -> str:
    """``<script type="module">`` with ``pages.js`` and the modules it imports.

    Raises
    ------
    ValueError
        If ``pages.js`` imports anything but modules of ``playback/`` that import nothing, or
        if the script holds :data:`MARKUP` (write "a caption", not the tag, in its comments).

    Examples
    --------
    >>> script = pages_script()
    >>> script.startswith('<script type="module">'), "import {" in script
    (True, False)
    """
    source = (UI / "pages.js").read_text(encoding="utf-8")
    modules = tuple((name, _text(PLAYBACK / name)) for name in IMPORT.findall(source))
    return _checked_script(source, modules)


def _text(path: Path) -> str | None:
    """The file's text, or None when there is no such file (the check then says so)."""
    return path.read_text(encoding="utf-8") if path.is_file() else None


@functools.lru_cache(maxsize=4)
def _checked_script(source: str, modules: tuple[tuple[str, str | None], ...]) -> str:
    """:func:`pages_script` of ``pages.js``'s text and its modules' (name, text): the same
    texts give the same script, so the process checks them once (an edit is another key; a
    refusal raises again at every call)."""
    names = imported_modules(source)
    texts = dict(modules)
    inlined = IMPORT.sub(lambda m: texts[m.group(1)], source)
    if left := re.search(r"^\s*import\b.*$", inlined, re.MULTILINE):
        raise ValueError(
            'ui/pages.js should import only as `import { ... } from "./playback/<file>.js";`, '
            f"one line each; it has {left.group().strip()!r}"
        )
    if found := MARKUP.search(inlined):
        line = inlined.count("\n", 0, found.start()) + 1
        raise ValueError(
            f"the pages' script has markup at line {line} ({found.group()!r}): "
            f"the page would not run it (modules written in: {', '.join(names)})"
        )
    return f'<script type="module">{inlined}</script>'


@dataclasses.dataclass(frozen=True)
class Markup:
    """HTML that ``st.html`` sends as it is: it reads an object's ``_repr_html_`` as the body.

    A plain string body it first dedents and strips, a walk over all 36 kB of the pages'
    style and script at every run of every page; their lines start at the line's start, so
    that walk never changes them.

    Examples
    --------
    >>> Markup("<b>x</b>")._repr_html_()
    '<b>x</b>'
    """

    text: str

    def _repr_html_(self) -> str:
        return self.text


def add_page_assets() -> None:
    """Put the pages' style and script into the page being drawn (the router, on every run)."""
    st.html(Markup(f"<style>{(UI / 'pages.css').read_text(encoding='utf-8')}</style>"))
    st.html(Markup(pages_script()), unsafe_allow_javascript=True)
