"""How much one experiment may ask of a shared server: the app's limits per run.

One press of *Run* on the app's Experiments page could ask for 64 worker
processes, 20 folds and 1,000 epochs of the 91 settings on 50 data sets with
double cross-validation: tens of core-hours. The page now checks every run
against :data:`PAGE_LIMITS` before it starts (:func:`check`) and refuses one
that asks too much, with a message that names each number that is too big
and what is allowed.

Most of the work is visiting training examples: one visit is one example
seen by one setting's run in one epoch (a dot product, and an update after a
mistake). :meth:`Request.visits` counts them from the plan. A visit's cost
ranges from a dot product (small, separable data) to scoring a large test
part after every update (spam); ``benchmarks/bench_hostile.py --experiments``
measures it, and docs/benchmarks.md turns the budget of 1,000 million visits
into core time.

The command line (``perceptron-lab search``, ``optimize``, ``curve``,
``reproduce``) has no such limits: it runs on the machine of whoever starts
it, who may well want Table 4's 50 data sets or every core of a workstation,
and a cluster run (``--scheduler``) is sized by its cluster. Its cache folder
has no size cap either.
"""

from __future__ import annotations

from dataclasses import dataclass

from perceptron_core.experiments.curves import EPOCH_GRID
from perceptron_core.experiments.execution import default_jobs
from perceptron_core.experiments.grids import KW_SETTINGS

#: The experiments a request may name, and how many settings each trains.
KINDS = {"search": len(KW_SETTINGS), "optimisation": len(KW_SETTINGS), "epoch-curve": 1}


@dataclass(frozen=True)
class Request:
    """What one run of an experiment asks for.

    Attributes
    ----------
    kind : {"search", "optimisation", "epoch-curve"}
        A parameter search, a double cross-validation (``inner_folds`` inner
        folds on every outer training part) or an accuracy-against-epochs
        curve (one setting, scored up to the last epoch of ``EPOCH_GRID``;
        ``epochs`` is not used).
    shapes : tuple of (n_samples, n_features)
        One per data set.
    folds, epochs, jobs, inner_folds : int
    """

    kind: str
    shapes: tuple
    folds: int
    epochs: int
    jobs: int
    inner_folds: int = 10

    def visits(self) -> int:
        """Training examples visited, over every setting, epoch and fold.

        Examples
        --------
        >>> Request("search", ((600, 50),), folds=10, epochs=100, jobs=1).visits()
        49140000
        """
        # The test parts of k folds cover the data once, so the k training parts hold
        # n (k - 1) examples in all, whatever the fold sizes; inner folds likewise.
        examples = sum(n for n, _ in self.shapes) * (self.folds - 1)
        if self.kind == "optimisation":
            examples *= self.inner_folds  # the outer parts, and (inner - 1) times each inside
        epochs = max(EPOCH_GRID) if self.kind == "epoch-curve" else self.epochs
        return examples * KINDS[self.kind] * epochs


@dataclass(frozen=True)
class Limits:
    """The most one run may ask for (None for ``jobs``: the machine's cores)."""

    jobs: int | None = None
    folds: int = 10
    inner_folds: int = 10
    epochs: int = 1000
    features: int = 500
    datasets: int = 20
    visits: int = 1_000_000_000
    #: Size cap of the cache folder the page writes to (the oldest cells go first).
    cache_bytes: int = 100_000_000

    def max_jobs(self) -> int:
        return default_jobs() if self.jobs is None else min(self.jobs, default_jobs())


#: What the app's Experiments page allows per run.
PAGE_LIMITS = Limits()


def check(request: Request, limits: Limits = PAGE_LIMITS) -> None:
    """Raise ``ValueError`` naming every number of ``request`` above ``limits``.

    Examples
    --------
    >>> check(Request("search", ((600, 50),) * 2, folds=10, epochs=100, jobs=1))
    >>> check(Request("search", ((600, 50),), folds=20, epochs=100, jobs=1))
    Traceback (most recent call last):
    ...
    ValueError: This experiment asks for more than the page allows: 20 folds (at most 10). ...
    """
    if request.kind not in KINDS:
        raise ValueError(f"Unknown experiment {request.kind!r}; choose one of {', '.join(KINDS)}.")
    too_big = []
    if request.jobs > limits.max_jobs():
        too_big.append(
            f"{request.jobs} worker processes (this server has "
            f"{default_jobs()} cores, so at most {limits.max_jobs()})"
        )
    if request.folds > limits.folds:
        too_big.append(f"{request.folds} folds (at most {limits.folds})")
    if request.kind == "optimisation" and request.inner_folds > limits.inner_folds:
        too_big.append(f"{request.inner_folds} inner folds (at most {limits.inner_folds})")
    if request.kind != "epoch-curve" and request.epochs > limits.epochs:
        too_big.append(f"{request.epochs} epochs (at most {limits.epochs})")
    features = max((f for _, f in request.shapes), default=0)
    if features > limits.features:
        too_big.append(f"data with {features} features (at most {limits.features})")
    if len(request.shapes) > limits.datasets:
        too_big.append(f"{len(request.shapes)} data sets (at most {limits.datasets})")
    visits = request.visits()
    if visits > limits.visits:
        inner = " and inner folds" if request.kind == "optimisation" else ""
        too_big.append(
            f"about {visits / 1e6:,.0f} million visits of a training example (data sets x "
            f"folds{inner} x {KINDS[request.kind]} settings x epochs x training examples; "
            f"at most {limits.visits / 1e6:,.0f} million)"
        )
    if too_big:
        raise ValueError(
            "This experiment asks for more than the page allows: "
            + "; ".join(too_big)
            + ". Use fewer data sets, folds or epochs; the command line (perceptron-lab "
            "search, optimize, curve) runs larger experiments on your own machine."
        )
