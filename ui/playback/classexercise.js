// One of a lesson's exercises asked to the class, in the question's panel of the replay
// (classquestion.js hands it every class state whose question is an exercise; it sends
// nothing itself but through `send`).
//
// The teacher asked it from the lesson page (ui/class_exercise.py): the class sends its
// text with the numbers of the lesson's run, its options or its steps (shuffled), never its
// right answer before the reveal. A student answers in the exercise's form: a number typed in,
// one option picked (radio buttons), or each place of the derivation given a step (one select
// per place: keyboard and screen reader alike, no dragging). The server checks the answer with
// the exercise's own rule; at the reveal the page is sent the class's results and the verdict
// on its own answer (the exercise's feedback), which the live region reads out.
// The teacher's class bar shows the answers pooled (per option, a histogram of the numbers, the
// misconceptions the wrong answers show), the share right and the right answer only on request
// until the reveal (the screen may be the projector).

import { percent, poolList, teacherButtons } from "./classpanel.js";
import { el, fill } from "./dom.js";
import { count, minusNum } from "./format.js";

/** The longest number a student may type (live_class/exercises.py's NUMBER_CHARS). */
const NUMBER_CHARS = 40;

/** The right answer as the exercise writes it. */
function rightWords(asked, results) {
  if (asked.form === "number") return `${minusNum(results.answer, 4)} (${asked.tolerance_text})`;
  if (asked.form === "choice") return results.answer.map((n) => asked.options[n]).join(" / ");
  return results.answer.map((n, k) => `${k + 1}. ${asked.options[n]}`).join(" → ");
}

/** `words` as a sentence: a full stop added unless it ends with one. */
function sentence(words) {
  return /[.!?]$/.test(words) ? words : `${words}.`;
}

/** A student's answer in words: the number as typed, the option, the steps in their order. */
function answerWords(asked, given) {
  if ("text" in given) return given.text;
  if ("choice" in given) return `“${asked.options[given.choice]}”`;
  return given.order.map((n, k) => `${k + 1}. ${asked.options[n]}`).join(" → ");
}

export class ClassExercise {
  /**
   * @param {HTMLElement} node  the question's panel
   * @param {object} o  {say(text): the live region, send(message): to the class}
   */
  constructor(node, o) {
    this.node = node;
    this.say = o.say;
    this.send = o.send;
    this.key = null;
    this.showRight = false;
    this.told = null; // the question whose verdict the live region read
  }

  /** Draw the class's state `c` ({role, question, pool, roster, yours, verdict}). */
  show(c) {
    this.c = c;
    const asked = c.question;
    const key = JSON.stringify([c.role, asked.number, asked.state, asked.text]);
    if (key !== this.key) {
      this.key = key;
      this.count = this.pool = this.sent = this.verdict = null;
      this.node.hidden = false;
      if (c.role === "teacher") this._teacher(asked);
      else if (asked.state === "open") this._form(asked);
      else this._revealed();
    }
    this._numbers();
  }

  _yours() {
    const { yours, question } = this.c;
    return yours && yours.number === question.number ? yours.answer : null;
  }

  _head(words) {
    const asked = this.c.question;
    return [
      el("p", { class: "panel-title" }, words),
      el("p", { class: "class-exercise-from" }, `Lesson ${asked.lesson} · ${asked.heading}`),
      el("p", { class: "class-prompt", id: `class-exercise-${asked.number}` }, asked.text),
    ];
  }

  // -- a student: the form, then the verdict -------------------------------------------------

  _form(asked) {
    const prompt = `class-exercise-${asked.number}`;
    this.sent = el("p", { class: "class-sent", role: "status" });
    this.note = el("p", { class: "predict-note", hidden: true });
    let fields;
    if (asked.form === "number") {
      fields = el(
        "label",
        { class: "class-number" },
        `Your answer: a number, ${asked.tolerance_text} `,
        el("input", {
          type: "text",
          inputmode: "decimal",
          name: "number",
          maxlength: NUMBER_CHARS,
          autocomplete: "off",
          "aria-describedby": prompt,
        }),
      );
    } else if (asked.form === "choice") {
      fields = el(
        "fieldset",
        { "aria-describedby": prompt },
        el("legend", {}, "Your answer"),
        ...asked.options.map((option, n) =>
          el(
            "label",
            { class: "choice" },
            el("input", { type: "radio", name: "choice", value: String(n) }),
            ` ${option}`,
          ),
        ),
      );
    } else {
      const places = asked.options.map((_, k) =>
        el(
          "label",
          { class: "class-place" },
          `Step ${k + 1} `,
          el(
            "select",
            { name: `place-${k}` },
            el("option", { value: "" }, "Choose a step"),
            ...asked.options.map((step, n) => el("option", { value: String(n) }, step)),
          ),
        ),
      );
      fields = el(
        "fieldset",
        { "aria-describedby": prompt },
        el("legend", {}, "Your order: choose the step that comes at each place"),
        ...places,
      );
    }
    const form = el(
      "form",
      { class: "question class-exercise" },
      fields,
      el("div", { class: "question-buttons" }, el("button", { type: "submit", class: "btn btn-send" }, "Send")),
      this.sent,
      this.note,
    );
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      this._send(form, asked);
    });
    form.addEventListener("keydown", (event) => {
      if (event.key === "Enter" && event.target.type === "radio") {
        event.preventDefault();
        form.requestSubmit();
      }
    });
    this._restore(form, this._yours());
    fill(this.node, ...this._head("A question from your teacher"), form);
    this.say(`Your teacher asks lesson ${asked.lesson}'s exercise: ${asked.text}`);
  }

  _restore(form, given) {
    if (!given) return;
    if ("text" in given) form.elements.number.value = given.text;
    else if ("choice" in given) {
      const radio = form.querySelector(`input[type=radio][value="${Number(given.choice)}"]`);
      if (radio) radio.checked = true;
    } else
      given.order.forEach((n, k) => {
        form.elements[`place-${k}`].value = String(n);
      });
  }

  /** The form's answer, or {missing: words saying what is missing}. */
  _given(form, asked) {
    if (asked.form === "number") {
      const text = form.elements.number.value.trim();
      return text ? { text } : { missing: "Type a number first, then send it." };
    }
    if (asked.form === "choice") {
      const chosen = form.querySelector("input[type=radio]:checked");
      return chosen ? { choice: Number(chosen.value) } : { missing: "Choose an answer." };
    }
    const order = asked.options.map((_, k) => form.elements[`place-${k}`].value);
    const empty = order.indexOf("");
    if (empty >= 0) return { missing: `Choose the step that comes at place ${empty + 1}.` };
    const twice = order.findIndex((value, k) => order.indexOf(value) !== k);
    if (twice >= 0)
      return {
        missing: `Step ${order.indexOf(order[twice]) + 1} and step ${twice + 1} are the same: each step has one place.`,
      };
    return { order: order.map(Number) };
  }

  _send(form, asked) {
    const given = this._given(form, asked);
    if (given.missing) {
      this.note.textContent = given.missing;
      this.note.hidden = false;
      this.say(given.missing);
      return;
    }
    this.note.hidden = true;
    this.send({ type: "answer", number: asked.number, ...given });
  }

  _revealed() {
    this.verdict = el("p", { class: "verdict" });
    this.count = el("p", { class: "class-answered" });
    this.pool = el("div", { class: "class-pool" });
    fill(this.node, ...this._head("Your teacher revealed the answers"), this.verdict, this.count, this.pool);
  }

  /** A refusal of the server (a number it cannot read, a question put away): said in the form. */
  refused(words) {
    if (!this.note) return;
    this.note.textContent = words;
    this.note.hidden = false;
  }

  // -- the teacher's panel -------------------------------------------------------------------

  _teacher(asked) {
    const open = asked.state === "open";
    this.count = el("p", { class: "class-answered" });
    this.pool = el("div", { class: "class-pool" });
    const buttons = teacherButtons(open, this);
    const state = open ? "answers hidden from students" : "revealed";
    fill(
      this.node,
      ...this._head(`Question ${count(asked.number)} to the class · ${state}`),
      this.count,
      this.pool,
      buttons,
    );
  }

  // -- the numbers -----------------------------------------------------------------------------

  _numbers() {
    const { role, question: asked } = this.c;
    const yours = this._yours();
    if (role === "student" && asked.state === "open") {
      if (this.sent)
        this.sent.textContent = yours
          ? `Sent: ${sentence(answerWords(asked, yours))} You can change your answer until your teacher shows the answers.`
          : "";
      return;
    }
    const results = asked.state === "revealed" ? asked.results : this.c.pool;
    if (!results || !this.pool) return;
    const shown = asked.state === "revealed" || this.showRight;
    const connected = this.c.roster?.connected;
    const of =
      role === "teacher" && asked.state === "open" && connected != null ? ` of ${count(connected)} connected` : "";
    const right = shown ? ` · ${count(results.right)} right (${percent(results.right, results.answered)})` : "";
    this.count.textContent = `${count(results.answered)}${of} answered${right}`;
    const parts = [];
    if (asked.form === "choice") {
      const isRight = (n) => shown && results.answer.includes(n);
      parts.push(poolList(asked.options, results, isRight, yours?.choice ?? null, "Answers per option"));
    }
    if (asked.form === "number" && results.histogram && results.answered)
      parts.push(this._histogram(results.histogram));
    if (shown) {
      parts.push(el("p", {}, el("b", {}, "The right answer: "), rightWords(asked, results)));
      parts.push(el("p", {}, results.why));
      if (results.misconceptions?.length)
        parts.push(
          el("p", { class: "pool-misconceptions-title" }, "Misconceptions the wrong answers show"),
          el(
            "ul",
            { class: "pool-misconceptions", "aria-label": "Misconceptions the wrong answers show" },
            ...results.misconceptions.map((m) =>
              el("li", {}, el("span", { class: "pool-count" }, count(m.count)), ` ${m.name}`),
            ),
          ),
        );
    }
    fill(this.pool, ...parts);
    if (role === "student" && this.verdict) this._verdict(asked, results, yours);
  }

  /** The numbers typed: bars (drawn) and the bins (read by a screen reader). */
  _histogram(h) {
    const most = Math.max(1, ...h.counts);
    const width = (h.high - h.low) / h.counts.length;
    const bars = h.counts.map((n) => el("span", { class: "hist-bar", style: `height: ${(100 * n) / most}%` }));
    const bins = h.counts.map((n, b) =>
      el("li", {}, `${minusNum(h.low + b * width, 4)} to ${minusNum(h.low + (b + 1) * width, 4)}: ${count(n)}`),
    );
    return el(
      "figure",
      { class: "hist" },
      el("div", { class: "hist-bars", "aria-hidden": "true" }, ...bars),
      el("figcaption", {}, `The numbers typed, from ${minusNum(h.low, 4)} to ${minusNum(h.high, 4)}`),
      el("ul", { class: "sr-only" }, ...bins),
    );
  }

  /** The server's verdict on this student's answer (the exercise's own feedback). */
  _verdict(asked, results, yours) {
    const said = this.c.verdict && this.c.verdict.number === asked.number ? this.c.verdict : null;
    if (!yours) {
      fill(this.verdict, el("b", {}, "You did not answer."), ` The right answer: ${rightWords(asked, results)}.`);
      this.verdict.className = "verdict";
    } else if (!said) {
      fill(this.verdict, `Your answer: ${sentence(answerWords(asked, yours))} Checking it…`);
      this.verdict.className = "verdict";
      return;
    } else {
      const start = said.right ? "Right." : "Not yet.";
      fill(
        this.verdict,
        el("span", { "aria-hidden": "true" }, said.right ? "✓ " : "✗ "),
        el("b", {}, said.right ? "Right." : "Not this time."),
        ` Your answer: ${sentence(answerWords(asked, yours))} ${said.text.startsWith(start) ? said.text.slice(start.length).trim() : said.text}`,
      );
      this.verdict.className = `verdict ${said.right ? "right" : "wrong"}`;
    }
    if (this.told !== asked.number) {
      this.told = asked.number;
      this.say(this.verdict.textContent.replace(/^[✓✗] /, ""));
    }
  }
}
