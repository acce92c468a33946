// Numbers written as Python writes them (format specs ".4g", ".1%", ",", ".3f"),
// so the browser shows exactly the digits the Python side computes, and
// visitor text made safe for Plotly, which renders trace names and titles as
// HTML-like markup (a "<a href>" label would become a link).

/** Python's `format(x, spec)` for the specs this app uses: ".Ng", ".Nf", ".N%", ",", ",.Nf", "d". */
export function pyFormat(x, spec) {
  if (x === null || x === undefined || Number.isNaN(x)) return "—";
  if (!Number.isFinite(x)) return x > 0 ? "inf" : "-inf";
  const m = /^(,)?(?:\.(\d+))?([gf%d])?$/.exec(spec);
  if (!m) throw new Error(`unsupported format spec ${spec}`);
  const [, comma, digits, kind] = m;
  const p = digits === undefined ? undefined : Number(digits);
  let text;
  if (kind === "g") text = formatG(x, p === undefined ? 6 : p);
  else if (kind === "f") text = fixed(x, p === undefined ? 6 : p);
  else if (kind === "%") text = `${fixed(100 * x, p === undefined ? 6 : p)}%`;
  else if (kind === "d" || (kind === undefined && Number.isInteger(x))) text = fixed(x, 0);
  else text = repr(x);
  return comma ? groupThousands(text) : text;
}

/** A number for the math panel: 4 significant digits, rounding dust (|x| < 1e-12) as 0. */
export function num(x, digits = 4) {
  return formatG(Math.abs(x) < 1e-12 ? 0 : x, digits);
}

/** `num` with a real minus sign, as the math panel and the spoken sentences write a number. */
export function minusNum(x, digits = 4) {
  return num(x, digits).replace("-", "−");
}

/** A 2-D point or vector "(a, b)", 3 significant digits each. */
export function pair(a, b) {
  return `(${minusNum(a, 3)}, ${minusNum(b, 3)})`;
}

function fixed(x, p) {
  // toFixed rounds an exact tie (0.125 to 2 places) up; Python rounds it to even.
  const scaled = Math.abs(x) * 10 ** p;
  if (scaled % 1 === 0.5 && Number.isSafeInteger(scaled * 2)) {
    const n = Math.floor(scaled) + (Math.floor(scaled) % 2);
    return (x < 0 ? "-" : "") + (n / 10 ** p).toFixed(p);
  }
  return x.toFixed(p);
}

/** Python's "g" format with precision p. */
function formatG(x, p) {
  if (p === 0) p = 1;
  if (x === 0) return Object.is(x, -0) ? "-0" : "0";
  const exp = Number(x.toExponential(p - 1).split("e")[1]);
  if (exp < -4 || exp >= p) {
    let [mant, e] = x.toExponential(p - 1).split("e");
    mant = stripZeros(mant);
    const sign = e.startsWith("-") ? "-" : "+";
    const digits = e.replace(/^[-+]/, "").padStart(2, "0");
    return `${mant}e${sign}${digits}`;
  }
  return stripZeros(x.toFixed(Math.max(0, p - 1 - exp)));
}

function stripZeros(text) {
  return text.includes(".") ? text.replace(/0+$/, "").replace(/\.$/, "") : text;
}

function repr(x) {
  // Python's repr of a float: shortest round-trip digits, like JavaScript's String().
  return String(x);
}

function groupThousands(text) {
  const [intPart, rest] = text.split(".");
  const sign = intPart.startsWith("-") ? "-" : "";
  const digits = intPart.replace("-", "");
  const grouped = digits.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  const decimals = rest === undefined ? "" : `.${rest}`;
  return `${sign}${grouped}${decimals}`;
}

/** Python's f"{n:,}" for integers: "12,345". */
export function count(n) {
  return groupThousands(String(Math.trunc(n)));
}

/** `−1` / `+1` as the pages write a label (a real minus sign). */
export function signed(label) {
  return label > 0 ? "+1" : "−1";
}

export const MAX_LABEL = 40;

/** "benign (−1)", or just "−1" for a class named by its label (no "−1 (−1)"): plain text. */
export function classWords(name, sign) {
  const text = cut(name);
  return text.replace("-", "−") === sign || text === sign.replace("+", "") ? sign : `${text} (${sign})`;
}

/** Visitor text cut to `limit` characters (an ellipsis says it was cut). */
export function cut(text, limit = MAX_LABEL) {
  const s = String(text);
  return s.length > limit ? `${s.slice(0, limit - 1)}…` : s;
}

/** Visitor text for Plotly's markup (names, titles, hover): cut, with <, > and & escaped. */
export function plotlyText(text, limit = MAX_LABEL) {
  return cut(text, limit).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/**
 * Break `text` into lines of at most `chars` characters at spaces, joined by Plotly's `<br>` (a word
 * longer than a line keeps its own line). `wrapWords("margin band (updates inside)", 12)` is
 * "margin band<br>(updates<br>inside)".
 */
export function wrapWords(text, chars) {
  const lines = [];
  for (const word of String(text).split(" ")) {
    const last = lines.length - 1;
    if (last >= 0 && lines[last].length + 1 + word.length <= chars) lines[last] += ` ${word}`;
    else lines.push(word);
  }
  return lines.join("<br>");
}
