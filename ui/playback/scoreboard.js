// Compare mode's numbers: one row per learner at the shared step (updates so far,
// accuracy of the predictor each figure draws, its margin, the epoch it converged in),
// and one chart of every learner's updates per epoch, so a class can tell which did better.

import { chartLayout, gridAxis } from "./chartlayout.js";
import { ChartWords, numbersTable, perEpoch } from "./chartwords.js";
import { el, fill } from "./dom.js";
import { accuracy, pointsField, truthOf } from "./fields.js";
import { count, cut, pyFormat } from "./format.js";
import { lineMargin } from "./diagnostics.js";

const DASHES = ["solid", "dash", "dot", "dashdot"];

export class Scoreboard {
  constructor(node, { lanes, scene, style, config }) {
    Object.assign(this, { lanes, scene, style });
    const X = scene.arrays.X;
    this.fields = lanes.map((lane) => ({
      mode: lane.meta.has_modes && lane.meta.draws_line ? lane.meta.mode : "last",
      train: pointsField(lane, X, X),
      test: scene.n_test ? pointsField(lane, scene.arrays.X_test, X) : null,
    }));
    this.table = el("div", {});
    const chart = el("div", { class: "chart" });
    fill(node, this.table, chart);
    this._chart(chart, config);
  }

  _chart(node, config) {
    const { style } = this;
    const traces = this.lanes.map((lane, i) => ({
      type: "scatter",
      mode: "lines+markers",
      name: cut(lane.meta.title, 40),
      x: lane.meta.mistakes_per_epoch.map((_, e) => e + 1),
      y: lane.meta.mistakes_per_epoch,
      line: { color: style.colors.line, dash: DASHES[i % 4], width: style.line.curve },
      marker: { size: 5 },
    }));
    Plotly.newPlot(
      node,
      traces,
      chartLayout(style, "Updates per epoch, every learner", {
        xaxis: gridAxis(style, "epoch", { rangemode: "tozero" }),
        yaxis: gridAxis(style, "updates in the epoch", { rangemode: "tozero" }),
        legend: { orientation: "h", y: -0.3, x: 0 },
      }),
      config,
    );
    const names = this.lanes.map((lane) => cut(lane.meta.title, 40));
    const epochs = Math.max(...this.lanes.map((lane) => lane.meta.mistakes_per_epoch.length));
    const table = numbersTable(
      "Updates per epoch",
      ["epoch", ...names],
      Array.from({ length: epochs }, (_, e) => [
        String(e + 1),
        ...this.lanes.map((lane) => {
          const v = lane.meta.mistakes_per_epoch[e];
          return v === undefined ? "—" : count(v);
        }),
      ]),
    );
    const words = new ChartWords(node, "Updates per epoch, every learner", table);
    words.say(`${this.lanes.map((lane, i) => `${names[i]}: ${perEpoch(lane.meta.mistakes_per_epoch)}`).join(". ")}.`);
    node.after(words.node);
  }

  update(t) {
    const { scene } = this;
    const y = scene.arrays.y;
    const rows = this.lanes.map((lane, i) => {
      const { mode, train, test } = this.fields[i];
      const tt = lane.clip(t);
      const quiet = lane.meta.mistakes_per_epoch.indexOf(0);
      const truth = (part) => truthOf(lane, scene, part);
      return [
        cut(lane.meta.title, 40),
        mode,
        lane.M === 1 || lane.classes ? count(lane.row(tt)) : "—",
        pyFormat(accuracy(train.scores(tt, mode), truth("train"), lane.classes), ".1%"),
        test ? pyFormat(accuracy(test.scores(tt, mode), truth("test"), lane.classes), ".1%") : "—",
        shown(lineMargin(lane, train.scores(tt, "last"), y, tt)),
        quiet >= 0 ? `epoch ${quiet + 1}` : "not yet",
      ];
    });
    fill(
      this.table,
      numbersTable(
        "Scoreboard at this step",
        ["learner", "draws", "updates", "train", "test", "margin (last w)", "converged"],
        rows,
        { className: "scoreboard" },
      ),
    );
  }
}

function shown(margin) {
  return margin === null ? "—" : pyFormat(margin, ".3g");
}
