"""The lessons' exercises (app_logic/exercises), without a page: the catalogue a teacher lists,
each exercise's right answer against a computation of its own (not the exercise's function:
the NumPy reference of tests/reference.py, the core's estimators fitted directly, the
formula worked out here, or for the predictions on a lesson's figure its rule written out in
tests/replay_reference.py) at three settings of its page's controls, every feedback
reachable, and the link's choice of exercises.

Table exercises read the lab's studies on the page; here they read tables of the same shape
with other numbers (:func:`tables`), so each exercise is checked on three tables without the
seconds a study takes (the slow walk in tests/lessons/test_every_lesson.py asks them on the
real studies).
"""

from __future__ import annotations

import functools
import json
import math
import re

import numpy as np
import pytest

from perceptron_core import (
    KernelPerceptron,
    KWPerceptron,
    MarginPerceptron,
    ParallelPerceptron,
    PAUMPerceptron,
    Perceptron,
    ThickSeparatorPerceptron,
)
from perceptron_lab.app_logic.datasource import DataRequest, make_dataset
from perceptron_lab.app_logic.exercises import (
    BY_ID,
    EXERCISES,
    KINDS,
    chosen,
    for_lesson,
    is_multiple_choice,
)
from perceptron_lab.app_logic.exercises.model import check, parse_number, reachable
from perceptron_lab.lessons._basics import noisy_line
from tests.exercise_facts import facts, right_response, tables
from tests.pages import LESSON_DIR
from tests.replay_reference import expected, written_out

LESSONS = sorted(int(p.name[:2]) for p in LESSON_DIR.glob("[0-9]*.py"))


# ------------------------------------------------------------------------- the catalogue


def test_every_lesson_has_five_to_eight_exercises_of_three_kinds_or_more():
    for lesson in LESSONS:
        own = for_lesson(lesson)
        assert 5 <= len(own) <= 8, (lesson, len(own))
        assert len({e.kind for e in own}) >= 3, (lesson, [e.kind for e in own])


def test_at_least_40_percent_are_not_multiple_choice():
    share = sum(not is_multiple_choice(e) for e in EXERCISES) / len(EXERCISES)
    assert share >= 0.4, share


def test_ids_are_unique_and_name_their_lesson():
    assert len(BY_ID) == len(EXERCISES)
    for e in EXERCISES:
        assert e.id.startswith(f"l{e.lesson:02d}-") and e.kind in KINDS


def test_the_command_lists_every_exercise_as_json_and_as_text(capsys):
    from perceptron_lab.cli import main

    assert main(["exercises", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [row["id"] for row in rows] == [e.id for e in EXERCISES]
    assert all({"id", "lesson", "kind", "prompt"} <= set(row) for row in rows)
    for lesson in LESSONS:
        assert sum(row["lesson"] == lesson for row in rows) >= 5
    assert main(["exercises", "--lesson", "2"]) == 0
    text = capsys.readouterr().out
    assert f"Lesson 2 ({len(for_lesson(2))} exercises)" in text and "l02-proof-order" in text
    assert "l01-" not in text.split("Kinds:")[0]
    assert "?exercises=l02-" in text


def test_the_command_refuses_a_lesson_without_exercises(capsys):
    from perceptron_lab.cli import main

    assert main(["exercises", "--lesson", "99"]) != 0
    err = capsys.readouterr().err
    assert "lesson 99 has no exercises" in err and "1, 2, 3" in err


def test_a_link_chooses_exercises_and_a_wrong_id_is_refused_by_name():
    ids = [e.id for e in for_lesson(3)]
    assert [e.id for e in chosen(3, f"{ids[2]},{ids[0]}")] == [ids[0], ids[2]]
    assert chosen(3, "") == for_lesson(3) and chosen(3, None) == for_lesson(3)
    with pytest.raises(ValueError) as err:
        chosen(3, f"{ids[0]},l01-score-change,nonsense")
    message = str(err.value)
    assert "'l01-score-change', 'nonsense'" in message and "lesson 3 does not have" in message
    assert all(i in message for i in ids)


@pytest.mark.parametrize(
    "typed, value",
    [
        ("3", 3.0),
        ("-0.5", -0.5),
        ("−0.5", -0.5),
        ("1,234.5", 1234.5),
        ("0,25", 0.25),
        (" 12 % ", 12.0),
        ("2,000", 2000.0),
        ("1e-3", 0.001),
    ],
)
def test_numbers_are_read_as_people_type_them(typed, value):
    assert parse_number(typed) == pytest.approx(value)


@pytest.mark.parametrize("typed", ["", "abc", "1/2", "nan", "inf", "1.2.3"])
def test_what_is_not_a_number_is_refused_with_what_is_accepted(typed):
    with pytest.raises(ValueError, match="is not a number: type digits"):
        parse_number(typed)


# ------------------------------------------------------------ the independent computations


def reference_kw(X, y, eta=0.1, epochs=10, order=None):
    """The perceptron of lesson 1 written out (θ_init = C = mean ‖x‖², w = 0): every
    hypothesis, its votes (correct predictions while it stood), the rows updated on and
    whether each visit updated. tests/reference.py has every switch and checks its numbers
    against their rounding; this one, without switches, is quick enough for every setting."""
    C = float(np.mean((X**2).sum(axis=1)))
    w, theta = np.zeros(X.shape[1]), C
    W, thetas, votes, updated, updates = [w], [theta], [0], [], []
    for _ in range(epochs):
        for j in order:
            if y[j] * (X[j] @ w - theta) <= 0:
                w, theta = w + eta * y[j] * X[j], theta - eta * y[j] * C
                W.append(w)
                thetas.append(theta)
                votes.append(0)
                updated.append(j)
            else:
                votes[-1] += 1
            updates.append(len(updated))
    return {
        "W": np.array(W),
        "theta": np.array(thetas),
        "votes": np.array(votes),
        "updated": np.array(updated, dtype=int),
        "updates so far": np.array(updates),
    }


def number_in(text: str, before: str) -> float:
    """The number written after ``before`` in a prompt."""
    match = re.search(re.escape(before) + r"\s*([−+-]?[\d,]*\.?\d+)", text)
    assert match, (before, text)
    return float(match.group(1).replace("−", "-").replace(",", ""))


def point_in(text: str, name: str = "x") -> np.ndarray:
    match = re.search(rf"{name} = \(([−-]?[\d.]+), ([−-]?[\d.]+)\)", text)
    assert match, text
    return np.array([float(g.replace("−", "-")) for g in match.groups()])


def order_of(f) -> np.ndarray:
    return f["run"].estimator._order


def folded(X, y, w_star, theta_star):
    C = float(np.mean((X**2).sum(axis=1)))
    Z = np.c_[X, np.full(len(X), -np.sqrt(C))]
    u = np.r_[w_star, theta_star / np.sqrt(C)]
    return Z, u / np.linalg.norm(u)


def l01_update(f, v):
    data = f["data"]
    ref = reference_kw(data.X, data.y, eta=f["eta"], epochs=20, order=order_of(f))
    k = v % len(ref["updated"])
    return ref, k, data.X[ref["updated"][k]]


def l01_score_change(f, q, v):
    _, _, x = l01_update(f, v)
    return f["eta"] * (x @ x + np.mean((f["data"].X ** 2).sum(axis=1)))


def l01_theta_after(f, q, v):
    ref, k, _ = l01_update(f, v)
    return ref["theta"][k + 1]


def l01_fewest(f, q, v):
    counts = {
        e: len(
            reference_kw(f["data"].X, f["data"].y, eta=e, epochs=20, order=order_of(f))["updated"]
        )
        for e in (0.05, 0.1, 0.2, 0.5, 1.0, 2.0)
    }
    return {e for e, c in counts.items() if c == min(counts.values())}


def l02_r_gamma(f):
    d = f["data"]
    Z, u = folded(d.X, d.y, d.w_star, d.theta_star)
    return np.linalg.norm(Z, axis=1).max(), np.min(d.y * (Z @ u))


def l02_halved(f, q, v):
    R, gamma = l02_r_gamma(f)
    k = number_in(q.text, "a margin")
    return (k * R / gamma) ** 2


def l02_scaled(f, q, v):
    R, gamma = l02_r_gamma(f)
    return (R / gamma) ** 2


def l02_most(f, q, v):
    counts = {}
    for gap in (0.01, 0.02, 0.05, 0.1, 0.2, 0.3, 0.4):
        d = make_dataset(
            DataRequest("separable", (("margin", gap), ("n_samples", 60)), seed=f["seed"])
        )
        est = Perceptron(epochs=30, random_state=f["seed"]).fit(d.X, d.y)
        counts[gap] = len(reference_kw(d.X, d.y, epochs=30, order=est._order)["updated"])
    return {g for g, c in counts.items() if c == max(counts.values())}


def l03_bound(f, q, v):
    d = f["data"]
    Z, u = folded(d.X, d.y, d.w_star, d.theta_star)
    R = np.linalg.norm(Z, axis=1).max()
    gamma = (0.1, 0.2, 0.05, 0.3)[v % 4] * R
    D = math.sqrt(np.sum(np.maximum(0, gamma - d.y * (Z @ u)) ** 2))
    return ((R + D) / gamma) ** 2


def l03_passes(f, q, v):
    d = f["data"]
    Z, u = folded(d.X, d.y, d.w_star, d.theta_star)
    gamma = 0.1 * np.linalg.norm(Z, axis=1).max()
    return math.sqrt(f["epochs"] * np.sum(np.maximum(0, gamma - d.y * (Z @ u)) ** 2))


def l03_stop(f, q, v):
    d = f["data"]
    ref = reference_kw(d.X, d.y, epochs=60, order=order_of(f))
    m = len(d.y)
    accuracy = {}
    for e in range(5, 61):
        k = int(ref["updates so far"][e * m - 1])
        w, theta = ref["W"][k], ref["theta"][k]
        accuracy[e] = np.mean(np.where(d.X_test @ w - theta > 0, 1, -1) == d.y_test)
    return {e for e, a in accuracy.items() if a == max(accuracy.values())}


def l04_averaged(f, q, v):
    d, tl = f["data"], f["run"].timeline
    ref = reference_kw(d.X, d.y, epochs=tl.n_events // len(d.y), order=order_of(f))
    votes = ref["votes"][1:]
    rows = np.argsort(-votes, kind="stable")[:3] + 1
    x = d.X_test[v % len(d.X_test)]
    scores = ref["W"][rows] @ x - ref["theta"][rows]
    return ref["votes"][rows] @ scores / ref["votes"][rows].sum()


def l04_table(f, q, v):
    t = f["l04_predictors"]
    row = t[t["label noise N"] > 0].iloc[v % 3]
    return round(row["averaged"], 1) - round(row["last"], 1)


def l04_noise(f, q, v):
    gaps = {}
    for rate in (0.0, 0.05, 0.1, 0.15, 0.2, 0.3):
        d = make_dataset(noisy_line(f["seed"], rate))
        est = KWPerceptron(epochs=20, random_state=f["seed"], record="updates").fit(d.X, d.y)
        predicted = est.predict_all(d.X_test)
        gaps[rate] = np.mean(predicted["averaged"] == d.y_test) - np.mean(
            predicted["last"] == d.y_test
        )
    return {r for r, g in gaps.items() if abs(g - max(gaps.values())) < 1e-9}


def l05_estimator(f, **changed):
    values = {"tau": f.get("tau"), "gamma": f.get("gamma"), **changed}
    if f["learner"] == "margin":
        est = MarginPerceptron(tau=values["tau"], epochs=20, random_state=f["seed"])
    else:
        est = ThickSeparatorPerceptron(gamma=values["gamma"], epochs=20, random_state=f["seed"])
    return est.fit(f["data"].X, f["data"].y)


def l05_band(f, q, v):
    if v:  # variant 1 asks about the update before the last: the fitted w is the last one
        return None
    est = l05_estimator(f)
    theta_init = np.mean((f["data"].X ** 2).sum(axis=1))
    if f["learner"] == "margin":
        half = (f["tau"] or 0.5) * theta_init
    else:
        half = f["gamma"] or 1.0
    return half / np.linalg.norm(est.coef_)


def l05_hinge(f, q, v):
    est = l05_estimator(f)
    j = int(number_in(q.text, "example number")) - 1
    x, y = f["data"].X[j], f["data"].y[j]
    theta_init = np.mean((f["data"].X ** 2).sum(axis=1))
    margin = f["tau"] * theta_init if f["learner"] == "margin" else f["gamma"]
    return max(0.0, margin - y * est.decision_function(x[None])[0])


def l05_table(f, q, v):
    t = f["l05_margins"]
    rows = t[t["label noise N"] == (0.05, 0.15)[v % 2]]
    accuracy = rows["last"].round(1)
    return {f"τ = {tau:g}" for tau in rows.loc[accuracy == accuracy.max(), "margin τ"]}


def l05_setting(f, q, v):
    name, values = (
        ("tau", (0.0, 0.125, 0.25, 0.5, 1.0, 2.0))
        if f["learner"] == "margin"
        else ("gamma", (0.0, 0.25, 0.5, 1.0, 2.0, 4.0))
    )
    d = f["data"]
    accuracy = {x: l05_estimator(f, **{name: x}).score(d.X_test, d.y_test) for x in values}
    return {x for x, a in accuracy.items() if abs(a - max(accuracy.values())) < 1e-9}


def l06_estimator(f, tau_pos=None):
    R2 = np.max((f["data"].X ** 2).sum(axis=1))
    est = PAUMPerceptron(
        tau_pos=(f["tau_pos"] if tau_pos is None else tau_pos) * R2,
        tau_neg=f["tau_neg"] * R2,
        eta=1.0,
        max_epochs=20,
        random_state=f["seed"],
    )
    return est.fit(f["data"].X, f["data"].y)


def l06_pr(f, q, v):
    labels = l06_estimator(f).predict(f["data"].X_test)
    y = f["data"].y_test
    hits = np.sum((labels > 0) & (y > 0))
    return 100 * hits / np.sum(y > 0) if v % 2 == 0 else 100 * hits / np.sum(labels > 0)


def l06_rise(f, q, v):
    x = point_in(q.text)
    return x @ x + np.max((f["data"].X ** 2).sum(axis=1))


def l06_table(f, q, v):
    t = f["l06_paum"].set_index("learner")["recall"].round(1)
    return t.iloc[1 + v % 5] - t.iloc[0]


def l06_setting(f, q, v):
    y = f["data"].y_test
    recall = {}
    for tau in (0.0, 0.1, 0.25, 0.5, 1.0, 2.0):
        labels = l06_estimator(f, tau).predict(f["data"].X_test)
        recall[tau] = np.sum((labels > 0) & (y > 0)) / np.sum(y > 0)
    return {t for t, r in recall.items() if abs(r - max(recall.values())) < 1e-9}


def l07_push(f, q, v):
    a = number_in(q.text, "caused a_j =")
    y = number_in(q.text, "with label y =")
    lam = f["strength"] if f["form"] == "paum_lam" and f["strength"] else 1.0
    return lam * np.mean((f["data"].X ** 2).sum(axis=1)) * a * y


def l07_alpha(f, q, v):
    return number_in(q.text, "α-bound at α =") * len(f["data"].y)


def l07_table(f, q, v):
    t = f["l07_switches"].iloc[v % 2]
    return max(round(t[c], 1) for c in ("best λ", "best α", "best τ")) - round(t["nothing"], 1)


def l07_setting(f, q, v):
    d = f["data"]
    msn = np.mean((d.X**2).sum(axis=1))
    values = (
        (0, 1, 2, 3, 5, 10, 20) if f["form"] == "alpha" else (0.0, 0.125, 0.25, 0.5, 1.0, 2.0, 4.0)
    )
    accuracy = {}
    for s in values:
        if f["form"] == "alpha":
            est = KWPerceptron(alpha_bound=int(s) or None, epochs=30, random_state=f["seed"])
        elif f["form"] == "kw_lam":
            est = KWPerceptron(lam=s, epochs=30, random_state=f["seed"])
        else:
            est = PAUMPerceptron(
                tau_pos=0.0,
                tau_neg=0.0,
                eta=1.0,
                lam=s * msn,
                max_epochs=30,
                random_state=f["seed"],
            )
        accuracy[s] = est.fit(d.X, d.y).score(d.X_test, d.y_test)
    return {s for s, a in accuracy.items() if abs(a - max(accuracy.values())) < 1e-9}


def l08_poly(f, q, v):
    from sklearn.metrics.pairwise import polynomial_kernel

    X = f["data"].X
    a, b = (X[np.argmin(np.abs(X - point_in(q.text, p)).sum(axis=1))] for p in ("x", "x'"))
    d = f["degree"] if f["kernel"] == "poly" else 2
    return polynomial_kernel(a[None], b[None], degree=d, gamma=1.0, coef0=1.0)[0, 0]


def l08_table(f, q, v):
    t = f["l08_digits"]
    column = ("averaged", "voted", "last")[v % 3]
    shown = t[column].round(1)
    return {f"d = {d}" for d in t.loc[shown == shown.max(), "degree d"]}


def l08_setting(f, q, v):
    d = f["data"]
    accuracy = {
        k: KernelPerceptron(
            kernel=k, gamma=f["gamma"], degree=f["degree"], epochs=20, random_state=f["seed"]
        )
        .fit(d.X, d.y)
        .score(d.X_test, d.y_test)
        for k in ("rbf", "poly", "linear")
    }
    return {k for k, a in accuracy.items() if abs(a - max(accuracy.values())) < 1e-9}


def l09_growth(f, q, v):
    k = number_in(q.text, "With k =")
    n1, n2 = number_in(q.text, "goes from"), number_in(q.text, "to")
    return 3 * k * math.log2(n2 / n1)


def l09_numerator(f, q, v):
    n, k = number_in(q.text, "for n ="), number_in(q.text, "features and k =")
    return 2 * math.log(n + 1) * (k + 0.5) ** 2


def l09_table(f, q, v):
    t = f["table"].iloc[::-1].iloc[v % 7]
    return round(t["Perceptron mistakes"], 1) - round(t["Winnow mistakes"], 1)


def l10_reweight(f, q, v):
    rounds = f["l10_boosting"]
    alpha = rounds.loc[(rounds["booster"] == "AdaBoost") & rounds["kept"], "α_t"].iloc[0]
    return [math.exp(-alpha), math.exp(alpha), math.exp(alpha), 1.0][v % 4]


def l10_flags(f, q, v):
    d = f["data"]
    from perceptron_lab.app_logic.studies_variants import COMMITTEE_EPOCHS

    est = ParallelPerceptron(n_perceptrons=f["H"], epochs=COMMITTEE_EPOCHS, random_state=f["seed"])
    flagged = est.fit(d.X, d.y).categorize(d.X, d.y) == "noisy"
    flipped = np.asarray(d.flipped, dtype=bool)
    hit = (flagged & flipped).sum()
    if flagged.sum() and (v % 2 == 0 or not flipped.sum()):
        return 100 * hit / flagged.sum()
    return 100 * hit / flipped.sum() if flipped.sum() else 0.0


def l10_table(f, q, v):
    t = f["l10_nr"].iloc[1:].iloc[::-1].iloc[v % 3]
    return round(t["NR boosting"], 1) - round(t["PP boosting"], 1)


def l10_setting(f, q, v):
    d = f["data"]
    from perceptron_lab.app_logic.studies_variants import COMMITTEE_EPOCHS

    flipped = np.asarray(d.flipped, dtype=bool)
    precision = {}
    for H in (1, 3, 5, 7):
        est = ParallelPerceptron(n_perceptrons=H, epochs=COMMITTEE_EPOCHS, random_state=f["seed"])
        flagged = est.fit(d.X, d.y).categorize(d.X, d.y) == "noisy"
        precision[H] = (flagged & flipped).sum() / flagged.sum() if flagged.any() else 0.0
    return {h for h, p in precision.items() if abs(p - max(precision.values())) < 1e-9}


def l11_half(f, q, v):
    from scipy import stats

    folds = np.asarray(f["estimates"][("cv_folds", "double_folds")[v % 2]])
    k = len(folds)
    return (
        100
        * stats.t.ppf(0.975, k - 1)
        * math.sqrt(np.sum((folds - folds.mean()) ** 2) / (k * (k - 1)))
    )


def l11_count(f, q, v):
    inner = (f["k"], 5, 3)[v % 3]
    grid = (0.0, 0.125, 0.25, 0.5, 1.0, 2.0)  # the lesson's τ grid
    return f["k"] * (inner * len(grid) + 1)


def l11_closest(f, q, v):
    e = f["estimates"]
    values = {
        "the parameter search's best (red ×)": e["search_best"],
        "the mean of double cross-validation": np.mean(e["double_folds"]),
        "the mean of single splits with the best τ on their own test part": np.mean(
            e["single_best"]
        ),
        "the mean of cross-validation with τ = 0.5": np.mean(e["cv_folds"]),
    }
    gaps = {name: abs(value - e["fresh_chosen"]) for name, value in values.items()}
    return {name for name, g in gaps.items() if g == min(gaps.values())}


def replay_answers(f, q, v):
    """The answers of the figure's questions, from its rule written out
    (tests/replay_reference.py)."""
    visits = written_out(f["run"], f["data"])
    return [expected(f["run"], f["data"], asked, visits) for asked in q.answer]


def l12_gap_growth(f, q, v):
    """s_c − s_r on the update's own example, after it less before it, from the trace's
    hypotheses (each class's w and b summed from the update sequence)."""
    trace = f["run"].estimator.trace_
    i = v % len(trace.rows)
    W, b = trace.hypotheses()
    x = f["data"].X[trace.rows[i]]
    c, r = trace.true[i], trace.rival_of_update[i]

    def gap(k):  # s_c − s_r of hypothesis k on x
        return (W[k, c] - W[k, r]) @ x + b[k, c] - b[k, r]

    return gap(i + 1) - gap(i)


def l12_kesler_count(f, q, v):
    from perceptron_core.multiclass import kesler_vectors

    d = f["data"]
    return len(kesler_vectors(d.X, d.class_labels()[0], len(d.all_classes)))


def l12_most(f, q, v):
    from perceptron_core import MulticlassPerceptron

    counts = {}
    for gap in (0.01, 0.02, 0.05, 0.1, 0.2, 0.3):
        noise = {"noise_kind": "uniform", "noise_rate": f["noise"]} if f["noise"] else {}
        options = (("margin", gap), ("n_samples", 90))
        d = make_dataset(DataRequest("three_classes", options, seed=f["seed"], **noise))
        est = MulticlassPerceptron(epochs=30, random_state=f["seed"])
        counts[gap] = est.fit(d.X, d.class_labels()[0]).n_updates_
    return {g for g, c in counts.items() if c == max(counts.values())}


#: Exercise id -> its right answer computed here: a number, or a set (the setting's values,
#: or the starts of the right options' texts), or the replay's answers in its steps' order.
INDEPENDENT = {
    **{f"l{n:02d}-predict": replay_answers for n in range(1, 13)},
    "l01-score-change": l01_score_change,
    "l01-theta-after": l01_theta_after,
    "l01-fewest-updates": l01_fewest,
    "l02-halved-margin": l02_halved,
    "l02-scaled-data": l02_scaled,
    "l02-most-updates": l02_most,
    "l03-noisy-bound": l03_bound,
    "l03-passes-d": l03_passes,
    "l03-best-stop": l03_stop,
    "l04-averaged-score": l04_averaged,
    "l04-table-gap": l04_table,
    "l04-noise-setting": l04_noise,
    "l05-band-distance": l05_band,
    "l05-hinge": l05_hinge,
    "l05-best-margin": l05_table,
    "l05-best-setting": l05_setting,
    "l06-precision-recall": l06_pr,
    "l06-score-rise": l06_rise,
    "l06-recall-gain": l06_table,
    "l06-recall-setting": l06_setting,
    "l07-kernel-push": l07_push,
    "l07-alpha-total": l07_alpha,
    "l07-switch-gain": l07_table,
    "l07-best-strength": l07_setting,
    "l08-poly-value": l08_poly,
    "l08-best-degree": l08_table,
    "l08-best-kernel": l08_setting,
    "l09-bound-growth": l09_growth,
    "l09-winnow-numerator": l09_numerator,
    "l09-table-gap": l09_table,
    "l10-reweight": l10_reweight,
    "l10-flag-numbers": l10_flags,
    "l10-table-gain": l10_table,
    "l10-size-setting": l10_setting,
    "l11-half-width": l11_half,
    "l11-double-count": l11_count,
    "l11-closest": l11_closest,
    "l12-gap-growth": l12_gap_growth,
    "l12-kesler-count": l12_kesler_count,
    "l12-most-updates": l12_most,
}

#: Per lesson: three settings of its page's controls (each over the opening ones).
SETTINGS = {
    1: [{}, {"eta": 0.05, "seed": 3}, {"eta": 2.0, "seed": 11}],
    2: [{}, {"margin": 0.01, "seed": 2}, {"margin": 0.4, "seed": 7}],
    3: [{}, {"noise": 0.0, "epochs": 12}, {"noise": 0.3, "epochs": 45, "seed": 1}],
    4: [{}, {"noise": 0.05, "seed": 2}, {"noise": 0.3, "seed": 9}],
    5: [{}, {"tau": 0.0, "seed": 3}, {"learner": "thick", "gamma": 2.0, "seed": 1}],
    6: [{}, {"tau_pos": 0.0, "tau_neg": -0.5, "seed": 2}, {"tau_pos": 2.0, "rate": 1 / 41}],
    7: [{}, {"form": "paum_lam", "strength": 2.0, "seed": 4}, {"form": "alpha", "strength": 3}],
    8: [
        {},
        {"kernel": "poly", "degree": 3, "seed": 2},
        {"data_name": "circles", "kernel": "linear"},
    ],
    9: [{}, {"k": 1, "seed": 2}, {"k": 8, "side": "perceptron"}],
    10: [{}, {"noise": 0.0, "H": 1, "seed": 2}, {"noise": 0.3, "H": 5}],
    11: [{}, {"k": 5, "seed": 1, "tau": 0.125}, {"k": 20, "test_share": 0.5, "tau": 2.0}],
    12: [{}, {"margin": 0.01, "seed": 2}, {"noise": 0.1, "mode": "averaged", "seed": 5}],
}


@functools.cache
def facts_at(lesson: int, number: int) -> dict:
    """A lesson's facts at its setting ``number``, with study tables of that number (made
    once per test process: the exercises read them and change nothing)."""
    return {**facts(lesson, studies=False, **SETTINGS[lesson][number]), **tables(number)}


CASES = [(e.id, n) for e in EXERCISES for n in range(3)]


@pytest.mark.parametrize("exercise_id, number", CASES, ids=[f"{i}-{n}" for i, n in CASES])
def test_the_right_answer_is_the_independent_one_and_every_feedback_is_reached(
    exercise_id, number
):
    exercise = BY_ID[exercise_id]
    f = facts_at(exercise.lesson, number)
    first = None
    for variant in (0, 1):
        q = exercise.question(f, variant) if variant or first is None else first
        first = first or q
        assert check(q, right_response(q)).right, (exercise_id, number, variant)
        for key, response in reachable(q).items():
            verdict = check(q, response)
            assert not verdict.right and verdict.text.startswith("Not yet.")
            if q.form == "replay":  # its verdict names every misconception its answers show
                assert q.misconceptions[key].text() in verdict.text
            else:
                assert verdict.misconception == key and " See " in verdict.text
        if q.form == "replay":  # the same figure at every attempt
            assert q.answer == first.answer
            if variant:
                continue
        if q.form == "setting" and variant:  # the same setting to find at every attempt
            assert q.answer == first.answer
            continue
        expected = INDEPENDENT[exercise_id](f, q, variant) if exercise_id in INDEPENDENT else None
        if expected is not None:
            if q.form == "replay":
                assert len(q.answer) == 6 and len({a.step for a in q.answer}) == 6
                for asked, answer in zip(q.answer, expected, strict=True):
                    if asked.kind == "where":
                        np.testing.assert_allclose(asked.answer, answer, rtol=1e-9, atol=1e-12)
                    else:
                        assert asked.answer == answer, (exercise_id, asked)
            elif q.form == "number":
                assert q.tolerance <= max(abs(expected) * 0.05, 0.5), (exercise_id, q.tolerance)
                assert abs(q.answer - expected) <= q.tolerance / 4, (q.answer, expected)
            elif q.form == "setting":
                assert set(q.answer) == expected, (q.answer, expected)
            else:  # a choice whose right options the lab computed: their texts
                assert {q.options[i].split(":")[0] for i in q.answer} == expected
        elif exercise_id in INDEPENDENT:  # checked at its other variant
            continue
        elif q.form == "order":  # the steps, shown shuffled, in the lesson's order
            assert sorted(q.answer) == list(range(len(q.options)))
            assert [q.options[i] for i in q.answer] != list(q.options)
        else:  # an explain-why choice: one right reason, every other option a misconception
            assert q.form == "choice" and len(q.answer) == 1
            assert len(q.misconceptions) == len(q.options) - 1 >= 2


def test_a_retry_asks_another_variant_where_the_kind_allows():
    f = facts_at(1, 0)
    for exercise in for_lesson(1):
        first, second = exercise.question(f, 0), exercise.question(f, 1)
        if exercise.kind in ("number", "choice", "order"):
            assert (first.text, first.options) != (second.text, second.options), exercise.id
        assert exercise.question(f, 0) == first  # the same page and attempt: the same question
