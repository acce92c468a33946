// Scores of a lane's predictor on a fixed set of 2-D points (a grid, the
// training points, the test points), at any time step.
//
// A line costs one multiply-add per point. The voted predictor and a
// non-linear kernel are sums over hypotheses; both are kept as running sums
// stored every `spacing` hypotheses (checkpoints, filled on first use), so a
// step or a jump anywhere costs at most `spacing` hypotheses per point.

/** Stored running sums are capped at about this many numbers (16 MB of float32). */
const CHECKPOINT_BUDGET = 4e6;

export class Points {
  constructor(xs, ys) {
    this.x = xs;
    this.y = ys;
    this.n = xs.length;
  }

  /** Points from a flat (n x 2) array. */
  static fromRows(flat) {
    const n = flat.length / 2;
    const xs = new Float64Array(n),
      ys = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      xs[i] = flat[2 * i];
      ys[i] = flat[2 * i + 1];
    }
    return new Points(xs, ys);
  }

  /** The nx x ny grid over `box` = [x0, x1, y0, y1], row by row (y outer). */
  static grid(box, nx, ny) {
    const xs = linspace(box[0], box[1], nx),
      ys = linspace(box[2], box[3], ny);
    const gx = new Float64Array(nx * ny),
      gy = new Float64Array(nx * ny);
    for (let j = 0; j < ny; j++) {
      for (let i = 0; i < nx; i++) {
        gx[j * nx + i] = xs[i];
        gy[j * nx + i] = ys[j];
      }
    }
    const points = new Points(gx, gy);
    points.axes = [xs, ys];
    return points;
  }
}

export function linspace(a, b, n) {
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) out[i] = n === 1 ? a : a + ((b - a) * i) / (n - 1);
  return out;
}

/** out[p] = w1 x + w2 y - theta. */
export function linearScores(points, w1, w2, theta, out = new Float64Array(points.n)) {
  for (let p = 0; p < points.n; p++) out[p] = w1 * points.x[p] + w2 * points.y[p] - theta;
  return out;
}

function spacingFor(rows, n) {
  return Math.max(8, Math.ceil((rows * n) / CHECKPOINT_BUDGET));
}

/**
 * sum_{i=1..k-1} votes_i sign(<w_i, p> - theta_i), stored every `spacing` rows.
 * The voted score at t adds the current hypothesis's own votes.
 */
class ClosedVotes {
  constructor(lane, points) {
    this.lane = lane;
    this.points = points;
    this.spacing = spacingFor(lane.H, points.n);
    this.stored = [new Float32Array(points.n)]; // stored[c]: rows 1 .. c*spacing - 1
  }

  _add(out, from, to) {
    const { lane, points } = this;
    for (let k = Math.max(1, from); k < to; k++) {
      const c = lane.votes[k];
      if (c === 0) continue;
      const w1 = lane.W[2 * k],
        w2 = lane.W[2 * k + 1],
        th = lane.theta[k];
      for (let p = 0; p < points.n; p++) out[p] += c * Math.sign(w1 * points.x[p] + w2 * points.y[p] - th);
    }
  }

  /** The closed sum for row r into `out` (Float64Array). */
  sum(r, out) {
    const c = Math.floor(r / this.spacing);
    while (this.stored.length <= c) {
      const last = this.stored.length - 1;
      const next = Float32Array.from(this.stored[last]);
      const acc = Float64Array.from(next);
      this._add(acc, last * this.spacing, (last + 1) * this.spacing);
      next.set(acc);
      this.stored.push(next);
    }
    out.set(this.stored[c]);
    this._add(out, c * this.spacing, r);
    return out;
  }
}

/** sum_{i<k} coef_i k(x_{row_i}, p), stored every `spacing` updates. */
class KernelSums {
  constructor(lane, points, X) {
    this.lane = lane;
    this.points = points;
    this.X = X;
    this.rows = lane.get("update_row");
    this.coef = lane.get("update_coef");
    const spec = lane.meta.kernel;
    this.k = kernelFunction(spec);
    this.spacing = spacingFor(this.rows.length + 1, points.n);
    this.stored = [new Float64Array(points.n)];
  }

  _add(out, from, to) {
    const { points, X, rows, coef, k } = this;
    for (let u = from; u < to; u++) {
      const r = rows[u],
        a = X[2 * r],
        b = X[2 * r + 1],
        c = coef[u];
      for (let p = 0; p < points.n; p++) out[p] += c * k(points.x[p], points.y[p], a, b);
    }
  }

  sum(n, out) {
    const c = Math.floor(n / this.spacing);
    while (this.stored.length <= c) {
      const last = this.stored.length - 1;
      const next = Float64Array.from(this.stored[last]);
      this._add(next, last * this.spacing, (last + 1) * this.spacing);
      this.stored.push(next);
    }
    out.set(this.stored[c]);
    this._add(out, c * this.spacing, n);
    return out;
  }
}

/** k(p, a) for the kernels of perceptron_core.kernel, in the same order of operations. */
export function kernelFunction({ name, gamma, coef0, degree }) {
  if (name === "rbf") {
    return (x, y, a, b) => {
      const dx = x - a,
        dy = y - b;
      return Math.exp(-gamma * (dx * dx + dy * dy));
    };
  }
  if (name === "poly") return (x, y, a, b) => (gamma * (x * a + y * b) + coef0) ** degree;
  return (x, y, a, b) => x * a + y * b;
}

/**
 * The predictor a lane shows, as a function of t on one point set:
 * `field.scores(t, mode)` returns a Float64Array (reused between calls).
 * Modes: "last", "longest", "averaged", "voted"; a committee sums its
 * members' signs, a non-linear kernel evaluates its dual sum.
 */
export class Field {
  constructor(lane, points, X = null) {
    this.lane = lane;
    this.points = points;
    this.out = new Float64Array(points.n);
    this.X = X;
  }

  scores(t, mode = "last") {
    const lane = this.lane;
    if (lane.classes) return this._predicted(t, mode);
    if (lane.hyp === "kernel") {
      this.kernel ??= new KernelSums(lane, this.points, this.X);
      const r = lane.row(t);
      this.kernel.sum(r, this.out);
      const th = lane.theta[r];
      for (let p = 0; p < this.points.n; p++) this.out[p] -= th;
      return this.out;
    }
    if (lane.M > 1) return this._committee(t);
    if (mode === "voted" && lane.totalVotes(t) > 0) {
      this.closed ??= new ClosedVotes(lane, this.points);
      const r = lane.row(t);
      this.closed.sum(r, this.out);
      const c = lane.currentVotes(t);
      if (c > 0) {
        const [w1, w2, th] = lane.hypothesis(r);
        for (let p = 0; p < this.points.n; p++) {
          this.out[p] += c * Math.sign(w1 * this.points.x[p] + w2 * this.points.y[p] - th);
        }
      }
      return this.out;
    }
    const [w1, w2, th] = lane.linearPredictor(t, mode === "voted" ? "last" : mode);
    return linearScores(this.points, w1, w2, th, this.out);
  }

  /**
   * Several classes: every class's score of every point at t, point p's class c at [p K + c]: a
   * linear predictor's ⟨w_c, x⟩ + b_c, or the votes class c gets ("voted"). Reused between calls.
   */
  classScores(t, mode = "last") {
    const lane = this.lane,
      K = lane.M,
      { x, y, n } = this.points;
    this.perClass ??= new Float64Array(n * K);
    const out = this.perClass;
    if (mode === "voted" && lane.totalVotes(t) > 0) {
      this.classVotes ??= new ClassVotes(lane, this.points);
      return this.classVotes.sum(t, out);
    }
    const [W, b] = lane.classPredictor(t, mode === "voted" ? "last" : mode);
    for (let p = 0; p < n; p++) {
      for (let c = 0; c < K; c++) out[p * K + c] = W[2 * c] * x[p] + W[2 * c + 1] * y[p] + b[c];
    }
    return out;
  }

  /** Several classes: the class each point is given at t (the first of the highest scores). */
  _predicted(t, mode) {
    const K = this.lane.M,
      scores = this.classScores(t, mode);
    for (let p = 0; p < this.points.n; p++) this.out[p] = firstHighest(scores, p * K, K);
    return this.out;
  }

  _committee(t) {
    const lane = this.lane,
      r = lane.row(t),
      out = this.out.fill(0);
    for (let mm = 0; mm < lane.M; mm++) {
      const [w1, w2, th] = lane.hypothesis(r, mm);
      for (let p = 0; p < this.points.n; p++) {
        out[p] += w1 * this.points.x[p] + w2 * this.points.y[p] - th > 0 ? 1 : -1;
      }
    }
    return out;
  }
}

/** The first of the highest of the K numbers of `values` from `at` (NumPy's argmax). */
export function firstHighest(values, at, K) {
  let best = 0;
  for (let c = 1; c < K; c++) if (values[at + c] > values[at + best]) best = c;
  return best;
}

/**
 * Several classes, voted: the votes each class gets from hypotheses 1 .. k - 1 on every point
 * (each casts its votes for the class it gives the point), stored every `spacing` rows; the
 * current hypothesis adds its own votes at t.
 */
class ClassVotes {
  constructor(lane, points) {
    this.lane = lane;
    this.points = points;
    this.K = lane.M;
    this.spacing = spacingFor(lane.H, points.n * this.K);
    this.stored = [new Float64Array(points.n * this.K)];
    this.scores = new Float64Array(this.K);
  }

  /** Add the votes of rows from .. to - 1 (row 0 never votes), `weight(k)` votes each. */
  _add(out, from, to, weight) {
    const { lane, points, K, scores } = this;
    for (let k = Math.max(1, from); k < to; k++) {
      const c = weight(k);
      if (c === 0) continue;
      const W = lane.CW,
        b = lane.Cb,
        w0 = 2 * k * K,
        b0 = k * K;
      for (let p = 0; p < points.n; p++) {
        for (let q = 0; q < K; q++)
          scores[q] = W[w0 + 2 * q] * points.x[p] + W[w0 + 2 * q + 1] * points.y[p] + b[b0 + q];
        out[p * K + firstHighest(scores, 0, K)] += c;
      }
    }
  }

  sum(t, out) {
    const lane = this.lane,
      r = lane.row(t),
      closed = (k) => lane.votes[k];
    const c = Math.floor(r / this.spacing);
    while (this.stored.length <= c) {
      const last = this.stored.length - 1;
      const next = Float64Array.from(this.stored[last]);
      this._add(next, last * this.spacing, (last + 1) * this.spacing, closed);
      this.stored.push(next);
    }
    out.set(this.stored[c]);
    this._add(out, c * this.spacing, r, closed);
    const current = lane.currentVotes(t);
    if (r > 0 && current > 0) this._add(out, r, r + 1, () => current);
    return out;
  }
}

const shared = new WeakMap();

/**
 * The Field of the points `rows` (a flat n x 2 array: the training or the test points) for
 * `lane`, one per lane and array: the figure, its words, the diagnostics, the scoreboard and the
 * exports score the same points, and keep the voted and kernel checkpoints once. Its scores are
 * one reused array: read them before the next call.
 */
export function pointsField(lane, rows, X) {
  let fields = shared.get(lane);
  if (!fields) {
    fields = new Map();
    shared.set(lane, fields);
  }
  if (!fields.has(rows)) fields.set(rows, new Field(lane, Points.fromRows(rows), X));
  return fields.get(rows);
}

/**
 * Share of points whose predicted label (score > 0: +1, else -1) equals `y`; for a lane of several
 * classes (`classes` true), whose scores are the predicted classes, equal to the class numbers `y`.
 */
export function accuracy(scores, y, classes = false) {
  let right = 0;
  for (let p = 0; p < y.length; p++) right += (classes ? scores[p] : scores[p] > 0 ? 1 : -1) === y[p] ? 1 : 0;
  return y.length ? right / y.length : NaN;
}

/** The labels a lane is scored against: ±1, or the class numbers for several classes. */
export function truthOf(lane, scene, part = "train") {
  const a = scene.arrays;
  if (lane.classes) return part === "test" ? a.classes_test : a.classes;
  return part === "test" ? a.y_test : a.y;
}
