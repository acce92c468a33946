// Small DOM helpers. Text always goes in as text (textContent), never as HTML:
// class labels, column names and file names come from visitors.

/** `el("div", {class: "x"}, child, "text", ...)`: an element with attributes and children. */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "style") node.style.cssText = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  append(node, children);
  return node;
}

function append(node, children) {
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replace the children of `node` (strings become text nodes). */
export function fill(node, ...children) {
  node.replaceChildren();
  append(node, children);
  return node;
}

/** An italic variable with an optional subscript: `v("a", "j")` is a with subscript j. */
export function v(name, sub) {
  return el("i", {}, name, sub === undefined ? null : el("sub", {}, sub));
}

/**
 * Plotly.newPlot with the layout's width pinned to the width of `node`'s box, and kept so as the
 * box resizes. A plot without a width in its layout measures its box at every relayout (Plotly's
 * autosize reads the computed style, which forces a layout of the whole frame): for the plots that
 * relayout at every step that was about a tenth of the main thread while playing.
 */
export function newPinnedPlot(node, traces, layout, config, onResize = () => {}) {
  const width = node.clientWidth;
  const plotted = Plotly.newPlot(node, traces, width ? { ...layout, width } : layout, config);
  if (width) {
    new ResizeObserver(() => {
      const now = node.clientWidth;
      if (!now || now === node.layout.width) return;
      Plotly.relayout(node, { width: now });
      onResize(now);
    }).observe(node);
  }
  return plotted;
}

/**
 * A button that shows and hides `panel` (aria-expanded, aria-controls); `onOpen()` runs as it
 * opens (to fill the panel only when someone looks).
 */
export function disclosure(label, panel, onOpen = () => {}) {
  if (!panel.id) panel.id = `panel-${++panels}`;
  const button = el(
    "button",
    { type: "button", class: "btn words-btn", "aria-expanded": "false", "aria-controls": panel.id },
    label,
  );
  button.addEventListener("click", () => {
    const open = button.getAttribute("aria-expanded") !== "true";
    button.setAttribute("aria-expanded", String(open));
    panel.hidden = !open;
    if (open) onOpen();
  });
  return button;
}
let panels = 0;
