// A question of predict mode as people see it: its words, its form (radio buttons, or two
// number fields for "where does w go", which a click on the plot fills), the verdict's words,
// and its marks on the lane's figure. questions.js chooses the question and knows its answer;
// predict.js (a reader's own questions) and classquestion.js (the teacher's question to the
// class) pose it, each with its own buttons and its own way to the answer.

import { el } from "./dom.js";
import { classWords, count, cut, minusNum, pair, signed } from "./format.js";
import { equation } from "./describe.js";
import { distance } from "./questions.js";
import { MARGIN } from "./timeline.js";

/** A distractor line's misconception, said when it was chosen (questions.js's names). */
const MISTAKEN = {
  "w only": "moves w but leaves θ where it was; the update moves the threshold too",
  reversed: "moves w and θ the opposite way; an update moves the score towards the example's label",
  unchanged: "is the boundary before the step; this step moves it",
  doubled: "moves twice as far as one update",
};
/** A committee's marks, as the choices say them. */
const CATEGORY_WORDS = {
  noisy: "Noisy: most members have it beyond the margin ρ on the wrong side",
  borderline: "Borderline: neither safe nor noisy",
  safe: "Safe: most members have it beyond the margin ρ on the right side",
};

export class QuestionView {
  /**
   * @param {object} o  {lanes, scene, texts, figures: [PlaneFigure or null per lane],
   *   say(text): the live region, submit: the name of the form's button that sends the answer}
   */
  constructor(o) {
    Object.assign(this, o);
    this.coords = null;
    this.asked = null; // the question whose marks wait for a click ("where")
    this.marked = null;
    this.stopClicks = null;
  }

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
  point(q) {
    const j = q.point;
    if (j === this._lane(q).index[q.step - 1]) return `the next example, ${this._example(q)}`;
    const X = this.scene.arrays.X;
    return `point P, training point ${count(j + 1)} at ${pair(X[2 * j], X[2 * j + 1])}`;
  }

  /** The question in words, as its form's legend says it. */
  prompt(q) {
    const lane = this._lane(q);
    const who = this.lanes.length > 1 ? `${cut(lane.meta.title, 60)}: ` : "";
    const head = `Before step ${count(q.step)}. ${who}`;
    const next = `The next example is ${this._example(q)}.`;
    switch (q.kind) {
      case "outcome":
        return `${head}What will the learner do with ${this._example(q)}, and why?`;
      case "side":
        return `${head}${next} After this step, on which side of the boundary will ${this.point(q)} be?`;
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
        return `${head}${next} After this step, what will the ${q.mode} predictor say at ${this.point(q)}?`;
      case "vote":
        return `${head}Will the committee's vote on ${this._example(q)} be right?`;
      case "noisy":
        return `${head}When training ends, how will the committee mark ${this._example(q)}?`;
      default:
        return head;
    }
  }

  /** The words of choice `value` of question q. */
  choice(q, value) {
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

  /** The question's fieldset: its legend, and its choices (radio buttons named `name`) or w's fields. */
  fieldset(q, name) {
    const legend = el("legend", {}, this.prompt(q));
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
    this.coords = null;
    const choices = q.options.map((value, n) =>
      el(
        "label",
        { class: "choice" },
        el("input", { type: "radio", name, value: String(n) }),
        ` ${this.choice(q, value)}`,
      ),
    );
    return el("fieldset", {}, legend, ...choices);
  }

  /** The question's form: its fieldset, then `after` (notes, buttons); Enter on a choice submits it. */
  form(q, name, after, onSubmit) {
    const form = el("form", { class: "question" }, this.fieldset(q, name), ...after);
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      onSubmit(form);
    });
    // Enter on a choice submits, as it does in a number field
    form.addEventListener("keydown", (event) => {
      if (event.key === "Enter" && event.target.type === "radio") {
        event.preventDefault();
        form.requestSubmit();
      }
    });
    return form;
  }

  /**
   * The answer given in `form`: `{choice}` (the option's index) or `{point}` ([w1, w2]), or
   * `{missing}`: the words that say what is missing.
   */
  given(form, q) {
    if (q.kind === "where") {
      const point = this._guess();
      if (!point) return { missing: "Type two numbers for w, or click the plot where it lands." };
      return { point };
    }
    const chosen = form.querySelector("input[type=radio]:checked");
    if (!chosen) return { missing: "Choose an answer." };
    return { choice: Number(chosen.value) };
  }

  /** Put an answer given before (`{choice}` or `{point}`) back into the form. */
  restore(form, given) {
    if (given?.point && this.coords) {
      this.coords.forEach((input, c) => {
        input.value = given.point[c];
      });
    } else if (given && "choice" in given) {
      const radio = form.querySelector(`input[type=radio][value="${Number(given.choice)}"]`);
      if (radio) radio.checked = true;
    }
  }

  /** An answer in words: "the +1 side", "(0.5, −1.2)". */
  answerWords(q, given) {
    if (given.point) return pair(given.point[0], given.point[1]);
    return this.choice(q, q.options[given.choice]);
  }

  /** What the step did, as the verdict says it (and, for a wrong line, the misconception). */
  explain(q, answer, right) {
    const lane = this._lane(q);
    switch (q.kind) {
      case "outcome": {
        const said = this.texts.spoken[String(q.answer)] || "?";
        return `It was: ${said}.`;
      }
      case "side":
        return `${capital(this.point(q))} ends on the ${signed(q.answer)} side.`;
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
        return `The ${q.mode} predictor says ${signed(q.answer)} at ${this.point(q)}.`;
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

  /** The points, lines and marks of question q on its lane's figure (`revealed`: its answer too). */
  mark(q, answer, revealed = false) {
    this.clearMarks();
    const figure = this.figures?.[q.lane];
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
      if (!revealed && this.coords) {
        this.asked = q;
        this._listenForClick(figure);
      }
    }
    this.marked = figure;
    figure.setMarks(marks);
  }

  clearMarks() {
    this.asked = null;
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
    if (this.asked) this.mark(this.asked, null);
  }

  /** While "where does w go" waits, a click on the plot marks w there (and fills the fields). */
  _listenForClick(figure) {
    if (this.stopClicks) return;
    const onClick = (event) => {
      const at = figure.dataAt?.(event);
      if (!at || !this.asked) return;
      event.stopPropagation(); // not a point edit
      this.coords[0].value = Number(at[0].toPrecision(3));
      this.coords[1].value = Number(at[1].toPrecision(3));
      this._guessMoved();
      this.say(`Your mark of w: ${pair(at[0], at[1])}. Press ${this.submit}, or click again to move it.`);
    };
    figure.node.addEventListener("click", onClick, true);
    this.stopClicks = () => figure.node.removeEventListener("click", onClick, true);
  }
}

function capital(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
