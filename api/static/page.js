// The page for people: choose a variant and read its rules, step through a game log, check a meld,
// share a position.  Everything it knows it asks the referee's own API; it keeps nothing itself.
import {openAsked, variantParameters} from "./builder.js";
import {readFragment} from "./fragment.js";
import {Cards} from "./cards.js";
import {namesInText} from "./cardwords.js";
import {documentWords, plainWords} from "./rulewords.js";
import {signButton} from "./rulings.js";
import {Share} from "./share.js";

// -- small helpers ------------------------------------------------------------------------------

export function $(id) { return document.getElementById(id); }

export function h(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") node.className = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

// Offers `value` as a JSON file named `name` (a download; nothing leaves the browser).
export function download(name, value) {
  const blob = new Blob([JSON.stringify(value, null, 1) + "\n"], {type: "application/json"});
  const url = URL.createObjectURL(blob);
  const a = h("a", {href: url, download: name, hidden: true});
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

export function plural(n, one, many) { return `${n} ${n === 1 ? one : (many || one + "s")}`; }

export function ordinalPath(pointer) {
  // "/start/state/players/0/hand/2" -> "start, state, players #1, hand #3"
  if (!pointer) return "the whole log";
  const parts = pointer.split("/").slice(1).map(p => p.replace(/~1/g, "/").replace(/~0/g, "~"));
  const words = [];
  for (const part of parts) {
    if (/^\d+$/.test(part) && words.length) words[words.length - 1] += ` #${Number(part) + 1}`;
    else words.push(part);
  }
  return words.join(", ");
}

// -- the API ------------------------------------------------------------------------------------

// One request to the referee: {ok, status, body}.  A body given as text is sent exactly as written,
// so a pasted log meets the API's own checks and the page shows the API's own problems.
export async function call(method, path, body) {
  const init = {method, headers: {accept: "application/json, application/problem+json"}};
  if (body !== undefined) {
    init.headers["content-type"] = "application/json";
    init.body = typeof body === "string" ? body : JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (err) {
    return {ok: false, status: 0, body: {title: "The referee did not answer", detail: String(err), errors: []}};
  }
  let parsed = null;
  try { parsed = await response.json(); } catch (err) { parsed = {title: "Unreadable answer", detail: String(err)}; }
  return {ok: response.ok, status: response.status, body: parsed};
}

export async function getJson(path) {
  const r = await call("GET", path);
  if (!r.ok) throw new Error(`${path}: ${r.status} ${(r.body && r.body.detail) || ""}`);
  return r.body;
}

// The rules as resources: the one place the page reads GET /v1/sources, GET /v1/clauses and
// GET /v1/variants/{id}/rulings.  Maps by id; empty maps (and `missing`) when they cannot be read.
export const resourceCache = new Map();
export function rulesResources(variant) {
  if (!resourceCache.has(variant)) {
    resourceCache.set(variant, (async () => {
      const byId = list => new Map((list || []).map(x => [x.id, x]));
      try {
        const [sources, clauses, rulings] = await Promise.all([
          getJson("/v1/sources"), getJson("/v1/clauses"),
          getJson(`/v1/variants/${encodeURIComponent(variant)}/rulings`)]);
        return {sources: byId(sources.sources), clauses: byId(clauses.clauses), rulings: byId(rulings.rulings)};
      } catch (err) {
        resourceCache.delete(variant);
        return {sources: new Map(), clauses: new Map(), rulings: new Map(), missing: String(err)};
      }
    })());
  }
  return resourceCache.get(variant);
}

// -- citations: a clause, its sources, the rulings it rests on ------------------------------------

export function sourceItem(source, res) {
  // a source as a verdict cites it ({document, section}) or as a ruling does ("document: section")
  let doc = source.document, section = source.section;
  if (typeof source === "string") {
    const at = source.indexOf(":");
    doc = at < 0 ? source : source.slice(0, at).trim();
    section = at < 0 ? "" : source.slice(at + 1).trim();
  }
  const known = res.sources.get(doc);
  const title = (known && known.title) || source.title || doc;
  const name = known && known.url ? h("a", {href: sectionLink(known.url, section), rel: "noopener noreferrer", class: "source-title"}, title)
                                  : h("cite", {class: "source-title"}, title);
  return h("li", {class: "source"}, name, section ? [", section ", h("q", {class: "source-section"}, section)] : "");
}


// What stays out of the plain words, for the record: rule and ruling ids, JSON pointers, the notes as written.
export function idsDetails(...rows) {
  const items = rows.filter(r => r && r[1]);
  if (!items.length) return "";
  return h("details", {class: "ids"}, h("summary", {}, "Details for the record"),
    h("ul", {}, items.map(([label, value]) => h("li", {}, `${label}: `, typeof value === "string" ? h("code", {}, value) : value))));
}

// A link to a section of a source's page: the page, and the section's heading as a text fragment
// (browsers that know them scroll to it; the others open the page).  "Melding (Building rules)" is
// found by its heading, "Melding".
export function sectionLink(url, section) {
  const heading = (section || "").replace(/\s*\(.*\)\s*$/, "").replace(/:$/, "").trim();
  return heading ? `${url.split("#")[0]}#:~:text=${encodeURIComponent(heading)}` : url;
}

export function rulingItem(id, res) {
  const ruling = res.rulings.get(id);
  if (!ruling) return h("li", {class: "ruling", "data-ruling": id}, "A ruling of the referee's", idsDetails(["ruling", id]));
  return h("li", {class: "ruling", "data-ruling": id},
    h("span", {class: "ruling-text"}, plainWords(ruling.ruling, res)),
    ruling.reason ? h("span", {class: "ruling-reason"}, ` Why: ${plainWords(ruling.reason, res)}`) : "",
    idsDetails(["ruling", id], ["the ruling as written", plainWords(ruling.ruling, res) !== ruling.ruling ? h("q", {}, ruling.ruling) : null],
               ["the referee's note as written", ruling.reason ? h("q", {}, ruling.reason) : null],
               ["the house rule that can change it", ruling.switch]));
}

// The rulings of the variant (those `res` was read for) that touch a clause.
export function variantRulings(clause, res) {
  return ((clause && clause.rulings) || []).filter(id => res.rulings.has(id));
}

// A clause's sources as a verdict of the variant cites them: those in the variant's own documents,
// unless it has none there (then all of them).
export function variantSources(clause, documents) {
  const own = (clause.sources || []).filter(s => documents.has(s.document));
  return own.length ? own : (clause.sources || []);
}

// A broken rule in plain words: the message, the rule's statement and id, its sources, its rulings.
// `words`, when given, says what went wrong better than the referee's message could for this
// question (the message itself then stays, as written, behind "details").
export function violationBlock(v, res, label = "What went wrong: ", words = null, you = null) {
  const clause = res.clauses.get(v.clause);
  const rulings = v.rulings || variantRulings(clause, res);
  const sources = v.sources || (clause && clause.sources) || [];
  const message = words || playerWords(namesInText(v.message || ""), you);
  return h("div", {class: "violation", "data-clause": v.clause},
    h("p", {class: "violation-message"}, h("strong", {}, label), message),
    h("p", {class: "violation-rule"}, h("strong", {}, "The rule: "), namesInText(v.statement || (clause && clause.statement) || "")),
    v.penalty ? h("p", {class: "violation-penalty"}, h("strong", {}, "What the table charges: "),
                  `${plural(v.penalty.points, "point")} to ${v.penalty.player}, who ${INFRACTION_WORDS[v.penalty.infraction] || v.penalty.infraction} `
                  + "(the referee charges nothing itself: report it as a penalty to apply it).") : "",
    sources.length ? h("div", {class: "violation-sources"}, h("strong", {}, "Where it is written:"),
                       h("ul", {}, sources.map(s => sourceItem(s, res)))) : "",
    rulings.length ? h("details", {class: "violation-rulings"}, h("summary", {}, "How the referee reads it where the sources are unclear"),
                       h("ul", {}, rulings.map(id => rulingItem(id, res)))) : "",
    idsDetails(["rule", v.clause], ["rulings", rulings.join(", ")], ["the referee's message as written", message !== v.message ? v.message : null],
               ["what it would need to see", (v.needs || []).join(", ")]));
}

// What an answer that depends on unseen cards would need to see, in words: each entry's `needs` are
// JSON pointers into the state (a hand's count of unseen cards, the stock's).
export function needWords(pointer, state) {
  const m = /^\/players\/(\d+)\/hidden$/.exec(pointer);
  if (m) {
    const seat = state && state.players && state.players[Number(m[1])];
    return `the unseen cards of ${seat ? seat.id : `player ${Number(m[1]) + 1}`}'s hand`;
  }
  return pointer === "/stock_hidden" ? "the unseen cards of the stock" : pointer;
}

// The rules an answer could not decide from the cards listed, each with what it would need to see.
export function undeterminedBlock(entries, res, state, illegal = false) {
  return h("div", {class: "undetermined-list"}, entries.map(u => {
    const block = violationBlock(u, res, illegal ? "It may also break a rule, depending on cards not shown: " : "Why it cannot tell: ");
    block.classList.add("undetermined");
    if ((u.needs || []).length) {
      block.append(h("p", {class: "needs"}, h("strong", {}, "It would need to see: "),
                     u.needs.map(p => needWords(p, state)).join("; ") + "."));
    }
    return block;
  }));
}

// -- problems next to a field --------------------------------------------------------------------

export function clearProblems(boxId, ...fields) {
  $(boxId).replaceChildren();
  for (const f of fields) if (f) f.removeAttribute("aria-invalid");
  document.querySelectorAll(".has-problem").forEach(n => n.classList.remove("has-problem"));
}

// The API's problem (application/problem+json) beside the field it is about, in words: each thing
// wrong said once (the same words about the same place are one line, however many pointers the API
// gave), the pointers and the API's own text behind "details".  When the cards of a position do not
// make the pack and the position (`state`) is known, it is counted out seat by seat.
export function showProblems(boxId, field, problem, where, state = null) {
  const box = $(boxId);
  const errors = (problem && problem.errors && problem.errors.length) ? problem.errors
               : [{pointer: "", detail: (problem && problem.detail) || "the referee refused this"}];
  const groups = new Map();
  for (const e of errors) {
    const place = where(e.pointer || "");
    const words = problemWords(e.detail, where);
    const key = `${place}\u0000${words}`;
    if (!groups.has(key)) groups.set(key, {place, words, errors: []});
    groups.get(key).errors.push(e);
  }
  const counted = state ? packCount(errors, state) : null;
  box.replaceChildren(
    h("p", {class: "problem-title"}, problem && problem.status === undefined && problem.title ? problem.title  // the page's own
                                     : `The referee could not accept this: ${problemTitle(problem)}`),
    counted || "",
    h("ul", {}, [...groups.values()].map(({place, words, errors: list}) => {
      const pointers = list.map(e => e.pointer || "");
      return h("li", {class: "problem", "data-pointer": pointers[0], "data-pointers": pointers.join(" ")},
        h("span", {class: "problem-where"}, place), ": ", h("span", {class: "problem-words"}, words),
        list.some(e => e.pointer || e.detail !== words) ? h("details", {class: "ids"}, h("summary", {}, "Details"),
          h("ul", {}, list.map(e => h("li", {}, e.pointer ? [h("code", {class: "problem-pointer"}, e.pointer), ": "] : "",
                                        h("span", {class: "problem-detail"}, e.detail))))) : "");
    })));
  if (field) field.setAttribute("aria-invalid", "true");
}

// The referee's title of a problem as a player would say it.
export function problemTitle(problem) {
  const title = (problem && problem.title) || "a problem";
  return /^malformed input$/i.test(title) ? "something in it is missing or not as the referee reads it" : title;
}

// A problem's text with the JSON pointers in it said in words.
export function problemWords(detail, where) {
  return String(detail || "")
    .replace(/\s*\((?:penalties|scores|hands|payments|credits|infractions|buy_ins)\/[^)]*\)/g, "").replace(/\/(?:state|start|game|action|actions|players|melds|discard|stock)(?:\/[\w~.-]+)*/g, p => where(p));
}

// The cards of a position counted out seat by seat, when the referee found that they do not make the
// pack: each hand (listed and unseen), the melds, the discard pile and the stock, against the pack.
export function packCount(errors, state) {
  const off = errors.map(e => /the pack has (\d+): (\d+) too (many|few)/.exec(e.detail || "")).find(Boolean);
  if (!off || !state || !Array.isArray(state.players)) return null;
  const size = Number(off[1]);
  const count = (listed, unseen) => (listed || []).length + (unseen || 0);
  const rows = state.players.map(p => [`${p.id}'s hand`, count(p.hand, p.hidden),
                                       p.hidden ? `${(p.hand || []).length} listed, ${p.hidden} unseen` : ""]);
  rows.push(["the melds on the table", (state.melds || []).reduce((n, m) => n + (m.cards || []).length, 0), ""]);
  rows.push(["the discard pile", (state.discard || []).length, ""]);
  rows.push(["the stock", count(state.stock, state.stock_hidden), state.stock_hidden ? `${state.stock_hidden} unseen` : ""]);
  const total = rows.reduce((n, r) => n + r[1], 0);
  const diff = total - size;
  return h("div", {class: "pack-count"},
    h("p", {}, `The cards do not add up: the pack has ${plural(size, "card")}, and this position holds ${total}, `,
      h("strong", {}, `${Math.abs(diff)} too ${diff > 0 ? "many" : "few"}`), ". Seat by seat:"),
    h("ul", {class: "seat-problems"}, rows.map(([what, n, how]) => h("li", {}, `${what}: ${plural(n, "card")}${how ? ` (${how})` : ""}`))),
    h("p", {}, diff > 0 ? "Take cards away where there are more than the table really has (often a hand's count of cards)."
                        : "Add the cards that are missing, or raise the count of a hand or the stock."));
}

// -- the variant and its rules -------------------------------------------------------------------

export const page = {variants: [], variant: null, log: null, p: 0};

export function variantName(id) {
  const v = page.variants.find(x => x.id === id);
  return v ? v.name : id;
}

export async function loadVariants() {
  const r = await call("GET", "/v1/variants");
  if (!r.ok) { showProblems("variant-problems", $("variant"), r.body, () => "the variants"); return; }
  page.variants = r.body.variants;
  const select = $("variant");
  select.replaceChildren(...page.variants.map(v => h("option", {value: v.id}, v.name)));
  const start = page.variants.some(v => v.id === "british") ? "british" : page.variants[0].id;
  await chooseVariant(start);
}

export async function chooseVariant(id) {
  page.variant = id;
  $("variant").value = id;
  clearProblems("variant-problems", $("variant"));
  document.dispatchEvent(new CustomEvent("variant-chosen", {detail: id}));  // builder.js follows it
  await renderRules(id);
}

export function titleCase(text) { return (text || "other").replace(/[_-]+/g, " ").replace(/^./, c => c.toUpperCase()); }

export async function renderRules(id) {
  const body = $("rules-body");
  const [variant, res] = await Promise.all([call("GET", `/v1/variants/${encodeURIComponent(id)}`), rulesResources(id)]);
  if (page.variant !== id) return;  // another variant was chosen meanwhile
  if (!variant.ok) {
    showProblems("variant-problems", $("variant"), variant.body, () => "the variant");
    return;
  }
  $("variant-description").textContent = (variant.body.sources || []).length
    ? `From ${variant.body.sources.map(s => (res.sources.get(s.document) || {}).title || s.document).join("; ")}.` : "";
  if (res.missing) {
    body.replaceChildren(h("p", {}, "The rules could not be read from the referee: ", res.missing));
    return;
  }
  const documents = new Set((variant.body.sources || []).map(s => s.document));
  const ids = new Set(variant.body.clauses || []);
  for (const c of res.clauses.values()) if ((c.variants || []).includes(id)) ids.add(c.id);
  const groups = new Map();
  for (const cid of ids) {
    const c = res.clauses.get(cid);
    if (!c) continue;
    if (!groups.has(c.category)) groups.set(c.category, []);
    groups.get(c.category).push(c);
  }
  const topics = [...groups.keys()].sort();
  body.replaceChildren(
    h("p", {}, `${plural(ids.size, "rule")} in ${plural(topics.length, "topic")}.`),
    ...topics.map(topic => h("details", {class: "topic", "data-topic": topic},
      h("summary", {}, `${titleCase(topic)} (${groups.get(topic).length})`),
      groups.get(topic).map(c => h("article", {class: "clause", "data-clause": c.id},
        h("p", {class: "statement"}, c.statement),
        h("ul", {class: "sources"}, variantSources(c, documents).map(s => sourceItem(s, res))),
        h("ul", {class: "rulings"}, variantRulings(c, res).map(r => rulingItem(r, res))),
        idsDetails(["rule", c.id]))))),
    rulingsList(res));
}

export function rulingsList(res) {
  if (!res.rulings.size) return "";
  return h("details", {class: "topic rulings-all"},
    h("summary", {}, `The referee's rulings where the sources are unclear (${res.rulings.size})`),
    h("ul", {class: "rulings"}, [...res.rulings.values()].map(r => h("li", {class: "ruling", "data-ruling": r.id},
      h("p", {}, plainWords(r.ruling, res)),
      r.reason ? h("p", {class: "ruling-reason"}, `Why: ${plainWords(r.reason, res)}`) : "",
      r.switch ? h("p", {class: "ruling-switch"}, "A house rule can change it.") : "",
      (r.sources || []).length ? h("ul", {class: "sources"}, r.sources.map(s => sourceItem(s, res))) : "",
      idsDetails(["ruling", r.id], ["the ruling as written", plainWords(r.ruling, res) !== r.ruling ? h("q", {}, r.ruling) : null],
                 ["the referee's note as written", r.reason ? h("q", {}, r.reason) : null],
                 ["the house rule that can change it", r.switch])))));
}

// -- a game log, position by position -------------------------------------------------------------

export function isObject(x) { return x !== null && typeof x === "object" && !Array.isArray(x); }

// Reads the pasted log: a body with an `action` is one disputed move (/v1/adjudicate), anything
// else is sent to /v1/replay as it was pasted.
export async function runLog(text) {
  const field = $("log-text");
  clearProblems("log-problems", field);
  const shared = await Share.asLog(text);   // a notation (share.js): its position
  if (shared && shared.problem) {
    showProblems("log-problems", field, shared.problem, () => "the notation");
    $("viewer").hidden = true;
    return false;
  }
  if (shared) text = shared.log;
  let body;
  try { body = JSON.parse(text); } catch (err) { body = undefined; }
  const single = isObject(body) && "action" in body;
  const r = await call("POST", single ? "/v1/adjudicate" : "/v1/replay", text);
  if (!r.ok) {
    const start = isObject(body) ? (single ? body : body.start) : null;
    const state = isObject(start) ? (isObject(start.state) ? start.state : isObject(start.game) ? start.game.hand : null) : null;
    showProblems("log-problems", field, r.body, ordinalPath, state);
    $("viewer").hidden = true;
    return false;
  }
  const log = {variant: body.variant, rules: body.rules, positions: [], verdicts: [], illegal: null};
  if (single) {
    log.kind = isObject(body.game) ? "game" : "hand";
    log.actions = [body.action];
    log.positions[0] = log.kind === "game" ? body.game : body.state;
    log.verdicts[0] = r.body;
    if (r.body.legal) log.positions[1] = log.kind === "game" ? r.body.game : r.body.state;
    else if (r.body.legal === false) log.illegal = 0;
  } else {
    log.kind = r.body.kind;
    log.actions = body.actions;
    log.positions[0] = r.body.start.position;
    r.body.steps.forEach((s, i) => { log.verdicts[i] = s; });
    const bad = r.body.first_illegal;
    if (bad) {
      log.illegal = bad.index;
      log.positions[bad.index] = bad.position_before;
      log.verdicts[bad.index] = {legal: false, violations: bad.violations, explanation: bad.explanation};
    }
    if (r.body.final) log.positions[log.actions.length] = r.body.final.position;
    log.altered = r.body.altered;
  }
  // the last position that can be shown: before the first illegal step, or before the first step the
  // referee cannot decide from the cards listed (nothing is known after it), else the end of the log
  const unknown = log.verdicts.findIndex(v => v && v.legal === null);
  log.undecided = unknown < 0 || (log.illegal !== null && log.illegal < unknown) ? null : unknown;
  log.end = log.illegal !== null ? log.illegal : log.undecided !== null ? log.undecided : log.actions.length;
  page.log = log;
  document.dispatchEvent(new CustomEvent("log-opened"));  // explore.js forgets any branch
  if (page.variants.some(v => v.id === log.variant) && page.variant !== log.variant) chooseVariant(log.variant);
  renderStepList();
  $("viewer").hidden = false;
  $("share-url").hidden = true;
  await goTo(log.illegal === null ? 0 : log.illegal);
  return true;
}

// The position after `p` steps, asking /v1/adjudicate for the steps not yet known.
export async function positionAt(p) {
  const log = page.log;
  let q = p;
  while (log.positions[q] === undefined) q--;
  for (; q < p; q++) {
    const r = await call("POST", "/v1/adjudicate", stepRequest(q));
    if (!r.ok || !r.body.legal) throw new Error((r.body && r.body.detail) || "the referee refused a step");
    log.positions[q + 1] = log.kind === "game" ? r.body.game : r.body.state;
  }
  return log.positions[p];
}

// Step q of the log as one /v1/adjudicate request: the position before it and its action.
export function stepRequest(q) {
  const log = page.log;
  const body = {variant: log.variant, action: log.actions[q]};
  if (log.rules !== undefined) body.rules = log.rules;
  body[log.kind === "game" ? "game" : "state"] = log.positions[q];
  return body;
}

export function handOf(position) { return page.log && page.log.kind === "game" ? position.hand : position; }

// Who makes step i: the action's own `player`, else the player its events name, else the player to
// act in the position before it (when that position is known).
export function actorOf(i) {
  const log = page.log;
  const action = log.actions[i];
  if (action.player) return action.player;
  const named = ((log.verdicts[i] && log.verdicts[i].events) || []).find(e => e.player);
  if (named) return named.player;
  const position = log.positions[i];
  const hand = position && handOf(position);
  return (hand && hand.to_act) || "A player";
}

// A meld on the table named by its cards where the position holding it is known ("the run of the seven of
// hearts, ..."), else as "a meld on the table": never by its id.
export function meldCalled(id, melds) {
  const m = (melds || []).find(x => x.id === id);
  return m ? `the ${m.kind || "meld"} of ${Cards.names(m.cards || [])}` : "a meld on the table";
}

export function describeAction(a, who, melds) {
  switch (a.type) {
    case "draw": return `${who} draws from the ${a.source === "discard" ? "discard pile" : "stock"}`;
    case "discard": return `${who} discards ${Cards.name(a.card)}`;
    case "meld": {
      const builds = (a.builds || []).length ? ` and adds to ${plural(a.builds.length, "meld")}` : "";
      return `${who} lays ${plural((a.melds || []).length, "new meld")}${builds}`;
    }
    case "build": return `${who} adds ${Cards.names(a.cards || [])} to ${meldCalled(a.meld, melds)}${a.end ? ` at its ${a.end} end` : ""}`;
    case "swap_joker": return `${who} exchanges ${Cards.names(a.naturals || [])} for the joker in ${meldCalled(a.meld, melds)}`;
    case "announce": return `${who} announces ${plural(a.count, "card")} left in hand`;
    case "pass": return `${who} passes on the upcard`;
    case "turn": return `${who} plays a whole turn: ` + (a.actions || []).map(x => describeAction(x, who, melds)).join("; ");
    case "buy_in": return `${who} buys back into the game`;
    case "decline": return `${who} declines to buy back in`;
    case "next_hand": return "The next hand is dealt";
    case "call": return `${a.player || who} calls for the top discard`;
    case "allow": return `${a.player || who} allows ${a.caller}'s call`;
    case "challenge": return `${a.player || who} challenges ${a.target === (a.player || who) ? "their own" : `${a.target}'s`} ${a.claim === "overcall" ? "over-call (more calls than allowed)" : "first lay (not the hand's contract)"}`;
    case "penalty": return `The table reports ${a.player}: ${INFRACTION_WORDS[a.infraction] || a.infraction}`;
    default: return `${who}: ${a.type}`;
  }
}

export const INFRACTION_WORDS = {missing_pluck: "did not pluck a card", missing_discard: "did not discard",
                          rested_cards: "rested cards on the table", exposed_cards: "exposed cards", joker_discard: "discarded a joker"};
export const PENALTY_REASONS = {missing_pluck: "not plucking a card", missing_discard: "not discarding",
                         rested_cards: "resting cards on the table", exposed_cards: "exposing cards", joker_discard: "discarding a joker",
                         over_call: "an over-call (more calls than allowed)", incorrect_lay: "a first lay that was not the contract",
                         wrong_challenge: "a challenge that was wrong", exact_cut_bonus: "the dealer's exact cut (a bonus)",
                         reported_infractions: "infractions reported"};

export function actionCards(a) {
  switch (a.type) {
    case "discard": return [a.card];
    case "build": return a.cards || [];
    case "meld": return (a.melds || []).flatMap(m => m.cards || []).concat((a.builds || []).flatMap(b => b.cards || []));
    case "swap_joker": return a.naturals || [];
    case "turn": return (a.actions || []).flatMap(actionCards);
    default: return [];
  }
}

export function describeEvent(e, melds) {
  switch (e.type) {
    case "drew": return e.card ? `${e.player} took ${Cards.name(e.card)} from the discard pile` : `${e.player} drew from the ${e.source === "discard" ? "discard pile" : "stock"}`;
    case "passed": return `${e.player} passed on the upcard`;
    case "opened": return `${e.player} opened with ${plural(e.points, "point")}`;
    case "melded": return `${e.player} laid a ${e.kind} (${Cards.names(e.cards)}), worth ${plural(e.points, "point")}`;
    case "built": return `${e.player} added ${Cards.names(e.cards)} to ${meldCalled(e.meld, melds)}${e.end ? ` at its ${e.end} end` : ""}`;
    case "set_closed": return `${meldCalled(e.meld, melds).replace(/^a meld on the table$/, "the set")} is complete`;
    case "joker_released": return `${e.player} took the joker from ${meldCalled(e.meld, melds)}, putting ${Cards.names(e.naturals)} in its place`;
    case "discarded": return `${e.player} discarded ${Cards.name(e.card)}`;
    case "announced": return `${e.player} announced ${plural(e.count, "card")} left`;
    case "announcement_missed": return `${e.player} did not announce the cards left and may not go out next turn`;
    case "stock_reshuffled": return `the discard pile was shuffled to make a new stock of ${plural(e.cards, "card")}`;
    case "hand_void": return "the stock ran out: the hand is void";
    case "call_up": return `${e.player} went out`;
    case "kalookie": return `${e.player} went out in one go (kalookie)`;
    case "hand_dealt": return `hand ${e.hand} was dealt by ${e.dealer}`;
    case "eliminated": return `${e.player} is out of the game with ${plural(e.score, "point")}`;
    case "buy_in_offered": return `${e.players.join(", ")} may buy back in`;
    case "bought_in": return `${e.player} bought back in for ${e.paid}, restarting at ${e.score}`;
    case "moved_to_new_table": return `${e.player} bought in for ${e.paid} and left this table for a new one (on ${e.score} here)`;
    case "called": return `${e.player} called for ${e.card ? Cards.name(e.card) : "the top discard"}`;
    case "call_allowed": return `${e.player} allowed ${e.caller}'s call: ${e.caller} took ${e.card ? Cards.name(e.card) : "the discard"} and a penalty card from the stock`;
    case "penalized": return `${e.player} takes a penalty for ${PENALTY_REASONS[e.reason] || e.reason}${e.points !== undefined ? ` (${plural(e.points, "point")})` : ""}${e.barred ? " and may not lay until everyone else has" : ""}`;
    case "game_won": return e.player ? `${e.player} won the game and the pool of ${e.pool}` : `the game ended; the pool was ${e.pool}`;
    default: return e.type;
  }
}

export function stepStatus(i) {
  const log = page.log;
  if (i > log.end) return "not reached";
  const v = log.verdicts[i];
  return v && v.legal === false ? "not allowed" : v && v.legal === null ? "undetermined" : "allowed";
}

// The melds on the table at the log's position `i` (none where that position is not known yet).
export function meldsAt(i) {
  const position = page.log && page.log.positions[i];
  const hand = position && handOf(position);
  return (hand && hand.melds) || [];
}

export function renderStepList() {
  const log = page.log;
  const list = $("step-list");
  list.replaceChildren(...log.actions.map((a, i) => {
    const status = stepStatus(i);
    const reachable = i <= log.end;
    return h("li", {class: `step ${status.replace(" ", "-")}`, "data-step": i + 1},
      h("button", {type: "button", disabled: !reachable, onclick: () => goTo(i)},
        `Step ${i + 1}: ${describeAction(a, actorOf(i), meldsAt(i))}`),
      h("span", {class: "step-status"}, ` ${status}`));
  }));
  $("step-illegal").hidden = log.illegal === null;
  const n = log.actions.length;
  $("viewer-heading").textContent = "The game, position by position: " + (
    log.illegal !== null ? `step ${log.illegal + 1} is the first illegal step`
    : log.undecided !== null ? `the referee cannot tell from the cards shown whether step ${log.undecided + 1} is allowed`
    : n === 0 ? "one position, no move made from it"
    : n === 1 ? "its one step is allowed" : `all ${n} of its steps are allowed`);
}

export async function goTo(p) {
  const log = page.log;
  const focused = $("viewer").contains(document.activeElement);
  p = Math.max(0, Math.min(p, log.end));
  page.p = p;
  let position;
  try {
    position = await positionAt(p);
  } catch (err) {
    $("verdict").replaceChildren(h("p", {class: "problem"}, String(err)));
    return;
  }
  if (page.p !== p) return;
  $("position").replaceChildren(renderPosition(position));
  $("verdict").replaceChildren(renderVerdict(p, position));
  document.dispatchEvent(new CustomEvent("position-shown"));  // explore.js: the moves listed were another position's
  // positions counted from 1: a log of n steps shows n + 1 of them (the start, and after each step)
  $("step-label").textContent = `Position ${p + 1} of ${log.end + 1}: ` +
    (p < log.actions.length ? `before step ${p + 1}` : "the end of the log");
  $("step-first").disabled = $("step-prev").disabled = p === 0;
  $("step-next").disabled = $("step-last").disabled = p >= log.end;
  document.querySelectorAll("#step-list li").forEach(li => {
    if (Number(li.dataset.step) === p + 1) li.setAttribute("aria-current", "step");
    else li.removeAttribute("aria-current");
  });
  // its button was disabled (the browser moves the focus off it later, to the page): keep it in the viewer
  if (focused && (!$("viewer").contains(document.activeElement) || document.activeElement.disabled)) {
    const next = ["step-next", "step-prev"].map($).find(b => !b.disabled);
    if (next) next.focus();
  }
}

export function renderVerdict(p, position) {
  const log = page.log;
  if (p >= log.actions.length) {
    const hand = handOf(position);
    return h("div", {class: "verdict end"}, h("h4", {}, "The end of the log"),
      h("p", {}, log.actions.length ? `All ${plural(log.actions.length, "step")} were allowed.` : "This log is one position; no move was made from it."),
      hand && hand.result ? resultBlock(hand.result) : "");
  }
  const action = log.actions[p];
  const verdict = log.verdicts[p];
  const illegal = verdict && verdict.legal === false;
  const cards = actionCards(action);
  const box = h("div", {class: `verdict ${illegal ? "illegal" : "legal"}`, "data-step": p + 1},
    h("h4", {}, `Step ${p + 1}: ${describeAction(action, actorOf(p), meldsAt(p))}`),
    cards.length ? Cards.row(cards) : "");
  if (!verdict) return box;
  const sign = h("div", {class: "controls"}, signButton(() => stepRequest(p)));  // rulings.js
  if (verdict.legal === null) {  // the answer depends on cards nobody listed
    box.classList.replace("legal", "undetermined");
    box.append(h("p", {class: "verdict-word"}, h("strong", {}, "Cannot tell from the cards shown.")));
    const holder = h("div", {}, h("p", {}, "Reading the rules\u2026"));
    box.append(holder, tableNow(UNDECIDED_NOW), sign);
    rulesResources(log.variant).then(res => holder.replaceChildren(undeterminedBlock(verdict.undetermined || [], res, handOf(position))));
    return box;
  }
  if (!illegal) {
    box.append(h("p", {class: "verdict-word"}, h("strong", {}, "Allowed."),
                  (verdict.events || []).length ? " What happened: " + verdict.events.map(e => describeEvent(e, meldsAt(p + 1).concat(meldsAt(p)))).join("; ") + "." : ""));
    if (verdict.result) box.append(resultBlock(verdict.result));
    box.append(tableNow(p + 1 < log.actions.length ? "The move stands; play goes on (the next step)." : "The move stands."), sign);
    return box;
  }
  box.append(h("p", {class: "verdict-word"}, h("strong", {}, "Not allowed."),
                p === log.illegal ? ` This is the first illegal step of the log (step ${p + 1}); the position shown is the one before it.` : ""));
  const holder = h("div", {class: "violations"}, h("p", {}, "Reading the rules\u2026"));
  box.append(holder, tableNow(`The move does not stand: the table goes back to the position shown, and ${actorOf(p)} makes a move the rules allow instead.`), sign);
  rulesResources(log.variant).then(res => holder.replaceChildren(...violationBlocks(verdict.violations, res)));
  return box;
}

// "What the table does now", the last words of a verdict; the words for an answer that waits on unseen cards.
export const UNDECIDED_NOW = "Show the referee the cards it names (or settle them at the table) and ask again; until then the move is neither allowed nor refused.";
export function tableNow(text) { return h("p", {class: "table-now"}, "What the table does now: ", h("span", {class: "table-now-text"}, text)); }

// Broken rules said once each: the same rule with the same message is one line, however often the referee found it.
export function distinct(violations) {
  const seen = new Set();
  return (violations || []).filter(v => { const key = `${v.clause}\u0000${v.message}`; return !seen.has(key) && seen.add(key); });
}

// Each broken rule in its block, the one that makes the move illegal first, the others after it ("and").
export function violationBlocks(violations, res, you = null) {
  return distinct(violations).map((v, i) => violationBlock(v, res, i ? "It also breaks a rule: " : "What went wrong: ", null, you));
}

// The referee's message as a player says it: "come down" for opening and, where the person asking is
// the seat `you`, "you" for that seat.
export function playerWords(text, you = null) {
  let said = String(text)
    .replace(/\bhas not opened\b/g, "has not come down").replace(/\bhave not opened\b/g, "have not come down")
    .replace(/\bhas opened\b/g, "has come down").replace(/\bhave opened\b/g, "have come down");
  if (you) {
    const seat = you.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    said = said.replace(new RegExp(`\\b${seat}'s\\b`, "g"), "your")
      .replace(new RegExp(`\\b${seat} has\\b`, "g"), "you have")
      .replace(new RegExp(`\\b${seat} is\\b`, "g"), "you are")
      .replace(new RegExp(`\\b${seat}\\b`, "g"), "you")
      .replace(/^(you|your)\b/, w => w.charAt(0).toUpperCase() + w.slice(1));
  }
  return said;
}

export function resultBlock(result) {
  const rows = Object.entries(result.penalties || {}).map(([player, points]) =>
    h("tr", {}, h("th", {scope: "row"}, player), h("td", {}, String(points)),
      h("td", {}, String((result.payments || {})[player] ?? "")), h("td", {}, String((result.scores || {})[player] ?? ""))));
  return h("div", {class: "result"},
    h("p", {}, result.winner ? `${result.winner} won the hand (${(result.how || "").replace("_", " ")}).` : "The hand ended with no winner."),
    rows.length ? h("table", {}, h("caption", {}, "The scoring of the hand"),
      h("thead", {}, h("tr", {}, h("th", {scope: "col"}, "Player"), h("th", {scope: "col"}, "Penalty"),
                                 h("th", {scope: "col"}, "Payment"), h("th", {scope: "col"}, "Score"))),
      h("tbody", {}, rows)) : "");
}

// A hand won while other hands are unseen: every figure the seen cards decide, as a number; each other
// one as the least and the most it can be, with whose unseen cards would decide it.
export const FIGURE_WORDS = {penalties: "penalty", payments: "payment", credits: "credit", scores: "score"};

// A payment in words: what a player pays (a negative figure) or gets, or the least and the most of it.
export function paymentWords(least, most) {
  const span = (a, b) => a === b ? String(a) : `${a} to ${b}`;
  if (most < 0) return `pays ${span(-most, -least)}`;
  if (least > 0) return `gets ${span(least, most)}`;
  return least === 0 && most === 0 ? "0" : `${least} to ${most}`;
}

export function settlementBlock(settlement, state) {
  const kinds = Object.keys(FIGURE_WORDS).filter(k => settlement[k] && Object.keys(settlement[k]).length);
  const players = [...new Set(kinds.flatMap(k => Object.keys(settlement[k])))];
  const open = [];
  const cell = (kind, player) => {
    const f = (settlement[kind] || {})[player];
    if (!f) return "";
    if (!f.undetermined) return kind === "payments" ? paymentWords(f.value, f.value) : String(f.value);
    const range = kind === "payments" ? paymentWords(f.min, f.max) : `${f.min} to ${f.max}`;
    open.push(`${player}'s ${FIGURE_WORDS[kind]} (${range}) depends on ` +
              (f.needs || []).map(p => needWords(p, state)).join(" and "));
    return range;
  };
  const rows = players.map(player => h("tr", {}, h("th", {scope: "row"}, player), ...kinds.map(k => h("td", {}, cell(k, player)))));
  return h("div", {class: "result settlement"},
    h("p", {}, `${settlement.winner} won the hand (${(settlement.how || "").replace("_", " ")}). What the cards shown already settle:`),
    h("table", {}, h("caption", {}, "The scoring of the hand, as far as the cards shown decide it"),
      h("thead", {}, h("tr", {}, h("th", {scope: "col"}, "Player"), ...kinds.map(k => h("th", {scope: "col"}, FIGURE_WORDS[k][0].toUpperCase() + FIGURE_WORDS[k].slice(1))))),
      h("tbody", {}, rows)),
    open.length ? h("ul", {class: "open-figures"}, open.map(text => h("li", {}, text + "."))) : "");
}

export const PHASE_WORDS = {draw: "to play: must draw first", play: "to play: has drawn; may meld, then discards",
                     ended: "the hand is over"};

export function renderPosition(position) {
  const hand = handOf(position);
  const parts = [];
  if (page.log && page.log.kind === "game") {
    parts.push(h("div", {class: "game-summary"},
      h("p", {}, `The game: ${plural(position.hands_played || 0, "hand")} played, pool ${position.pool}, ${position.phase}.`),
      h("ul", {}, (position.players || []).map(pl => h("li", {}, `${pl.id}: ${plural(pl.score, "point")}${pl.out ? " (out)" : ""}`)))));
  }
  if (!hand) {
    parts.push(h("p", {}, "No hand is in play at this position."));
    return h("div", {}, parts);
  }
  const contract = contractWords(hand);
  if (contract) parts.push(h("p", {class: "contract"}, contract));
  if ((hand.calls || []).length) parts.push(h("p", {class: "calls-pending"}, `Calling the top discard, in the order the calls came: ${hand.calls.join(", ")}.`));
  if (hand.stock_owed) parts.push(h("p", {class: "stock-owed"}, `${hand.to_act} allowed a call and now plucks from the stock.`));
  const discard = hand.discard || [];
  const shown = discard.slice(0, 6);
  const stockCount = (hand.stock || []).length + (hand.stock_hidden || 0);  // listed cards and unseen ones
  parts.push(h("div", {class: "table-area"},
    h("div", {class: "pile stock", "data-count": stockCount},
      h("h4", {}, "Stock"), h("div", {class: "card-row"}, h("span", {class: "card back"}, Cards.back(stockCount))),
      h("p", {}, plural(stockCount, "card") + (hand.stock_hidden ? " (unseen)" : ""))),
    h("div", {class: "pile discard", "data-count": discard.length},
      h("h4", {}, "Discard pile (top card first)"),
      shown.length ? Cards.row(shown) : h("p", {}, "empty"),
      discard.length > shown.length ? h("p", {}, `and ${discard.length - shown.length} more beneath`) : "")));
  const melds = hand.melds || [];
  parts.push(h("div", {class: "melds"}, h("h4", {}, "Melds on the table"),
    melds.length ? melds.map(m => h("figure", {class: "meld", "data-meld": m.id},
      h("figcaption", {}, `${m.owner}'s ${m.kind}`), Cards.row(m.cards)))
    : h("p", {}, "none yet")));
  const builds = hand.turn && hand.turn.builds ? Object.entries(hand.turn.builds) : [];
  parts.push(h("div", {class: "seats"}, (hand.players || []).map(pl => {
    const acting = pl.id === hand.to_act;
    return h("section", {class: `seat${acting ? " to-act" : ""}`, "data-player": pl.id, "aria-label": `${pl.id}'s hand`},
      h("h4", {}, pl.id, acting ? ` \u2014 ${PHASE_WORDS[hand.phase] || hand.phase}` : ""),
      h("p", {class: "seat-facts"}, [pl.opened ? "has come down" : "has not come down", plural(pl.score || 0, "point"),
                                      plural(pl.hand.length + (pl.hidden || 0), "card"),
                                      pl.hidden ? `${pl.hidden} of them unseen` : null,
                                      pl.barred ? "may not go out next turn" : null,
                                      pl.calls ? `${plural(pl.calls, "call")} this deal` : null,
                                      pl.lay_barred ? "may not lay until everyone else has" : null].filter(Boolean).join(" \u00b7 ")),
      seatCards(pl));
  })));
  if (hand.turn && hand.turn.source) {
    parts.push(h("p", {class: "turn-facts"}, `${hand.to_act} has drawn from the ${hand.turn.source === "discard" ? "discard pile" : "stock"} this turn.`,
      builds.map(([meld, ends]) => ` Added to ${meldCalled(meld, melds)} this turn: ${ends.low || 0} at the low end, ${ends.high || 0} at the high end.`).join("")));
  }
  if (hand.result) parts.push(resultBlock(hand.result));
  return h("div", {class: "position"}, parts);
}

// The hand's number and its contract, for variants that deal hands by a contract table (Jamaican).
export function contractWords(hand) {
  if (!hand.hand_number) return "";
  const params = variantParameters(page.log ? page.log.variant : page.variant);
  const row = params && params.contract && params.contract.hands ? params.contract.hands[String(hand.hand_number)] : null;
  return `Hand ${hand.hand_number}` + (row ? `: ${plural(row.cards, "card")} dealt; the contract is ${contractOf(row)}.` : ".");
}

export function contractOf(row) {
  const count = n => ["no", "one", "two", "three", "four", "five"][n] || String(n);
  const parts = [];
  if (row.sets) parts.push(`${count(row.sets)} ${row.sets === 1 ? "3" : "3s"} (three or more of a rank)`);
  if (row.runs) parts.push(`${count(row.runs)} ${row.runs === 1 ? "4" : "4s"} (four or more in sequence in a suit)`);
  return parts.join(" and ");
}

// A seat's cards: those listed, then one card back with the count of those nobody listed.
export function seatCards(pl) {
  const row = Cards.row(pl.hand);
  if (pl.hidden) row.append(h("span", {class: "card back"}, Cards.back(pl.hidden, `${pl.id}'s cards nobody can see`)));
  return row;
}

// The arrow keys step through the log wherever the focus is in the viewer (but in a text field).
export function stepKey(e) {
  if (!page.log || e.altKey || e.ctrlKey || e.metaKey || /^(INPUT|TEXTAREA|SELECT)$/.test(e.target.tagName)) return;
  const to = {ArrowLeft: page.p - 1, ArrowUp: page.p - 1, ArrowRight: page.p + 1, ArrowDown: page.p + 1,
              Home: 0, End: page.log.end}[e.key];
  if (to === undefined) return;
  e.preventDefault();
  goTo(to);
}

// -- sharing a position: a link (the state in the fragment) or a file ------------------------------

export function toBase64Url(bytes) {
  let text = "";
  for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

export function fromBase64Url(text) {
  const b64 = text.replace(/-/g, "+").replace(/_/g, "/");
  const raw = atob(b64 + "=".repeat((4 - b64.length % 4) % 4));
  return Uint8Array.from(raw, c => c.charCodeAt(0));
}

export async function streamBytes(bytes, transform) {
  return new Uint8Array(await new Response(new Blob([bytes]).stream().pipeThrough(transform)).arrayBuffer());
}

// "z" + base64url of the deflated JSON where the browser can deflate, else "j" + base64url of the JSON.
export async function encodeShare(value) {
  const bytes = new TextEncoder().encode(JSON.stringify(value));
  if (typeof CompressionStream === "function") return "z" + toBase64Url(await streamBytes(bytes, new CompressionStream("deflate-raw")));
  return "j" + toBase64Url(bytes);
}

export async function decodeShare(text) {
  const bytes = fromBase64Url(text.slice(1));
  if (text[0] === "z") return JSON.parse(new TextDecoder().decode(await streamBytes(bytes, new DecompressionStream("deflate-raw"))));
  if (text[0] === "j") return JSON.parse(new TextDecoder().decode(bytes));
  throw new Error("not a shared position");
}

// The position on screen as a replay request the page (or the API) reads back: the position as its
// start and the move made from it, if any.
export function sharedLog() {
  const log = page.log;
  const body = {variant: log.variant};
  if (log.rules !== undefined) body.rules = log.rules;
  body.start = {[log.kind === "game" ? "game" : "state"]: log.positions[page.p]};
  body.actions = page.p < log.actions.length ? [log.actions[page.p]] : [];
  return body;
}

export async function shareLink() {
  const url = (await Share.link(page.log, page.p))   // a hand's position: its notation (share.js)
    || `${location.origin}${location.pathname}#position=${await encodeShare(sharedLog())}`;
  const field = $("share-url");
  field.value = url;
  field.hidden = false;
  field.focus();
  field.select();
  if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(url).catch(() => {});
}

export function shareFile() { download("kalooki-position.json", sharedLog()); }

export async function openFromFragment() {
  const shared = readFragment(location.hash);
  if (!shared) return;
  if (shared.kind === "ask") {  // a question with its position and answer (builder.js)
    await openAsked(shared.value);
    return;
  }
  if (shared.kind === "p") {  // a position's notation: as written, else percent-decoded
    let notation = shared.value;
    for (const candidate of [shared.value, ...shared.alternatives]) {
      if ((await call("POST", "/v1/notation", {notation: candidate})).ok) { notation = candidate; break; }
    }
    $("log-text").value = notation;
    if (await runLog(notation)) $("log").scrollIntoView();
    return;
  }
  let body;
  try {
    body = await decodeShare(shared.value);
  } catch (err) {
    showProblems("log-problems", $("log-text"), {title: "This link does not hold a position", detail: String(err)}, () => "the link");
    return;
  }
  $("log-text").value = JSON.stringify(body, null, 1);
  await runLog($("log-text").value);
  $("log").scrollIntoView();
}

// -- was this meld allowed? ----------------------------------------------------------------------

export const PALETTE_RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
export const PICKER_CARDS = [...Object.keys(Cards.SUITS).flatMap(suit => PALETTE_RANKS.map(rank => rank + suit)), "JK"];

// The one card picker of the page (the meld check's and the position builder's): a compact grid of
// the 52 cards, suit by suit, and a joker, small enough to leave in sight where a tapped card goes.
// It is one Tab stop: the arrow keys move through it (left and right along a suit, up and down between
// suits), Home and End go to its ends, Enter or Space picks.  Each button's name is its words alone
// (`nameOf(code)`), the face it shows hidden from screen readers, so what is read is what is meant.
// Drawing it again (a new destination) keeps the focus on the card that had it.
export function cardPicker(box, nameOf, onPick) {
  const focused = box.contains(document.activeElement) ? document.activeElement.dataset.card : null;
  const current = focused || box.dataset.current || PICKER_CARDS[0];
  const buttons = PICKER_CARDS.map(code => {
    const c = Cards.parse(code);
    const face = c.joker ? [h("span", {class: "pick-suit"}, "\u2605"), "Joker"]
                         : [h("span", {class: "pick-rank"}, c.rank), h("span", {class: "pick-suit"}, Cards.SUITS[c.suit].symbol)];
    return h("button", {type: "button", class: `pick ${c.joker ? "joker" : Cards.SUITS[c.suit].red ? "red" : "black"}`,
                        "data-card": code, tabindex: code === current ? "0" : "-1",
                        onclick: e => { pickerMoveTo(box, e.currentTarget); onPick(code, e.currentTarget); }},
      h("span", {"aria-hidden": "true", class: "pick-face"}, face), h("span", {class: "visually-hidden"}, nameOf(code)));
  });
  box.replaceChildren(...buttons);
  box.dataset.current = current;
  if (!box.dataset.keys) {
    box.dataset.keys = "on";
    box.addEventListener("keydown", e => pickerKey(box, e));
  }
  if (focused) box.querySelector(`[data-card='${focused}']`).focus();
}

export function pickerMoveTo(box, button) {
  for (const b of box.querySelectorAll(".pick")) b.tabIndex = b === button ? 0 : -1;
  box.dataset.current = button.dataset.card;
}

export function pickerKey(box, e) {
  const buttons = [...box.querySelectorAll(".pick")];
  const at = buttons.indexOf(document.activeElement);
  if (at < 0) return;
  const row = PALETTE_RANKS.length, last = buttons.length - 1;
  const to = {ArrowRight: at + 1, ArrowLeft: at - 1, ArrowDown: Math.min(at + row, last), ArrowUp: at === last ? last - row : at - row,
              Home: 0, End: last}[e.key];
  if (to === undefined) return;
  e.preventDefault();
  const next = buttons[Math.max(0, Math.min(to, last))];
  pickerMoveTo(box, next);
  next.focus();
}

// Says, for a moment, which card was just placed: the picker's button and the card where it went.
export function flashPlaced(...nodes) {
  for (const n of nodes.filter(Boolean)) {
    n.classList.add("just-placed");
    setTimeout(() => n.classList.remove("just-placed"), 1200);
  }
}

// A card picture as a button named in words (`name`): the picture is hidden from screen readers and
// the words are the button's own text, so its name is what it says.
export function cardButton(code, name, attrs, onclick) {
  const pic = Cards.picture(code);
  pic.setAttribute("aria-hidden", "true");
  pic.removeAttribute("role");
  pic.removeAttribute("aria-label");
  pic.querySelector("title").remove();
  return h("button", {type: "button", class: "card-button", "data-card": code, ...attrs, onclick},
           pic, h("span", {class: "visually-hidden"}, name));
}

// Where a problem of a meld check lies, in words (``cards`` is the meld checked).
export function meldWhere(pointer, cards) {
  const m = /^\/cards\/(\d+)/.exec(pointer);
  if (m) return `card ${Number(m[1]) + 1} of the meld (${Cards.name(cards[Number(m[1])] || "?")})`;
  if (pointer === "/cards") return "the meld";
  if (pointer === "/variant") return "the variant";
  if (pointer.startsWith("/declarations")) return "how it is laid";
  return ordinalPath(pointer);
}

// The meld check of "Is this meld allowed?": `cards` laid as `kind` ("" for whatever they can be),
// answered in `box`; a problem of the request is shown in the box `problems` (next to the field
// `kindField` when it is about the kind); `choose(reading)` asks again with a reading the player chose.
export async function checkMeld(cards, kind, box, {problems, kindField, choose}) {
  const body = {variant: page.variant, cards: cards.slice()};
  if (kind) body.declarations = {kind};
  clearProblems(problems, kindField);
  clearProblems("variant-problems", $("variant"));
  box.replaceChildren();
  const r = await call("POST", "/v1/melds/check", body);
  const where = pointer => meldWhere(pointer, cards);
  if (!r.ok) {
    const errors = (r.body && r.body.errors) || [];
    if (errors.some(e => e.pointer === "/variant")) showProblems("variant-problems", $("variant"), r.body, where);
    else showProblems(problems, errors.some(e => (e.pointer || "").startsWith("/declarations")) ? kindField : null, r.body, where);
    return;
  }
  const res = await rulesResources(body.variant);
  const a = r.body;
  const under = `under ${variantName(body.variant)}`;
  if (a.valid) {
    const jokers = (a.jokers || []).length ? ` It holds ${a.jokers.map(j => Cards.name(`JK(=${j})`)).join(" and ")}.` : "";
    box.replaceChildren(h("div", {class: "meld-verdict legal"},
      h("p", {}, h("strong", {}, "Yes, this meld is allowed "), under, `: a ${a.kind} worth ${plural(a.value, "point")}.`, jokers),
      Cards.row(a.cards), tableNow("The meld stands as laid.")));
    return;
  }
  if (a.ambiguous && (a.readings || []).length) {  // not a refusal: a question back
    box.replaceChildren(readingsQuestion(a, res, under, choose));
    return;
  }
  const parts = [h("p", {}, h("strong", {}, "No, this meld is not allowed "), under, ".")];
  if (a.violation) parts.push(violationBlock(a.violation, res, "Why: ", tooFewWords(body, a)));
  parts.push(tableNow("A meld laid like this goes back into the player's hand; the player may lay it again as the rules allow."));
  box.replaceChildren(h("div", {class: "meld-verdict illegal"}, parts));
  return a;
}

// Fewer cards than any meld has, laid as whatever they can be: said as that, not as a run's rule alone.
export function tooFewWords(body, answer) {
  const melds = (variantParameters(body.variant) || {}).melds;
  if (body.declarations || !melds || !answer.violation) return null;
  const least = Math.min(melds.run.min, melds.set.min);
  if (body.cards.length >= least) return null;
  return `a meld, whether a set or a run, has at least ${least} cards; ${body.cards.length === 1 ? "this is one card" : `this has ${body.cards.length}`}`;
}

// Jokers that can be read more than one way: the referee asks which was meant, each reading a button
// that checks the meld as that reading.
export function readingsQuestion(a, res, under, choose) {
  const kinds = new Set(a.readings.map(r => r.kind));
  const ask = kinds.size > 1 ? "Run or set? These cards can be laid either way: which did you mean?"
                             : "It could be either: which did you mean?";
  return h("div", {class: "meld-verdict question", "data-readings": a.readings.length},
    h("p", {}, h("strong", {}, ask), ` \u2014 ${under}.`),
    h("p", {}, "A player who lays a joker whose card is not fixed by the meld says which card it stands for, and that reading stays. Choose one:"),
    h("ul", {class: "readings"}, a.readings.map(reading => h("li", {},
      h("button", {type: "button", class: "reading", onclick: () => choose(reading)},
        `A ${reading.kind}: ${Cards.names(reading.cards)}`),
      Cards.row(reading.cards)))),
    a.violation ? h("details", {class: "ids"}, h("summary", {}, "The rule behind the question"),
                    violationBlock(a.violation, res, "The referee's words: ")) : "");
}

// -- wiring ----------------------------------------------------------------------------------------

document.addEventListener("DOMContentLoaded", async () => {
  $("variant").addEventListener("change", e => chooseVariant(e.target.value));
  $("log-form").addEventListener("submit", e => { e.preventDefault(); runLog($("log-text").value); });
  $("log-file").addEventListener("change", async e => {
    const file = e.target.files && e.target.files[0];
    if (!file) return;
    $("log-text").value = await file.text();
    await runLog($("log-text").value);
  });
  $("step-first").addEventListener("click", () => goTo(0));
  $("step-prev").addEventListener("click", () => goTo(page.p - 1));
  $("step-next").addEventListener("click", () => goTo(page.p + 1));
  $("step-last").addEventListener("click", () => goTo(page.log.end));
  $("step-illegal").addEventListener("click", () => goTo(page.log.illegal));
  $("viewer").addEventListener("keydown", stepKey);
  $("share-link").addEventListener("click", shareLink);
  $("share-file").addEventListener("click", shareFile);
  window.addEventListener("hashchange", openFromFragment);
  await loadVariants();
  await openFromFragment();
  document.body.dataset.ready = "true";
});
