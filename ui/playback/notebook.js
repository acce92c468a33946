// The notebook widget's host (anywidget, see widget/__init__.py): the replay's
// self-contained page (ui/standalone_page.py) in a frame of the cell's
// output. The frame keeps the replay's styles, keys and globals apart from the
// notebook's and from other widgets'; the page's host (standalone.js) sets the
// frame's height to its content.

function render({ model, el }) {
  const frame = document.createElement("iframe");
  frame.className = "perceptron-lab-replay";
  frame.style.cssText = "width: 100%; min-width: 640px; height: 900px; border: 0;";
  frame.srcdoc = model.get("page");
  model.on("change:page", () => { frame.srcdoc = model.get("page"); });
  el.append(frame);
}

export default { render };
