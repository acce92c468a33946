"""The code's shape: functions take few parameters (state travels as small records), the
layers hold (the pages over ``ui``, over ``app_logic``, over ``perceptron_core``), and
collecting the tests runs no lesson's page (``tests.pages.Lesson`` refuses)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _parameter_counts():
    folders = ("perceptron_core", "app_logic", "ui")
    for path in sorted(p for folder in folders for p in ROOT.glob(f"{folder}/**/*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                args = node.args
                names = [a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)]
                count = len([n for n in names if n not in ("self", "cls")])
                yield path.relative_to(ROOT).as_posix(), node.name, count


def test_no_function_takes_more_than_ten_parameters():
    """(The estimators' constructors are not in the source: ``hyperparameters`` writes them.)"""
    counts = list(_parameter_counts())
    assert len(counts) > 500  # the walk found the package
    assert [(f, name, n) for f, name, n in counts if n > 10] == []


#: The browser component's other host in ui/: the page that replays a run with no server
#: is written from the component's own files, so it sits with them, without Streamlit (with
#: the reader of those files' imports).
COMPONENT_HOSTS = {"standalone_page.py", "module_graph.py"}


def test_app_logic_runs_without_streamlit_and_ui_is_only_streamlit():
    """Logic lives in app_logic/, which never loads Streamlit; every module of ui/ uses it,
    but the component's other host (:data:`COMPONENT_HOSTS`), which must not."""
    modules = sorted(
        ".".join(("perceptron_lab", *path.relative_to(ROOT).with_suffix("").parts)).removesuffix(
            ".__init__"
        )
        for path in (ROOT / "app_logic").rglob("*.py")
    )
    code = (
        "import importlib, sys\n"
        f"for name in {modules!r}: importlib.import_module(name)\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'streamlit'))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert len(modules) > 10
    assert done.stdout.strip() == "[]"
    for path in sorted((ROOT / "ui").glob("*.py")):
        if path.name in COMPONENT_HOSTS:
            assert "streamlit" not in _top_level_imports(path), path.name
            continue
        assert "streamlit" in _top_level_imports(path), (
            f"{path.name} does not use Streamlit: it belongs in app_logic/"
        )


def _top_level_imports(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module.split(".")[0])
    return names


#: The layers, top first: a module imports its own layer and those below it, never above.
#: The pages (the Streamlit entry points, the lessons, the notebook's widget and the
#: command line), the Streamlit parts, the UI-free app logic, the core.
LAYERS = {
    "pages": (
        "app.py",
        "router.py",
        "cli.py",
        "class_socket.py",
        "app_pages",
        "lessons",
        "widget",
    ),
    "ui": ("ui",),
    "app_logic": ("app_logic",),
    "perceptron_core": ("perceptron_core",),
}
#: The top-level names of the app's files in the repository; the app's modules are named
#: ``perceptron_lab.<name>`` (the package the wheel and the editable install make of the root).
APP_NAMES = {Path(part).stem for parts in list(LAYERS.values())[:-1] for part in parts}
#: Calls that import the module their first argument names.
IMPORTING_CALLS = {"import_module", "__import__", "in_child_process"}


def _layer_of_name(name: str) -> int | None:
    """The rank of the layer (0 = the top) of a file or folder of the root, by its name."""
    for rank, parts in enumerate(LAYERS.values()):
        if name in {Path(part).stem for part in parts}:
            return rank
    return None


def _layer_of_module(name: str) -> int | None:
    """The rank of the layer a module belongs to, None outside the project's layers."""
    top, _, rest = name.partition(".")
    if top == "perceptron_core":
        return len(LAYERS) - 1
    return _layer_of_name(rest.split(".")[0]) if top == "perceptron_lab" and rest else None


def _imported_modules(relative: Path, source: str):
    """``(line, module)`` for every import of the file ``relative`` (from the root) whose text
    is ``source``: top level or in a function, relative ones resolved, and string-named ones
    (``importlib.import_module("...")``)."""
    package = ".".join(("perceptron_lab", *relative.parent.parts))
    if relative.parts[0] == "perceptron_core":
        package = ".".join(relative.parent.parts)
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")[: len(package.split(".")) - node.level + 1]
            module = ".".join([*base, node.module] if node.level else [node.module])
            yield node.lineno, module.rstrip(".")
        elif (
            isinstance(node, ast.Call)
            and getattr(node.func, "attr", getattr(node.func, "id", None)) in IMPORTING_CALLS
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            yield node.lineno, node.args[0].value


def _sources(folders):
    """``(path from the root, text)`` of every Python file of ``folders`` (or files)."""
    for part in folders:
        paths = [ROOT / part] if part.endswith(".py") else sorted((ROOT / part).rglob("*.py"))
        for path in paths:
            yield path.relative_to(ROOT), path.read_text(encoding="utf-8")


def _layer_breaks(sources) -> list[str]:
    names = list(LAYERS)
    breaks = []
    for relative, source in sources:
        own = _layer_of_name(Path(relative.parts[0]).stem)
        for line, module in _imported_modules(relative, source):
            if module.split(".")[0] in APP_NAMES:
                breaks.append(f"{relative}:{line} imports {module}: name it perceptron_lab....")
                continue
            rank = _layer_of_module(module)
            if rank is not None and rank < own:
                breaks.append(
                    f"{relative}:{line} imports {module}: {names[own]} is below {names[rank]}"
                )
    return breaks


def test_every_import_keeps_to_the_layers():
    """Parses every module's imports, those inside functions too."""
    sources = list(_sources(part for parts in LAYERS.values() for part in parts))
    assert len(sources) > 100  # the walk found the project
    assert sum(1 for file in sources for _ in _imported_modules(*file)) > 900
    assert _layer_breaks(sources) == []


def test_the_layer_check_sees_an_import_against_the_layers():
    """The check above fails on the kinds of import it is there to refuse."""
    kernel = Path("perceptron_core/kernel.py")
    source = (ROOT / kernel).read_text(encoding="utf-8")
    assert _layer_breaks([(kernel, source)]) == []
    line = source.count("\n") + 4
    for wrong, says in [
        ("from perceptron_lab.app_logic.learners import LEARNERS", "below app_logic"),
        ("import app_logic", "name it perceptron_lab"),
        ("importlib.import_module('perceptron_lab.ui.runs')", "below ui"),
    ]:
        patched = source + f"\n\ndef _load():\n    {wrong}\n"
        (found,) = _layer_breaks([(kernel, patched)])
        assert found.startswith(f"{kernel}:{line} ") and says in found
    page = Path("ui/runs.py")
    assert _layer_breaks([(page, "from ..app_pages import about")]) == [
        "ui/runs.py:1 imports perceptron_lab.app_pages: ui is below pages"
    ]


def test_the_tests_benchmarks_and_scripts_name_the_apps_modules_by_their_package():
    breaks = [
        f"{path.relative_to(ROOT)}:{line} imports {module}"
        for folder in ("tests", "benchmarks", "scripts")
        for path in sorted((ROOT / folder).rglob("*.py"))
        for line, module in _imported_modules(path.relative_to(ROOT), path.read_text("utf-8"))
        if module.split(".")[0] in APP_NAMES
    ]
    assert breaks == []


#: Runs the app's server start and its first page as ``streamlit run`` does (the app's folder
#: first on sys.path), then prints the objects the start set aside from the garbage collector,
#: those it still tracks, and the top-level modules named like the app's folders.
FIRST_PAGE = """
import asyncio, gc, sys
sys.path.insert(0, sys.argv[1])
from streamlit.testing.v1 import AppTest
import perceptron_lab.app as app
async def start():
    async with app.first_page_ready(None):
        pass
asyncio.run(start())
print(gc.get_freeze_count(), len(gc.get_objects()))
page = AppTest.from_file(sys.argv[1] + "/router.py", default_timeout=300)
page.run()
assert not page.exception, page.exception
import perceptron_lab.cli, perceptron_lab.widget
print(sorted(m for m in sys.modules if m.split(".")[0] in sys.argv[2].split(",")))
print(sum(m.startswith("perceptron_lab.") for m in sys.modules))
"""


@pytest.fixture(scope="module")
def first_page() -> list[str]:
    """What :data:`FIRST_PAGE` printed, line by line."""
    done = subprocess.run(
        [sys.executable, "-c", FIRST_PAGE, str(ROOT), ",".join(sorted(APP_NAMES))],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def test_the_app_imports_each_of_its_modules_once_by_its_package_name(first_page):
    twice, loaded = first_page[-2:]
    assert twice == "[]"
    assert int(loaded) > 40  # the app's modules were imported, under perceptron_lab


def test_the_server_start_sets_what_it_imported_aside_from_the_garbage_collector(first_page):
    """Python's full collections, which a class's views set off, walk only what was made
    after the start: the imports' objects, most of the process's, are frozen."""
    frozen, tracked = map(int, first_page[-3].split())
    assert frozen > 4 * tracked


# ---------------------------------------------------------------------------
# No import cycle in the core: the estimators import the engines, which import the rules'
# steps, never back. An import inside a function that closes a cycle only hides it (the
# module works because the function runs after both modules are loaded), so the graph
# below takes the imports inside functions too.
# ---------------------------------------------------------------------------


def _core_modules(sources) -> dict[str, tuple[Path, str]]:
    """``{module name: (path from the root, text)}`` of the core's files."""
    return {
        ".".join(relative.with_suffix("").parts).removesuffix(".__init__"): (relative, source)
        for relative, source in sources
    }


FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)


def _type_checking_nodes(tree) -> set[int]:
    """The ids of the nodes under ``if TYPE_CHECKING:`` (never run)."""
    return {
        id(node)
        for block in ast.walk(tree)
        if isinstance(block, ast.If) and getattr(block.test, "id", None) == "TYPE_CHECKING"
        for statement in block.body
        for node in ast.walk(statement)
    }


def _named_imports(module: str, relative: Path, source: str):
    """``(line, in a function, dotted name)`` for each module (or name of a module) the file
    imports; a name computed at run time (``import_module(f"...{name}")``) is not followed."""
    package = module if relative.name == "__init__.py" else module.rpartition(".")[0]
    tree = ast.parse(source)
    skipped = _type_checking_nodes(tree)
    functions = [n for n in ast.walk(tree) if isinstance(n, FUNCTIONS)]
    inside = {id(node) for f in functions for part in f.body for node in ast.walk(part)}
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            parts = package.split(".")[: len(package.split(".")) - node.level + 1]
            base = ".".join([*parts, node.module] if node.level and node.module else parts)
            base = base if node.level else str(node.module)
            names = [f"{base}.{alias.name}" for alias in node.names]
        elif (
            isinstance(node, ast.Call)
            and getattr(node.func, "attr", getattr(node.func, "id", None)) in IMPORTING_CALLS
            and node.args
            and isinstance(node.args[0], ast.Constant)
        ):
            names = [str(node.args[0].value)]
        for name in names:
            yield node.lineno, id(node) in inside, name


def _walked_packages(source: str) -> set[str]:
    """The packages whose modules the file imports by walking their folder
    (``pkgutil.iter_modules(package.__path__)``, the on-line rules' discovery): it imports
    each of them, though no import names one."""
    tree = ast.parse(source)
    names = {
        alias.asname or alias.name: f"{node.module}.{alias.name}"
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module and not node.level
        for alias in node.names
    }
    return {
        names[node.args[0].value.id]
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and getattr(node.func, "attr", None) == "iter_modules"
        and node.args
        and isinstance(node.args[0], ast.Attribute)
        and node.args[0].attr == "__path__"
        and isinstance(node.args[0].value, ast.Name)
        and node.args[0].value.id in names
    }


def _import_graph(modules) -> dict[str, set[str]]:
    """``{module: the core's modules it imports}``; a package its module imports is not an
    edge (Python runs the package's ``__init__`` first, whatever the module imports)."""
    graph: dict[str, set[str]] = {}
    for module, (relative, source) in modules.items():
        edges = graph.setdefault(module, set())
        for _, _, name in _named_imports(module, relative, source):
            while name and name not in modules:  # `from module import name` of a name
                name = name.rpartition(".")[0]
            if name and name != module and not module.startswith(name + "."):
                edges.add(name)
        for package in _walked_packages(source):
            edges |= {other for other in modules if other.startswith(package + ".")}
    return graph


def _import_cycles(graph) -> list[list[str]]:
    """The import cycles: the strongly connected components of more than one module."""
    order, low, stack, cycles = {}, {}, [], []

    def visit(module):
        order[module] = low[module] = len(order)
        stack.append(module)
        for other in sorted(graph[module]):
            if other not in order:
                visit(other)
                low[module] = min(low[module], low[other])
            elif other in stack:
                low[module] = min(low[module], order[other])
        if low[module] == order[module]:
            component = stack[stack.index(module) :]
            del stack[stack.index(module) :]
            if len(component) > 1:
                cycles.append(sorted(component))

    for module in sorted(graph):
        if module not in order:
            visit(module)
    return cycles


def test_the_core_has_no_import_cycle():
    """Imports inside functions count: one that closes a cycle only hides it."""
    modules = _core_modules(_sources(["perceptron_core"]))
    graph = _import_graph(modules)
    assert len(graph) > 60 and sum(map(len, graph.values())) > 200  # the walk found the core
    assert graph["perceptron_core._online"] >= {"perceptron_core.engine.online"}
    assert "perceptron_core.steps.paum" in graph["perceptron_core.engine.dispatch"]
    assert _import_cycles(graph) == []


def test_the_cycle_check_sees_a_cycle_hidden_in_a_function():
    """The check above fails on the cycle the estimators had: a rule's step in a file that
    also defines its estimator on the base that calls the driver, which compiles in the
    steps (the base imported the driver in a function)."""
    modules = _core_modules(_sources(["perceptron_core"]))
    relative, source = modules["perceptron_core.steps.paum"]
    hidden = "\n\ndef _estimator():\n    from perceptron_core._online import ZeroStartLinear\n"
    modules["perceptron_core.steps.paum"] = (relative, source + hidden)
    (cycle,) = _import_cycles(_import_graph(modules))
    assert {"perceptron_core._online", "perceptron_core.engine.online"} < set(cycle)
    assert "perceptron_core.steps.paum" in cycle


def _folder_graph(graph) -> dict[str, set[str]]:
    """The module graph with each folder of the core one node (``perceptron_core.engine``
    for every module in ``engine/``, its ``__init__`` too); a module directly in
    ``perceptron_core/`` (``_jit``, ``linear``, ...) is a node of its own."""

    def node(module: str) -> str:
        parts = module.split(".")
        return ".".join(parts[:2]) if len(parts) > 2 or module in SUBPACKAGES else module

    SUBPACKAGES = {m for m in graph if any(other.startswith(m + ".") for other in graph)}
    folders: dict[str, set[str]] = {}
    for module, imported in graph.items():
        edges = folders.setdefault(node(module), set())
        edges |= {node(other) for other in imported} - {node(module)}
    return folders


def test_the_cores_folders_import_one_way():
    """Folder by folder, the imports point one way: the rules' estimators (``rules/``) over
    the engine (``engine/``, with the switch that picks a rule) over the compiled steps and
    Khardon and Wachman's arithmetic (``steps/``). A folder that imports one above it (and
    so closes a cycle through the folders) fails, even where no two modules form a cycle."""
    folders = _folder_graph(_import_graph(_core_modules(_sources(["perceptron_core"]))))
    steps, engine, rules = (f"perceptron_core.{name}" for name in ("steps", "engine", "rules"))
    assert {"perceptron_core.datasets", "perceptron_core.experiments"} < set(folders)
    assert engine in _reaches(folders, rules) and steps in _reaches(folders, engine)
    assert not {engine, rules} & _reaches(folders, steps)
    assert rules not in _reaches(folders, engine)
    assert _import_cycles(folders) == []


def _reaches(graph, start) -> set[str]:
    """The nodes ``start`` imports, directly or through others."""
    seen: set[str] = set()
    todo = [start]
    while todo:
        for other in graph[todo.pop()] - seen:
            seen.add(other)
            todo.append(other)
    return seen


def test_the_folder_check_sees_a_step_that_imports_from_the_engine():
    """A step that borrows a function of the engine's kernel cache makes no module cycle
    (the cache imports no step), but ``steps/`` then imports ``engine/``, which compiles
    in ``steps/``: the folders no longer point one way."""
    modules = _core_modules(_sources(["perceptron_core"]))
    relative, source = modules["perceptron_core.steps.winnow"]
    borrowed = "\nfrom perceptron_core.engine.kernel_cache import whole_power\n"
    modules["perceptron_core.steps.winnow"] = (relative, source + borrowed)
    graph = _import_graph(modules)
    assert _import_cycles(graph) == []
    (cycle,) = _import_cycles(_folder_graph(graph))
    assert cycle == ["perceptron_core.engine", "perceptron_core.steps"]


def test_a_lesson_read_outside_a_test_fails_before_the_page_runs(monkeypatch):
    """What pytest does while it collects, where a lesson's name read at a test module's top
    ran lesson 8's page in each worker before the first test (docs/benchmarks.md,
    "fast-suite-compilations"): the read fails and says how to read the value instead."""
    from tests import pages

    monkeypatch.delenv("PYTEST_CURRENT_TEST")
    monkeypatch.setattr(pages, "_loaded", lambda stem: pytest.fail(f"{stem} loaded"))
    with pytest.raises(RuntimeError, match=r"lesson_literal\('08_kernels', 'GAMMAS'\)"):
        getattr(pages.lesson_module("08_kernels"), "GAMMAS")  # noqa: B009 - the read is the test
