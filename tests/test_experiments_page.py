"""Smoke test of the experiments page: it runs a small search and draws its results."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

PAGE = Path(__file__).parent.parent / "app_pages" / "experiments.py"


def _small(app):
    app.multiselect(key="exp_noise").set_value([0.1])
    app.number_input(key="exp_count").set_value(1)
    app.number_input(key="exp_folds").set_value(3)
    app.number_input(key="exp_epochs").set_value(10)
    app.number_input(key="exp_jobs").set_value(1)


def test_search_shows_table_heat_maps_and_downloads(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    app = AppTest.from_file(str(PAGE), default_timeout=120).run()
    assert not app.exception
    _small(app)
    app.button(key="exp_run").click().run()
    assert not app.exception and not app.error
    table = app.dataframe[0].value
    assert list(table.columns[:2]) == ["noise", "mode"] and len(table) == 4
    assert "±" not in str(table.iloc[0, 2])  # a search has no interval
    assert len(app.get("plotly_chart")) == 2  # the two heat maps
    assert any((tmp_path / "perceptron-lab" / "page-cells").rglob("*.npz"))  # cells cached on disk
    assert not (tmp_path / "perceptron-lab" / "cells").exists()  # the command line's stay apart


def test_epoch_curve_is_drawn(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    app = AppTest.from_file(str(PAGE), default_timeout=120).run()
    app.radio(key="exp_kind").set_value("Accuracy against epochs")
    _small(app)
    app.button(key="exp_run").click().run()
    assert not app.exception and not app.error
    assert len(app.get("plotly_chart")) == 1


def test_running_the_same_experiment_again_reads_the_disk_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    app = AppTest.from_file(str(PAGE), default_timeout=120).run()
    _small(app)
    app.button(key="exp_run").click().run()
    first = app.dataframe[0].value
    cells = sorted((tmp_path / "perceptron-lab" / "page-cells").rglob("*.npz"))
    stamps = [c.stat().st_mtime_ns for c in cells]
    app.button(key="exp_run").click().run()  # a second press once replayed a dead progress bar
    assert not app.exception and not app.error
    assert app.dataframe[0].value.equals(first)
    assert [c.stat().st_mtime_ns for c in cells] == stamps  # read, not recomputed


def test_the_caption_names_the_folds_chosen(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    app = AppTest.from_file(str(PAGE), default_timeout=120).run()
    assert any(c.value.startswith("10-fold cross-validated") for c in app.caption)
    app.number_input(key="exp_folds").set_value(2).run()
    captions = [c.value for c in app.caption]
    assert any(c.startswith("2-fold cross-validated") for c in captions)
    assert not any("10-fold cross-validated" in c for c in captions)
    app.radio(key="exp_kind").set_value("Parameter optimisation").run()
    assert any("each of the 2 outer training parts" in c.value for c in app.caption)
