// The Streamlit custom-component protocol (components v1), written by hand.
//
// The page (our parent window) sends "streamlit:render" with the component's
// arguments; we answer "streamlit:componentReady" once, then
// "streamlit:setFrameHeight" when our height changes and
// "streamlit:setComponentValue" for the few events the server must see (a
// click that edits the points). Stepping never sends anything.
//
// Another host (the exported web page, the notebook widget) sets
// `globalThis.playbackHost` to an object with the same three functions before
// main.js runs; the modules then talk to it instead of to Streamlit.

const host = () => globalThis.playbackHost;

function send(type, data) {
  window.parent.postMessage({ isStreamlitMessage: true, type, ...data }, "*");
}

/** Call `onRender(args)` for every render message; announce that we are ready. */
export function connect(onRender) {
  if (host()) return host().connect(onRender);
  window.addEventListener("message", (event) => {
    if (event.source !== window.parent) return; // only the page that embeds us
    const data = event.data;
    if (data && data.type === "streamlit:render") onRender(data.args);
  });
  send("streamlit:componentReady", { apiVersion: 1 });
}

let lastHeight = -1;

/** Tell the page how tall we are (only when it changed: each message re-renders the page). */
export function setFrameHeight(height) {
  if (host()) return host().setFrameHeight(height);
  const h = Math.ceil(height);
  if (h === lastHeight) return;
  lastHeight = h;
  send("streamlit:setFrameHeight", { height: h });
}

/** Send a value to the server: it reruns the page with it. */
export function setComponentValue(value) {
  if (host()) return host().setComponentValue(value);
  send("streamlit:setComponentValue", { value, dataType: "json" });
}
