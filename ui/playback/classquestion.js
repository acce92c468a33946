// The teacher's question to the class, in the replay's panel beside the figure (classroom.js
// keeps the class's state and its socket; this module draws the question and sends nothing
// itself).
//
// Every page words the question itself: the class sends only what identifies it (the step,
// the lane, the kind, the seed; askedQuestion in questions.js draws it again from the run the
// page holds), so every student sees the teacher's question in the same words, and a page that
// is not on the class's view knows it (its choices differ) and offers the way back.
// - The teacher chooses a kind of question that fits the next step (the seeded one first),
//   asks, watches the answers arrive pooled (a count per choice, or for "where does w go" a
//   histogram of each coordinate), shows the right answer on their own screen if they want
//   (it is off, as the screen may be the projector), then reveals, or puts the question away.
// - A student answers in predict mode's form and may change the answer until the reveal;
//   the reveal shows their verdict and the class's results.
// - One of a lesson's exercises, asked from the lesson page, is drawn by classexercise.js.

import { ClassExercise } from "./classexercise.js";
import { percent, poolList, teacherButtons } from "./classpanel.js";
import { el, fill } from "./dom.js";
import { count, cut, minusNum } from "./format.js";
import { Questioner, askedQuestion, isRight } from "./questions.js";
import { QuestionView } from "./questionview.js";

/** A kind of question as the teacher's choice names it. */
const KIND_NAMES = {
  outcome: "What the learner does with the next example, and why",
  side: "On which side of the boundary a point ends",
  lines: "Which dashed line is the boundary after the step",
  where: "Where w lands (a point on the plot)",
  predictor: "What the voted or averaged predictor says at a point",
  vote: "Whether the committee's vote is right",
  noisy: "How the committee marks the example after training",
};

/** What the class's server needs of question q (its right answer is the key students get at the reveal). */
export function askMessage(q, seed, box) {
  const asked = { step: q.step, lane: q.lane, kind: q.kind, seed };
  if (q.kind === "where") return { ...asked, answer: q.answer, tolerance: q.tolerance, range: box };
  return { ...asked, options: q.options, answer: q.options.indexOf(q.answer) };
}

export class ClassQuestion {
  /**
   * @param {HTMLElement} node  the panel's box
   * @param {object} o  {lanes, scene, texts, figures, seed: the questions' seed (the data's),
   *   say(text): the live region, send(message): to the class, back(): to the class's view}
   */
  constructor(node, o) {
    Object.assign(this, o);
    this.node = node;
    this.view = new QuestionView({ ...o, submit: "Send" });
    this.key = null; // what the panel shows now: rebuilt only when it changes (the focus stays)
    this.choosing = false;
    this.showRight = false;
    this.t = 0;
    this.exercise = new ClassExercise(node, { say: o.say, send: o.send });
    node.hidden = true;
  }

  /** The class's question as this page words it (null: the page is not on its view). */
  _local(asked) {
    const q = askedQuestion(this.lanes, this.scene, asked);
    if (!q || (asked.kind !== "where" && JSON.stringify(q.options) !== JSON.stringify(asked.options))) return null;
    return q;
  }

  /**
   * Draw the class's state: `c` is {role, question (the class's, or null), pool (the teacher's),
   * yours (a student's own answer to it), onView, t (the painted step)}.
   */
  show(c) {
    this.c = c;
    this.t = c.t;
    const asked = c.question;
    if (asked?.kind === "exercise") {
      if (this.key !== "exercise") this.view.clearMarks();
      this.key = "exercise";
      this.q = null;
      this.exercise.show(c);
      return;
    }
    this.exercise.key = null;
    const q = asked ? this._local(asked) : null;
    const key = JSON.stringify([c.role, asked?.number, asked?.state, Boolean(q), c.onView, this.choosing]);
    if (key !== this.key) {
      this.key = key;
      this.q = q;
      this.pool = this.count = this.sent = this.verdict = null;
      this.view.clearMarks();
      if (!asked) this._none();
      else if (c.role === "teacher") this._teacher(asked, q);
      else this._student(asked, q);
    }
    this._numbers();
    this.update(c.t);
  }

  /** At every painted step: the question's marks on the figure at the step it is about. */
  update(t) {
    const moved = t !== this.t;
    this.t = t;
    if (moved && this.choosing && !this.c?.question) this._chooser(false); // about the new next step
    const asked = this.c?.question;
    const q = this.q;
    if (!asked || !q) return;
    const open = asked.state === "open";
    const at = open ? q.step - 1 : q.step;
    if (t !== at) {
      if (this.view.marked) this.view.clearMarks();
      return;
    }
    if (this.view.marked) return;
    const yours = this._yours();
    this.view.mark(q, open ? null : yours?.point || null, !open);
  }

  /** The server refused a student's answer (a number it cannot read): said beside the form. */
  refusedAnswer(words) {
    if (this.c?.question?.kind === "exercise") this.exercise.refused(words);
  }

  /** A forward move the class holds back: nothing moves, and the reader is told why. */
  refuse() {
    const step = count(this.c.question.step);
    const words =
      this.c.role === "teacher"
        ? `Reveal the answers, or put the question away, to show step ${step}.`
        : `Your teacher holds the class before step ${step} until the answers are shown.`;
    this._note(words);
  }

  _note(words) {
    if (this.note) {
      this.note.textContent = words;
      this.note.hidden = false;
    }
    this.say(words);
  }

  _yours() {
    const { yours, question } = this.c;
    return yours && question && yours.number === question.number ? yours.answer : null;
  }

  // -- the panel's states ------------------------------------------------------------------

  _title(words) {
    return el("p", { class: "panel-title" }, words);
  }

  _none() {
    if (this.c.role !== "teacher" || !this.choosing) {
      this.node.hidden = true;
      fill(this.node);
      return;
    }
    this.node.hidden = false;
    this._chooser(true);
  }

  /** The teacher's choice of question about the next step: the kinds that fit it (`focus`: on the first). */
  _chooser(focus) {
    const s = this.t + 1;
    const questioner = new Questioner({
      lanes: this.lanes,
      scene: this.scene,
      settings: { ask: "every", seed: this.seed },
    });
    const seeded = questioner.question(s);
    const lanes = this.lanes.map((_, k) => k).filter((k) => this.lanes[k].E >= s);
    const fitting = lanes.flatMap((k) => questioner.fitting(k, s));
    this.note = el("p", { class: "predict-note", hidden: true });
    if (!fitting.length) {
      fill(
        this.node,
        this._title("Ask the class"),
        el("p", {}, `No question fits step ${count(s)}: step on, then ask.`),
        el("button", { type: "button", class: "btn", onclick: () => this.choose(false) }, "Cancel"),
      );
      return;
    }
    const named = (q) =>
      `${this.lanes.length > 1 ? `${cut(this.lanes[q.lane].meta.title, 40)}: ` : ""}${KIND_NAMES[q.kind]}`;
    const choices = fitting.map((q, n) =>
      el(
        "label",
        { class: "choice" },
        el("input", {
          type: "radio",
          name: "class-kind",
          value: String(n),
          checked: seeded && q.lane === seeded.lane && q.kind === seeded.kind,
        }),
        ` ${named(q)}`,
      ),
    );
    const form = el(
      "form",
      { class: "question" },
      el("fieldset", {}, el("legend", {}, `Ask the class about step ${count(s)}`), ...choices),
      el(
        "div",
        { class: "question-buttons" },
        el("button", { type: "submit", class: "btn btn-ask" }, "Ask"),
        el("button", { type: "button", class: "btn", onclick: () => this.choose(false) }, "Cancel"),
      ),
    );
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const chosen = form.querySelector("input:checked");
      const q = fitting[Number(chosen?.value ?? 0)];
      this.choosing = false;
      this.send({ type: "ask", question: askMessage(q, this.seed, this.scene.box) });
    });
    fill(this.node, this._title("Ask the class"), form, this.note);
    if (focus) form.querySelector("input:checked, input")?.focus();
  }

  /** Open or close the teacher's choice of question (the class bar's "Ask the class"). */
  choose(open) {
    this.choosing = open;
    if (this.c) this.show(this.c);
  }

  _teacher(asked, q) {
    this.node.hidden = false;
    const open = asked.state === "open";
    this.pool = el("div", { class: "class-pool" });
    this.count = el("p", { class: "class-answered" });
    this.note = el("p", { class: "predict-note", hidden: true });
    const buttons = teacherButtons(open, this);
    const words = q ? this.view.prompt(q) : "A question about the class's view (go back to it to see its words).";
    const answer = q && !open ? asked.results?.answer : null;
    const expected = q?.kind === "where" ? answer : q?.options[answer];
    fill(
      this.node,
      this._title(
        `Question ${count(asked.number)} to the class · ${open ? "answers hidden from students" : "revealed"}`,
      ),
      el("p", { class: "class-prompt" }, words),
      answer == null ? null : el("p", {}, this.view.explain({ ...q, answer: expected }, null, false)),
      this.count,
      this.pool,
      buttons,
      this.note,
    );
  }

  _student(asked, q) {
    this.node.hidden = false;
    const open = asked.state === "open";
    this.note = el("p", { class: "predict-note", hidden: true });
    if (!q || !this.c.onView) {
      fill(
        this.node,
        this._title("A question from your teacher"),
        el("p", {}, "Your teacher asked the class a question about their view."),
        el("button", { type: "button", class: "btn", onclick: () => this.back() }, "Back to the teacher's view"),
        this.note,
      );
      return;
    }
    if (open) {
      this.sent = el("p", { class: "class-sent", role: "status" });
      const form = this.view.form(
        q,
        `class-answer-${asked.number}`,
        [
          el("div", { class: "question-buttons" }, el("button", { type: "submit", class: "btn btn-send" }, "Send")),
          this.sent,
          this.note,
        ],
        (f) => this._send(f, q, asked),
      );
      this.view.restore(form, this._yours());
      fill(this.node, this._title("A question from your teacher"), form);
      this.say(`Your teacher asks: ${this.view.prompt(q)}`);
      return;
    }
    this.count = el("p", { class: "class-answered" });
    this.pool = el("div", { class: "class-pool" });
    this.verdict = el("p", { class: "verdict" });
    fill(
      this.node,
      this._title("Your teacher revealed the answers"),
      el("p", { class: "class-prompt" }, this.view.prompt(q)),
      this.verdict,
      this.count,
      this.pool,
    );
  }

  _send(form, q, asked) {
    const given = this.view.given(form, q);
    if (given.missing) {
      this._note(given.missing);
      return;
    }
    if (this.note) this.note.hidden = true;
    this.send({ type: "answer", number: asked.number, ...given });
  }

  // -- the numbers: the pool, the results, the student's own answer --------------------------

  _numbers() {
    const { role, question: asked } = this.c;
    if (!asked || !(this.pool || this.sent)) return;
    if (role === "student" && asked.state === "open") {
      const yours = this._yours();
      if (this.sent && this.q) {
        this.sent.textContent = yours
          ? `Sent: ${this.view.answerWords(this.q, yours)}. You can change your answer until your teacher shows the answers.`
          : "";
      }
      return;
    }
    const results = asked.state === "revealed" ? asked.results : this.c.pool;
    if (!results || !this.pool) return;
    const shown = role === "student" || asked.state === "revealed" || this.showRight;
    const connected = this.c.roster?.connected;
    const of = role === "teacher" && connected != null ? ` of ${count(connected)} connected` : "";
    const right = shown ? ` · ${count(results.right)} right (${percent(results.right, results.answered)})` : "";
    this.count.textContent = `${count(results.answered)}${of} answered${right}`;
    if (results.histograms) this._histograms(results, shown);
    else this._counts(results, shown);
    if (role === "student" && this.verdict) this._verdict(results);
  }

  _counts(results, shown) {
    const q = this.q;
    const options = this.c.question.options;
    const yours = this.c.role === "student" ? this._yours() : null;
    const words = options.map((value) => (q ? this.view.choice(q, value) : String(value)));
    const right = (n) => shown && n === results.answer;
    fill(this.pool, poolList(words, results, right, yours?.choice ?? null, "Answers per choice"));
  }

  /** "Where does w go": a histogram of each coordinate of the marks, across the view. */
  _histograms(results, shown) {
    const figures = results.histograms.map((h, c) => {
      const most = Math.max(1, ...h.counts, h.below, h.above);
      const width = (h.high - h.low) / h.counts.length;
      const rightBin = shown ? Math.min(h.counts.length - 1, Math.floor((results.answer[c] - h.low) / width)) : -1;
      const bars = h.counts.map((n, b) =>
        el("span", { class: `hist-bar${b === rightBin ? " right" : ""}`, style: `height: ${(100 * n) / most}%` }),
      );
      const bins = h.counts.map((n, b) => {
        const from = minusNum(h.low + b * width, 2);
        const to = minusNum(h.low + (b + 1) * width, 2);
        return el("li", {}, `${from} to ${to}: ${count(n)}${b === rightBin ? " (the right value is here)" : ""}`);
      });
      const off = h.below + h.above ? ` · ${count(h.below)} below, ${count(h.above)} above the view` : "";
      return el(
        "figure",
        { class: "hist" },
        el("div", { class: "hist-bars", "aria-hidden": "true" }, ...bars),
        el(
          "figcaption",
          {},
          `${h.name}: marks from ${minusNum(h.low, 2)} to ${minusNum(h.high, 2)}${off}`,
          shown ? ` · right: ${minusNum(results.answer[c], 2)}` : "",
        ),
        el("ul", { class: "sr-only" }, ...bins),
      );
    });
    fill(this.pool, ...figures);
  }

  _verdict(results) {
    const q = this.q;
    const yours = this._yours();
    const expected = q.kind === "where" ? results.answer : q.options[results.answer];
    const shownQ = { ...q, answer: expected, tolerance: results.tolerance ?? q.tolerance };
    if (!yours) {
      fill(this.verdict, el("b", {}, "You did not answer."), ` ${this.view.explain(shownQ, null, false)}`);
      this.verdict.className = "verdict";
      return;
    }
    const answer = yours.point || q.options[yours.choice];
    const right = isRight(shownQ, answer);
    fill(
      this.verdict,
      el("span", { "aria-hidden": "true" }, right ? "✓ " : "✗ "),
      el("b", {}, right ? "Right." : "Not this time."),
      ` ${this.view.explain(shownQ, answer, right)}`,
    );
    this.verdict.className = `verdict ${right ? "right" : "wrong"}`;
  }
}
