// The live class in the replay: the class bar, and the class's websocket (class_socket.py).
//
// The page tells us our place in a class (args.options.classroom: the role, the code, the
// teacher's key or the student's seat, the socket's path). We open the socket ourselves, on
// the app's own origin, so pacing costs no Streamlit rerun:
// - a teacher's steps go to the class (at most every STEP_EVERY_MS while playing), and the
//   bar's buttons pace it ("Bring everyone here", free exploration), list the students'
//   views and project one;
// - a student's page follows the class: in "follow" mode it takes the teacher's step at once
//   and, when the teacher's view (the share link's parameters) differs from its own, fetches
//   it from the class's route and shows it, then asks the page to open it too (one rerun, the
//   component's value; at once when the route has not got it); in "free" mode the bar offers
//   the way back. It reports its own view and step (for the teacher's snapshots) at most
//   every STATE_EVERY_MS.
// - a question to the class (classquestion.js draws it): the teacher asks, the students
//   answer, the teacher's page is sent the answers pooled, and the reveal shows the results
//   and the step to all. While it is open, the teacher's page, and a student's page that
//   follows, do not show the step it asks about (cap). One of a lesson's exercises, asked
//   from the lesson page (classexercise.js draws it), holds no step back; at its reveal the
//   server sends each student the exercise's verdict on their own answer.
// Outside a class (the exported page, the notebook) nothing here runs.

import { el, fill } from "./dom.js";

const STEP_EVERY_MS = 100;
const STATE_EVERY_MS = 2000;
const PING_EVERY_MS = 25000;
const RETRY_MS = [500, 1000, 2000, 4000, 5000];
/** A view fetched is opened on its page (its controls, its address) this long after: spread, so
 * that the class's script runs come after every student's fetch, not among them. */
const PAGE_AFTER_VIEW_MS = [1000, 4000];
/** The link's entries that are each screen's own, not the class's view (messages.py's NOT_VIEW). */
const NOT_VIEW = new Set(["t", "present", "hide", "teach", "join", "seat"]);
/** Close codes after which the page does not reconnect: the class ended; too many messages. */
const FINAL = new Set([4404, 4429]);

/** A view's parameters as the class compares them. */
function viewOf(params) {
  return Object.fromEntries(
    Object.entries(params || {})
      .filter(([name]) => !NOT_VIEW.has(name))
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  );
}

function sameView(a, b) {
  return JSON.stringify(viewOf(a)) === JSON.stringify(viewOf(b));
}

/** A few words for a view in the students' list: its data set, learner and edits. */
function describeView(view, step) {
  if (!view) return "no view reported yet";
  const parts = [view.data || "separable", view.learner || "perceptron"];
  if (view.edits) parts.push("edited points");
  return `${parts.join(", ")}, step ${step ?? 0}`;
}

export class Classroom {
  /**
   * @param {object} hooks `step()`: the replay's step; `move(t)`: go to step t;
   *   `requestView(value)`: ask the page to open a view (the component's value);
   *   `showView({args, blob})`: show a view fetched from the class's route.
   */
  constructor(hooks) {
    this.hooks = hooks;
    this.info = null;
    this.params = {};
    this.socket = null;
    this.state = null;
    this.retry = 0;
    this.asked = null; // the view revision a student's page asked the page to open
    this.sentStep = null;
    this.stepTimer = null;
    this.stateTimer = null;
    this.reported = null;
    this.students = [];
    this.openedNonce = null;
    this.panel = null; // the question's panel of the replay's current layout (classquestion.js)
    this.yours = null; // a student's own answer to the class's question: {number, answer}
    this.verdict = null; // the server's verdict on it, after an exercise's reveal: {number, right, text}
    this.fetchedViews = 0; // views shown from the class's route (for the tests)
    this.bar = el("div", { class: "class-bar", role: "region", "aria-label": "Live class" });
    // the mode's change, said to a screen reader (the head shows it already)
    this.status = el("p", { class: "class-status sr-only", role: "status" });
  }

  /** Put the bar at the top of the replay (after every rebuild of its layout). */
  mount(root) {
    if (this.info) root.prepend(this.bar);
  }

  /** The question's panel of a new layout. */
  attach(panel) {
    this.panel = panel;
    this.drawQuestion();
  }

  /**
   * The page's arguments arrived (a first view, a new view, or the same again); `fetched`: the
   * view shown is one fetched from the class's route, which the page has not opened yet.
   */
  render(info, params, fetched = false) {
    this.params = params || {};
    this.showsFetched = fetched;
    const key = info ? `${info.role}:${info.secret}` : null;
    const before = this.info ? `${this.info.role}:${this.info.secret}` : null;
    this.info = info || null;
    if (key !== before) {
      this.close();
      if (info) this.open();
    }
    if (!info) {
      this.bar.remove();
      return;
    }
    // a view the class opened on this page (joined, brought, projected, back): at its step
    const opened = info.opened;
    if (opened && opened.nonce !== this.openedNonce) {
      this.openedNonce = opened.nonce;
      if (this.hooks.step() !== opened.t) this.hooks.move(opened.t);
    }
    if (this.state) this.follow();
    this.draw();
    this.report();
    this.drawQuestion();
  }

  // -- the socket ------------------------------------------------------------------------

  /** The address of the class's `path` on this page's server, for a websocket or (`http`) a fetch. */
  url(path, kind = "ws") {
    const base = location.pathname.split("/component/")[0];
    const secure = location.protocol === "https:" ? "s" : "";
    return `${kind}${secure}://${location.host}${base}/${path}`;
  }

  open() {
    const socket = new WebSocket(this.url(this.info.path));
    this.socket = socket;
    socket.onopen = () => {
      this.retry = 0;
      const hello = this.info.role === "teacher" ? { teacher: this.info.secret } : { seat: this.info.secret };
      this.send({ type: "hello", ...hello });
      this.sentStep = null;
      this.painted(this.hooks.step());
      this.draw();
    };
    socket.onmessage = (event) => this.heard(JSON.parse(event.data));
    socket.onclose = (event) => {
      if (socket !== this.socket) return; // an old socket, replaced
      this.socket = null;
      if (FINAL.has(event.code)) {
        this.ended = true;
        this.draw();
        return;
      }
      const wait = RETRY_MS[Math.min(this.retry, RETRY_MS.length - 1)];
      this.retry += 1;
      this.draw();
      this.reconnect = setTimeout(() => this.info && !this.socket && this.open(), wait);
    };
    clearInterval(this.pinger);
    this.pinger = setInterval(() => this.send({ type: "ping" }), PING_EVERY_MS);
  }

  close() {
    clearTimeout(this.reconnect);
    clearInterval(this.pinger);
    const socket = this.socket;
    this.socket = null;
    this.state = null;
    this.yours = null;
    this.verdict = null;
    this.ended = false;
    socket?.close();
    this.drawQuestion();
  }

  send(message) {
    if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(message));
  }

  heard(message) {
    if (message.type === "class") {
      const before = this.state;
      this.state = message;
      if (before && before.mode !== message.mode) this.say(this.modeWords());
      this.follow(before);
      this.revealed(before?.question, message.question);
    } else if (message.type === "answered") {
      this.yours = { number: message.number, answer: message.answer };
    } else if (message.type === "verdict") {
      this.verdict = { number: message.number, right: message.right, text: message.text };
    } else if (message.type === "students") {
      this.students = message.students;
      this.showStudents = true;
    } else if (message.type === "error" || message.type === "closed") {
      this.say(message.message);
      if (message.type === "error") this.panel?.refusedAnswer(message.message);
    }
    this.draw();
    this.drawQuestion();
  }

  // -- the question to the class -----------------------------------------------------------

  /** The teacher's page shows the step of a question just revealed (the class's step now). */
  revealed(before, now) {
    if (this.info.role !== "teacher" || !before || !now || before.number !== now.number) return;
    if (now.kind === "exercise") return; // about a lesson's run, not a step of this replay
    if (before.state === "open" && now.state === "revealed") this.hooks.move(now.step);
  }

  drawQuestion() {
    if (!this.panel) return;
    const state = this.info && this.socket ? this.state : null;
    this.panel.show({
      role: this.info?.role,
      question: state?.question || null,
      pool: state?.pool || null,
      roster: state?.roster || null,
      yours: this.yours,
      verdict: this.verdict,
      onView: Boolean(state) && sameView(this.params, state.view),
      t: this.hooks.step(),
    });
  }

  /**
   * The last step this page may show now, or null: while the class's question is open, the
   * teacher's page, and a student's that follows the class on its view, stay before its step.
   */
  cap() {
    const question = this.state?.question;
    if (!this.info || !this.socket || question?.state !== "open" || question.kind === "exercise") return null;
    if (this.info.role === "teacher") return this.info.projecting != null ? null : question.step - 1;
    if (this.state.mode !== "follow" || !sameView(this.params, this.state.view)) return null;
    return question.step - 1;
  }

  // -- following (a student) ---------------------------------------------------------------

  /** Put a student's page on the class's view and step, in follow mode or when brought. */
  follow(before = this.state) {
    const state = this.state;
    if (this.info.role !== "student" || !state) return;
    const brought = before && state.bring !== before.bring;
    if (state.mode !== "follow" && !brought) return;
    if (brought) this.asked = null;
    if (!sameView(this.params, state.view)) {
      // asked once per view: a view this page cannot open exactly does not loop
      if (this.asked !== state.view_rev) this.back();
      return; // the page is opening the view; its render brings us here again
    }
    // on the class's view by its page's own run: a later change of its own is asked back again
    if (!this.showsFetched) this.asked = null;
    if (this.hooks.step() !== state.step) this.hooks.move(state.step);
  }

  /**
   * Go to the class's view and step (a student's "back", or the pace). The view is fetched from
   * the class's route when a page of this server process has drawn it: the replay shows it at
   * once, and the page's controls and address come along in a script run a moment later;
   * otherwise the page runs its script for it (and shelves it for the others).
   */
  back() {
    const state = this.state;
    if (!state) return;
    if (sameView(this.params, state.view)) {
      this.hooks.move(state.step);
      return;
    }
    this.asked = state.view_rev;
    clearTimeout(this.pageTimer);
    this.fetchView(state);
  }

  async fetchView(state) {
    const view = await this.viewFromRoute();
    if (this.state?.view_rev !== state.view_rev) return; // a newer view came meanwhile
    if (!view) {
      this.openOnPage();
      return;
    }
    this.fetchedViews += 1;
    this.hooks.showView(view);
    const [least, most] = PAGE_AFTER_VIEW_MS;
    this.pageTimer = setTimeout(
      () => {
        if (this.state?.view_rev === state.view_rev) this.openOnPage();
      },
      least + Math.random() * (most - least),
    );
  }

  /** The page opens the class's view (a script run), at the class's step. */
  openOnPage() {
    const { view, step } = this.state;
    this.hooks.requestView({ action: "class_view", params: view, t: step, nonce: `${Date.now()}` });
  }

  /** The class's view from the class's route ({args, blob}), or null when this server process has not shelved it. */
  async viewFromRoute() {
    try {
      const response = await fetch(this.url(this.info.view_path, "http"), {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ seat: this.info.secret }),
        cache: "no-store",
      });
      if (response.status !== 200) return null;
      const bytes = new Uint8Array(await response.arrayBuffer());
      const size = new DataView(bytes.buffer).getUint32(0, true);
      const args = JSON.parse(new TextDecoder().decode(bytes.subarray(4, 4 + size)));
      return { args, blob: bytes.subarray(4 + size) };
    } catch {
      return null; // the network or the server: the page's script run is the way
    }
  }

  // -- what this page sends --------------------------------------------------------------

  /** A step was painted: a teacher's goes to the class; a student's is reported. */
  painted(t) {
    if (!this.info) return;
    if (this.info.role === "teacher") {
      if (this.info.projecting != null || t === this.sentStep || this.stepTimer) return;
      this.stepTimer = setTimeout(() => {
        this.stepTimer = null;
        const now = this.hooks.step();
        if (now !== this.sentStep && this.socket?.readyState === WebSocket.OPEN) {
          this.sentStep = now;
          this.send({ type: "step", t: now });
        }
      }, STEP_EVERY_MS);
    } else {
      this.report();
      if (this.away() !== this.awayDrawn) this.draw();
    }
  }

  /** A student's view and step, for the teacher's snapshots (at most every STATE_EVERY_MS). */
  report() {
    if (this.info?.role !== "student" || this.stateTimer) return;
    this.stateTimer = setTimeout(() => {
      this.stateTimer = null;
      const state = { params: viewOf(this.params), t: this.hooks.step() };
      const text = JSON.stringify(state);
      if (text !== this.reported && this.socket?.readyState === WebSocket.OPEN) {
        this.reported = text;
        this.send({ type: "state", ...state });
      }
    }, STATE_EVERY_MS);
  }

  pace(mode, bring) {
    this.send({ type: "pace", mode, bring });
  }

  project(student) {
    this.hooks.requestView({
      action: "class_view",
      params: student.view,
      t: student.step ?? 0,
      student: student.number,
      nonce: `${Date.now()}`,
    });
  }

  // -- the bar: built once, then only its words and states change (a redraw would take the
  // keyboard's focus off the button just pressed) ---------------------------------------------

  say(words) {
    this.status.textContent = words;
  }

  modeWords() {
    const following = this.state?.mode === "follow";
    if (this.info.role === "teacher")
      return following ? "Students follow your view and step." : "Students explore freely.";
    return following ? "Following the teacher." : "Free exploration: change anything, then come back.";
  }

  build() {
    const button = (cls, label, onclick, title) =>
      el("button", { type: "button", class: `btn ${cls}`, onclick, title }, label);
    this.head = el("p", { class: "class-head" });
    this.teacher = el(
      "div",
      { class: "class-tools" },
      button(
        "class-bring",
        "Bring everyone here",
        () => this.pace("follow", true),
        "Every student's page goes to your view and step, and follows you.",
      ),
      button(
        "class-free",
        "Free exploration",
        () => this.pace(this.state?.mode === "free" ? "follow" : "free", false),
        "Students step and change settings on their own; they can come back with one click.",
      ),
      button("class-students", "Students' views", () => {
        if (this.showStudents) {
          this.showStudents = false;
          this.draw();
        } else this.send({ type: "students" });
      }),
      button(
        "class-ask",
        "Ask the class",
        () => {
          this.panel?.choose(!this.panel.choosing);
          this.draw();
        },
        "A question about the next step, which every student answers on their own page.",
      ),
      button(
        "class-names",
        "Show nicknames",
        () => this.send({ type: "names", show: !this.state?.show_names }),
        "Nicknames in the students' list: off while the screen is projected.",
      ),
      el("span", { class: "class-roster" }),
    );
    this.list = el("ul", { class: "class-students-list", "aria-label": "Students' views" });
    this.student = el(
      "div",
      { class: "class-tools" },
      button("class-back", "Back to the teacher's view", () => this.back()),
    );
    fill(this.bar, this.head, this.teacher, this.student, this.list, this.status);
  }

  draw() {
    if (!this.info) return;
    if (!this.head) this.build();
    const { role, code } = this.info;
    const state = this.state;
    const live = this.socket?.readyState === WebSocket.OPEN && state && !this.ended;
    const words = this.ended ? "The class has ended." : live ? this.modeWords() : "Connecting to the class…";
    fill(this.head, el("strong", {}, `Class ${code}`), ` · ${words}`);
    this.teacher.hidden = !(live && role === "teacher");
    this.student.hidden = !(live && role === "student" && this.away());
    this.list.hidden = !(role === "teacher" && this.showStudents);
    if (role === "teacher" && state) {
      const [, free, students, ask, names, roster] = this.teacher.children;
      free.setAttribute("aria-pressed", String(state.mode === "free"));
      students.setAttribute("aria-expanded", String(Boolean(this.showStudents)));
      ask.hidden = Boolean(state.question); // the question's panel has its own buttons meanwhile
      ask.setAttribute("aria-expanded", String(Boolean(this.panel?.choosing)));
      names.setAttribute("aria-pressed", String(Boolean(state.show_names)));
      roster.textContent = state.roster ? `${state.roster.joined} joined, ${state.roster.connected} connected` : "";
      if (this.showStudents) this.drawStudents();
    }
    this.awayDrawn = this.away();
  }

  /** Whether a student's page is off the class's view or step (then "back" is offered). */
  away() {
    const state = this.state;
    if (this.info?.role !== "student" || !state) return false;
    return state.mode === "free" || !sameView(this.params, state.view) || this.hooks.step() !== state.step;
  }

  drawStudents() {
    if (!this.students.length) {
      fill(this.list, el("li", {}, "No student has joined yet."));
      return;
    }
    const rows = this.students.map((student) =>
      el(
        "li",
        {},
        el("span", {}, student.name ? `${student.name} (student ${student.number})` : `Student ${student.number}`),
        ` · ${describeView(student.view, student.step)}${student.connected ? "" : " · away"} `,
        el(
          "button",
          {
            type: "button",
            class: "btn class-project",
            disabled: !student.view,
            onclick: () => this.project(student),
            "aria-label": `Project student ${student.number}'s view`,
          },
          "Project",
        ),
      ),
    );
    fill(this.list, ...rows);
  }
}
