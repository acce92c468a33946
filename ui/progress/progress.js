// The student's progress through the lessons' exercises, kept in this browser
// (localStorage) and shown in the sidebar: each lesson's exercises done ("4 of 7"), the
// score of the predictions made on the lesson's figure, a summary to save and hand in, and a
// way to erase it all. Nothing goes to the server.
//
// The page (Streamlit, components v1) sends the catalogue of every lesson's exercises, this
// session's verdicts ("records") and the lesson's replay exercises ("replays": the questions
// its figure asks, with the lab's answers). Each record carries a nonce, and one already kept
// is not kept twice (the page sends its records again at every rerun). The figure's
// predictions never reach the server: the replay dispatches a `playback-predict` event on its
// frame's element, which bubbles to the page around both frames, where this panel listens;
// it tallies the record as app_logic/exercises/model.py's replay_tally does (an answer is
// checked against the lab's, not taken from the replay's verdict). The panel talks to the
// page only to say it is ready and how tall it is.

const STORE = "perceptron-lab.exercises";
const SEEN = "perceptron-lab.exercises.seen";
const SEEN_KEPT = 500; // nonces remembered: far more than one session's checks
/** Two answers to a "where" question are the same question's when this close (relative). */
const SAME = 1e-9;

let args = null;

function readJson(name, fallback) {
  try {
    const text = window.localStorage.getItem(name);
    return text ? JSON.parse(text) : fallback;
  } catch {
    return fallback; // storage blocked or a damaged entry: start afresh
  }
}

function writeJson(name, value) {
  try {
    window.localStorage.setItem(name, JSON.stringify(value));
    return true;
  } catch {
    return false;
  }
}

function isObject(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The kept progress: `{exercises: {id: record}, predictions: {id: score}}`. */
function stored() {
  const kept = readJson(STORE, null);
  return {
    exercises: isObject(kept?.exercises) ? kept.exercises : {},
    predictions: isObject(kept?.predictions) ? kept.predictions : {},
  };
}

function save(kept) {
  if (!writeJson(STORE, kept)) {
    say("This browser does not let the page keep anything: your answers count only until you leave.");
    return false;
  }
  return true;
}

/** Keep the records not kept yet; a record once right stays done. */
function keep(records) {
  const seen = readJson(SEEN, []);
  const kept = stored();
  let changed = false;
  for (const record of records) {
    if (seen.includes(record.nonce)) continue;
    const before = kept.exercises[record.id] || {};
    kept.exercises[record.id] = {
      lesson: record.lesson,
      kind: record.kind,
      answer: record.answer,
      right: record.right,
      done: Boolean(before.done || record.right),
      attempts: (before.attempts || 0) + 1,
      at: record.at,
    };
    seen.push(record.nonce);
    changed = true;
  }
  if (changed && save(kept)) writeJson(SEEN, seen.slice(-SEEN_KEPT));
  return kept;
}

// -- the predictions on the lesson's figure ------------------------------------------------

/** Whether a record's entry is about the lab's question `q` (the same kind and answer). */
function sameQuestion(entry, q) {
  if (entry.kind !== q.kind) return false;
  if (q.kind !== "where") return entry.expected === q.expected;
  const [a, b] = [entry.expected, q.expected];
  return (
    Array.isArray(a) && a.length === 2 && a.every((v, i) => Math.abs(v - b[i]) <= SAME * Math.max(1, Math.abs(b[i])))
  );
}

/** Whether the entry's answer is the lab's (for "where": within the question's tolerance). */
function answersRight(entry, q) {
  if (q.kind !== "where") return entry.answer === q.expected;
  const a = entry.answer;
  return Array.isArray(a) && Math.hypot(a[0] - q.expected[0], a[1] - q.expected[1]) <= q.tolerance;
}

/**
 * The replay exercise `spec` against the figure's record: the questions answered (a skip does
 * not count), those right, and the misconception of each wrong one, in the order of the steps.
 */
function tally(spec, history) {
  const latest = new Map(history.map((entry) => [entry.step, entry]));
  const out = { answered: 0, right: 0, wrong: [], entries: [] };
  spec.questions.forEach((q, n) => {
    const entry = latest.get(q.step);
    if (!entry || !sameQuestion(entry, q)) return;
    const right = entry.skipped ? null : answersRight(entry, q);
    out.entries.push({
      step: q.step,
      kind: q.kind,
      answer: entry.answer,
      expected: q.expected,
      right,
      skipped: Boolean(entry.skipped),
    });
    if (entry.skipped) return;
    out.answered += 1;
    if (right) out.right += 1;
    else out.wrong.push(spec.about[n]);
  });
  return out;
}

/** The verdict on a tally, as app_logic/exercises/model.py words it: done, too few, or wrong. */
function verdict(spec, counts) {
  const [answers, needed] = spec.needed;
  const score = `${counts.right} of your ${counts.answered} predictions on the figure are right`;
  if (counts.answered >= answers && counts.right >= needed) return { done: true, text: `Right. ${score}. ${spec.why}` };
  if (counts.answered < answers) return { done: false, text: `Not yet. ${spec.feedback.few}` };
  const keys = [...new Set(counts.wrong)].sort((a, b) => countOf(counts.wrong, b) - countOf(counts.wrong, a));
  const named = keys.map((key) => spec.feedback[key]).join(" ");
  return { done: false, text: `Not yet. ${score}; the exercise asks for ${needed}. ${named}` };
}

function countOf(list, value) {
  return list.filter((v) => v === value).length;
}

/** A verdict of the figure's replay: keep its score for each of the lesson's replay exercises. */
function onPredict(event) {
  const detail = event.detail;
  if (!args || !detail?.record) return;
  const kept = stored();
  let changed = false;
  for (const spec of args.replays || []) {
    const counts = tally(spec, detail.record.history || []);
    if (!counts.entries.length) continue; // another figure, or steps the exercise does not ask
    const before = kept.exercises[spec.id] || {};
    const earlier = kept.predictions[spec.id];
    const said = verdict(spec, counts);
    const now = new Date().toISOString().slice(0, 19);
    kept.predictions[spec.id] = {
      lesson: args.lesson,
      run: detail.payloadId,
      asked: spec.questions.length,
      answered: counts.answered,
      right: counts.right,
      skipped: counts.entries.filter((e) => e.skipped).length,
      needed: { answers: spec.needed[0], right: spec.needed[1] },
      verdict: said.text,
      history: counts.entries,
      at: now,
    };
    kept.exercises[spec.id] = {
      lesson: args.lesson,
      kind: "replay",
      answer: `${counts.right} right of ${counts.answered} answered`,
      right: said.done,
      done: Boolean(before.done || said.done),
      attempts: (before.attempts || 0) + (earlier?.run === detail.payloadId ? 0 : 1),
      at: now,
    };
    if (said.done && !before.done)
      say(`Exercise done: your predictions on the figure, ${counts.right} of ${counts.answered} right.`);
    changed = true;
  }
  if (changed) {
    save(kept);
    show(kept);
  }
}

// -- the panel -----------------------------------------------------------------------------

function done(kept, ids) {
  return ids.filter((id) => kept.exercises[id]?.done).length;
}

function show(kept) {
  const list = document.getElementById("lessons");
  list.replaceChildren();
  for (const lesson of args.catalog) {
    const item = document.createElement("li");
    if (lesson.lesson === args.lesson) item.setAttribute("aria-current", "true");
    const name = document.createElement("span");
    name.textContent = lesson.title;
    const count = document.createElement("span");
    count.className = "count";
    count.textContent = `${done(kept, lesson.ids)} of ${lesson.ids.length}`;
    item.append(name, count);
    list.append(item);
  }
  showPredictions(kept);
  height();
}

/** The score of this lesson's figure, under the list. */
function showPredictions(kept) {
  const box = document.getElementById("predictions");
  const lines = (args.replays || []).map((spec) => {
    const score = kept.predictions[spec.id];
    const [answers, needed] = spec.needed;
    const asks = `the exercise asks for ${answers} answered, ${needed} right`;
    if (kept.exercises[spec.id]?.done) return `Predictions on this figure: done (${asks}).`;
    if (!score) return `Predictions on this figure: none yet (${asks}).`;
    return `Predictions on this figure: ${score.right} right of ${score.answered} answered (${asks}).`;
  });
  box.textContent = lines.join(" ");
  box.hidden = !lines.length;
}

function height() {
  const h = Math.ceil(document.body.scrollHeight);
  window.parent.postMessage({ isStreamlitMessage: true, type: "streamlit:setFrameHeight", height: h }, "*");
}

function say(text) {
  document.getElementById("said").textContent = text;
  height();
}

/** The summary a student hands in: every lesson's exercises with the answers and scores kept. */
function summary(kept, catalog, version, now) {
  return {
    title: "Perceptron Lab: exercises",
    version,
    saved: now.toISOString(),
    lessons: catalog.map((lesson) => ({
      lesson: lesson.lesson,
      title: lesson.title,
      done: done(kept, lesson.ids),
      of: lesson.ids.length,
      exercises: lesson.ids
        .filter((id) => kept.exercises[id])
        .map((id) => {
          const record = kept.exercises[id];
          return {
            id,
            kind: record.kind,
            answer: record.answer,
            right: record.right,
            done: record.done,
            attempts: record.attempts,
            at: record.at,
          };
        }),
      predictions: lesson.ids.filter((id) => kept.predictions[id]).map((id) => ({ id, ...kept.predictions[id] })),
    })),
  };
}

function download() {
  const now = new Date();
  const text = JSON.stringify(summary(stored(), args.catalog, args.version, now), null, 2);
  const link = document.createElement("a");
  link.href = URL.createObjectURL(new Blob([text], { type: "application/json" }));
  link.download = `perceptron-lab-exercises-${now.toISOString().slice(0, 10)}.json`;
  document.body.append(link);
  link.click();
  link.remove();
  say(`Saved ${link.download}.`);
}

function confirming(open) {
  document.getElementById("confirm").hidden = !open;
  document.getElementById("reset").setAttribute("aria-expanded", String(open));
  height();
  if (open) document.getElementById("keep").focus();
}

function erase() {
  try {
    window.localStorage.removeItem(STORE); // the nonces stay: this session's records are not kept again
  } catch {
    // nothing was kept
  }
  confirming(false);
  show(stored());
  say("Your progress is erased.");
  document.getElementById("reset").focus();
}

document.getElementById("save").addEventListener("click", download);
document.getElementById("reset").addEventListener("click", () => confirming(true));
document.getElementById("keep").addEventListener("click", () => {
  confirming(false);
  document.getElementById("reset").focus();
});
document.getElementById("erase").addEventListener("click", erase);

// The figure's verdicts bubble to the page around both frames (the same origin: the app's).
const host = (() => {
  try {
    return window.parent.document;
  } catch {
    return null; // another origin: no predictions to keep
  }
})();
host?.addEventListener("playback-predict", onPredict);
window.addEventListener("pagehide", () => host?.removeEventListener("playback-predict", onPredict));

window.addEventListener("message", (event) => {
  if (event.source !== window.parent) return;
  const data = event.data;
  if (data?.type !== "streamlit:render") return;
  args = data.args;
  show(keep(args.records || []));
});
window.parent.postMessage({ isStreamlitMessage: true, type: "streamlit:componentReady", apiVersion: 1 }, "*");
