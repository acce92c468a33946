// The playback row: step buttons with their keys, play/pause, speed, the
// unit a play step moves by, the scrubber, and the reader's settings (the
// keys on or off, how much a move announces). Everything here changes the
// time step in the browser; nothing is sent to the server.

import { el } from "./dom.js";
import { count } from "./format.js";
import { LEVELS, PLAYING_INTERVAL_MS } from "./speech.js";

/** Playback speeds offered, in steps per second (a step is one example, update or epoch). */
export const SPEEDS = [1, 2, 5, 10, 20, 30, 50, 100, 200, 500, 1000];
export const UNITS = ["example", "update", "epoch"];

/** Key (KeyboardEvent.key) -> action name. */
export const KEYS = {
  ArrowRight: "step",
  ArrowLeft: "back",
  u: "update",
  U: "update",
  e: "epoch",
  E: "epoch",
  p: "play",
  P: "play",
  Home: "start",
};

/** [action, label, key shown, aria-keyshortcuts, help]. */
const BUTTONS = [
  ["start", "Start", "Home", "Home", "Back to the start (Home)"],
  ["back", "Back", "←", "ArrowLeft", "Step back one example (←)"],
  ["step", "Step", "→", "ArrowRight", "Step one example (→)"],
  ["update", "Next update", "U", "U", "Step to the next update (U)"],
  ["epoch", "End of epoch", "E", "E", "Step to the end of this epoch (E)"],
  ["play", "Play", "P", "P", "Play / pause (P)"],
  ["end", "End", null, null, "Jump to the end of training"],
];

export class Controls {
  /**
   * `actions`: {start, back, step, update, epoch, play, end, scrub(t), scrubbed(t), speed(s), unit(u),
   * shortcuts(on), level(name), predict(on)}; the state: {speed, unit, shortcuts, level, predictOn}.
   */
  constructor(node, actions, { speed, unit, shortcuts, level, predictOn }) {
    this.actions = actions;
    this.buttons = {};
    const row = el("div", { class: "buttons" });
    for (const [name, label, key, shortcut, help] of BUTTONS) {
      // the key is said once, as the button's shortcut, not read as part of its name
      const button = el(
        "button",
        {
          type: "button",
          class: `btn btn-${name}`,
          title: help,
          "data-action": name,
          "data-shortcut": shortcut,
          onclick: () => actions[name](),
        },
        el("span", { class: "btn-label" }, label),
        key ? el("kbd", { "aria-hidden": "true" }, key) : null,
      );
      this.buttons[name] = button;
      row.append(button);
    }
    this.scrubber = el("input", {
      type: "range",
      class: "scrubber",
      min: 0,
      max: 1,
      value: 0,
      step: 1,
      "aria-label": "Time step",
      title: "Scrub through the whole recorded run.",
    });
    this.scrubber.addEventListener("input", () => actions.scrub(Number(this.scrubber.value)));
    // announced when let go (a drag's every step would be a queue of sentences)
    this.scrubber.addEventListener("change", () => actions.scrubbed(Number(this.scrubber.value)));
    const speedSelect = el(
      "select",
      { class: "speed", "aria-label": "Speed (steps per second)" },
      SPEEDS.map((s) => el("option", { value: s, selected: s === speed }, `${s}`)),
    );
    speedSelect.addEventListener("change", () => actions.speed(Number(speedSelect.value)));
    this.unitButtons = UNITS.map((u) =>
      el("button", { type: "button", class: "seg", "data-unit": u, onclick: () => this._unit(u) }, u),
    );
    this._pressed(unit);
    this.readout = el("span", { class: "readout" });
    // predict mode (predict.js): a question before each step that asks
    this.predict = el("input", { type: "checkbox", class: "predict-on", checked: predictOn });
    this.predict.addEventListener("change", () => actions.predict(this.predict.checked));
    const keys = el("input", { type: "checkbox", class: "shortcuts", checked: shortcuts });
    keys.addEventListener("change", () => this._shortcuts(keys.checked));
    const levelSelect = el(
      "select",
      { class: "level", "aria-label": "Announce after a move" },
      Object.entries(LEVELS).map(([value, text]) => el("option", { value, selected: value === level }, text)),
    );
    levelSelect.addEventListener("change", () => actions.level(levelSelect.value));
    node.append(
      row,
      this.scrubber,
      el(
        "div",
        { class: "speed-row" },
        el("label", {}, "Speed ", speedSelect, " steps/s"),
        el(
          "span",
          { class: "unit", role: "group", "aria-label": "Play by" },
          el("span", { "aria-hidden": "true" }, "Play by "),
          ...this.unitButtons,
        ),
        el(
          "label",
          { class: "setting", title: "Before a step is shown, predict what it does; the replay keeps your score." },
          this.predict,
          " Predict, then step",
        ),
        this.readout,
      ),
    );
    // the reader's settings, in a row of their own under the figure (`settings`, main.js puts it
    // there): above it they would push the figure below a projector's fold
    this.settings = el(
      "div",
      { class: "settings-row", role: "group", "aria-label": "Your settings" },
      el(
        "label",
        { class: "setting", title: "Single keys (→ ← U E P Home) step the replay while it has the focus." },
        keys,
        " Keyboard shortcuts",
      ),
      el(
        "label",
        { class: "setting", title: "What a screen reader hears after each move." },
        "Announce after a move ",
        levelSelect,
      ),
    );
    this._shortcuts(shortcuts, false);
    this.valueSaidAt = -Infinity;
  }

  _unit(u) {
    this._pressed(u);
    this.actions.unit(u);
  }

  /** The chosen unit: highlighted, and pressed for a screen reader. */
  _pressed(u) {
    for (const b of this.unitButtons) {
      b.classList.toggle("on", b.dataset.unit === u);
      b.setAttribute("aria-pressed", String(b.dataset.unit === u));
    }
  }

  /** Keys on or off: the key hints and the buttons' aria-keyshortcuts follow. */
  _shortcuts(on, tell = true) {
    for (const button of Object.values(this.buttons)) {
      const key = button.dataset.shortcut;
      if (on && key) button.setAttribute("aria-keyshortcuts", key);
      else button.removeAttribute("aria-keyshortcuts");
      const hint = button.querySelector("kbd");
      if (hint) hint.hidden = !on;
    }
    if (tell) this.actions.shortcuts(on);
  }

  /** Predict mode's switch, as the replay has it. */
  showPredict(on) {
    this.predict.checked = on;
  }

  /**
   * Show time t of `max` steps, and whether playing; `where` is the scrubber's spoken value
   * ("step 37 of 2,000, epoch 1").
   */
  show(t, max, playing, where) {
    this.scrubber.max = Math.max(max, 1);
    this.scrubber.disabled = max === 0;
    if (Number(this.scrubber.value) !== t) this.scrubber.value = t;
    // while playing, the spoken value changes as seldom as the live region speaks: a screen
    // reader says a focused slider's every new value
    const now = performance.now();
    if (!playing || now - this.valueSaidAt >= PLAYING_INTERVAL_MS) {
      this.scrubber.setAttribute("aria-valuetext", where);
      this.valueSaidAt = playing ? now : -Infinity;
    }
    const play = this.buttons.play;
    play.classList.toggle("playing", playing);
    play.querySelector(".btn-label").textContent = playing ? "Pause" : "Play";
    this.readout.textContent = `step ${count(t)} of ${count(max)}`;
  }
}

/**
 * Whether a key event happened inside the replay: on an element of `root`, or on the body of a
 * frame that holds nothing but the replay (the app's component, the notebook's frame). In the
 * exported page the body is the page's: a key there is not the replay's.
 */
export function inReplay(event, root) {
  const target = event.target;
  if (target && root.contains(target)) return true;
  return target === document.body && window.parent !== window;
}

/** Whether a key event was meant for a text field, a list or a slider (not for us). */
export function typedIntoWidget(event) {
  const target = event.target;
  if (!target?.tagName) return false;
  const tag = target.tagName.toLowerCase();
  if (["input", "textarea", "select"].includes(tag) || target.isContentEditable) return true;
  const role = target.getAttribute?.("role");
  return ["slider", "textbox", "combobox", "listbox", "spinbutton"].includes(role);
}
