"""The exported page's bundler (:mod:`ui.module_graph`) on folders of modules made here: what is
an import and what only looks like one, the order, the places of the specifiers that the page's
host replaces, and a clear message for a cycle, a missing module and text it cannot read."""

from __future__ import annotations

import json
import re
from itertools import pairwise

import pytest

from perceptron_lab.ui.module_graph import (
    ModuleGraphError,
    compacted,
    module_graph,
    tokens,
)
from perceptron_lab.ui.standalone_page import PLAYBACK, page_template, playback_modules


def _folder(tmp_path, **modules: str):
    """A folder with a module per keyword (``a_b="..."`` writes ``a-b.js``)."""
    for name, source in modules.items():
        (tmp_path / f"{name.replace('_', '-')}.js").write_text(source, encoding="utf-8")
    return tmp_path


def _names(graph) -> list[str]:
    return [module.name for module in graph]


#: Text that holds import statements without importing: a line comment, a block comment, a
#: string, a template literal (its text and inside its ${}), and regular expressions with
#: quotes, slashes and backticks in them.
LOOKALIKES = r"""// import { a } from "./a.js";
/* import "./a.js";
   export * from "./a.js"; */
const s = 'import { a } from "./a.js";';
const t = `
import { a } from "./a.js";
${ "import('./a.js')" + `export { a } from "./a.js"` }`;
const r = /"\/|`/g, q = /[/"]import "\.\/a.js"/;
const ratio = 10 / 2 / 5; // "divides", not a regular expression
"""


def test_imports_in_comments_strings_templates_and_regular_expressions_are_not_imports(tmp_path):
    folder = _folder(
        tmp_path,
        main=LOOKALIKES + 'import { b } from "./b.js";\n',
        a="export const a = 1;\n",
        b="export const b = 2;\n",
    )
    (main,) = [m for m in module_graph(folder, "main.js") if m.name == "main.js"]
    assert [i.module for i in main.imports] == ["b.js"]
    assert _names(module_graph(folder, "main.js")) == ["b.js", "main.js"]


def test_every_form_of_import_and_re_export_is_read_in_the_order_written(tmp_path):
    source = (
        'import "./a.js";\n'
        'import b from "./b.js";\n'
        'import c, { x as y, "z-z" as z } from "./c.js";\n'
        'import * as d from "./d.js";\n'
        "import {\n  from,\n  e1,\n} from './e.js';\n"
        'export { f } from "./f.js";\n'
        'export * from "./g.js";\n'
        'export * as h from "./h.js";\n'
        "export { local };\nconst local = import.meta.url + obj.import + { import: 1 }.import;\n"
        'const later = () => import("./i.js");\n'
    )
    names = "abcdefghi"
    folder = _folder(tmp_path, main=source, **{n: "export default 1;\n" for n in names})
    graph = module_graph(folder, "main.js")
    assert [i.module for i in graph[-1].imports] == [f"{n}.js" for n in names]
    assert _names(graph) == [f"{n}.js" for n in names] + ["main.js"]


def test_each_specifiers_place_is_given_as_javascript_indexes_a_string(tmp_path):
    """After a character outside the BMP (two UTF-16 code units, one Python character) the
    places differ from Python's: the page's host slices JavaScript strings."""
    source = '// 𝑤 and w*\nimport { b } from "./b.js"; import "./c.js";\n'
    folder = _folder(tmp_path, main=source, b="export const b = 1;\n", c="")
    main = module_graph(folder, "main.js")[-1]
    units = source.encode("utf-16-le")
    found = [units[2 * i.start : 2 * i.end].decode("utf-16-le") for i in main.imports]
    assert found == ['"./b.js"', '"./c.js"']
    assert [i.start for i in main.imports] != [source.index('"./b.js"'), source.index('"./c.js"')]
    # what ui/playback/standalone.js does with them
    parts, at = [], 0
    for i in main.imports:
        parts += [units[2 * at : 2 * i.start].decode("utf-16-le"), f'"blob:{i.module}"']
        at = i.end
    rewritten = "".join(parts) + units[2 * at :].decode("utf-16-le")
    assert rewritten == source.replace('"./b.js"', '"blob:b.js"').replace(
        '"./c.js"', '"blob:c.js"'
    )


def test_each_module_comes_once_after_every_module_it_imports(tmp_path):
    folder = _folder(
        tmp_path,
        main='import "./left.js";\nimport "./right.js";\n',
        left='import "./base.js";\n',
        right='import "./base.js";\nimport "./left.js";\n',
        base="",
        unused="",
    )
    assert _names(module_graph(folder, "main.js")) == ["base.js", "left.js", "right.js", "main.js"]


def test_an_import_cycle_is_reported_with_its_modules(tmp_path):
    folder = _folder(
        tmp_path,
        main='import "./a.js";\n',
        a='import "./b.js";\n',
        b='import "./c.js";\n',
        c='import "./a.js";\n',
    )
    with pytest.raises(
        ModuleGraphError, match=re.escape("a.js -> b.js -> c.js -> a.js is an import cycle")
    ):
        module_graph(folder, "main.js")


def test_a_module_that_is_not_there_is_named_with_the_module_that_imports_it(tmp_path):
    folder = _folder(tmp_path, main='import "./a.js";\n', a='import { x } from "./nope.js";\n')
    message = f"{tmp_path.name}/a.js imports ./nope.js, which is not a module of {tmp_path.name}/"
    with pytest.raises(ModuleGraphError, match=re.escape(message)):
        module_graph(folder, "main.js")
    with pytest.raises(ModuleGraphError, match="the entry module is not there"):
        module_graph(folder, "other.js")


@pytest.mark.parametrize(
    ("source", "message"),
    [
        ('import Plotly from "plotly";', 'line 2: imports "plotly"; a module here imports the'),
        ('import "../ui.js";', 'line 2: imports "../ui.js"'),
        ('import "./sub/x.js";', 'line 2: imports "./sub/x.js"'),
        ("const m = import(name);", "line 2: import() of a computed name: name the module"),
        ('const s = "open;', "line 2: a string is not closed on its line"),
        ("const r = /open;", "line 2: a regular expression is not closed on its line"),
        ("const t = `open;", "line 2: a template literal is not closed"),
        ("/* open", "line 2: a comment is not closed"),
        ("import { a };", "line 2: an import this reader does not understand"),
    ],
)
def test_text_the_reader_cannot_take_is_a_clear_error_with_the_module_and_line(
    tmp_path, source, message
):
    folder = _folder(tmp_path, main=f"// first line\n{source}\n")
    with pytest.raises(ModuleGraphError, match=re.escape(f"{tmp_path.name}/main.js, {message}")):
        module_graph(folder, "main.js")


def test_a_slash_divides_after_an_operand_and_opens_a_regular_expression_elsewhere():
    source = "a = b / c / d; e = (f) / 2; g = h[0] / i++ / 2; return /x/g; k = [/y/, /z/];"
    regexes = [t.text for t in tokens(source) if t.kind == "regex"]
    assert regexes == ["/x/g", "/y/", "/z/"]


def test_the_page_carries_where_each_playback_modules_imports_are():
    """The page's playback-imports, applied as its host applies them, point every specifier of
    every module it carries at another module of the page, and touch nothing else."""
    page = page_template()
    imports = json.loads(
        re.search(
            r'<script type="application/json" id="playback-imports">(.*?)</script>', page, re.S
        ).group(1)
    )
    carried = re.findall(r'<script type="text/plain" data-module="([\w-]+\.js)">', page)
    assert list(imports) == carried == [m.name for m in playback_modules()]
    for module in playback_modules():
        units = module.source.encode("utf-16-le")
        for name, start, end in imports[module.name]:
            assert units[2 * start : 2 * end].decode("utf-16-le") == f'"./{name}"'
            assert carried.index(name) < carried.index(module.name)
    assert sum(len(spans) for spans in imports.values()) >= 60


@pytest.mark.parametrize("path", sorted(PLAYBACK.glob("*.js")), ids=lambda p: p.name)
def test_a_compacted_module_keeps_every_token_and_line_break(path):
    """What the page carries of a module: the same tokens, and a line break between two tokens
    wherever there was one (a statement may end at one); the comments and indentation gone."""
    source = path.read_text(encoding="utf-8")
    bare = compacted(source)
    before, after = list(tokens(source)), list(tokens(bare))
    assert [t.text for t in after] == [t.text for t in before]
    for (a, b), (c, d) in zip(pairwise(before), pairwise(after), strict=True):
        assert ("\n" in source[a.end : b.start]) == ("\n" in bare[c.end : d.start]), b.text
    gaps = [bare[c.end : d.start] for c, d in pairwise(after)]
    assert "// " not in "".join(gaps) and all(g == "\n" for g in gaps if "\n" in g)
    assert compacted(bare) == bare
