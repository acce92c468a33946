// The 2-D figure in words, following the step: what its marks are, the
// boundary's equation (as the math panel writes its numbers), which side is
// +1, how many training points are on the wrong side, and the current
// example with what happened to it. The plot is a figure described by this
// text (a screen reader reads it on the figure); "Figure in words" shows it,
// "Points at this step" opens the points' numbers as a table (pointstable.js).
//
// The text is written after the step is painted (it is read, not seen, at the
// moment of a step, and it counts every training point); while playing at most
// every PLAYING_REFRESH_MS; on a pause it catches up.

import { describedPlot, uid } from "./chartwords.js";
import { disclosure, el } from "./dom.js";
import { Field, Points } from "./fields.js";
import { classWords, count, cut, minusNum, pair } from "./format.js";
import { lineSegment } from "./geometry.js";
import { PointsTable } from "./pointstable.js";
import { verdict } from "./speech.js";
import { CLASS_SYMBOLS, classWord } from "./classesfigure.js";

/** The marks of the classes, in words. */
const SYMBOL_WORDS = {
  circle: "circles",
  diamond: "diamonds",
  square: "squares",
  "triangle-up": "triangles",
  pentagon: "pentagons",
  star: "stars",
  hexagon: "hexagons",
  "triangle-down": "downward triangles",
  cross: "crosses",
  x: "x marks",
};

const PLAYING_REFRESH_MS = 1000;
const COMPASS = ["right", "upper right", "top", "upper left", "left", "lower left", "bottom", "lower right"];

/** Where the direction (a, b) points on the figure: "upper right" (the axes share a scale). */
export function compass(a, b) {
  const k = Math.round(Math.atan2(b, a) / (Math.PI / 4));
  return COMPASS[(k + 8) % 8];
}

/** The line ⟨w, x⟩ = θ with the axes' names: "0.52 × x1 − 1.3 × x2 = 0.4". */
export function equation(w1, w2, theta, names) {
  const terms = [];
  for (const [c, name] of [
    [w1, names[0]],
    [w2, names[1]],
  ]) {
    if (c === 0) continue;
    const size = `${minusNum(Math.abs(c), 3)} × ${name}`;
    terms.push(terms.length ? `${c < 0 ? "−" : "+"} ${size}` : `${c < 0 ? "−" : ""}${size}`);
  }
  return `${terms.join(" ")} = ${minusNum(theta)}`;
}

/** The predictor the figure draws, as a fields.js mode. */
function drawnMode(figure) {
  return figure.contour ? "last" : figure.mode;
}

/** The figure's marks, said once: what the legend shows. */
function marksSentence(figure) {
  const { scene, slots } = figure;
  if (figure.classes) {
    const marks = scene.class_list.map(
      (_, c) => `${SYMBOL_WORDS[CLASS_SYMBOLS[c % CLASS_SYMBOLS.length]]} are ${classWord(scene, c)}`,
    );
    const test = Object.keys(slots).some((k) => k.startsWith("test_class")) ? ", hollow marks are test points" : "";
    const flips = "flips" in slots ? ", × marks a label changed by noise" : "";
    return `In the figure ${marks.join(", ")}${test}${flips}, and a ring marks the current example.`;
  }
  const names = scene.class_names;
  const parts = [
    `blue circles are ${classWords(names[0], "−1")} training points`,
    `orange diamonds ${classWords(names[1], "+1")}`,
  ];
  if ("test-1" in slots || "test1" in slots) parts.push("hollow marks are test points");
  if ("flips" in slots) parts.push("× marks a label flipped by noise");
  parts.push("a ring marks the current example");
  return `In the figure ${parts.join(", ")}.`;
}

/** Which corners of the view are on the +1 side (for a boundary that is not one line). */
function cornersSentence(figure, t, corners, tint) {
  const scores = corners.scores(t, drawnMode(figure));
  const names = ["upper right", "upper left", "lower left", "lower right"];
  const plus = names.filter((_, k) => scores[k] > 0);
  if (plus.length === 4) return `Every corner of the view is on the +1 side${tint}.`;
  if (!plus.length) return `The +1 side${tint} reaches no corner of the view.`;
  const list = plus.length > 1 ? `${plus.slice(0, -1).join(", ")} and ${plus[plus.length - 1]}` : plus[0];
  return `The +1 side${tint} covers the ${list} ${plus.length > 1 ? "corners" : "corner"} of the view.`;
}

/** Several classes: where each class's region is, and the vectors that moved at an update. */
function classesSentence(figure, t, corners) {
  const { lane, scene } = figure;
  const K = lane.M;
  const given = corners.scores(t, figure.mode);
  const names = ["upper right", "upper left", "lower left", "lower right"];
  const parts = [];
  for (let c = 0; c < K; c++) {
    const mine = names.filter((_, k) => given[k] === c);
    const where = mine.length
      ? `the ${mine.length > 1 ? `${mine.slice(0, -1).join(", ")} and ${mine[mine.length - 1]} corners` : `${mine[0]} corner`}`
      : "no corner";
    parts.push(`${classWord(scene, c)}'s region reaches ${where}`);
  }
  const which = figure.mode === "voted" ? "the vote of the stored hypotheses" : `the ${figure.mode} hypothesis`;
  let text = `Each point of the plane is given the class of highest score (${which}); ${parts.join("; ")}.`;
  if (lane.row(t) === 0) text = "No update yet: every class scores 0 everywhere, and the first class is given. ";
  if (lane.isUpdate(t)) {
    const [c, r] = lane.movedBy(lane.row(t));
    text += ` This update moved two weight vectors, drawn as arrows from the middle of the view: ${classWord(scene, c)}'s, which gained η x, and ${classWord(scene, r)}'s, the rival's, which lost it; their old vectors are drawn in grey.`;
  }
  return text;
}

function boundarySentence(figure, t, names, corners) {
  const { lane } = figure;
  if (figure.classes) return classesSentence(figure, t, corners);
  const tint = figure.show.region ? " (tinted orange)" : "";
  if (figure.singleLine && figure.mode !== "voted") {
    const [w1, w2, th] = lane.linearPredictor(t, figure.mode);
    if (w1 === 0 && w2 === 0) {
      return `No boundary yet: w = (0, 0), so every point scores ${minusNum(-th)} and is predicted ${th < 0 ? "+1" : "−1"}.`;
    }
    const which = lane.meta.has_modes ? `The boundary (${figure.mode})` : "The boundary";
    const away = lineSegment(w1, w2, th, figure.box) ? "" : " It lies outside the view.";
    const voted = figure.votedRegion ? " The tint shows the vote of the stored hypotheses." : "";
    return (
      `${which} is the line ${equation(w1, w2, th, names)}.${away} The +1 side${tint} lies towards the ` +
      `${compass(w1, w2)} of it.${voted}`
    );
  }
  if (lane.meta.draws_line && lane.M > 1) {
    const r = lane.row(t);
    const members = Array.from({ length: lane.M }, (_, m) => {
      const [w1, w2, th] = lane.hypothesis(r, m);
      return `member ${m + 1}: ${w1 === 0 && w2 === 0 ? "no line yet" : equation(w1, w2, th, names)}`;
    });
    return (
      `The committee's ${lane.M} member lines are ${members.join("; ")}. It predicts the side most ` +
      `members give. ${cornersSentence(figure, t, corners, tint)}`
    );
  }
  const what = figure.contour ? "the kernel score f(x)" : "the vote of the stored hypotheses";
  return `The boundary is the curve where ${what} is 0. ${cornersSentence(figure, t, corners, tint)}`;
}

function wrongSentence(figure, t) {
  const y = figure.y;
  const scores = figure.ownField.scores(t, drawnMode(figure));
  if (figure.classes) {
    const truth = figure.scene.arrays.classes;
    let wrong = 0;
    for (let j = 0; j < truth.length; j++) wrong += scores[j] === truth[j] ? 0 : 1;
    return `${count(wrong)} of ${count(truth.length)} training points are in another class's region.`;
  }
  let wrong = 0;
  for (let j = 0; j < y.length; j++) wrong += (scores[j] > 0 ? 1 : -1) === y[j] ? 0 : 1;
  return `${count(wrong)} of ${count(y.length)} training points are on the wrong side.`;
}

function currentSentence(figure, t, texts) {
  const { lane, scene, X } = figure;
  const i = lane.event(t);
  if (i === null) return "No example has been visited yet.";
  const j = lane.index[i];
  return `The current example, ringed, is at ${pair(X[2 * j], X[2 * j + 1])}: ${verdict(lane, scene, texts, t)}.`;
}

/** The figure at step t in words (see the module's comment). */
export function describePlane(figure, t, texts, corners) {
  const names = figure.scene.feature_names.map((name) => cut(name));
  return [
    marksSentence(figure),
    boundarySentence(figure, t, names, corners),
    wrongSentence(figure, t),
    currentSentence(figure, t, texts),
  ].join(" ");
}

/** The corners of `box` = [x0, x1, y0, y1]: upper right, upper left, lower left, lower right. */
function cornerPoints([x0, x1, y0, y1]) {
  return new Points(Float64Array.of(x1, x0, x0, x1), Float64Array.of(y1, y1, y0, y0));
}

/** The words under a 2-D figure: its description and its points, each behind a disclosure. */
export class FigureWords {
  constructor(figure, texts) {
    Object.assign(this, { figure, texts });
    this.text = el("p", { class: "figure-text", id: uid("figure-text"), hidden: true });
    this.table = new PointsTable(figure);
    this.corners = new Field(figure.lane, cornerPoints(figure.box), figure.scene.arrays.X);
    this.node = el(
      "div",
      { class: "figure-words" },
      el(
        "div",
        { class: "words-row" },
        disclosure("Figure in words", this.text),
        disclosure("Points at this step", this.table.node, () => this.table.show(this.t)),
      ),
      this.text,
      this.table.node,
    );
    const who = figure.title ? `${cut(figure.title, 60)}: ` : "";
    describedPlot(figure.node, `${who}the training points and the boundary`, this.text);
    figure.node.tabIndex = 0; // a place in the Tab order where the description is read
    this.t = 0;
    this.at = -Infinity;
    this.queued = false;
  }

  /** The boundary at step t in words (the figure's walk says it on B). */
  boundary(t) {
    const names = this.figure.scene.feature_names.map((name) => cut(name));
    return boundarySentence(this.figure, t, names, this.corners);
  }

  update(t, playing) {
    Object.assign(this, { t, playing });
    if (this.queued) return;
    this.queued = true;
    requestAnimationFrame(() =>
      setTimeout(() => {
        this.queued = false;
        const now = performance.now();
        if (this.playing && now - this.at < PLAYING_REFRESH_MS) return;
        this.at = now;
        this.text.textContent = describePlane(this.figure, this.t, this.texts, this.corners);
        if (!this.table.node.hidden) this.table.show(this.t);
      }),
    );
  }
}
