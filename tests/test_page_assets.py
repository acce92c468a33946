"""The script every page carries: ui/pages.js with scrollboxes.js written in, as one module."""

import pytest

from perceptron_lab.ui import page_assets


def test_the_pages_script_is_one_module_with_nothing_to_import():
    script = page_assets.pages_script()
    body = script.removeprefix('<script type="module">').removesuffix("</script>")
    assert "import " not in body  # nothing to fetch: the page has no URL to import from
    assert body.count("function watchScrollBoxes(") == 1
    assert "watchScrollBoxes(document.body," in body


def test_markup_in_the_script_is_refused_before_it_reaches_a_page(tmp_path, monkeypatch):
    """Streamlit's HTML element would run none of a script holding a tag, without a word."""
    imported = tmp_path / "scrollboxes.js"
    imported.write_text('// a name ("<caption>, ...")\nexport function watchScrollBoxes() {}\n')
    monkeypatch.setattr(page_assets, "IMPORTED", imported)
    with pytest.raises(ValueError, match=r"markup at line \d+ \('<c'\)"):
        page_assets.pages_script()


def test_a_changed_import_is_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(page_assets, "IMPORT", 'import { other } from "./other.js";\n')
    with pytest.raises(ValueError, match="should import once"):
        page_assets.pages_script()
