// A lesson's panels beside the figure (app_logic/payload/extras.py describes them):
// numbers per time step or per hypothesis, a progress bar, a trail of values
// over the hypotheses so far, curves of stored hypotheses, the predictors'
// accuracy at the step. Labels are the lesson's own text and go in as text.

import { chartLayout, gridAxis } from "./chartlayout.js";
import { ChartWords } from "./chartwords.js";
import { el, fill } from "./dom.js";
import { count, pyFormat } from "./format.js";
import { accuracyTable, lanePredictors, snapshotAt } from "./diagnostics.js";
import { accuracy, pointsField, truthOf } from "./fields.js";

export class Extras {
  constructor(node, { lane, arrays, scene, panels, style, config }) {
    Object.assign(this, { node, lane, arrays, scene, style, config });
    this.items = [];
    const boxes = panels.map((panel) => {
      const body = el("div", {});
      const box = el("div", { class: "panel" }, el("p", { class: "panel-title" }, panel.title), body);
      for (const item of panel.items) {
        const holder = el("div", { class: `extra extra-${item.type}` });
        body.append(holder);
        // a chart without a title of its own is named by its panel (a screen reader says the name)
        this.items.push(this._make({ ...item, name: item.title || panel.title }, holder));
      }
      return box;
    });
    fill(node, ...boxes);
  }

  _value(item, t) {
    const values = this.arrays[item.values];
    if (item.per === "run") return values[0];
    if (item.per === "step") return values[t];
    return values[this.lane.row(t)];
  }

  _make(item, holder) {
    const when = (t) => visible(item.when, this.lane, t);
    if (item.type === "text") {
      const p = el("p", { class: item.caption ? "caption" : "" });
      holder.append(p);
      return (t) => {
        holder.hidden = !when(t) || (item.values !== undefined && !this._value(item, t));
        if (!holder.hidden) p.textContent = item.text.replace("{updates}", count(this.lane.row(t)));
      };
    }
    if (item.type === "value") {
      const value = el("span", { class: "extra-number" });
      holder.append(el("span", { class: "extra-label" }, item.label), value);
      return (t) => {
        holder.hidden = !when(t);
        if (!holder.hidden) value.textContent = pyFormat(this._value(item, t), item.format);
      };
    }
    if (item.type === "progress") {
      const label = el("p", { class: "caption" });
      const fillBar = el("div", { class: "bar-fill" });
      holder.append(label, el("div", { class: "bar" }, fillBar));
      return (t) => {
        holder.hidden = !when(t);
        if (holder.hidden) return;
        const value = this._value(item, t);
        label.textContent = item.label
          .replace("{value}", pyFormat(value, item.format))
          .replace("{max}", pyFormat(item.max, item.format));
        fillBar.style.width = `${Math.max(0, Math.min(1, value / item.max)) * 100}%`;
      };
    }
    if (item.type === "accuracies") return this._accuracies(holder, when);
    if (item.type === "trail") return this._trail(item, holder, when);
    if (item.type === "curves") return this._curves(item, holder, when);
    throw new Error(`unknown panel item ${item.type}`);
  }

  _chartLayout(title, xTitle, yTitle, yFormat, yRange, xFormat) {
    const { style } = this;
    return chartLayout(style, title, {
      top: 50,
      titleSize: style.font.axis + 1, // a panel is narrower than the diagnostics
      xaxis: gridAxis(style, xTitle, { tickformat: xFormat, range: xFormat ? [0, 1.03] : undefined }),
      yaxis: gridAxis(style, yTitle, { tickformat: yFormat, range: yRange || undefined }),
      legend: { orientation: "h", y: 1.02, yanchor: "bottom", x: 0, font: { size: style.font.legend - 1 } },
    });
  }

  _accuracies(holder, when) {
    const { lane, scene } = this;
    const X = scene.arrays.X;
    const parts = [["train", pointsField(lane, X, X), truthOf(lane, scene, "train")]];
    if (scene.n_test) parts.push(["test", pointsField(lane, scene.arrays.X_test, X), truthOf(lane, scene, "test")]);
    const modes = lanePredictors(lane, scene);
    return (t) => {
      holder.hidden = !when(t);
      if (holder.hidden) return;
      const rows = parts.map(([part, field, y]) => [
        part,
        modes.map((m) => accuracy(field.scores(t, m), y, lane.classes)),
      ]);
      fill(holder, accuracyTable(modes, rows));
    };
  }

  _trail(item, holder, when) {
    const node = el("div", {});
    holder.append(node);
    const series = item.series.map((s) => this.arrays[s.values]);
    const traces = item.series.map((s) => ({
      type: "scatter",
      mode: "lines",
      x: [],
      y: [],
      name: s.name,
      line: { color: s.color, width: 1 },
    }));
    traces.push({
      type: "scatter",
      mode: "markers",
      x: [],
      y: [],
      name: "current",
      marker: { color: this.style.colors.current, size: 10, symbol: "circle-open", line: { width: 3 } },
    });
    Plotly.newPlot(
      node,
      traces,
      this._chartLayout(item.title, item.x_title, "", pyTick(item.y_format), item.y_range),
      this.config,
    );
    const words = new ChartWords(node, item.name);
    holder.append(words.node);
    const indices = traces.map((_, i) => i);
    return (t) => {
      holder.hidden = !when(t);
      if (holder.hidden) return;
      const k = this.lane.row(t);
      const values = item.series.map((s, i) => `${s.name} ${pyFormat(series[i][k], item.y_format)}`);
      words.say(`${item.name}, at hypothesis ${count(k)}: ${values.join(", ")}.`);
      const xs = Array.from({ length: k + 1 }, (_, i) => i);
      const last = series[series.length - 1];
      Plotly.restyle(
        node,
        {
          x: [...series.map(() => xs), [k]],
          y: [...series.map((s) => Array.from(s.subarray(0, k + 1))), [last[k]]],
        },
        indices,
      );
    };
  }

  _curves(item, holder, when) {
    const node = el("div", {});
    holder.append(node);
    const rows = this.arrays[item.rows],
      offsets = this.arrays[item.offsets];
    const xs = this.arrays[item.x],
      ys = this.arrays[item.y];
    const px = this.arrays[item.point_x],
      py = this.arrays[item.point_y];
    const fmt = pyTick(item.axis_format);
    Plotly.newPlot(
      node,
      [
        {
          type: "scatter",
          mode: "lines+markers",
          x: [],
          y: [],
          name: item.curve_name,
          line: { color: this.style.colors.negative, shape: "hv" },
          marker: { size: 4 },
        },
        {
          type: "scatter",
          mode: "markers",
          x: [],
          y: [],
          name: item.point_name,
          marker: { color: this.style.colors.current, size: 12, symbol: "circle-open", line: { width: 3 } },
        },
      ],
      { ...this._chartLayout(item.title, item.x_title, item.y_title, fmt, [0, 1.05], fmt) },
      this.config,
    );
    const words = new ChartWords(node, item.name);
    holder.append(words.node);
    const say = (v) => pyFormat(v, item.axis_format);
    return (t) => {
      holder.hidden = !when(t);
      if (holder.hidden) return;
      const k = this.lane.row(t);
      const s = snapshotAt(rows, k);
      const stored = rows[s] <= k;
      const a = offsets[s],
        b = offsets[s + 1];
      const title = rows[s] === k || !stored ? item.title : `${item.title} (curve at update ${count(rows[s])})`;
      const curve = stored ? `the curve has ${count(b - a)} points` : "no curve is stored yet";
      const point = Number.isNaN(px[k]) ? "" : `; ${item.point_name} at (${say(px[k])}, ${say(py[k])})`;
      words.say(`${title}: ${curve}${point}.`);
      Plotly.update(
        node,
        {
          x: [stored ? Array.from(xs.subarray(a, b)) : [], Number.isNaN(px[k]) ? [] : [px[k]]],
          y: [stored ? Array.from(ys.subarray(a, b)) : [], Number.isNaN(py[k]) ? [] : [py[k]]],
        },
        { "title.text": title },
      );
    };
  }

  update(t) {
    for (const item of this.items) item(t);
  }
}

/** Whether an item with `when` shows at t. */
export function visible(when, lane, t) {
  switch (when) {
    case "update":
      return lane.isUpdate(t);
    case "no_update":
      return !lane.isUpdate(t);
    case "end":
      return t === lane.E;
    case "before_end":
      return t < lane.E;
    case "started":
      return t > 0;
    default:
      return true;
  }
}

/** A Python format spec as a Plotly (d3) tick format: ".0%" stays, ",": ",d". */
function pyTick(spec) {
  return spec === "," ? ",d" : spec;
}
