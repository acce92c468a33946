"""The JavaScript's checks: Biome lints every file of the project's JavaScript and fails on one
its formatter would change, in the pre-commit hook that CI runs on the whole tree
(``pre-commit run --all-files`` in ``.ci/run``), at the version ``package-lock.json`` pins.

Biome itself runs in that hook, not here: these tests need no Node.js. They check that the
hook is there and sees every file, that a warning fails it, that a rule switched off says
why, that the tools are pinned, and that the hook says how to install Biome when it is missing.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess

import yaml
from identify.identify import tags_from_path

from tests.repository import ROOT, repository_files

#: The vendored Plotly.js bundle: not the project's JavaScript.
VENDOR = "ui/playback/vendor/"


def _hook(hook_id: str) -> dict:
    config = yaml.safe_load((ROOT / ".pre-commit-config.yaml").read_text(encoding="utf-8"))
    hooks = {hook["id"]: hook for repo in config["repos"] for hook in repo["hooks"]}
    return hooks[hook_id]


def _biome_config() -> dict:
    """biome.jsonc, its comments (whole lines) left out."""
    lines = (ROOT / "biome.jsonc").read_text(encoding="utf-8").splitlines()
    return json.loads("\n".join(line for line in lines if not line.lstrip().startswith("//")))


def test_the_biome_hook_checks_every_javascript_file_but_the_vendored_bundle():
    hook = _hook("biome")
    assert (hook["language"], hook["entry"]) == ("system", "sh ci/biome.sh")
    files, exclude = re.compile(hook.get("files", "")), re.compile(hook.get("exclude", "^$"))
    tracked = [name for name in repository_files() if (ROOT / name).is_file()]
    # as pre-commit chooses a hook's files: its patterns, then every one of its types
    checked = [
        name
        for name in tracked
        if files.search(name)
        and not exclude.search(name)
        and set(hook["types"]) <= tags_from_path(str(ROOT / name))
    ]
    ours = [name for name in tracked if name.endswith(".js") and not name.startswith(VENDOR)]
    assert checked == ours and len(ours) >= 26
    # Biome, run by hand (biome check), takes the same files
    assert _biome_config()["files"]["includes"] == ["**/*.js", "!" + VENDOR.rstrip("/")]


def test_the_hook_fails_on_a_warning_and_on_a_file_the_formatter_would_change():
    script = (ROOT / "ci" / "biome.sh").read_text(encoding="utf-8")
    (command,) = [line.split() for line in script.splitlines() if line.startswith("exec ")]
    assert command[1:4] == ['"$BIOME"', "check", "--error-on-warnings"]  # check: lint + format
    config = _biome_config()
    assert config["formatter"].get("enabled", True) and config["linter"].get("enabled", True)
    assert config["linter"]["rules"]["preset"] == "recommended"


def test_every_rule_or_action_switched_off_says_why_on_the_line_above():
    lines = (ROOT / "biome.jsonc").read_text(encoding="utf-8").splitlines()
    off = [k for k, line in enumerate(lines) if re.search(r':\s*"off"', line)]
    assert off  # organizeImports: the order of imports is the order of evaluation
    for k in off:
        assert lines[k - 1].lstrip().startswith("//"), f"biome.jsonc:{k + 1} says no reason"


def test_the_npm_tools_are_pinned_exactly_and_locked_and_ci_installs_them():
    manifest = json.loads((ROOT / "package.json").read_text(encoding="utf-8"))
    lock = json.loads((ROOT / "package-lock.json").read_text(encoding="utf-8"))
    tools = manifest["devDependencies"]
    assert {"@biomejs/biome", "axe-core"} <= tools.keys() and "dependencies" not in manifest
    for name, version in tools.items():
        assert re.fullmatch(r"\d+\.\d+\.\d+", version), f"{name} {version} is not one version"
        assert lock["packages"][f"node_modules/{name}"]["version"] == version, name
    assert lock["packages"][""]["devDependencies"] == tools
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert re.search(r"^\s*npm ci( --no-audit| --no-fund)*$", ci, re.MULTILINE)


def test_without_biome_the_hook_says_to_run_npm_ci(tmp_path):
    (tmp_path / "ci").mkdir()
    shutil.copy(ROOT / "ci" / "biome.sh", tmp_path / "ci" / "biome.sh")
    done = subprocess.run(
        ["sh", "ci/biome.sh", "ui/playback/main.js"], cwd=tmp_path, capture_output=True, text=True
    )
    assert done.returncode == 1
    assert "Biome is not installed: run `npm ci` in the repository's root" in done.stderr
