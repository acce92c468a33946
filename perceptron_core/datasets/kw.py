"""The Khardon–Wachman artificial data ``(f, M, N)`` (docs/algorithms.md §8.1), streamed in blocks.

Khardon & Wachman (JMLR 8, 2007, section 3) build a random linear threshold
target from the data themselves and then keep only examples at a chosen
distance from its boundary, so the margin ``M`` and the label noise ``N`` can
be varied independently:

1. every attribute is an integer drawn uniformly from ``[-10, 10]``;
2. ``w*`` is the sum of the examples of a pool that got heads on a fair coin;
3. ``theta* = mean 0.5 |<w*, x>|`` over the pool;
4. an example is discarded when ``|<w*, x> - theta*| < M theta*``, otherwise
   labelled ``sign(<w*, x> - theta*)``;
5. each label is flipped with probability ``N``.

How this implementation makes it scale and stay reproducible:

* **The target comes from a fixed-size pool** (``pool_size``, default 600 =
  the size of each KW data set, so ``w*`` has the same distribution as in the
  paper: a sum of about 300 random examples). The pool is drawn from its own
  random stream before any example, so ``w*`` and ``theta*`` depend on the
  seed, ``n_features`` and ``pool_size`` only, never on ``n_samples``.
* **The examples are fresh draws**, independent of the pool. In the paper the
  pool *was* the data set; there an example that got heads leans towards the
  positive side (its own ``||x||^2`` is part of ``<w*, x>``). Fresh draws make
  the examples independent given the target, which is what the margin and noise
  properties assume and what lets the set grow without changing the target.
* **Candidates are streamed in blocks** of :data:`BLOCK_SIZE` rows, each block
  from its own child stream of the seed, and rejected candidates are dropped
  block by block, so memory holds the output plus one block. Because the block
  layout never depends on ``n_samples``, the first rows of a large set are
  exactly the rows of a small one with the same seed.
* **Label noise has its own stream**: one uniform number per candidate, and a
  label flips when it is below ``N``. With one seed, the flips at ``N = 0.05``
  are a subset of those at ``N = 0.1``, and changing ``N`` or ``M`` does not
  change which candidates are drawn.
* An example lying exactly on the boundary (``<w*, x> = theta*``, possible
  only when ``M = 0``) has no label and is discarded.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from perceptron_core._validation import Number

from ._common import (
    NON_NEGATIVE,
    POSITIVE_INT,
    PROBABILITY,
    DataError,
    GeneratedData,
    LinearTarget,
    check,
    check_dtype,
    child_rng,
    seed_sequence,
)

#: Candidate rows per block of the example stream (part of the stream's
#: definition: changing it changes which examples a seed gives).
BLOCK_SIZE = 2048

#: Default pool size for the target: the size of each KW data set.
POOL_SIZE = 600

#: Attribute range of the KW data.
LOW, HIGH = -10, 10

_STREAM_POOL, _STREAM_EXAMPLES, _STREAM_NOISE = 0, 1, 2


@dataclass(eq=False, repr=False)
class KWTarget(LinearTarget):
    """The KW target ``(w*, theta*)`` with the margin it was used with.

    Attributes
    ----------
    w : ndarray of shape (n_features,), int64
        ``w*``, the sum of the pool's examples that got heads (exact integers).
    theta : float
        ``theta* = mean 0.5 |<w*, x>|`` over the pool.
    margin : float
        ``M``: kept examples satisfy ``|<w*, x> - theta*| >= M theta*``.
    pool_size : int
        Number of pool examples ``w*`` and ``theta*`` were computed from.
    acceptance : float
        Fraction of the pool outside the margin band (an estimate of the share
        of candidates kept).
    """

    margin: float = 0.0
    pool_size: int = POOL_SIZE
    acceptance: float = 1.0

    def __repr__(self) -> str:
        return (
            f"KWTarget(n_features={self.w.shape[0]}, theta={self.theta:.6g}, "
            f"margin={self.margin:g}, pool_size={self.pool_size})"
        )


def kw_target(
    n_features: int, margin: float = 0.0, random_state=None, pool_size: int = POOL_SIZE
) -> KWTarget:
    """Draw the KW target ``(w*, theta*)`` alone, exactly as :func:`make_kw` does.

    Parameters
    ----------
    n_features : int
        ``f``, the number of attributes.
    margin : float, default=0
        ``M``, recorded in the target (it does not change ``w*`` or ``theta*``).
    random_state : None, int or numpy.random.Generator
        Seed; the same seed gives the same target as :func:`make_kw`.
    pool_size : int, default=600
        Number of pool examples.

    Returns
    -------
    KWTarget

    Examples
    --------
    >>> from perceptron_core.datasets import kw_target, make_kw
    >>> t = kw_target(20, random_state=1)
    >>> bool((t.w == make_kw(20, n_samples=5, random_state=1).target.w).all())
    True
    """
    f, margin, pool_size = _check_target("kw_target", n_features, margin, pool_size)
    return _target(f, margin, seed_sequence(random_state, "kw_target"), pool_size)


def _check_target(func: str, n_features, margin, pool_size) -> tuple[int, float, int]:
    """The target's arguments checked (for :func:`kw_target` and :func:`make_kw`), as
    ``(f, M, pool_size)``."""
    check(
        func,
        "n_features",
        n_features,
        "the number of attributes f",
        Number(1, 100_000, integer=True),
    )
    check(func, "margin", margin, "the margin M, in units of theta*", NON_NEGATIVE)
    check(
        func,
        "pool_size",
        pool_size,
        "the number of examples the target is built from",
        POSITIVE_INT,
    )
    return int(n_features), float(margin), int(pool_size)


def _target(f: int, margin: float, root: np.random.SeedSequence, pool_size: int) -> KWTarget:
    rng = child_rng(root, _STREAM_POOL)
    pool = rng.integers(LOW, HIGH + 1, size=(pool_size, f), dtype=np.int8)
    heads = rng.integers(0, 2, size=pool_size).astype(bool)
    w = pool[heads].sum(axis=0, dtype=np.int64)
    scores = pool @ w
    theta = 0.5 * float(np.abs(scores).sum()) / pool_size
    if theta == 0.0:
        raise DataError(
            f"make_kw: the target came out as zero ({int(heads.sum())} of the {pool_size} pool "
            "examples got heads, and their sum is 0), so there is no boundary. Use another "
            "random_state or a larger pool_size."
        )
    d = scores - theta
    acceptance = float(np.mean((np.abs(d) >= margin * theta) & (d != 0)))
    return KWTarget(
        w=w,
        theta=theta,
        margin=margin,
        pool_size=pool_size,
        acceptance=acceptance,
        description=f"KW target: sum of {int(heads.sum())} of {pool_size} pool examples",
    )


def make_kw(
    n_features: int = 50,
    margin: float = 0.1,
    noise: float = 0.0,
    n_samples: int = 600,
    random_state=None,
    *,
    dtype="float64",
    pool_size: int = POOL_SIZE,
) -> GeneratedData:
    """Khardon–Wachman artificial data with ``f`` attributes, margin ``M``, noise ``N``.

    See the module docstring for the construction and why the target comes
    from a fixed pool. KW's grid: ``f`` in {50, 200, 500}, ``M`` in
    {0.05, 0.1, 0.25, 0.5, 0.75}, ``N`` in {0, 0.05, 0.1, 0.15, 0.25}, 600
    examples per set.

    The classes are not balanced: since ``theta* > 0`` sits at about 0.4
    standard deviations of ``<w*, x>``, roughly a third of the examples are
    positive (the exact share depends on ``M`` and the seed). Generation
    streams blocks of 2,048 candidates, so memory is the output plus a few
    MB, whatever the number of rows.

    Parameters
    ----------
    n_features : int, default=50
        f: number of attributes (KW used 50, 200, 500).
        From 1 to 100,000.
    margin : float, default=0.1
        M: discard examples closer than M*theta* to the target boundary (KW used 0.05
        to 0.75). That is, examples with ``|<w*, x> - theta*| < M theta*`` are discarded.
        Large values discard most candidates; when fewer than 0.5% would be
        kept, a :class:`DataError` says so instead of running for ever.
    noise : float, default=0
        N: probability that each label is flipped (KW used 0 to 0.25).
        Each label is flipped independently.
    n_samples : int, default=600
        Number of examples.
    random_state : None, int or numpy.random.Generator
        Seed (a whole number) for reproducible data; empty for fresh randomness.
        The same seed gives identical data.
    dtype : {"float64", "float32", "int8"} or numpy dtype, default="float64"
        Storage type of X; int8 stores the integer attributes in one byte each.
        Every attribute is a whole number in [-10, 10],
        so ``np.int8`` stores them exactly (``10**6 x 500`` takes
        500 MB instead of 4 GB); the learners read int8 directly. Beware of
        overflow when multiplying int8 arrays yourself: cast first. Any other
        NumPy integer or floating type is accepted too.
    pool_size : int, default=600
        Number of pool examples the target is built from.

    Returns
    -------
    GeneratedData
        ``(X, y, flipped, target)``: ``X`` of shape ``(n_samples, n_features)``,
        ``y`` in {-1, +1} (int64, after noise), ``flipped`` the boolean mask of
        flipped labels, ``target`` a :class:`KWTarget` with ``w*`` and ``theta*``.

    Examples
    --------
    >>> from perceptron_core.datasets import make_kw
    >>> X, y, flipped, target = make_kw(50, margin=0.1, noise=0.1, n_samples=600,
    ...                                 random_state=0, dtype="int8")
    >>> X.shape, X.dtype, int(X.min()), int(X.max())
    ((600, 50), dtype('int8'), -10, 10)
    >>> clean = target.predict(X)
    >>> bool((y[~flipped] == clean[~flipped]).all() and (y[flipped] != clean[flipped]).all())
    True
    >>> bool(abs(target.decision_function(X)).min() >= 0.1 * target.theta)
    True
    """
    func = "make_kw"
    f, margin, pool_size = _check_target(func, n_features, margin, pool_size)
    check(func, "noise", noise, "the probability N that a label is flipped", PROBABILITY)
    check(func, "n_samples", n_samples, "the number of examples", POSITIVE_INT)
    dt = check_dtype(func, dtype, "if")
    n, noise = int(n_samples), float(noise)

    root = seed_sequence(random_state, func)
    target = _target(f, margin, root, pool_size)
    if target.acceptance == 0.0:
        raise DataError(
            f"make_kw: margin M={margin:g} is too large: none of the {pool_size} pool examples "
            f"lies that far from the target boundary, so almost every candidate would be "
            "discarded. Choose a smaller margin (Khardon and Wachman used M up to 0.75)."
        )

    X = np.empty((n, f), dtype=dt)
    y = np.empty(n, dtype=np.int64)
    flipped = np.empty(n, dtype=bool)
    w, theta, band = target.w, target.theta, margin * target.theta
    filled = block = 0
    while filled < n:
        cand = child_rng(root, _STREAM_EXAMPLES, block).integers(
            LOW, HIGH + 1, size=(BLOCK_SIZE, f), dtype=np.int8
        )
        u = child_rng(root, _STREAM_NOISE, block).random(BLOCK_SIZE)
        d = (cand @ w) - theta  # int64 scores, exact; then one float subtraction
        keep = np.flatnonzero((np.abs(d) >= band) & (d != 0))[: n - filled]
        k = keep.shape[0]
        X[filled : filled + k] = cand[keep]
        label = np.where(d[keep] > 0, 1, -1)
        flip = u[keep] < noise
        y[filled : filled + k] = np.where(flip, -label, label)
        flipped[filled : filled + k] = flip
        filled += k
        block += 1
        if block >= 20 and filled < 0.005 * block * BLOCK_SIZE:
            raise DataError(
                f"make_kw: margin M={margin:g} keeps only {filled / (block * BLOCK_SIZE):.2%} "
                f"of the candidate examples, so {n} examples would take very long to "
                "generate. Choose a smaller margin (Khardon and Wachman used M up to 0.75)."
            )
    return GeneratedData(X, y, flipped, target)
