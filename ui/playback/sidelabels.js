// "+1 side" and "−1 side" written on the decision region's tints, which are one
// grey in greyscale. Plain HTML over the plot, not Plotly's: as labelled shapes
// they were redrawn at every step, as layout images or annotations they made
// every relayout of the figure slower (the step's one relayout included). They
// move only when the region is painted again or the axes change (a zoom, a
// resize). Hidden from assistive technology: the figure's words say which side
// is +1 (describe.js).

import { el, fill } from "./dom.js";

/** Pixels between a label and the corner of the view it sits in. */
const INSET = 3;

export class SideLabels {
  /** @param {HTMLElement} plot  the Plotly chart's div  @param {object} style  font.axis, colors.text */
  constructor(plot, style) {
    this.plot = plot;
    this.node = el("div", {
      class: "side-labels",
      "aria-hidden": "true",
      style: `font-size: ${style.font.axis}px; color: ${style.colors.text}`,
    });
    plot.append(this.node);
    this.anchors = [];
    this.axes = null;
    plot.on("plotly_relayout", () => this._follow());
    plot.on("plotly_afterplot", () => this._follow());
  }

  /** Show the labels at `anchors` ([{text, x, y, h, v}], plane.js's sideAnchors). */
  place(anchors) {
    this.anchors = anchors;
    this.axes = null;
    this._follow();
  }

  /** Put the labels where their data points are now (only when the axes moved or they changed). */
  _follow() {
    const L = this.plot._fullLayout;
    if (!L?.xaxis?._length) return;
    const { xaxis: xa, yaxis: ya } = L;
    const axes = [xa.range, ya.range, xa._offset, ya._offset, xa._length, ya._length].join();
    if (axes === this.axes) return;
    this.axes = axes;
    const labels = [];
    for (const { text, x, y, h, v } of this.anchors) {
      const left = xa._offset + xa.d2p(x),
        top = ya._offset + ya.d2p(y);
      const inside =
        left >= xa._offset - 1 &&
        left <= xa._offset + xa._length + 1 &&
        top >= ya._offset - 1 &&
        top <= ya._offset + ya._length + 1;
      if (!inside) continue; // zoomed away from its corner
      const dx = { left: [INSET, "0%"], right: [-INSET, "-100%"], center: [0, "-50%"] }[h];
      const dy = { top: [INSET, "0%"], bottom: [-INSET, "-100%"], middle: [0, "-50%"] }[v];
      labels.push(
        el(
          "span",
          {
            class: "side-label",
            style: `left: ${left + dx[0]}px; top: ${top + dy[0]}px; transform: translate(${dx[1]}, ${dy[1]})`,
          },
          text,
        ),
      );
    }
    fill(this.node, ...labels);
  }
}
