// Perceptron Lab's pages, in the browser: router.py injects this module beside ui/pages.css,
// with the module it imports written in front of it (ui/page_assets.py).
//
// On a small screen a displayed formula or a table wider than the page scrolls sideways in
// its own box (ui/pages.css); scrollboxes.js makes each such box reachable by the keyboard.
// Streamlit runs the page's script again at every rerun: the page is watched once.
import { watchScrollBoxes } from "./playback/scrollboxes.js";

if (!window.perceptronLabScrollBoxes) {
  window.perceptronLabScrollBoxes = true;
  watchScrollBoxes(document.body, ".katex-display, [data-testid='stMarkdownContainer'] table", (box) =>
    box.tagName === "TABLE" ? "Table" : "Formula",
  );
}
