"""The import graph of a folder of ES modules, read with a small JavaScript tokenizer.

The exported page (:mod:`ui.standalone_page`) carries the replay's modules (``ui/playback/``)
as text; its host script makes each one a module at a ``blob:`` URL, with each import
pointed at the URL of the module it names. A module's URL must exist before the modules that
import it are made, so the page holds them dependencies first. :func:`module_graph` gives that
order, and where each import's specifier sits in its module's text, so the host replaces
exactly those characters and searches nothing.

Imports are read from tokens, not from the text: ``import ... from "./x.js"`` inside a
comment, a string or a template literal is not an import, and a regular expression that holds
a quote does not open a string. The tokenizer knows as much JavaScript as that takes
(comments, strings, template literals and their ``${}``, regular expressions, names, numbers,
punctuation) and parses nothing else. Whether a ``/`` divides or opens a regular expression
is decided as tokenizers without a parser decide it, by the token before: after a name (not a
keyword such as ``return``), a number, a literal, ``)``, ``]``, ``++`` or ``--`` it divides.
So ``if (ok) /x/.test(s)`` is misread; a string or regular expression then left open at the
end of its line is reported, with the line, rather than read past.

Every module is read and none is run: no Node.js is needed, at run time (the app, the command
line and the notebook widget build the page) or to develop.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple


class ModuleGraphError(ValueError):
    """A folder of modules the page cannot be made from: an import cycle, an import of a module
    that is not there or not in the folder, or text the tokenizer cannot read."""


class Token(NamedTuple):
    """A token of JavaScript: its kind ("name", "number", "string", "template", "regex" or
    "punct"), its text and where it starts in the source (a Python index)."""

    kind: str
    text: str
    start: int

    @property
    def end(self) -> int:
        return self.start + len(self.text)


class Import(NamedTuple):
    """An import of a module: the module of the folder it names and where its specifier (the
    string literal, quotes included) is in the importing module's text, as JavaScript indexes
    a string (UTF-16 code units: what ``String.prototype.slice`` takes)."""

    module: str
    start: int
    end: int


@dataclass(frozen=True)
class Module:
    """A module of the folder: its file name, its text and its imports in the order written."""

    name: str
    source: str
    imports: tuple[Import, ...]


#: Names after which an expression starts: a ``/`` there opens a regular expression.
_BEFORE_EXPRESSION = frozenset(
    "return typeof instanceof in of new delete void throw case do else yield await".split()
)
#: Punctuation after which a ``/`` divides (what ends an operand).
_ENDS_OPERAND = frozenset({")", "]", "++", "--"})
# The lexemes that need no context, each matched where the tokenizer stands (a pattern per
# token, as tokenizers are written; the imports are then read from the tokens).
#: White space and comments, any number of them (an unclosed /* is left for the tokenizer).
_GAP = re.compile(r"(?:\s|//[^\n]*|/\*.*?\*/)*", re.DOTALL)
#: A token that needs no context: a string literal closed on its line (a backslash escapes
#: the next character, a line end too); a number (digits and what may follow them: ., x, e,
#: n, _; an exponent's sign is punctuation); a name (letters, digits, _ and $, and any
#: character past ASCII); punctuation but for /, {, } and the backtick (they need context).
_LEXEME = re.compile(
    r"""(?P<string>"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')"""
    r"|(?P<number>\.?\d[\w.]*)"
    r"|(?P<name>[\w$\u0080-\U0010ffff]+)"
    r"|(?P<punct>\+\+|--|[^\s\w$\u0080-\U0010ffff\"'`/{}])",
    re.DOTALL,
)
#: A regular expression's flags.
_FLAGS = re.compile(r"[a-z]*")


def _line(source: str, at: int) -> int:
    return source.count("\n", 0, at) + 1


def _fail(source: str, at: int, what: str) -> ModuleGraphError:
    return ModuleGraphError(f"line {_line(source, at)}: {what}")


def _regex_end(source: str, start: int) -> int:
    """The end of the regular expression literal opened at ``start``, its flags included (it
    may not run past its line; a ``/`` in a ``[...]`` class does not close it)."""
    i, in_class = start + 1, False
    while i < len(source) and source[i] != "\n":
        char = source[i]
        if char == "\\":
            i += 2
            continue
        if char in "[]":
            in_class = char == "["
        elif char == "/" and not in_class:
            return _FLAGS.match(source, i + 1).end()
        i += 1
    raise _fail(source, start, "a regular expression is not closed on its line")


def _template_end(source: str, start: int) -> tuple[int, bool]:
    """The end of a template literal's piece starting at ``start`` (after the backtick, or
    after the ``}`` that closes a ``${``), and whether it ends by opening a ``${``."""
    i = start
    while i < len(source):
        if source[i] == "\\":
            i += 2
        elif source[i] == "`":
            return i + 1, False
        elif source.startswith("${", i):
            return i + 2, True
        else:
            i += 1
    raise _fail(source, start, "a template literal is not closed")


def _regex_may_start(previous: Token | None) -> bool:
    """Whether a ``/`` after ``previous`` opens a regular expression (rather than divides)."""
    if previous is None:
        return True
    if previous.kind == "name":
        return previous.text in _BEFORE_EXPRESSION
    if previous.kind == "punct":
        return previous.text not in _ENDS_OPERAND
    # after a literal it divides; a template piece that opened a `${` starts an expression
    return previous.kind == "template" and previous.text.endswith("${")


def tokens(source: str) -> Iterator[Token]:
    """The tokens of a JavaScript module's text, comments and white space left out.

    Examples
    --------
    >>> [t.text for t in tokens('x = a / 2; // "./x.js"\\ny = /"/g;')]
    ['x', '=', 'a', '/', '2', ';', 'y', '=', '/"/g', ';']
    >>> [t.kind for t in tokens("`a ${b + `c`} d`")]
    ['template', 'name', 'punct', 'template', 'template']
    """
    braces: list[str] = []  # for each open brace: "{", or "${" in a template literal
    previous: Token | None = None
    i = _GAP.match(source).end()
    while i < len(source):
        char = source[i]
        lexeme = _LEXEME.match(source, i)
        if lexeme is not None:
            end, kind = lexeme.end(), lexeme.lastgroup or ""
        elif char in "\"'":
            raise _fail(source, i, "a string is not closed on its line")
        elif char == "`" or (char == "}" and braces[-1:] == ["${"]):
            if char == "}":
                braces.pop()
            end, opens = _template_end(source, i + 1)
            kind = "template"
            if opens:
                braces.append("${")
        elif source.startswith("/*", i):
            raise _fail(source, i, "a comment is not closed")
        elif char == "/" and _regex_may_start(previous):
            end, kind = _regex_end(source, i), "regex"
        else:  # "/" that divides, "{", "}"
            end, kind = i + 1, "punct"
            if char == "{":
                braces.append("{")
            elif char == "}" and braces:
                braces.pop()
        previous = Token(kind, source[i:end], i)
        yield previous
        i = _GAP.match(source, end).end()


def _after_bindings(toks: list[Token], j: int) -> int:
    """The index after an import's or export's bindings starting at ``toks[j]``: ``*`` or
    ``* as name``, ``{ ... }``, or a default name optionally followed by ``, `` and one of
    those."""
    if j >= len(toks):
        return j
    if toks[j].text == "{":
        while j < len(toks) and toks[j].text != "}":
            j += 1
        return j + 1
    if toks[j].text == "*":
        return j + 3 if j + 1 < len(toks) and toks[j + 1].text == "as" else j + 1
    if toks[j].kind == "name" and j + 1 < len(toks) and toks[j + 1].text == ",":
        return _after_bindings(toks, j + 2)
    return j + 1


def _from_specifier(toks: list[Token], j: int) -> Token | None:
    """The specifier of ``from "..."`` at ``toks[j]``, None when ``toks[j]`` is not ``from``."""
    if j + 1 < len(toks) and toks[j].text == "from" and toks[j + 1].kind == "string":
        return toks[j + 1]
    return None


def _specifiers(source: str, toks: list[Token]) -> Iterator[Token]:
    """The string tokens naming what ``source`` (read into ``toks``) imports: ``import "x"``,
    ``import ... from "x"``, ``import("x")`` and ``export ... from "x"``, in the order written."""
    for k, tok in enumerate(toks):
        if tok.kind != "name" or tok.text not in ("import", "export"):
            continue
        if k and toks[k - 1].text == ".":  # a property: obj.import
            continue
        after = toks[k + 1] if k + 1 < len(toks) else None
        if after is None or after.text in (":", "."):  # a key { import: 1 }; import.meta
            continue
        if tok.text == "export":
            if after.text in ("*", "{"):
                specifier = _from_specifier(toks, _after_bindings(toks, k + 1))
                if specifier is None and after.text == "*":
                    raise _fail(source, tok.start, "export * without from")
                if specifier is not None:
                    yield specifier
            continue
        if after.text == "(":
            called = toks[k + 2 : k + 4]
            if [t.kind for t in called] not in (["string", "punct"],) or called[
                1
            ].text not in "),":
                raise _fail(source, tok.start, "import() of a computed name: name the module")
            yield called[0]
        elif after.kind == "string":
            yield after
        else:
            specifier = _from_specifier(toks, _after_bindings(toks, k + 1))
            if specifier is None:
                raise _fail(source, tok.start, "an import this reader does not understand")
            yield specifier


def compacted(source: str) -> str:
    """``source`` as the exported page carries it: every token as written; between two tokens
    on one line the white space as written (a single space where a comment was); and between
    two lines one line break, the comments, the indentation and the blank lines left out. A
    line break stays wherever there was one, so the rules that end a statement at a line break
    read the text as before; white space inside a string or a template literal is its token's.

    Examples
    --------
    >>> print(compacted('// a note\\nconst a = "//x"; /* b */ let c = 1; // c\\n\\n  c++;\\n'))
    const a = "//x"; let c = 1;
    c++;
    <BLANKLINE>
    """
    return _bare(source)[0]


def _bare(source: str) -> tuple[str, list[Token]]:
    """:func:`compacted` of ``source``, and its tokens (read once, for both)."""
    out, kept, at, length = [], [], 0, 0
    for token in tokens(source):
        gap = source[at : token.start]
        if "\n" in gap:  # a statement may end here: one line break, nothing else
            gap = "\n"
        elif "/" in gap:  # a comment within the line: white space is all a gap holds besides
            gap = " "
        gap = gap if at else ""
        kept.append(Token(token.kind, token.text, length + len(gap)))
        out += [gap, token.text]
        length += len(gap) + len(token.text)
        at = token.end
    return "".join(out) + ("\n" if source[at:].strip(" \t") else ""), kept


def _utf16(source: str, at: int) -> int:
    """Python's index ``at`` in ``source`` as JavaScript's (UTF-16 code units)."""
    return len(source[:at].encode("utf-16-le")) // 2


def read_module(folder: Path, name: str, compact: bool = False) -> Module:
    """The module ``name`` of ``folder``, with its imports (each a module of the folder);
    :func:`compacted` if ``compact``.

    Raises
    ------
    ModuleGraphError
        An import names something other than ``"./<file>.js"``, or the tokenizer cannot read
        the text (the message gives the module and the line).
    """
    source = (folder / name).read_text(encoding="utf-8")
    found = []
    try:
        if compact:
            source, toks = _bare(source)
        else:
            toks = list(tokens(source))
        for specifier in _specifiers(source, toks):
            text = specifier.text[1:-1]
            module = text.removeprefix("./")
            if not text.startswith("./") or "/" in module or "\\" in module:
                raise _fail(
                    source,
                    specifier.start,
                    f"imports {specifier.text}; a module here imports the folder's own"
                    ' modules only, by "./<file>.js"',
                )
            start = _utf16(source, specifier.start)
            found.append(
                Import(module, start, start + _utf16(specifier.text, len(specifier.text)))
            )
    except ModuleGraphError as error:
        raise ModuleGraphError(f"{folder.name}/{name}, {error}") from None
    return Module(name, source, tuple(found))


def module_graph(folder: Path, entry: str, compact: bool = False) -> tuple[Module, ...]:
    """``entry`` and every module of ``folder`` it imports, directly or not, each once and
    after the modules it imports (a depth-first walk of the import graph from ``entry``).

    Parameters
    ----------
    folder : Path
        The modules' folder; a module imports another as ``"./<file>.js"``.
    entry : str
        The file name of the module that starts the others (the last one returned).
    compact : bool
        Each module's text :func:`compacted` (no comments, indentation or blank lines).

    Raises
    ------
    ModuleGraphError
        A module imports one that is not in ``folder``; modules import each other in a circle
        (the message names it: the page makes each module after those it imports, so a cycle
        cannot be made); or a module's text cannot be read (see :func:`read_module`).

    Examples
    --------
    >>> from perceptron_lab.ui.standalone_page import ENTRY, PLAYBACK
    >>> modules = module_graph(PLAYBACK, ENTRY)
    >>> names = [m.name for m in modules]
    >>> names[-1], names.index("dom.js") < names.index("controls.js")
    ('main.js', True)
    >>> "dom.js" in {i.module for i in modules[-1].imports}
    True
    """
    if not (folder / entry).is_file():
        raise ModuleGraphError(f"{folder.name}/{entry}: the entry module is not there")
    done: dict[str, Module] = {}

    def visit(name: str, path: tuple[str, ...]) -> None:
        module = read_module(folder, name, compact)
        for imported in module.imports:
            if imported.module in path + (name,):
                cycle = " -> ".join(path[path.index(imported.module) :] + (name, imported.module))
                raise ModuleGraphError(
                    f"{folder.name}: {cycle} is an import cycle; the page makes each module "
                    "after the modules it imports, so they cannot import each other in a circle"
                )
            if imported.module in done:
                continue
            if not (folder / imported.module).is_file():
                raise ModuleGraphError(
                    f"{folder.name}/{name} imports ./{imported.module}, which is not a module "
                    f"of {folder.name}/"
                )
            visit(imported.module, path + (name,))
        done[name] = module

    visit(entry, ())
    return tuple(done.values())
