// The reader's own settings of the replay, kept in the browser (localStorage)
// from one visit to the next: whether the single-key shortcuts act, and how
// much the live region says after a move. Nothing here goes to the server or
// into a share link: they belong to the reader, not to the view.

const PREFIX = "perceptron-lab.replay.";

/** The stored value of `name`, or `fallback` (unset, not one of `allowed`, or no storage). */
export function load(name, fallback, allowed) {
  try {
    const value = window.localStorage.getItem(PREFIX + name);
    return value !== null && allowed.includes(value) ? value : fallback;
  } catch {
    return fallback; // storage blocked (a sandboxed frame, privacy settings): the default
  }
}

export function save(name, value) {
  try {
    window.localStorage.setItem(PREFIX + name, value);
  } catch {
    // not kept: the setting still holds on this page
  }
}
