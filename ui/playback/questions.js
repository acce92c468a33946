// Predict, then step: which steps ask, the question asked before a step, and its right
// answer, derived from the payload the replay already holds (no server, nothing sent).
//
// app_logic/predictions.py is the Python reference of this module, as app_logic/timeline.py
// is timeline.js's: the same kinds, tried in the same order, the same seeded draws (32-bit
// integer mixing, identical in both languages), the same arithmetic on the same float64
// numbers wherever a choice depends on one. tests/browser/test_predict_logic.py compares the
// two at every step of runs of every kind of learner. The words around a question are
// predict.js's; this module returns data.

import { isUpdateKind } from "./timeline.js";
import { pointsField } from "./fields.js";

/** The kinds of question, in the order they are tried at a step. */
export const KINDS = ["outcome", "side", "lines", "where", "predictor", "vote", "noisy"];
/** The predictors a "predictor" question asks about. */
export const ASKED_MODES = ["voted", "averaged"];
/** A committee's marks after training, by their codes in the payload. */
export const CATEGORY_NAMES = ["safe", "borderline", "noisy"];
const CORRECT = 0,
  MISTAKE = 1;
/** A score at most this far from 0 is not asked about (its sign could round either way). */
const CLEAR = 1e-9;
/** "Where does w go": a mark within this share of the view's wider side counts... */
export const TOLERANCE_SHARE = 0.05;
/** ...and the question is asked only where w moves more than this many tolerances. */
const WHERE_MIN_MOVE = 2;
/** Two drawn lines closer than this (unit normals, offsets in view widths) look the same. */
const SAME_LINE = 0.05;
const LETTERS = "ABC";

/** MurmurHash3's 32-bit finaliser. */
function fmix(h) {
  h = h >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** A 32-bit number fixed by (seed, step, salt): every choice of a question is one. */
export function draw(seed, step, salt) {
  const mixed = fmix(seed ^ 0x9e3779b9);
  return fmix((mixed + (Math.imul(step, 0x27d4eb2f) >>> 0) + (Math.imul(salt, 0x165667b1) >>> 0)) >>> 0);
}

/** One of 0 .. n - 1, drawn. */
export function pick(seed, step, salt, n) {
  return draw(seed, step, salt) % n;
}

/** Indices 0 .. n - 1 ordered by their draws (ties: the smaller index first). */
function ranked(seed, step, salt, n) {
  const keys = Array.from({ length: n }, (_, k) => [draw(seed, step, salt + k), k]);
  keys.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  return keys.map(([, k]) => k);
}

/** The questions of the lanes over `scene` with predict mode's `settings` ({ask, k, steps, kinds, seed}). */
export class Questioner {
  constructor({ lanes, scene, settings }) {
    this.lanes = lanes;
    this.scene = scene;
    this.settings = settings;
    this.steps = new Set(settings.steps || []);
    this.X = scene.arrays.X;
    this.y = scene.arrays.y;
    this.box = scene.view === "plane" ? scene.box : null;
    this.cache = new Map();
    this.present = lanes.map((lane) => {
      const kinds = new Set([CORRECT, MISTAKE]);
      for (let i = 0; i < lane.E; i++) kinds.add(lane.kindAt(i, 0));
      return [...kinds].sort((a, b) => a - b);
    });
  }

  /** Whether step s is one the settings ask before (question(s) may still be null). */
  asks(s) {
    const { ask, k } = this.settings;
    if (s < 1 || s > this.lanes[0].E) return false;
    if (ask === "every") return true;
    if (ask === "kth") return s % k === 0;
    if (ask === "steps") return this.steps.has(s);
    return this.lanes.some((lane) => lane.E >= s && updates(lane, s - 1));
  }

  /** The question asked before step s, or null; computed once per step. */
  question(s) {
    if (!this.cache.has(s)) this.cache.set(s, this.asks(s) ? this._make(s) : null);
    return this.cache.get(s);
  }

  _make(s) {
    const { seed, ask } = this.settings;
    let eligible = this.lanes.map((_, k) => k).filter((k) => this.lanes[k].E >= s);
    if (ask === "updates") eligible = eligible.filter((k) => updates(this.lanes[k], s - 1));
    if (!eligible.length) return null;
    const first = pick(seed, s, 1, eligible.length);
    for (let n = 0; n < eligible.length; n++) {
      const fitting = this.fitting(eligible[(first + n) % eligible.length], s);
      if (fitting.length) return fitting[pick(seed, s, 2, fitting.length)];
    }
    return null;
  }

  /** Every question of an allowed kind that fits step s of lane k, in KINDS order. */
  fitting(k, s) {
    const allowed = this.settings.kinds?.length ? this.settings.kinds : KINDS;
    const makers = {
      outcome: () => this._outcome(k, s),
      side: () => this._side(k, s),
      lines: () => this._lines(k, s),
      where: () => this._where(k, s),
      predictor: () => this._predictor(k, s),
      vote: () => this._vote(k, s),
      noisy: () => this._noisy(k, s),
    };
    return KINDS.filter((kind) => allowed.includes(kind))
      .map((kind) => makers[kind]())
      .filter(Boolean);
  }

  // -- what the lane's picture is and what the step does ----------------------------------

  _single(k) {
    return this.lanes[k].M === 1;
  }

  /** Whether step s changes the hypothesis the picture draws. */
  _moves(k, s) {
    const lane = this.lanes[k];
    return this._single(k) && lane.before[s - 1] !== lane.after[s - 1];
  }

  /** Whether the picture draws the last hypothesis as one line. */
  _line(k) {
    const meta = this.lanes[k].meta;
    return this._single(k) && meta.hypotheses === "plane" && meta.mode === "last";
  }

  _question(s, k, kind, extra) {
    return {
      step: s,
      lane: k,
      kind,
      point: null,
      mode: null,
      options: [],
      answer: null,
      candidates: [],
      tolerance: null,
      start: null,
      ...extra,
    };
  }

  // -- each kind ---------------------------------------------------------------------------

  _outcome(k, s) {
    if (!this._single(k) && !this.lanes[k].classes) return null; // the classes: one outcome a visit
    let options = this.present[k];
    if (this.settings.ask === "updates") options = options.filter(isUpdateKind);
    if (options.length < 2) return null;
    const lane = this.lanes[k];
    return this._question(s, k, "outcome", {
      point: lane.index[s - 1],
      options,
      answer: lane.kindAt(s - 1, 0),
    });
  }

  /** Lane k's score of training point j just after step s (its last hypothesis). */
  _scoreAfter(k, s, j) {
    const lane = this.lanes[k];
    if (lane.meta.hypotheses === "kernel") return pointsField(lane, this.X, this.X).scores(s, "last")[j];
    const [w1, w2, theta] = lane.hypothesis(lane.after[s - 1]);
    return w1 * this.X[2 * j] + w2 * this.X[2 * j + 1] - theta;
  }

  _side(k, s) {
    const lane = this.lanes[k];
    if (!this._moves(k, s) || !(lane.meta.hypotheses === "kernel" || this._line(k))) return null;
    const seed = this.settings.seed;
    const current = lane.index[s - 1];
    const other = pick(seed, s, 4, this.y.length);
    const order = pick(seed, s, 3, 2) === 0 ? [current, other] : [other, current];
    for (const j of order) {
      const score = this._scoreAfter(k, s, j);
      if (Math.abs(score) > CLEAR) {
        return this._question(s, k, "side", { point: j, options: [1, -1], answer: sign(score) });
      }
    }
    return null;
  }

  _lines(k, s) {
    if (!this._line(k) || !this._moves(k, s)) return null;
    const lane = this.lanes[k],
      box = this.box,
      seed = this.settings.seed;
    const old = lane.hypothesis(lane.before[s - 1]);
    const next = lane.hypothesis(lane.after[s - 1]);
    if (!visible(next, box)) return null;
    const pool = distractors(old, next);
    const chosen = [];
    for (const n of ranked(seed, s, 50, pool.length)) {
      const [name, line] = pool[n];
      if (!visible(line, box) || same(line, next, box)) continue;
      if (chosen.some(([, other]) => same(line, other, box))) continue;
      chosen.push([name, line]);
      if (chosen.length === 2) break;
    }
    if (!chosen.length) return null;
    const drawn = [["answer", next], ...chosen];
    const candidates = ranked(seed, s, 60, drawn.length).map((n, at) => ({
      label: LETTERS[at],
      name: drawn[n][0],
      line: drawn[n][1],
    }));
    return this._question(s, k, "lines", {
      point: lane.index[s - 1],
      options: candidates.map((c) => c.label),
      answer: candidates.find((c) => c.name === "answer").label,
      candidates,
    });
  }

  _where(k, s) {
    if (!this._line(k) || !this._moves(k, s)) return null;
    const lane = this.lanes[k],
      box = this.box;
    const [o1, o2] = lane.hypothesis(lane.before[s - 1]);
    const [n1, n2] = lane.hypothesis(lane.after[s - 1]);
    const tolerance = TOLERANCE_SHARE * span(box);
    if (!(inside([o1, o2], box) && inside([n1, n2], box))) return null;
    if (!(distance([o1, o2], [n1, n2]) > WHERE_MIN_MOVE * tolerance)) return null;
    return this._question(s, k, "where", {
      point: lane.index[s - 1],
      answer: [n1, n2],
      tolerance,
      start: [o1, o2],
    });
  }

  _predictor(k, s) {
    const lane = this.lanes[k];
    if (!(this._single(k) && lane.meta.hypotheses === "plane" && lane.meta.has_modes)) return null;
    const seed = this.settings.seed;
    const mode = ASKED_MODES[pick(seed, s, 6, ASKED_MODES.length)];
    for (let attempt = 0; attempt < 4; attempt++) {
      const j = pick(seed, s, 7 + attempt, this.y.length);
      const score = pointsField(lane, this.X, this.X).scores(s, mode)[j];
      if (Math.abs(score) > CLEAR) {
        return this._question(s, k, "predictor", { point: j, mode, options: [1, -1], answer: sign(score) });
      }
    }
    return null;
  }

  _vote(k, s) {
    const lane = this.lanes[k];
    if (lane.M === 1 || lane.classes) return null; // a committee's vote (the classes do not vote)
    const j = lane.index[s - 1];
    let plus = 0;
    for (let m = 0; m < lane.M; m++) if (lane.scoreAt(s - 1, m) > 0) plus++;
    const vote = plus > lane.M - plus ? 1 : -1;
    return this._question(s, k, "vote", {
      point: j,
      options: ["right", "wrong"],
      answer: vote === this.y[j] ? "right" : "wrong",
    });
  }

  _noisy(k, s) {
    const lane = this.lanes[k];
    const category = lane.get("category");
    if (lane.M === 1 || !category) return null;
    const j = lane.index[s - 1];
    return this._question(s, k, "noisy", {
      point: j,
      options: ["noisy", "borderline", "safe"],
      answer: CATEGORY_NAMES[category[j]],
    });
  }
}

/**
 * The question of `kind` before step `step` of lane `lane`, drawn with `seed`, or null when none
 * of that kind fits there: a live class's question, which every page of the class draws again
 * from the run it holds (the same run and seed, the same question).
 */
export function askedQuestion(lanes, scene, { step, lane, kind, seed }) {
  if (!lanes[lane] || !(step >= 1 && step <= lanes[lane].E)) return null;
  const questioner = new Questioner({ lanes, scene, settings: { ask: "every", seed, kinds: [kind] } });
  return questioner.fitting(lane, step)[0] || null;
}

/** Whether `answer` (a choice, or [x, y] for "where") is the question's right answer. */
export function isRight(question, answer) {
  if (question.kind === "where") return distance(answer, question.answer) <= question.tolerance;
  return answer === question.answer;
}

/** Whether event i updates any member of the lane. */
function updates(lane, i) {
  for (let m = 0; m < lane.M; m++) if (isUpdateKind(lane.kindAt(i, m))) return true;
  return false;
}

/** The label a score predicts (a score of 0 says −1, as the replay counts it). */
function sign(score) {
  return score > 0 ? 1 : -1;
}

export function distance(a, b) {
  const dx = a[0] - b[0],
    dy = a[1] - b[1];
  return Math.sqrt(dx * dx + dy * dy);
}

function span(box) {
  return Math.max(box[1] - box[0], box[3] - box[2]);
}

function inside([x, y], box) {
  return box[0] <= x && x <= box[1] && box[2] <= y && y <= box[3];
}

/** Whether the line w·p = θ crosses the middle of the view (its inscribed circle). */
function visible([w1, w2, theta], box) {
  const norm = Math.sqrt(w1 * w1 + w2 * w2);
  if (norm === 0) return false;
  const cx = (box[0] + box[1]) / 2,
    cy = (box[2] + box[3]) / 2;
  return Math.abs(w1 * cx + w2 * cy - theta) / norm <= Math.min(box[1] - box[0], box[3] - box[2]) / 2;
}

/** Whether two lines look the same in the view (either orientation). */
function same(a, b, box) {
  const s = span(box);
  const na = Math.sqrt(a[0] * a[0] + a[1] * a[1]),
    nb = Math.sqrt(b[0] * b[0] + b[1] * b[1]);
  const u = [a[0] / na, a[1] / na, a[2] / na / s];
  const v = [b[0] / nb, b[1] / nb, b[2] / nb / s];
  let apart = 0,
    opposite = 0;
  for (let c = 0; c < 3; c++) {
    apart += (u[c] - v[c]) * (u[c] - v[c]);
    opposite += (u[c] + v[c]) * (u[c] + v[c]);
  }
  return Math.min(Math.sqrt(apart), Math.sqrt(opposite)) < SAME_LINE;
}

/** The wrong lines: w moved but θ not, the update reversed, no update, the update twice. */
function distractors(old, next) {
  const delta = next.map((n, c) => n - old[c]);
  return [
    ["w only", [next[0], next[1], old[2]]],
    ["reversed", old.map((o, c) => o - delta[c])],
    ["unchanged", old],
    ["doubled", old.map((o, c) => o + 2 * delta[c])],
  ];
}
