// A Plotly chart a screen reader can read. Plotly draws an SVG whose text is
// tick labels and legend entries, read out of order and without the picture;
// so each chart becomes a figure with a name and a description in words (a
// sentence that follows the step, and for a chart of numbers the numbers as
// a table), its SVG is hidden from assistive technology, and its toolbar
// leaves the Tab order (it held 24 of the replay's 38 Tab stops; its buttons
// still work for a mouse, and a screen reader still finds them). The chart
// itself takes the focus: its arrow keys walk its points, and it plays as
// sound (chartwalk.js), from the keys or a button under it.

import { el } from "./dom.js";
import { count } from "./format.js";
import { ChartWalk } from "./chartwalk.js";
import { SOUND } from "./hearing.js";
import { say as speak } from "./speech.js";

let serial = 0;

/** An id unique in the page: `prefix-1`, `prefix-2`, ... */
export function uid(prefix) {
  serial += 1;
  return `${prefix}-${serial}`;
}

/**
 * Make `plot` (a Plotly chart's div) a figure named `label` and described by the element
 * `description`; hide its SVG from assistive technology; take its toolbar out of the Tab order.
 */
export function describedPlot(plot, label, description) {
  if (!description.id) description.id = uid("chart-text");
  plot.setAttribute("role", "figure");
  plot.setAttribute("aria-label", label);
  plot.setAttribute("aria-describedby", description.id);
  const quiet = () => {
    for (const svg of plot.querySelectorAll(".main-svg")) svg.setAttribute("aria-hidden", "true");
    for (const button of plot.querySelectorAll(".modebar-btn")) button.tabIndex = -1;
    // Plotly measures text in an SVG of its own at the end of the page
    document.getElementById("js-plotly-tester")?.setAttribute("aria-hidden", "true");
  };
  quiet();
  // Plotly draws its toolbar again when a full redraw needs other buttons
  if (plot.on) plot.on("plotly_afterplot", quiet);
}

/**
 * A chart's words: a visually hidden sentence that describes it (`say(text)`, as the step
 * changes) and, when given, its numbers as a table behind a disclosure. `node` goes after the plot.
 */
export class ChartWords {
  constructor(plot, label, table = null) {
    this.text = el("p", { class: "sr-only", id: uid("chart-text") });
    const keys = el("p", { class: "sr-only", id: uid("chart-keys") }, ChartWalk.help());
    const play = el(
      "button",
      { type: "button", class: "btn words-btn", "aria-label": `Play as sound: ${label}` },
      "Play as sound",
    );
    this.node = el(
      "div",
      { class: "chart-words" },
      this.text,
      keys,
      play,
      table ? el("details", { class: "chart-table" }, el("summary", {}, `${label}: the numbers`), table) : null,
    );
    describedPlot(plot, label, this.text);
    plot.setAttribute("aria-describedby", `${this.text.id} ${keys.id}`);
    this.walk = new ChartWalk(plot, {
      say: speak,
      sound: SOUND,
      onPlaying: (playing) => {
        play.textContent = playing ? "Stop the sound" : "Play as sound";
        play.setAttribute("aria-label", `${play.textContent}: ${label}`);
      },
    });
    play.addEventListener("click", () => this.walk.play());
    this.said = null;
  }

  say(text) {
    if (text === this.said) return;
    this.said = text;
    this.text.textContent = text;
  }
}

/**
 * A table of numbers: a caption (or none: null), column headers, a row header per row (`rows`:
 * [[head, ...cells]]); `current` is the index of a row to mark (the step's epoch), or -1.
 */
export function numbersTable(caption, headers, rows, { current = -1, className = "" } = {}) {
  return el(
    "table",
    { class: `numbers ${className}`.trim() },
    caption === null ? null : el("caption", {}, caption),
    el(
      "thead",
      {},
      el(
        "tr",
        {},
        headers.map((h) => el("th", { scope: "col" }, h)),
      ),
    ),
    el(
      "tbody",
      {},
      rows.map(([head, ...cells], r) =>
        el(
          "tr",
          { class: r === current ? "current" : null },
          el("th", { scope: "row" }, head),
          cells.map((cell) => el("td", {}, cell)),
        ),
      ),
    ),
  );
}

/** "12 in epoch 1, 5 in epoch 2, ..." for a short list; the first and last few of a long one. */
export function perEpoch(values, format = count) {
  const say = (v, e) => `${format(v)} in epoch ${e + 1}`;
  if (values.length <= 8) return values.map(say).join(", ");
  const n = values.length;
  return [...values.slice(0, 4).map(say), "…", ...values.slice(n - 3).map((v, k) => say(v, n - 3 + k))].join(", ");
}
