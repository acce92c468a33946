// The 2-D figure walked by the keyboard: while the figure has the focus, the arrow keys go from
// point to point (the nearest training point in that direction), Page Down and Page Up go in
// the order of the points' table, C to the current example, M to the next point on the wrong
// side, B says the boundary, H the keys. Each point is said (its number, label, coordinates,
// score and side, at the step on screen) in the replay's live region, heard as its tone when
// the sound is on (y · score over the largest |score| of the training points at the step:
// where it lies among them, on sound.js's scale) and framed on the plot.
//
// Only while the figure has the focus: elsewhere the arrow keys step the replay (main.js), and
// the letters here are none of the replay's (→ ← U E P Home), so with the figure focused U, E,
// P and Home still step, end an epoch, play and go back to the start. The figure is an
// "application" for a screen reader: in its browse mode a reader's arrow keys would move its
// own cursor and never reach the figure.

import { disclosure, el } from "./dom.js";
import { minusNum, signed } from "./format.js";
import { SOUND } from "./hearing.js";
import { say } from "./speech.js";
import { uid } from "./chartwords.js";

/** The keys, as the figure's help lists them (and docs/accessibility.md). */
export const FIGURE_KEYS = [
  ["← → ↑ ↓", "the nearest point in that direction"],
  ["Page Down, Page Up", "the next or previous point in the order of the points' table"],
  ["C", "the current example"],
  ["M", "the next point on the wrong side"],
  ["B", "the boundary, in words"],
  ["H", "these keys"],
];

/** Unit directions of the arrow keys (the plot's axes share one scale: up is +x2). */
const DIRECTIONS = {
  ArrowRight: [1, 0, "right"],
  ArrowLeft: [-1, 0, "left"],
  ArrowUp: [0, 1, "up"],
  ArrowDown: [0, -1, "down"],
};

/**
 * The nearest point to point `from` within 45° of the direction (dx, dy), or -1; `xy` holds the
 * points as x0, y0, x1, y1, ... Ties go to the lower index.
 */
export function nearestToward(xy, from, dx, dy) {
  const x0 = xy[2 * from],
    y0 = xy[2 * from + 1];
  let best = -1,
    bestDistance = Infinity;
  for (let j = 0; j < xy.length / 2; j++) {
    const ax = xy[2 * j] - x0,
      ay = xy[2 * j + 1] - y0;
    const along = ax * dx + ay * dy,
      across = Math.abs(ax * dy - ay * dx);
    if (j === from || along <= 0 || across > along) continue;
    const distance = Math.hypot(ax, ay);
    if (distance < bestDistance) {
      best = j;
      bestDistance = distance;
    }
  }
  return best;
}

export class FigureKeys {
  constructor(figure) {
    this.figure = figure;
    this.point = null; // the walked point's row, or null before the first key
    const node = figure.node;
    node.setAttribute("role", "application");
    node.setAttribute("aria-roledescription", "interactive figure");
    const help = el("p", { class: "sr-only", id: uid("figure-keys") }, this.helpSentence());
    node.after(help);
    node.setAttribute("aria-describedby", `${node.getAttribute("aria-describedby")} ${help.id}`);
    const list = el(
      "dl",
      { class: "figure-keys", hidden: true },
      FIGURE_KEYS.flatMap(([key, what]) => [el("dt", {}, key), el("dd", {}, what)]),
    );
    figure.words.node.querySelector(".words-row").append(disclosure("Keys of the figure", list));
    figure.words.node.append(list);
    node.addEventListener("keydown", (event) => this.onKey(event));
    node.addEventListener("blur", () => this._frame(null));
  }

  helpSentence() {
    return `With the figure focused, keys walk its points: ${FIGURE_KEYS.map(([k, what]) => `${k}, ${what}`).join("; ")}.`;
  }

  onKey(event) {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const act = this._action(event.key);
    if (!act) return;
    event.preventDefault();
    event.stopPropagation(); // the replay's own keys (main.js) do not also act
    act();
  }

  _action(key) {
    if (key in DIRECTIONS) return () => this.toward(...DIRECTIONS[key]);
    const table = { PageDown: 1, PageUp: -1 };
    if (key in table) return () => this.inOrder(table[key]);
    switch (key.toLowerCase()) {
      case "c":
        return () => this.current();
      case "m":
        return () => this.nextMistake();
      case "b":
        return () => say(this.figure.words.boundary(this.t));
      case "h":
        return () => say(this.helpSentence());
      default:
        return null;
    }
  }

  get t() {
    return this.figure.t ?? 0;
  }

  get n() {
    return this.figure.y.length;
  }

  /** The current example's row at the step, or null before the first visit. */
  _currentRow() {
    const i = this.figure.lane.event(this.t);
    return i === null ? null : this.figure.lane.index[i];
  }

  /** Where a walk starts: the current example, else the first point. */
  _start() {
    this.go(this._currentRow() ?? 0);
  }

  toward(dx, dy, name) {
    if (this.point === null) return this._start();
    const next = nearestToward(this.figure.X, this.point, dx, dy);
    if (next < 0) say(`No point further ${name} of point ${this.point + 1}.`);
    else this.go(next);
  }

  inOrder(by) {
    if (this.point === null) return this._start();
    const next = this.point + by;
    if (next < 0 || next >= this.n) say(`Point ${this.point + 1} is the ${by > 0 ? "last" : "first"} point.`);
    else this.go(next);
  }

  current() {
    const row = this._currentRow();
    if (row === null) say("No example has been visited yet.");
    else this.go(row);
  }

  nextMistake() {
    const { scores } = this._scored();
    const { y } = this.figure;
    const from = this.point === null ? -1 : this.point;
    for (let k = 1; k <= this.n; k++) {
      const j = (from + k + this.n) % this.n;
      if ((scores[j] > 0 ? 1 : -1) !== y[j]) return this.go(j);
    }
    say("No training point is on the wrong side.");
  }

  /** The points' scores at the step, by the predictor the figure draws, and its name in words. */
  _scored() {
    const { figure } = this;
    const mode = figure.contour ? "last" : figure.mode;
    const vote = figure.lane.M > 1 || mode === "voted";
    return { scores: figure.ownField.scores(this.t, mode), word: vote ? "vote" : "score" };
  }

  /** Walk to point j: say it, sound it, frame it. */
  go(j) {
    this.point = j;
    const { figure } = this;
    const { scores, word } = this._scored();
    const score = scores[j];
    const label = figure.y[j];
    const right = (score > 0 ? 1 : -1) === label;
    const flipped = figure.scene.arrays.flipped[j] ? " (flipped by noise)" : "";
    const current = j === this._currentRow() ? ", the current example" : "";
    say(
      `Point ${j + 1} of ${this.n}, label ${signed(label)}${flipped}, at ` +
        `(${minusNum(figure.X[2 * j], 3)}, ${minusNum(figure.X[2 * j + 1], 3)}), ${word} ` +
        `${minusNum(score, 3)}, on the ${right ? "right" : "wrong"} side${current}.`,
    );
    let most = 0;
    for (const s of scores) most = Math.max(most, Math.abs(s));
    SOUND.playAt("point", (label * score) / (most || 1), { tag: { point: j + 1, step: this.t } });
    this._frame(j);
  }

  /** A square around point j on the plot (none: null); it stays through steps (plane.js). */
  _frame(j) {
    const { figure } = this;
    const r = figure.style.marker.current / 2 + 3;
    figure.frame(
      j === null
        ? []
        : [
            {
              type: "rect",
              xref: "x",
              yref: "y",
              xsizemode: "pixel",
              ysizemode: "pixel",
              xanchor: figure.X[2 * j],
              yanchor: figure.X[2 * j + 1],
              x0: -r,
              x1: r,
              y0: -r,
              y1: r,
              line: { color: figure.style.colors.line, width: 2 },
              layer: "above",
            },
          ],
    );
  }
}
