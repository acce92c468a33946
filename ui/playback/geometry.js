// Lines and half-planes inside the figure's box [x0, x1, y0, y1].

/** The part of the line w1 x + w2 y = c inside the box, as [[x, y], [x, y]], or null. */
export function lineSegment(w1, w2, c, box) {
  if (w1 === 0 && w2 === 0) return null;
  const [x0, x1, y0, y1] = box;
  const eps = 1e-9;
  const pts = [];
  if (w2 !== 0) {
    for (const x of [x0, x1]) {
      const y = (c - w1 * x) / w2;
      if (y >= y0 - eps && y <= y1 + eps) pts.push([x, y]);
    }
  }
  if (w1 !== 0) {
    for (const y of [y0, y1]) {
      const x = (c - w2 * y) / w1;
      if (x >= x0 - eps && x <= x1 + eps) pts.push([x, y]);
    }
  }
  // distinct points in lexicographic order (as numpy.unique does); the ends are first and last
  const key = (p) => p.map((v) => Math.round(v * 1e12) / 1e12);
  const unique = [];
  for (const p of pts.map(key)) if (!unique.some((q) => q[0] === p[0] && q[1] === p[1])) unique.push(p);
  unique.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  return unique.length >= 2 ? [unique[0], unique[unique.length - 1]] : null;
}

/** Corners of the part of the box where a·p <= b for every [a1, a2, b] (Sutherland–Hodgman). */
export function clipHalfplanes(box, constraints) {
  const [x0, x1, y0, y1] = box;
  let poly = [
    [x0, y0],
    [x1, y0],
    [x1, y1],
    [x0, y1],
  ];
  for (const [a1, a2, b] of constraints) {
    const out = [];
    for (let i = 0; i < poly.length; i++) {
      const p = poly[i],
        q = poly[(i + 1) % poly.length];
      const fp = a1 * p[0] + a2 * p[1] - b,
        fq = a1 * q[0] + a2 * q[1] - b;
      if (fp <= 0) out.push(p);
      if (fp * fq < 0) {
        const s = fp / (fp - fq);
        out.push([p[0] + (q[0] - p[0]) * s, p[1] + (q[1] - p[1]) * s]);
      }
    }
    poly = out;
    if (!poly.length) break;
  }
  return poly;
}

/** The point of the line <w, p> = theta nearest `centre` (the foot of the w arrow). */
export function anchor(w1, w2, theta, centre) {
  const d = (w1 * centre[0] + w2 * centre[1] - theta) / (w1 * w1 + w2 * w2);
  return [centre[0] - d * w1, centre[1] - d * w2];
}

export function inBox(p, box) {
  return p[0] >= box[0] && p[0] <= box[1] && p[1] >= box[2] && p[1] <= box[3];
}

/** x and y lists of a segment, or empty lists (Plotly draws nothing). */
export function segmentXY(seg) {
  return seg
    ? [
        [seg[0][0], seg[1][0]],
        [seg[0][1], seg[1][1]],
      ]
    : [[], []];
}

/**
 * The zero level of scores on a grid (row by row, y outer, as Points.grid) as an SVG path
 * of short segments: marching squares with linear interpolation on each cell's edges.
 * A saddle cell (opposite corners of one sign) joins the corners its centre's sign joins.
 */
export function zeroLevel(scores, xs, ys) {
  const nx = xs.length,
    ny = ys.length;
  const parts = [];
  const at = (i, j) => scores[j * nx + i];
  // the point where the score crosses zero on the edge from corner a to corner b
  const cross = (pa, sa, pb, sb) => {
    const f = sa / (sa - sb);
    return [pa[0] + f * (pb[0] - pa[0]), pa[1] + f * (pb[1] - pa[1])];
  };
  for (let j = 0; j + 1 < ny; j++) {
    for (let i = 0; i + 1 < nx; i++) {
      // corners counter-clockwise from bottom-left, with their scores
      const p = [
        [xs[i], ys[j]],
        [xs[i + 1], ys[j]],
        [xs[i + 1], ys[j + 1]],
        [xs[i], ys[j + 1]],
      ];
      const s = [at(i, j), at(i + 1, j), at(i + 1, j + 1), at(i, j + 1)];
      const hits = [];
      for (let k = 0; k < 4; k++) {
        const a = s[k],
          b = s[(k + 1) % 4];
        if (a > 0 !== b > 0) hits.push(cross(p[k], a, p[(k + 1) % 4], b));
      }
      if (hits.length === 2) {
        parts.push(segmentPath(hits[0], hits[1]));
      } else if (hits.length === 4) {
        // edges 0-1, 1-2, 2-3, 3-0 all crossed: pair them around the corner whose sign differs from the centre
        const centre = (s[0] + s[1] + s[2] + s[3]) / 4;
        const pairs =
          centre > 0 === s[0] > 0
            ? [
                [0, 1],
                [2, 3],
              ]
            : [
                [3, 0],
                [1, 2],
              ];
        for (const [a, b] of pairs) parts.push(segmentPath(hits[a], hits[b]));
      }
    }
  }
  return parts.join("");
}

function segmentPath(a, b) {
  return `M${a[0]},${a[1]}L${b[0]},${b[1]}`;
}
