// The replay speaks: one polite live region says, after every move (Step,
// Back, Next update, End of epoch, Start, End, a released scrub, a pause),
// where the run is and what happened to the current example, in one
// sentence a screen reader reads out. A reader chooses how much is said: the
// verdict, the verdict with the math panel's arithmetic, or nothing.
//
// Why one region, made once: a screen reader follows a live region it saw
// before its text changed, so the region outlives the views that are rebuilt
// on a rerun. Why visually hidden: its words are already on screen (the
// status line above the figure, the verdict in the math panel).
// While playing it speaks at most every PLAYING_INTERVAL_MS (a sentence per
// frame would never be heard to its end), and it builds its sentence only
// when it speaks: playing touches the region a few times a minute.

import { el } from "./dom.js";
import { count, cut, minusNum, signed } from "./format.js";
import { isUpdateKind } from "./timeline.js";
import { classWord } from "./classesfigure.js";

/** How much is said after a move: the reader's choice (settings.js keeps it). */
export const LEVELS = { verdict: "the verdict", arithmetic: "verdict and arithmetic", off: "nothing" };
/** While playing, the region speaks at most this often. */
export const PLAYING_INTERVAL_MS = 3000;

let pageRegion = null;

/** The visually hidden live region, once per page (see the module's comment). */
export function liveRegion() {
  const region = el("div", { class: "sr-only", role: "status", "aria-live": "polite", "aria-atomic": "true" });
  document.body.append(region);
  pageRegion = region;
  return region;
}

/**
 * Say `text` in the page's live region now, whatever a move would say (the figure's and the
 * charts' walks: the reader pressed a key to hear it). The same words again are said again.
 */
export function say(text) {
  if (!pageRegion) return;
  pageRegion.textContent = text === pageRegion.textContent ? `${text}\u00a0` : text;
}

/** "Step 37 of 2,000, epoch 1" (a lane's own step when it ended before the driver's). */
export function stepPhrase(lane, t) {
  const own = lane.clip(t);
  const end = own === lane.E && lane.E > 0 ? " (the end)" : "";
  return `step ${count(own)} of ${count(lane.E)}${end}, epoch ${lane.epochAt(own) + 1}`;
}

/**
 * What happened to the current example at t, as the math panel says it: "example 12, label +1,
 * score −0.68, mistake, update"; a committee's vote and how many members updated.
 */
export function verdict(lane, scene, texts, t) {
  const i = lane.event(t);
  if (i === null) return "before the first example";
  const j = lane.index[i];
  const y = scene.arrays.y[j];
  const noise = scene.arrays.flipped[j] ? " (flipped by noise)" : "";
  if (lane.classes) {
    const c = scene.arrays.classes[j];
    const scores = scene.class_list.map((name, k) => `${cut(String(name))} ${minusNum(lane.scoreAt(i, k))}`);
    const kind = lane.kindAt(i);
    return `example ${count(j + 1)}, ${classWord(scene, c)}${noise}, scores ${scores.join(", ")}, ${
      texts.spoken[kind] || "?"
    }${isUpdateKind(kind) ? classesMoved(lane, scene, t) : ""}`;
  }
  const head = `example ${count(j + 1)}, label ${signed(y)}${noise}`;
  if (lane.M > 1) {
    let plus = 0,
      updated = 0;
    for (let m = 0; m < lane.M; m++) {
      if (lane.scoreAt(i, m) > 0) plus++;
      if (isUpdateKind(lane.kindAt(i, m))) updated++;
    }
    const vote = plus > lane.M - plus ? 1 : -1;
    const members = updated === 0 ? "no member updates" : `${updated} of ${lane.M} members update`;
    return (
      `${head}, committee vote ${signed(vote)} (${plus} of ${lane.M} members say +1), ` +
      `${vote === y ? "correct" : "mistake"}, ${members}`
    );
  }
  // the KW family's test is y(s − θ): its score is s − θ; the others' score is the one they recorded
  const score = lane.meta.has_modes ? lane.scoreAt(i) - lane.thetaOf(lane.rowBefore(t)) : lane.scoreAt(i);
  return `${head}, score ${minusNum(score)}, ${texts.spoken[lane.kindAt(i)] || "?"}`;
}

/** After an update of several classes: which class's vector gained x and which lost it. */
function classesMoved(lane, scene, t) {
  const [c, r] = lane.movedBy(lane.row(t));
  return `: ${classWord(scene, c)} gains η x, ${classWord(scene, r)}, the rival, loses it`;
}

/** "Step 37 of 2,000, epoch 1: example 12, ..."; in compare mode a clause per run, named. */
export function stepSentence(lanes, scene, texts, t) {
  if (lanes.length === 1) return `${capital(stepPhrase(lanes[0], t))}: ${verdict(lanes[0], scene, texts, t)}.`;
  const runs = lanes.map((lane) => {
    const own = lane.clip(t) === t ? "" : ` (at its last step, ${count(lane.E)})`;
    return `${cut(lane.meta.title, 60)}${own}: ${verdict(lane, scene, texts, lane.clip(t))}.`;
  });
  return [`${capital(stepPhrase(lanes[0], t))}.`, ...runs].join(" ");
}

/** A short sentence while playing: where the run is. */
export function playingSentence(lane, t) {
  const updates = lane.M === 1 || lane.classes ? `, ${count(lane.row(t))} updates so far` : "";
  return `Playing, ${stepPhrase(lane, t)}${updates}.`;
}

/** The text of math-panel lines as words: variables and subscripts spaced, symbols said. */
export function spokenMath(nodes) {
  const text = nodes
    .map((node) => words(node).replace(/\s+/g, " ").trim())
    .filter(Boolean)
    .join(". ");
  return SAID.reduce((out, [symbol, said]) => out.replace(symbol, said), text)
    .replace(/\s+/g, " ")
    .trim();
}

function words(node) {
  if (node.nodeType === Node.TEXT_NODE) return node.textContent;
  const inner = Array.from(node.childNodes, words).join("");
  const tag = node.tagName;
  return tag === "I" || tag === "SUB" ? ` ${inner} ` : inner;
}

/** Symbols a screen reader skips or misreads at its usual punctuation level, as words. */
const SAID = [
  [/⟨\s*(\w)\s*,\s*(\w)\s*⟩/g, " $1 dot $2 "],
  [/‖\s*(\w)\s*‖/g, " the norm of $1 "],
  [/←/g, " becomes "],
  [/→/g, " to "],
  [/[·×]/g, " times "],
  [/≤/g, " at most "],
  [/>/g, " greater than "],
  [/</g, " less than "],
  [/=/g, " equals "],
];

function capital(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * The replay's announcements: `moved(t)` after a move, `paused(t)`, `startedPlaying(t)` when
 * Play is pressed, `playing(t)` at every painted step while playing (it speaks at most every
 * PLAYING_INTERVAL_MS).
 */
export class Announcer {
  /**
   * @param {HTMLElement} region  the live region (liveRegion())
   * @param {object} o  {lanes, scene, texts, level, arithmetic: () => [math-line elements]}
   */
  constructor(region, o) {
    Object.assign(this, o);
    this.region = region;
    this.spokenAt = -Infinity;
  }

  /** After a move; `lead` is said first (predict mode's verdict), even when moves say nothing. */
  moved(t, lead = "") {
    if (lead && this.level === "off") this.tell(lead);
    else this._say(() => (lead ? `${lead} ${this._full(t)}` : this._full(t)));
  }

  /** Say `text` now, whatever a move would say: an answer to what the reader just did. */
  tell(text) {
    this.spokenAt = performance.now();
    this.region.textContent = text;
  }

  paused(t) {
    this._say(() => `Paused at ${this._full(t).replace(/^Step/, "step")}`);
  }

  /** Play was pressed: where it starts is said at once (the interval counts from here). */
  startedPlaying(t) {
    this._say(() => playingSentence(this.lanes[0], t));
  }

  playing(t) {
    const now = performance.now();
    if (now - this.spokenAt < PLAYING_INTERVAL_MS) return;
    this._say(() => playingSentence(this.lanes[0], t));
  }

  _full(t) {
    const sentence = stepSentence(this.lanes, this.scene, this.texts, t);
    if (this.level !== "arithmetic" || this.lanes.length > 1) return sentence;
    const lane = this.lanes[0],
      i = lane.event(t);
    const lines = this.arithmetic ? spokenMath(this.arithmetic()) : "";
    // a committee's members each have their own outcome: the panel gives no one reason either
    const why = i === null || (lane.M > 1 && !lane.classes) ? "" : this.texts.why[lane.kindAt(i)] || "";
    return [sentence, lines && `${lines}.`, why].filter(Boolean).join(" ");
  }

  _say(make) {
    if (this.level === "off") return;
    this.spokenAt = performance.now();
    this.region.textContent = make();
  }
}
