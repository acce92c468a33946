// The reader's own settings of the replay, kept in the browser (localStorage)
// from one visit to the next: whether the single-key shortcuts act, how
// much the live region says after a move, and whether the run sounds, how loud.
// Nothing here goes to the server or into a share link: they belong to the
// reader, not to the view. This module imports nothing: the app's pages carry it
// too (ui/page_assets.py), so that the lessons' charts sound at the reader's volume.

const PREFIX = "perceptron-lab.replay.";
/** The volumes offered, in percent. */
export const VOLUMES = Array.from({ length: 21 }, (_, k) => String(5 * k));

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

/** The reader's sound settings, {on, volume}: off at half volume until they choose. */
export function storedSound() {
  return { on: load("sound", "off", ["on", "off"]) === "on", volume: Number(load("volume", "50", VOLUMES)) };
}

/** Call `changed()` when another page or frame of the app changes a setting (the same storage). */
export function onSettingsChanged(changed) {
  window.addEventListener("storage", (event) => {
    if (event.key === null || event.key.startsWith(PREFIX)) changed();
  });
}
