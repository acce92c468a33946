"""The script every page carries: ui/pages.js with the replay's modules it imports written in,
as one module."""

import pytest

from perceptron_lab.ui import page_assets


def test_the_pages_script_is_one_module_with_nothing_to_import():
    script = page_assets.pages_script()
    body = script.removeprefix('<script type="module">').removesuffix("</script>")
    assert "import " not in body  # nothing to fetch: the page has no URL to import from
    for declared in (
        "function watchScrollBoxes(",
        "class Sound ",
        "class ChartWalk ",
        "function storedSound(",
    ):
        assert body.count(declared) == 1, declared
    assert "watchScrollBoxes(document.body," in body


def _pages(folder, monkeypatch, pages_js: str, modules: dict[str, str]) -> None:
    """Make ``folder`` the pages' folder: ``pages.js`` and ``playback/`` with ``modules``."""
    (folder / "playback").mkdir()
    for name, text in modules.items():
        (folder / "playback" / name).write_text(text)
    (folder / "pages.js").write_text(pages_js)
    monkeypatch.setattr(page_assets, "UI", folder)
    monkeypatch.setattr(page_assets, "PLAYBACK", folder / "playback")


def test_markup_in_the_script_is_refused_before_it_reaches_a_page(tmp_path, monkeypatch):
    """Streamlit's HTML element would run none of a script holding a tag, without a word."""
    source = (page_assets.UI / "pages.js").read_text()
    modules = dict.fromkeys(page_assets.imported_modules(source), "export const x = 1;\n")
    _pages(tmp_path, monkeypatch, source, {**modules, "sound.js": '// a name ("<caption>")\n'})
    with pytest.raises(ValueError, match=r"markup at line \d+ \('<c'\)"):
        page_assets.pages_script()


def test_an_imported_module_that_imports_is_refused(tmp_path, monkeypatch):
    """Written in place of its import, its own import would have nothing to load."""
    a = 'import { b } from "./b.js";\nexport const a = b;\n'
    modules = {"a.js": a, "b.js": "export const b = 1;\n"}
    _pages(tmp_path, monkeypatch, 'import { a } from "./playback/a.js";\n', modules)
    with pytest.raises(ValueError, match=r"imports playback/a\.js, which imports \['b\.js'\]"):
        page_assets.pages_script()


def test_an_import_written_another_way_is_refused(tmp_path, monkeypatch):
    _pages(tmp_path, monkeypatch, 'import * as a from "./playback/a.js";\n', {})
    with pytest.raises(ValueError, match="should import only as"):
        page_assets.pages_script()


def test_the_modules_are_checked_once_per_text(tmp_path, monkeypatch):
    """Every page run asks for the script; the modules' check (tokenizing each one) runs again
    only when a file's text changed, and an edit is seen without a restart."""
    checked = []

    def counting(folder, name, *args, **kwargs):
        checked.append(name)
        return graph(folder, name, *args, **kwargs)

    graph = page_assets.module_graph
    monkeypatch.setattr(page_assets, "module_graph", counting)
    own = f"export const x = 1; // {tmp_path.name}\n"  # a text no other test checked
    _pages(tmp_path, monkeypatch, 'import { x } from "./playback/x.js";\nx;\n', {"x.js": own})
    first = page_assets.pages_script()
    assert page_assets.pages_script() == first and checked == ["x.js"]
    (tmp_path / "playback" / "x.js").write_text(own + "// a name (<b>)\n")
    with pytest.raises(ValueError, match="markup"):
        page_assets.pages_script()
    assert checked == ["x.js", "x.js"]


def test_a_missing_module_is_named(tmp_path, monkeypatch):
    _pages(tmp_path, monkeypatch, 'import { a } from "./playback/a.js";\n', {})
    with pytest.raises(ValueError, match="a.js"):
        page_assets.pages_script()
