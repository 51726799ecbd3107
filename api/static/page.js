// The page for people: choose a variant and read its rules, step through a game log, check a meld,
// share a position.  Everything it knows it asks the referee's own API; it keeps nothing itself.
"use strict";

// -- small helpers ------------------------------------------------------------------------------

function $(id) { return document.getElementById(id); }

function h(tag, attrs, ...children) {
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
function download(name, value) {
  const blob = new Blob([JSON.stringify(value, null, 1) + "\n"], {type: "application/json"});
  const url = URL.createObjectURL(blob);
  const a = h("a", {href: url, download: name, hidden: true});
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

function plural(n, one, many) { return `${n} ${n === 1 ? one : (many || one + "s")}`; }

function ordinalPath(pointer) {
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
async function call(method, path, body) {
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

async function getJson(path) {
  const r = await call("GET", path);
  if (!r.ok) throw new Error(`${path}: ${r.status} ${(r.body && r.body.detail) || ""}`);
  return r.body;
}

// The rules as resources: the one place the page reads GET /v1/sources, GET /v1/clauses and
// GET /v1/variants/{id}/rulings.  Maps by id; empty maps (and `missing`) when they cannot be read.
const resourceCache = new Map();
function rulesResources(variant) {
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

function sourceItem(source, res) {
  // a source as a verdict cites it ({document, section}) or as a ruling does ("document: section")
  let doc = source.document, section = source.section;
  if (typeof source === "string") {
    const at = source.indexOf(":");
    doc = at < 0 ? source : source.slice(0, at).trim();
    section = at < 0 ? "" : source.slice(at + 1).trim();
  }
  const known = res.sources.get(doc);
  const title = (known && known.title) || source.title || doc;
  const name = known && known.url ? h("a", {href: known.url, rel: "noopener noreferrer", class: "source-title"}, title)
                                  : h("cite", {class: "source-title"}, title);
  return h("li", {class: "source"}, name, section ? [", section ", h("q", {class: "source-section"}, section)] : "");
}

function rulingItem(id, res) {
  const ruling = res.rulings.get(id);
  if (!ruling) return h("li", {class: "ruling", "data-ruling": id}, "The referee's ruling ", h("code", {}, id));
  return h("li", {class: "ruling", "data-ruling": id},
    h("span", {class: "ruling-text"}, "The referee's ruling ", h("code", {}, id), ": ", ruling.ruling),
    ruling.reason ? h("span", {class: "ruling-reason"}, ` Why: ${ruling.reason}`) : "");
}

// The rulings of the variant (those `res` was read for) that touch a clause.
function variantRulings(clause, res) {
  return ((clause && clause.rulings) || []).filter(id => res.rulings.has(id));
}

// A clause's sources as a verdict of the variant cites them: those in the variant's own documents,
// unless it has none there (then all of them).
function variantSources(clause, documents) {
  const own = (clause.sources || []).filter(s => documents.has(s.document));
  return own.length ? own : (clause.sources || []);
}

// A broken rule in plain words: the message, the rule's statement and id, its sources, its rulings.
function violationBlock(v, res, label = "What went wrong: ") {
  const clause = res.clauses.get(v.clause);
  const rulings = v.rulings || variantRulings(clause, res);
  const sources = v.sources || (clause && clause.sources) || [];
  return h("div", {class: "violation", "data-clause": v.clause},
    h("p", {class: "violation-message"}, h("strong", {}, label), v.message),
    h("p", {class: "violation-rule"}, h("strong", {}, "The rule: "), v.statement || (clause && clause.statement) || "",
      " ", h("span", {class: "clause-id"}, "(rule ", h("code", {}, v.clause), ")")),
    sources.length ? h("div", {class: "violation-sources"}, h("strong", {}, sources.length > 1 ? "Sources:" : "Source:"),
                       h("ul", {}, sources.map(s => sourceItem(s, res)))) : "",
    rulings.length ? h("div", {class: "violation-rulings"}, h("strong", {}, "It rests on:"),
                       h("ul", {}, rulings.map(id => rulingItem(id, res)))) : "");
}

// What an answer that depends on unseen cards would need to see, in words: each entry's `needs` are
// JSON pointers into the state (a hand's count of unseen cards, the stock's).
function needWords(pointer, state) {
  const m = /^\/players\/(\d+)\/hidden$/.exec(pointer);
  if (m) {
    const seat = state && state.players && state.players[Number(m[1])];
    return `the unseen cards of ${seat ? seat.id : `player ${Number(m[1]) + 1}`}'s hand`;
  }
  return pointer === "/stock_hidden" ? "the unseen cards of the stock" : pointer;
}

// The rules an answer could not decide from the cards listed, each with what it would need to see.
function undeterminedBlock(entries, res, state) {
  return h("div", {class: "undetermined-list"}, entries.map(u => {
    const block = violationBlock(u, res, "Why it cannot tell: ");
    block.classList.add("undetermined");
    if ((u.needs || []).length) {
      block.append(h("p", {class: "needs"}, h("strong", {}, "It would need to see: "),
                     u.needs.map(p => needWords(p, state)).join("; ") + "."));
    }
    return block;
  }));
}

// -- problems next to a field --------------------------------------------------------------------

function clearProblems(boxId, ...fields) {
  $(boxId).replaceChildren();
  for (const f of fields) if (f) f.removeAttribute("aria-invalid");
  document.querySelectorAll(".has-problem").forEach(n => n.classList.remove("has-problem"));
}

// The API's problem (application/problem+json) beside the field it is about: each error with where
// it is (its JSON pointer, in words too) and what is wrong.
function showProblems(boxId, field, problem, where) {
  const box = $(boxId);
  const errors = (problem && problem.errors && problem.errors.length) ? problem.errors
               : [{pointer: "", detail: (problem && problem.detail) || "the referee refused this"}];
  box.replaceChildren(
    h("p", {class: "problem-title"}, problem && problem.status === undefined && problem.title ? problem.title  // the page's own
                                     : `The referee could not accept this: ${(problem && problem.title) || "a problem"}`),
    h("ul", {}, errors.map(e => h("li", {class: "problem", "data-pointer": e.pointer || ""},
      h("span", {class: "problem-where"}, where(e.pointer || "")),
      e.pointer ? [" (", h("code", {class: "problem-pointer"}, e.pointer), ")"] : "", ": ",
      h("span", {class: "problem-detail"}, e.detail)))));
  if (field) field.setAttribute("aria-invalid", "true");
}

// -- the variant and its rules -------------------------------------------------------------------

const page = {variants: [], variant: null, log: null, p: 0, meld: []};

function variantName(id) {
  const v = page.variants.find(x => x.id === id);
  return v ? v.name : id;
}

async function loadVariants() {
  const r = await call("GET", "/v1/variants");
  if (!r.ok) { showProblems("variant-problems", $("variant"), r.body, () => "the variants"); return; }
  page.variants = r.body.variants;
  const select = $("variant");
  select.replaceChildren(...page.variants.map(v => h("option", {value: v.id}, `${v.name} (${v.id})`)));
  const start = page.variants.some(v => v.id === "british") ? "british" : page.variants[0].id;
  await chooseVariant(start);
}

async function chooseVariant(id) {
  page.variant = id;
  $("variant").value = id;
  clearProblems("variant-problems", $("variant"));
  document.dispatchEvent(new CustomEvent("variant-chosen", {detail: id}));  // builder.js follows it
  await renderRules(id);
}

function titleCase(text) { return (text || "other").replace(/[_-]+/g, " ").replace(/^./, c => c.toUpperCase()); }

async function renderRules(id) {
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
        h("p", {class: "clause-id"}, "Rule ", h("code", {}, c.id)),
        h("ul", {class: "sources"}, variantSources(c, documents).map(s => sourceItem(s, res))),
        h("ul", {class: "rulings"}, variantRulings(c, res).map(r => rulingItem(r, res))))))),
    rulingsList(res));
}

function rulingsList(res) {
  if (!res.rulings.size) return "";
  return h("details", {class: "topic rulings-all"},
    h("summary", {}, `The referee's rulings where the sources are unclear (${res.rulings.size})`),
    h("ul", {class: "rulings"}, [...res.rulings.values()].map(r => h("li", {class: "ruling", "data-ruling": r.id},
      h("p", {}, h("code", {}, r.id), ": ", r.ruling),
      r.reason ? h("p", {class: "ruling-reason"}, `Why: ${r.reason}`) : "",
      r.switch ? h("p", {class: "ruling-switch"}, "A house rule can change it: ", h("code", {}, r.switch)) : "",
      (r.sources || []).length ? h("ul", {class: "sources"}, r.sources.map(s => sourceItem(s, res))) : ""))));
}

// -- a game log, position by position -------------------------------------------------------------

function isObject(x) { return x !== null && typeof x === "object" && !Array.isArray(x); }

// Reads the pasted log: a body with an `action` is one disputed move (/v1/adjudicate), anything
// else is sent to /v1/replay as it was pasted.
async function runLog(text) {
  const field = $("log-text");
  clearProblems("log-problems", field);
  let body;
  try { body = JSON.parse(text); } catch (err) { body = undefined; }
  const single = isObject(body) && "action" in body;
  const r = await call("POST", single ? "/v1/adjudicate" : "/v1/replay", text);
  if (!r.ok) {
    showProblems("log-problems", field, r.body, ordinalPath);
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
    else log.illegal = 0;
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
  log.end = log.illegal === null ? log.actions.length : log.illegal;
  page.log = log;
  if (page.variants.some(v => v.id === log.variant) && page.variant !== log.variant) chooseVariant(log.variant);
  renderStepList();
  $("viewer").hidden = false;
  $("share-url").hidden = true;
  await goTo(log.illegal === null ? 0 : log.illegal);
  return true;
}

// The position after `p` steps, asking /v1/adjudicate for the steps not yet known.
async function positionAt(p) {
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
function stepRequest(q) {
  const log = page.log;
  const body = {variant: log.variant, action: log.actions[q]};
  if (log.rules !== undefined) body.rules = log.rules;
  body[log.kind === "game" ? "game" : "state"] = log.positions[q];
  return body;
}

function handOf(position) { return page.log.kind === "game" ? position.hand : position; }

// Who makes step i: the action's own `player`, else the player its events name, else the player to
// act in the position before it (when that position is known).
function actorOf(i) {
  const log = page.log;
  const action = log.actions[i];
  if (action.player) return action.player;
  const named = ((log.verdicts[i] && log.verdicts[i].events) || []).find(e => e.player);
  if (named) return named.player;
  const position = log.positions[i];
  const hand = position && handOf(position);
  return (hand && hand.to_act) || "A player";
}

function describeAction(a, who) {
  switch (a.type) {
    case "draw": return `${who} draws from the ${a.source === "discard" ? "discard pile" : "stock"}`;
    case "discard": return `${who} discards ${Cards.name(a.card)}`;
    case "meld": {
      const builds = (a.builds || []).length ? ` and adds to ${plural(a.builds.length, "meld")}` : "";
      return `${who} lays ${plural((a.melds || []).length, "new meld")}${builds}`;
    }
    case "build": return `${who} adds ${Cards.names(a.cards || [])} to meld ${a.meld}${a.end ? ` at its ${a.end} end` : ""}`;
    case "swap_joker": return `${who} exchanges ${Cards.names(a.naturals || [])} for the joker in meld ${a.meld}`;
    case "announce": return `${who} announces ${plural(a.count, "card")} left in hand`;
    case "pass": return `${who} passes on the upcard`;
    case "turn": return `${who} plays a whole turn: ` + (a.actions || []).map(x => describeAction(x, who)).join("; ");
    case "buy_in": return `${who} buys back into the game`;
    case "decline": return `${who} declines to buy back in`;
    case "next_hand": return "The next hand is dealt";
    default: return `${who}: ${a.type}`;
  }
}

function actionCards(a) {
  switch (a.type) {
    case "discard": return [a.card];
    case "build": return a.cards || [];
    case "meld": return (a.melds || []).flatMap(m => m.cards || []).concat((a.builds || []).flatMap(b => b.cards || []));
    case "swap_joker": return a.naturals || [];
    case "turn": return (a.actions || []).flatMap(actionCards);
    default: return [];
  }
}

function describeEvent(e) {
  switch (e.type) {
    case "drew": return e.card ? `${e.player} took ${Cards.name(e.card)} from the discard pile` : `${e.player} drew from the ${e.source === "discard" ? "discard pile" : "stock"}`;
    case "passed": return `${e.player} passed on the upcard`;
    case "opened": return `${e.player} opened with ${plural(e.points, "point")}`;
    case "melded": return `${e.player} laid a ${e.kind} (${Cards.names(e.cards)}), worth ${plural(e.points, "point")}`;
    case "built": return `${e.player} added ${Cards.names(e.cards)} to meld ${e.meld}${e.end ? ` at its ${e.end} end` : ""}`;
    case "set_closed": return `the set ${e.meld} is complete`;
    case "joker_released": return `${e.player} took the joker from meld ${e.meld}, putting ${Cards.names(e.naturals)} in its place`;
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
    case "game_won": return e.player ? `${e.player} won the game and the pool of ${e.pool}` : `the game ended; the pool was ${e.pool}`;
    default: return e.type;
  }
}

function stepStatus(i) {
  const log = page.log;
  if (log.illegal !== null && i > log.illegal) return "not reached";
  const v = log.verdicts[i];
  return v && v.legal === false ? "not allowed" : v && v.legal === null ? "undetermined" : "allowed";
}

function renderStepList() {
  const log = page.log;
  const list = $("step-list");
  list.replaceChildren(...log.actions.map((a, i) => {
    const status = stepStatus(i);
    const reachable = i <= log.end;
    return h("li", {class: `step ${status.replace(" ", "-")}`, "data-step": i + 1},
      h("button", {type: "button", disabled: !reachable, onclick: () => goTo(i)},
        `Step ${i + 1}: ${describeAction(a, actorOf(i))}`),
      h("span", {class: "step-status"}, ` ${status}`));
  }));
  $("step-illegal").hidden = log.illegal === null;
  const n = log.actions.length;
  $("viewer-heading").textContent = "The game, position by position: " + (
    log.illegal !== null ? `step ${log.illegal + 1} is the first illegal step`
    : n === 0 ? "one position, no move made from it"
    : n === 1 ? "its one step is allowed" : `all ${n} of its steps are allowed`);
}

async function goTo(p) {
  const log = page.log;
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
  $("step-label").textContent = p < log.actions.length ? `Position ${p} of ${log.end}: before step ${p + 1}`
                                                       : `Position ${p} of ${log.end}: the end of the log`;
  $("step-first").disabled = $("step-prev").disabled = p === 0;
  $("step-next").disabled = $("step-last").disabled = p >= log.end;
  document.querySelectorAll("#step-list li").forEach(li => {
    if (Number(li.dataset.step) === p + 1) li.setAttribute("aria-current", "step");
    else li.removeAttribute("aria-current");
  });
}

function renderVerdict(p, position) {
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
    h("h4", {}, `Step ${p + 1}: ${describeAction(action, actorOf(p))}`),
    cards.length ? Cards.row(cards) : "");
  if (!verdict) return box;
  const sign = h("div", {class: "controls"}, signButton(() => stepRequest(p)));  // rulings.js
  if (verdict.legal === null) {  // the answer depends on cards nobody listed
    box.classList.replace("legal", "undetermined");
    box.append(h("p", {class: "verdict-word"}, h("strong", {}, "Cannot tell from the cards shown.")));
    const holder = h("div", {}, h("p", {}, "Reading the rules\u2026"));
    box.append(holder, sign);
    rulesResources(log.variant).then(res => holder.replaceChildren(undeterminedBlock(verdict.undetermined || [], res, handOf(position))));
    return box;
  }
  if (!illegal) {
    box.append(h("p", {class: "verdict-word"}, h("strong", {}, "Allowed."),
                  (verdict.events || []).length ? " What happened: " + verdict.events.map(describeEvent).join("; ") + "." : ""));
    if (verdict.result) box.append(resultBlock(verdict.result));
    box.append(sign);
    return box;
  }
  box.append(h("p", {class: "verdict-word"}, h("strong", {}, "Not allowed."),
                p === log.illegal ? ` This is the first illegal step of the log (step ${p + 1}); the position shown is the one before it.` : ""));
  const holder = h("div", {class: "violations"}, h("p", {}, "Reading the rules\u2026"));
  box.append(holder, sign);
  rulesResources(log.variant).then(res => holder.replaceChildren(...verdict.violations.map(v => violationBlock(v, res))));
  return box;
}

function resultBlock(result) {
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

const PHASE_WORDS = {draw: "to play: must draw first", play: "to play: has drawn; may meld, then discards",
                     ended: "the hand is over"};

function renderPosition(position) {
  const hand = handOf(position);
  const parts = [];
  if (page.log.kind === "game") {
    parts.push(h("div", {class: "game-summary"},
      h("p", {}, `The game: ${plural(position.hands_played || 0, "hand")} played, pool ${position.pool}, ${position.phase}.`),
      h("ul", {}, (position.players || []).map(pl => h("li", {}, `${pl.id}: ${plural(pl.score, "point")}${pl.out ? " (out)" : ""}`)))));
  }
  if (!hand) {
    parts.push(h("p", {}, "No hand is in play at this position."));
    return h("div", {}, parts);
  }
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
      h("figcaption", {}, `${m.owner}'s ${m.kind} (meld ${m.id})`), Cards.row(m.cards)))
    : h("p", {}, "none yet")));
  const builds = hand.turn && hand.turn.builds ? Object.entries(hand.turn.builds) : [];
  parts.push(h("div", {class: "seats"}, (hand.players || []).map(pl => {
    const acting = pl.id === hand.to_act;
    return h("section", {class: `seat${acting ? " to-act" : ""}`, "data-player": pl.id, "aria-label": `${pl.id}'s hand`},
      h("h4", {}, pl.id, acting ? ` \u2014 ${PHASE_WORDS[hand.phase] || hand.phase}` : ""),
      h("p", {class: "seat-facts"}, [pl.opened ? "has opened" : "has not opened", plural(pl.score || 0, "point"),
                                      plural(pl.hand.length + (pl.hidden || 0), "card"),
                                      pl.hidden ? `${pl.hidden} of them unseen` : null,
                                      pl.barred ? "may not go out next turn" : null].filter(Boolean).join(" \u00b7 ")),
      seatCards(pl));
  })));
  if (hand.turn && hand.turn.source) {
    parts.push(h("p", {class: "turn-facts"}, `${hand.to_act} has drawn from the ${hand.turn.source === "discard" ? "discard pile" : "stock"} this turn.`,
      builds.map(([meld, ends]) => ` Added to meld ${meld} this turn: ${ends.low || 0} at the low end, ${ends.high || 0} at the high end.`).join("")));
  }
  if (hand.result) parts.push(resultBlock(hand.result));
  return h("div", {class: "position"}, parts);
}

// A seat's cards: those listed, then one card back with the count of those nobody listed.
function seatCards(pl) {
  const row = Cards.row(pl.hand);
  if (pl.hidden) row.append(h("span", {class: "card back"}, Cards.back(pl.hidden)));
  return row;
}

// -- sharing a position: a link (the state in the fragment) or a file ------------------------------

function toBase64Url(bytes) {
  let text = "";
  for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64Url(text) {
  const b64 = text.replace(/-/g, "+").replace(/_/g, "/");
  const raw = atob(b64 + "=".repeat((4 - b64.length % 4) % 4));
  return Uint8Array.from(raw, c => c.charCodeAt(0));
}

async function streamBytes(bytes, transform) {
  return new Uint8Array(await new Response(new Blob([bytes]).stream().pipeThrough(transform)).arrayBuffer());
}

// "z" + base64url of the deflated JSON where the browser can deflate, else "j" + base64url of the JSON.
async function encodeShare(value) {
  const bytes = new TextEncoder().encode(JSON.stringify(value));
  if (typeof CompressionStream === "function") return "z" + toBase64Url(await streamBytes(bytes, new CompressionStream("deflate-raw")));
  return "j" + toBase64Url(bytes);
}

async function decodeShare(text) {
  const bytes = fromBase64Url(text.slice(1));
  if (text[0] === "z") return JSON.parse(new TextDecoder().decode(await streamBytes(bytes, new DecompressionStream("deflate-raw"))));
  if (text[0] === "j") return JSON.parse(new TextDecoder().decode(bytes));
  throw new Error("not a shared position");
}

// The position on screen as a replay request the page (or the API) reads back: the position as its
// start and the move made from it, if any.
function sharedLog() {
  const log = page.log;
  const body = {variant: log.variant};
  if (log.rules !== undefined) body.rules = log.rules;
  body.start = {[log.kind === "game" ? "game" : "state"]: log.positions[page.p]};
  body.actions = page.p < log.actions.length ? [log.actions[page.p]] : [];
  return body;
}

async function shareLink() {
  const url = `${location.origin}${location.pathname}#position=${await encodeShare(sharedLog())}`;
  const field = $("share-url");
  field.value = url;
  field.hidden = false;
  field.focus();
  field.select();
  if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(url).catch(() => {});
}

function shareFile() { download("kalooki-position.json", sharedLog()); }

async function openFromFragment() {
  const match = /^#position=([A-Za-z0-9_-]+)$/.exec(location.hash);
  if (!match) return;
  let body;
  try {
    body = await decodeShare(match[1]);
  } catch (err) {
    showProblems("log-problems", $("log-text"), {title: "This link does not hold a position", detail: String(err)}, () => "the link");
    return;
  }
  $("log-text").value = JSON.stringify(body, null, 1);
  await runLog($("log-text").value);
  $("log").scrollIntoView();
}

// -- was this meld allowed? ----------------------------------------------------------------------

const PALETTE_RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];

function renderPalette() {
  const rows = Object.keys(Cards.SUITS).map(suit => h("div", {class: "card-row palette-row"},
    PALETTE_RANKS.map(rank => paletteButton(rank + suit))));
  rows.push(h("div", {class: "card-row palette-row"}, paletteButton("JK")));
  $("palette").replaceChildren(...rows);
}

function paletteButton(code) {
  const b = h("button", {type: "button", class: "card-button", "data-card": code, "aria-label": `Add ${Cards.name(code)} to the meld`,
                         onclick: () => { page.meld.push(code); renderMeld(); }});
  const pic = Cards.picture(code);
  pic.setAttribute("aria-hidden", "true");
  b.append(pic);
  return b;
}

function renderMeld(problemAt) {
  const box = $("meld-cards");
  if (!page.meld.length) { box.replaceChildren(h("p", {class: "empty"}, "No card chosen yet.")); return; }
  box.replaceChildren(...page.meld.map((code, i) => {
    const b = h("button", {type: "button", class: `card-button in-meld${problemAt && problemAt.has(i) ? " has-problem" : ""}`,
                           "data-card": code, "data-index": i, "aria-label": `Take ${Cards.name(code)} (card ${i + 1}) out of the meld`,
                           onclick: () => { page.meld.splice(i, 1); renderMeld(); }});
    const pic = Cards.picture(code);
    pic.setAttribute("aria-hidden", "true");
    b.append(pic);
    return b;
  }));
}

function meldWhere(pointer) {
  const m = /^\/cards\/(\d+)/.exec(pointer);
  if (m) return `card ${Number(m[1]) + 1} of the meld (${Cards.name(page.meld[Number(m[1])] || "?")})`;
  if (pointer === "/cards") return "the meld";
  if (pointer === "/variant") return "the variant";
  if (pointer.startsWith("/declarations")) return "how it is laid";
  return ordinalPath(pointer);
}

async function checkMeld() {
  const kind = $("meld-kind").value;
  const body = {variant: page.variant, cards: page.meld};
  if (kind) body.declarations = {kind};
  clearProblems("meld-problems", $("meld-kind"));
  clearProblems("variant-problems", $("variant"));
  $("meld-answer").replaceChildren();
  const r = await call("POST", "/v1/melds/check", body);
  if (!r.ok) {
    const errors = (r.body && r.body.errors) || [];
    const at = new Set(errors.map(e => /^\/cards\/(\d+)/.exec(e.pointer || "")).filter(Boolean).map(m => Number(m[1])));
    renderMeld(at);
    if (errors.some(e => e.pointer === "/variant")) showProblems("variant-problems", $("variant"), r.body, meldWhere);
    else showProblems("meld-problems", errors.some(e => (e.pointer || "").startsWith("/declarations")) ? $("meld-kind") : null, r.body, meldWhere);
    return;
  }
  renderMeld();
  const res = await rulesResources(body.variant);
  const a = r.body;
  const under = `under ${variantName(body.variant)}`;
  if (a.valid) {
    const jokers = (a.jokers || []).length ? ` It holds ${a.jokers.map(j => Cards.name(`JK(=${j})`)).join(" and ")}.` : "";
    $("meld-answer").replaceChildren(h("div", {class: "meld-verdict legal"},
      h("p", {}, h("strong", {}, "Yes, this meld is allowed "), under, `: a ${a.kind} worth ${plural(a.value, "point")}.`, jokers),
      Cards.row(a.cards)));
    return;
  }
  const parts = [h("p", {}, h("strong", {}, "No, this meld is not allowed "), under, ".")];
  if (a.violation) parts.push(violationBlock(a.violation, res));
  if (a.ambiguous && (a.readings || []).length) {
    parts.push(h("p", {}, "The jokers can be read more than one way. Choose the meld you meant:"),
      h("ul", {class: "readings"}, a.readings.map(reading => h("li", {},
        h("button", {type: "button", class: "reading", onclick: () => {
          page.meld = reading.cards.slice(); $("meld-kind").value = reading.kind; renderMeld(); checkMeld(); }},
          `Check it as a ${reading.kind}: ${Cards.names(reading.cards)}`),
        Cards.row(reading.cards)))));
  }
  $("meld-answer").replaceChildren(h("div", {class: "meld-verdict illegal"}, parts));
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
  $("share-link").addEventListener("click", shareLink);
  $("share-file").addEventListener("click", shareFile);
  $("meld-check").addEventListener("click", checkMeld);
  $("meld-clear").addEventListener("click", () => {
    page.meld = []; renderMeld(); $("meld-answer").replaceChildren(); clearProblems("meld-problems", $("meld-kind"));
  });
  window.addEventListener("hashchange", openFromFragment);
  renderPalette();
  await loadVariants();
  await openFromFragment();
  document.body.dataset.ready = "true";
});
