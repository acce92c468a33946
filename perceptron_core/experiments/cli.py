"""The experiment subcommands of ``perceptron-lab``.

``search``, ``optimize``, ``curve``, ``dominance``, ``reproduce`` and ``paum``,
registered into :mod:`perceptron_core.cli` by :func:`register_experiments`.
Each prints its table(s) in Markdown and, on request, writes Markdown, CSV
and JSON (``--json PATH``: a list of records, one per table cell, with the
row and column labels as fields and ``accuracy`` in percent, plus
``interval``, ``ci_low`` and ``ci_high`` where there is a 95 % t-interval).
``--out DIR`` writes all three forms under DIR.

Usage::

    perceptron-lab search sonar --json sonar.json
    perceptron-lab search kw:f=50,M=0.05,N=0.1 --datasets 10 --jobs 2
    perceptron-lab optimize breast_cancer_original --out results/
    perceptron-lab curve kw:f=50,M=0.05,N=0.1 --x epochs
    perceptron-lab curve kw:f=50,M=0.05,N=0.1,n=21000 --x size --tau 0,0.5,1
    perceptron-lab dominance --datasets 2
    perceptron-lab reproduce kw-table4 --json table4.json
    perceptron-lab reproduce kw-table6 --scheduler tcp://10.0.0.5:8786
    perceptron-lab paum imbalanced:n=5100,positive_rate=0.0196

Heavy modules are imported inside the run functions so that
``perceptron-lab --help`` stays fast. Unlike the app's Experiments page,
these commands limit neither workers, folds, epochs nor the cache: they run
on the machine of whoever starts them (:mod:`perceptron_core.experiments.limits`).
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

from perceptron_core._output_files import check_file, check_folder
from perceptron_core.experiments.defaults import (
    EPOCH_GRID,
    KW_FEATURES,
    KW_MARGINS,
    KW_NOISE,
    REPRODUCTION_TITLES,
    SIZE_GRID,
    SIZE_TAUS,
    default_cache_dir,
)


def _listed(kind, what: str, accepts=lambda value: True):
    """An argparse type: one or more values of ``kind`` separated by commas, each one that
    ``accepts``; refused in words saying ``what`` they must be."""

    def parse(text: str) -> tuple:
        try:
            values = tuple(kind(v) for v in text.split(",") if v.strip())
        except ValueError:
            values = ()
        if not values or not all(accepts(v) for v in values):
            raise argparse.ArgumentTypeError(f"expected {what} separated by commas; got {text!r}")
        return values

    return parse


#: One or more finite numbers, e.g. ``--tau 0,0.5,1`` (nan and infinities are refused).
_floats = _listed(float, "finite numbers", math.isfinite)
#: One or more whole numbers, e.g. ``--sizes 10,20,50``.
_ints = _listed(int, "whole numbers")


def _at_least(low: int, what: str):
    """An argparse type: a whole number of at least ``low``, refused in words saying ``what``
    it counts (``--epochs 0`` is about epochs, not about anything derived from them)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = None
        if value is None or value < low:
            raise argparse.ArgumentTypeError(
                f"{what} must be a whole number of at least {low}; got {text!r}"
            )
        return value

    return parse


def _common(parser: argparse.ArgumentParser, datasets_help: str | None = None) -> None:
    run = parser.add_argument_group("running")
    if datasets_help is not None:
        run.add_argument(
            "--datasets",
            type=_at_least(1, "the number of data sets"),
            default=None,
            metavar="K",
            help=datasets_help,
        )
    run.add_argument(
        "--seed",
        type=int,
        default=0,
        help="seed of every random choice (data, folds, orders); default 0",
    )
    run.add_argument(
        "--jobs",
        type=int,
        default=None,
        help="local worker processes (default: all cores; 1: in this process)",
    )
    run.add_argument(
        "--scheduler",
        default=None,
        metavar="ADDRESS",
        help="run on the Dask cluster at this scheduler address "
        "(e.g. tcp://10.0.0.5:8786) instead of locally",
    )
    run.add_argument(
        "--cache-dir",
        type=Path,
        default=None,
        help=f"where finished cells are kept so an interrupted run resumes "
        f"(default: {default_cache_dir()})",
    )
    run.add_argument("--no-cache", action="store_true", help="neither read nor write the cache")
    run.add_argument("--quiet", action="store_true", help="no progress bar")
    out = parser.add_argument_group("output (the table is always printed as Markdown)")
    out.add_argument(
        "--json",
        type=Path,
        default=None,
        metavar="PATH",
        help="write the records (one per table cell) as JSON",
    )
    out.add_argument("--csv", type=Path, default=None, metavar="PATH", help="write a CSV file")
    out.add_argument(
        "--markdown", type=Path, default=None, metavar="PATH", help="write the Markdown table"
    )
    out.add_argument(
        "--out",
        type=Path,
        default=None,
        metavar="DIR",
        help="write NAME.md, NAME.csv and NAME.json into this folder",
    )


def _training(parser: argparse.ArgumentParser, epochs: bool = True) -> None:
    group = parser.add_argument_group("protocol")
    group.add_argument(
        "--folds",
        type=_at_least(2, "the number of folds"),
        default=10,
        help="cross-validation folds (10)",
    )
    if epochs:
        group.add_argument(
            "--epochs",
            type=_at_least(1, "the number of epochs"),
            default=100,
            help="training epochs (100)",
        )


def _options(args, **overrides):
    from perceptron_core.experiments.cv import RunOptions

    if args.jobs is not None and args.jobs < 1:
        raise ValueError(f"--jobs must be at least 1; got {args.jobs}.")
    cache = None if args.no_cache else (args.cache_dir or default_cache_dir())
    fields = {
        "jobs": args.jobs,
        "scheduler": args.scheduler,
        "cache_dir": None if cache is None else str(cache),
        "progress": not args.quiet and sys.stderr.isatty(),
    }
    if hasattr(args, "epochs"):
        fields["epochs"] = args.epochs
    fields.update(overrides)
    return RunOptions(**fields)


def _protocol(args) -> dict:
    """The keyword arguments every cross-validated experiment takes from the command line."""
    return {"n_folds": args.folds, "seed": args.seed, "options": _options(args)}


def _outputs(args, name: str) -> dict:
    """The files to write (kind -> path or None), checked before the work: the run stops
    at once, with one line, when one of them cannot be written."""
    given = {
        "json": ("--json", args.json),
        "csv": ("--csv", args.csv),
        "md": ("--markdown", args.markdown),
    }
    folder = None if args.out is None else check_folder(args.out, "--out")
    paths = {}
    for kind, (flag, path) in given.items():
        if path is None and folder is not None:
            flag, path = "--out", folder / f"{name}.{kind}"
        paths[kind] = None if path is None else check_file(path, flag)
    return paths


def _emit(tables, paths: dict) -> int:
    """Print the tables and write the files :func:`_outputs` checked."""
    import json

    print("\n\n".join(t.to_markdown() for t in tables))
    records = (
        tables[0].records
        if len(tables) == 1
        else [{"table": t.title, **r} for t in tables for r in t.records]
    )
    if paths["json"]:
        Path(paths["json"]).write_text(
            json.dumps(records, indent=1, allow_nan=False) + "\n", encoding="utf-8"
        )
    if paths["csv"]:
        Path(paths["csv"]).write_text("".join(t.to_csv() for t in tables), encoding="utf-8")
    if paths["md"]:
        Path(paths["md"]).write_text(
            "\n\n".join(t.to_markdown() for t in tables) + "\n", encoding="utf-8"
        )
    return 0


def _name(data: str) -> str:
    """A file-name stem for DATA: ``kw:f=50,M=0.05`` -> ``kw_f_50_M_0.05``."""
    if data.lower().endswith(".csv"):
        data = Path(data).stem
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in data)


# --------------------------------------------------------------------------
# search / optimize
# --------------------------------------------------------------------------


def _search_arguments(parser):
    parser.add_argument(
        "data",
        metavar="DATA",
        help="a data set name (see 'perceptron-lab datasets'), a generator spec "
        "such as kw:f=50,M=0.05,N=0.1, or a CSV file (label in the last column)",
    )
    _training(parser)
    parser.add_argument(
        "--svm",
        action="store_true",
        help="add the SVM reference (L1 and L2 soft margin over a C grid)",
    )
    _common(parser, "how many random data sets a generator spec gives (default 1)")


def run_search(args) -> int:
    from perceptron_core.experiments.data import resolve
    from perceptron_core.experiments.search import parameter_search

    paths = _outputs(args, f"search-{_name(args.data)}")
    sets = resolve(args.data, args.datasets or 1, args.seed)
    protocol = _protocol(args)
    result = parameter_search(sets, **protocol)
    group = ("noise",) if len(sets) > 1 else ()
    tables = [result.table(f"Parameter search on {args.data} (accuracy, %)", group_by=group)]
    if args.svm:
        from perceptron_core.experiments.svm import svm_reference

        tables.append(svm_reference(sets, **protocol))
    return _emit(tables, paths)


def _optimize_arguments(parser):
    _search_arguments(parser)
    parser.add_argument(
        "--inner",
        type=_at_least(2, "the number of inner folds"),
        default=10,
        help="inner cross-validation folds (10)",
    )


def run_optimize(args) -> int:
    from perceptron_core.experiments.data import resolve
    from perceptron_core.experiments.optimize import parameter_optimisation

    paths = _outputs(args, f"optimize-{_name(args.data)}")
    sets = resolve(args.data, args.datasets or 1, args.seed)
    result = parameter_optimisation(sets, n_inner=args.inner, **_protocol(args))
    group = ("noise",) if len(sets) > 1 else ()
    table = result.table(
        f"Parameter optimisation on {args.data} (accuracy %, mean ± 95% t-interval)",
        group_by=group,
    )
    return _emit([table], paths)


# --------------------------------------------------------------------------
# curve
# --------------------------------------------------------------------------


def _curve_arguments(parser):
    parser.add_argument("data", metavar="DATA", help="as for 'search'")
    parser.add_argument(
        "--x",
        choices=("epochs", "size"),
        default="epochs",
        help="accuracy against epochs (default) or against training-set size",
    )
    parser.add_argument(
        "--tau",
        type=_floats,
        default=None,
        help="margins, comma-separated (default: 0 for epochs, "
        f"{','.join(f'{t:g}' for t in SIZE_TAUS)} for size)",
    )
    parser.add_argument(
        "--checkpoints",
        type=_ints,
        default=EPOCH_GRID,
        help="epochs at which to score (default: 1,2,3,5,...,1000)",
    )
    parser.add_argument(
        "--sizes",
        type=_ints,
        default=SIZE_GRID,
        help="training-set sizes (default: 10,20,50,...,20000)",
    )
    parser.add_argument(
        "--repeats",
        type=_at_least(1, "the number of repeats"),
        default=10,
        help="random training sets per size (10)",
    )
    parser.add_argument(
        "--test-size", type=_at_least(1, "the test size"), default=500, help="test examples (500)"
    )
    _training(parser)
    _common(parser, "how many random data sets a generator spec gives (epochs curve; default 1)")


def run_curve(args) -> int:
    from perceptron_core.experiments.curves import SIZE_TAUS, epoch_curve, size_curve
    from perceptron_core.experiments.data import parse_spec, resolve

    paths = _outputs(args, f"curve-{args.x}-{_name(args.data)}")
    if args.x == "epochs":
        sets = resolve(args.data, args.datasets or 1, args.seed)
        table = epoch_curve(
            sets,
            args.tau or (0.0,),
            args.checkpoints,
            group_by=("noise",) if len(sets) > 1 else (),
            **_protocol(args),
        )
    else:
        from perceptron_core.datasets import get_spec

        data = args.data
        name, opts = parse_spec(data)
        is_file = data.lower().endswith(".csv") or Path(data).is_file()
        if not is_file and get_spec(name).kind == "generator" and "n_samples" not in opts:
            # make the pool large enough for every size and the test set
            data += ("," if ":" in data else ":") + f"n={max(args.sizes) + args.test_size}"
        pool = resolve(data, 1, args.seed)[0]
        table = size_curve(
            pool,
            args.sizes,
            args.tau or SIZE_TAUS,
            repeats=args.repeats,
            test_size=args.test_size,
            seed=args.seed,
            options=_options(args),
        )
    return _emit([table], paths)


# --------------------------------------------------------------------------
# dominance
# --------------------------------------------------------------------------


def _dominance_arguments(parser):
    parser.add_argument(
        "--features", type=_ints, default=KW_FEATURES, help="f values (default 50,200,500)"
    )
    parser.add_argument(
        "--margins",
        type=_floats,
        default=KW_MARGINS,
        help="M values (default 0.05,0.1,0.25,0.5,0.75)",
    )
    parser.add_argument(
        "--noise", type=_floats, default=KW_NOISE, help="N values (default 0,0.05,0.1,0.15,0.25)"
    )
    parser.add_argument(
        "--settings",
        choices=("plain", "all"),
        default="plain",
        help="compare the modes of the plain perceptron (default) or of all 91 "
        "KW settings (each data set x setting is a case)",
    )
    _training(parser)
    _common(parser, "random data sets per (f, M, N) cell (default 2, as KW)")


def run_dominance(args) -> int:
    from perceptron_core.experiments.dominance import PLAIN, dominance_counts, kw_grid_sets
    from perceptron_core.experiments.grids import KW_SETTINGS

    paths = _outputs(args, "dominance")
    sets = kw_grid_sets(args.datasets or 2, args.seed, args.features, args.margins, args.noise)
    settings = PLAIN if args.settings == "plain" else KW_SETTINGS
    table = dominance_counts(sets, settings, **_protocol(args))
    return _emit([table], paths)


# --------------------------------------------------------------------------
# reproduce
# --------------------------------------------------------------------------


def _reproduce_arguments(parser):
    parser.add_argument(
        "name",
        metavar="NAME",
        choices=list(REPRODUCTION_TITLES),
        help="; ".join(f"{name}: {title}" for name, title in REPRODUCTION_TITLES.items()),
    )
    parser.add_argument("--svm", action="store_true", help="kw-table3: add the SVM reference")
    parser.add_argument(
        "--repeats",
        type=_at_least(1, "the number of repetitions"),
        default=10,
        help="nr-table1: repetitions of the 10-fold cross-validation (10)",
    )
    _common(
        parser,
        "random data sets per artificial cell (default: the table's own, e.g. 10 for kw-table4)",
    )


def run_reproduce(args) -> int:
    from perceptron_core.experiments.reproduce import reproduce

    paths = _outputs(args, args.name)
    tables = reproduce(
        args.name, args.datasets, args.seed, _options(args), svm=args.svm, repeats=args.repeats
    )
    return _emit(tables, paths)


# --------------------------------------------------------------------------
# paum
# --------------------------------------------------------------------------


def _paum_arguments(parser):
    parser.add_argument(
        "data",
        metavar="DATA",
        nargs="?",
        default="imbalanced:n=2200,positive_rate=0.0909",
        help="as for 'search' (default: the 2-D imbalanced set, 1 positive in 11, 2200 examples)",
    )
    _training(parser, epochs=False)
    _common(parser)


def run_paum(args) -> int:
    from perceptron_core.experiments.data import resolve
    from perceptron_core.experiments.paum_study import paum_study

    paths = _outputs(args, f"paum-{_name(args.data)}")
    table = paum_study(resolve(args.data, 1, args.seed)[0], **_protocol(args))
    return _emit([table], paths)


def register_experiments(register) -> None:
    """Add the experiment subcommands with :func:`perceptron_core.cli.register`."""
    for name, help_text, arguments, run in (
        (
            "search",
            "parameter search over the KW grids (best over each column)",
            _search_arguments,
            run_search,
        ),
        (
            "optimize",
            ("parameter optimisation by double cross-validation (mean and 95-percent t-interval)"),
            _optimize_arguments,
            run_optimize,
        ),
        (
            "curve",
            "learning curves: accuracy against epochs or training-set size",
            _curve_arguments,
            run_curve,
        ),
        (
            "dominance",
            "how often voted beats last, longest, ... over artificial data",
            _dominance_arguments,
            run_dominance,
        ),
        (
            "reproduce",
            "recompute a table or figure of the papers (KW 2007, NR 2005)",
            _reproduce_arguments,
            run_reproduce,
        ),
        (
            "paum",
            "uneven margins (PAUM) on imbalanced data: MAP, precision, recall, sparsity",
            _paum_arguments,
            run_paum,
        ),
    ):
        register(name, help_text, arguments)(run)
