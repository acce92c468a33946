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


def test_markup_in_the_script_is_refused_before_it_reaches_a_page(tmp_path, monkeypatch):
    """Streamlit's HTML element would run none of a script holding a tag, without a word."""
    (tmp_path / "playback").mkdir()
    for name in page_assets.imported_modules((page_assets.UI / "pages.js").read_text()):
        (tmp_path / "playback" / name).write_text("export const x = 1;\n")
    (tmp_path / "playback" / "sound.js").write_text('// a name ("<caption>, ...")\n')
    (tmp_path / "pages.js").write_text((page_assets.UI / "pages.js").read_text())
    monkeypatch.setattr(page_assets, "UI", tmp_path)
    monkeypatch.setattr(page_assets, "PLAYBACK", tmp_path / "playback")
    with pytest.raises(ValueError, match=r"markup at line \d+ \('<c'\)"):
        page_assets.pages_script()


def test_an_imported_module_that_imports_is_refused(tmp_path, monkeypatch):
    """Written in place of its import, its own import would have nothing to load."""
    (tmp_path / "playback").mkdir()
    imports = 'import { b } from "./b.js";\n'
    (tmp_path / "playback" / "a.js").write_text(imports + "export const a = b;\n")
    (tmp_path / "playback" / "b.js").write_text("export const b = 1;\n")
    (tmp_path / "pages.js").write_text('import { a } from "./playback/a.js";\n')
    monkeypatch.setattr(page_assets, "UI", tmp_path)
    monkeypatch.setattr(page_assets, "PLAYBACK", tmp_path / "playback")
    with pytest.raises(ValueError, match=r"imports playback/a\.js, which imports \['b\.js'\]"):
        page_assets.pages_script()


def test_an_import_written_another_way_is_refused(tmp_path, monkeypatch):
    (tmp_path / "playback").mkdir()
    (tmp_path / "pages.js").write_text('import * as a from "./playback/a.js";\n')
    monkeypatch.setattr(page_assets, "UI", tmp_path)
    monkeypatch.setattr(page_assets, "PLAYBACK", tmp_path / "playback")
    with pytest.raises(ValueError, match="should import only as"):
        page_assets.pages_script()
