// One recorded run in the browser: the state of the learner at any time step.
//
// The same conventions as app_logic/timeline.py: t = 0 is before the first visit,
// t = i + 1 just after event i (the "current example" is event t - 1 and its
// update, if any, has been applied). The payload sends per event the row, the
// kind and the score per member, and whether the hypothesis changed (or the
// rows themselves, see app_logic/payload/lane.py); rows of the hypothesis tables,
// epochs and update counts are derived here once.

export const CORRECT = 0,
  MISTAKE = 1,
  MARGIN = 2,
  RESCUED = 3,
  BLOCKED = 4;
export const KIND_NAMES = ["correct", "mistake", "margin", "rescued", "blocked"];
export const isUpdateKind = (k) => k === MISTAKE || k === MARGIN;
const isVotingKind = (k) => k === CORRECT || k === RESCUED;

export class Lane {
  constructor(meta, arrays) {
    const get = (key) => arrays[meta.arrays[key]];
    this.meta = meta;
    this.get = get;
    this.E = meta.n_events;
    this.m = meta.n_samples;
    this.M = meta.n_members;
    this.H = meta.n_hypotheses;
    this.index = get("index");
    this.kind = get("kind"); // members x events
    this.score = get("score");
    this.lamTerm = get("lam_term") || null; // the λ-trick's term in each score, as recorded
    const E = this.E;
    // the hypothesis row before and after each event: from the `changed` flags, or as sent
    this.after = get("after") ? Int32Array.from(get("after")) : new Int32Array(E);
    this.before = get("before") ? Int32Array.from(get("before")) : new Int32Array(E);
    this.startEvent = new Int32Array(this.H); // the event that created each row (row 0: none)
    const changed = get("changed");
    let row = 0;
    for (let i = 0; i < E; i++) {
      if (changed) {
        this.before[i] = row;
        row += changed[i];
        this.after[i] = row;
      }
      if (this.after[i] > (i ? this.after[i - 1] : 0)) this.startEvent[this.after[i]] = i;
    }
    // nextUpd[t]: the time just after the first update at or after event t (any member)
    this.nextUpd = new Int32Array(E + 1);
    let next = E;
    this.nextUpd[E] = E;
    const kindRows = E ? this.kind.length / E : 0; // a row per member; one for several classes
    for (let i = E - 1; i >= 0; i--) {
      for (let mm = 0; mm < kindRows; mm++) if (isUpdateKind(this.kind[mm * E + i])) next = i + 1;
      this.nextUpd[i] = next;
    }
    this.hyp = meta.hypotheses;
    this.W = get("W") || null;
    this.theta = get("theta") || null;
    this.norm = get("norm") || null;
    this.classes = meta.hypotheses === "classes";
    if (this.classes) this._sumClasses(get("points"), get("update_row"), get("update_true"), get("update_rival"));
    if (meta.has_modes) this._setupVotes(get("votes"), get("longest"), get("lead"));
    this._counts = new Int32Array(this.m);
    this._countsAt = 0;
  }

  // -- time -------------------------------------------------------------------

  clip(t) {
    return Math.min(Math.max(Math.trunc(t) || 0, 0), this.E);
  }

  /** Index of the current event at time t, or null before the first visit. */
  event(t) {
    t = this.clip(t);
    return t > 0 ? t - 1 : null;
  }

  /** Row of the hypothesis tables in force at time t. */
  row(t) {
    const i = this.event(t);
    return i === null ? 0 : this.after[i];
  }

  /** The time step from which row k is in force (just after the update that made it). */
  startTime(k) {
    return k === 0 ? 0 : this.startEvent[k] + 1;
  }

  /** Row that scored the current event (the one before its update). */
  rowBefore(t) {
    const i = this.event(t);
    return i === null ? 0 : this.before[i];
  }

  epochAt(t) {
    const i = this.event(t);
    return i === null ? 0 : Math.floor(i / this.m);
  }

  kindAt(i, member = 0) {
    return this.kind[member * this.E + i];
  }

  /** The λ-trick's term in event i's score (0 without the trick). */
  lamTermAt(i) {
    return this.lamTerm ? this.lamTerm[i] : 0;
  }

  scoreAt(i, member = 0) {
    return this.score[member * this.E + i];
  }

  isUpdate(t, member = 0) {
    const i = this.event(t);
    return i !== null && isUpdateKind(this.kindAt(i, member));
  }

  nextUpdate(t) {
    return this.nextUpd[this.clip(t)];
  }

  /** The time just after the last visit of the current epoch (of the next, at a boundary). */
  endOfEpoch(t) {
    t = this.clip(t);
    if (t === this.E) return t;
    return Math.min(this.E, (Math.floor(t / this.m) + 1) * this.m);
  }

  /** Update events in each epoch (member 0), from the payload's per-epoch list. */
  get mistakesPerEpoch() {
    return this.meta.mistakes_per_epoch;
  }

  // -- per-example state --------------------------------------------------------

  /**
   * Updates each training row has caused up to time t (a_j, docs/algorithms.md §1.1), member 0.
   * The array is reused: read it before the next call.
   */
  counts(t) {
    t = this.clip(t);
    const c = this._counts;
    let at = this._countsAt;
    if (Math.abs(t - at) > t) {
      c.fill(0);
      at = 0;
    }
    while (at < t) {
      if (isUpdateKind(this.kind[at])) c[this.index[at]]++;
      at++;
    }
    while (at > t) {
      at--;
      if (isUpdateKind(this.kind[at])) c[this.index[at]]--;
    }
    this._countsAt = at;
    return c;
  }

  /** Rows whose latest visit up to t (within the last pass) had kind `kind` (member 0). */
  latestOfKind(t, kind) {
    t = this.clip(t);
    const latest = new Map();
    for (let i = Math.max(0, t - this.m); i < t; i++) latest.set(this.index[i], this.kind[i]);
    const rows = [];
    for (const [j, k] of latest) if (k === kind) rows.push(j);
    return rows;
  }

  // -- hypotheses -----------------------------------------------------------------

  /** [w1, w2, theta] of row k (member); for a projection, w's coordinates in the plane. */
  hypothesis(k, member = 0) {
    if (this.classes) {
      const at = k * this.M + member;
      return [this.CW[2 * at], this.CW[2 * at + 1], -this.Cb[at]];
    }
    const base = member * this.H + k;
    return [this.W[2 * base], this.W[2 * base + 1], this.theta[base]];
  }

  thetaOf(k, member = 0) {
    if (this.classes) return -this.Cb[k * this.M + member];
    return this.theta[member * this.H + k];
  }

  // -- several classes learned together (the multiclass perceptron) -------------------

  /**
   * Every class's (w, b) after each update, summed from the update sequence as
   * perceptron_core.trace.MulticlassTrace.hypotheses does: update i adds η x to the true class's
   * row of hypothesis i + 1 and takes it from the rival's. Row k, class c: CW[2(kK + c)], Cb[kK + c].
   */
  _sumClasses(X, rows, truth, rival) {
    const K = this.M,
      H = this.H;
    const { eta, xb } = this.meta.settings;
    this.CW = new Float64Array(2 * H * K);
    this.Cb = new Float64Array(H * K);
    for (let k = 1; k < H; k++) {
      this.CW.copyWithin(2 * k * K, 2 * (k - 1) * K, 2 * k * K);
      this.Cb.copyWithin(k * K, (k - 1) * K, k * K);
      const j = rows[k - 1];
      const x1 = eta * X[2 * j],
        x2 = eta * X[2 * j + 1],
        step = eta * xb;
      for (const [c, sign] of [
        [truth[k - 1], 1],
        [rival[k - 1], -1],
      ]) {
        const at = k * K + c;
        this.CW[2 * at] += sign * x1;
        this.CW[2 * at + 1] += sign * x2;
        this.Cb[at] += sign * step;
      }
    }
    this.updateTrue = truth;
    this.updateRival = rival;
  }

  /** The classes update k - 1 moved, that made row k: [true class, rival]. */
  movedBy(k) {
    return [this.updateTrue[k - 1], this.updateRival[k - 1]];
  }

  /**
   * Every class's weights and biases of a linear predictor at t ("last", "longest" or
   * "averaged"): [W, b] with W[2c], W[2c + 1] and b[c] of class c (arrays reused between calls).
   */
  classPredictor(t, mode) {
    const K = this.M;
    const r = mode === "longest" ? this.longestRow(t) : this.row(t);
    if (mode !== "averaged" || this.totalVotes(t) === 0) {
      return [this.CW.subarray(2 * r * K, 2 * (r + 1) * K), this.Cb.subarray(r * K, (r + 1) * K)];
    }
    const total = this.totalVotes(t),
      c = this.currentVotes(t);
    this._avgW ??= new Float64Array(2 * K);
    this._avgB ??= new Float64Array(K);
    for (let q = 0; q < 2 * K; q++) this._avgW[q] = (this.cumCW[2 * r * K + q] + c * this.CW[2 * r * K + q]) / total;
    for (let q = 0; q < K; q++) this._avgB[q] = (this.cumCb[r * K + q] + c * this.Cb[r * K + q]) / total;
    return [this._avgW, this._avgB];
  }

  // -- votes and the four predictors at time t ---------------------------------------

  _setupVotes(votes, longest, lead) {
    const E = this.E,
      H = this.H;
    this.votes = votes; // the core's final votes: a replaced hypothesis has its final count
    // the core's survivor table: the longest survivor once row k has its votes, and the
    // votes at which row k takes the lead (the tie rule is the core's, not repeated here)
    this.longest = longest;
    this.lead = lead;
    this.votingPrefix = new Int32Array(E + 1);
    for (let i = 0; i < E; i++) {
      this.votingPrefix[i + 1] = this.votingPrefix[i] + (isVotingKind(this.kind[i]) ? 1 : 0);
    }
    // prefix sums over rows 1 .. k-1 (row 0 never votes)
    this.cumV = new Float64Array(H + 1);
    const planar = this.W !== null;
    if (this.classes) {
      // every class's weighted sums over rows 1 .. k - 1: the averaged machine at any step
      this.cumCW = new Float64Array(2 * (H + 1) * this.M);
      this.cumCb = new Float64Array((H + 1) * this.M);
    }
    if (planar) {
      this.cumW1 = new Float64Array(H + 1);
      this.cumW2 = new Float64Array(H + 1);
      this.cumTh = new Float64Array(H + 1);
    }
    for (let k = 0; k < H; k++) {
      const weight = k >= 1 ? votes[k] : 0;
      this.cumV[k + 1] = this.cumV[k] + weight;
      if (planar) {
        this.cumW1[k + 1] = this.cumW1[k] + weight * this.W[2 * k];
        this.cumW2[k + 1] = this.cumW2[k] + weight * this.W[2 * k + 1];
        this.cumTh[k + 1] = this.cumTh[k] + weight * this.theta[k];
      }
      if (this.classes) {
        const K = this.M;
        for (let q = 0; q < 2 * K; q++)
          this.cumCW[2 * (k + 1) * K + q] = this.cumCW[2 * k * K + q] + weight * this.CW[2 * k * K + q];
        for (let q = 0; q < K; q++) this.cumCb[(k + 1) * K + q] = this.cumCb[k * K + q] + weight * this.Cb[k * K + q];
      }
    }
  }

  /** Correct predictions the current hypothesis has collected up to t. */
  currentVotes(t) {
    const r = this.row(t);
    return this.votingPrefix[this.clip(t)] - this.votingPrefix[r === 0 ? 0 : this.startEvent[r]];
  }

  /** Votes of every row 0..row(t) at t (closed rows: final; the current: counted). */
  votesAt(t, k) {
    const r = this.row(t);
    return k < r ? this.votes[k] : k === r ? this.currentVotes(t) : 0;
  }

  /** Row of the longest survivor at t: the current row once it has the votes to lead. */
  longestRow(t) {
    const r = this.row(t);
    return this.currentVotes(t) >= this.lead[r] ? r : this.longest[r - 1];
  }

  /** Total votes of rows 1..row(t) at t (0: the voted and averaged predictors are the last). */
  totalVotes(t) {
    const r = this.row(t);
    return r === 0 ? 0 : this.cumV[r] + this.currentVotes(t);
  }

  /** The vote-weighted mean of hypotheses 1..current: [w1, w2, theta]. */
  averaged(t) {
    const r = this.row(t);
    const total = this.totalVotes(t);
    const [w1, w2, th] = this.hypothesis(r);
    if (total === 0) return [w1, w2, th];
    const c = this.currentVotes(t);
    return [(this.cumW1[r] + c * w1) / total, (this.cumW2[r] + c * w2) / total, (this.cumTh[r] + c * th) / total];
  }

  /** [w1, w2, theta] of a linear predictor at t: "last", "longest" or "averaged". */
  linearPredictor(t, mode) {
    if (mode === "averaged") return this.averaged(t);
    if (mode === "longest") return this.hypothesis(this.longestRow(t));
    return this.hypothesis(this.row(t));
  }
}
