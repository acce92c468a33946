// The student's progress through the lessons' exercises, kept in this browser
// (localStorage) and shown in the sidebar: each lesson's exercises done ("4 of 7"),
// a summary to save and hand in, and a way to erase it all. Nothing goes to the server.
//
// The page (Streamlit, components v1) sends the catalogue of every lesson's exercises
// and this session's verdicts ("records"); each record carries a nonce, and one already
// kept is not kept twice (the page sends its records again at every rerun). The panel
// talks to the page only to say it is ready and how tall it is.

const STORE = "perceptron-lab.exercises";
const SEEN = "perceptron-lab.exercises.seen";
const SEEN_KEPT = 500; // nonces remembered: far more than one session's checks

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

/** The kept progress: `{exercises: {id: record}}`. */
function stored() {
  const kept = readJson(STORE, null);
  return kept && typeof kept.exercises === "object" && kept.exercises ? kept : { exercises: {} };
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
  if (changed && !(writeJson(STORE, kept) && writeJson(SEEN, seen.slice(-SEEN_KEPT)))) {
    say("This browser does not let the page keep anything: your answers count only until you leave.");
  }
  return kept;
}

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
  height();
}

function height() {
  const h = Math.ceil(document.body.scrollHeight);
  window.parent.postMessage({ isStreamlitMessage: true, type: "streamlit:setFrameHeight", height: h }, "*");
}

function say(text) {
  document.getElementById("said").textContent = text;
  height();
}

/** The summary a student hands in: every lesson's exercises with the answers kept. */
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
    })),
  };
}

function save() {
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

document.getElementById("save").addEventListener("click", save);
document.getElementById("reset").addEventListener("click", () => confirming(true));
document.getElementById("keep").addEventListener("click", () => {
  confirming(false);
  document.getElementById("reset").focus();
});
document.getElementById("erase").addEventListener("click", erase);

window.addEventListener("message", (event) => {
  if (event.source !== window.parent) return;
  const data = event.data;
  if (data?.type !== "streamlit:render") return;
  args = data.args;
  show(keep(args.records || []));
});
window.parent.postMessage({ isStreamlitMessage: true, type: "streamlit:componentReady", apiVersion: 1 }, "*");
