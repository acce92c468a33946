// "Points at this step": the training points' numbers at the step as a real
// table (caption, column and row headers), the numbers a point's tooltip shows
// on hover: x, the label, the score of the predictor the figure draws, which
// side the point is on, whether noise flipped its label, and the updates it
// caused so far. A large set is shown PAGE_ROWS points at a time; a button
// goes to the current example's page. Built only while open.

import { numbersTable } from "./chartwords.js";
import { el, fill } from "./dom.js";
import { count, cut, minusNum, signed } from "./format.js";

export const PAGE_ROWS = 50;

export class PointsTable {
  constructor(figure) {
    this.figure = figure;
    this.first = 0;
    this.t = 0;
    this.holder = el("div", { class: "table-scroll" });
    const button = (label, onclick) => el("button", { type: "button", class: "btn", onclick }, label);
    this.prev = button(`Previous ${PAGE_ROWS}`, () => this._go(this.first - PAGE_ROWS));
    this.next = button(`Next ${PAGE_ROWS}`, () => this._go(this.first + PAGE_ROWS));
    this.current = button("Page of the current example", () => {
      const i = figure.lane.event(this.t);
      if (i !== null) this._go(Math.floor(figure.lane.index[i] / PAGE_ROWS) * PAGE_ROWS);
    });
    const n = figure.y.length;
    this.pager =
      n > PAGE_ROWS
        ? el(
            "div",
            { class: "pager" },
            this.prev,
            this.next,
            this.current,
            el("p", { class: "caption" }, `${PAGE_ROWS} of the ${count(n)} points at a time.`),
          )
        : null;
    this.node = el("div", { class: "points-panel", hidden: true }, this.holder, this.pager);
  }

  _go(first) {
    this.first = Math.max(0, Math.min(first, Math.floor((this.figure.y.length - 1) / PAGE_ROWS) * PAGE_ROWS));
    this.show(this.t);
  }

  /** The score column's name: the predictor the figure draws. */
  _scoreName() {
    const { lane, contour, mode } = this.figure;
    if (lane.classes) return `class given (${mode})`;
    if (lane.M > 1) return "members' vote";
    if (contour) return "score f(x)";
    if (mode === "voted") return "vote";
    return lane.meta.has_modes ? `score ⟨w,x⟩ − θ (${mode})` : "score ⟨w,x⟩ − θ";
  }

  show(t) {
    this.t = t;
    if (this.figure.classes) {
      this._showClasses(t);
      return;
    }
    const { lane, scene, X, y, contour, mode } = this.figure;
    const n = y.length,
      last = Math.min(n, this.first + PAGE_ROWS);
    const scores = this.figure.ownField.scores(t, contour ? "last" : mode);
    const counts = lane.M === 1 ? lane.counts(t) : null;
    const flipped = scene.arrays.flipped;
    const i = lane.event(t),
      now = i === null ? -1 : lane.index[i];
    const rows = [];
    for (let j = this.first; j < last; j++) {
      const right = (scores[j] > 0 ? 1 : -1) === y[j];
      rows.push([
        j === now ? `#${j + 1} (current)` : `#${j + 1}`,
        minusNum(X[2 * j], 3),
        minusNum(X[2 * j + 1], 3),
        signed(y[j]),
        minusNum(scores[j], 3),
        right ? "right" : "wrong",
        flipped[j] ? "yes" : "no",
        ...(counts ? [String(counts[j])] : []),
      ]);
    }
    const names = scene.feature_names.map((name) => cut(name));
    const headers = [
      "point",
      ...names,
      "label",
      this._scoreName(),
      "side",
      "label flipped",
      ...(counts ? ["updates caused"] : []),
    ];
    const range = n > PAGE_ROWS ? `, points ${count(this.first + 1)}–${count(last)} of ${count(n)}` : "";
    const current = now >= 0 ? `; the current example is #${now + 1}` : "";
    const caption = `Training points at step ${count(t)}${range}${current}`;
    this._fill(caption, headers, rows, now, last, n);
  }

  _fill(caption, headers, rows, now, last, n) {
    fill(this.holder, numbersTable(caption, headers, rows, { current: now - this.first }));
    this.prev.disabled = this.first === 0;
    this.next.disabled = last >= n;
    this.current.disabled = now < 0;
  }

  /** Several classes: each point's class, every class's score, the class it is given. */
  _showClasses(t) {
    const { lane, scene, X, mode } = this.figure;
    const K = lane.M,
      truth = scene.arrays.classes,
      n = truth.length,
      last = Math.min(n, this.first + PAGE_ROWS);
    const field = this.figure.ownField;
    const given = Float64Array.from(field.scores(t, mode));
    const scores = field.classScores(t, mode);
    const counts = lane.counts(t);
    const i = lane.event(t),
      now = i === null ? -1 : lane.index[i];
    const name = (c) => cut(String(scene.class_list[c]));
    const rows = [];
    for (let j = this.first; j < last; j++) {
      rows.push([
        j === now ? `#${j + 1} (current)` : `#${j + 1}`,
        minusNum(X[2 * j], 3),
        minusNum(X[2 * j + 1], 3),
        name(truth[j]),
        ...Array.from({ length: K }, (_, c) => minusNum(scores[j * K + c], 3)),
        name(given[j]),
        given[j] === truth[j] ? "right" : "wrong",
        scene.arrays.flipped[j] ? "yes" : "no",
        String(counts[j]),
      ]);
    }
    const what = mode === "voted" ? "votes for" : "score of";
    const headers = [
      "point",
      ...scene.feature_names.map((f) => cut(f)),
      "class",
      ...Array.from({ length: K }, (_, c) => `${what} ${name(c)}`),
      this._scoreName(),
      "region",
      "label changed by noise",
      "updates caused",
    ];
    const range = n > PAGE_ROWS ? `, points ${count(this.first + 1)}–${count(last)} of ${count(n)}` : "";
    const current = now >= 0 ? `; the current example is #${now + 1}` : "";
    this._fill(`Training points at step ${count(t)}${range}${current}`, headers, rows, now, last, n);
  }
}
