// Perceptron Lab's pages, in the browser (router.py injects this beside ui/pages.css).
//
// On a small screen a displayed formula or a table wider than the page scrolls sideways in
// its own box (ui/pages.css). A keyboard can scroll such a box only once it can take the
// focus (WCAG 2.1.1): each box that is wider than the window gets tabindex 0 and a name,
// and loses them again when it fits. Streamlit redraws the page at every run, so the boxes
// are looked at again after each change of the page and of the window's size.
if (!window.perceptronLabScrollBoxes) {
  window.perceptronLabScrollBoxes = true;
  const BOXES = ".katex-display, [data-testid='stMarkdownContainer'] table";
  const mark = () => {
    for (const box of document.querySelectorAll(BOXES)) {
      const wide = box.scrollWidth > box.clientWidth + 1;
      if (wide && !box.hasAttribute("tabindex")) {
        box.tabIndex = 0;
        box.setAttribute("role", "group");
        box.setAttribute(
          "aria-label",
          box.tagName === "TABLE" ? "Table, scrolls sideways" : "Formula, scrolls sideways",
        );
      } else if (!wide && box.hasAttribute("tabindex")) {
        for (const name of ["tabindex", "role", "aria-label"]) box.removeAttribute(name);
      }
    }
  };
  let queued = false;
  const soon = () => {
    if (!queued) {
      queued = true;
      requestAnimationFrame(() => {
        queued = false;
        mark();
      });
    }
  };
  new MutationObserver(soon).observe(document.body, { childList: true, subtree: true });
  window.addEventListener("resize", soon);
  soon();
}
