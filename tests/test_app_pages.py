"""Every page runs, and the playground's main widgets work, in Streamlit's AppTest."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from ui.learners import LEARNERS

APP = str(Path(__file__).resolve().parents[1] / "app.py")


def _no_failure(at: AppTest) -> None:
    assert not at.exception, [e.message for e in at.exception]
    assert not at.error, [e.value for e in at.error]


def _text(at: AppTest) -> str:
    return "\n".join(m.value for m in at.markdown)


@pytest.fixture
def app() -> AppTest:
    at = AppTest.from_file(APP, default_timeout=120)
    at.run()
    _no_failure(at)
    return at


def test_about_page_runs(app):
    app.switch_page("app_pages/about.py").run()
    _no_failure(app)
    assert any("Khardon" in m.value for m in app.markdown)


def test_step_buttons_move_through_the_recorded_run(app):
    assert app.session_state["pg_t"] == 0
    assert "Before the first example" in _text(app)
    app.button(key="pg_step").click().run()
    _no_failure(app)
    assert app.session_state["pg_t"] == 1
    first = _text(app)
    assert "Epoch **1**, example" in first
    app.button(key="pg_next_update").click().run()
    t = app.session_state["pg_t"]
    assert t > 1
    assert _text(app) != first
    app.button(key="pg_back").click().run()
    assert app.session_state["pg_t"] == t - 1
    app.button(key="pg_next_epoch").click().run()
    assert app.session_state["pg_t"] == 100  # the default set has 100 points: one epoch
    app.button(key="pg_reset").click().run()
    assert app.session_state["pg_t"] == 0
    _no_failure(app)


def test_play_advances_and_pause_stops(app):
    app.button(key="pg_play").click().run()
    _no_failure(app)
    assert app.session_state["pg_playing"] is True
    assert app.session_state["pg_t"] > 0  # the first frame moved on
    app.button(key="pg_play").click().run()
    assert app.session_state["pg_playing"] is False
    _no_failure(app)


def test_learner_switch_keeps_the_step_and_shows_its_rule(app):
    app.button(key="pg_next_update").click().run()
    t = app.session_state["pg_t"]
    app.selectbox(key="pg_learner").set_value("voted").run()
    _no_failure(app)
    assert app.session_state["pg_t"] == t
    assert "**Voted perceptron**" in _text(app)


@pytest.mark.parametrize("key", sorted(LEARNERS))
def test_every_learner_draws_on_noisy_data(key):
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params.update(
        {
            "learner": key,
            "data": "gaussians",
            "noise": "uniform",
            "t": "150",
            "test": "0.2",
            "epochs": "5",
        }
    )
    at.run()
    _no_failure(at)
    assert at.session_state["pg_learner"] == key
    assert at.session_state["pg_t"] == 150
    assert f"**{LEARNERS[key].title}**" in _text(at)


def test_regenerate_draws_new_data_with_the_next_seed(app):
    before = app.session_state["pg_last_good"][1].X.copy()
    app.button(key="pg_regenerate").click().run()
    _no_failure(app)
    assert app.session_state["pg_seed"] == 1
    after = app.session_state["pg_last_good"][1].X
    assert after.shape == before.shape and (after != before).any()


def test_bad_upload_shows_a_message_and_keeps_the_data(app):
    app.button(key="pg_next_update").click().run()
    t = app.session_state["pg_t"]
    app.selectbox(key="pg_data").set_value("csv").run()
    assert not app.exception
    # an Excel workbook renamed to .csv: a zip archive, not text
    app.file_uploader(key="pg_upload").set_value(
        ("table.csv", b"PK\x03\x04\x14\x00\x06\x00" + bytes(200), "text/csv")
    ).run()
    assert not app.exception
    assert app.error, "a file that is not a CSV table must be refused with a message"
    message = app.error[0].value
    assert "Reading the file did not work" in message and "Traceback" not in message
    # the previous data and the step are still there
    assert app.session_state["pg_last_good"][0].name == "separable"
    assert app.session_state["pg_t"] == t


def test_good_upload_trains_on_the_chosen_columns(app):
    rows = "\n".join(f"{i % 7},{(i * 3) % 11},{i % 2}" for i in range(40))
    app.selectbox(key="pg_data").set_value("csv").run()
    app.file_uploader(key="pg_upload").set_value(
        ("table.csv", f"u,v,label\n{rows}\n".encode(), "text/csv")
    ).run()
    _no_failure(app)
    data = app.session_state["pg_last_good"][1]
    assert data.feature_names == ("u", "v") and len(data.X) == 40


def test_link_reproduces_the_view():
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params.update({"learner": "kw", "kw_tau": "0.5", "seed": "7", "t": "42"})
    at.run()
    _no_failure(at)
    assert at.session_state["pg_kw_tau"] == 0.5
    assert at.session_state["pg_seed"] == 7
    assert at.session_state["pg_t"] == 42
    assert at.query_params["kw_tau"] == "0.5"  # written back: the link stays complete


def test_a_bad_link_value_falls_back_to_the_default():
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params.update(
        {"kw_tau": "wide", "learner": "kw", "epochs": "9999", "compare": "voted,pa,kw,alma,thick"}
    )
    at.run()
    _no_failure(at)
    assert at.session_state["pg_kw_tau"] == 0.0
    assert at.session_state["pg_epochs"] == 20
    assert at.session_state["pg_compare"] == []


def test_compare_mode_comes_from_the_link():
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params.update({"compare": "voted,pa", "t": "60"})
    at.run()
    _no_failure(at)
    assert at.session_state["pg_compare"] == ["voted", "pa"]
    assert len(at.get("plotly_chart")) >= 3  # one per learner, side by side


def test_compare_mode_and_high_dimensional_view(app):
    app.multiselect(key="pg_compare").set_value(["voted", "pa"]).run()
    _no_failure(app)
    app.multiselect(key="pg_compare").set_value([]).run()
    app.selectbox(key="pg_data").set_value("kw").run()
    _no_failure(app)
    assert app.session_state["pg_last_good"][1].n_features == 50


def test_impossible_setting_is_refused_with_a_way_back(app):
    app.selectbox(key="pg_learner").set_value("kernel").run()
    _no_failure(app)
    app.selectbox(key="pg_data").set_value("spam").run()  # 4,601 points
    assert not app.exception
    assert any("too slow for the browser view" in e.value for e in app.error)
    assert app.session_state["pg_last_good"][2].learner_key == "kernel"  # previous run kept
    assert app.session_state["pg_last_good"][1].n_features == 2  # with its own data
    app.selectbox(key="pg_learner").set_value("perceptron").run()
    app.slider(key="pg_epochs").set_value(100).run()  # 460,100 recorded visits
    assert not app.exception
    assert any("steps to record" in e.value for e in app.error)
    app.slider(key="pg_epochs").set_value(20).run()  # the way back
    _no_failure(app)
