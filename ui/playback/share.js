// The share link with the current step, the page URL kept in step, and the
// exports that happen in the browser (the figure as PNG/SVG, the run as JSON).

import { el, fill } from "./dom.js";

/**
 * The page's query string with t set (removed at 0) and the `extra` entries set (removed where
 * null: predict mode's); other entries kept as they are.
 */
export function withStep(search, t, extra = {}) {
  const params = new URLSearchParams(search);
  if (t > 0) params.set("t", String(t));
  else params.delete("t");
  setEntries(params, extra);
  const text = params.toString();
  return text ? `?${text}` : "";
}

function setEntries(params, entries) {
  for (const [name, value] of Object.entries(entries)) {
    if (value === null || value === undefined) params.delete(name);
    else params.set(name, value);
  }
}

/**
 * Put the step (and predict mode's `extra` entries) into the page's address (same origin: the component's frame
 * may reach its parent). Streamlit keeps the other entries; a rerun that
 * rewrites them is followed by a render, which calls this again.
 */
export function syncPageUrl(t, extra = {}) {
  try {
    const loc = window.parent.location;
    const search = withStep(loc.search, t, extra);
    if (search !== loc.search)
      window.parent.history.replaceState(window.parent.history.state, "", loc.pathname + search + loc.hash);
  } catch {
    // another origin embeds the app: the link box still carries the step
  }
}

/**
 * The link to this view (with its step) and, for a teacher, what the students who open it may
 * see and change: each unticked box adds its group to the link's `hide=`. The exports.
 * A visitor whose own link hides "link" or "export" gets only the other part.
 */
export class SharePanel {
  constructor(node, { options, figure, accuracies, extra = () => ({}) }) {
    Object.assign(this, { node, options, figure, accuracies, extra });
    const parts = [];
    if (!options.hide.link) {
      this.link = el("input", { type: "text", class: "link", readonly: true, "aria-label": "Link to this view" });
      const copy = el("button", { type: "button", class: "btn", onclick: () => this._copy() }, "Copy link");
      // a status region there before its words, so that a screen reader says them (4.1.3)
      this.copied = el("span", { class: "caption", role: "status" });
      const already = new Set((options.link_params?.hide || "").split(",").filter(Boolean));
      this.allowed = Object.entries(options.student_groups || {}).map(([group, label]) => {
        const box = el("input", { type: "checkbox", value: group, onchange: () => this.show(this.t) });
        box.checked = !already.has(group);
        return el("label", { class: "allow" }, box, ` ${label}`);
      });
      parts.push(
        el(
          "p",
          {},
          "Link to this view (settings, seed, point edits and step; an uploaded file is not part of the link).",
        ),
        el("div", { class: "link-row" }, this.link, copy, this.copied),
        el(
          "details",
          { class: "students" },
          el("summary", {}, "A link for students: what they may see and change"),
          el(
            "p",
            { class: "caption" },
            "Untick what students should not have; playback always stays, and a click " +
              "on the plot does nothing until they choose to edit points.",
          ),
          el("div", { class: "allow-list" }, ...this.allowed),
        ),
      );
    }
    if (!options.hide.export) {
      const image = el(
        "button",
        { type: "button", class: "btn btn-image", onclick: () => this._image() },
        `Figure as ${options.image.toUpperCase()}`,
      );
      const json = el(
        "button",
        { type: "button", class: "btn btn-json", onclick: () => this._json() },
        "Run as JSON (settings, metrics)",
      );
      parts.push(el("div", { class: "link-row" }, image, json));
    }
    fill(node, ...parts);
  }

  show(t) {
    this.t = t;
    if (!this.link) return;
    const params = new URLSearchParams(this.options.link_params || {});
    if (t > 0) params.set("t", String(t));
    setEntries(params, this.extra());
    const hide = this.allowed
      .map((label) => label.firstChild)
      .filter((box) => !box.checked)
      .map((box) => box.value);
    if (hide.length) params.set("hide", hide.join(","));
    else params.delete("hide");
    const query = params.toString();
    this.link.value = this.options.link_base + (query ? `?${query}` : "");
  }

  async _copy() {
    try {
      await navigator.clipboard.writeText(this.link.value);
      this.copied.textContent = "copied";
    } catch {
      this.link.select();
      this.copied.textContent = "selected: press Ctrl+C";
    }
  }

  /** The figure as PNG or SVG, with the status line (step, epoch, updates) as its title. */
  async _image() {
    const plot = this.figure.node;
    await Plotly.relayout(plot, { "title.text": this.figure.exportTitle(), "margin.t": 40 });
    try {
      await Plotly.downloadImage(plot, { format: this.options.image, filename: "perceptron-lab" });
    } finally {
      await Plotly.relayout(plot, { "title.text": "", "margin.t": 10 });
    }
  }

  _json() {
    const record = { ...this.options.record, time_step: this.t, accuracy_at_step: this.accuracies(this.t) };
    const blob = new Blob([JSON.stringify(record, null, 2)], { type: "application/json" });
    const a = el("a", { href: URL.createObjectURL(blob), download: "perceptron-run.json" });
    document.body.append(a);
    a.click();
    setTimeout(() => {
      URL.revokeObjectURL(a.href);
      a.remove();
    }, 1000);
  }
}
