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
