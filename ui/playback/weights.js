// The weights over time: ‖w‖, each component of w and θ, and the accuracy on the test
// points (the training points without a test part) of the hypothesis in force at every step,
// with a mark at the current step. The x-axis counts steps (visits): a hypothesis holds from
// the step of its update to the next one, so each curve is a staircase ("hv"). With more than
// MAX_POINTS hypotheses, evenly spaced ones stand for the ones between them.
// For one line on 2-D data: w has two components to show.

import { chartLayout, gridAxis, percentAxis, vline } from "./chartlayout.js";
import { ChartWords } from "./chartwords.js";
import { minusNum, pyFormat } from "./format.js";

const MAX_POINTS = 400;
const MARK_INTERVAL_MS = 200;
const DASHES = ["dash", "dot"];

export class WeightsChart {
  constructor(node, { lane, scene, style, config }) {
    Object.assign(this, { node, lane, style });
    const test = scene.n_test > 0;
    const X = test ? scene.arrays.X_test : scene.arrays.X;
    const y = test ? scene.arrays.y_test : scene.arrays.y;
    this.scored = { X, y, part: test ? "test" : "train" };
    const ks = sampled(lane.H, MAX_POINTS);
    const rows = ks.map((k) => lane.hypothesis(k));
    const accuracy = rows.map(([w1, w2, th]) => {
      let right = 0;
      for (let j = 0; j < y.length; j++)
        right += (w1 * X[2 * j] + w2 * X[2 * j + 1] - th > 0 ? 1 : -1) === y[j] ? 1 : 0;
      return (100 * right) / y.length;
    });
    // each hypothesis starts at the step of its update; the last one holds to the end
    const steps = [...ks.map((k) => lane.startTime(k)), lane.E];
    rows.push(rows[rows.length - 1]);
    accuracy.push(accuracy[accuracy.length - 1]);
    const c = style.colors,
      width = style.line.curve;
    const traces = [
      { name: "‖w‖", y: rows.map(([w1, w2]) => Math.hypot(w1, w2)), line: { color: c.line, width } },
      ...[0, 1].map((i) => ({
        name: `w${i + 1}`,
        y: rows.map((r) => r[i]),
        line: { color: c.line, width, dash: DASHES[i] },
      })),
      { name: "θ", y: rows.map((r) => r[2]), line: { color: c.longest, width, dash: "dashdot" } },
      { name: `${test ? "test" : "train"} accuracy %`, y: accuracy, yaxis: "y2", line: { color: c.averaged, width } },
    ].map((trace) => ({ type: "scatter", mode: "lines", x: steps, ...trace, line: { ...trace.line, shape: "hv" } }));
    Plotly.newPlot(
      node,
      traces,
      chartLayout(style, "The weights and accuracy at each step", {
        xaxis: gridAxis(style, "steps", { rangemode: "tozero" }),
        yaxis: gridAxis(style, "value", { zeroline: true }),
        yaxis2: percentAxis("accuracy"),
        legend: { orientation: "h", yref: "container", y: 0, yanchor: "bottom", x: 0 },
        shapes: [vline(0, c.current)],
      }),
      config,
    );
    Object.assign(this, { t: 0, markedAt: 0, movedAt: -Infinity, pending: false });
    this.words = new ChartWords(node, "The weights and accuracy at each step");
    node.after(this.words.node);
    this._say(0);
  }

  /** The chart's sentence: the values at the marked step. */
  _say(t) {
    const [w1, w2, th] = this.lane.hypothesis(this.lane.row(t));
    const { X, y, part } = this.scored;
    let right = 0;
    for (let j = 0; j < y.length; j++) right += (w1 * X[2 * j] + w2 * X[2 * j + 1] - th > 0 ? 1 : -1) === y[j] ? 1 : 0;
    this.words.say(
      `At step ${t}: ‖w‖ = ${minusNum(Math.hypot(w1, w2))}, w1 = ${minusNum(w1)}, ` +
        `w2 = ${minusNum(w2)}, θ = ${minusNum(th)}, ${part} accuracy ${pyFormat(right / y.length, ".1%")}.`,
    );
  }

  /**
   * Move the mark to step t. A relayout redraws the chart's axes (several ms), so it waits until
   * the figure with the new step is painted, and while playing it moves at most every
   * MARK_INTERVAL_MS, to the latest step.
   */
  update(t) {
    this.t = this.lane.clip(t);
    if (this.pending || this.t === this.markedAt) return;
    this.pending = true;
    const wait = Math.max(0, MARK_INTERVAL_MS - (performance.now() - this.movedAt));
    requestAnimationFrame(() =>
      setTimeout(() => {
        this.pending = false;
        this.movedAt = performance.now();
        this.markedAt = this.t;
        Plotly.relayout(this.node, { "shapes[0].x0": this.t, "shapes[0].x1": this.t });
        this._say(this.t);
      }, wait),
    );
  }
}

/** At most `most` of 0 .. n-1, evenly spaced, always with the first and the last. */
export function sampled(n, most) {
  if (n <= most) return Array.from({ length: n }, (_, k) => k);
  return Array.from({ length: most }, (_, i) => Math.round((i * (n - 1)) / (most - 1)));
}
