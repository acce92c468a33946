// The 2-D figure's parts for several classes learned together (the multiclass perceptron):
// a mark per class, a region per class painted into the figure's one layout image (each grid
// point takes the tint of the class it is given), the borders of the regions, every class's
// weight vector as an arrow (after an update, the two it moved with their old ends), and each
// region's name written on it. plane.js calls these where it draws a line for one class.

import { paintedRegion } from "./chartlayout.js";
import { firstHighest } from "./fields.js";
import { clipHalfplanes } from "./geometry.js";
import { cut, plotlyText } from "./format.js";

/** A mark per class, so that no class is told by its colour alone. */
export const CLASS_SYMBOLS = [
  "circle",
  "diamond",
  "square",
  "triangle-up",
  "pentagon",
  "star",
  "hexagon",
  "triangle-down",
  "cross",
  "x",
];

/** Class c's colour, mark and tint (the style's colours repeat past their count). */
export function classLook(style, c) {
  const colors = style.colors.classes;
  return {
    color: colors[c % colors.length],
    edge: style.colors.class_edges[c % colors.length],
    tint: style.colors.class_tints[c % colors.length],
    symbol: CLASS_SYMBOLS[c % CLASS_SYMBOLS.length],
  };
}

/** "class B", the way the figure's words and legend name class c. */
export function classWord(scene, c) {
  return `class ${cut(String(scene.class_list[c]))}`;
}

/** The traces of one class's points: filled for training points, hollow for test points. */
export function classPointsTrace(figure, c, rows, X, test) {
  const { style, scene } = figure;
  const look = classLook(style, c);
  const size = test ? style.marker.test : style.marker.point;
  return {
    type: "scatter",
    mode: "markers",
    x: rows.map((j) => X[2 * j]),
    y: rows.map((j) => X[2 * j + 1]),
    name: `${plotlyText(classWord(scene, c))}${test ? " test" : " train"}`,
    marker: {
      symbol: look.symbol + (test ? "-open" : ""),
      size,
      color: look.color,
      line: test ? { width: 1.6, color: look.color } : { width: 1, color: look.edge },
    },
    hoverinfo: test ? "x+y+name" : "none", // training points: the figure's own tooltip
  };
}

/** The rows of each class in `labels` (class numbers). */
export function rowsByClass(labels, K) {
  const out = Array.from({ length: K }, () => []);
  for (let j = 0; j < labels.length; j++) out[labels[j]].push(j);
  return out;
}

/**
 * The region of class c of the machine [W, b] inside `box`: the points where its score is at
 * least every other class's, a convex polygon (clipped half-planes).
 */
export function cell(W, b, c, K, box) {
  const constraints = [];
  for (let k = 0; k < K; k++) {
    if (k === c) continue;
    // s_k - s_c <= 0: (w_k - w_c)·x <= b_c - b_k
    constraints.push([W[2 * k] - W[2 * c], W[2 * k + 1] - W[2 * c + 1], b[c] - b[k]]);
  }
  return clipHalfplanes(box, constraints);
}

/** The borders of every class's region, drawn as outlined paths over the tints. */
export function cellShapes(figure, W, b) {
  const { lane, box, style } = figure;
  const K = lane.M;
  const shapes = [];
  for (let c = 0; c < K; c++) {
    const poly = cell(W, b, c, K, box);
    if (poly.length < 3) continue;
    const d = `${poly.map((p, k) => `${k ? "L" : "M"}${p[0]},${p[1]}`).join("")}Z`;
    shapes.push({
      type: "path",
      xref: "x",
      yref: "y",
      path: d,
      line: { color: style.colors.line, width: style.line.member },
      layer: "above",
    });
  }
  return shapes;
}

/** The grid's classes painted into a canvas as one layout image: a pixel per grid point. */
export function classImage(figure, classesOnGrid, nx, ny) {
  figure._classTints ??= figure.style.colors.class_tints.map(rgba);
  const tints = figure._classTints;
  return paintedRegion(figure, figure.box, nx, ny, (p) => tints[classesOnGrid[p] % tints.length]);
}

/**
 * Where each region's name goes: the grid point of that class farthest inside it (the largest
 * lead of its score over the runner-up's); a class given no grid point gets no label.
 */
export function classAnchors(figure, perClass, K, xs, ys) {
  const nx = xs.length,
    ny = ys.length,
    n = perClass.length / K;
  const best = new Array(K).fill(-1),
    lead = new Array(K).fill(-Infinity);
  // away from the view's edges, where a label would run over the axes
  const inner = (p) => {
    const i = p % nx,
      j = Math.floor(p / nx);
    return i > 0.15 * nx && i < 0.85 * nx && j > 0.08 * ny && j < 0.92 * ny;
  };
  for (let p = 0; p < n; p++) {
    if (!inner(p)) continue;
    const c = firstHighest(perClass, p * K, K);
    let second = -Infinity;
    for (let q = 0; q < K; q++) if (q !== c) second = Math.max(second, perClass[p * K + q]);
    const gap = perClass[p * K + c] - second;
    if (gap > lead[c]) {
      lead[c] = gap;
      best[c] = p;
    }
  }
  const out = [];
  for (let c = 0; c < K; c++) {
    if (best[c] < 0) continue;
    out.push({
      text: `${classWord(figure.scene, c)} region`,
      x: xs[best[c] % nx],
      y: ys[Math.floor(best[c] / nx)],
      h: "center",
      v: "middle",
    });
  }
  return out;
}

/**
 * Every class's weight vector w_c as an arrow from the middle of the view, all at one scale;
 * after an update, the two it moved drawn thicker, each with its old vector in grey:
 * the true class's w gained η x, the rival's lost it.
 */
export function classArrows(figure, t, arrow) {
  const { lane, box, style, scene } = figure;
  if (!figure.show.arrows || lane.event(t) === null) return [];
  const K = lane.M,
    r = lane.row(t),
    before = lane.rowBefore(t);
  const moved = lane.isUpdate(t) ? lane.movedBy(r) : [];
  const centre = [(box[0] + box[1]) / 2, (box[2] + box[3]) / 2];
  const length = 0.22 * Math.hypot(box[1] - box[0], box[3] - box[2]);
  let norm = 0;
  for (let c = 0; c < K; c++) {
    for (const k of [r, before]) {
      const [w1, w2] = lane.hypothesis(k, c);
      norm = Math.max(norm, Math.hypot(w1, w2));
    }
  }
  if (norm === 0) return [];
  const scale = length / norm;
  const tip = (w1, w2) => [centre[0] + scale * w1, centre[1] + scale * w2];
  const out = [];
  for (let c = 0; c < K; c++) {
    const [w1, w2] = lane.hypothesis(r, c);
    const name = classWord(scene, c).replace("class ", "");
    const role = moved[0] === c ? " + ηx" : moved[1] === c ? " − ηx" : "";
    if (role) {
      const [o1, o2] = lane.hypothesis(before, c);
      out.push(...arrow(centre, tip(o1, o2), style.colors.old, "", style.line.arrow));
    }
    const width = role ? style.line.arrow + 1.5 : style.line.arrow - 0.5;
    out.push(...arrow(centre, tip(w1, w2), style.colors.line, `w_${name}${role}`, width));
  }
  return out;
}

/** "#cfe3f1" as [r, g, b, 255] for the region's image. */
function rgba(color) {
  const h = color.replace("#", "");
  return Uint8ClampedArray.from([0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16)).concat(255));
}
