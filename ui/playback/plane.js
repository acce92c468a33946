// The 2-D picture of one lane: points, decision region, line, margin band,
// arrows, the current example and the marks of the λ-trick, the α-bound,
// noise, the voted ensemble and the committee's categories.
//
// The figure is built once per payload and view; a step restyles only the
// traces and layout entries that depend on the time step, in one
// Plotly.update call (the points, the test points and the noise marks never
// move).

import { Field, Points } from "./fields.js";
import { anchor, clipHalfplanes, inBox, lineSegment, segmentXY } from "./geometry.js";
import { count, cut, num, plotlyText, signed } from "./format.js";
import { BLOCKED, RESCUED } from "./timeline.js";

const DASHES = ["solid", "dash", "dot", "dashdot"];

/** "benign (−1)", or just "−1" when the class has no other name. */
export function className(names, label) {
  const name = String(names[label < 0 ? 0 : 1]).replace("-", "−");
  const sign = signed(label);
  return name === sign ? sign : `${plotlyText(cut(names[label < 0 ? 0 : 1]))} (${sign})`;
}

export class PlaneFigure {
  /**
   * @param {HTMLElement} node  where Plotly draws
   * @param {object} o  {lane, scene, show, style, height, box, clickable, title}
   */
  constructor(node, o) {
    this.node = node;
    Object.assign(this, o);
    const { lane, scene } = o;
    this.X = scene.arrays.X;
    this.y = scene.arrays.y;
    this.train = Points.fromRows(this.X);
    const meta = lane.meta;
    this.mode = meta.has_modes && meta.draws_line ? meta.mode : "last";
    this.family = meta.family;
    this.settings = meta.settings;
    this.singleLine = meta.draws_line && lane.M === 1 && meta.hypotheses === "plane";
    this.votedRegion = this.mode === "voted" || (o.show.ensemble && this.family === "kw");
    const g = o.style.grid;
    const kernelish = this.family === "kernel";
    if (o.show.region || kernelish) {
      const res = kernelish ? g.kernel : this.votedRegion ? g.voted : g.region;
      this.grid = Points.grid(this.box, res, res);
      this.gridField = new Field(lane, this.grid, this.X);
      this.gridMode = kernelish ? "last" : this.votedRegion ? "voted" : this.mode;
    }
    this.ownField = new Field(lane, this.train, this.X);
    this._build();
  }

  // -- the figure's traces ---------------------------------------------------------

  _build() {
    const { lane, scene, show, style } = this;
    const c = style.colors, mk = style.marker, ln = style.line;
    const traces = [];
    const slot = (name, trace) => {
      this.slots[name] = traces.length;
      traces.push(trace);
    };
    this.slots = {};
    if (this.grid && show.region) {
      slot("region", {
        type: "heatmap", x: Array.from(this.grid.axes[0]), y: Array.from(this.grid.axes[1]),
        z: [[0]], zmin: -1, zmax: 1, colorscale: c.region, showscale: false,
        hoverinfo: "skip", name: "decision region",
        zsmooth: this.votedRegion ? "best" : false,
      });
    }
    if (this.family === "kernel") {
      slot("contour", {
        type: "contour", x: Array.from(this.grid.axes[0]), y: Array.from(this.grid.axes[1]),
        z: [[0]], contours: { start: 0, end: 0, size: 1, coloring: "none" },
        line: { color: c.line, width: ln.boundary }, showscale: false, hoverinfo: "skip",
        name: "decision boundary f(x) = 0", showlegend: true,
      });
    }
    this.band = this.settings.band && show.band && this.singleLine && this.mode === "last";
    if (this.band) {
      slot("band", {
        type: "scatter", x: [], y: [], fill: "toself", mode: "lines", line: { width: 0 },
        fillcolor: c.band, name: "margin band (updates inside)", hoverinfo: "name",
      });
    }
    if (show.ensemble && this.family === "kw") {
      this.ensembleSlots = [];
      for (let lv = style.ensemble.levels; lv >= 1; lv--) {
        this.ensembleSlots.push(traces.length);
        slot(`ensemble${lv}`, {
          type: "scatter", x: [], y: [], mode: "lines", legendgroup: "ensemble",
          showlegend: lv === style.ensemble.levels, opacity: 0.15 + (0.85 * lv) / style.ensemble.levels,
          line: { color: c.ensemble, width: ln.ensemble }, hoverinfo: "name", name: "stored hypotheses",
        });
      }
    }
    if (lane.meta.draws_line && lane.meta.hypotheses === "plane") {
      if (lane.M > 1) {
        for (let mm = 0; mm < lane.M; mm++) {
          slot(`member${mm}`, {
            type: "scatter", x: [], y: [], mode: "lines", name: `member ${mm + 1}`,
            line: { color: c.line, dash: DASHES[mm % 4], width: ln.member }, hoverinfo: "name",
          });
        }
      } else if (this.mode !== "voted") {
        slot("boundary", {
          type: "scatter", x: [], y: [], mode: "lines", name: `boundary (${this.mode})`,
          line: { color: c.line, width: ln.boundary }, hoverinfo: "name",
        });
      }
      if (show.averaged && lane.meta.has_modes && this.mode !== "averaged") {
        slot("averaged", {
          type: "scatter", x: [], y: [], mode: "lines", name: "averaged",
          line: { color: c.averaged, dash: "dash", width: ln.other }, hoverinfo: "name",
        });
      }
      if (show.longest && lane.meta.has_modes && this.mode !== "longest") {
        slot("longest", {
          type: "scatter", x: [], y: [], mode: "lines", name: "longest survivor",
          line: { color: c.longest, dash: "dot", width: ln.boundary }, hoverinfo: "name",
        });
      }
    }
    if (show.target && scene.target) {
      const [x, y] = segmentXY(lineSegment(scene.target.w[0], scene.target.w[1], scene.target.theta, this.box));
      slot("target", {
        type: "scatter", x, y, mode: "lines", name: "true boundary",
        line: { color: c.line, dash: "dot", width: ln.target }, hoverinfo: "name",
      });
    }
    for (const label of [-1, 1]) {
      const rows = [];
      for (let j = 0; j < this.y.length; j++) if (this.y[j] === label) rows.push(j);
      if (!rows.length) continue;
      slot(`train${label}`, this._pointsTrace(rows, label, " train", false, mk.point));
      this[`rows${label}`] = rows;
    }
    const Xt = scene.arrays.X_test, yt = scene.arrays.y_test;
    if (show.test_points && yt.length) {
      for (const label of [-1, 1]) {
        const rows = [];
        for (let j = 0; j < yt.length; j++) if (yt[j] === label) rows.push(j);
        if (!rows.length) continue;
        slot(`test${label}`, {
          ...this._pointsTrace([], label, " test", true, mk.test),
          x: rows.map((j) => Xt[2 * j]), y: rows.map((j) => Xt[2 * j + 1]), hoverinfo: "x+y+name",
        });
      }
    }
    if (this.settings.alpha !== null && this.settings.alpha !== undefined) {
      slot("capped", this._overlay(`used up its α-bound (${this.settings.alpha}): ignored`, "circle", c.capped, mk.capped, 0));
    }
    const flipped = scene.arrays.flipped;
    if (show.flips && flipped.some((f) => f)) {
      const rows = [];
      for (let j = 0; j < flipped.length; j++) if (flipped[j]) rows.push(j);
      slot("flips", { ...this._overlay("label flipped by noise", "x-thin-open", c.line, mk.flip, 2), ...this._xy(rows) });
    }
    this.lamRings = this.settings.lam > 0 && this.family === "kw" && lane.meta.draws_line;
    if (this.lamRings) {
      slot("rings", this._overlay("forced an update (λ push on)", "circle-open", c.rings, mk.ring, 1.5));
      slot("rescued", this._overlay("rescued by the λ push (no update)", "cross-thin-open", c.rescued, mk.rescued, 2.5));
    }
    if (this.family === "kernel") {
      slot("support", this._overlay("support points (a_j > 0)", "circle-open", c.line, mk.ring, 1.5));
    }
    const category = lane.get("category");
    if (category && show.categories) {
      const of = (code) => { const r = []; for (let j = 0; j < category.length; j++) if (category[j] === code) r.push(j); return r; };
      slot("noisy", { ...this._overlay("flagged noisy (after training)", "square-open", c.noisy, mk.category, 2.5), ...this._xy(of(2)), visible: false });
      slot("borderline", { ...this._overlay("borderline (after training)", "circle-open", c.borderline, mk.category - 1, 1.5), ...this._xy(of(1)), visible: false });
    }
    slot("current", {
      type: "scatter", x: [], y: [], mode: "markers", name: "current example", hoverinfo: "name",
      marker: { symbol: "circle-open", size: mk.current, color: c.current, line: { width: style.line.current, color: c.current } },
    });
    this.traces = traces;
    Plotly.newPlot(this.node, traces, this._layout(), this.config);
    this.dynamic = Object.keys(this.slots).filter((name) => !STATIC.has(name));
  }

  _xy(rows) {
    return { x: rows.map((j) => this.X[2 * j]), y: rows.map((j) => this.X[2 * j + 1]) };
  }

  _pointsTrace(rows, label, suffix, hollow, size) {
    const c = this.style.colors;
    const color = label < 0 ? c.negative : c.positive;
    const symbol = (label < 0 ? "circle" : "diamond") + (hollow ? "-open" : "");
    return {
      type: "scatter", mode: "markers", ...this._xy(rows),
      name: className(this.scene.class_names, label) + suffix,
      marker: { symbol, size, color, line: { width: hollow ? 1.6 : 0.6, color: hollow ? color : "white" } },
      hovertemplate: `x = (%{x:.3g}, %{y:.3g})<br>y = ${label > 0 ? "+1" : "−1"}%{customdata}<extra></extra>`,
      customdata: rows.map(() => ""),
    };
  }

  _overlay(name, symbol, color, size, width) {
    return {
      type: "scatter", mode: "markers", x: [], y: [], name, hoverinfo: "name",
      marker: { symbol, size, color, line: { width, color } },
    };
  }

  _layout() {
    const { style, box, height, scene } = this;
    const f = style.font;
    return {
      height,
      margin: { l: 50, r: 10, t: 40, b: 10 },
      plot_bgcolor: "white", paper_bgcolor: "white",
      font: { family: f.family, size: f.axis },
      title: { text: "", font: { size: f.title }, x: 0.01, y: 0.98 },
      xaxis: { range: [box[0], box[1]], title: { text: plotlyText(scene.feature_names[0]), standoff: 4 },
               constrain: "domain", zeroline: false, gridcolor: style.colors.grid, automargin: true, linecolor: style.colors.grid },
      yaxis: { range: [box[2], box[3]], title: { text: plotlyText(scene.feature_names[1]) }, scaleanchor: "x",
               scaleratio: 1, zeroline: false, gridcolor: style.colors.grid, automargin: true, linecolor: style.colors.grid },
      // below the x-axis title at any height (90 px under the plot area)
      legend: { orientation: "h", yanchor: "top", y: -90 / (height - 50), x: 0, font: { size: f.legend } },
      modebar: { orientation: "v" },
      annotations: [],
      uirevision: "plane",
      dragmode: this.clickable ? false : "zoom",
    };
  }

  // -- one step ----------------------------------------------------------------------

  /** Everything that depends on t, as one Plotly.update. */
  update(t) {
    const { lane } = this;
    t = lane.clip(t);
    const patch = {};
    const set = (name, values) => {
      if (name in this.slots) patch[name] = values;
    };
    const r = lane.row(t);
    if (this.grid) this._region(t, set);
    if (this.singleLine) {
      const [w1, w2, th] = lane.linearPredictor(t, this.mode === "voted" ? "last" : this.mode);
      const [x, y] = segmentXY(lineSegment(w1, w2, th, this.box));
      set("boundary", { x: [x], y: [y] });
      if (this.band) set("band", this._band(lane.hypothesis(r)));
      if ("averaged" in this.slots) set("averaged", xyLine(lane.averaged(t), this.box));
      if ("longest" in this.slots) set("longest", xyLine(lane.hypothesis(lane.longestRow(t)), this.box));
      if (this.ensembleSlots) this._ensemble(t, set);
    } else if (lane.M > 1) {
      for (let mm = 0; mm < lane.M; mm++) set(`member${mm}`, xyLine(lane.hypothesis(r, mm), this.box));
    }
    const counts = lane.counts(t);
    if ("capped" in this.slots) set("capped", this._rowsXY((j) => counts[j] >= this.settings.alpha));
    if (this.lamRings) {
      set("rings", this._rowsXY((j) => counts[j] > 0));
      const rescued = lane.latestOfKind(t, RESCUED);
      set("rescued", { x: [rescued.map((j) => this.X[2 * j])], y: [rescued.map((j) => this.X[2 * j + 1])] });
    }
    if ("support" in this.slots) set("support", this._rowsXY((j) => counts[j] > 0));
    if ("noisy" in this.slots) {
      const atEnd = t === lane.E;
      set("noisy", { visible: [atEnd] });
      set("borderline", { visible: [atEnd] });
    }
    const i = lane.event(t);
    if (i === null) set("current", { x: [[]], y: [[]] });
    else set("current", { x: [[this.X[2 * lane.index[i]]]], y: [[this.X[2 * lane.index[i] + 1]]] });
    const layout = { "title.text": this._status(t), annotations: this._arrows(t) };
    this._apply(patch, layout);
    this._scheduleHover(t);
  }

  _apply(patch, layout) {
    // one Plotly.update for all traces: keys a trace does not change stay undefined (skipped)
    const names = Object.keys(patch);
    const keys = [...new Set(names.flatMap((n) => Object.keys(patch[n])))];
    const data = {};
    for (const key of keys) data[key] = names.map((n) => (key in patch[n] ? patch[n][key][0] : undefined));
    Plotly.update(this.node, data, layout, names.map((n) => this.slots[n]));
  }

  _rowsXY(keep) {
    const xs = [], ys = [];
    for (let j = 0; j < this.y.length; j++) {
      if (keep(j)) {
        xs.push(this.X[2 * j]);
        ys.push(this.X[2 * j + 1]);
      }
    }
    return { x: [xs], y: [ys] };
  }

  _region(t, set) {
    const scores = this.gridField.scores(t, this.gridMode);
    const [xs, ys] = this.grid.axes;
    let peak = 0;
    for (let p = 0; p < scores.length; p++) peak = Math.max(peak, Math.abs(scores[p]));
    // a line's tint deepens away from it; the vote's and the kernel's follow their own scale
    const scale = this.votedRegion ? Math.max(peak, 1) : 0.5 * peak || 1;
    const z = [];
    const raw = [];
    for (let j = 0; j < ys.length; j++) {
      const row = new Array(xs.length), rawRow = new Array(xs.length);
      for (let i = 0; i < xs.length; i++) {
        const s = scores[j * xs.length + i];
        row[i] = Math.max(-1, Math.min(1, s / scale));
        rawRow[i] = s;
      }
      z.push(row);
      raw.push(rawRow);
    }
    set("region", { z: [z] });
    set("contour", { z: [raw] });
  }

  _band([w1, w2, th]) {
    const [lo, hi] = this.settings.band;
    if (w1 === 0 && w2 === 0) return { x: [[]], y: [[]] };
    const poly = clipHalfplanes(this.box, [[w1, w2, th + hi], [-w1, -w2, -(th + lo)]]);
    if (poly.length < 3) return { x: [[]], y: [[]] };
    return { x: [[...poly.map((p) => p[0]), poly[0][0]]], y: [[...poly.map((p) => p[1]), poly[0][1]]] };
  }

  /** The stored hypotheses with most votes at t, opacity by votes, one trace per level. */
  _ensemble(t, set) {
    const { lane, style } = this;
    const r = lane.row(t), limit = style.ensemble.lines, levels = style.ensemble.levels;
    const top = []; // [votes, row], most votes first; ties: the later row first (as numpy's reversed stable sort)
    let voting = 0;
    for (let k = 1; k <= r; k++) {
      const v = lane.votesAt(t, k);
      if (v <= 0) continue;
      voting++;
      if (top.length === limit && v < top[limit - 1][0]) continue;
      let at = top.length;
      while (at > 0 && top[at - 1][0] <= v) at--;
      top.splice(at, 0, [v, k]);
      if (top.length > limit) top.pop();
    }
    const most = top.length ? top[0][0] : 1;
    const byLevel = new Map();
    for (const [v, k] of top) {
      const lv = Math.ceil((levels * v) / most);
      const seg = lineSegment(...lane.hypothesis(k).slice(0, 2), lane.thetaOf(k), this.box);
      if (!seg) continue;
      if (!byLevel.has(lv)) byLevel.set(lv, [[], []]);
      const [xs, ys] = byLevel.get(lv);
      xs.push(seg[0][0], seg[1][0], null);
      ys.push(seg[0][1], seg[1][1], null);
    }
    const name = `stored hypotheses (top ${count(Math.min(voting, limit))} of ${count(voting)} by votes)`;
    for (let lv = levels; lv >= 1; lv--) {
      const [xs, ys] = byLevel.get(lv) || [[], []];
      set(`ensemble${lv}`, { x: [xs], y: [ys], name: [name] });
    }
  }

  _status(t) {
    const { lane } = this;
    const i = lane.event(t);
    let text = `step ${count(t)} of ${count(lane.E)} · epoch ${lane.epochAt(t) + 1}`;
    if (i !== null && lane.M === 1) text += ` · updates so far ${count(lane.row(t))}`;
    if (this.singleLine) {
      const [w1, w2, th] = lane.hypothesis(lane.row(t));
      if (w1 === 0 && w2 === 0) text += " · w = 0: no line yet, every score is −θ";
      else if (!lineSegment(w1, w2, th, this.box)) text += " · the line ⟨w,x⟩ = θ is outside the view";
    }
    if (i !== null && lane.kindAt(i) === BLOCKED) text += " · blocked by the α-bound";
    return this.title ? `${plotlyText(this.title, 60)} · ${text}` : text;
  }

  /** w from the line, and after an update the old w and the update Δw. */
  _arrows(t) {
    const { lane, box, style } = this;
    if (!this.show.arrows || !this.singleLine || lane.event(t) === null) return [];
    const [w1, w2, th] = lane.hypothesis(lane.row(t));
    const [o1, o2] = lane.hypothesis(lane.rowBefore(t));
    const centre = [(box[0] + box[1]) / 2, (box[2] + box[3]) / 2];
    const length = 0.22 * Math.hypot(box[1] - box[0], box[3] - box[2]);
    const norm = Math.max(Math.hypot(w1, w2), Math.hypot(o1, o2));
    if (norm === 0) return [];
    const scale = length / norm;
    let foot = w1 || w2 ? anchor(w1, w2, th, centre) : centre;
    if (!inBox(foot, box)) foot = centre; // the line is out of view: draw w from the middle
    const tip = [foot[0] + scale * w1, foot[1] + scale * w2];
    const out = [];
    if (lane.isUpdate(t) && (o1 || o2)) {
      const old = [foot[0] + scale * o1, foot[1] + scale * o2];
      out.push(arrow(foot, old, style.colors.old, "w old", style));
      out.push(arrow(old, tip, style.colors.update, "Δw = update", style));
    }
    out.push(arrow(foot, tip, style.colors.line, "w", style));
    return out;
  }

  // -- hover: the per-point numbers, refreshed once the steps pause ---------------------

  _scheduleHover(t) {
    clearTimeout(this._hoverTimer);
    this._hoverTimer = setTimeout(() => this._hover(t), 250);
  }

  _hover(t) {
    const counts = this.lane.counts(t);
    const own = this.lane.M === 1 ? this.ownField.scores(t, "last") : null;
    const data = [], traces = [];
    for (const label of [-1, 1]) {
      const rows = this[`rows${label}`];
      if (!rows) continue;
      data.push(rows.map((j) => `<br>updates caused: ${counts[j]}` + (own ? `<br>score ⟨w,x⟩−θ = ${num(own[j], 3)}` : "")));
      traces.push(this.slots[`train${label}`]);
    }
    Plotly.restyle(this.node, { customdata: data }, traces);
  }
}

const STATIC = new Set(["train-1", "train1", "test-1", "test1", "flips", "target"]);

function xyLine([w1, w2, th], box) {
  const [x, y] = segmentXY(lineSegment(w1, w2, th, box));
  return { x: [x], y: [y] };
}

function arrow(tail, head, color, text, style) {
  return {
    x: head[0], y: head[1], ax: tail[0], ay: tail[1], xref: "x", yref: "y", axref: "x", ayref: "y",
    showarrow: true, arrowhead: 2, arrowsize: 1.2, arrowwidth: style.line.arrow, arrowcolor: color,
    text, font: { color, size: style.font.arrow }, bgcolor: "rgba(255,255,255,0.75)",
    xanchor: "left", yanchor: "bottom",
  };
}
