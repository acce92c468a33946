"""The NR paper's check: bagging, AdaBoost and NR boosting of parallel perceptrons under noise.

Run: ``python benchmarks/nr_check.py [--repeats 10] [--jobs 1] [--csv out.csv]``.

Protocol (SPEC §3, Cantador & Dorronsoro 2005): twonorm, threenorm and
ringnorm with 300 examples (one sample per problem, fixed seed); stratified
10-fold cross-validation repeated ``--repeats`` times; in each fold exactly
``round(p * m_train)`` labels of the training part are flipped, for
``p`` in {0, 5, 10, 20, 30} %, and the test fold stays clean. Each fold
trains, with default settings (3 perceptrons, gamma 0.05, eta 1e-3, 250
epochs; 10 members or rounds):

* PP bagging (``Bagging``), PP boosting (``AdaBoost``), NR boosting (``NRBoost``);

and scores them on the clean test fold. The noise flag: the first NR round's
committee (a parallel perceptron trained on the uniformly weighted noisy
training part) categorises the training part; its "noisy" flag is compared
with the truly flipped labels (precision and recall pooled over all folds).

This script will move into ``perceptron_core.experiments``.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from sklearn.model_selection import RepeatedStratifiedKFold

from perceptron_core.boosting import AdaBoost, Bagging, NRBoost
from perceptron_core.datasets import flip_labels_exact, make_ringnorm, make_threenorm, make_twonorm

PROBLEMS = {"twonorm": make_twonorm, "threenorm": make_threenorm, "ringnorm": make_ringnorm}
NOISE = (0.0, 0.05, 0.10, 0.20, 0.30)
LEARNERS = ("PP bagging", "PP boosting", "NR boosting")


def one_fold(X, y, train, test, noise, seed):
    """Accuracies of the three ensembles and the noisy-flag counts on one fold."""
    y_train, flipped = flip_labels_exact(y[train], noise, random_state=seed)
    models = {
        "PP bagging": Bagging(random_state=seed),
        "PP boosting": AdaBoost(random_state=seed),
        "NR boosting": NRBoost(random_state=seed),
    }
    acc = {}
    for name, model in models.items():
        model.fit(X[train], y_train)
        acc[name] = float(np.mean(model.predict(X[test]) == y[test]))
    flagged = models["NR boosting"].categories_[0] == "noisy"
    counts = (int(np.sum(flagged & flipped)), int(flagged.sum()), int(flipped.sum()))
    return acc, counts


def run(repeats=10, jobs=1, data_seed=2005):
    tasks = []
    data = {}
    for k, (problem, make) in enumerate(PROBLEMS.items()):
        X, y, _, _ = make(300, random_state=data_seed + k)
        data[problem] = (X, y)
        folds = RepeatedStratifiedKFold(n_splits=10, n_repeats=repeats, random_state=data_seed)
        for f, (train, test) in enumerate(folds.split(X, y)):
            for q, noise in enumerate(NOISE):
                seed = 1_000_000 * k + 1000 * f + q
                tasks.append((problem, noise, train, test, seed))

    def work(task):
        problem, noise, train, test, seed = task
        X, y = data[problem]
        return problem, noise, *one_fold(X, y, train, test, noise, seed)

    if jobs == 1:
        results = [work(t) for t in tasks]
    else:
        from joblib import Parallel, delayed

        results = Parallel(n_jobs=jobs)(delayed(work)(t) for t in tasks)
    return summarise(results)


def summarise(results):
    rows = []
    for problem in PROBLEMS:
        for noise in NOISE:
            part = [(a, c) for p, n, a, c in results if p == problem and n == noise]
            row = {"problem": problem, "noise": noise, "folds": len(part)}
            for name in LEARNERS:
                accs = np.array([a[name] for a, _ in part])
                row[name] = accs.mean()
                row[name + " sd"] = accs.std(ddof=1)
            hits, flagged, flipped = np.sum([c for _, c in part], axis=0)
            row["flagged per fold"] = flagged / len(part)
            row["flag precision"] = hits / flagged if flagged else np.nan
            row["flag recall"] = hits / flipped if flipped else np.nan
            rows.append(row)
    return rows


def print_table(rows):
    head = (
        "| problem | noise | "
        + " | ".join(LEARNERS)
        + " | noisy flag: precision | recall | flagged/fold |"
    )
    print(head)
    print("|" + "---|" * (head.count("|") - 1))
    for r in rows:
        accs = " | ".join(f"{100 * r[n]:.1f} ± {100 * r[n + ' sd']:.1f}" for n in LEARNERS)
        prec = "—" if np.isnan(r["flag precision"]) else f"{100 * r['flag precision']:.1f}"
        rec = "—" if np.isnan(r["flag recall"]) else f"{100 * r['flag recall']:.1f}"
        print(
            f"| {r['problem']} | {100 * r['noise']:.0f} % | {accs} | {prec} | {rec} | "
            f"{r['flagged per fold']:.1f} |"
        )


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=10, help="repetitions of 10-fold CV")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--csv", default=None, help="also write the table to this CSV file")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    rows = run(args.repeats, args.jobs)
    print(
        f"{args.repeats} x stratified 10-fold CV, 300 examples; test accuracy in % "
        f"(mean ± sd over folds); {time.perf_counter() - start:.0f} s"
    )
    print_table(rows)
    if args.csv:
        import csv

        with open(args.csv, "w", newline="") as fh:
            writer = csv.DictWriter(fh, fieldnames=list(rows[0]))
            writer.writeheader()
            writer.writerows(rows)


if __name__ == "__main__":
    main()
