// The math panel: the current step's test and update with its real numbers.
//
// The same lines as the Python side wrote before (app_logic/math_panel.py keeps the
// words: OUTCOME and WHY arrive in the component's arguments), as HTML:
// italic variables, subscripts, no LaTeX engine. Numbers use Python's ".4g".

import { el, fill, v } from "./dom.js";
import { minusNum as n, pair as vec, signed as sgn } from "./format.js";
import { BLOCKED, MARGIN, MISTAKE, isUpdateKind } from "./timeline.js";
import { classWord } from "./classesfigure.js";

const MINUS = "−";

/** ``a − b`` without a double minus sign. */
function minus(a, b) {
  return b >= 0 ? `${n(a)} ${MINUS} ${n(b)}` : `${n(a)} + ${n(-b)}`;
}

const W = () => v("w");
const X = () => v("x");
const Y = () => v("y");
const THETA = () => v("θ");
const ETA = () => v("η");
const ANGLE = () => ["⟨", W(), ", ", X(), "⟩"];

/** The threshold as the rule writes it: θ, or the bias b = −θ (PAUM). */
function threshold(lane, theta) {
  return lane.meta.bias ? [v("b"), -theta] : [v("θ"), theta];
}

export class MathPanel {
  constructor(node, { lane, scene, texts }) {
    this.node = node;
    this.lane = lane;
    this.scene = scene;
    this.texts = texts;
    this.planar = scene.view === "plane";
    this.sqnorm = scene.arrays.sqnorm || null;
  }

  /** x_j: its two coordinates in 2-D, else ‖x‖. */
  _x(j) {
    const X2 = this.scene.arrays.X;
    if (this.planar) return ["x = ", vec(X2[2 * j], X2[2 * j + 1])];
    return ["‖", X(), "‖ = ", n(Math.sqrt(this.sqnorm[j]))];
  }

  update(t) {
    const { lane, scene, texts } = this;
    const i = lane.event(t);
    const body = [];
    if (i === null) {
      body.push(el("p", {}, "Before the first example. The start:"));
      if (lane.classes) {
        body.push(line(["every ", v("w", "k"), " = (0, 0) and ", v("b", "k"), " = 0: every class scores 0"]));
      } else if (lane.meta.hypotheses === "plane") {
        const [w1, w2, th] = lane.hypothesis(0);
        const [name, value] = threshold(lane, th);
        body.push(line([W(), " = ", vec(w1, w2), ",  ", name, " = ", n(value)]));
      } else if (lane.meta.hypotheses === "projection") {
        const [name, value] = threshold(lane, lane.thetaOf(0));
        body.push(line(["‖", W(), "‖ = ", n(lane.norm[0]), ",  ", name, " = ", n(value)]));
      }
      body.push(el("p", { class: "caption" }, "Press Step (or →) to visit the first example."));
      fill(this.node, ...body);
      return;
    }
    const j = lane.index[i];
    const y = scene.arrays.y[j];
    const kind = lane.kindAt(i);
    const flipped = scene.arrays.flipped[j] ? "flipped by noise, " : "";
    // several classes: the example's class; else its label ±1
    const c = lane.classes ? scene.arrays.classes[j] : null;
    const who = lane.classes ? [el("b", {}, classWord(scene, c))] : ["label ", Y(), " = ", el("b", {}, sgn(y))];
    body.push(
      el(
        "p",
        {},
        "Epoch ",
        el("b", {}, String(lane.epochAt(t) + 1)),
        ", example ",
        el("b", {}, `#${j + 1}`),
        `: ${flipped}`,
        ...who,
      ),
    );
    body.push(line(this._x(j)));
    if (lane.meta.boundary === "members") {
      body.push(...this._committee(i, y));
    } else {
      // several classes without their sums (sent on 2-D data only): the outcome, no arithmetic
      const unsummed = lane.meta.boundary === "classes" && !lane.classes;
      const lines = lane.classes
        ? this._classes(t, i, j, c)
        : unsummed
          ? [["every class's score is worked out here on 2-D data only"]]
          : lane.meta.has_modes
            ? this._kw(t, i, j, y, kind)
            : this._generic(t, i, y);
      body.push(...lines.map(line));
      body.push(el("p", {}, el("b", {}, `${capital(texts.outcome[kind] || "?")}.`), " ", texts.why[kind] || ""));
    }
    fill(this.node, ...body);
  }

  /** The unified trainer's test with every term (docs/algorithms.md §1.2). */
  _kw(t, i, j, y, kind) {
    const { lane } = this;
    const s = lane.meta.settings;
    const [o1, o2, thOld] = this.planar ? lane.hypothesis(lane.rowBefore(t)) : [0, 0, lane.thetaOf(lane.rowBefore(t))];
    const before = lane.counts(t)[j] - (isUpdateKind(kind) ? 1 : 0);
    // the learner recorded its score and the λ-trick's term in it: nothing is recomputed here
    const push = lane.lamTermAt(i);
    const score = lane.scoreAt(i);
    const raw = score - push;
    const lines = [[...ANGLE(), " = ", n(raw)]];
    lines.push(
      push
        ? [v("s"), ` = ${n(raw)} ${push >= 0 ? "+" : MINUS} ${n(Math.abs(push))} (λ-push) = ${n(score)}`]
        : [v("s"), ` = ${n(score)}`],
    );
    const margin = s.tau_margin;
    const test = [
      Y(),
      " (",
      v("s"),
      ` ${MINUS} `,
      THETA(),
      `) = ${sgn(y)} × (${minus(score, thOld)}) = ${n(y * (score - thOld))}`,
    ];
    // only the terms the learner on screen has: without a margin the test is against 0
    const updated = [MISTAKE, MARGIN, BLOCKED].includes(kind);
    if (margin > 0) test.push(updated ? " ≤ τθ" : " > τθ", el("sub", {}, "init"), ` = ${n(margin)}`);
    else test.push(updated ? " ≤ 0" : " > 0");
    lines.push(test);
    if (kind === BLOCKED) lines.push([v("a", "j"), ` = ${before} = α: no update`]);
    if (isUpdateKind(kind)) {
      const [w1, w2, thNew] = this.planar ? lane.hypothesis(lane.row(t)) : [0, 0, lane.thetaOf(lane.row(t))];
      if (this.planar) {
        const X2 = this.scene.arrays.X;
        lines.push([
          W(),
          " ← ",
          W(),
          " + ",
          ETA(),
          Y(),
          X(),
          ` = ${vec(o1, o2)} + ${n(s.eta)}·(${sgn(y)})·${vec(X2[2 * j], X2[2 * j + 1])} = ${vec(w1, w2)}`,
        ]);
      } else {
        lines.push(["‖", W(), `‖: ${n(lane.norm[lane.rowBefore(t)])} → ${n(lane.norm[lane.row(t)])}`]);
      }
      lines.push([
        THETA(),
        " ← ",
        THETA(),
        ` ${MINUS} `,
        ETA(),
        Y(),
        v("C"),
        ` = ${n(thOld)} ${MINUS} ${n(s.eta)}·(${sgn(y)})·${n(s.C)} = ${n(thNew)}`,
      ]);
    }
    return lines;
  }

  /**
   * Several classes (docs/algorithms.md §11): every class's recorded score, the test of the true
   * class against its rival, and after a mistake the two vectors and biases that moved.
   */
  _classes(t, i, j, c) {
    const { lane, scene } = this;
    const K = lane.M,
      s = lane.meta.settings;
    const name = (k) => String(scene.class_list[k]);
    const lines = [];
    for (let k = 0; k < K; k++) {
      lines.push([
        v("s", name(k)),
        " = ⟨",
        v("w", name(k)),
        ", ",
        X(),
        "⟩ + ",
        v("b", name(k)),
        ` = ${n(lane.scoreAt(i, k))}`,
      ]);
    }
    // the rival: the first of the highest scores of the other classes, as the learner chose it
    let r = c === 0 ? 1 : 0;
    for (let k = 0; k < K; k++) if (k !== c && lane.scoreAt(i, k) > lane.scoreAt(i, r)) r = k;
    const sc = lane.scoreAt(i, c),
      sr = lane.scoreAt(i, r);
    const mistake = isUpdateKind(lane.kindAt(i));
    lines.push([
      "rival ",
      v("r"),
      ` = ${name(r)} (the highest other score): `,
      v("s", name(c)),
      ` = ${n(sc)} ${mistake ? "≤" : ">"} `,
      v("s", name(r)),
      ` = ${n(sr)}`,
    ]);
    if (!mistake) return lines;
    const X2 = scene.arrays.X;
    const x = vec(X2[2 * j], X2[2 * j + 1]);
    const before = lane.rowBefore(t),
      after = lane.row(t);
    for (const [k, sign] of [
      [c, "+"],
      [r, MINUS],
    ]) {
      const [o1, o2, oTh] = lane.hypothesis(before, k);
      const [w1, w2, wTh] = lane.hypothesis(after, k);
      lines.push([
        v("w", name(k)),
        " ← ",
        v("w", name(k)),
        ` ${sign} `,
        ETA(),
        X(),
        ` = ${vec(o1, o2)} ${sign} ${n(s.eta)}·${x} = ${vec(w1, w2)}`,
      ]);
      lines.push([
        v("b", name(k)),
        " ← ",
        v("b", name(k)),
        ` ${sign} `,
        ETA(),
        ` = ${n(-oTh)} ${sign} ${n(s.eta * s.xb)} = ${n(-wTh)}`,
      ]);
    }
    return lines;
  }

  /** Any other learner: its recorded score, and old → new from the hypothesis tables. */
  _generic(t, i, y) {
    const { lane } = this;
    const lines = [["score = ", n(lane.scoreAt(i)), ",  ", Y(), " = ", sgn(y)]];
    if (!lane.isUpdate(t)) return lines;
    const [name, oldTh] = threshold(lane, lane.thetaOf(lane.rowBefore(t)));
    const newTh = threshold(lane, lane.thetaOf(lane.row(t)))[1];
    if (lane.meta.hypotheses === "plane") {
      const [o1, o2] = lane.hypothesis(lane.rowBefore(t));
      const [w1, w2] = lane.hypothesis(lane.row(t));
      lines.push([W(), `: ${vec(o1, o2)} → ${vec(w1, w2)}`]);
      lines.push(["Δ", W(), ` = ${vec(w1 - o1, w2 - o2)}`]);
      lines.push([name, `: ${n(oldTh)} → ${n(newTh)}`]);
    } else if (lane.meta.hypotheses === "projection") {
      lines.push(["‖", W(), `‖: ${n(lane.norm[lane.rowBefore(t)])} → ${n(lane.norm[lane.row(t)])}`]);
      lines.push([name, `: ${n(oldTh)} → ${n(newTh)}`]);
    } else {
      lines.push([v("a", "j"), " ← ", v("a", "j"), " + 1,  ", name, `: ${n(oldTh)} → ${n(newTh)}`]);
    }
    return lines;
  }

  _committee(i, y) {
    const { lane, texts } = this;
    const rows = [];
    let votes = 0;
    for (let mm = 0; mm < lane.M; mm++) {
      const act = lane.scoreAt(i, mm);
      votes += act > 0 ? 1 : -1;
      rows.push(
        el(
          "tr",
          {},
          el("th", { scope: "row" }, String(mm + 1)),
          el("td", {}, n(act)),
          el("td", {}, n(y * act)),
          el("td", { class: "words" }, texts.outcome[lane.kindAt(i, mm)] || "?"),
        ),
      );
    }
    const table = el(
      "table",
      { class: "numbers" },
      el(
        "thead",
        {},
        el(
          "tr",
          {},
          el("th", { scope: "col" }, "#"),
          el("th", { scope: "col" }, "act = ⟨W,(x,1)⟩"),
          el("th", { scope: "col" }, "y·act"),
          el("th", { scope: "col" }, "outcome"),
        ),
      ),
      el("tbody", {}, rows),
    );
    const vote = votes > 0 ? "+1" : "−1";
    return [
      table,
      line([
        v("h"),
        `(x) = sign(${votes > 0 ? "+" : votes < 0 ? MINUS : "+"}${Math.abs(votes)}) = ${vote},  `,
        Y(),
        ` = ${sgn(y)}`,
      ]),
      el("p", { class: "caption" }, texts.committee),
    ];
  }
}

function line(parts) {
  return el("p", { class: "math-line" }, ...parts);
}

function capital(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
