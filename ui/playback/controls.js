// The playback row: step buttons with their keys, play/pause, speed, the
// unit a play step moves by, and the scrubber. Everything here changes the
// time step in the browser; nothing is sent to the server.

import { el } from "./dom.js";
import { count } from "./format.js";

/** Playback speeds offered, in steps per second (a step is one example, update or epoch). */
export const SPEEDS = [1, 2, 5, 10, 20, 30, 50, 100, 200, 500, 1000];
export const UNITS = ["example", "update", "epoch"];

/** Key (KeyboardEvent.key) -> action name. */
export const KEYS = {
  ArrowRight: "step", ArrowLeft: "back", u: "update", U: "update", e: "epoch", E: "epoch",
  p: "play", P: "play", Home: "start",
};

const BUTTONS = [
  ["start", "Start", "Home", "Back to the start (Home)"],
  ["back", "Back", "←", "Step back one example (←)"],
  ["step", "Step", "→", "Step one example (→)"],
  ["update", "Next update", "U", "Step to the next update (U)"],
  ["epoch", "End of epoch", "E", "Step to the end of this epoch (E)"],
  ["play", "Play", "P", "Play / pause (P)"],
  ["end", "End", null, "Jump to the end of training"],
];

export class Controls {
  /** `actions`: {start, back, step, update, epoch, play, end, scrub(t), speed(s), unit(u)}. */
  constructor(node, actions, { speed, unit }) {
    this.actions = actions;
    this.buttons = {};
    const row = el("div", { class: "buttons" });
    for (const [name, label, key, help] of BUTTONS) {
      const button = el("button", { type: "button", class: `btn btn-${name}`, title: help, "data-action": name,
                                    onclick: () => actions[name]() },
        el("span", { class: "btn-label" }, label), key ? el("kbd", {}, key) : null);
      this.buttons[name] = button;
      row.append(button);
    }
    this.scrubber = el("input", { type: "range", class: "scrubber", min: 0, max: 1, value: 0, step: 1,
                                  "aria-label": "Time step", title: "Scrub through the whole recorded run." });
    this.scrubber.addEventListener("input", () => actions.scrub(Number(this.scrubber.value)));
    const speedSelect = el("select", { class: "speed", "aria-label": "Speed (steps per second)" },
      SPEEDS.map((s) => el("option", { value: s, selected: s === speed }, `${s}`)));
    speedSelect.addEventListener("change", () => actions.speed(Number(speedSelect.value)));
    this.unitButtons = UNITS.map((u) => el("button", { type: "button", class: `seg${u === unit ? " on" : ""}`,
                                                         "data-unit": u, onclick: () => this._unit(u) }, u));
    this.readout = el("span", { class: "readout" });
    node.append(row, this.scrubber,
      el("div", { class: "speed-row" },
        el("label", {}, "Speed ", speedSelect, " steps/s"),
        el("span", { class: "unit" }, "Play by ", ...this.unitButtons),
        this.readout));
  }

  _unit(u) {
    for (const b of this.unitButtons) b.classList.toggle("on", b.dataset.unit === u);
    this.actions.unit(u);
  }

  /** Show time t of `max` steps, and whether playing. */
  show(t, max, playing) {
    this.scrubber.max = Math.max(max, 1);
    this.scrubber.disabled = max === 0;
    if (Number(this.scrubber.value) !== t) this.scrubber.value = t;
    const play = this.buttons.play;
    play.classList.toggle("playing", playing);
    play.querySelector(".btn-label").textContent = playing ? "Pause" : "Play";
    this.readout.textContent = `step ${count(t)} of ${count(max)}`;
  }
}

/** Whether a key event was meant for a text field, a list or a slider (not for us). */
export function typedIntoWidget(event) {
  const target = event.target;
  if (!target || !target.tagName) return false;
  const tag = target.tagName.toLowerCase();
  if (["input", "textarea", "select"].includes(tag) || target.isContentEditable) return true;
  const role = target.getAttribute && target.getAttribute("role");
  return ["slider", "textbox", "combobox", "listbox", "spinbutton"].includes(role);
}
