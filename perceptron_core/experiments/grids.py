"""The Khardon–Wachman parameter grids, their table columns, and how a column picks.

KW (section 3.2; docs/algorithms.md §9.1) vary three switches of the perceptron:

* ``tau``, the margin in units of ``theta_init``: {0, 0.125, 0.25, 0.5, 1, 2, 4};
* ``lam``, the λ-trick strength: {0, 0.125, 0.25, 0.5, 1, 2, 4};
* ``alpha``, the α-bound on updates per example: {∞, 80, 60, 40, 20, 10, 5};

and the combinations tau×lam and tau×alpha. The union of those grids,
:data:`KW_SETTINGS`, has 7×7 (tau×lam) + 7×6 (tau×alpha with a finite bound)
= 91 settings; every table of KW reads its figures from the accuracies of
these 91 runs, so an experiment trains each of them once per fold.

A table **column** is a family of settings (:data:`COLUMNS`):
``nothing`` (all switches off), ``tau``, ``lam``, ``alpha``, ``tauxlam``,
``tauxalpha``, and the sequential searches ``tau->lam``, ``tau->alpha``
(choose ``tau`` first with the other switch off, then the other switch with
that ``tau`` fixed).

How a column turns per-setting accuracies into one choice
(:func:`choose`):

* **search** (``include_inactive=False``): the best setting with the
  column's switches *on* (for ``tauxlam``: ``tau > 0`` and ``lam > 0``), so
  a column shows what the variant can reach at best; ``nothing`` is the
  plain perceptron.
* **optimisation** (``include_inactive=True``): the grid includes the
  inactive value (``tau = 0``, ``lam = 0``, ``alpha = ∞``), so a column is
  never worse than doing nothing on the data it was chosen on.

Ties go to the first setting in grid order, which lists the inactive value
first and then increasing strength (``tau`` and ``lam`` ascending, ``alpha``
descending): the weaker setting wins a tie. This is our choice; KW do not
say.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from perceptron_core.engine.kw_trainer import NO_BOUND

#: KW's grids, inactive value first.
TAU_GRID = (0.0, 0.125, 0.25, 0.5, 1.0, 2.0, 4.0)
LAM_GRID = (0.0, 0.125, 0.25, 0.5, 1.0, 2.0, 4.0)
ALPHA_GRID = (None, 80, 60, 40, 20, 10, 5)  # None: no bound (∞)

#: Table columns, in KW's order.
COLUMNS = ("nothing", "tau", "lam", "alpha", "tauxlam", "tauxalpha", "tau->lam", "tau->alpha")
#: The columns of a parameter search table (no sequential searches).
SEARCH_COLUMNS = COLUMNS[:6]


@dataclass(frozen=True)
class Settings:
    """A list of settings ``(tau, lam, alpha)``, as the grid kernel takes them.

    Attributes
    ----------
    tau, lam : ndarray of shape (S,), float64
    alpha : ndarray of shape (S,), int64
        :data:`~perceptron_core.engine.kw_trainer.NO_BOUND` stands for no bound.

    Examples
    --------
    >>> s = Settings.from_tuples([(0.0, 0.0, None), (0.5, 0.0, 10)])
    >>> len(s), s.label(1)
    (2, 'tau=0.5, lam=0, alpha=10')
    """

    tau: np.ndarray
    lam: np.ndarray
    alpha: np.ndarray

    @classmethod
    def from_tuples(cls, rows) -> Settings:
        rows = list(rows)
        return cls(
            tau=np.array([float(r[0]) for r in rows]),
            lam=np.array([float(r[1]) for r in rows]),
            alpha=np.array(
                [NO_BOUND if r[2] is None else int(r[2]) for r in rows], dtype=np.int64
            ),
        )

    def __len__(self) -> int:
        return len(self.tau)

    def alpha_value(self, i: int) -> int | None:
        """The α-bound of setting ``i`` as a person writes it (None for ∞)."""
        return None if self.alpha[i] == NO_BOUND else int(self.alpha[i])

    def as_dict(self, i: int) -> dict:
        return {"tau": float(self.tau[i]), "lam": float(self.lam[i]), "alpha": self.alpha_value(i)}

    def label(self, i: int) -> str:
        a = self.alpha_value(i)
        return f"tau={self.tau[i]:g}, lam={self.lam[i]:g}, alpha={'inf' if a is None else a}"

    def index(self, tau: float, lam: float, alpha) -> int:
        """Position of a setting (ValueError if it is not in the list)."""
        a = NO_BOUND if alpha is None else int(alpha)
        hit = np.flatnonzero((self.tau == tau) & (self.lam == lam) & (self.alpha == a))
        if len(hit) == 0:
            raise ValueError(
                f"The setting tau={tau:g}, lam={lam:g}, alpha={alpha} is not in this grid."
            )
        return int(hit[0])

    def key(self) -> list:
        """A JSON-able description (part of a cache key)."""
        return [
            [float(t), float(lam), int(a)] for t, lam, a in zip(self.tau, self.lam, self.alpha)
        ]


def kw_settings(tau_grid=TAU_GRID, lam_grid=LAM_GRID, alpha_grid=ALPHA_GRID) -> Settings:
    """The union of the tau×lam and tau×alpha grids (91 settings for KW's grids).

    The first grid value of each switch must be its inactive value
    (0, 0, None).

    Examples
    --------
    >>> s = kw_settings()
    >>> len(s), s.label(0), s.label(len(s) - 1)
    (91, 'tau=0, lam=0, alpha=inf', 'tau=4, lam=0, alpha=5')
    >>> len(kw_settings((0.0, 1.0), (0.0, 0.5), (None, 10)))
    6
    """
    if tau_grid[0] != 0 or lam_grid[0] != 0 or alpha_grid[0] is not None:
        raise ValueError(
            "Each grid must start with its inactive value: tau 0, lam 0, alpha None (no bound)."
        )
    rows = [(t, lam, None) for t in tau_grid for lam in lam_grid]
    rows += [(t, 0.0, a) for t in tau_grid for a in alpha_grid[1:]]
    return Settings.from_tuples(rows)


#: The 91 settings of KW's grids.
KW_SETTINGS = kw_settings()


def _off(settings: Settings):
    """Boolean masks: tau off, lam off, alpha off (per setting)."""
    return settings.tau == 0, settings.lam == 0, settings.alpha == NO_BOUND


def column_members(settings: Settings, column: str, include_inactive: bool) -> np.ndarray:
    """Indices (in grid order) of the settings a single-stage column chooses among.

    Examples
    --------
    >>> s = kw_settings((0.0, 1.0), (0.0, 0.5), (None, 10))
    >>> [s.label(i) for i in column_members(s, "tau", include_inactive=False)]
    ['tau=1, lam=0, alpha=inf']
    >>> [s.label(i) for i in column_members(s, "tau", include_inactive=True)]
    ['tau=0, lam=0, alpha=inf', 'tau=1, lam=0, alpha=inf']
    """
    tau_off, lam_off, alpha_off = _off(settings)
    inc = include_inactive
    masks = {
        "nothing": tau_off & lam_off & alpha_off,
        "tau": lam_off & alpha_off & (inc | ~tau_off),
        "lam": tau_off & alpha_off & (inc | ~lam_off),
        "alpha": tau_off & lam_off & (inc | ~alpha_off),
        "tauxlam": alpha_off & (inc | (~tau_off & ~lam_off)),
        "tauxalpha": lam_off & (inc | (~tau_off & ~alpha_off)),
    }
    if column not in masks:
        raise ValueError(
            f"Unknown column {column!r}; single-stage columns are {', '.join(masks)}."
        )
    return np.flatnonzero(masks[column])


def _best(scores: np.ndarray, members: np.ndarray) -> int:
    """The member with the highest score; the first one (grid order) on a tie."""
    if len(members) == 0:
        raise ValueError(
            "This column has no setting in the grid: the grid lacks the values "
            "the column needs (e.g. a tau other than 0)."
        )
    return int(members[np.argmax(scores[members])])


def choose(scores: np.ndarray, settings: Settings, column: str, include_inactive: bool) -> int:
    """Index of the setting column ``column`` picks, given one score per setting.

    Parameters
    ----------
    scores : ndarray of shape (S,)
        E.g. cross-validated accuracy of each setting in one prediction mode.
    settings : Settings
    column : str
        One of :data:`COLUMNS`.
    include_inactive : bool
        False for a parameter search, True for a parameter optimisation
        (see the module docstring).

    Examples
    --------
    A hand-checkable case: four settings, the plain perceptron best of all.

    >>> s = kw_settings((0.0, 1.0), (0.0, 0.5), (None,))
    >>> [s.label(i) for i in range(len(s))]  # doctest: +NORMALIZE_WHITESPACE
    ['tau=0, lam=0, alpha=inf', 'tau=0, lam=0.5, alpha=inf',
     'tau=1, lam=0, alpha=inf', 'tau=1, lam=0.5, alpha=inf']
    >>> acc = np.array([0.9, 0.7, 0.8, 0.6])
    >>> choose(acc, s, "tau", include_inactive=False)   # best with tau on
    2
    >>> choose(acc, s, "tau", include_inactive=True)    # doing nothing may win
    0
    >>> choose(acc, s, "tau->lam", include_inactive=False)   # tau=1 first, then lam > 0
    3
    """
    if column in ("tau->lam", "tau->alpha"):
        first = _best(scores, column_members(settings, "tau", include_inactive))
        tau = settings.tau[first]
        second = column_members(
            settings, "tauxlam" if column == "tau->lam" else "tauxalpha", include_inactive
        )
        # without the inactive values, the combined column already has both switches on
        return _best(scores, second[settings.tau[second] == tau])
    return _best(scores, column_members(settings, column, include_inactive))


def as_matrix(values: np.ndarray, settings: Settings, second: str):
    """Lay per-setting values out as a tau x lam or tau x alpha matrix (for heat maps).

    Parameters
    ----------
    values : ndarray of shape (S,)
    settings : Settings
    second : {"lam", "alpha"}
        The other axis: tau x lam with no α-bound, or tau x alpha with lam = 0.

    Returns
    -------
    taus : list of float
    others : list
        lam values, or α-bounds (None for no bound).
    matrix : ndarray of shape (len(taus), len(others))
        NaN where the grid has no such setting.

    Examples
    --------
    >>> s = kw_settings((0.0, 1.0), (0.0, 0.5), (None, 10))
    >>> taus, alphas, m = as_matrix(np.arange(6.0), s, "alpha")
    >>> taus, alphas, m.tolist()
    ([0.0, 1.0], [None, 10], [[0.0, 4.0], [2.0, 5.0]])
    """
    if second not in ("lam", "alpha"):
        raise ValueError(f"second must be 'lam' or 'alpha'; got {second!r}.")
    _, lam_off, alpha_off = _off(settings)
    keep = alpha_off if second == "lam" else lam_off
    taus = sorted({float(t) for t in settings.tau[keep]})
    others: list[float | None]
    if second == "lam":
        others = list(sorted({float(v) for v in settings.lam[keep]}))
    else:  # no bound first, then tighter bounds
        bounds = sorted({int(v) for v in settings.alpha[keep]}, reverse=True)
        others = [None if b == NO_BOUND else b for b in bounds]
    matrix = np.full((len(taus), len(others)), np.nan)
    for i in np.flatnonzero(keep):
        other = float(settings.lam[i]) if second == "lam" else settings.alpha_value(int(i))
        matrix[taus.index(float(settings.tau[i])), others.index(other)] = values[i]
    return taus, others, matrix
