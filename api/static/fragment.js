// What a link's fragment carries, with no page around it: "#ask=<code>" (a question asked at the
// table with its position, deflated and base64url-encoded), "#p=<notation>" (a position,
// docs/notation.md) or "#position=<code>" (a position of a log).  Chat apps and mail clients often
// percent-encode a link; such a link opens the same: base64url never holds "%", and a notation is
// tried as written first, then decoded.

const KINDS = ["ask", "p", "position"];

function decoded(text) {
  try { return decodeURIComponent(text); } catch { return text; }
}

/** {kind, value, alternatives} for a fragment ("#..."), or null when it carries nothing the page opens. */
export function readFragment(hash) {
  let text = String(hash || "");
  let m = /^#([a-z]+)=(.*)$/s.exec(text);
  if (!m || !KINDS.includes(m[1])) {  // the "=" itself, or the "#", percent-encoded
    text = decoded(text);
    if (!text.startsWith("#")) text = "#" + text;
    m = /^#([a-z]+)=(.*)$/s.exec(text);
  }
  if (!m || !KINDS.includes(m[1]) || !m[2]) return null;
  const [, kind, value] = m;
  if (kind === "p") {
    const plain = decoded(value);
    return {kind, value, alternatives: plain !== value ? [plain] : []};
  }
  const code = decoded(value).trim();
  return /^[A-Za-z0-9_-]+$/.test(code) ? {kind, value: code, alternatives: []} : null;
}

/** The fragment of a question's link. */
export function askFragment(code) { return `#ask=${code}`; }
