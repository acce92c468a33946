// A table wider than its panel scrolls sideways in its own box (style.css). A keyboard can
// scroll such a box only once it can take the focus (WCAG 2.1.1; axe's
// scrollable-region-focusable): each box wider than its room gets tabindex 0, a group role
// and a name ("<caption>, scrolls sideways"), and loses them when it fits again. Boxes come
// and go as the replay repaints, so they are looked at again, once a frame at most, after
// each change of the tree and of the window's size. The app's pages do the same for their
// own formulas and tables (ui/pages.js).

const BOXES = "table.numbers, .table-scroll";

function nameOf(box) {
  const caption = box.querySelector("caption")?.textContent.trim();
  return `${caption || "Table"}, scrolls sideways`;
}

function mark(root) {
  for (const box of root.querySelectorAll(BOXES)) {
    const wide = box.scrollWidth > box.clientWidth + 1;
    if (wide && !box.hasAttribute("tabindex")) {
      box.tabIndex = 0;
      box.setAttribute("role", "group");
      box.setAttribute("aria-label", nameOf(box));
    } else if (!wide && box.hasAttribute("tabindex")) {
      for (const name of ["tabindex", "role", "aria-label"]) box.removeAttribute(name);
    }
  }
}

/** Keep the sideways-scrolling boxes under `root` reachable by the keyboard. */
export function watchScrollBoxes(root) {
  let queued = false;
  const soon = () => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => {
      queued = false;
      mark(root);
    });
  };
  new MutationObserver(soon).observe(root, { childList: true, subtree: true });
  window.addEventListener("resize", soon);
  soon();
}
