"""The ``perceptron-lab`` command.

Each subcommand is one row of :data:`SUBCOMMANDS`: a name, a one-line help,
a function that adds its arguments to an :class:`argparse.ArgumentParser`,
and a function that runs it and returns the exit status. To add one (say
``search``), write the two functions and register them::

    def _search_arguments(parser):
        parser.add_argument("--grid", ...)

    @register("search", "run a parameter search (docs/algorithms.md §9.2)", _search_arguments)
    def run_search(args) -> int:
        ...
        return 0

Heavy imports belong inside the run function, so ``perceptron-lab --help``
stays fast; the arguments function runs for ``perceptron-lab NAME --help`` too,
so it must not load them either (a subcommand's arguments are added only when
that subcommand is parsed). A :class:`ValueError` (including
:class:`~perceptron_core.datasets.DataError`) raised by a run function is
printed as ``perceptron-lab: error: <message>`` with exit status 1, and so is
an :class:`OSError` (a file that could not be written after all); other
exceptions are bugs and show their traceback. Output paths are checked
before the work (:mod:`perceptron_core._output_files`). ``perceptron-lab --version``
prints the installed version.

Subcommands:

* ``datasets``: list every data set (name, kind, shape, classes, source).
* ``generate NAME``: write a generated data set to ``.csv`` or ``.npz``, with
  every generator option as a flag and ``--seed``.
* ``search``, ``optimize``, ``curve``, ``dominance``, ``reproduce`` and
  ``paum``: the experiments of :mod:`perceptron_core.experiments`, registered
  at the bottom of this module by
  :func:`~perceptron_core.experiments.cli.register_experiments`.

The app adds ``app``, ``warm`` and ``export-html`` to this table in its own module
(``perceptron_lab.cli``, the console script's entry point): the core knows nothing of the
app, and ``python -m perceptron_core.cli`` runs the core's commands alone.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from perceptron_core._output_files import check_file
from perceptron_core.experiments.cli import register_experiments

PROG = "perceptron-lab"


@dataclass(frozen=True)
class Subcommand:
    """One row of the command table."""

    name: str
    help: str
    add_arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]


#: The command table, in the order ``--help`` lists it.
SUBCOMMANDS: dict[str, Subcommand] = {}


def register(name: str, help: str, add_arguments: Callable | None = None):
    """Decorator registering ``run(args) -> int`` as subcommand ``name``."""

    def decorator(run):
        SUBCOMMANDS[name] = Subcommand(name, help, add_arguments or (lambda parser: None), run)
        return run

    return decorator


def package_version() -> str:
    """The installed distribution's version, else :data:`perceptron_core.__version__`.

    Examples
    --------
    >>> from perceptron_core import __version__
    >>> package_version() == __version__  # an editable install of this checkout
    True
    """
    from importlib import metadata

    try:
        return metadata.version(PROG)
    except metadata.PackageNotFoundError:  # run from a checkout that is not installed
        from perceptron_core import __version__

        return __version__


class _VersionAction(argparse.Action):
    """``--version``: print ``perceptron-lab <version>`` and exit 0, like argparse's own
    ``version`` action, but reading the version only when asked (the package metadata is
    not free to read, and ``--help`` should not pay for it)."""

    def __init__(
        self,
        option_strings,
        dest=argparse.SUPPRESS,
        default=argparse.SUPPRESS,
        help="print the program's version and exit",
    ):
        super().__init__(option_strings, dest=dest, default=default, nargs=0, help=help)

    def __call__(self, parser, namespace, values, option_string=None):
        print(f"{PROG} {package_version()}")
        parser.exit()


class _CommandParser(argparse.ArgumentParser):
    """A subcommand's parser that adds its arguments the first time it parses or prints.

    One command line parses with one subcommand's parser, so building only that one keeps
    ``perceptron-lab --help`` and every command from paying for the others (``generate``'s
    alone is a parser per generator).
    """

    def __init__(self, *args, add_arguments: Callable | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self._add_arguments = add_arguments

    def _complete(self) -> None:
        add, self._add_arguments = self._add_arguments, None
        if add is not None:
            add(self)

    def parse_known_args(self, args=None, namespace=None):
        self._complete()
        return super().parse_known_args(args, namespace)

    def format_usage(self) -> str:
        self._complete()
        return super().format_usage()

    def format_help(self) -> str:
        self._complete()
        return super().format_help()


def build_parser(subcommands: Mapping[str, Subcommand] | None = None) -> argparse.ArgumentParser:
    """The parser of ``subcommands`` (default: every registered one); each adds its
    arguments when used."""
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="Perceptron Lab from the command line: data sets, experiments, "
        "reproductions, the app. Run '%(prog)s COMMAND --help' for a command's options.",
    )
    parser.add_argument("--version", action=_VersionAction)
    sub = parser.add_subparsers(
        dest="command", metavar="COMMAND", required=True, parser_class=_CommandParser
    )
    for cmd in (SUBCOMMANDS if subcommands is None else subcommands).values():
        p = sub.add_parser(
            cmd.name, help=cmd.help, description=cmd.help, add_arguments=cmd.add_arguments
        )
        p.set_defaults(_run=cmd.run)
    return parser


def main(
    argv: list[str] | None = None, subcommands: Mapping[str, Subcommand] | None = None
) -> int:
    """Run one command line of ``subcommands`` (default: the core's); returns the exit status.

    Examples
    --------
    >>> from perceptron_core.cli import main
    >>> main(["datasets", "--kind", "shipped"])  # doctest: +ELLIPSIS
    name ...
    sonar ...
    0
    """
    parser = build_parser(subcommands)
    args = parser.parse_args(argv)
    try:
        return int(args._run(args) or 0)
    except ValueError as err:
        print(f"{PROG}: error: {err}", file=sys.stderr)
        return 1
    except MemoryError as err:  # what no check foresaw: one line, not a traceback
        print(f"{PROG}: error: not enough memory for this command ({err}).", file=sys.stderr)
        return 1
    except OSError as err:  # a disk that fills up or goes away while writing
        where = f": {err.filename!r}" if err.filename else ""
        print(f"{PROG}: error: {err.strerror or err}{where}", file=sys.stderr)
        return 1


# --------------------------------------------------------------------------
# datasets
# --------------------------------------------------------------------------


def _datasets_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--kind",
        choices=("generator", "shipped", "scikit-learn", "external"),
        help="only data sets of this kind",
    )
    parser.add_argument(
        "--json", action="store_true", help="print machine-readable JSON instead of a table"
    )
    parser.add_argument(
        "-v",
        "--verbose",
        action="store_true",
        help="also print each set's description, licence and options",
    )


def _classes(spec) -> str:
    if spec.class_counts is None:
        return f"{len(spec.class_names)} classes (random counts)"
    if len(spec.class_names) == 2:
        return " / ".join(f"{n} {c}" for n, c in zip(spec.class_names, spec.class_counts))
    return f"{len(spec.class_names)} classes"


@register(
    "datasets", "list every data set with its shape, classes and source", _datasets_arguments
)
def run_datasets(args: argparse.Namespace) -> int:
    from perceptron_core.datasets import list_datasets

    specs = list_datasets(args.kind)
    if args.json:
        out = [
            {
                "name": s.name,
                "title": s.title,
                "kind": s.kind,
                "shape": list(s.shape),
                "class_names": list(s.class_names),
                "class_counts": list(s.class_counts) if s.class_counts else None,
                "majority_rate": s.majority_rate,
                "source": s.source,
                "licence": s.licence,
                "available": s.available,
                "options": [
                    {
                        "name": o.name,
                        "default": o.default,
                        "type": o.type,
                        "help": o.help,
                        "choices": list(o.choices) if o.choices else None,
                    }
                    for o in s.options
                ],
            }
            for s in specs
        ]
        print(json.dumps(out, indent=2, default=str))
        return 0
    rows = [("name", "kind", "shape", "classes", "source")]
    for s in specs:
        shape = f"{s.shape[0]} x {s.shape[1]}"
        if s.kind == "generator":
            shape += " (default)"
        source = s.source if len(s.source) <= 60 else s.source[:57] + "..."
        if not s.available:
            source = "NOT AVAILABLE: " + source
        rows.append((s.name, s.kind, shape, _classes(s), source))
    widths = [max(len(r[i]) for r in rows) for i in range(4)]
    for r in rows:
        print("  ".join(c.ljust(w) for c, w in zip(r[:4], widths)) + "  " + r[4])
        if args.verbose and r is not rows[0]:
            spec = next(s for s in specs if s.name == r[0])
            print(f"    {spec.description}")
            print(f"    licence: {spec.licence}")
            if spec.notes:
                print(f"    notes: {spec.notes}")
            for o in spec.options:
                print(f"    option {o.name} (default {o.default!r}): {o.help}")
    return 0


# --------------------------------------------------------------------------
# generate
# --------------------------------------------------------------------------


def _number(text: str) -> float:
    """A float, also written as a fraction ('1/11')."""
    try:
        return float(Fraction(text.strip()))
    except (ValueError, ZeroDivisionError):
        raise argparse.ArgumentTypeError(
            f"expected a number such as 0.1 or 1/11; got {text!r}"
        ) from None


def _generate_arguments(parser: argparse.ArgumentParser) -> None:
    from perceptron_core.datasets import list_datasets

    sub = parser.add_subparsers(dest="generator", metavar="NAME", required=True)
    for spec in list_datasets("generator"):
        p = sub.add_parser(spec.name, help=spec.title, description=spec.description)
        p.add_argument(
            "--out",
            "-o",
            required=True,
            type=Path,
            help="output file: .csv (text, one row per example, the label last) or "
            ".npz (NumPy, with the flipped mask and the target)",
        )
        p.add_argument(
            "--seed",
            dest="random_state",
            type=int,
            default=None,
            help="seed for reproducible data (default: a random seed, printed)",
        )
        for opt in spec.options:
            if opt.type == "seed":
                continue
            flag = "--" + opt.name.replace("_", "-")
            kwargs: dict[str, Any] = {
                "dest": opt.name,
                "default": opt.default,
                "help": f"{opt.help} (default: {opt.default!r:.12})",
            }
            if opt.choices:
                kwargs["choices"] = opt.choices
            if opt.type == "int":
                kwargs["type"] = int
            elif opt.type == "float":
                kwargs["type"] = _number
            p.add_argument(flag, **kwargs)
        p.add_argument(
            "--include-flipped",
            action="store_true",
            help="CSV only: add a 0/1 column 'flipped' marking the labels the "
            "noise flipped (do not use it as a feature)",
        )
        p.add_argument(
            "--no-compress",
            action="store_true",
            help="NPZ only: store uncompressed (faster for very large sets)",
        )


def _write_csv(path: Path, X, y, flipped, feature_names, include_flipped: bool) -> None:
    import numpy as np

    integer = X.dtype.kind in "iub"
    header = list(feature_names) + ["label"] + (["flipped"] if include_flipped else [])
    chunk = 20_000
    with open(path, "w", encoding="utf-8", newline="") as fh:
        fh.write(",".join(header) + "\n")
        for start in range(0, X.shape[0], chunk):
            stop = min(start + chunk, X.shape[0])
            cols = [
                X[start:stop].astype(np.int64 if integer else np.float64),
                y[start:stop, None].astype(np.int64),
            ]
            if include_flipped:
                cols.append(flipped[start:stop, None].astype(np.int64))
            block = np.hstack([c.astype(np.float64) if not integer else c for c in cols])
            fmt: str | list[str] = "%d" if integer else "%.17g"
            if not integer:  # labels and flags as whole numbers even next to floats
                fmt = ["%.17g"] * X.shape[1] + ["%d"] * (block.shape[1] - X.shape[1])
            np.savetxt(fh, block, fmt=fmt, delimiter=",")


@register("generate", "write a generated data set to a CSV or NPZ file", _generate_arguments)
def run_generate(args: argparse.Namespace) -> int:
    import secrets

    import numpy as np

    from perceptron_core.datasets import DataError, get_spec, load

    spec = get_spec(args.generator)
    out: Path = args.out
    suffix = out.suffix.lower()
    if suffix not in (".csv", ".npz"):
        raise DataError(f"--out must end in .csv or .npz; got {str(out)!r}.")
    check_file(out, "--out")
    seed = args.random_state
    chose_seed = seed is None
    if chose_seed:
        seed = secrets.randbelow(2**32)
    options = {o.name: getattr(args, o.name) for o in spec.options if o.type != "seed"}
    X, y, info = load(spec.name, random_state=seed, **options)
    flipped = info.flipped
    if suffix == ".csv":
        _write_csv(out, X, y, flipped, info.feature_names, args.include_flipped)
    else:
        meta = {
            "generator": spec.name,
            "options": {**options, "random_state": seed},
            "feature_names": list(info.feature_names),
        }
        try:
            from perceptron_core import __version__ as version
        except ImportError:  # pragma: no cover - package init mid-edit
            version = "unknown"
        meta["perceptron_lab_version"] = version
        arrays = {
            "X": X,
            "y": y,
            "flipped": flipped,
            "feature_names": np.array(info.feature_names),
            "meta": np.array(json.dumps(meta, default=str)),
        }
        target = info.target
        if target is not None and hasattr(target, "w"):
            arrays["target_w"] = np.asarray(target.w)
            arrays["target_theta"] = np.array(target.theta)
        (np.savez if args.no_compress else np.savez_compressed)(out, **arrays)
    n_pos, n_neg = int((y == 1).sum()), int((y == -1).sum())
    print(
        f"wrote {X.shape[0]} examples x {X.shape[1]} features ({X.dtype}) to {out}: "
        f"{n_pos} labelled +1, {n_neg} labelled -1; labels flipped by noise: "
        f"{int(flipped.sum())}"
    )
    if chose_seed:
        print(f"seed {seed} (pass --seed {seed} to make the same data again)")
    return 0


register_experiments(register)  # search, optimize, curve, dominance, reproduce, paum


if __name__ == "__main__":
    sys.exit(main())
