// A table or a formula wider than its room scrolls sideways in its own box (style.css,
// ui/pages.css). A keyboard can scroll such a box only once it can take the focus (WCAG
// 2.1.1; axe's scrollable-region-focusable): each box wider than its room gets tabindex 0, a
// group role and a name (its caption, then "scrolls sideways"), and loses them when it fits
// again.
// Boxes come and go as the replay repaints and as Streamlit redraws a page, so they are
// looked at again, once a frame at most, after each change of the tree and of the window's
// size. The replay (main.js) and the app's pages (ui/pages.js) both watch theirs with it.

function mark(root, boxes, nameOf) {
  for (const box of root.querySelectorAll(boxes)) {
    const wide = box.scrollWidth > box.clientWidth + 1;
    if (wide && !box.hasAttribute("tabindex")) {
      box.tabIndex = 0;
      box.setAttribute("role", "group");
      box.setAttribute("aria-label", `${nameOf(box)}, scrolls sideways`);
    } else if (!wide && box.hasAttribute("tabindex")) {
      for (const name of ["tabindex", "role", "aria-label"]) box.removeAttribute(name);
    }
  }
}

/**
 * Keep the boxes under `root` that match the selector `boxes` reachable by the keyboard while
 * they are wider than their room; `nameOf(box)` names one ("Table": "Table, scrolls sideways").
 */
export function watchScrollBoxes(root, boxes, nameOf) {
  let queued = false;
  const soon = () => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => {
      queued = false;
      mark(root, boxes, nameOf);
    });
  };
  new MutationObserver(soon).observe(root, { childList: true, subtree: true });
  window.addEventListener("resize", soon);
  soon();
}
