// What the question's panel draws alike for a prediction (classquestion.js) and a lesson's
// exercise (classexercise.js): the teacher's buttons, the answers per choice, a share in per cent.

import { el } from "./dom.js";
import { count } from "./format.js";

/** `part` of `whole` in whole per cent ("67 %"). */
export function percent(part, whole) {
  return whole ? `${Math.round((100 * part) / whole)} %` : "0 %";
}

/**
 * The teacher's buttons under the class's question: while it is open "Reveal to the class" and
 * "Show the right answer" (a toggle, on the teacher's screen only), then "Put the question away".
 * `panel` has `showRight` (the toggle's state, kept across redraws), `send(message)` and
 * `_numbers()` (draws the numbers again).
 */
export function teacherButtons(open, panel) {
  const right = el(
    "button",
    {
      type: "button",
      class: "btn class-right",
      "aria-pressed": String(panel.showRight),
      title: "On your screen only; off while it is projected, until you reveal.",
      onclick: () => {
        panel.showRight = !panel.showRight;
        right.setAttribute("aria-pressed", String(panel.showRight));
        panel._numbers();
      },
    },
    "Show the right answer",
  );
  return el(
    "div",
    { class: "question-buttons" },
    open
      ? el(
          "button",
          { type: "button", class: "btn class-reveal", onclick: () => panel.send({ type: "reveal" }) },
          "Reveal to the class",
        )
      : null,
    open ? right : null,
    el(
      "button",
      { type: "button", class: "btn class-close", onclick: () => panel.send({ type: "close" }) },
      "Put the question away",
    ),
  );
}

/**
 * The answers per choice: each choice's words, a bar and its count and share; the right one
 * marked (`right(n)`), and on a student's page their own (`yours`: its index, or null).
 */
export function poolList(words, results, right, yours, label) {
  const rows = words.map((text, n) => {
    const theRight = right(n);
    const share = results.answered ? results.counts[n] / results.answered : 0;
    return el(
      "li",
      { class: theRight ? "right" : "" },
      el(
        "span",
        { class: "pool-words" },
        theRight ? el("b", {}, "✓ right: ") : null,
        text,
        yours === n ? el("i", {}, " (your answer)") : null,
      ),
      el(
        "span",
        { class: "pool-bar", "aria-hidden": "true" },
        el("span", { style: `width: ${(100 * share).toFixed(1)}%` }),
      ),
      el(
        "span",
        { class: "pool-count" },
        `${count(results.counts[n])} (${percent(results.counts[n], results.answered)})`,
      ),
    );
  });
  return el("ul", { class: "pool-list", "aria-label": label }, ...rows);
}
