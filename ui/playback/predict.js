// Predict, then step: before the replay shows a step, the student answers one question
// about it (questions.js chooses it and knows the answer); then the step is shown, with the
// math panel's explanation, and the verdict is said in the replay's live region. A running
// score, a choice of which steps ask, and Skip.
//
// The run's record of answers stays in the browser: `window.playback.predict` is
// {payloadId, asked, right, skipped, history: [{step, lane, kind, answer, expected, right,
// skipped}]}, and every verdict dispatches a `playback-predict` event (on the replay's window,
// and on its frame's element when the page around it is of the same origin) whose detail is
// {payloadId, entry, record}. Nothing goes to the server: an answer never reruns the page.
//
// For the keyboard and a screen reader: the question is a form of real controls (radio
// buttons, or two number fields for "where does w go", the plot's click being the mouse's
// shortcut) in a fieldset whose legend is the question; posing it moves the focus to its first
// control, so the question is read; Check (or Enter) and Skip are buttons; a Step pressed
// before an answer says why nothing moved; the verdict goes through the live region.

import { el, fill } from "./dom.js";
import { count } from "./format.js";
import { Questioner, isRight } from "./questions.js";
import { QuestionView } from "./questionview.js";

/** Which steps ask, as the reader chooses them (the lesson's own steps only when it has some). */
const ASK_CHOICES = [
  ["every", "every step"],
  ["updates", "steps that update"],
  ["kth", "every k-th step"],
  ["steps", "the lesson's steps"],
];
/** The most steps apart a reader may ask at. */
const MAX_K = 10000;
/** How many of the latest answers the score shows as marks. */
const LAST = 5;
const MARKS = { right: "✓", wrong: "✗", skipped: "–" };
const MARK_WORDS = { right: "right", wrong: "wrong", skipped: "skipped" };
/** The kinds of question whose answer the math panel works out at the step shown. */
const EXPLAINED = ["outcome", "side", "lines", "where"];

/** The record of one run's predictions, going on from `history` (a host's copy of it) if given. */
export function newRecord(payloadId, history = []) {
  const record = { payloadId, asked: 0, right: 0, skipped: 0, history: [] };
  for (const entry of history) tally(record, entry);
  return record;
}

/** Add an answer (or a skip) to the record. */
function tally(record, entry) {
  record.history.push(entry);
  record.asked += 1;
  record.right += entry.right ? 1 : 0;
  record.skipped += entry.skipped ? 1 : 0;
}

/** What a host keeps of the record: the counts, a mark per question (✓ ✗ –) and the history. */
export function summary(record) {
  const { asked, right, skipped, history } = record;
  return { asked, right, skipped, marks: history.map((e) => MARKS[outcomeOf(e)]).join(""), history };
}

/** "7 of 10 right; last five ✓✓✗✓✓" in parts, the marks also as words; null before any answer. */
export function scoreParts(record) {
  const answered = record.asked - record.skipped;
  if (!record.asked) return null;
  const last = record.history.slice(-LAST).map(outcomeOf);
  const skipped = record.skipped ? `, ${count(record.skipped)} skipped` : "";
  const lastWord = last.length === 1 ? "last" : `last ${["", "", "two", "three", "four", "five"][last.length]}`;
  return {
    text: `${count(record.right)} of ${count(answered)} right${skipped}; ${lastWord} `,
    marks: last.map((o) => MARKS[o]).join(""),
    words: `${lastWord}: ${last.map((o) => MARK_WORDS[o]).join(", ")}`,
  };
}

function outcomeOf(entry) {
  return entry.skipped ? "skipped" : entry.right ? "right" : "wrong";
}

export class PredictMode {
  /**
   * @param {HTMLElement} node  the panel's box (predict mode's controls, the question, the score)
   * @param {object} o  {lanes, scene, texts, state: {on, ask, k, steps, kinds, seed}, record,
   *   figures: [PlaneFigure or null per lane], math: whether the math panel shows,
   *   reveal(step, said): show the answered step, say(text): the live region,
   *   changed(): the settings changed (the link follows)}
   */
  constructor(node, o) {
    Object.assign(this, o);
    this.node = node;
    this.pending = null;
    this.shown = null; // the step whose answer is on the figure
    this.settled = new Set(o.record.history.map((entry) => entry.step));
    this.view = new QuestionView({ ...o, submit: "Check" });
    this._questioner();
    this._build();
    this.setOn(o.state.on, false);
  }

  _questioner() {
    this.questioner = new Questioner({ lanes: this.lanes, scene: this.scene, settings: this.state });
  }

  // -- the panel -----------------------------------------------------------------------

  _build() {
    const { state } = this;
    this.askSelect = el(
      "select",
      { class: "ask", "aria-label": "Ask before" },
      ASK_CHOICES.filter(([value]) => value !== "steps" || state.steps?.length).map(([value, text]) =>
        el("option", { value, selected: value === state.ask }, text),
      ),
    );
    this.askSelect.addEventListener("change", () => this._ask(this.askSelect.value));
    this.kInput = el("input", {
      type: "number",
      class: "ask-k",
      min: 2,
      max: MAX_K,
      step: 1,
      value: state.k,
      "aria-label": "k, the steps between questions",
    });
    this.kInput.addEventListener("change", () => this._k());
    this.kLabel = el("label", { class: "setting" }, "k ", this.kInput);
    this.score = el("p", { class: "predict-score" });
    this.body = el("div", { class: "predict-body" });
    fill(
      this.node,
      el("p", { class: "panel-title" }, "Predict, then step"),
      el(
        "div",
        { class: "predict-settings" },
        el("label", { class: "setting" }, "Ask before ", this.askSelect),
        this.kLabel,
      ),
      this.score,
      this.body,
    );
    this.kLabel.hidden = state.ask !== "kth";
    this._score();
    this._idle();
  }

  _idle(extra = null) {
    fill(
      this.body,
      extra,
      el("p", { class: "caption" }, "Press Step (or →): before each step that asks you will predict what it does."),
    );
  }

  _score() {
    const parts = scoreParts(this.record);
    if (!parts) {
      fill(this.score, "No predictions yet in this run.");
      return;
    }
    fill(
      this.score,
      parts.text,
      el("span", { class: "marks", "aria-hidden": "true" }, parts.marks),
      el("span", { class: "sr-only" }, parts.words),
    );
  }

  // -- settings ---------------------------------------------------------------------------

  get on() {
    return this.state.on;
  }

  /** Predict mode on or off (the replay's switch; `tell`: say it to the host's link). */
  setOn(on, tell = true) {
    this.state.on = on;
    this.node.hidden = !on;
    if (!on) this.withdraw();
    if (tell) this.changed();
  }

  _ask(value) {
    this.state.ask = value;
    this.kLabel.hidden = value !== "kth";
    this._questioner();
    this.withdraw();
    this.changed();
  }

  _k() {
    const k = Number(this.kInput.value);
    if (!Number.isInteger(k) || k < 2 || k > MAX_K) {
      this.kInput.value = this.state.k;
      this.say(`k takes a whole number from 2 to ${count(MAX_K)}; it stays ${this.state.k}.`);
      return;
    }
    this.state.k = k;
    this._questioner();
    this.withdraw();
    this.changed();
  }

  /** The link's entries for predict mode (null: leave the entry out). */
  linkParams() {
    const { on, ask, k } = this.state;
    return {
      predict: on ? "1" : null,
      ask: !on ? null : ask === "updates" ? "updates" : ask === "kth" ? String(k) : null,
    };
  }

  // -- asking -----------------------------------------------------------------------------

  /** The first step in (t, target] that asks and has not been answered or skipped, or null. */
  firstAsked(t, target) {
    if (!this.on) return null;
    for (let s = t + 1; s <= target; s++) {
      if (this.settled.has(s) || !this.questioner.asks(s)) continue;
      if (this.questioner.question(s)) return s;
    }
    return null;
  }

  /** Ask the question of step s; `focus`: the reader asked for it (their focus goes to it). */
  pose(s, focus) {
    const q = this.questioner.question(s);
    this.pending = q;
    this.shown = null;
    this.note = el("p", { class: "predict-note", hidden: true });
    const form = this.view.form(q, `answer-${q.step}`, [this.note, this._buttons()], (f) => this._check(f));
    this.form = form;
    fill(this.body, form);
    this.view.mark(q, null);
    if (focus) this._focus();
  }

  _focus() {
    this.form?.querySelector("input")?.focus();
  }

  /** A forward move while a question waits: nothing moves, and the reader is told why. */
  refuse() {
    const text = `Answer the question, or skip it, to see step ${count(this.pending.step)}.`;
    this.note.textContent = text;
    this.note.hidden = false;
    this.say(text);
    this._focus();
  }

  /** The question is put away unanswered (the reader moved back, or switched predict mode off). */
  withdraw() {
    if (this.pending) {
      this.pending = null;
      this.form = null;
      this._idle();
    }
    this._clearMarks();
  }

  /** At every painted step: a move away from the question withdraws it, and clears the answer's marks. */
  update(t) {
    if (this.pending && t + 1 !== this.pending.step) this.withdraw();
    if (this.shown !== null && t !== this.shown) this._clearMarks();
  }

  _buttons() {
    return el(
      "div",
      { class: "question-buttons" },
      el("button", { type: "submit", class: "btn btn-check" }, "Check"),
      el("button", { type: "button", class: "btn btn-skip", onclick: () => this.skip() }, "Skip"),
    );
  }

  // -- answers -------------------------------------------------------------------------------

  /** The reader's answer in the form (a choice's value, or [x, y]), or null with the note saying what is missing. */
  _answer(form, q) {
    const given = this.view.given(form, q);
    if (given.missing) return this._missing(`${given.missing} Or skip the question.`);
    return given.point || q.options[given.choice];
  }

  _missing(text) {
    this.note.textContent = text;
    this.note.hidden = false;
    this.say(text);
    this._focus();
    return null;
  }

  _check(form) {
    const q = this.pending;
    if (!q) return;
    const answer = this._answer(form, q);
    if (answer === null) return;
    const right = isRight(q, answer);
    this._settle(q, { answer, right, skipped: false });
    this._reveal(q, answer, right ? "right" : "wrong");
  }

  /** Skip the question: the step is shown, and counted as skipped. */
  skip() {
    const q = this.pending;
    if (!q) return;
    this._settle(q, { answer: null, right: null, skipped: true });
    this._reveal(q, null, "skipped");
  }

  _settle(q, { answer, right, skipped }) {
    const entry = {
      step: q.step,
      lane: q.lane,
      kind: q.kind,
      answer,
      expected: q.answer,
      right,
      skipped,
    };
    tally(this.record, entry);
    this.settled.add(q.step);
    this._score();
    announce(this.record, entry);
  }

  /** The verdict in the panel and the live region, the answer on the figure, and the step. */
  _reveal(q, answer, outcome) {
    this.pending = null;
    this.form = null;
    const head = { right: "Right.", wrong: "Not this time.", skipped: "Skipped." }[outcome];
    const why = this.math && EXPLAINED.includes(q.kind) ? " The math panel shows why." : "";
    const words = `${this.view.explain(q, answer, outcome === "right")}${why}`;
    fill(
      this.body,
      el(
        "p",
        { class: `verdict ${outcome}` },
        el("span", { "aria-hidden": "true" }, `${MARKS[outcome]} `),
        el("b", {}, head),
        ` ${words}`,
      ),
      el("p", { class: "caption" }, "Press Step for the next question."),
    );
    this.view.mark(q, answer, true);
    this.shown = q.step;
    this.reveal(q.step, `${head} ${words}`);
  }

  _clearMarks() {
    this.shown = null;
    this.view.clearMarks();
  }
}

/** Tell whoever keeps the record (another module, the notebook's host): a verdict was given. */
function announce(record, entry) {
  const detail = { payloadId: record.payloadId, entry, record };
  window.dispatchEvent(new CustomEvent("playback-predict", { detail }));
  try {
    const frame = window.frameElement;
    if (frame) {
      const Made = frame.ownerDocument.defaultView.CustomEvent;
      frame.dispatchEvent(new Made("playback-predict", { detail, bubbles: true }));
    }
  } catch {
    // another origin embeds us: its page has no way in, and the window's event stays
  }
}
