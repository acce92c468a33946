// Diagnostics at time t: the run's numbers, mistakes per epoch (with the
// current epoch marked), the accuracy of each predictor at this step, the
// confusion matrix of the last hypothesis and Novikoff's bound so far.
//
// On 2-D data every number is computed here at the exact step. On more
// features the points are not in the browser: the accuracies, the margin
// and the confusion counts come from the payload's snapshots (every
// hypothesis for small runs, else evenly spaced ones), and the table says
// which update it shows.

import { chartLayout, gridAxis, percentAxis, vline } from "./chartlayout.js";
import { ChartWords, numbersTable, perEpoch } from "./chartwords.js";
import { el, fill } from "./dom.js";
import { accuracy, pointsField, truthOf } from "./fields.js";
import { classWords as classLabel, count, cut, pyFormat } from "./format.js";
import { WeightsChart } from "./weights.js";

/** The predictors a lane replays: the payload's names (perceptron_core.modes), or the last only. */
export function lanePredictors(lane, scene) {
  return lane.meta.has_modes ? scene.modes : ["last"];
}

export class Diagnostics {
  constructor(node, { lane, scene, style, texts, config }) {
    Object.assign(this, { node, lane, scene, style, texts, config });
    const meta = lane.meta;
    this.modes = lanePredictors(lane, scene);
    this.planar = scene.view === "plane";
    if (this.planar) {
      const X = scene.arrays.X;
      this.train = pointsField(lane, X, X);
      if (scene.n_test) this.test = pointsField(lane, scene.arrays.X_test, X);
    } else if (meta.hypotheses === "projection") {
      this.snapRows = lane.get("snap_rows");
    }
    this._build();
  }

  _build() {
    const { lane } = this;
    const metric = (label, help) => {
      const value = el("div", { class: "metric-value" }, "—");
      return [el("div", { class: "metric", title: help }, el("div", { class: "metric-label" }, label), value), value];
    };
    const [updates, updatesValue] = metric("Updates so far", "Hypothesis changes up to this step.");
    const [margin, marginValue] = metric(
      "Achieved margin",
      "Smallest y(⟨w,x⟩−θ)/‖w‖ over the training set: negative while some point is on the wrong side.",
    );
    const [fit] = metric("Training time", "fit() with every visit recorded (the animation never retrains).");
    fit.lastChild.textContent = `${pyFormat(lane.meta.fit_ms, ".1f")} ms`;
    const [epochs] = metric("Epochs run", "On-line rules stop after an epoch without updates.");
    epochs.lastChild.textContent = String(lane.meta.mistakes_per_epoch.length);
    this.values = { updates: updatesValue, margin: marginValue };
    this.chart = el("div", { class: "chart" });
    const weights =
      this.planar && lane.M === 1 && lane.meta.hypotheses === "plane" ? el("div", { class: "chart" }) : null;
    this.accuracy = el("div", {});
    this.confusion = el("div", {});
    this.novikoff = el("p", {});
    const final = lane.meta.final_accuracy.train;
    const finalText =
      lane.meta.has_modes && Object.keys(final).length
        ? el(
            "p",
            { class: "caption" },
            "After training, from the core's predict_all: " +
              this.modes.map((m) => `${m} ${pyFormat(final[m], ".1%")}`).join(", ") +
              " (train).",
          )
        : null;
    fill(
      this.node,
      el("div", { class: "metrics" }, updates, margin, fit, epochs),
      el(
        "div",
        { class: "diag-row" },
        el("div", { class: "diag-chart" }, this.chart, weights),
        el("div", { class: "diag-tables" }, this.accuracy, finalText, this.confusion),
      ),
      this.novikoff,
    );
    this._chart();
    this.weights = weights
      ? new WeightsChart(weights, { lane, scene: this.scene, style: this.style, config: this.config })
      : null;
  }

  /**
   * Per epoch, counts from 0: the updates, the errors when they differ (a margin learner also
   * updates on correct visits, an α-bound blocks errors), the test error rate on its own axis,
   * and where the run converged (the first epoch without an update).
   */
  _chart() {
    const { lane, style, scene } = this;
    const updates = lane.meta.mistakes_per_epoch,
      errors = lane.meta.errors_per_epoch;
    const test = lane.meta.test_errors_per_epoch;
    const epochs = updates.map((_, e) => e + 1);
    const same = errors.every((v, e) => v === updates[e]);
    const traces = [
      {
        type: "scatter",
        x: epochs,
        y: updates,
        mode: "lines+markers",
        name: same ? "mistakes = updates (train)" : "updates (train)",
        line: { color: style.colors.train_curve, width: style.line.curve },
        marker: { symbol: "circle", size: 5 },
      },
    ];
    if (!same) {
      traces.push({
        type: "scatter",
        x: epochs,
        y: errors,
        mode: "lines+markers",
        name: "mistakes (train)",
        line: { color: style.colors.train_curve, width: style.line.curve, dash: "dot" },
        marker: { symbol: "x", size: 6 },
      });
    }
    if (test.length && scene.n_test) {
      traces.push({
        type: "scatter",
        x: epochs.slice(0, test.length),
        y: test.map((v) => (100 * v) / scene.n_test),
        mode: "lines+markers",
        name: "test error % at epoch end",
        yaxis: "y2",
        line: { color: style.colors.test_curve, width: style.line.curve, dash: "dash" },
        marker: { symbol: "diamond", size: 6 },
      });
    }
    const converged = updates.indexOf(0);
    const shapes = [vline(1, style.colors.current)];
    const annotations = [];
    if (converged >= 0) {
      shapes.push({
        ...vline(converged + 1, style.colors.line),
        line: { color: style.colors.line, width: 1.5, dash: "dash" },
      });
      annotations.push({
        x: converged + 1,
        y: 1,
        xref: "x",
        yref: "paper",
        yanchor: "bottom",
        showarrow: false,
        text: `converged: no update in epoch ${converged + 1}`,
        font: { size: style.font.axis },
      });
    }
    Plotly.newPlot(
      this.chart,
      traces,
      chartLayout(style, "Per epoch: updates, mistakes, test error", {
        top: 48,
        xaxis: gridAxis(style, "epoch", { rangemode: "tozero" }),
        yaxis: gridAxis(style, "count in the epoch", { rangemode: "tozero" }),
        yaxis2: percentAxis("test error"),
        legend: { orientation: "h", yref: "container", y: 0, yanchor: "bottom", x: 0 },
        shapes,
        annotations,
      }),
      this.config,
    );
    const pct = (v) => `${pyFormat((100 * v) / scene.n_test, ".1f")}%`;
    const table = numbersTable(
      "Per epoch (the current epoch is marked)",
      ["epoch", "updates", ...(same ? [] : ["mistakes"]), ...(test.length && scene.n_test ? ["test error"] : [])],
      epochs.map((e, k) => [
        String(e),
        count(updates[k]),
        ...(same ? [] : [count(errors[k])]),
        ...(test.length && scene.n_test ? [k < test.length ? pct(test[k]) : "—"] : []),
      ]),
    );
    this.epochRows = table.tBodies[0].rows;
    this.chartWords = new ChartWords(this.chart, "Updates and mistakes per epoch", table);
    this.chart.after(this.chartWords.node);
    this.converged = converged >= 0 ? `No update in epoch ${converged + 1}: converged.` : "Not converged.";
    this._sayEpoch(0);
  }

  /** The chart's sentence and the table's marked row follow the epoch. */
  _sayEpoch(epoch) {
    const { lane } = this;
    this.chartEpoch = epoch;
    for (const row of this.epochRows) row.classList.toggle("current", row.rowIndex - 1 === epoch);
    this.chartWords.say(
      `Updates per epoch over ${count(lane.meta.mistakes_per_epoch.length)} epochs: ` +
        `${perEpoch(lane.meta.mistakes_per_epoch)}. ${this.converged} The current epoch, ${epoch + 1}, is marked.`,
    );
  }

  update(t) {
    const { lane } = this;
    t = lane.clip(t);
    const r = lane.row(t);
    this.values.updates.textContent = lane.M === 1 || lane.classes ? count(r) : "—";
    this.weights?.update(t);
    const epoch = lane.epochAt(t);
    if (epoch !== this.chartEpoch) {
      // the marker moves once per epoch, not per step
      this._sayEpoch(epoch);
      Plotly.relayout(this.chart, { "shapes[0].x0": epoch + 1, "shapes[0].x1": epoch + 1 });
    }
    if (this.planar) this._planar(t);
    else if (this.snapRows) this._snapshot(t);
    this._novikoff(r);
  }

  _planar(t) {
    const { lane, scene } = this;
    if (lane.classes) {
      this._classes(t);
      return;
    }
    const y = scene.arrays.y;
    const margin = lineMargin(lane, this.train.scores(t, "last"), y, t);
    this.values.margin.textContent = margin === null ? "—" : pyFormat(margin, ".3g");
    const parts = [["train", this.train, y]];
    if (this.test) parts.push(["test", this.test, scene.arrays.y_test]);
    const table = parts.map(([name, scored, truth]) => [
      name,
      this.modes.map((mode) => accuracy(scored.scores(t, mode), truth)),
    ]);
    fill(this.accuracy, accuracyTable(this.modes, table, "Accuracy at this step"));
    const [part, field, labels] = parts[parts.length - 1];
    const scores = field.scores(t, "last");
    const m = [
      [0, 0],
      [0, 0],
    ];
    for (let j = 0; j < labels.length; j++) m[labels[j] > 0 ? 1 : 0][scores[j] > 0 ? 1 : 0]++;
    this._confusionTable(part, m);
  }

  /** Several classes: the accuracy of each predictor, and the K x K confusion matrix. */
  _classes(t) {
    const { lane, scene } = this;
    this.values.margin.textContent = "—";
    const parts = [["train", this.train, truthOf(lane, scene, "train")]];
    if (this.test) parts.push(["test", this.test, truthOf(lane, scene, "test")]);
    const table = parts.map(([name, scored, labels]) => [
      name,
      this.modes.map((mode) => accuracy(scored.scores(t, mode), labels, true)),
    ]);
    fill(this.accuracy, accuracyTable(this.modes, table, "Accuracy at this step"));
    const [part, field, truth] = parts[parts.length - 1];
    const given = field.scores(t, "last");
    const K = lane.M,
      names = scene.class_list.map((c) => cut(String(c)));
    const m = Array.from({ length: K }, () => new Array(K).fill(0));
    for (let j = 0; j < truth.length; j++) m[truth[j]][given[j]]++;
    fill(
      this.confusion,
      numbersTable(
        `Confusion matrix (${part}, last hypothesis)`,
        ["true \\ given", ...names],
        m.map((row, c) => [names[c], ...row.map(String)]),
      ),
    );
  }

  _snapshot(t) {
    const { lane, scene } = this;
    const s = snapshotAt(this.snapRows, lane.row(t));
    const k = this.snapRows[s];
    const acc = lane.get("snap_accuracy"),
      conf = lane.get("snap_confusion");
    const margin = lane.get("snap_margin")[s];
    this.values.margin.textContent = Number.isNaN(margin) ? "—" : pyFormat(margin, ".3g");
    const parts = scene.n_test ? ["train", "test"] : ["train"];
    const table = parts.map((part, p) => [
      part,
      this.modes.map((m) => acc[(s * 2 + p) * scene.modes.length + scene.modes.indexOf(m)]),
    ]);
    const note =
      k === lane.row(t)
        ? "Accuracy at this step"
        : `Accuracy at update ${count(k)} (the nearest stored hypothesis before this step)`;
    fill(this.accuracy, accuracyTable(this.modes, table, note));
    this._confusionTable(parts[parts.length - 1], [
      [conf[4 * s], conf[4 * s + 1]],
      [conf[4 * s + 2], conf[4 * s + 3]],
    ]);
  }

  _confusionTable(part, m) {
    const names = this.scene.class_names;
    fill(
      this.confusion,
      numbersTable(
        `Confusion matrix (${part}, last hypothesis)`,
        ["true \\ predicted", "−1", "+1"],
        [
          [classLabel(names[0], "−1"), String(m[0][0]), String(m[0][1])],
          [classLabel(names[1], "+1"), String(m[1][0]), String(m[1][1])],
        ],
      ),
    );
  }

  _novikoff(r) {
    const text = this.texts.novikoff;
    if (!text) return;
    fill(this.novikoff, text.replace("{updates}", count(r)));
  }
}

/**
 * Beside the figure: the updates so far against Novikoff's bound on them, as a bar that fills
 * (where the bound applies: separable data, the classic rule).
 */
export class BoundMeter {
  constructor(node, { lane, bound, title }) {
    Object.assign(this, { lane, bound });
    this.fill = el("div", { class: "meter-fill" });
    this.text = el("p", { class: "caption" });
    fill(
      node,
      el("p", { class: "panel-title" }, title || "Updates against Novikoff's bound"),
      el("div", { class: "meter" }, this.fill),
      this.text,
    );
  }

  update(t) {
    const r = this.lane.row(this.lane.clip(t));
    this.fill.style.width = `${Math.min(100, (100 * r) / this.bound)}%`;
    this.text.textContent = `${count(r)} ${r === 1 ? "update" : "updates"} so far; the bound allows at most ${count(Math.floor(this.bound))}.`;
  }
}

/** Index of the last stored snapshot row at or before `row`. */
export function snapshotAt(rows, row) {
  let lo = 0,
    hi = rows.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (rows[mid] <= row) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Accuracy per predictor (columns) of each part of the data (rows: [part, [accuracy, ...]]). */
export function accuracyTable(modes, rows, caption = null) {
  return numbersTable(
    caption,
    ["data", ...modes],
    rows.map(([part, values]) => [part, ...values.map((a) => pyFormat(a, ".1%"))]),
  );
}

/** The smallest y·score / ‖w‖ over the training points of a single line at t, or null. */
export function lineMargin(lane, scores, y, t) {
  if (lane.M !== 1 || lane.meta.hypotheses !== "plane") return null;
  const [w1, w2] = lane.hypothesis(lane.row(t));
  const norm = Math.hypot(w1, w2);
  if (!(norm > 0)) return null;
  let low = Infinity;
  for (let j = 0; j < y.length; j++) low = Math.min(low, y[j] * scores[j]);
  return low / norm;
}
