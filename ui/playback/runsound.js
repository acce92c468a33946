// The run in sound (sound.js), for a reader who listens to it: each step a short tone whose
// pitch is the example's signed score, y times the score the narration says, against a scale
// (the middle, 440 Hz, on the boundary; an octave lower as far on the wrong side as the scale
// reaches, an octave higher as far on the right side), then a low knock if the step updated.
// For a line of the KW family the scale is the training point farthest from the line that
// scored the example (the tone says where the example lies among the points at that step);
// for the other learners, whose scores are their own, the run's scores (SCALE_QUANTILE). While playing, each finished epoch sounds its training error (the series of
// those tones falls as the learner converges), and the line's turn is a glide: up when it turns
// anticlockwise, down when clockwise, an octave per 90°.
//
// While playing faster than a tone lasts, a tone stands for the latest step and the knocks,
// glides and epochs come at most every few tenths of a second (gaps below): the sounds never
// pile up behind the steps.

import { pitch } from "./sound.js";
import { isUpdateKind } from "./timeline.js";

/** The run's scale is this quantile of its steps' |score|: a few outliers do not squash the rest. */
export const SCALE_QUANTILE = 0.95;
/** While playing, the least time between two step tones, two knocks, two glides, two epochs (s). */
const GAP_S = { step: 0.09, update: 0.09, turn: 0.3, epoch: 0.25 };
/** A turn smaller than this (degrees) makes no glide. */
export const TURN_MIN_DEGREES = 1;
/** The error rate heard highest: half the examples wrong, a coin's guess. */
export const EPOCH_TOP_RATE = 0.5;

/** The angle in degrees from (a1, a2) to (b1, b2), anticlockwise positive, in (−180, 180]. */
export function turnDegrees(a1, a2, b1, b2) {
  return (Math.atan2(a1 * b2 - a2 * b1, a1 * b1 + a2 * b2) * 180) / Math.PI;
}

/** The glide of a turn by `degrees`: from the middle pitch, an octave per 90°. */
export function turnPitches(degrees) {
  return [pitch(0), pitch(degrees / 180, 2)];
}

/** The pitch of an epoch's error rate: 220 Hz without errors, 880 Hz at EPOCH_TOP_RATE or more. */
export function epochPitch(rate) {
  return pitch((2 * rate) / EPOCH_TOP_RATE - 1);
}

/** The q-quantile of |values| (the sorted value at ⌊q·(n − 1)⌋); 1 when it is 0 or there are none. */
export function scaleOf(values, q = SCALE_QUANTILE) {
  if (!values.length) return 1;
  const sorted = Float64Array.from(values, Math.abs).sort();
  return sorted[Math.floor(q * (sorted.length - 1))] || 1;
}

export class RunSound {
  /** `lane` (timeline.js), `X` and `y` the training points (X flat, x0, y0, x1, ...), `sound`. */
  constructor(lane, X, y, sound) {
    Object.assign(this, { lane, X, y, sound });
    this.planarLine = lane.meta.draws_line && lane.M === 1 && lane.meta.hypotheses === "plane";
    // a KW line's score is ⟨w, x⟩ − θ: its scale is the farthest point from the line
    this.byLine = this.planarLine && lane.meta.has_modes;
    this.spreads = new Map();
    this.last = { step: -Infinity, update: -Infinity, turn: -Infinity, epoch: -Infinity };
    this.owedEpoch = null; // an epoch finished while playing whose tone has not sounded yet
  }

  /**
   * Every event's score as the narration says it, and the run's scale, worked out at the first
   * sound (the sound is off by default: a run of 400,000 steps costs nothing until then).
   */
  get scores() {
    if (!this._scores) {
      this._scores = Float64Array.from({ length: this.lane.E }, (_, i) => this.score(i));
      this.scale = scaleOf(this._scores);
    }
    return this._scores;
  }

  /** The score the narration says of event i (speech.js): the KW family's is s − θ. */
  score(i) {
    const { lane } = this;
    return lane.meta.has_modes ? lane.scoreAt(i) - lane.thetaOf(lane.before[i]) : lane.scoreAt(i);
  }

  /** The largest |⟨w, x⟩ − θ| over the training points for hypothesis row k (1 when 0). */
  spread(k) {
    if (!this.spreads.has(k)) {
      const [w1, w2, th] = this.lane.hypothesis(k);
      let most = 0;
      for (let j = 0; j < this.y.length; j++) {
        most = Math.max(most, Math.abs(w1 * this.X[2 * j] + w2 * this.X[2 * j + 1] - th));
      }
      if (this.spreads.size > 4096) this.spreads.clear();
      this.spreads.set(k, most || 1);
    }
    return this.spreads.get(k);
  }

  /**
   * Where event i's example lies, as u in [−1, 1]: y · score over the scale (see the module's
   * comment); for a committee, the share of its members that side with the label, less those
   * that do not.
   */
  placeOf(i) {
    const { lane } = this;
    const y = this.y[lane.index[i]];
    if (this.byLine) return (y * this.scores[i]) / this.spread(lane.before[i]);
    if (lane.M === 1) return (y * this.scores[i]) / this.scale;
    let agree = 0;
    for (let m = 0; m < lane.M; m++) agree += Math.sign(lane.scoreAt(i, m)) === y ? 1 : -1;
    return agree / lane.M;
  }

  /** The turn of the line made by event i's update (degrees), or null (no line before or after). */
  turnAt(i) {
    if (!this.planarLine) return null;
    const [a1, a2] = this.lane.hypothesis(this.lane.before[i]);
    const [b1, b2] = this.lane.hypothesis(this.lane.after[i]);
    if ((a1 === 0 && a2 === 0) || (b1 === 0 && b2 === 0)) return null;
    return turnDegrees(a1, a2, b1, b2);
  }

  /** A move by the reader to step t: its tone, and the knock and the glide of its update. */
  moved(t) {
    const { lane, sound } = this;
    this.heading = null; // a later Play glides from where the line is then
    this.owedEpoch = null;
    const i = lane.event(t);
    if (i === null || !sound.on) return;
    sound.play("step", pitch(this.placeOf(i)), { tag: { step: t } });
    if (!updatedAt(lane, i)) return;
    sound.play("update", 110, { delay: 0.07, tag: { step: t } });
    const turn = this.turnAt(i);
    if (turn !== null && Math.abs(turn) >= TURN_MIN_DEGREES) {
      const [from, to] = turnPitches(turn);
      sound.play("turn", from, { to, delay: 0.14, tag: { step: t, degrees: turn } });
    }
  }

  /** Playing went on from step `from` to step `to` in one frame (main.js). */
  played(from, to) {
    const { lane, sound } = this;
    if (!sound.on || to <= from) return;
    const now = performance.now() / 1000;
    const due = (kind) => now - this.last[kind] >= GAP_S[kind];
    const sounded = (kind) => {
      this.last[kind] = now;
    };
    if (due("step")) {
      sound.play("step", pitch(this.placeOf(to - 1)), { tag: { step: to } });
      sounded("step");
    }
    const update = lane.nextUpdate(from);
    if (update <= to && due("update")) {
      sound.play("update", 110, { delay: 0.04, tag: { step: update } });
      sounded("update");
    }
    this._turn(from, to, due, sounded);
    const done = Math.floor(to / lane.m); // epochs finished at `to`
    if (done > Math.floor(from / lane.m)) this.owedEpoch = done - 1;
    if (this.owedEpoch !== null && due("epoch")) {
      const e = this.owedEpoch;
      const rate = lane.meta.errors_per_epoch[e] / lane.m;
      sound.play("epoch", epochPitch(rate), { delay: 0.08, tag: { epoch: e + 1, rate } });
      sounded("epoch");
      this.owedEpoch = null;
    }
  }

  /** The glide of the line's turn since the last glide (at most every GAP_S.turn). */
  _turn(from, to, due, sounded) {
    if (!this.planarLine) return;
    const { lane } = this;
    this.heading ??= { step: from, w: lane.hypothesis(lane.row(from)) };
    const [b1, b2] = lane.hypothesis(lane.row(to));
    const [a1, a2] = this.heading.w;
    if (a1 === 0 && a2 === 0) {
      this.heading = { step: to, w: [b1, b2] }; // no line yet: nothing turned
      return;
    }
    if (b1 === 0 && b2 === 0) return;
    const turn = turnDegrees(a1, a2, b1, b2);
    if (Math.abs(turn) < TURN_MIN_DEGREES || !due("turn")) return;
    const [low, high] = turnPitches(turn);
    this.sound.play("turn", low, { to: high, delay: 0.02, tag: { step: to, since: this.heading.step, degrees: turn } });
    sounded("turn");
    this.heading = { step: to, w: [b1, b2] };
  }
}

/** Whether event i of `lane` updated any member (a committee knocks when one of them did). */
function updatedAt(lane, i) {
  for (let m = 0; m < lane.M; m++) if (isUpdateKind(lane.kindAt(i, m))) return true;
  return false;
}
