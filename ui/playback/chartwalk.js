// A Plotly chart walked by the keyboard and played as sound: with the chart focused, ← and →
// go from point to point of a series, ↑ and ↓ to the series above or below it in the legend
// (at the nearest x), S plays the series from the point walked to (from its start before the
// first key) as a pitch contour, and again stops it; H says the keys. Each point is said (its
// series, x and y as the chart's axes name them) and, with the sound on, heard: a value's
// pitch is its place between the least and the greatest value on its axis, an octave below
// the middle to an octave above (sound.js). The replay's charts (chartwords.js) and the
// lessons' charts (ui/pages.js) walk this way.
//
// The chart is an "application" for a screen reader: in its browse mode the reader's arrow keys
// would move its own cursor and never reach the chart. This module imports nothing: the app's
// pages carry it too, written into their script (ui/page_assets.py).

/** The keys, as a chart's help says them. */
export const CHART_KEYS = [
  ["← →", "the previous or next point"],
  ["↑ ↓", "the series before or after"],
  ["S", "play the series as sound, or stop it"],
  ["H", "these keys"],
];
/** Seconds from one value's tone to the next when a series plays. */
export const CONTOUR_STEP_S = 0.13;

/**
 * The series a Plotly chart draws, as Plotly has them after drawing: [{name, trace, axis, points:
 * [{x, y, index}]}], points with a number for y only; legend-only and hidden traces left out.
 */
export function chartSeries(plot) {
  const out = [];
  for (const trace of plot._fullData || plot.data || []) {
    if (trace.visible === false || trace.visible === "legendonly") continue;
    if (trace.type === "heatmap") {
      out.push(...heatmapRows(trace));
      continue;
    }
    const xs = trace.x ? Array.from(trace.x) : [];
    const ys = trace.y ? Array.from(trace.y) : [];
    const points = [];
    ys.forEach((y, k) => {
      if (y !== null && y !== "" && Number.isFinite(Number(y)))
        points.push({ x: k < xs.length ? xs[k] : k, y: Number(y), index: k });
    });
    if (points.length)
      out.push({ name: trace.name || "", trace: trace.index ?? out.length, axis: trace.yaxis || "y", points });
  }
  return out;
}

/** A heat map's rows as series: each row (named by its y) a series of its cells along x. */
function heatmapRows(trace) {
  const xs = trace.x ? Array.from(trace.x) : [];
  return Array.from(trace.z || [], (row, r) => ({
    name: String(trace.y ? trace.y[r] : r),
    trace: trace.index ?? 0,
    axis: "z",
    points: Array.from(row, (z, k) => ({ x: k < xs.length ? xs[k] : k, y: Number(z), index: [r, k] })).filter((p) =>
      Number.isFinite(p.y),
    ),
  })).filter((row) => row.points.length);
}

/** The layout's axis for "x", "y", "y2", ... (Plotly names the second y axis "yaxis2"). */
function axisOf(plot, name) {
  if (name === "z") return { title: { text: "value" } }; // a heat map's cells
  const layout = plot._fullLayout || plot.layout || {};
  return layout[`${name[0]}axis${name.slice(1)}`] || {};
}

function titleOf(axis, fallback) {
  const text = axis.title?.text;
  return text ? String(text).replace(/<[^>]*>/g, "") : fallback;
}

/**
 * A value as the chart's reader sees it: a percentage on a percentage axis, else 4 significant
 * digits (a whole number of 10,000 or more with its thousands), a real minus sign.
 */
export function valueText(value, axis = {}) {
  if (typeof value !== "number") return String(value);
  let text;
  if (String(axis.tickformat || "").endsWith("%")) text = `${(100 * value).toFixed(1)}%`;
  else if (Math.abs(value) >= 10000) text = Math.round(value).toLocaleString("en-US");
  else text = `${Number(value.toPrecision(4))}${axis.ticksuffix || ""}`;
  return text.replace("-", "−");
}

export class ChartWalk {
  /**
   * `plot`: a Plotly chart's div; `say(text)` speaks in a live region; `sound`: a Sound
   * (sound.js) or a function that returns one; `onPlaying(playing)` follows a series played.
   */
  constructor(plot, { say, sound, onPlaying = () => {} }) {
    Object.assign(this, { plot, say, onPlaying });
    this.soundOf = typeof sound === "function" ? sound : () => sound;
    this.at = null; // [series, point] walked to, or null before the first key
    plot.tabIndex = 0;
    plot.setAttribute("role", "application");
    plot.setAttribute("aria-roledescription", "interactive chart");
    plot.addEventListener("keydown", (event) => this.onKey(event));
    plot.addEventListener("blur", () => this.stop());
  }

  /** The keys in a sentence (a chart's help). */
  static help() {
    return `With the chart focused: ${CHART_KEYS.map(([key, what]) => `${key}, ${what}`).join("; ")}.`;
  }

  onKey(event) {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const act = {
      ArrowRight: () => this.step(1),
      ArrowLeft: () => this.step(-1),
      ArrowDown: () => this.other(1),
      ArrowUp: () => this.other(-1),
      s: () => this.play(),
      S: () => this.play(),
      h: () => this.say(ChartWalk.help()),
      H: () => this.say(ChartWalk.help()),
    }[event.key];
    if (!act) return;
    event.preventDefault();
    event.stopPropagation(); // the replay's own keys (main.js) do not also act
    act();
  }

  get series() {
    return chartSeries(this.plot);
  }

  step(by) {
    const series = this.series;
    if (!series.length) return this.say("The chart has no values yet.");
    if (this.at === null || this.at[0] >= series.length) return this.go(series, 0, 0);
    const [s, k] = this.at;
    const next = Math.min(k, series[s].points.length - 1) + by;
    if (next < 0 || next >= series[s].points.length) {
      return this.say(`${by > 0 ? "Last" : "First"} point of ${series[s].name || "the series"}.`);
    }
    this.go(series, s, next);
  }

  other(by) {
    const series = this.series;
    if (!series.length) return this.say("The chart has no values yet.");
    if (this.at === null) return this.go(series, 0, 0);
    const s = this.at[0] + by;
    if (s < 0 || s >= series.length)
      return this.say(`${series.length === 1 ? "The only" : by > 0 ? "The last" : "The first"} series.`);
    const x = series[Math.min(this.at[0], series.length - 1)].points[this.at[1]]?.x;
    const points = series[s].points;
    let k = points.findIndex((p) => p.x === x);
    if (k < 0) k = Math.min(this.at[1], points.length - 1);
    this.go(series, s, k);
  }

  /** The least and the greatest value on the axis of series s: its sound's range. */
  range(series, s) {
    const values = series.filter((one) => one.axis === series[s].axis).flatMap((one) => one.points.map((p) => p.y));
    return [Math.min(...values), Math.max(...values)];
  }

  /** Where value y lies on the axis of series s, as u in [−1, 1] (its tone's place: sound.js). */
  place(series, s, y) {
    const [low, high] = this.range(series, s);
    return high > low ? (2 * (y - low)) / (high - low) - 1 : 0;
  }

  go(series, s, k) {
    this.at = [s, k];
    const one = series[s],
      point = one.points[k];
    const x = valueText(point.x, axisOf(this.plot, "x"));
    const y = valueText(point.y, axisOf(this.plot, one.axis));
    const xName = titleOf(axisOf(this.plot, "x"), "x"),
      yName = titleOf(axisOf(this.plot, one.axis), "value");
    const name = one.name ? `${one.name}, ` : "";
    this.say(`${name}point ${k + 1} of ${one.points.length}: ${xName} ${x}, ${yName} ${y}.`);
    this.soundOf()?.playAt("chart", this.place(series, s, point.y), { tag: { series: one.name, point: k + 1 } });
    globalThis.Plotly?.Fx?.hover(this.plot, [{ curveNumber: one.trace, pointNumber: point.index }]);
  }

  /** Play the walked series from the walked point to its end, as a contour of tones (S). */
  play() {
    const sound = this.soundOf();
    if (!sound) return;
    if (this.playing) return this.stop();
    const series = this.series;
    if (!series.length) return this.say("The chart has no values yet.");
    const [s, from] = this.at ?? [0, 0];
    const one = series[s];
    const points = one.points.slice(from);
    this.say(`Playing ${one.name || "the series"}, ${points.length} values: low tones for low values.`);
    points.forEach((point, k) => {
      sound.playAt("chart", this.place(series, s, point.y), {
        delay: k * CONTOUR_STEP_S,
        always: true,
        tag: { series: one.name, point: from + k + 1 },
      });
    });
    this.playing = setTimeout(() => this.stop(false), points.length * CONTOUR_STEP_S * 1000);
    this.onPlaying(true);
  }

  stop(silence = true) {
    if (!this.playing) return;
    clearTimeout(this.playing);
    this.playing = null;
    if (silence) this.soundOf()?.stop();
    this.onPlaying(false);
  }
}
