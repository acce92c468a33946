// The host of a page that plays on its own (ui/standalone_page.py): no
// server, no Streamlit. The run's arguments and its arrays are inline in the
// page; so are the playback's ES modules, as text, which become modules here
// (each import of "./x.js" pointed at x.js's own blob URL), dependencies first.
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
  const urls = {};
  for (const node of document.querySelectorAll("script[data-module]")) {
    const source = node.textContent.replace(
      /(from\s*|import\s*)"\.\/([\w-]+\.js)"/g,
      (_all, keyword, name) => `${keyword}"${urls[name]}"`,
    );
    urls[node.dataset.module] = URL.createObjectURL(new Blob([source], { type: "text/javascript" }));
  }
  import(urls["main.js"]);
})();
