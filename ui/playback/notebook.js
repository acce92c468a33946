// The notebook widget's host (anywidget, see widget/__init__.py): each replay in a
// frame of its cell's output, showing the page that plays with no server
// (ui/standalone_page.py). That page's template (styles, the playback's modules, its
// host standalone.js) and Plotly.js arrive once per notebook, in the widget every
// replay refers to (`files`); a replay brings only its run (the payload's bytes and
// the JSON arguments) and its header. Here the template is filled for each replay, as
// page_html fills it in Python, with Plotly.js from a blob URL made once per page.
// The frame keeps the replay's styles, keys and globals apart from the notebook's
// and from other replays (main.js holds one replay per document).
//
// The step is shared with Python (`step`): the reader's position (Step, keys, the
// scrubber, Play) is sent back, and a step set in Python moves the replay as a drag of
// its scrubber does. Predict mode's score (`score`) goes to Python after each answer (the
// replay's `playback-predict` event), and a frame made again goes on from it.

/** The slots of the page's template (ui/standalone_page.py's `fill`, the same pattern). */
const SLOT = /<!--slot:(\w+)-->/g;
/** The notebook page's files, per kernel's files widget: {template, plotly URL}. */
globalThis.perceptronLabReplayFiles ??= new Map();
const FILES = globalThis.perceptronLabReplayFiles;

function filesOf(model) {
  const id = String(model.get("files")).replace(/^IPY_MODEL_/, "");
  if (!FILES.has(id)) {
    const loaded = model.widget_manager.get_model(id).then((files) => ({
      template: files.get("page"),
      plotly: URL.createObjectURL(new Blob([files.get("plotly")], { type: "text/javascript" })),
    }));
    loaded.catch(() => FILES.delete(id)); // the next replay asks again
    FILES.set(id, loaded);
  }
  return FILES.get(id);
}

const ESCAPES = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#x27;" };
const escapeHtml = (text) => text.replace(/[&<>"']/g, (c) => ESCAPES[c]);

/** The payload's bytes (a DataView from the widget's buffers) in base64, as the page holds them. */
function base64(data) {
  const bytes = new Uint8Array(data.buffer ?? data, data.byteOffset ?? 0, data.byteLength);
  let text = "";
  for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(text);
}

/** This replay's page: the template with its run, opening at the widget's step. */
function pageOf(files, model) {
  const args = model.get("args");
  const predict = { ...args.options.predict, history: model.get("score").history || [] };
  const opening = { ...args, options: { ...args.options, initial_t: model.get("step"), predict } };
  const parts = {
    title: escapeHtml(model.get("title")),
    header: model.get("header"),
    args: JSON.stringify(opening).replace(/</g, "\\u003c"),
    blob: base64(model.get("payload")),
    plotly: `<script src="${files.plotly}"></script>`,
  };
  return files.template.replace(SLOT, (slot, name) => parts[name] ?? slot);
}

/** When the main thread is free (a report must not delay the reader's next step). */
const whenIdle = globalThis.requestIdleCallback ?? ((run) => setTimeout(run, 0));

/**
 * The reader's step is reported once they pause (REPORT_MS after their last input, then
 * when the page is idle) and every PLAYING_MS while the replay plays: each report is a
 * widget message, which should not land between two quick Step clicks.
 */
const REPORT_MS = 250;
const PLAYING_MS = 500;

/** Keeps the widget's `step` and the replay in its frame together. */
class StepSync {
  constructor(model, frame) {
    Object.assign(this, { model, frame, timer: null, doc: null });
    this.soon = () => {
      clearTimeout(this.timer);
      this.timer = setTimeout(this.report, REPORT_MS);
    };
    this.report = () => whenIdle(() => this.toPython(), { timeout: PLAYING_MS });
    // predict mode's verdict: the score to Python at once (one message per answer)
    this.scored = (event) => {
      this.model.set("score", this.win.playback.predictSummary(event.detail.record));
      this.model.save_changes();
    };
  }

  /** The replay's state in the frame (window.playback: the step it painted, whether it plays). */
  get app() {
    const app = this.frame.contentWindow?.playback;
    return app && app.painted !== null && app.painted !== undefined ? app : null;
  }

  /** The frame has (re)loaded its page: once it painted its first step, follow it. */
  attach() {
    this.stop();
    const win = this.frame.contentWindow;
    const ready = () => {
      this.timer = null;
      if (!this.frame.isConnected || this.frame.contentWindow !== win) return;
      if (!this.app || !win.document.querySelector(".playback .scrubber")) {
        this.timer = setTimeout(ready, 50);
        return;
      }
      this.doc = win.document;
      this.win = win;
      for (const type of ["click", "keydown", "input", "pointerup"]) this.doc.addEventListener(type, this.soon, true);
      win.addEventListener("playback-predict", this.scored);
      this.toReplay(); // Python may have set the step while the page loaded
    };
    ready();
  }

  /** The reader's step to Python (after the reader's input, and while the replay plays). */
  toPython() {
    const app = this.app;
    if (!app) return;
    if (app.painted !== this.model.get("step")) {
      this.model.set("step", app.painted, { fromReplay: true });
      this.model.save_changes();
    }
    if (app.playing) {
      clearTimeout(this.timer);
      this.timer = setTimeout(this.report, PLAYING_MS);
    }
  }

  /** A step set in Python: the replay goes there as a drag of its scrubber takes it. */
  toReplay() {
    const t = this.model.get("step");
    const app = this.app;
    if (!app || app.painted === t) return;
    const scrubber = this.frame.contentDocument.querySelector(".playback .scrubber");
    scrubber.value = String(t);
    for (const type of ["input", "change"]) {
      // moved, then let go
      scrubber.dispatchEvent(new this.frame.contentWindow.Event(type, { bubbles: true }));
    }
  }

  stop() {
    clearTimeout(this.timer);
    this.timer = null;
    for (const type of ["click", "keydown", "input", "pointerup"]) this.doc?.removeEventListener(type, this.soon, true);
    this.win?.removeEventListener("playback-predict", this.scored);
    this.doc = null;
    this.win = null;
  }
}

function render({ model, el }) {
  const frame = document.createElement("iframe");
  frame.className = "perceptron-lab-replay";
  frame.title = model.get("title");
  frame.style.cssText = "width: 100%; min-width: 640px; height: 900px; border: 0;";
  const sync = new StepSync(model, frame);
  frame.addEventListener("load", () => sync.attach());
  const onStep = (_, __, options) => {
    if (!options?.fromReplay) sync.toReplay();
  };
  model.on("change:step", onStep);
  el.append(frame);
  filesOf(model).then(
    (files) => {
      frame.srcdoc = pageOf(files, model);
    },
    (err) => {
      el.textContent = `The replay's files did not arrive (${err}); run the cell again.`;
    },
  );
  return () => {
    sync.stop();
    model.off("change:step", onStep);
  };
}

export default { render };
