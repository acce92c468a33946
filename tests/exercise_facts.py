"""The facts a lesson page hands its exercises (``exercises(N, **facts)`` at the end of each
lesson), built here the way each page builds them, at any setting of its controls: the data
through the data panel's own ``make_dataset``, the run through ``tests.pages.page_run``."""

from __future__ import annotations

import numpy as np
import pandas as pd

from perceptron_core.modes import MODES
from perceptron_lab.app_logic.datasource import DataRequest, make_dataset
from perceptron_lab.app_logic.studies_variants import noisy_clouds
from perceptron_lab.lessons._basics import noisy_line
from tests.pages import page_run

#: Each lesson's controls at the page's opening values; lesson 11's ``tau`` is its figure's
#: τ, which the page takes from its study's cross-validation (without the study, a test sets
#: it).
OPENING = {
    1: {"seed": 0, "eta": 0.5},
    2: {"seed": 0, "margin": 0.1},
    3: {"seed": 5, "noise": 0.1, "epochs": 30},
    4: {"seed": 4, "noise": 0.15},
    5: {"seed": 0, "learner": "margin", "tau": 0.5},
    6: {"seed": 0, "tau_pos": 1.0, "tau_neg": 0.0, "rate": 1 / 21},
    7: {"seed": 1, "form": "kw_lam", "strength": 1.0},
    8: {"seed": 0, "data_name": "xor", "kernel": "rbf", "gamma": 1.0, "degree": 2},
    9: {"seed": 0, "k": 3, "m": 2000, "side": "winnow"},
    10: {"seed": 0, "noise": 0.1, "H": 3},
    11: {"seed": 0, "test_share": 0.2, "k": 10, "tau": 0.5},
    12: {"seed": 0, "margin": 0.1, "noise": 0.0, "mode": "last"},
}


def facts(lesson: int, studies: bool = True, **changed) -> dict:
    """Lesson ``lesson``'s facts at its opening controls with ``changed`` put over them;
    without ``studies``, lessons 9 and 11 get their controls and their replay's run only (a
    test hands them a table of the study's shape, and lesson 11 its figure's τ)."""
    c = {**OPENING[lesson], **changed}
    seed = c["seed"]
    if lesson == 1:
        data = make_dataset(
            DataRequest("separable", (("margin", 0.15), ("n_samples", 20)), seed=seed)
        )
        return {
            **c,
            "data": data,
            "run": page_run("perceptron", {"eta": c["eta"]}, 20, seed, data),
        }
    if lesson == 2:
        request = DataRequest("separable", (("margin", c["margin"]), ("n_samples", 60)), seed=seed)
        data = make_dataset(request)
        run = page_run("perceptron", {}, 30, seed, data)
        return {**c, "request": request, "data": data, "run": run}
    if lesson in (3, 4):
        request = noisy_line(seed, c["noise"])
        data = make_dataset(request)
        if lesson == 3:
            run = page_run("perceptron", {}, c["epochs"], seed, data)
        else:
            run = page_run("kw", {"tau": 0.0, "lam": 0.0, "alpha_bound": 0}, 20, seed, data)
        return {**c, "request": request, "data": data, "run": run}
    if lesson == 5:
        request = noisy_line(seed, 0.1)
        data = make_dataset(request)
        name = "tau" if c["learner"] == "margin" else "gamma"
        value = c.get(name, 0.5 if name == "tau" else 1.0)
        run = page_run(c["learner"], {name: value}, 20, seed, data)
        return {**c, name: value, "request": request, "data": data, "run": run}
    if lesson == 6:
        request = DataRequest(
            "imbalanced",
            (("n_samples", 630), ("positive_rate", c["rate"])),
            test_fraction=0.5,
            seed=seed,
        )
        data = make_dataset(request)
        R2 = float(np.max(np.sum(data.X**2, axis=1)))
        values = {
            "tau_pos": c["tau_pos"] * R2,
            "tau_neg": c["tau_neg"] * R2,
            "eta": 1.0,
            "lam": 0.0,
        }
        return {**c, "R2": R2, "data": data, "run": page_run("paum", values, 20, seed, data)}
    if lesson == 7:
        data = make_dataset(noisy_line(seed, 0.15))
        msn = float(np.mean(np.sum(data.X**2, axis=1)))
        off = {"tau": 0.0, "lam": 0.0, "alpha_bound": 0}
        key, values = {
            "kw_lam": ("kw", {**off, "lam": c["strength"]}),
            "paum_lam": (
                "paum",
                {"tau_pos": 0.0, "tau_neg": 0.0, "eta": 1.0, "lam": c["strength"] * msn},
            ),
            "alpha": ("kw", {**off, "alpha_bound": int(c["strength"])}),
        }[c["form"]]
        run = page_run(key, values, 30, seed, data)
        return {**c, "mean_sq_norm": msn, "data": data, "run": run}
    if lesson == 8:
        request = DataRequest(c["data_name"], (("n_samples", 200),), test_fraction=0.5, seed=seed)
        data = make_dataset(request)
        values = {"kernel": c["kernel"], "gamma": c["gamma"], "degree": c["degree"]}
        run = page_run("kernel", values, 20, seed, data)
        return {**c, "values": values, "data": data, "run": run}
    if lesson == 9:
        from perceptron_lab.app_logic import lesson_studies
        from perceptron_lab.app_logic.studies_winnow import FIGURE_EPOCHS, figure_request

        data = make_dataset(figure_request(seed))
        c = {**c, "data": data, "run": page_run("balanced_winnow", {}, FIGURE_EPOCHS, seed, data)}
        if not studies:
            return c
        if c["side"] == "winnow":
            table = lesson_studies.result("l09_mistakes", {"k": c["k"], "m": c["m"], "seed": seed})
        else:
            table = lesson_studies.result("l09_perceptron_side", {"m": c["m"], "seed": seed})
        return {**c, "table": table}
    if lesson == 10:
        data = make_dataset(noisy_clouds(seed, c["noise"]))
        from perceptron_lab.app_logic.studies_variants import COMMITTEE_EPOCHS

        run = page_run("parallel", {"n_perceptrons": c["H"]}, COMMITTEE_EPOCHS, seed, data)
        return {**c, "data": data, "run": run}
    if lesson == 11:
        from perceptron_lab.app_logic import lesson_studies
        from perceptron_lab.app_logic.studies_honest import figure_request

        if studies:
            settings = {"test_share": c["test_share"], "k": c["k"], "seed": seed}
            c["estimates"] = lesson_studies.result("l11_estimates", settings)
            c["tau"] = c["estimates"]["chosen_tau"]
        data = make_dataset(figure_request(seed))
        return {**c, "data": data, "run": page_run("margin", {"tau": c["tau"]}, 100, seed, data)}

    if lesson == 12:
        request = DataRequest(
            "three_classes",
            (("margin", c["margin"]), ("n_samples", 90)),
            noise_kind="uniform" if c["noise"] else "none",
            noise_rate=c["noise"],
            seed=seed,
        )
        data = make_dataset(request)
        run = page_run("multiclass", {"predict_with": c["mode"]}, 30, seed, data)
        return {**c, "request": request, "data": data, "run": run}
    raise ValueError(f"no lesson {lesson}")


def tables(seed: int) -> dict:
    """Tables shaped as the lessons' studies are, with numbers drawn from ``seed``."""
    rng = np.random.default_rng(seed)

    def pct(*shape):
        return np.round(rng.uniform(55, 99, shape), 2)

    predictors = list(MODES)  # last, longest, voted, averaged
    l04 = pd.DataFrame(pct(4, 4), columns=predictors)
    l04.insert(0, "label noise N", [0.0, 0.05, 0.15, 0.25])
    l05 = pd.DataFrame(pct(8, 4), columns=predictors)
    l05.insert(0, "margin τ", [0.0, 0.125, 0.5, 1.0] * 2)
    l05.insert(0, "label noise N", [0.05] * 4 + [0.15] * 4)
    names = [
        "PAUM(0, 0)",
        "PAUM(0.1, 0.1)",
        "PAUM(0, 0.25)",
        "PAUM(0, 1)",
        "PAUM(-0.25, 1)",
        "PAUM(0, 2)",
        "KW perceptron (last)",
        "KW perceptron (voted)",
    ]
    l06 = pd.DataFrame(pct(8, 5), columns=["recall", "precision", "F1", "MAP", "accuracy"])
    l06.insert(0, "learner", names)
    l07 = pd.DataFrame(pct(2, 4), columns=["nothing", "best λ", "best α", "best τ"])
    l07.insert(0, "label noise N", ["5%", "15%"])
    l08 = pd.DataFrame(pct(5, 3), columns=["last", "voted", "averaged"])
    l08.insert(0, "degree d", [1, 2, 3, 4, 5])
    l10 = pd.DataFrame(pct(4, 4), columns=["PP", "PP bagging", "PP boosting", "NR boosting"])
    l10.insert(0, "label noise", ["0%", "10%", "20%", "30%"])
    eps = rng.uniform(0.05, 0.45, 20)
    rounds = pd.DataFrame(
        {
            "booster": ["AdaBoost"] * 10 + ["NR boosting"] * 10,
            "round t": list(range(1, 11)) * 2,
            "ε_t": eps,
            "kept": [False] + [True] * 19,  # round 1 dropped: round 2 is the first kept
            "α_t": 0.5 * np.log((1 - eps) / eps),
        }
    )
    ns = [16, 32, 64, 128, 256, 512, 1024]
    l09 = pd.DataFrame(
        {"n features": ns, "Winnow mistakes": pct(7), "Perceptron mistakes": pct(7) * 3}
    )
    estimates = {
        "cv_folds": rng.uniform(0.6, 0.9, 10),
        "double_folds": rng.uniform(0.6, 0.9, 10),
        "single_best": rng.uniform(0.6, 0.9, 40),
        "search_best": float(rng.uniform(0.7, 0.9)),
        "fresh_chosen": float(rng.uniform(0.7, 0.9)),
    }
    return {
        "l04_predictors": l04, "l05_margins": l05, "l06_paum": l06, "l07_switches": l07,
        "l08_digits": l08, "l10_nr": l10, "l10_boosting": rounds, "table": l09,
        "estimates": estimates,
    }  # fmt: skip


def right_response(q):
    """A response the question counts right (for the replay: its record, every question of
    the figure answered right)."""
    if q.form == "number":
        return f"{q.answer:.10g}"
    if q.form == "choice":
        return min(q.answer)
    if q.form == "order":
        return list(q.answer)
    if q.form == "replay":
        return [
            {"step": a.step, "kind": a.kind, "answer": a.answer, "skipped": False}
            for a in q.answer
        ]
    return sorted(q.answer, key=str)[0]
