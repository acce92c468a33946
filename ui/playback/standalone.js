// The host of a page that plays on its own (ui/standalone_page.py): no
// server, no Streamlit. The run's arguments and its arrays are inline in the
// page; so are the playback's ES modules, as text, dependencies first, which
// become modules here, each import's specifier replaced by the blob URL of the
// module it names. Where the specifiers are, the page says (playback-imports,
// read in Python by ui/module_graph.py): nothing is searched for here.
// Classic script, run after the page's body is there.
(() => {
  const args = JSON.parse(document.getElementById("playback-args").textContent);
  const text = atob(document.getElementById("playback-blob").textContent.trim());
  args.blob = Uint8Array.from(text, (c) => c.charCodeAt(0));
  globalThis.playbackHost = {
    connect: (onRender) => onRender(args),
    setFrameHeight: (height) => {
      // inside a notebook's frame (the widget), the frame follows our height
      if (window.frameElement) window.frameElement.style.height = `${Math.ceil(height)}px`;
    },
    setComponentValue: () => {}, // nobody to retrain for: clicks on the plot are off here
  };
  const imports = JSON.parse(document.getElementById("playback-imports").textContent);
  const urls = {};
  for (const node of document.querySelectorAll("script[data-module]")) {
    const source = node.textContent;
    const parts = [];
    let at = 0;
    for (const [module, start, end] of imports[node.dataset.module]) {
      parts.push(source.slice(at, start), JSON.stringify(urls[module]));
      at = end;
    }
    parts.push(source.slice(at));
    urls[node.dataset.module] = URL.createObjectURL(new Blob(parts, { type: "text/javascript" }));
  }
  import(urls["main.js"]);
})();
