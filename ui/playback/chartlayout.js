// What the replay's charts share, written once: the layout every chart starts from
// (white ground, the style's axis font, a title), an axis with the style's grid, the
// percent axis on the right, a dotted line across the chart at one x, and the shapes the
// figures draw at each step: a boundary's segment and the current example's ring in pixels.
// The 2-D figure (plane.js) has a layout of its own (square axes, the legend placed by width)
// and shares only the shapes.

/**
 * A chart's layout: `style`'s chart height, a white ground, the axis font, `title` (in
 * `titleSize` px, two over the axis font unless said) over a top margin of `top` px; `extra`
 * (axes, legend, shapes) is merged over it.
 */
export function chartLayout(style, title, { top = 36, titleSize = style.font.axis + 2, ...extra } = {}) {
  return {
    height: style.figure.chart_height,
    margin: { l: 10, r: 10, t: top, b: 10 },
    plot_bgcolor: "white",
    paper_bgcolor: "white",
    font: { size: style.font.axis },
    title: { text: title, font: { size: titleSize } },
    ...extra,
  };
}

/** An axis titled `title` with the style's grid, room for its tick labels, and `extra`. */
export function gridAxis(style, title, extra = {}) {
  return { title: { text: title }, gridcolor: style.colors.grid, automargin: true, ...extra };
}

/** A second y axis on the right, 0 to 100 % in quarters, over the chart's own. */
export function percentAxis(title) {
  return {
    title: { text: title },
    overlaying: "y",
    side: "right",
    range: [0, 100],
    tickmode: "linear",
    tick0: 0,
    dtick: 25,
    ticksuffix: "%",
    showgrid: false,
    automargin: true,
  };
}

/** A dotted line from the bottom to the top of the chart at `x` (the step, an epoch). */
export function vline(x, color) {
  return {
    type: "line",
    xref: "x",
    yref: "paper",
    x0: x,
    x1: x,
    y0: 0,
    y1: 1,
    line: { color, width: 1.5, dash: "dot" },
  };
}

/**
 * A shape of `type` ("circle", "line") spanning [x0, y0, x1, y1] px from the point (x, y) in
 * data units: it keeps its size at any zoom, drawn over the points with the line `line`.
 */
export function pixelShape(type, x, y, [x0, y0, x1, y1], line) {
  return {
    type,
    xref: "x",
    yref: "y",
    xsizemode: "pixel",
    ysizemode: "pixel",
    xanchor: x,
    yanchor: y,
    x0,
    x1,
    y0,
    y1,
    line,
    layer: "above",
  };
}

/** A ring of `radius` px around the point (x, y) in data units (pixelShape). */
export function pixelRing(x, y, radius, line) {
  return pixelShape("circle", x, y, [-radius, -radius, radius, radius], line);
}

/** The segment [[x0, y0], [x1, y1]] (data units) drawn over the points with `line`. */
export function segmentShape([[x0, y0], [x1, y1]], line, opacity = 1) {
  return { type: "line", xref: "x", yref: "y", x0, y0, x1, y1, line, opacity, layer: "above" };
}

/**
 * A grid of nx x ny points (row by row, y up) painted into `owner`'s canvas, one pixel per point
 * in the colour `rgbaAt(p)` gives, and stretched over `box` = [x0, x1, y0, y1] as one layout
 * image under the marks: a decision region.
 */
export function paintedRegion(owner, box, nx, ny, rgbaAt) {
  owner._canvas ??= document.createElement("canvas");
  const canvas = owner._canvas;
  canvas.width = nx;
  canvas.height = ny;
  const context = canvas.getContext("2d");
  const image = context.createImageData(nx, ny);
  for (let j = 0; j < ny; j++) {
    for (let i = 0; i < nx; i++) image.data.set(rgbaAt(j * nx + i), 4 * ((ny - 1 - j) * nx + i));
  }
  context.putImageData(image, 0, 0);
  const [x0, x1, y0, y1] = box;
  return {
    source: canvas.toDataURL(),
    xref: "x",
    yref: "y",
    x: x0,
    y: y1,
    sizex: x1 - x0,
    sizey: y1 - y0,
    xanchor: "left",
    yanchor: "top",
    sizing: "stretch",
    layer: "below",
    name: "region",
  };
}
