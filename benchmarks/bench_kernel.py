"""Kernel perceptron training (RBF) against scikit-learn's SVC and Vowpal Wabbit's --ksvm.

Run: ``python benchmarks/bench_kernel.py [--sizes 5000 20000] [--epochs 10]``.

All figures come from one run on the same data (Breiman's ringnorm, 20
dimensions, 5% of the training labels flipped; a ball inside a ball, which no
hyperplane separates), so the ratios compare like with like on this shared,
noisy machine. Every learner uses the same Gaussian kernel
``exp(-gamma ||x - x'||^2)`` with ``gamma = 1 / (n_features * X.var())``
(scikit-learn's "scale") and runs single-threaded:

* **ours**: ``KernelPerceptron(kernel="rbf")``, ``--epochs`` passes, with the
  default 200 MiB column cache (the whole Gram matrix fits for 5,000
  examples, not for 20,000), timed for the whole ``fit``; the predictions of
  all four modes come from that one fit;
* **SVC**: ``sklearn.svm.SVC(kernel="rbf", C=1)`` with the same ``gamma`` and a
  200 MB kernel cache (libsvm's SMO to convergence);
* **VW**: ``vowpalwabbit`` with ``--ksvm --kernel rbf --bandwidth gamma``
  (its online LaSVM-style solver; its rbf kernel is
  ``exp(-bandwidth ||x - x'||^2)``), by default one pass over the examples
  fed from Python (``--vw-passes``: further passes grow its support set
  fast; 10 passes over 5,000 examples took 350 s here), if the
  ``vowpalwabbit`` wheel is installed.

Times are the least of ``--repeats`` fits (VW: one), so that the first fit's
page faults on a fresh 200 MiB cache, paid by every learner that caches
kernel values, do not decide the ratios; no compilation is timed (a small
fit warms numba's cache first). Accuracy is measured on 5,000 clean test
examples.
"""

from __future__ import annotations

import argparse
import importlib.util
import time

import numpy as np


def ringnorm(n_samples: int, noise: float, seed: int):
    """Ringnorm (class +1 ~ N(0, 4I), class -1 ~ N(a1, I), a = 1/sqrt(20)), labels flipped."""
    try:
        from perceptron_core.datasets import make_ringnorm

        X, y, *_ = make_ringnorm(n_samples, noise=noise, random_state=seed)
        return np.asarray(X, dtype=np.float64), np.asarray(y)
    except ImportError:
        rng = np.random.default_rng(seed)
        d = 20
        y = np.where(rng.random(n_samples) < 0.5, 1, -1)
        X = rng.normal(size=(n_samples, d))
        X[y == 1] *= 2.0
        X[y == -1] += 1.0 / np.sqrt(d)
        y[rng.random(n_samples) < noise] *= -1
        return X, y


def timed(func, repeats: int = 1):
    """(least wall time over ``repeats`` calls, the last result)."""
    best = np.inf
    for _ in range(repeats):
        start = time.perf_counter()
        result = func()
        best = min(best, time.perf_counter() - start)
    return best, result


def vw_ksvm(X, y, X_test, gamma, passes):
    """Train VW's kernel SVM on (X, y) for ``passes`` passes; (seconds, test predictions)."""
    from vowpalwabbit import Workspace

    def line(x, label=""):
        return f"{label} | " + " ".join(f"f{i}:{v:.9g}" for i, v in enumerate(x))

    train_lines = [line(x, int(t)) for x, t in zip(X, y)]
    test_lines = [line(x) for x in X_test]  # formatting is not timed
    vw = Workspace(f"--ksvm --kernel rbf --bandwidth {gamma} --quiet")

    def train():
        for _ in range(passes):
            for text in train_lines:
                vw.learn(text)

    seconds, _ = timed(train)
    scores = np.array([vw.predict(text) for text in test_lines])
    vw.finish()
    return seconds, np.where(scores > 0, 1, -1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[5_000, 20_000])
    parser.add_argument("--epochs", type=int, default=10)
    parser.add_argument("--noise", type=float, default=0.05)
    parser.add_argument("--test", type=int, default=5_000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--vw-passes", type=int, nargs="+", default=[1])
    args = parser.parse_args()

    from threadpoolctl import threadpool_limits

    from perceptron_core.kernel import KernelPerceptron
    from perceptron_core.linear import MODES

    vw_note = None
    if importlib.util.find_spec("vowpalwabbit") is None:
        vw_note = "vowpalwabbit is not installed (pip install vowpalwabbit): VW --ksvm skipped"

    X_test, y_test = ringnorm(args.test, 0.0, seed=999)
    KernelPerceptron(epochs=2).fit(*ringnorm(200, 0.05, seed=1))  # compile outside the timings

    rows = []
    for m in args.sizes:
        X, y = ringnorm(m, args.noise, seed=m)
        gamma = 1.0 / (X.shape[1] * X.var())
        with threadpool_limits(1):
            clf = KernelPerceptron(kernel="rbf", gamma=gamma, epochs=args.epochs, random_state=0)
            t_ours, _ = timed(lambda clf=clf, X=X, y=y: clf.fit(X, y), args.repeats)
            t_pred, predictions = timed(lambda clf=clf: clf.predict_all(X_test))
            acc = {mode: float((predictions[mode] == y_test).mean()) for mode in MODES}
            note = (
                f"{clf.n_updates_:,} updates, {len(clf.support_):,} support vectors, "
                f"{clf.n_kernel_columns_:,} kernel columns computed, Gram "
                f"{'cached' if clf.gram_cached_ else 'by columns'}; "
                f"predict_all {t_pred:.2f} s"
            )
            accuracy = (
                f"last {acc['last']:.3f} / voted {acc['voted']:.3f} / "
                f"averaged {acc['averaged']:.3f}"
            )
            rows.append((m, f"ours, {args.epochs} epochs", t_ours, accuracy, note))

            from sklearn.svm import SVC

            svc = SVC(kernel="rbf", gamma=gamma, C=1.0, cache_size=200)
            t_svc, _ = timed(lambda svc=svc, X=X, y=y: svc.fit(X, y), args.repeats)
            rows.append(
                (
                    m,
                    "scikit-learn SVC",
                    t_svc,
                    f"{svc.score(X_test, y_test):.3f}",
                    f"{len(svc.support_):,} support vectors",
                )
            )

        if vw_note is None:
            for passes in args.vw_passes:
                t_vw, pred = vw_ksvm(X, y, X_test, gamma, passes)
                rows.append(
                    (
                        m,
                        f"VW --ksvm, {passes} pass{'es' if passes > 1 else ''}",
                        t_vw,
                        f"{(pred == y_test).mean():.3f}",
                        "",
                    )
                )

    print(
        f"ringnorm, 20 features, {args.noise:.0%} label noise; test: {args.test:,} clean "
        "examples; single-threaded\n"
    )
    print(f"{'m':>7s}  {'learner':26s} {'fit s':>8s} {'x ours':>7s}  {'test accuracy':34s} note")
    ours = {m: t for m, name, t, *_ in rows if name.startswith("ours")}
    for m, name, seconds, accuracy, note in rows:
        ratio = seconds / ours[m]
        print(f"{m:7,d}  {name:26s} {seconds:8.2f} {ratio:7.2f}  {accuracy:34s} {note}")
    if vw_note:
        print("\n" + vw_note)


if __name__ == "__main__":
    main()
