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
import { classWords, count, cut, minusNum, pair, signed } from "./format.js";
import { equation } from "./describe.js";
import { Questioner, distance, isRight } from "./questions.js";
import { MARGIN } from "./timeline.js";

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
/** A distractor line's misconception, said when it was chosen (questions.js's names). */
const MISTAKEN = {
  "w only": "moves w but leaves θ where it was; the update moves the threshold too",
  reversed: "moves w and θ the opposite way; an update moves the score towards the example's label",
  unchanged: "is the boundary before the step; this step moves it",
  doubled: "moves twice as far as one update",
};
/** The kinds of question whose answer the math panel works out at the step shown. */
const EXPLAINED = ["outcome", "side", "lines", "where"];
/** A committee's marks, as the choices say them. */
const CATEGORY_WORDS = {
  noisy: "Noisy: most members have it beyond the margin ρ on the wrong side",
  borderline: "Borderline: neither safe nor noisy",
  safe: "Safe: most members have it beyond the margin ρ on the right side",
};

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
    const form = el("form", { class: "question" }, this._fieldset(q), this.note, this._buttons());
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      this._check(form);
    });
    // Enter on a choice checks it, as it does in a number field
    form.addEventListener("keydown", (event) => {
      if (event.key === "Enter" && event.target.type === "radio") {
        event.preventDefault();
        form.requestSubmit();
      }
    });
    this.form = form;
    fill(this.body, form);
    this._mark(q, null);
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

  // -- the question's words --------------------------------------------------------------

  _lane(q) {
    return this.lanes[q.lane];
  }

  _example(q) {
    const j = this._lane(q).index[q.step - 1];
    const X = this.scene.arrays.X;
    const where = this.scene.view === "plane" ? ` at ${pair(X[2 * j], X[2 * j + 1])}` : "";
    return `example ${count(j + 1)} (label ${signed(this.scene.arrays.y[j])}${where && `,${where}`})`;
  }

  /** "point 31 at (0.5, −1.2)", or the next example itself. */
  _point(q) {
    const j = q.point;
    if (j === this._lane(q).index[q.step - 1]) return `the next example, ${this._example(q)}`;
    const X = this.scene.arrays.X;
    return `point P, training point ${count(j + 1)} at ${pair(X[2 * j], X[2 * j + 1])}`;
  }

  _prompt(q) {
    const lane = this._lane(q);
    const who = this.lanes.length > 1 ? `${cut(lane.meta.title, 60)}: ` : "";
    const head = `Before step ${count(q.step)}. ${who}`;
    const next = `The next example is ${this._example(q)}.`;
    switch (q.kind) {
      case "outcome":
        return `${head}What will the learner do with ${this._example(q)}, and why?`;
      case "side":
        return `${head}${next} After this step, on which side of the boundary will ${this._point(q)} be?`;
      case "lines":
        return `${head}${next} This step moves the boundary. Which dashed line, ${q.options.join(", ").replace(/, (\w)$/, " or $1")}, will be the boundary after it?`;
      case "where": {
        const start = pair(q.start[0], q.start[1]);
        return (
          `${head}${next} This step moves w, now at ${start} (ringed, “w now”). Where will w be after it? ` +
          `Click the plot where you expect it, or type its coordinates; within ${minusNum(q.tolerance, 2)} of it counts.`
        );
      }
      case "predictor":
        return `${head}${next} After this step, what will the ${q.mode} predictor say at ${this._point(q)}?`;
      case "vote":
        return `${head}Will the committee's vote on ${this._example(q)} be right?`;
      case "noisy":
        return `${head}When training ends, how will the committee mark ${this._example(q)}?`;
      default:
        return head;
    }
  }

  /** The words of choice `value` of question q. */
  _choice(q, value) {
    const names = this.scene.class_names;
    switch (q.kind) {
      case "outcome": {
        // "clears the margin" where the learner has one: a band, or updates on correct examples
        const margin = this._lane(q).meta.settings?.band || q.options.includes(MARGIN);
        if (value === 0 && !margin) return this.texts.predict.correct_no_band;
        return this.texts.predict.outcome[String(value)];
      }
      case "side":
        return `the ${signed(value)} side`;
      case "lines": {
        const [w1, w2, th] = q.candidates.find((c) => c.label === value).line;
        return `Line ${value}: ${equation(
          w1,
          w2,
          th,
          this.scene.feature_names.map((f) => cut(f)),
        )}`;
      }
      case "predictor":
        return classWords(names[value > 0 ? 1 : 0], signed(value));
      case "vote":
        return value === "right" ? "Right: most members say its label" : "Wrong: most members say the other label";
      case "noisy":
        return CATEGORY_WORDS[value];
      default:
        return String(value);
    }
  }

  _fieldset(q) {
    const legend = el("legend", {}, this._prompt(q));
    if (q.kind === "where") {
      const coordinate = (c) =>
        el("input", {
          type: "number",
          step: "any",
          class: `coord coord-${c}`,
          "aria-label": `w${c === 1 ? "₁" : "₂"}, the ${c === 1 ? "first" : "second"} coordinate of w after the step`,
        });
      this.coords = [coordinate(1), coordinate(2)];
      for (const input of this.coords) input.addEventListener("input", () => this._guessMoved());
      return el(
        "fieldset",
        { class: "where" },
        legend,
        el(
          "div",
          { class: "coords" },
          el("label", { class: "setting" }, "w₁ ", this.coords[0]),
          el("label", { class: "setting" }, "w₂ ", this.coords[1]),
        ),
      );
    }
    const choices = q.options.map((value, n) =>
      el(
        "label",
        { class: "choice" },
        el("input", { type: "radio", name: `answer-${q.step}`, value: String(n) }),
        ` ${this._choice(q, value)}`,
      ),
    );
    return el("fieldset", {}, legend, ...choices);
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

  /** The reader's answer in the form, or null with the note saying what is missing. */
  _answer(form, q) {
    if (q.kind === "where") {
      const point = this.coords.map((input) => Number(input.value));
      if (this.coords.some((input) => input.value.trim() === "") || !point.every(Number.isFinite)) {
        return this._missing("Type two numbers for w, or click the plot where it lands; or skip.");
      }
      return point;
    }
    const chosen = form.querySelector("input[type=radio]:checked");
    if (!chosen) return this._missing("Choose an answer, or skip the question.");
    return q.options[Number(chosen.value)];
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
    const words = `${this._explain(q, answer, outcome === "right")}${why}`;
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
    this._mark(q, answer, true);
    this.shown = q.step;
    this.reveal(q.step, `${head} ${words}`);
  }

  /** What the step did, as the verdict says it (and, for a wrong line, the misconception). */
  _explain(q, answer, right) {
    const lane = this._lane(q);
    switch (q.kind) {
      case "outcome": {
        const said = this.texts.spoken[String(q.answer)] || "?";
        return `It was: ${said}.`;
      }
      case "side":
        return `${capital(this._point(q))} ends on the ${signed(q.answer)} side.`;
      case "lines": {
        const chosen = q.candidates.find((c) => c.label === answer);
        const wrong = !right && chosen && chosen.name !== "answer" ? ` Line ${answer} ${MISTAKEN[chosen.name]}.` : "";
        return `Line ${q.answer} is the boundary after the step.${wrong}`;
      }
      case "where": {
        const at = `w lands at ${pair(q.answer[0], q.answer[1])}`;
        if (!answer) return `${at}.`;
        const off = distance(answer, q.answer);
        return `${at}; your mark, ${pair(answer[0], answer[1])}, is ${minusNum(off, 2)} from it (within ${minusNum(q.tolerance, 2)} counts).`;
      }
      case "predictor":
        return `The ${q.mode} predictor says ${signed(q.answer)} at ${this._point(q)}.`;
      case "vote": {
        let plus = 0;
        for (let m = 0; m < lane.M; m++) if (lane.scoreAt(q.step - 1, m) > 0) plus++;
        const vote = plus > lane.M - plus ? "+1" : "−1";
        return `${plus} of ${lane.M} members say +1: the vote is ${vote}, ${q.answer}.`;
      }
      case "noisy":
        return `When training ends the committee marks it ${q.answer}.`;
      default:
        return "";
    }
  }

  // -- the figure's marks ------------------------------------------------------------------

  _figure(q) {
    return this.figures?.[q.lane] || null;
  }

  /** The points, lines and marks of question q on its lane's figure (`revealed`: its answer too). */
  _mark(q, answer, revealed = false) {
    this._clearMarks();
    const figure = this._figure(q);
    if (!figure?.setMarks) return;
    const X = this.scene.arrays.X;
    const next = this._lane(q).index[q.step - 1];
    // the next example (once shown, it is the current one, ringed by the figure itself) and P
    const points = revealed ? [] : [{ x: X[2 * next], y: X[2 * next + 1], text: "next" }];
    if (q.point !== null && q.point !== next) points.push({ x: X[2 * q.point], y: X[2 * q.point + 1], text: "P" });
    const marks = { points, lines: [], rings: [] };
    if (q.kind === "lines" && !revealed) marks.lines = q.candidates.map((c) => ({ line: c.line, text: c.label }));
    if (q.kind === "where") {
      marks.rings.push({ at: q.start, text: "w now", old: true });
      if (revealed) marks.rings.push({ at: q.answer, text: "w after" });
      const guess = answer || (!revealed && this._guess());
      if (guess) marks.rings.push({ at: guess, text: "your w", guess: true });
      if (!revealed) this._listenForClick(figure);
    }
    this.marked = figure;
    figure.setMarks(marks);
  }

  _clearMarks() {
    this.shown = null;
    this.stopClicks?.();
    this.stopClicks = null;
    this.marked?.setMarks(null);
    this.marked = null;
  }

  _guess() {
    if (!this.coords) return null;
    const point = this.coords.map((input) => Number(input.value));
    return this.coords.every((input) => input.value.trim() !== "") && point.every(Number.isFinite) ? point : null;
  }

  _guessMoved() {
    if (this.pending?.kind === "where") this._mark(this.pending, null);
  }

  /** While "where does w go" waits, a click on the plot marks w there (and fills the fields). */
  _listenForClick(figure) {
    if (this.stopClicks) return;
    const onClick = (event) => {
      const at = figure.dataAt?.(event);
      if (!at || this.pending?.kind !== "where") return;
      event.stopPropagation(); // not a point edit
      this.coords[0].value = Number(at[0].toPrecision(3));
      this.coords[1].value = Number(at[1].toPrecision(3));
      this._guessMoved();
      this.say(`Your mark of w: ${pair(at[0], at[1])}. Press Check, or click again to move it.`);
    };
    figure.node.addEventListener("click", onClick, true);
    this.stopClicks = () => figure.node.removeEventListener("click", onClick, true);
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

function capital(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
