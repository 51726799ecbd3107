// Sharing a position as its notation (docs/notation.md): the link /#p=<notation>, its QR code and the
// text to copy; such a link, or a notation pasted into the log box, opens the position.  page.js calls
// Share.link() when sharing, Share.asLog() when reading the log box and Share.fromFragment() when
// opening a link (links of the older #position= form still open there).
import {$, h, call} from "./page.js";

export const Share = (() => {
  const PREFIX = "#p=";

  function isNotation(text) { return /^K1\//.test(text.trim()); }

  // The notation of position p of the log, or null where a notation cannot carry it (a game's
  // position, or house rules: those are shared the older way).
  async function notationOf(log, p) {
    if (log.kind !== "hand" || (log.rules !== undefined && log.rules !== null)) return null;
    const r = await call("POST", "/v1/notation", {variant: log.variant, state: log.positions[p]});
    return r.ok ? r.body.notation : null;
  }

  function panel() {
    let box = $("share-notation-box");
    if (box) return box;
    box = h("div", {id: "share-notation-box", class: "share-notation"},
      h("label", {for: "share-notation"}, "This position as text (paste it into the log box to open it)"),
      h("input", {type: "text", id: "share-notation", readonly: true}),
      h("img", {id: "share-qr", class: "share-qr", width: "200", height: "200",
                alt: "QR code of the link to this position"}));
    $("share-url").closest(".share").after(box);
    return box;
  }

  // The link to position p (showing its notation and QR code beside it), or null (see notationOf).
  async function link(log, p) {
    const notation = await notationOf(log, p);
    if (notation === null) return null;
    panel();
    $("share-notation").value = notation;
    $("share-qr").src = `/v1/notation/qr.svg?notation=${encodeURIComponent(notation)}`;
    return `${location.origin}${location.pathname}${PREFIX}${notation}`;
  }

  // A notation as the replay request opening its position ({log}: its text), or the referee's problem
  // ({problem}); null when the text is not a notation.
  async function asLog(text) {
    if (!isNotation(text)) return null;
    const r = await call("POST", "/v1/notation", {notation: text.trim()});
    if (!r.ok) return {problem: r.body};
    return {log: JSON.stringify({variant: r.body.variant, start: {state: r.body.state}, actions: []}, null, 1)};
  }

  // The notation a link's fragment carries, or null.  (Its %XX escapes belong to the notation's names.)
  function fromFragment() { return location.hash.startsWith(PREFIX) ? location.hash.slice(PREFIX.length) : null; }

  return {link, asLog, fromFragment, isNotation};
})();
