// The referee's notes (its rulings, a clause's words) in a player's words, with no page around them:
// pure functions of the text and the rules resources the page reads (GET /v1/sources, /v1/clauses).

// A source document in words, from the number its file carries ("000_....txt" is "document 000").
export function documentWords(number, res) {
  for (const s of res.sources.values()) if ((s.file || "").startsWith(`${number}_`)) return `\u201c${s.title}\u201d`;
  return `document ${number}`;
}

// The referee's notes in plain words: the documents named by title rather than by number, the
// ambiguity ids and a house rule's JSON pointer left out of the text (they stay, exactly as written,
// behind "details").
export function plainWords(text, res) {
  return String(text || "")
    .replace(/\b[Dd]ocuments ((?:\d{3}, )*\d{3}) and (\d{3})/g,
             (_, list, last) => [...list.split(", "), last].map(n => documentWords(n, res)).join(", ").replace(/, ([^,]*)$/, " and $1"))
    .replace(/\b[Dd]ocument (\d{3})/g, (_, n) => documentWords(n, res))
    .replace(/\b(\d{3})'s\b/g, (_, n) => `${documentWords(n, res)}'s`)
    .replace(/(?<![\d,.])\b(00\d)\b(?![\d,])/g, (_, n) => documentWords(n, res))
    .replace(/\s*\(amb\.[\w.]+\)/g, "")
    .replace(/\bamb\.[\w.]+:\s*/g, "")
    .replace(/\(amb\.[\w.]+ /g, "(the referee's reading: ")
    .replace(/\bThe catalogue's amb\.[a-z0-9_]+/g, "The referee's reading of the sources")
    .replace(/(?:[;,]\s*|\s+and\s+)?\bamb\.[a-z0-9_]+(?:\.[a-z0-9_]+)*/g, "")
    .replace(/^\s*[.;,]\s*/, "")
    .replace(/\b(?:clause|citing) (?=[a-z_]+\.[a-z])/g, "citing ")
    // the API's own words (action types, field names, the client, house-rule paths) in a player's words
    .replace(/\s*\(type [^()]*\)/g, "")
    // a refusal's status number and codes: what the page shows of a refusal is its words
    .replace(/\s*\(4\d\d\b[^()]*\)/g, "")
    .replace(/:\s*4\d\d, pointing at the ([^.]*?)(?: entry)?(?= \(|\.|$)/g, ": the referee asks for the $1")
    .replace(/\bthe loser's missing hands\b/g, "the cards left in the loser's hand")
    .replace(/,? (?:with )?rules [a-z_]+\.[a-z_.]+ (?:true|false)\b/g, "")
    .replace(/\s*\(`[^`]*`\)/g, "")
    .replace(/`([^`]*)`/g, (_, code) => /[._:]/.test(code) ? "a house rule" : code)
    .replace(/\b(meld|penalty|draw|discard|pass|call|allow|challenge) action\b/g, "$1")
    .replace(/\bfor the client to apply\b/g, "for the table to apply")
    .replace(/\bthe client\b/g, "the table")
    .replace(/\bsets \/[a-z_]+(?:\/[a-z_]+)+ to \w+(?:\.\w+)*/g, "says so in its house rules")
    .replace(/\bset [a-z]+_[a-z_]+ to \w+(?:\.\w+)*/g, "choose so in their house rules")
    .replace(/\ba swap_joker\b/g, "a joker exchange")
    .replace(/\s*\(\/[a-z_]+(?:\/[a-z_]+)+\)/g, " (a house rule)")
    .replace(/(^|[\s(])\/([a-z_]+(?:\/[a-z_]+)+)(?: [a-z_]+)?/g, (_, lead) => `${lead}a house rule`)
    .replace(/\b[a-z_]+(?:\.[a-z0-9_]+)+\b/g, id => res.clauses.has(id)
      ? `the rule \u201c${res.clauses.get(id).statement.replace(/\.$/, "")}\u201d` : id)
    .replace(/^\s*$/, "The sources leave this open: this is the referee's reading.")
    .replace(/^./, c => c.toUpperCase());
}
