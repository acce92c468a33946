// The 2-D picture of one lane: points, decision region, line, margin band,
// arrows, the current example and the marks of the λ-trick, the α-bound,
// noise, the voted ensemble and the committee's categories.
//
// Why shapes and an image: a Plotly restyle of any trace redraws every trace
// (too slow to step at; docs/benchmarks.md),
// while a relayout of the layout's shapes or images redraws only those. So
// everything that moves at every step is a shape — lines, the margin band,
// the zero level of a voted or kernel score, the ensemble, the arrows, the
// ring on the current example — the decision region is one layout image (the
// scores on a grid painted into a canvas, which the browser smooths when it
// scales it), and the status line is HTML above the plot. Traces (the marks
// of points) are restyled only when they change: at updates, mostly. The
// voted region also changes when only the current hypothesis's votes grow;
// that waits until the steps pause for REDRAW_DELAY_MS. While playing, a
// grid region scored from checkpoints (voted, kernel) is redrawn at most every
// REDRAW_MAX_AGE_MS (the lines and marks follow every step). Hovering a point
// shows its numbers at the step in a tooltip of our own, so no step has to
// restyle the points. Legend entries of shapes come from empty traces.

import { paintedRegion, pixelRing, pixelShape, segmentShape } from "./chartlayout.js";
import { Field, Points, pointsField } from "./fields.js";
import { anchor, clipHalfplanes, inBox, lineSegment, zeroLevel } from "./geometry.js";
import { count, cut, num, plotlyText, signed, wrapWords } from "./format.js";
import { BLOCKED, RESCUED } from "./timeline.js";
import { newPinnedPlot } from "./dom.js";
import { FigureWords } from "./describe.js";
import { FigureKeys } from "./figurekeys.js";
import { SideLabels } from "./sidelabels.js";
import {
  cellShapes,
  classAnchors,
  classArrows,
  classImage,
  classPointsTrace,
  classWord,
  rowsByClass,
} from "./classesfigure.js";

const DASHES = ["solid", "dash", "dot", "dashdot"];
/** Shades of the region's colour scale painted into its image. */
const TINT_LEVELS = 256;
/** A tooltip the pointer left stays this long, so the pointer can move onto it (WCAG 1.4.13). */
const TOOLTIP_GRACE_MS = 400;
/** A voted region that only gained votes is redrawn this long after the last step... */
const REDRAW_DELAY_MS = 150;
/** While playing, a grid region (voted, kernel) is redrawn at most this often. */
const REDRAW_MAX_AGE_MS = 400;

/** "benign (−1)", or just "−1" when the class has no other name. */
export function className(names, label) {
  const raw = String(names[label < 0 ? 0 : 1]);
  const sign = signed(label);
  return raw.replace("-", "−") === sign ? sign : `${plotlyText(cut(raw))} (${sign})`;
}

export class PlaneFigure {
  /**
   * @param {HTMLElement} node  the figure's box: a status line, the plot and its words go in it
   * @param {object} o  {lane, scene, show, style, config, height, box, clickable, title, texts}
   */
  constructor(node, o) {
    Object.assign(this, o);
    this.status = document.createElement("div");
    this.status.className = "status";
    this.node = document.createElement("div");
    this.node.className = "plot";
    node.replaceChildren(this.status, this.node);
    const { lane, scene } = o;
    this.X = scene.arrays.X;
    this.y = scene.arrays.y;
    const meta = lane.meta;
    this.classes = lane.classes; // several classes learned together: a region per class
    this.mode = meta.has_modes && (meta.draws_line || this.classes) ? meta.mode : "last";
    this.contour = meta.boundary === "contour"; // a kernel: the zero level of its score
    this.settings = meta.settings;
    this.singleLine = meta.draws_line && lane.M === 1 && meta.hypotheses === "plane";
    this.votedRegion = this.mode === "voted" || (o.show.ensemble && meta.has_modes && !this.classes);
    // a line's scores on the grid follow from its (w, θ); the voted vote and a kernel are scored
    // from the run's checkpoints, and their boundary is the zero level of those scores
    this.gridRegion =
      this.contour || this.mode === "voted" || (o.show.region && (this.votedRegion || !this.singleLine));
    if (this.gridRegion || o.show.region) {
      const g = o.style.grid;
      const res = this.contour ? g.kernel : this.votedRegion ? g.voted : g.region;
      this.grid = Points.grid(this.box, res, res);
      this.tints = tintTable(o.style.colors.region);
    }
    if (this.gridRegion) {
      this.gridField = new Field(lane, this.grid, this.X);
      this.gridMode = this.contour ? "last" : this.votedRegion ? "voted" : this.mode;
    }
    this.zeroLine = !this.classes && (this.contour || this.mode === "voted");
    this.ownField = pointsField(lane, this.X, this.X);
    this.keys = {};
    this._build();
    this.sides = new SideLabels(this.node, o.style);
    this.words = new FigureWords(this, o.texts);
    node.append(this.words.node);
    this.walkShapes = [];
    this.walk = new FigureKeys(this);
  }

  // -- the figure's traces ---------------------------------------------------------

  _build() {
    const { lane, scene, show, style } = this;
    const c = style.colors,
      mk = style.marker,
      ln = style.line;
    const traces = [];
    this.slots = {};
    const slot = (name, trace) => {
      this.slots[name] = traces.length;
      traces.push(trace);
    };
    const legendOnly = (name, extra) => ({ type: "scatter", x: [null], y: [null], name, hoverinfo: "skip", ...extra });
    if (this.zeroLine) {
      const name = this.contour ? "decision boundary f(x) = 0" : "voted boundary (the vote = 0)";
      traces.push(legendOnly(name, { mode: "lines", line: { color: c.line, width: ln.boundary } }));
    }
    this.band = this.settings.band && show.band && this.singleLine && this.mode === "last";
    if (this.band) {
      traces.push(
        legendOnly("margin band (updates inside)", {
          mode: "lines",
          fill: "toself",
          fillcolor: c.band,
          line: { color: c.band_edge, width: 1, dash: "dot" },
        }),
      );
    }
    this.ensemble = show.ensemble && lane.meta.has_modes && this.singleLine;
    if (this.ensemble) {
      // no more lines than the run stored (hypothesis 0, w = 0, never draws)
      const drawn = Math.min(style.ensemble.lines, Math.max(lane.H - 1, 0));
      traces.push(
        legendOnly(`stored hypotheses (the ${drawn} with most votes)`, {
          mode: "lines",
          line: { color: c.ensemble, width: ln.ensemble },
        }),
      );
    }
    if (this.singleLine && this.mode !== "voted") {
      // "(last)" only where there are other predictors to tell it from
      const name = lane.meta.has_modes ? `boundary (${this.mode})` : "boundary";
      traces.push(legendOnly(name, { mode: "lines", line: { color: c.line, width: ln.boundary } }));
    }
    if (lane.meta.draws_line && lane.M > 1) {
      for (let mm = 0; mm < lane.M; mm++) {
        traces.push(
          legendOnly(`member ${mm + 1}`, {
            mode: "lines",
            line: { color: c.line, dash: DASHES[mm % 4], width: ln.member },
          }),
        );
      }
    }
    this.averagedLine = this.singleLine && show.averaged && lane.meta.has_modes && this.mode !== "averaged";
    if (this.averagedLine)
      traces.push(
        legendOnly("averaged", { mode: "lines", line: { color: c.averaged, dash: "dash", width: ln.other } }),
      );
    this.longestLine = this.singleLine && show.longest && lane.meta.has_modes && this.mode !== "longest";
    if (this.longestLine)
      traces.push(
        legendOnly("longest survivor", {
          mode: "lines",
          line: { color: c.longest, dash: "dashdot", width: ln.boundary },
        }),
      );
    if (show.target && scene.target) {
      const seg = lineSegment(scene.target.w[0], scene.target.w[1], scene.target.theta, this.box);
      slot("target", {
        type: "scatter",
        x: seg ? [seg[0][0], seg[1][0]] : [],
        y: seg ? [seg[0][1], seg[1][1]] : [],
        mode: "lines",
        name: "true boundary",
        line: { color: c.line, dash: "dash", width: ln.target },
        hoverinfo: "name",
      });
    }
    if (this.classes) {
      traces.push(
        legendOnly("borders of the classes' regions", {
          mode: "lines",
          line: { color: c.line, width: ln.member },
        }),
      );
      if (show.arrows) {
        // at an update the two moved are thick, their old w grey (the figure's words say so)
        traces.push(
          legendOnly("w of each class (arrows)", { mode: "lines", line: { color: c.line, width: ln.arrow } }),
        );
      }
      this.classRows = rowsByClass(scene.arrays.classes, lane.M);
      this.classRows.forEach((rows, k) => {
        if (rows.length) slot(`class${k}`, classPointsTrace(this, k, rows, this.X, false));
      });
      if (show.test_points && scene.arrays.classes_test.length) {
        rowsByClass(scene.arrays.classes_test, lane.M).forEach((rows, k) => {
          if (rows.length) slot(`test_class${k}`, classPointsTrace(this, k, rows, scene.arrays.X_test, true));
        });
      }
    }
    for (const label of this.classes ? [] : [-1, 1]) {
      const rows = [];
      for (let j = 0; j < this.y.length; j++) if (this.y[j] === label) rows.push(j);
      if (!rows.length) continue;
      slot(`train${label}`, this._pointsTrace(rows, label, " train", false, mk.point));
      this[`rows${label}`] = rows;
    }
    const Xt = scene.arrays.X_test,
      yt = scene.arrays.y_test;
    if (show.test_points && yt.length && !this.classes) {
      for (const label of [-1, 1]) {
        const rows = [];
        for (let j = 0; j < yt.length; j++) if (yt[j] === label) rows.push(j);
        if (!rows.length) continue;
        slot(`test${label}`, {
          ...this._pointsTrace([], label, " test", true, mk.test),
          x: rows.map((j) => Xt[2 * j]),
          y: rows.map((j) => Xt[2 * j + 1]),
        });
      }
    }
    if (this.settings.alpha !== null && this.settings.alpha !== undefined) {
      slot(
        "capped",
        this._overlay(`used up its α-bound (${this.settings.alpha}): ignored`, "circle", c.capped, mk.capped, 0),
      );
    }
    const flipped = scene.arrays.flipped;
    if (show.flips && flipped.some((f) => f)) {
      const rows = [];
      for (let j = 0; j < flipped.length; j++) if (flipped[j]) rows.push(j);
      slot("flips", {
        ...this._overlay("label flipped by noise", "x-thin-open", c.line, mk.flip, 2),
        ...this._xy(rows),
      });
    }
    this.lamRings = this.settings.lam > 0 && this.settings.lam_form === "kw"; // not PAUM's λ
    if (this.lamRings) {
      slot("rings", this._overlay("forced an update (λ push on)", "circle-open", c.rings, mk.ring, 1.5));
      slot(
        "rescued",
        this._overlay("rescued by the λ push (no update)", "cross-thin-open", c.rescued, mk.rescued, 2.5),
      );
    }
    if (this.contour) {
      slot("support", this._overlay("support points (a_j > 0)", "circle-open", c.line, mk.ring, 1.5));
    }
    const category = lane.get("category");
    if (category && show.categories) {
      const of = (code) => {
        const r = [];
        for (let j = 0; j < category.length; j++) if (category[j] === code) r.push(j);
        return r;
      };
      slot("noisy", {
        ...this._overlay("flagged noisy (after training)", "square-open", c.noisy, mk.category, 2.5),
        ...this._xy(of(2)),
        visible: false,
      });
      slot("borderline", {
        ...this._overlay("borderline (after training)", "circle-open", c.borderline, mk.category - 1, 1.5),
        ...this._xy(of(1)),
        visible: false,
      });
    }
    traces.push(
      legendOnly("current example", {
        mode: "markers",
        marker: {
          symbol: "circle-open",
          size: mk.current,
          color: c.current,
          line: { width: ln.current, color: c.current },
        },
      }),
    );
    this.legendNames = traces.map((trace) => trace.name);
    const width = this.node.clientWidth;
    for (const trace of traces) trace.name = this._legendName(trace.name, width);
    newPinnedPlot(this.node, traces, this._layout(), this.config, (now) => this._fitLegend(now));
    this._listenForHover();
  }

  /**
   * Whether the legend goes beside a plot `width` px wide: the plot area is square, so where the
   * column is wider than tall the legend costs no height there (a window's height is the scarce
   * one); else it goes under the x-axis title.
   */
  _legendBeside(width) {
    return width > this.height + 220;
  }

  /** A legend entry's name, wrapped where the legend runs under a plot `width` px wide. */
  _legendName(name, width) {
    if (!name || this._legendBeside(width)) return name; // beside the plot: no wrapping
    const chars = Math.max(10, Math.floor((width - 50) / (0.56 * this.style.font.legend)));
    return wrapWords(name, chars);
  }

  /**
   * Draw the figure `height` px tall (the window was resized), with its legend beside the plot or
   * under it as a figure drawn at that height and width would have it.
   */
  setHeight(height) {
    if (Math.abs(height - this.height) < 1) return;
    this.height = height;
    Plotly.relayout(this.node, { height, legend: this._legend() });
    this._fitLegend(this.node.clientWidth);
  }

  /** The legend's place: beside the plot as wide as it is now, or under it (_legendBeside). */
  _legend() {
    const size = this.style.font.legend;
    return this._legendBeside(this.node.clientWidth)
      ? { orientation: "v", yanchor: "top", y: 1, xanchor: "left", x: 1.02, font: { size } }
      : { orientation: "h", yanchor: "top", y: -90 / (this.height - 50), x: 0, font: { size } };
  }

  /** Re-wrap the legend after the plot was resized (compare mode's panels, a narrower window). */
  _fitLegend(width) {
    const changed = [],
      names = [];
    this.legendNames.forEach((name, i) => {
      const wrapped = this._legendName(name, width);
      if (wrapped === this.node.data[i].name) return;
      changed.push(i);
      names.push(wrapped);
    });
    if (changed.length) Plotly.restyle(this.node, { name: names }, changed);
  }

  _xy(rows) {
    return { x: rows.map((j) => this.X[2 * j]), y: rows.map((j) => this.X[2 * j + 1]) };
  }

  _pointsTrace(rows, label, suffix, hollow, size) {
    const c = this.style.colors;
    // a hollow +1 mark has no dark edge: its outline is the darkened orange (WCAG 1.4.11)
    const color = label < 0 ? c.negative : hollow ? c.positive_hollow : c.positive;
    const symbol = (label < 0 ? "circle" : "diamond") + (hollow ? "-open" : "");
    return {
      type: "scatter",
      mode: "markers",
      ...this._xy(rows),
      name: className(this.scene.class_names, label) + suffix,
      // the +1 diamonds' orange is pale against the tints: a dark edge makes the mark (WCAG 1.4.11)
      marker: {
        symbol,
        size,
        color,
        line: hollow
          ? { width: 1.6, color }
          : label < 0
            ? { width: 0.6, color: "white" }
            : { width: 1, color: c.positive_edge },
      },
      hoverinfo: hollow ? "x+y+name" : "none", // training points: our tooltip (see _listenForHover)
    };
  }

  _overlay(name, symbol, color, size, width) {
    return {
      type: "scatter",
      mode: "markers",
      x: [],
      y: [],
      name,
      hoverinfo: "name",
      marker: { symbol, size, color, line: { width, color } },
    };
  }

  _layout() {
    const { style, box, height, scene } = this;
    const f = style.font;
    const axis = { zeroline: false, gridcolor: style.colors.grid, linecolor: style.colors.grid, automargin: true };
    return {
      height,
      margin: { l: 50, r: 10, t: 10, b: 10 },
      plot_bgcolor: "white",
      paper_bgcolor: "white",
      font: { family: f.family, size: f.axis },
      xaxis: {
        ...axis,
        range: [box[0], box[1]],
        constrain: "domain",
        title: { text: plotlyText(scene.feature_names[0]), standoff: 4 },
      },
      yaxis: {
        ...axis,
        range: [box[2], box[3]],
        scaleanchor: "x",
        scaleratio: 1,
        constrain: "domain",
        title: { text: plotlyText(scene.feature_names[1]) },
      },
      legend: this._legend(),
      modebar: { orientation: "v" },
      shapes: [],
      uirevision: "plane",
      dragmode: this.clickable ? false : "zoom",
    };
  }

  // -- one step ----------------------------------------------------------------------

  /** Everything that depends on t: the shapes now (one relayout), the traces that changed soon. */
  update(t, playing = false) {
    const { lane } = this;
    t = lane.clip(t);
    this.t = t;
    const regionChanged = this._refreshRegion(t, playing);
    const shapes = [];
    if (this.singleLine) {
      const [w1, w2, th] = lane.hypothesis(lane.row(t));
      if (this.band) shapes.push(...this._band([w1, w2, th]));
      if (this.ensemble) shapes.push(...this._ensemble(t));
      if (this.mode !== "voted")
        shapes.push(
          ...this._line(lane.linearPredictor(t, this.mode), this.style.colors.line, "solid", this.style.line.boundary),
        );
      if (this.averagedLine)
        shapes.push(
          ...cased(this._line(lane.averaged(t), this.style.colors.averaged, "dash", this.style.line.other), this.style),
        );
      if (this.longestLine)
        shapes.push(
          ...cased(
            this._line(
              lane.hypothesis(lane.longestRow(t)),
              this.style.colors.longest,
              "dashdot",
              this.style.line.boundary,
            ),
            this.style,
          ),
        );
    } else if (this.classes && this.mode !== "voted") {
      const [W, b] = lane.classPredictor(t, this.mode);
      shapes.push(...cellShapes(this, W, b));
    } else if (this.lane.meta.draws_line && lane.M > 1) {
      for (let mm = 0; mm < lane.M; mm++) {
        shapes.push(
          ...this._line(
            lane.hypothesis(lane.row(t), mm),
            this.style.colors.line,
            DASHES[mm % 4],
            this.style.line.member,
          ),
        );
      }
    }
    shapes.push(...(this.classes ? classArrows(this, t, (...a) => this._arrow(...a)) : this._arrows(t)));
    const i = lane.event(t);
    if (i !== null) shapes.push(...this._ring(lane.index[i]));
    this.status.textContent = this._status(t); // after the ensemble: it counts the voters
    this.stepShapes = shapes;
    Plotly.relayout(this.node, this._regionLayout(regionChanged));
    this._traces(t);
    this.words?.update(t, playing);
  }

  /** The relayout of this step's shapes, with the region's image and zero level if they changed. */
  _regionLayout(regionChanged) {
    const shapes = [...this.stepShapes, ...(this.markShapes || []), ...this.walkShapes];
    const patch = { shapes: this.regionShape ? [this.regionShape, ...shapes] : shapes };
    if (regionChanged && this.regionImage) patch.images = [this.regionImage];
    return patch;
  }

  /**
   * Repaint the region when its hypothesis changed; returns whether it did. Grid regions scored
   * from checkpoints wait while playing (REDRAW_MAX_AGE_MS) and for votes-only changes
   * (REDRAW_DELAY_MS, then one relayout of their own).
   */
  _refreshRegion(t, playing) {
    if (!this.grid) return false;
    clearTimeout(this._regionTimer);
    const { lane } = this;
    const row = lane.row(t);
    // the vote, and for several classes the averaged and longest machines, change with votes too
    const votes = this.gridMode === "voted" || (this.classes && this.gridMode !== "last");
    const key = votes ? `${row}:${lane.currentVotes(t)}` : `${row}`;
    if (this.regionKey === key) return false;
    const age = performance.now() - (this._regionAt ?? -Infinity);
    const due = !this.gridRegion || (playing ? age > REDRAW_MAX_AGE_MS : this.regionRow !== row);
    if (due) {
      this._paintRegion(t, key);
      return true;
    }
    this._regionTimer = setTimeout(() => {
      this._paintRegion(t, key);
      Plotly.relayout(this.node, this._regionLayout(true));
    }, REDRAW_DELAY_MS);
    return false;
  }

  _paintRegion(t, key) {
    this.regionKey = key;
    this.regionRow = this.lane.row(t);
    this._regionAt = performance.now();
    const [xs, ys] = this.grid.axes;
    if (this.classes) {
      if (!this.show.region) return;
      const given = this.gridField.scores(t, this.gridMode);
      this.regionImage = classImage(this, given, xs.length, ys.length);
      const perClass = this.gridField.classScores(t, this.gridMode);
      this.sides.place(classAnchors(this, perClass, this.lane.M, xs, ys));
      return;
    }
    const { scores, scale } = this._regionScores(t);
    if (this.show.region) {
      this.regionImage = this._image(scores, scale, xs.length, ys.length);
      this.sides.place(sideAnchors(scores, xs, ys));
    }
    if (this.zeroLine) {
      const path = zeroLevel(scores, xs, ys);
      this.regionShape = path
        ? {
            type: "path",
            xref: "x",
            yref: "y",
            path,
            name: "boundary",
            line: { color: this.style.colors.line, width: this.style.line.boundary },
            layer: "above",
          }
        : null;
    }
  }

  /** Restyle the traces whose content changed since the last step (one call). */
  _traces(t) {
    const { lane } = this;
    const patch = {};
    const set = (name, key, values) => {
      if (!(name in this.slots) || this.keys[name] === key) return;
      this.keys[name] = key;
      patch[name] = values;
    };
    const counts = lane.counts(t);
    if ("capped" in this.slots) this._setRows(set, "capped", (j) => counts[j] >= this.settings.alpha);
    if (this.lamRings) {
      this._setRows(set, "rings", (j) => counts[j] > 0);
      const rescued = lane.latestOfKind(t, RESCUED).sort((a, b) => a - b);
      set("rescued", rescued.join(","), {
        x: [rescued.map((j) => this.X[2 * j])],
        y: [rescued.map((j) => this.X[2 * j + 1])],
      });
    }
    if ("support" in this.slots) this._setRows(set, "support", (j) => counts[j] > 0);
    if ("noisy" in this.slots) {
      const atEnd = t === lane.E;
      set("noisy", atEnd, { visible: [atEnd] });
      set("borderline", atEnd, { visible: [atEnd] });
    }
    const names = Object.keys(patch);
    if (!names.length) return;
    const keys = [...new Set(names.flatMap((n) => Object.keys(patch[n])))];
    const data = {};
    for (const key of keys) data[key] = names.map((n) => (key in patch[n] ? patch[n][key][0] : undefined));
    Plotly.restyle(
      this.node,
      data,
      names.map((n) => this.slots[n]),
    );
  }

  _setRows(set, name, keep) {
    const rows = [];
    for (let j = 0; j < this.y.length; j++) if (keep(j)) rows.push(j);
    set(name, rows.join(","), { x: [rows.map((j) => this.X[2 * j])], y: [rows.map((j) => this.X[2 * j + 1])] });
  }

  /** The scores on the grid at t and the score that gets the deepest tint. */
  _regionScores(t) {
    let scores;
    if (this.gridRegion) {
      scores = this.gridField.scores(t, this.gridMode);
    } else {
      const [w1, w2, th] = this.lane.linearPredictor(t, this.mode);
      const { x, y, n } = this.grid;
      scores = this._lineScores ??= new Float64Array(n);
      for (let p = 0; p < n; p++) scores[p] = w1 * x[p] + w2 * y[p] - th;
    }
    let peak = 0;
    for (let p = 0; p < scores.length; p++) peak = Math.max(peak, Math.abs(scores[p]));
    // the vote's tint follows its own scale; a line's or a kernel's deepens away from its boundary
    return { scores, scale: this.votedRegion && this.gridRegion ? Math.max(peak, 1) : 0.5 * peak || 1 };
  }

  /** The scores as one layout image over the box: a pixel per grid point, y up. */
  _image(scores, scale, nx, ny) {
    return paintedRegion(this, this.box, nx, ny, (p) => {
      const v = Math.max(-1, Math.min(1, scores[p] / scale));
      return this.tints[Math.round(((v + 1) / 2) * (TINT_LEVELS - 1))];
    });
  }

  // -- shapes --------------------------------------------------------------------------

  _line([w1, w2, th], color, dash, width, opacity = 1) {
    const seg = lineSegment(w1, w2, th, this.box);
    return seg ? [segmentShape(seg, { color, dash, width }, opacity)] : [];
  }

  _path(poly, fillcolor) {
    if (poly.length < 3) return null;
    const d = `${poly.map((p, k) => `${k ? "L" : "M"}${p[0]},${p[1]}`).join("")}Z`;
    return { type: "path", xref: "x", yref: "y", path: d, fillcolor, line: { width: 0 }, layer: "below" };
  }

  _band([w1, w2, th]) {
    const [lo, hi] = this.settings.band;
    if (w1 === 0 && w2 === 0) return [];
    const shape = this._path(
      clipHalfplanes(this.box, [
        [w1, w2, th + hi],
        [-w1, -w2, -(th + lo)],
      ]),
      this.style.colors.band,
    );
    if (!shape) return [];
    // the fill is too faint to see against the tints: its two edges are drawn (WCAG 1.4.11)
    const edge = (level) => this._line([w1, w2, level], this.style.colors.band_edge, "dot", 1.5);
    return [shape, ...edge(th + hi), ...edge(th + lo)];
  }

  /** The stored hypotheses with most votes at t, opacity by votes. */
  _ensemble(t) {
    const { lane, style } = this;
    const r = lane.row(t),
      limit = style.ensemble.lines,
      levels = style.ensemble.levels;
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
    this.voting = voting;
    const most = top.length ? top[0][0] : 1;
    // opacity rounded up to one of `levels` steps, as the legend's swatch shows them
    return top.flatMap(([v, k]) =>
      this._line(
        lane.hypothesis(k),
        style.colors.ensemble,
        "solid",
        style.line.ensemble,
        0.15 + (0.85 * Math.ceil((levels * v) / most)) / levels,
      ),
    );
  }

  /** The current example's ring, over a dark halo that sets it off from any tint. */
  _ring(j) {
    const { style } = this;
    const [x, y, r] = [this.X[2 * j], this.X[2 * j + 1], style.marker.current / 2];
    const ring = pixelRing(x, y, r, { color: style.colors.current, width: style.line.current });
    return [{ ...ring, line: { color: style.colors.current_edge, width: style.line.current + 3 } }, ring];
  }

  _status(t) {
    const { lane } = this;
    const i = lane.event(t);
    let text = `step ${count(t)} of ${count(lane.E)} · epoch ${lane.epochAt(t) + 1}`;
    if (i !== null && (lane.M === 1 || this.classes)) text += ` · updates so far ${count(lane.row(t))}`;
    if (this.singleLine) {
      const [w1, w2, th] = lane.hypothesis(lane.row(t));
      if (w1 === 0 && w2 === 0) text += " · w = 0: no line yet, every score is −θ";
      else if (!lineSegment(w1, w2, th, this.box)) text += " · the line ⟨w,x⟩ = θ is outside the view";
    }
    if (i !== null && lane.kindAt(i) === BLOCKED) text += " · blocked by the α-bound";
    if (this.ensemble) {
      text += ` · ${count(this.voting)} hypotheses vote, the ${count(Math.min(this.voting, this.style.ensemble.lines))} with most votes drawn`;
    }
    return this.title ? `${cut(this.title, 60)} · ${text}` : text;
  }

  /** w from the line, and after an update the old w and the update Δw (lines with heads). */
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
      out.push(...this._arrow(foot, old, style.colors.old, "w old"));
      // Δw's vermillion is pale on the tints: a casing under its shaft, a dark edge on its head
      const [shaft, headShape] = this._arrow(old, tip, style.colors.update, "Δw = update");
      if (shaft) out.push(...cased([shaft], style), { ...headShape, line: { color: style.colors.text, width: 1 } });
    }
    out.push(...this._arrow(foot, tip, style.colors.line, "w"));
    return out;
  }

  _arrow(tail, head, color, text, width = this.style.line.arrow) {
    const { style } = this;
    const L = this.node._fullLayout;
    // data units per pixel on each axis: the head keeps its size in pixels at any zoom
    const px = L?.xaxis._m ? [1 / L.xaxis._m, 1 / Math.abs(L.yaxis._m)] : [0.01, 0.01];
    const dx = (head[0] - tail[0]) / px[0],
      dy = (head[1] - tail[1]) / px[1];
    const len = Math.hypot(dx, dy);
    if (len < 1) return [];
    const ux = dx / len,
      uy = dy / len,
      size = 4 + 2.5 * width;
    const corner = (side) => [
      head[0] - (size * ux - side * 0.5 * size * uy) * px[0],
      head[1] - (size * uy + side * 0.5 * size * ux) * px[1],
    ];
    const [a, b] = [corner(1), corner(-1)];
    return [
      {
        // the shaft stops short of the tip: the head's point stays sharp
        ...segmentShape([tail, [head[0] - 0.8 * size * ux * px[0], head[1] - 0.8 * size * uy * px[1]]], {
          color,
          width,
        }),
        label: {
          text,
          textposition: "end",
          textangle: 0,
          font: { color: style.colors.text, size: style.font.arrow },
          padding: 8,
        },
      },
      {
        type: "path",
        xref: "x",
        yref: "y",
        path: `M${head[0]},${head[1]}L${a[0]},${a[1]}L${b[0]},${b[1]}Z`,
        fillcolor: color,
        line: { color, width: 1 },
        layer: "above",
      },
    ];
  }

  // -- predict mode's marks (predict.js) ------------------------------------------------

  /**
   * Draw a question's marks over the step, or none (null): `points` [{x, y, text}] ringed and
   * named, `lines` [{line: [w1, w2, θ], text}] dashed and lettered, `rings` [{at: [x, y], text,
   * old, guess}] where w is, was or is guessed to be.
   */
  setMarks(marks) {
    this.markShapes = marks ? this._markShapes(marks) : [];
    if (this.stepShapes) Plotly.relayout(this.node, this._regionLayout(false));
  }

  _markShapes({ points = [], lines = [], rings = [] }) {
    const { style } = this;
    const color = style.colors.question;
    const font = { color: style.colors.text, size: style.font.arrow + 1 };
    const out = [];
    // a ring's name sits at the end of a short leader, off the ring and the point under it
    const named = (x, y, r, text, side) => ({
      ...pixelShape("line", x, y, [side * 0.7 * r, 0.7 * r, side * (r + 10), r + 10], { color, width: 1.5 }),
      label: { text, textposition: "end", textangle: 0, font, padding: 3 },
    });
    for (const { x, y, text } of points) {
      const r = style.marker.current / 2 + 5;
      out.push(pixelRing(x, y, r, { color, width: 2.5, dash: "dot" }), named(x, y, r, text, 1));
    }
    // each line's letter on the line itself, at its own place along it (the ends may be clipped)
    const places = [0.2, 0.5, 0.8];
    lines.forEach(({ line, text }, n) => {
      const seg = lineSegment(line[0], line[1], line[2], this.box);
      if (!seg) return;
      const shape = segmentShape(seg, { color, dash: "dash", width: style.line.boundary - 0.5 });
      const at = (share) => [seg[0][0] + share * (seg[1][0] - seg[0][0]), seg[0][1] + share * (seg[1][1] - seg[0][1])];
      const f = places[n % places.length];
      out.push(...cased([shape], style), shape, {
        ...segmentShape([at(f - 0.001), at(f + 0.001)], { color, width: 0 }),
        label: {
          text: `<b>${text}</b>`,
          textposition: "middle",
          textangle: 0,
          padding: 10,
          font: { ...font, size: font.size + 4 },
        },
      });
    });
    for (const { at, text, old, guess } of rings) {
      const r = guess ? 7 : 9;
      const ring = pixelRing(at[0], at[1], r, {
        color: old ? style.colors.old : color,
        width: guess ? 3 : 2.5,
        dash: guess ? "solid" : "dot",
      });
      out.push(ring, named(at[0], at[1], r, text, guess ? -1 : 1));
    }
    return out;
  }

  /** The data coordinates [x, y] of a click on the plot's area, or null (a click elsewhere). */
  dataAt(event) {
    return clickedAt(this.node, event);
  }

  /** Frame the point the keyboard walked to (figurekeys.js) with `shapes`, over this step's. */
  frame(shapes) {
    this.walkShapes = shapes;
    if (this.stepShapes) Plotly.relayout(this.node, this._regionLayout(false));
  }

  /** The status line goes into the exported image as its title. */
  exportTitle() {
    return this.status.textContent;
  }

  // -- hover: a point's numbers at the step, in a tooltip of our own ----------------

  /** Hide the point's tooltip (Escape, main.js). */
  dismiss() {
    if (this.tip) this.tip.hidden = true;
  }

  /** The training row under the pointer in a Plotly hover event, or null. */
  _hoveredRow(event) {
    for (const p of event.points) {
      if (this.classes) {
        const k = this.classRows.findIndex((_, c) => this.slots[`class${c}`] === p.curveNumber);
        if (k >= 0) return this.classRows[k][p.pointIndex];
      } else if (p.curveNumber === this.slots.train1) return this.rows1[p.pointIndex];
      else if (p.curveNumber === this.slots["train-1"]) return this["rows-1"][p.pointIndex];
    }
    return null;
  }

  /**
   * The tooltip stays while the pointer is on it and a moment after the point is left, so that
   * the pointer can reach it; Escape closes it (WCAG 1.4.13). The same numbers are in the
   * "Points at this step" table, for the keyboard.
   */
  _listenForHover() {
    const tip = document.createElement("div");
    this.tip = tip;
    tip.className = "tooltip";
    tip.hidden = true;
    this.node.parentElement.append(tip);
    let timer = null,
      onTip = false;
    tip.addEventListener("pointerenter", () => {
      onTip = true;
      clearTimeout(timer);
    });
    tip.addEventListener("pointerleave", () => {
      onTip = false;
      tip.hidden = true;
    });
    this.node.on("plotly_hover", (event) => {
      const j = this._hoveredRow(event);
      if (j === null) return;
      const t = this.t ?? 0;
      const label = this.classes ? classWord(this.scene, this.scene.arrays.classes[j]) : `y = ${signed(this.y[j])}`;
      const lines = [
        `example #${j + 1}: x = (${num(this.X[2 * j], 3)}, ${num(this.X[2 * j + 1], 3)}), ${label}`,
        `updates caused so far: ${this.lane.counts(t)[j]}`,
      ];
      if (this.lane.M === 1) lines.push(`score ⟨w,x⟩ − θ = ${num(this.ownField.scores(t, "last")[j], 3)}`);
      if (this.classes) {
        const K = this.lane.M,
          s = this.ownField.classScores(t, this.mode === "voted" ? "last" : this.mode);
        const scores = Array.from({ length: K }, (_, c) => `${this.scene.class_list[c]} ${num(s[j * K + c], 3)}`);
        lines.push(`scores ⟨w_k,x⟩ + b_k: ${scores.join(", ")}`);
      }
      tip.textContent = lines.join("\n");
      const box = this.node.getBoundingClientRect();
      tip.style.left = `${Math.max(0, Math.min(event.event.clientX - box.left + 14, box.width - 240))}px`;
      tip.style.top = `${event.event.clientY - box.top + 40}px`;
      clearTimeout(timer);
      tip.hidden = false;
    });
    this.node.on("plotly_unhover", () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        if (!onTip) tip.hidden = true;
      }, TOOLTIP_GRACE_MS);
    });
  }
}

/** The data coordinates [x, y] of a click on `plot`'s area (Plotly's drag layer), or null. */
export function clickedAt(plot, event) {
  if (!event.target.classList?.contains("nsewdrag")) return null;
  const layout = plot._fullLayout;
  const rect = plot.getBoundingClientRect();
  return [
    layout.xaxis.p2d(event.clientX - rect.left - layout.xaxis._offset),
    layout.yaxis.p2d(event.clientY - rect.top - layout.yaxis._offset),
  ];
}

/**
 * Where "+1 side" and "−1 side" go on a grid of scores: each in the view's corner deepest in its
 * side, else at the grid point deepest in it; [{text, x, y, h, v}] with h, v the side of the
 * label its anchor is on ("left"/"right"/"center", "bottom"/"top"/"middle").
 */
export function sideAnchors(scores, xs, ys) {
  const nx = xs.length,
    ny = ys.length;
  const corners = [0, nx - 1, (ny - 1) * nx, ny * nx - 1];
  const deepest = (sign, points) => {
    let best = -1;
    for (const p of points) if (sign * scores[p] > 0 && (best < 0 || sign * scores[p] > sign * scores[best])) best = p;
    return best;
  };
  const out = [];
  for (const [sign, text] of [
    [1, "+1 side"],
    [-1, "−1 side"],
  ]) {
    let p = deepest(sign, corners);
    const corner = p >= 0;
    if (!corner) p = deepest(sign, scores.keys());
    if (p < 0) continue;
    const i = p % nx,
      j = Math.floor(p / nx);
    out.push({
      text,
      x: xs[i],
      y: ys[j],
      h: corner ? (i === 0 ? "left" : "right") : "center",
      v: corner ? (j === 0 ? "bottom" : "top") : "middle",
    });
  }
  return out;
}

/** Shapes drawn over a casing (the same shapes in the style's casing colour, 2 px wider). */
function cased(shapes, style) {
  const casing = shapes.map(({ label, ...shape }) => ({
    ...shape,
    opacity: 1,
    line: { ...shape.line, color: style.colors.casing, width: (shape.line?.width ?? 1) + 2 },
    ...(shape.fillcolor ? { fillcolor: style.colors.casing } : {}),
  }));
  return [...casing, ...shapes];
}

/** TINT_LEVELS RGBA colours from -1 to 1 on the colour scale, for the region's image. */
function tintTable(scale) {
  return Array.from({ length: TINT_LEVELS }, (_, k) => {
    const rgb = tintColor(scale, (2 * k) / (TINT_LEVELS - 1) - 1)
      .match(/\d+/g)
      .map(Number);
    return Uint8ClampedArray.from([...rgb, 255]);
  });
}

/** The colour of `value` in [-1, 1] on a Plotly colour scale of hex colours. */
export function tintColor(scale, value) {
  const at = (value + 1) / 2;
  for (let k = 1; k < scale.length; k++) {
    const [p0, c0] = scale[k - 1],
      [p1, c1] = scale[k];
    if (at <= p1 || k === scale.length - 1) {
      const f = p1 > p0 ? Math.max(0, Math.min(1, (at - p0) / (p1 - p0))) : 0;
      const a = hex(c0),
        b = hex(c1);
      return `rgb(${a.map((v, i) => Math.round(v + f * (b[i] - v))).join(",")})`;
    }
  }
  return scale[scale.length - 1][1];
}

function hex(color) {
  const h = color.replace("#", "");
  return [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16));
}
