"""The facts a lesson page hands its exercises (``exercises(N, **facts)`` at the end of each
lesson), built here the way each page builds them, at any setting of its controls: the data
through the data panel's own ``make_dataset``, the run through ``tests.pages.page_run``."""

from __future__ import annotations

import numpy as np

from perceptron_lab.app_logic.datasource import DataRequest, make_dataset
from perceptron_lab.app_logic.studies_variants import noisy_clouds
from perceptron_lab.lessons._basics import noisy_line
from tests.pages import page_run

#: Each lesson's controls at the page's opening values.
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
    11: {"seed": 0, "test_share": 0.2, "k": 10},
}


def facts(lesson: int, studies: bool = True, **changed) -> dict:
    """Lesson ``lesson``'s facts at its opening controls with ``changed`` put over them;
    without ``studies``, lessons 9 and 11 get their controls only (a test hands them a table
    of the study's shape)."""
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
    if lesson in (9, 11) and not studies:
        return c
    if lesson == 9:
        from perceptron_lab.app_logic import lesson_studies

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

        settings = {"test_share": c["test_share"], "k": c["k"], "seed": seed}
        return {**c, "estimates": lesson_studies.result("l11_estimates", settings)}
    raise ValueError(f"no lesson {lesson}")
