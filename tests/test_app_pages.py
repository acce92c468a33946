"""Every page runs, and the playground's main widgets work, in Streamlit's AppTest."""

from __future__ import annotations

import ast
import os
from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from perceptron_lab.app_logic.edits import PointEdits
from perceptron_lab.app_logic.learners import LEARNERS
from perceptron_lab.ui.lesson import lesson_title
from tests.player_args import player_args

APP = str(Path(__file__).resolve().parents[1] / "router.py")


def _no_failure(at: AppTest) -> None:
    assert not at.exception, [e.message for e in at.exception]
    assert not at.error, [e.value for e in at.error]


def _text(at: AppTest) -> str:
    return "\n".join(m.value for m in at.markdown)


def _shown(at: AppTest):
    """``(request, data, run)`` of the playground's view on screen: the session keeps what
    it was asked with; the data and run come from the server's caches (this process's)."""
    from perceptron_lab.ui.runs import get_dataset, train

    request, key, values, epochs = at.session_state["pg_last_good"]
    data = get_dataset(request)
    run = train(
        key,
        tuple(sorted(values.items())),
        epochs,
        request.seed,
        data.X,
        data.y,
        data.X_test,
        data.y_test,
    )
    return request, data, run


@pytest.fixture
def app() -> AppTest:
    at = AppTest.from_file(APP, default_timeout=120)
    at.run()
    _no_failure(at)
    return at


def test_the_menu_names_each_lesson_as_its_heading_does():
    """The menu's title comes from the lesson's docstring; its heading from lesson_header."""
    lessons = sorted((Path(APP).parent / "lessons").glob("[0-9]*.py"))
    assert len(lessons) == 12
    for path in lessons:
        call = next(
            n
            for n in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
            if isinstance(n, ast.Call) and getattr(n.func, "id", "") == "lesson_header"
        )
        number, title = (ast.literal_eval(a) for a in call.args[:2])
        assert lesson_title(path) == f"{number} · {title}"


def test_a_lesson_edited_while_the_server_runs_gets_its_new_title(tmp_path):
    """The titles are read once per version of the file, not once per process."""
    path = tmp_path / "12_new.py"
    path.write_text('"""Lesson 12. First words: more."""\n', encoding="utf-8")
    assert lesson_title(path) == "12 · First words"
    path.write_text('"""Lesson 12. Better words: more."""\n', encoding="utf-8")
    os.utime(path, ns=(path.stat().st_atime_ns, path.stat().st_mtime_ns + 10**9))
    assert lesson_title(path) == "12 · Better words"


def test_about_page_runs(app):
    app.switch_page("app_pages/about.py").run()
    _no_failure(app)
    assert any("Khardon" in m.value for m in app.markdown)


def _player(at: AppTest) -> dict:
    return player_args(at, "pg_player")


def test_the_run_goes_to_the_browser_once_with_its_step(app):
    args = _player(app)
    lane = args["meta"]["lanes"][0]
    run = _shown(app)[2]
    assert lane["key"] == "perceptron" and lane["n_events"] == run.timeline.n_events
    assert args["options"]["initial_t"] == 0
    assert args["options"]["click"] == "off"  # clicks edit the data only once asked to
    assert args["payload_id"] and len(args["arrays"]) > 5
    assert "pg_t" not in app.session_state  # the step lives in the browser
    app.run()  # a rerun without a change sends the same payload
    assert _player(app)["payload_id"] == args["payload_id"]


def test_learner_switch_keeps_the_component_and_shows_its_rule(app):
    before = _player(app)["payload_id"]
    app.selectbox(key="pg_learner").set_value("voted").run()
    _no_failure(app)
    args = _player(app)  # the same key: the browser keeps its step, the run is new
    assert args["payload_id"] != before and args["meta"]["lanes"][0]["mode"] == "voted"
    assert "**Voted perceptron**" in _text(app)


def test_the_rule_box_writes_only_the_terms_the_learner_uses():
    terms = (r"\lambda", r"\tau", r"\alpha")
    classic = _with_link().latex[0].body
    assert not any(term in classic for term in terms) and r"\le 0" in classic
    kw = _with_link(learner="kw").latex[0].body  # its switches are on by default
    assert all(term in kw for term in terms)


def test_only_the_settings_that_apply_are_shown():
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params["learner"] = "kernel"
    at.run()
    _no_failure(at)
    labels = [s.label for s in at.slider]
    assert "Kernel width β" in labels and "Degree (poly)" not in labels  # rbf has no degree
    at.selectbox(key="pg_kernel_kernel").set_value("poly").run()
    labels = [s.label for s in at.slider]
    assert "Degree (poly)" in labels
    at.selectbox(key="pg_kernel_kernel").set_value("linear").run()
    labels = [s.label for s in at.slider]
    assert "Degree (poly)" not in labels and "Kernel width β" not in labels


def test_a_small_rate_shows_its_digits():
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params["learner"] = "parallel"
    at.run()
    _no_failure(at)
    rate = at.slider(key="pg_parallel_eta")
    assert rate.value == pytest.approx(1e-3) and rate.proto.format == "%.4f"  # not "0.00"


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
    args = _player(at)
    assert args["options"]["initial_t"] == 150
    assert args["meta"]["lanes"][0]["key"] == key
    assert f"**{LEARNERS[key].title}**" in _text(at)


def test_paum_writes_its_threshold_as_a_bias(app):
    app.selectbox(key="pg_learner").set_value("paum").run()
    _no_failure(app)
    lane = _player(app)["meta"]["lanes"][0]
    assert lane["bias"] is True and lane["settings"]["band"] == [0.0, 1.0]


def test_regenerate_draws_new_data_with_the_next_seed(app):
    before = _shown(app)[1].X.copy()
    app.button(key="pg_regenerate").click().run()
    _no_failure(app)
    assert app.session_state["pg_seed"] == 1
    after = _shown(app)[1].X
    assert after.shape == before.shape and (after != before).any()


def test_bad_upload_shows_a_message_and_keeps_the_data(app):
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
    # the previous data are still there, in the same component
    assert _shown(app)[0].name == "separable"
    assert _player(app)["meta"]["scene"]["title"] == _shown(app)[1].title


def _upload(app, label) -> None:
    """Upload 40 rows of two features, with ``label(i)`` as row i's label."""
    rows = "\n".join(f"{i % 7},{(i * 3) % 11},{label(i)}" for i in range(40))
    app.selectbox(key="pg_data").set_value("csv").run()
    app.file_uploader(key="pg_upload").set_value(
        ("table.csv", f"u,v,label\n{rows}\n".encode(), "text/csv")
    ).run()
    _no_failure(app)


def test_good_upload_trains_on_the_chosen_columns(app):
    _upload(app, lambda i: i % 2)
    data = _shown(app)[1]
    assert data.feature_names == ("u", "v") and len(data.X) == 40


def test_an_upload_names_its_classes_as_the_legend_does(app):
    _upload(app, lambda i: "yes" if i % 2 else "no")
    captions = [c.value.replace("\\", "") for c in app.caption]  # shown as text: escaped
    assert "Classes in the figure: no (−1), yes (+1)." in captions, captions
    assert not any("-> 0" in c or "→ 0" in c for c in captions)  # not the reader's 0/1 codes
    assert _player(app)["meta"]["scene"]["class_names"] == ["no", "yes"]


def test_link_reproduces_the_view():
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params.update({"learner": "kw", "kw_tau": "0.75", "seed": "7", "t": "42"})
    at.run()
    _no_failure(at)
    assert at.session_state["pg_kw_tau"] == 0.75
    assert at.session_state["pg_seed"] == 7
    assert _player(at)["options"]["initial_t"] == 42
    link = _player(at)["options"]["link_params"]
    assert (
        link["kw_tau"] == "0.75" and link["seed"] == "7" and "t" not in link
    )  # the browser adds t
    assert at.query_params["kw_tau"] == "0.75"  # written back: the link stays complete


def test_a_bad_link_value_falls_back_to_the_default():
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params.update(
        {"kw_tau": "wide", "learner": "kw", "epochs": "9999", "compare": "voted,pa,kw,alma,thick"}
    )
    at.run()
    _no_failure(at)
    assert at.session_state["pg_kw_tau"] == 0.5  # the KW entry's default
    assert at.session_state["pg_epochs"] == 20
    assert at.session_state["pg_compare"] == []


def test_a_learner_named_twice_in_the_link_is_compared_once():
    at = _with_link(compare="voted,voted,pa,voted")
    assert at.session_state["pg_compare"] == ["voted", "pa"]
    lanes = _player(at)["meta"]["lanes"]
    assert [lane["key"] for lane in lanes] == ["perceptron", "voted", "pa"]


def test_compare_mode_comes_from_the_link():
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params.update({"compare": "voted,pa", "t": "60"})
    at.run()
    _no_failure(at)
    assert at.session_state["pg_compare"] == ["voted", "pa"]
    lanes = _player(at)["meta"]["lanes"]  # one component, the learners side by side
    assert [lane["key"] for lane in lanes] == ["perceptron", "voted", "pa"]
    assert _player(at)["options"]["click"] == "off"  # compare charts take no clicks


def test_compare_mode_and_high_dimensional_view(app):
    app.multiselect(key="pg_compare").set_value(["voted", "pa"]).run()
    _no_failure(app)
    app.multiselect(key="pg_compare").set_value([]).run()
    app.selectbox(key="pg_data").set_value("kw").run()
    _no_failure(app)
    assert _shown(app)[1].n_features == 50


def test_impossible_setting_is_refused_with_a_way_back(app):
    app.selectbox(key="pg_learner").set_value("kernel").run()
    _no_failure(app)
    app.selectbox(key="pg_data").set_value("spam").run()  # 4,601 points
    assert not app.exception
    assert any("too slow for the browser view" in e.value for e in app.error)
    assert _shown(app)[2].learner_key == "kernel"  # previous run kept
    assert _shown(app)[1].n_features == 2  # with its own data
    app.selectbox(key="pg_learner").set_value("perceptron").run()
    app.slider(key="pg_epochs").set_value(100).run()  # 460,100 recorded visits
    assert not app.exception
    assert any("steps to record" in e.value for e in app.error)
    app.slider(key="pg_epochs").set_value(20).run()  # the way back
    _no_failure(app)


# -- editing the points ----------------------------------------------------------------


def _points(at: AppTest):
    return _shown(at)[1]


def _count(at: AppTest) -> str:
    return next(m.value for m in at.markdown if "training points" in m.value)


def test_point_edits_retrain_go_into_the_link_and_reset(app):
    generated = _points(app)
    app.session_state["pg_edits"] = PointEdits(removed=(0, 1), added=((0.5, -0.5, 1),))
    app.run()
    _no_failure(app)
    data = _points(app)
    assert len(data.X) == len(generated.X) - 1 and data.X[-1].tolist() == [0.5, -0.5]
    assert _shown(app)[2].timeline.n_samples == len(data.X)  # retrained
    assert _count(app) == "**99** training points (1 added, 2 removed)"
    assert app.query_params["edits"] == "-0~-1~+0.5,-0.5,1"
    app.run()  # a rerun keeps the edited data
    assert len(_points(app).X) == 99
    app.button(key="pg_reset_edits").click().run()
    _no_failure(app)
    assert np.array_equal(_points(app).X, generated.X)
    assert "edits" not in app.query_params


def test_a_link_with_edits_rebuilds_the_edited_points():
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params.update({"seed": "3", "edits": "-5~=7,0.25,0.75,-1~+0.1,0.2,1"})
    at.run()
    _no_failure(at)
    data = _points(at)
    assert at.session_state["pg_edits"] == PointEdits(
        removed=(5,), changed=((7, 0.25, 0.75, -1),), added=((0.1, 0.2, 1),)
    )
    assert data.X[6].tolist() == [0.25, 0.75] and data.y[6] == -1  # row 7, one row removed before
    assert at.query_params["edits"] == "-5~=7,0.25,0.75,-1~+0.1,0.2,1"


@pytest.mark.parametrize("edits", ["-100000", "+1,2"])
def test_link_edits_that_do_not_fit_fall_back_to_the_generated_points(edits):
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params.update({"edits": edits})
    at.run()
    assert not at.exception
    assert len(_points(at).X) == 100
    assert not at.session_state["pg_edits"]


def _open_table(at: AppTest) -> None:
    """Open the points table: its editor exists (and takes edits) only while it is open."""
    at.session_state["pg_table_open"] = True
    at.run()
    _no_failure(at)


@pytest.mark.parametrize(
    "delta, message",
    [
        ({"edited_rows": {3: {"x2": None}}}, "Row 4 has no number in x2"),
        ({"edited_rows": {0: {"label": 2}}}, "Row 1 has the label 2"),
        ({"deleted_rows": list(range(50))}, "both classes"),
        ({"added_rows": [{"x1": 0.5}]}, "Row 101 has no number in x2"),
    ],
)
def test_a_bad_table_edit_is_refused_and_the_last_good_points_stay(app, delta, message):
    before = _points(app)
    run = _shown(app)[2]
    labels = before.y.copy()
    if "deleted_rows" in delta:  # delete every -1 point
        delta = {"deleted_rows": np.flatnonzero(labels == -1).tolist()}
    _open_table(app)
    app.session_state["pg_table0"] = {
        "edited_rows": {},
        "added_rows": [],
        "deleted_rows": [],
    } | delta
    app.run()
    assert not app.exception
    errors = [e.value for e in app.error]
    assert len(errors) == 1 and message in errors[0] and "last good points are kept" in errors[0]
    after = _points(app)
    assert np.array_equal(after.X, before.X) and np.array_equal(after.y, before.y)
    assert _shown(app)[2].timeline.n_events == run.timeline.n_events
    assert not app.session_state["pg_edits"]


def test_a_good_table_edit_retrains_on_the_edited_points(app):
    _open_table(app)
    app.session_state["pg_table0"] = {
        "edited_rows": {2: {"x1": 0.125, "label": -1}},
        "added_rows": [{"x1": -0.5, "x2": 0.5, "label": 1}],
        "deleted_rows": [0],
    }
    app.run()
    _no_failure(app)
    data = _points(app)
    assert len(data.X) == 100 and data.X[1, 0] == 0.125 and data.y[1] == -1
    assert data.X[-1].tolist() == [-0.5, 0.5]
    assert _count(app).endswith("(1 added, 1 removed, 1 changed)")


def test_new_data_drop_the_edits(app):
    app.session_state["pg_edits"] = PointEdits(added=((0.5, -0.5, 1),))
    app.run()
    assert len(_points(app).X) == 101
    app.button(key="pg_regenerate").click().run()
    _no_failure(app)
    assert len(_points(app).X) == 100 and not app.session_state["pg_edits"]


def _with_link(**params) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params.update(params)
    at.run()
    _no_failure(at)
    return at


def test_hiding_the_controls_keeps_playback():
    """``hide=controls`` (an earlier spelling) hides the sidebar's groups, never playback."""
    at = _with_link(hide="controls")
    assert not at.sidebar.selectbox and not at.sidebar.slider  # no data, learner or view
    options = _player(at)["options"]
    assert "controls" not in options["hide"] and not any(options["hide"].values())


def test_a_new_session_reads_the_link_once_a_run_not_once_a_control(monkeypatch):
    """A read of ``st.query_params`` takes a lock and Streamlit's metrics wrapper; the
    playground's controls and groups read the link as its run began (``ui.state``), not once
    each."""
    from streamlit.runtime.state.query_params_proxy import QueryParamsProxy

    reads: list[str] = []
    for name in ("__getitem__", "__contains__", "__iter__", "to_dict"):
        unwrapped = getattr(QueryParamsProxy, name)

        def counted(self, *args, _unwrapped=unwrapped, _name=name):
            reads.append(_name)
            return _unwrapped(self, *args)

        monkeypatch.setattr(QueryParamsProxy, name, counted)
    at = _with_link(hide="edits", seed="5", noise="uniform", noise_rate="0.2")
    assert len(reads) <= 40, sorted(reads)  # 29 when this was written; 88 before
    # what the link says still reaches the controls and the hidden groups
    assert (at.session_state["pg_seed"], at.session_state["pg_noise_rate"]) == (5, 0.2)
    assert "pg_click" not in [w.key for w in at.main.get("button_group")]


def test_a_student_link_hides_edits_export_and_the_link():
    at = _with_link(hide="edits,export,link")
    keys = [w.key for w in at.main.get("button_group")]
    assert "pg_click" not in keys  # no click modes: the plot takes no clicks
    assert not [e for e in at.main.expander if "Points table" in e.label]
    assert not [e for e in at.main.expander if "Download" in e.label]
    options = _player(at)["options"]
    assert options["click"] == "off"
    assert options["hide"] == {"math": False, "diagnostics": False, "link": True, "export": True}


def test_the_share_box_offers_every_group_students_may_be_denied():
    options = _player(_with_link())["options"]
    assert set(options["student_groups"]) == {
        "data",
        "learner",
        "view",
        "edits",
        "export",
        "link",
        "math",
        "diagnostics",
    }


def test_the_points_table_is_built_only_while_it_is_open(app):
    """Closed, the table sends no editor (the page's heaviest widget in the browser)."""
    assert [e for e in app.main.expander if "Points table" in e.label]
    assert not app.main.get("dataframe")
    _open_table(app)
    (expander,) = [e for e in app.main.expander if "Points table" in e.label]
    assert len(expander.get("dataframe")) == 1


def test_predict_mode_comes_from_the_link_and_stays_in_it():
    at = _with_link(predict="1", ask="updates", seed="3")
    predict = _player(at)["options"]["predict"]
    assert predict["on"] is True and predict["ask"] == "updates" and predict["seed"] == 3
    assert at.query_params["predict"] == "1" and at.query_params["ask"] == "updates"
    wrong = _with_link(predict="yes")
    assert _player(wrong)["options"]["predict"]["on"] is False
    assert any("predict='yes' is not accepted" in t.value for t in wrong.toast)
