"""``perceptron-lab app`` and ``perceptron-lab warm`` from a checkout.

(The same commands from an installed wheel: tests/test_packaging.py and CI.)
"""

from __future__ import annotations

import inspect
import json
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from perceptron_lab import cli
from perceptron_lab.cli import main, streamlit_arguments, streamlit_environment
from tests.live import perceptron_lab, serve_once

ROOT = Path(__file__).resolve().parents[1]
CONFIG = ROOT / ".streamlit" / "config.toml"


def test_the_docstring_examples_run():
    import doctest

    assert doctest.testmod(cli).failed == 0


def test_the_core_alone_knows_no_app_command_and_the_console_script_adds_them(capsys):
    from perceptron_core import cli as core_cli

    assert not {"app", "warm", "export-html", "exercises"} & set(core_cli.SUBCOMMANDS)
    with pytest.raises(SystemExit):
        core_cli.main(["app"])
    assert "invalid choice: 'app'" in capsys.readouterr().err
    assert list(cli.APP_COMMANDS) == ["app", "warm", "export-html", "exercises"]


def test_app_help_names_port_and_present_and_says_what_presentation_mode_does(capsys):
    with pytest.raises(SystemExit) as stopped:
        main(["app", "--help"])
    assert stopped.value.code == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "--port" in text and "--address" in text
    assert "presentation mode (present=1 in the URL)" in text
    assert "the sidebar closed, larger type" in text


def test_app_refuses_a_port_out_of_range(capsys):
    with pytest.raises(SystemExit) as stopped:
        main(["app", "--port", "70000"])
    assert stopped.value.code == 2
    assert "a port is a whole number from 1 to 65535; got '70000'" in capsys.readouterr().err


#: Runs ``streamlit run`` up to the point where it would serve, then prints its settings.
SETTINGS_PROBE = """
import json, sys
from streamlit import config
from streamlit.web import bootstrap, cli
keys = json.loads(sys.argv.pop(1))
bootstrap.run = lambda *a, **k: print(json.dumps({k: config.get_option(k) for k in keys}))
cli.main(sys.argv[1:], prog_name="streamlit", standalone_mode=False)
"""


def test_the_packaged_settings_reach_streamlit_and_the_machine_can_override_them(tmp_path):
    folder = tmp_path / "app"
    (folder / ".streamlit").mkdir(parents=True)
    shutil.copy(CONFIG, folder / ".streamlit" / "config.toml")
    (folder / "app.py").write_text("", encoding="utf-8")
    machine = {
        "PATH": os.environ["PATH"],
        "HOME": str(tmp_path),
        "STREAMLIT_SERVER_MAX_UPLOAD_SIZE": "5",
    }
    env = streamlit_environment(folder, machine)
    arguments = streamlit_arguments(folder, 8765, "127.0.0.1")
    # The settings must travel in the environment: Streamlit must not find the file itself.
    shutil.rmtree(folder / ".streamlit")
    expected = {
        f"{section}.{name}": value
        for section, options in tomllib.loads(CONFIG.read_text(encoding="utf-8")).items()
        for name, value in options.items()
    }
    expected |= {"server.maxUploadSize": 5, "server.port": 8765, "server.address": "127.0.0.1"}
    done = subprocess.run(
        [sys.executable, "-c", SETTINGS_PROBE, json.dumps(list(expected)), *arguments],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    # Streamlit keeps a str option's true/false as text ("false"), and reads it as such.
    effective = json.loads(done.stdout.strip().splitlines()[-1])
    assert {key: _text(value) for key, value in effective.items()} == {
        key: _text(value) for key, value in expected.items()
    }


def _text(value) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


@pytest.mark.slow
def test_app_serves_the_checkout_and_answers_its_health_check(tmp_path):
    body, printed, port = serve_once(ROOT, tmp_path, "--present")
    assert body == "ok"
    assert f"Perceptron Lab from {ROOT}: preparing the first page" in printed
    assert f"then serving it at http://127.0.0.1:{port}/?present=1" in printed


def test_the_first_page_learner_is_the_playgrounds_default():
    from perceptron_lab.app_logic.training import FIRST_PAGE_LEARNER
    from perceptron_lab.ui.learner_panel import learner_panel

    default = inspect.signature(learner_panel).parameters["default"].default
    assert FIRST_PAGE_LEARNER == default


@pytest.mark.slow  # compiles two learners in a new process
def test_warm_compiles_the_learners_it_is_given_and_reports_each():
    proc = perceptron_lab(ROOT, ROOT, "warm", "--learners", "perceptron,pa")
    out = proc.communicate(timeout=600)[0]
    assert proc.returncode == 0, out
    lines = out.splitlines()
    assert lines[0].split() == ["learner", "seconds"]
    assert [line.split()[0] for line in lines[1:3]] == ["perceptron", "pa"]
    assert all(float(line.split()[1]) >= 0 for line in lines[1:3])
    assert lines[3].startswith("2 of 2 learners ready in ")


def test_warm_says_which_learners_exist_when_one_is_unknown_or_none_is_named(capsys):
    assert main(["warm", "--learners", "perceptron,nope"]) == 1
    err = capsys.readouterr().err
    assert "unknown learner 'nope'" in err and "perceptron, kw, margin" in err
    assert main(["warm", "--learners", " , "]) == 1
    assert "--learners: no learner; the app's learners are perceptron" in capsys.readouterr().err
