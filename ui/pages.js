// Perceptron Lab's pages, in the browser: router.py injects this module beside ui/pages.css,
// with the modules it imports written in front of it (ui/page_assets.py).
//
// * On a small screen a displayed formula or a table wider than the page scrolls sideways in
//   its own box (ui/pages.css); scrollboxes.js makes each such box reachable by the keyboard.
// * One polite live region for the page, made once, outside what Streamlit redraws: a screen
//   reader follows a region it saw before its text changed, and Streamlit replaces its own
//   elements at every rerun. The pages put what it should say into hidden `.pl-say` elements
//   (ui/announce.py: a check question's verdict, an experiment's end, a new learner): each
//   is said once.
// * The lessons' charts: a screen reader reads a Plotly chart's drawing as its loose tick
//   labels, so the drawing is hidden from it and the chart named and described by its
//   caption (ui/charts.py); the chart takes the focus, its arrow keys walk its points and S
//   (or the button under it) plays it as sound (chartwalk.js), at the reader's volume.
// * The focus stays where it was when Streamlit takes it away: after a download button, or a
//   file uploaded, the focus fell to the page's body, and a keyboard user started again from
//   the top of the page.
// Streamlit runs the page's script again at every rerun: the page is set up once.
import { watchScrollBoxes } from "./playback/scrollboxes.js";
import { onSettingsChanged, storedSound } from "./playback/settings.js";
import { Sound } from "./playback/sound.js";
import { ChartWalk } from "./playback/chartwalk.js";

/** How long after losing its focus to a redraw an element may take it back (ms). */
const REFOCUS_WITHIN_MS = 6000;
/** Controls that lose the focus to the page's body when used, though they stay on the page. */
const LOSES_FOCUS = "[data-testid='stDownloadButton'], [data-testid='stFileUploader']";
/** How long after its use (a click, or Enter or Space) a control may lose the focus to it (ms). */
const USED_MS = 2000;
/** A click on the page this recently (ms) moved the focus on purpose: it is not taken back. */
const CLICK_MS = 400;

/** The page's live region (see the module's comment), and `sayOnPage(text)`. */
function pageRegion() {
  const region = document.createElement("div");
  region.id = "pl-live";
  region.className = "pl-sr-only";
  region.setAttribute("role", "status");
  region.setAttribute("aria-live", "polite");
  region.setAttribute("aria-atomic", "true");
  document.body.append(region);
  return (text) => {
    region.textContent = text === region.textContent ? `${text}\u00a0` : text;
  };
}

/** Say each `.pl-say` element's text once (its data-say is its identity). */
function announcer(sayOnPage) {
  const said = new Set();
  return () => {
    for (const node of document.querySelectorAll(".pl-say[data-say]")) {
      if (said.has(node.dataset.say)) continue;
      said.add(node.dataset.say);
      sayOnPage(node.textContent.trim());
    }
  };
}

/** The element container of Streamlit that holds `node`. */
const containerOf = (node) => node.closest("[data-testid='stElementContainer']");

/** The caption ui/charts.py writes under a chart: the first caption after it, before the next chart. */
function captionOf(plot) {
  for (let next = containerOf(plot)?.nextElementSibling; next; next = next.nextElementSibling) {
    if (next.querySelector(".js-plotly-plot")) return null;
    const caption = next.querySelector("[data-testid='stCaptionContainer']");
    if (caption) return caption;
  }
  return null;
}

/** The chart a "Play as sound" button plays: the last chart before the button. */
function chartBefore(button) {
  for (let before = containerOf(button)?.previousElementSibling; before; before = before.previousElementSibling) {
    const plot = before.querySelector(".js-plotly-plot");
    if (plot) return plot;
  }
  return null;
}

let captions = 0;

/** Name, describe and walk each drawn chart of the page (again after Plotly redraws its SVG). */
function chartWatcher(sayOnPage, sound) {
  const walks = new WeakMap();
  const keys = document.createElement("p");
  keys.id = "pl-chart-keys";
  keys.className = "pl-sr-only";
  keys.textContent = ChartWalk.help();
  document.body.append(keys);
  const setUp = () => {
    for (const plot of document.querySelectorAll("[data-testid='stPlotlyChart'] .js-plotly-plot")) {
      if (!plot._fullData) continue; // not drawn yet
      for (const svg of plot.querySelectorAll(".main-svg")) svg.setAttribute("aria-hidden", "true");
      const caption = captionOf(plot);
      if (caption && !caption.id) caption.id = `pl-caption-${++captions}`;
      const name = caption ? caption.textContent.split(/(?<=\.)\s/)[0].replace(/\.$/, "") : "Chart";
      if (plot.getAttribute("aria-label") !== name) plot.setAttribute("aria-label", name);
      plot.setAttribute("aria-describedby", `${caption ? `${caption.id} ` : ""}${keys.id}`);
      if (!walks.has(plot)) walks.set(plot, new ChartWalk(plot, { say: sayOnPage, sound }));
    }
  };
  document.addEventListener("click", (event) => {
    const button = event.target.closest?.(".pl-play-chart");
    const plot = button && chartBefore(button);
    if (plot) walks.get(plot)?.play();
  });
  return setUp;
}

/**
 * Give the focus back to an element Streamlit took it from (see the module's comment): when it
 * left with nowhere to go, not after a click elsewhere, and the body has it since, and the
 * element was redrawn or is one that loses its focus when used (LOSES_FOCUS); to the element
 * itself, or, redrawn, to the element of the same widget with the same name.
 */
function keepFocus() {
  let clicked = { at: -Infinity, on: null };
  let used = { at: -Infinity, on: null };
  let focusedAt = -Infinity;
  document.addEventListener(
    "click", // a mouse's, or Enter's and Space's on a button
    (event) => {
      used = { at: performance.now(), on: event.target };
    },
    true,
  );
  document.addEventListener(
    "pointerdown",
    (event) => {
      clicked = { at: performance.now(), on: event.target };
    },
    true,
  );
  document.addEventListener("focusin", () => {
    focusedAt = performance.now();
  });
  document.addEventListener("focusout", (event) => {
    const lost = event.target;
    const now = performance.now();
    if (event.relatedTarget || !(lost instanceof HTMLElement)) return;
    // a click elsewhere since the element took the focus moved the focus away on purpose
    if (clicked.at >= focusedAt && now - clicked.at < CLICK_MS && !lost.contains(clicked.on)) return;
    const box = lost.closest("[class*='st-key-']");
    const widget = [...(box?.classList || [])].find((c) => c.startsWith("st-key-"));
    const nameOf = (el) => el.getAttribute("aria-label") || el.textContent.trim();
    const name = nameOf(lost);
    const kin = (root) => [...root.querySelectorAll(lost.tagName)];
    const fromEnd = box ? kin(box).length - kin(box).indexOf(lost) : 0;
    // the element itself; redrawn, the widget's element of the same name, else the one at the
    // same place from the end (a file uploaded: "Add files" where "Upload" was)
    const again = () => {
      if (lost.isConnected) return lost;
      const drawn = widget && document.querySelector(`.${CSS.escape(widget)}`);
      if (!drawn) return null;
      const same = kin(drawn);
      return same.find((el) => nameOf(el) === name) || same[same.length - fromEnd] || null;
    };
    const check = () => {
      if (performance.now() - now > REFOCUS_WITHIN_MS) return;
      // a control still on the page lost its focus on purpose (a script's blur), unless it is
      // one that Streamlit takes the focus from, just used
      const tookIt = lost.closest(LOSES_FOCUS) && lost.contains(used.on) && now - used.at < USED_MS;
      if (lost.isConnected && !tookIt) return;
      // while a file chooser (or another window) has the focus, wait for it to come back
      const here = document.hasFocus();
      const active = document.activeElement;
      if (here && active && active !== document.body) return; // the focus is somewhere: leave it
      const target = here ? again() : null;
      if (target && !target.disabled) target.focus({ preventScroll: true });
      else setTimeout(check, 200);
    };
    setTimeout(check, 50);
  });
}

if (!window.perceptronLabPage) {
  window.perceptronLabPage = true;
  watchScrollBoxes(document.body, ".katex-display, [data-testid='stMarkdownContainer'] table", (box) =>
    box.tagName === "TABLE" ? "Table" : "Formula",
  );
  const sayOnPage = pageRegion();
  const sound = new Sound(storedSound());
  onSettingsChanged(() => Object.assign(sound, storedSound()));
  window.perceptronLabSound = sound; // for the tests: the sounds scheduled
  const announce = announcer(sayOnPage);
  const charts = chartWatcher(sayOnPage, sound);
  let queued = false;
  new MutationObserver(() => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => {
      queued = false;
      announce();
      charts();
    });
  }).observe(document.body, { childList: true, subtree: true });
  keepFocus();
}
