// Signed rulings: "Sign this verdict" asks the referee to sign a verdict (POST /v1/adjudicate?sign=true)
// and saves the request with its signed answer as one file; "Check a signed ruling" checks such a file
// in the browser itself (WebCrypto's Ed25519) against the key the referee publishes (GET /v1/keys), so
// the check does not rest on the referee's word.  What is signed is api/signing.py's: the RFC 8785
// canonical form of {"request": ..., "answer": <the answer without its signature>}.  Uses page.js.
import {$, h, download, call, idsDetails, clearProblems, showProblems, variantName, isObject, describeAction} from "./page.js";

// RFC 8785 (JSON Canonicalization Scheme) for the JSON the referee reads and writes: objects with
// their keys sorted by UTF-16 code units (JavaScript's own string order), no whitespace; strings and
// numbers written as JSON.stringify writes them, which is how RFC 8785 defines them (the referee
// writes integers only; a number it cannot write exactly it refuses to sign).
export function canonicalJson(value) {
  if (value === null || typeof value === "boolean" || typeof value === "string") return JSON.stringify(value);
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new TypeError("a number JSON cannot hold");
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return "[" + value.map(canonicalJson).join(",") + "]";
  if (typeof value === "object") {
    return "{" + Object.keys(value).sort().map(k => JSON.stringify(k) + ":" + canonicalJson(value[k])).join(",") + "}";
  }
  throw new TypeError(`a value JSON cannot hold (${typeof value})`);
}

// The bytes a ruling's signature covers.
export function signedMessage(request, answer) {
  const bare = Object.fromEntries(Object.entries(answer).filter(([k]) => k !== "signature"));
  return new TextEncoder().encode(canonicalJson({request, answer: bare}));
}

// Standard base64 (with its padding, nothing else) as bytes; null when the text is not that.
export function base64Bytes(text) {
  if (typeof text !== "string" || text.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(text)) return null;
  try { return Uint8Array.from(atob(text), c => c.charCodeAt(0)); } catch (err) { return null; }
}

// A key's id as api/signing.py names it: "ed25519:" and the first 16 hex digits of SHA-256 of its raw bytes.
export async function keyIdOf(raw) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", raw));
  return "ed25519:" + [...digest].map(b => b.toString(16).padStart(2, "0")).join("").slice(0, 16);
}

class NotVerified extends Error {}

// Checks a signed ruling against public keys ({key_id: raw bytes}); the key id that signed it, or
// NotVerified with the reason.  The same decisions, in the same order, as api/signing.py's verify.
export async function verifyRuling(request, answer, keys) {
  const signature = answer.signature;
  if (!isObject(signature)) throw new NotVerified("the answer carries no signature");
  if (signature.alg !== "Ed25519") throw new NotVerified(`the signature's algorithm is ${JSON.stringify(signature.alg)}, not Ed25519`);
  const kid = signature.key_id;
  const candidates = kid in keys ? [keys[kid]] : Object.values(keys);
  if (!candidates.length) throw new NotVerified("no public key to check it with");
  const value = base64Bytes(signature.value);
  if (!value) throw new NotVerified("the signature's value is not base64");
  let message;
  try { message = signedMessage(request, answer); } catch (err) { throw new NotVerified(String(err.message || err)); }
  for (const raw of candidates) {
    const key = await crypto.subtle.importKey("raw", raw, {name: "Ed25519"}, false, ["verify"]);
    if (!(await crypto.subtle.verify({name: "Ed25519"}, key, value, message))) continue;
    const id = await keyIdOf(raw);
    if (id !== kid) throw new NotVerified(`the signature is good but names key ${JSON.stringify(kid)}, not ${JSON.stringify(id)}`);
    return kid;
  }
  throw new NotVerified("the signature does not match this request and answer: one of them was altered, or another key signed it");
}

// -- signing a verdict ---------------------------------------------------------------------------

// A "Sign this verdict" button for the adjudicate request `requestOf()` gives: the referee signs its
// verdict, and the request with the signed answer is offered as a file (what the check below reads,
// and `kalooki-referee verify` too).
export function signButton(requestOf) {
  const note = h("span", {class: "sign-note", role: "status"});
  const button = h("button", {type: "button", class: "sign", onclick: async () => {
    note.textContent = "Asking the referee to sign\u2026";
    const request = requestOf();
    const r = await call("POST", "/v1/adjudicate?sign=true", request);
    if (!r.ok || !r.body || !r.body.signature) {
      note.textContent = `The referee did not sign it: ${(r.body && (r.body.detail || r.body.title)) || r.status}`;
      return;
    }
    download("kalooki-ruling.json", {request, answer: r.body});
    note.textContent = `Saved kalooki-ruling.json, signed with the referee's key ${r.body.signature.key_id}.`;
  }}, "Sign this verdict");
  return h("span", {class: "sign-control"}, button, note);
}

// -- checking a signed ruling ----------------------------------------------------------------------

// The public keys to check with: the one pasted, else those the referee publishes.
export async function checkingKeys() {
  const pasted = $("signed-key").value.trim();
  if (pasted) {
    const raw = base64Bytes(pasted);
    if (!raw || raw.length !== 32) {
      showProblems("signed-key-problems", $("signed-key"),
                   {title: "Not a public key", detail: "an Ed25519 public key is base64 of its 32 raw bytes"}, () => "the public key");
      return null;
    }
    return {keys: {[await keyIdOf(raw)]: raw}, published: []};
  }
  const r = await call("GET", "/v1/keys");
  if (!r.ok) {
    showProblems("signed-key-problems", $("signed-key"), r.body, () => "the referee's keys");
    return null;
  }
  const keys = {};
  for (const k of r.body.keys || []) {
    const raw = base64Bytes(k.public_key);
    if (raw) keys[k.key_id] = raw;
  }
  return {keys, published: r.body.keys || []};
}

export function rulingSummary(request, answer) {
  if (typeof answer.legal !== "boolean") return "";
  const action = isObject(request) && isObject(request.action) ? request.action : null;
  const who = action && action.player ? action.player : "The player to act";
  const what = action ? describeAction(action, who) : "The move";
  const clauses = (answer.violations || []).map(v => v.clause).filter(Boolean);
  return h("div", {class: "ruling-summary"},
    h("p", {}, `The ruling${request.variant ? ` (${variantName(request.variant)})` : ""}: ${what}: `,
      h("strong", {}, answer.legal ? "allowed" : "not allowed"),
      answer.legal ? "." : `: ${[...new Set((answer.violations || []).map(v => v.message))].join("; ")}.`),
    idsDetails(["rules broken", clauses.join(", ")]));
}

export async function checkRuling(text) {
  const field = $("signed-text");
  clearProblems("signed-problems", field);
  clearProblems("signed-key-problems", $("signed-key"));
  $("signed-answer").replaceChildren();
  let ruling;
  try {
    ruling = JSON.parse(text);
  } catch (err) {
    showProblems("signed-problems", field, {title: "Not JSON", detail: `this is not a JSON document (${err.message})`}, () => "the ruling");
    return;
  }
  const errors = [];
  if (!isObject(ruling)) errors.push({pointer: "", detail: 'a signed ruling is a JSON object {"request": ..., "answer": ...}'});
  else {
    if (!("request" in ruling)) errors.push({pointer: "/request", detail: "the request sent to the referee is missing"});
    if (!isObject(ruling.answer)) errors.push({pointer: "/answer", detail: "the referee's answer (an object) is missing"});
  }
  if (errors.length) {
    showProblems("signed-problems", field, {title: "Not a signed ruling", errors}, p => p ? p.slice(1) : "the ruling");
    return;
  }
  if (!window.crypto || !crypto.subtle) {
    $("signed-answer").replaceChildren(h("div", {class: "verdict illegal signed-result", "data-verified": "unknown"},
      h("p", {}, h("strong", {}, "This browser cannot check signatures here: "),
        "it allows cryptography only on pages served over HTTPS or from this computer. Check the file with ",
        h("code", {}, "kalooki-referee verify"), " instead.")));
    return;
  }
  const found = await checkingKeys();
  if (!found) return;
  let verified = null, reason = null;
  try {
    verified = await verifyRuling(ruling.request, ruling.answer, found.keys);
  } catch (err) {
    if (!(err instanceof NotVerified) && err.name !== "NotSupportedError") throw err;
    reason = err instanceof NotVerified ? err.message : "this browser does not do Ed25519; check the file with kalooki-referee verify";
  }
  const published = found.published.find(k => k.key_id === verified);
  $("signed-answer").replaceChildren(verified
    ? h("div", {class: "verdict legal signed-result", "data-verified": "true"},
        h("p", {}, h("strong", {}, "Verified."), " The referee's key signed exactly this question and this answer: nobody has altered them."),
        published && published.ephemeral ? h("p", {}, "That key lasts only until the referee restarts: keep a copy of it with the ruling.") : "",
        idsDetails(["the key", verified], ["where the key is published", published ? "/v1/keys" : null]),
        rulingSummary(ruling.request, ruling.answer))
    : h("div", {class: "verdict illegal signed-result", "data-verified": "false"},
        h("p", {}, h("strong", {}, "Not verified."), ` ${reason.charAt(0).toUpperCase()}${reason.slice(1)}.`),
        h("p", {}, "Do not rely on what this file says the referee ruled.")));
}

document.addEventListener("DOMContentLoaded", () => {
  $("signed-form").addEventListener("submit", e => { e.preventDefault(); checkRuling($("signed-text").value); });
  $("signed-file").addEventListener("change", async e => {
    const file = e.target.files && e.target.files[0];
    if (!file) return;
    $("signed-text").value = await file.text();
    await checkRuling($("signed-text").value);
  });
});
