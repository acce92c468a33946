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
    for (let i = E - 1; i >= 0; i--) {
      for (let mm = 0; mm < this.M; mm++) if (isUpdateKind(this.kind[mm * E + i])) next = i + 1;
      this.nextUpd[i] = next;
    }
    this.hyp = meta.hypotheses;
    this.W = get("W") || null;
    this.theta = get("theta") || null;
    this.norm = get("norm") || null;
    if (meta.has_modes) this._setupVotes(get("votes"));
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
    const base = member * this.H + k;
    return [this.W[2 * base], this.W[2 * base + 1], this.theta[base]];
  }

  thetaOf(k, member = 0) {
    return this.theta[member * this.H + k];
  }

  // -- votes and the four predictors at time t ---------------------------------------

  _setupVotes(votes) {
    const E = this.E,
      H = this.H;
    this.votes = votes; // the core's final votes: a replaced hypothesis has its final count
    this.votingPrefix = new Int32Array(E + 1);
    for (let i = 0; i < E; i++) {
      this.votingPrefix[i + 1] = this.votingPrefix[i] + (isVotingKind(this.kind[i]) ? 1 : 0);
    }
    // prefix sums over rows 1 .. k-1 (row 0 never votes) and the best of rows 0 .. k-1
    this.cumV = new Float64Array(H + 1);
    this.bestRow = new Int32Array(H + 1).fill(-1);
    this.bestVal = new Float64Array(H + 1).fill(-Infinity);
    const planar = this.W !== null;
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
      const better = votes[k] > this.bestVal[k];
      this.bestVal[k + 1] = better ? votes[k] : this.bestVal[k];
      this.bestRow[k + 1] = better ? k : this.bestRow[k];
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

  /** Row of the longest survivor at t: the first hypothesis with the most votes. */
  longestRow(t) {
    const r = this.row(t);
    const current = this.currentVotes(t);
    return r === 0 || current > this.bestVal[r] ? r : this.bestRow[r];
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
