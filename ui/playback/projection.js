// The view of data with more than two features: the points projected on a
// plane fixed for the whole run (w* and the final w), where each
// hypothesis's boundary meets the plane; the angle between w* and w after
// each update; the margin histogram at the nearest stored hypothesis.

import { chartLayout, gridAxis, pixelRing, segmentShape, vline } from "./chartlayout.js";
import { ChartWords } from "./chartwords.js";
import { compass, equation } from "./describe.js";
import { snapshotAt } from "./diagnostics.js";
import { count, cut, minusNum, plotlyText } from "./format.js";
import { lineSegment, segmentXY } from "./geometry.js";
import { className } from "./plane.js";
import { newPinnedPlot } from "./dom.js";
import { verdict } from "./speech.js";

export class ProjectionView {
  constructor(nodes, { lane, scene, show, style, config, texts }) {
    Object.assign(this, { nodes, lane, scene, show, style, config, texts });
    this.P = scene.arrays.P;
    this.snapRows = lane.get("snap_rows");
    this._projection();
    if (lane.get("curve_angle")) this._angle();
    this._histogram();
    // each chart in words (chartwords.js), following the step
    this.words = {};
    for (const [name, label] of [
      ["projection", "The points projected on a plane"],
      ["angle", "The angle between w* and w"],
      ["histogram", "The margins"],
    ]) {
      if (!nodes[name].classList.contains("js-plotly-plot")) continue;
      this.words[name] = new ChartWords(nodes[name], label);
      nodes[name].after(this.words[name].node);
    }
  }

  _projection() {
    const { scene, style } = this;
    const c = style.colors,
      mk = style.marker;
    const sample = scene.arrays.sample,
      y = scene.arrays.y,
      flipped = scene.arrays.flipped;
    // the learned line and the current example move at every step: shapes (see plane.js);
    // their legend entries are empty traces
    const traces = [
      {
        type: "scatter",
        x: [null],
        y: [null],
        mode: "lines",
        name: "learned boundary (in this plane)",
        line: { color: c.line, width: style.line.boundary },
        hoverinfo: "skip",
      },
    ];
    if (scene.target) {
      const [x, yy] = segmentXY(lineSegment(scene.target.w[0], scene.target.w[1], scene.target.theta, scene.box));
      traces.push({
        type: "scatter",
        x,
        y: yy,
        mode: "lines",
        name: "true boundary",
        line: { color: c.line, dash: "dot", width: style.line.other },
        hoverinfo: "name",
      });
    }
    for (const label of [-1, 1]) {
      const rows = Array.from(sample).filter((j) => y[j] === label);
      if (!rows.length) continue;
      traces.push({
        type: "scatter",
        mode: "markers",
        x: rows.map((j) => this.P[2 * j]),
        y: rows.map((j) => this.P[2 * j + 1]),
        name: className(scene.class_names, label),
        marker: {
          symbol: label < 0 ? "circle" : "diamond",
          size: mk.projected,
          color: label < 0 ? c.negative : c.positive,
          line: { width: 0.6, color: "white" },
        },
        hoverinfo: "skip",
      });
    }
    const flips = Array.from(sample).filter((j) => flipped[j]);
    if (this.show.flips && flips.length) {
      traces.push({
        type: "scatter",
        mode: "markers",
        x: flips.map((j) => this.P[2 * j]),
        y: flips.map((j) => this.P[2 * j + 1]),
        name: "label flipped by noise",
        hoverinfo: "name",
        marker: { symbol: "x-thin-open", size: mk.flip, color: c.line, line: { width: 2, color: c.line } },
      });
    }
    traces.push({
      type: "scatter",
      x: [null],
      y: [null],
      mode: "markers",
      name: "current example",
      hoverinfo: "skip",
      marker: {
        symbol: "circle-open",
        size: mk.current - 2,
        color: c.current,
        line: { width: style.line.current, color: c.current },
      },
    });
    const shown =
      scene.n_drawn < scene.n_train
        ? `showing ${count(scene.n_drawn)} of ${count(scene.n_train)} points, random sample seed ${scene.sample_seed}`
        : `all ${count(scene.n_train)} points`;
    this.titleBase = `Projection on the plane of ${scene.plane} · ${shown}`;
    const box = scene.box;
    newPinnedPlot(
      this.nodes.projection,
      traces,
      // no title on the plot: the status line above it is its title
      chartLayout(style, "", {
        top: 10,
        height: style.figure.projection_height,
        xaxis: gridAxis(style, plotlyText(scene.axis_titles[0]), { range: [box[0], box[1]], zeroline: false }),
        yaxis: gridAxis(style, plotlyText(scene.axis_titles[1]), { range: [box[2], box[3]], zeroline: false }),
        legend: { orientation: "v", yanchor: "top", y: 1, x: 1.02, font: { size: style.font.legend } },
        uirevision: "projection",
      }),
      this.config,
    );
  }

  _angle() {
    const { lane, style } = this;
    const rows = lane.get("curve_rows"),
      angle = lane.get("curve_angle");
    let title = "updates";
    if (rows.length < lane.H) title += ` (${count(rows.length)} of ${count(lane.H)} drawn)`;
    Plotly.newPlot(
      this.nodes.angle,
      [
        {
          type: "scatter",
          x: Array.from(rows),
          y: Array.from(angle),
          mode: "lines",
          line: { color: style.colors.negative },
          name: "angle(w*, w)",
        },
      ],
      chartLayout(style, "Angle between w* and w (degrees)", {
        top: 30,
        xaxis: gridAxis(style, title),
        yaxis: gridAxis(style, "degrees"),
        shapes: [vline(0, style.colors.current)],
      }),
      this.config,
    );
  }

  _histogram() {
    const { style } = this;
    Plotly.newPlot(
      this.nodes.histogram,
      [
        {
          type: "bar",
          x: [],
          y: [],
          width: [],
          name: "right side",
          marker: { color: style.colors.right_side },
          opacity: 0.8,
        },
        {
          type: "bar",
          x: [],
          y: [],
          width: [],
          name: "wrong side",
          marker: { color: style.colors.wrong_side },
          opacity: 0.8,
        },
      ],
      chartLayout(style, "", {
        top: 30,
        barmode: "overlay",
        // the zero margin: right side to its right, wrong side to its left
        shapes: [{ ...vline(0, style.colors.line), line: { color: style.colors.line, width: 1 } }],
        xaxis: gridAxis(style, "y(⟨w,x⟩−θ)/‖w‖"),
        yaxis: gridAxis(style, `points (all ${count(this.scene.n_train)})`),
        legend: { orientation: "v", x: 0.98, y: 0.98, xanchor: "right", yanchor: "top" },
      }),
      this.config,
    );
    this.snapshot = -1;
  }

  /** The status line goes into the exported image as its title. */
  exportTitle() {
    return this.nodes.status.textContent;
  }

  get node() {
    return this.nodes.projection;
  }

  update(t) {
    const { lane, scene } = this;
    t = lane.clip(t);
    const r = lane.row(t);
    const [w1, w2, th] = lane.hypothesis(r);
    const seg = lineSegment(w1, w2, th, scene.box);
    const shapes = [];
    const c = this.style.colors;
    if (seg) shapes.push(segmentShape(seg, { color: c.line, width: this.style.line.boundary }));
    const i = lane.event(t);
    if (i !== null) {
      const j = lane.index[i];
      const ring = { color: c.current, width: this.style.line.current };
      shapes.push(pixelRing(this.P[2 * j], this.P[2 * j + 1], this.style.marker.current / 2 - 1, ring));
    }
    this.nodes.status.textContent = `${this.titleBase} · step ${count(t)}`;
    Plotly.relayout(this.nodes.projection, { shapes });
    if (lane.get("curve_angle") && r !== this.angleRow) {
      this.angleRow = r;
      Plotly.relayout(this.nodes.angle, { "shapes[0].x0": r, "shapes[0].x1": r });
      this._sayAngle(r);
    }
    const s = snapshotAt(this.snapRows, r);
    if (s !== this.snapshot) this._showSnapshot(s);
    this._sayProjection(t, seg, [w1, w2, th]);
  }

  /** The projection in words: the plane, the boundary in it, the current example, the errors. */
  _sayProjection(t, seg, [w1, w2, th]) {
    const { lane, scene } = this;
    const names = scene.axis_titles.map((name) => cut(name));
    const line =
      w1 === 0 && w2 === 0
        ? "The boundary does not cross this plane."
        : `The boundary meets the plane along ${equation(w1, w2, th, names)}${seg ? "" : ", outside the view"}; ` +
          `its +1 side lies towards the ${compass(w1, w2)}.`;
    const i = lane.event(t);
    const now =
      i === null
        ? "No example has been visited yet."
        : `The current example, ringed: ${verdict(lane, scene, this.texts, t)}.`;
    const wrong = this.wrongAt === undefined ? "" : ` ${this.wrongAt}`;
    this.words.projection.say(`${this.titleBase}. ${line} ${now}${wrong}`);
  }

  _sayAngle(r) {
    const rows = this.lane.get("curve_rows"),
      angle = this.lane.get("curve_angle");
    const k = snapshotAt(rows, r);
    this.words.angle?.say(
      `After update ${count(rows[k])} the angle between w* and w is ${minusNum(angle[k], 3)} degrees.`,
    );
  }

  _showSnapshot(s) {
    const { lane } = this;
    this.snapshot = s;
    const hist = lane.get("snap_hist"),
      range = lane.get("snap_hist_range");
    const bins = hist.length / this.snapRows.length / 2;
    const [low, width] = [range[2 * s], range[2 * s + 1]];
    const right = Array.from(hist.subarray(2 * s * bins, (2 * s + 1) * bins));
    const wrong = Array.from(hist.subarray((2 * s + 1) * bins, (2 * s + 2) * bins));
    const used = Math.max(lastNonZero(right), lastNonZero(wrong)) + 1;
    const centres = Array.from({ length: used }, (_, b) => low + (b + 0.5) * width);
    const widths = centres.map(() => width);
    Plotly.update(
      this.nodes.histogram,
      { x: [centres, centres], y: [right.slice(0, used), wrong.slice(0, used)], width: [widths, widths] },
      // the formula is the x axis's title: the chart's own stays short enough for half a column
      { "title.text": `Margins at update ${count(this.snapRows[s])}` },
    );
    const sum = (values) => values.reduce((a, b) => a + b, 0);
    this.wrongAt =
      `At update ${count(this.snapRows[s])}, the nearest stored, ${count(sum(wrong))} of ` +
      `${count(sum(right) + sum(wrong))} training points are on the wrong side.`;
    this.words.histogram?.say(
      `Margins y(⟨w,x⟩−θ)/‖w‖ at update ${count(this.snapRows[s])}: ${count(sum(right))} ` +
        `points on the right side, ${count(sum(wrong))} on the wrong side, in bins ${minusNum(width, 3)} wide from ${minusNum(low, 3)}.`,
    );
  }
}

function lastNonZero(values) {
  for (let b = values.length - 1; b >= 0; b--) if (values[b]) return b;
  return 0;
}
