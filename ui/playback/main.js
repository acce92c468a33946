// The playback component: the recorded run(s) arrive once, then the browser
// steps, plays and scrubs on its own. Only a click that edits the points is
// sent back to the server (the learner retrains there).

import { connect, setComponentValue, setFrameHeight } from "./protocol.js";
import { decode } from "./payload.js";
import { el, fill } from "./dom.js";
import { cut } from "./format.js";
import { Lane } from "./timeline.js";
import { Controls, KEYS, inReplay, typedIntoWidget } from "./controls.js";
import { PlaneFigure, clickedAt } from "./plane.js";
import { ProjectionView } from "./projection.js";
import { MathPanel } from "./mathpanel.js";
import { Scoreboard } from "./scoreboard.js";
import { BoundMeter, Diagnostics, lanePredictors } from "./diagnostics.js";
import { Extras } from "./extras.js";
import { SharePanel, syncPageUrl } from "./share.js";
import { accuracy, pointsField, truthOf } from "./fields.js";
import { Announcer, LEVELS, liveRegion, stepPhrase } from "./speech.js";
import { load, save } from "./settings.js";
import { watchScrollBoxes } from "./scrollboxes.js";
import { Classroom } from "./classroom.js";
import { PredictMode, newRecord, summary } from "./predict.js";
import { SOUND, soundControls } from "./hearing.js";
import { RunSound } from "./runsound.js";
import { ClassQuestion } from "./classquestion.js";

const app = {
  payloadId: null,
  viewKey: null,
  lanes: [],
  scene: null,
  arrays: null,
  args: null,
  t: 0,
  playing: false,
  speed: 10,
  unit: "example",
  parts: [],
  later: [],
  settled: false,
  // the reader's own settings (settings.js): the keys, and what a move announces (speech.js)
  shortcuts: load("shortcuts", "on", ["on", "off"]) === "on",
  level: load("level", "verdict", Object.keys(LEVELS)),
  // predict mode (predict.js): the run's record of answers, kept while the payload is the same
  // (another module may keep it: see predict.js), and its settings, first the host's
  predict: null,
  predictState: null,
  predictFrom: null,
};
window.playback = app; // for the tests and the benchmark: the state and the last painted step
app.predictSummary = summary; // for a host that keeps predict mode's score (the notebook's)
app.sound = SOUND; // for the tests: the sounds scheduled (sound.js)

const root = document.getElementById("app");
// a landmark named for people: in a frame of its own (the app, the notebook) a region of the
// page around it; as the exported page's own content its main part
root.setAttribute("role", window.parent === window ? "main" : "region");
root.setAttribute("aria-label", "Training replay");
const region = liveRegion(); // made once: it outlives the views a rerun rebuilds
// the numbers' tables, each named by its caption
watchScrollBoxes(
  root,
  "table.numbers, .table-scroll",
  (box) => box.querySelector("caption")?.textContent.trim() || "Table",
);
/** With reduced motion, Play shows a new step at most this often (the speed still holds). */
const CALM_INTERVAL_MS = 1000;
const calm = window.matchMedia("(prefers-reduced-motion: reduce)");

// -- time --------------------------------------------------------------------------

const driver = () => app.lanes[0];

function setStep(t) {
  t = driver().clip(t);
  const cap = classroom.cap(); // a live class's open question holds its step back
  if (cap !== null && t > cap) {
    pause(true);
    app.classQuestion.refuse();
    t = Math.max(0, cap);
  }
  if (t === app.t && app.painted === t) return;
  app.t = t;
  paint();
}

/** A move by the reader: stop playing, paint step t, say where the run is. */
function move(t) {
  pause(true);
  setStep(t);
  app.speech?.moved(app.t);
  app.runSound?.moved(app.t);
}

/**
 * A move forward by the reader (Step, Next update, End of epoch): in predict mode it stops
 * before the first step that asks, and asks; while a question waits nothing moves.
 */
function forward(target) {
  const predictor = app.predictor;
  if (predictor?.pending) {
    pause(true);
    predictor.refuse();
    return;
  }
  const s = predictor?.firstAsked(app.t, target);
  if (!s) {
    move(target);
    return;
  }
  if (s - 1 !== app.t) move(s - 1);
  else pause(true);
  predictor.pose(s, true);
}

/** A question was answered or skipped: show its step, saying the verdict before the step. */
function revealed(s, said) {
  pause(true);
  setStep(s);
  app.speech?.moved(app.t, said);
  app.runSound?.moved(app.t);
  app.controls?.buttons.step.focus();
}

const actions = {
  start: () => move(0),
  back: () => move(app.t - 1),
  step: () => forward(app.t + 1),
  update: () => forward(driver().nextUpdate(app.t)),
  epoch: () => forward(driver().endOfEpoch(app.t)),
  end: () => move(driver().E),
  play: () => (app.playing ? pause() : app.predictor?.pending ? app.predictor.refuse() : play()),
  scrub: (t) => {
    pause(true);
    setStep(t);
  }, // said when the scrubber is let go: scrubbed
  scrubbed: () => {
    app.speech?.moved(app.t);
    app.runSound?.moved(app.t);
  },
  speed: (s) => {
    app.speed = s;
  },
  unit: (u) => {
    app.unit = u;
  },
  shortcuts: (on) => {
    app.shortcuts = on;
    save("shortcuts", on ? "on" : "off");
  },
  level: (level) => {
    app.level = level;
    if (app.speech) app.speech.level = level;
    save("level", level);
  },
  predict: (on) => app.predictor?.setOn(on),
};

function advance(t, steps) {
  const lane = driver();
  for (let s = 0; s < steps && t < lane.E; s++) {
    t = app.unit === "update" ? lane.nextUpdate(t) : app.unit === "epoch" ? lane.endOfEpoch(t) : t + 1;
  }
  return lane.clip(t);
}

function play() {
  if (driver().E === 0) return;
  if (app.t >= driver().E) app.t = 0;
  app.playing = true;
  let last = performance.now(),
    owed = 0,
    shownAt = -Infinity;
  const tick = (now) => {
    if (!app.playing) return;
    owed += ((now - last) / 1000) * app.speed;
    last = now;
    const steps = Math.floor(owed);
    // reduced motion: the figure jumps once a second instead of moving at every frame
    if (steps > 0 && now - shownAt >= (calm.matches ? CALM_INTERVAL_MS : 0)) {
      owed -= steps;
      shownAt = now;
      const target = advance(app.t, steps); // a slow frame moves on by several steps, never falls behind
      const asked = app.predictor?.firstAsked(app.t, target);
      if (asked) {
        // predict mode: play stops before the step that asks, and asks
        setStep(asked - 1);
        pause(true);
        app.predictor.pose(asked, true);
        return;
      }
      const from = app.t;
      setStep(target);
      app.runSound?.played(from, app.t);
    }
    if (app.t >= driver().E) pause();
    else requestAnimationFrame(tick);
  };
  app.speech?.startedPlaying(app.t);
  paint();
  requestAnimationFrame(tick);
}

/** Stop playing; say where it stopped unless a move that says so itself follows (`quiet`). */
function pause(quiet = false) {
  if (!app.playing) return;
  app.playing = false;
  paint();
  if (!quiet) app.speech?.paused(app.t);
}

// the live class's bar and socket (classroom.js): it reads and moves the step, and asks the
// page for a view through the component's value
const classroom = new Classroom({
  step: () => app.t,
  move: (t) => move(t),
  requestView: (value) => setComponentValue(value),
  showView: (view) => showView(view),
});

app.classroom = classroom; // for the tests

/**
 * A view of the live class that classroom.js fetched: shown over the page's own arguments
 * (Streamlit sends them again whenever it draws the frame) until the page has opened a view
 * of the class itself, in the script run that follows.
 */
let fetchedView = null;

function showView({ args, blob }) {
  fetchedView = { args, blob, opened: app.pageArgs.options.classroom?.opened?.nonce };
  onRender(app.pageArgs);
}

// -- painting ----------------------------------------------------------------------

function paint() {
  const t = app.t;
  for (const part of app.parts) part.update(t, app.playing);
  app.predictor?.update(t);
  app.classQuestion?.update(t);
  app.controls?.show(t, driver().E, app.playing, stepPhrase(driver(), t));
  if (app.playing) app.speech?.playing(t);
  app.painted = t;
  app.paintedAt = performance.now();
  classroom.painted(t);
  if (!app.playing) scheduleUrl();
}

/** The link's entries the replay keeps besides the step: predict mode's. */
function linkParams() {
  return app.predictor?.linkParams() || {};
}

let urlTimer = null;
let reportTimer = null;
function scheduleUrl() {
  clearTimeout(urlTimer);
  urlTimer = setTimeout(() => syncPageUrl(app.t, linkParams()), 250);
  if (app.reportStep) {
    clearTimeout(reportTimer);
    reportTimer = setTimeout(reportStep, REPORT_REST_MS);
  }
}

/** How long a step must rest before it is told to the server (clicks in a row send one). */
const REPORT_REST_MS = 600;

/**
 * While the page's download section is open (`options.report_step`), a step that rests and
 * differs from the server's is told to it (a rerun; Streamlit's own reruns send the address
 * the server last wrote, not the one we keep in step), so the web page the section offers
 * opens at the step on screen. Otherwise stepping sends nothing.
 */
function reportStep() {
  if (app.playing || app.t === app.reported) return;
  app.reported = app.t;
  setComponentValue({ action: "step", t: app.t, nonce: `${Date.now()}` });
}

// -- building the views --------------------------------------------------------------

/**
 * A part built after the first painted step: building the charts under the figure delayed the
 * first figure (docs/benchmarks.md), which should not wait for them.
 */
function later(make) {
  const part = {
    make,
    built: null,
    update(t, playing) {
      this.built?.update(t, playing);
    },
  };
  app.later.push(part);
  return part;
}

/** Build the parts `later` put aside, once the browser has shown the figure. */
function buildLater() {
  const waiting = app.later;
  requestAnimationFrame(() =>
    setTimeout(() => {
      if (waiting !== app.later) return; // the views were rebuilt meanwhile: their own call builds them
      for (const part of waiting) {
        part.built = part.make();
        part.built.update(app.t, app.playing);
      }
      app.settled = true; // for the tests: every part is there
    }),
  );
}

function plotConfig(args) {
  return {
    displaylogo: false,
    responsive: true,
    modeBarButtonsToRemove: ["select2d", "lasso2d"],
    toImageButtonOptions: { format: args.options.image, filename: "perceptron-lab" },
  };
}

/** Height a figure needs besides its square plot area: axis titles, ticks, a legend under it. */
const AXES_AND_LEGEND = 140;

/**
 * The figure's height so that it ends inside the page's window (a projector's 768 px), between
 * style.figure.min_height and `most`: when the figure starts in the first screen its bottom
 * meets the window's; further down the page it gets a window of its own.
 */
function fittedHeight(box, most, style) {
  // in a narrow column (a phone) the plot area, square as the axes share one scale, is as wide as
  // the column: a taller figure would only add empty space above and below it
  most = Math.max(style.figure.min_height, Math.min(most, box.clientWidth + AXES_AND_LEGEND));
  try {
    const windowHeight = window.parent.innerHeight;
    const top = pageTop(window.frameElement) + box.getBoundingClientRect().top;
    // the status line above the plot takes up to two lines of text, the row of the figure's
    // words under it one line of buttons
    const status = Math.ceil(2.6 * style.font.base) + 8;
    const words = Math.ceil(2.2 * style.font.base) + 12;
    const room = top < 0.6 * windowHeight ? windowHeight - top - status - words : windowHeight - 40;
    return Math.round(Math.max(style.figure.min_height, Math.min(most, room)));
  } catch {
    return most; // another origin embeds us: the page's window is not ours to measure
  }
}

/**
 * Where `frame` starts on its page, however far the page has been scrolled: Streamlit scrolls a
 * section of the page rather than the window.
 */
function pageTop(frame) {
  let top = frame.getBoundingClientRect().top;
  // up to the document's own element, whose scrollTop is the window's scrollY
  for (let node = frame.parentElement; node; node = node.parentElement) top += node.scrollTop;
  return top;
}

/** The step-dependent parts of the page, each with update(t). */
function build(args) {
  const { scene, lanes } = app;
  const { options, style, texts, show } = args;
  const config = plotConfig(args);
  const compare = lanes.length > 1;
  app.parts = [];
  app.later = [];
  app.refit = null;
  app.settled = false;
  app.share = null;
  root.className = `layout-${style.figure.layout}${compare ? " compare" : ""}`;
  root.style.setProperty("--font", `${style.font.base}px`);
  root.style.setProperty("--math-font", `${style.font.math}px`);
  const controls = el("div", { class: "playback" });
  const figures = el("div", { class: "figures", style: `--columns: ${lanes.length}` });
  const side = el("div", { class: "side" });
  const hasSide = !compare && (!options.hide.math || Boolean(lanes[0].meta.extras));
  // the whole layout first: a plot takes the width its column has when it is drawn
  const stage = el("div", { class: `stage${hasSide ? " with-side" : ""}` }, figures, hasSide ? side : null);
  fill(root, controls, stage);
  classroom.mount(root);
  app.controls = new Controls(controls, actions, { ...app, predictOn: app.predictState.on }); // playback is never hidden
  app.controls.settings.append(...soundControls());
  stage.after(app.controls.settings);
  app.runSound = new RunSound(lanes[0], scene.arrays.X, scene.arrays.y, SOUND);
  nameFrame(lanes);
  let mathLines = null;
  let mainFigure = null;
  const figureOf = []; // each lane's 2-D figure, for predict mode's marks
  if (scene.view === "plane") {
    lanes.forEach((lane, i) => {
      const box = el("div", { class: "figure-box" });
      figures.append(box);
      const height = compare ? style.figure.compare_height : options.height || style.figure.height;
      // a run shown alone fits the window: as it is built, and again after a resize (app.refit)
      const fitted = !compare && style.figure.fit ? () => fittedHeight(box, height, style) : null;
      const figure = new PlaneFigure(box, {
        lane,
        scene,
        show,
        style,
        config,
        box: scene.box,
        height: fitted ? fitted() : height,
        clickable: !compare && options.click !== "off",
        title: compare ? lane.meta.title : null,
        texts,
      });
      if (i === 0) mainFigure = figure;
      if (fitted) app.refit = () => figure.setHeight(fitted());
      figureOf[i] = figure;
      if (!compare && options.click !== "off") listenForClicks(figure.node, scene.box, options.click);
      app.parts.push(figure);
    });
  } else if (scene.view === "projection" && lanes[0].meta.hypotheses === "projection") {
    const nodes = {
      status: el("div", { class: "status" }),
      projection: el("div", { class: "plot" }),
      angle: el("div", {}),
      histogram: el("div", {}),
    };
    figures.append(
      el(
        "div",
        { class: "figure-box" },
        nodes.status,
        nodes.projection,
        // a cell each: a chart's words (chartwords.js) go in after it, in its cell
        el("div", { class: "pair" }, el("div", {}, nodes.angle), el("div", {}, nodes.histogram)),
      ),
    );
    mainFigure = new ProjectionView(nodes, { lane: lanes[0], scene, show, style, config, texts });
    app.parts.push(mainFigure);
  } else {
    figures.append(
      el(
        "div",
        { class: "notice" },
        "This learner has no single weight vector to project on; use 2-D data to see its boundary.",
      ),
    );
  }
  if (hasSide) {
    if (!options.hide.math) {
      const math = el("div", { class: "math" });
      side.append(
        el("div", { class: "panel math-card" }, el("p", { class: "panel-title" }, lanes[0].meta.title), math),
      );
      app.parts.push(new MathPanel(math, { lane: lanes[0], scene, texts }));
      mathLines = () => Array.from(math.querySelectorAll(".math-line"));
    }
    if (texts.novikoff_bound && !options.hide.diagnostics) {
      const meter = el("div", { class: "panel bound" });
      side.append(meter);
      app.parts.push(new BoundMeter(meter, { lane: lanes[0], bound: texts.novikoff_bound, title: texts.bound_title }));
    }
    if (lanes[0].meta.extras) {
      const holder = el("div", { class: "extras" });
      side.append(holder);
      app.parts.push(
        new Extras(holder, { lane: lanes[0], arrays: app.arrays, scene, panels: lanes[0].meta.extras, style, config }),
      );
    }
  }
  app.speech = new Announcer(region, { lanes, scene, texts, level: app.level, arithmetic: mathLines });
  // the live class's question and predict mode's panel: beside the figure above the math panel
  // (above the figure in a narrow window, under it with the math panel in the "under" layout:
  // style.css), else between the buttons and the figures
  const predictBox = el("div", { class: "panel predict", role: "region", "aria-label": "Predict, then step" });
  const classBox = el("div", { class: "panel class-question", role: "region", "aria-label": "Question to the class" });
  const asking = el("div", { class: "asking" }, classBox, predictBox);
  if (hasSide) side.before(asking);
  else stage.before(asking);
  app.classQuestion = new ClassQuestion(classBox, {
    lanes,
    scene,
    texts,
    figures: figureOf,
    seed: args.options.predict.seed,
    say: (text) => app.speech.tell(text),
    send: (message) => classroom.send(message),
    back: () => classroom.back(),
  });
  classroom.attach(app.classQuestion);
  app.predictor = new PredictMode(predictBox, {
    lanes,
    scene,
    texts,
    state: app.predictState,
    record: app.predict,
    figures: figureOf,
    math: hasSide && !options.hide.math,
    reveal: revealed,
    say: (text) => app.speech.tell(text),
    changed: () => {
      app.controls.showPredict(app.predictState.on);
      if (!app.playing) scheduleUrl();
      app.share?.show(app.t);
    },
  });
  if (compare && scene.view === "plane" && !options.hide.diagnostics) {
    const body = el("div", { class: "diagnostics" });
    root.append(el("details", { class: "section", open: true }, el("summary", {}, "Scoreboard"), body));
    app.parts.push(later(() => new Scoreboard(body, { lanes, scene, style, config })));
  }
  if (!compare && !options.hide.diagnostics && options.diagnostics) {
    const body = el("div", { class: "diagnostics" });
    root.append(el("details", { class: "section", open: true }, el("summary", {}, "Diagnostics"), body));
    app.parts.push(later(() => new Diagnostics(body, { lane: lanes[0], scene, style, texts, config })));
  }
  if (!compare && options.share && mainFigure && !(options.hide.link && options.hide.export)) {
    const body = el("div", { class: "share" });
    const title = options.hide.export ? "Share" : options.hide.link ? "Export" : "Share and export";
    root.append(el("details", { class: "section" }, el("summary", {}, title), body));
    const share = new SharePanel(body, {
      options,
      figure: mainFigure,
      accuracies: (t) => accuraciesAt(t),
      extra: linkParams,
    });
    app.share = share;
    app.parts.push({ update: (t) => share.show(t) });
  }
}

/**
 * Name our frame for people ("Training replay of Perceptron (classic): step-by-step playback"):
 * Streamlit titles a component's frame with its module's name. The name keeps ending in
 * "playback", which the tests and benchmarks look the frame up by.
 */
function nameFrame(lanes) {
  const names = lanes.map((lane) => cut(lane.meta.title, 60));
  const who = names.length > 1 ? `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}` : names[0];
  try {
    if (window.frameElement) window.frameElement.title = `Training replay of ${who}: step-by-step playback`;
  } catch {
    // another origin embeds us: its frame is its to name
  }
}

/** {train: {mode: accuracy}, test: {...}} at t on 2-D data (for the exported JSON). */
function accuraciesAt(t) {
  const { scene } = app;
  const lane = app.lanes[0];
  if (scene.view !== "plane") return null;
  const out = {};
  const modes = lanePredictors(lane, scene);
  for (const [part, points] of [
    ["train", scene.arrays.X],
    ["test", scene.arrays.X_test],
  ]) {
    const labels = truthOf(lane, scene, part);
    if (!labels.length) continue;
    const field = pointsField(lane, points, scene.arrays.X);
    out[part] = Object.fromEntries(modes.map((m) => [m, accuracy(field.scores(t, m), labels, lane.classes)]));
  }
  return out;
}

/** A click on the plot's empty area or a point: its coordinates go to the server. */
function listenForClicks(plot, box, mode) {
  const digits = Math.max(0, 3 - Math.floor(Math.log10(Math.max(box[1] - box[0], box[3] - box[2]))));
  let nonce = 0;
  plot.addEventListener("click", (event) => {
    const at = clickedAt(plot, event);
    if (!at) return;
    const [x, y] = at;
    const round = (v) => Number(v.toFixed(digits));
    nonce += 1;
    setComponentValue({ action: mode, x: round(x), y: round(y), nonce: `${Date.now()}-${nonce}` });
  });
}

// -- keys: only while the focus is in the replay, only while the reader wants them ------
// (WCAG 2.1.4: a single-key shortcut must not act on the page around us, and can be
// switched off: a speech-input user's words are keys too.)

function onKey(event) {
  if (!app.lanes.length) return;
  if (event.key === "Escape") {
    // closes a point's tooltip wherever the focus is, keys on or off
    for (const part of app.parts) part.dismiss?.();
    return;
  }
  if (
    !app.shortcuts ||
    !inReplay(event, root) ||
    event.ctrlKey ||
    event.metaKey ||
    event.altKey ||
    typedIntoWidget(event)
  )
    return;
  const action = KEYS[event.key];
  if (!action) return;
  event.preventDefault();
  actions[action]();
}

document.addEventListener("keydown", onKey);

// -- messages from the page ------------------------------------------------------------

function onRender(pageArgs) {
  app.pageArgs = pageArgs;
  const classroomInfo = pageArgs.options.classroom;
  if (fetchedView && classroomInfo?.opened?.nonce !== fetchedView.opened) fetchedView = null;
  const view = classroomInfo && fetchedView;
  const args = view
    ? { ...pageArgs, ...view.args, blob: view.blob, options: { ...pageArgs.options, ...view.args.options } }
    : pageArgs;
  app.args = args;
  const fresh = args.payload_id !== app.payloadId;
  if (fresh) {
    const { arrays } = decode(args.header, args.blob);
    app.arrays = arrays;
    app.scene = {
      ...args.meta.scene,
      arrays: Object.fromEntries(Object.entries(args.meta.scene.arrays).map(([k, n]) => [k, arrays[n]])),
    };
    app.lanes = args.meta.lanes.map((meta) => new Lane(meta, arrays));
    if (app.payloadId === null) app.t = args.options.initial_t;
    app.payloadId = args.payload_id;
    // a new run: a new record (the notebook's host hands back the one Python keeps)
    app.predict = newRecord(args.payload_id, args.options.predict.history);
  }
  // predict mode's settings: the host's, until the reader changes them in the replay; a host
  // that sends other settings (a link, a lesson) sets them again
  const predictFrom = JSON.stringify(args.options.predict);
  const newSettings = predictFrom !== app.predictFrom;
  if (newSettings) {
    app.predictFrom = predictFrom;
    app.predictState = { ...args.options.predict };
  }
  const viewKey = JSON.stringify([
    args.payload_id,
    args.show,
    args.style,
    args.options.hide,
    args.options.click,
    args.options.image,
    args.options.height,
    args.options.diagnostics,
    args.options.share,
  ]);
  const rebuilt = viewKey !== app.viewKey || newSettings;
  if (rebuilt) {
    app.viewKey = viewKey;
    build(args);
  }
  app.t = driver().clip(app.t);
  app.reportStep = Boolean(args.options.report_step);
  app.reported = args.options.initial_t; // the step the server knows (its address may be stale)
  app.serverStep = app.reported;
  app.painted = null;
  paint();
  if (rebuilt) buildLater();
  if (!app.playing) syncPageUrl(app.t, linkParams()); // a rerun may have rewritten the address
  classroom.render(args.options.classroom, args.options.link_params, Boolean(view));
  classroom.mount(root);
}

// the frame is as tall as our content (the document itself is at least as tall as the frame)
new ResizeObserver(() => setFrameHeight(root.getBoundingClientRect().bottom + 4)).observe(root);
// plots follow their column's width (the frame's width changes with the page)
let frameWidth = 0;
new ResizeObserver(() => {
  if (document.body.clientWidth === frameWidth) return; // heights change at every step: ignore
  frameWidth = document.body.clientWidth;
  for (const plot of root.querySelectorAll(".js-plotly-plot")) Plotly.Plots.resize(plot);
}).observe(document.body);
// the main figure fits the window again once it has been resized (a window moved to the
// projector, made full screen); on a touch screen only when the width changed: a phone's address
// bar changes the window's height as the page scrolls, and a refit would move the figure under
// the reader's finger
try {
  const outer = window.parent;
  const watching = new AbortController();
  let outerWidth = outer.innerWidth;
  let refitTimer = 0;
  // once, 200 ms after the last change: a window dragged to a new size changes at every frame
  const refitSoon = () => {
    clearTimeout(refitTimer);
    refitTimer = setTimeout(() => app.refit?.(), 200);
  };
  outer.addEventListener(
    "resize",
    () => {
      const widthChanged = outer.innerWidth !== outerWidth;
      outerWidth = outer.innerWidth;
      if (widthChanged || !matchMedia("(pointer: coarse)").matches) refitSoon();
    },
    { signal: watching.signal },
  );
  // ... and once the page above it has moved the frame: the figure is built while Streamlit may
  // still be laying out that page (a first visit's frame moved up 14 px after the figure was built)
  const frame = window.frameElement; // null in a page of its own (a downloaded replay)
  let frameTop = frame ? pageTop(frame) : 0;
  const moved = new outer.ResizeObserver(() => {
    const top = pageTop(frame);
    if (Math.abs(top - frameTop) < 1) return; // our own height changed, at a step: nothing moved
    frameTop = top;
    refitSoon(); // a window being resized moves the frame too, as the text above it rewraps
  });
  for (let node = frame?.parentElement; node; node = node.parentElement) {
    moved.observe(node); // what is above the frame changes the size of an element around it
  }
  window.addEventListener("pagehide", () => {
    watching.abort(); // the frame left the page
    moved.disconnect();
  });
} catch {
  // another origin embeds us: its window is not ours to watch, and the figure keeps its height
}
connect(onRender);
