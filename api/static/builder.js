// Set out a position by hand and ask about one move: the player lays out only what the dispute is
// about (their hand, the table's melds, the top discard), the page completes it into a whole position
// the API accepts and asks /v1/adjudicate.  Uses page.js (h, $, call, the citations) and cards.js.
"use strict";

const YOU = "Player 1";  // you, as the referee names you
const BUILD_AREAS = {play: "the cards you want to play", hand: "the rest of your hand", discard: "the top of the discard pile"};
const builder = {play: [], hand: [], discard: [], melds: [], target: "play", nextMeld: 1, request: null};

function meldName(m) { return `meld ${m.id} on the table`; }

function targetName(target) {
  if (BUILD_AREAS[target]) return BUILD_AREAS[target];
  const m = builder.melds.find(x => x.id === target);
  return m ? meldName(m) : target;
}

function targetCards(target) {
  if (BUILD_AREAS[target]) return builder[target];
  const m = builder.melds.find(x => x.id === target);
  return m ? m.cards : null;
}

// -- completing the position -------------------------------------------------------------------

// The number of cards in the variant's pack (rules/cards.py, pack_order: 52 a deck, then the jokers).
function packSize(pack) { return 52 * pack.decks + pack.jokers; }

// Cards dealt to each player at a table of `n` (rules/params.py, Deal.cards_for).
function cardsFor(deal, n) {
  const byPlayers = deal.cards_by_players;
  return byPlayers && byPlayers[String(n)] !== undefined ? byPlayers[String(n)] : deal.cards_each;
}

// The seats: you, then the players on your left in turn; the last of them deals.
function seatIds(n) { return [YOU, ...Array.from({length: n - 1}, (_, i) => `Player ${i + 2}`)]; }

// The whole position from what was laid out, the way a real table knows it (docs/wire-format.md,
// "Unseen cards"): your hand, the melds and the top discard listed; the other hands, any cards of
// yours not laid out, and the stock as counts (`hidden`, `stock_hidden`), the stock holding whatever
// the pack has left.  Nothing is invented: the referee decides what the listed cards decide.
function completePosition(layout, parameters) {
  const ids = seatIds(layout.players);
  const laid = layout.hand.length + layout.discard.length + layout.melds.reduce((n, m) => n + m.cards.length, 0);
  const owners = new Set(layout.melds.map(m => m.owner));
  // a player who made calls holds, beside the deal, each called discard and its penalty cards
  // (docs/jamaican.md: the referee counts calls from the cards where it can)
  const perCall = 1 + ((parameters.calling && parameters.calling.penalty_cards) || 0);
  const called = id => (layout.callsMade && layout.callsMade[id] > 0 ? layout.callsMade[id] * perCall : 0);
  let unseen = 0;
  const players = ids.map((id, i) => {
    const seat = {id, hand: i === 0 ? layout.hand.slice() : [], opened: i === 0 ? layout.opened : owners.has(id)};
    const hidden = (i === 0 ? layout.mineHidden : layout.others) + (i === 0 ? 0 : called(id));
    if (hidden > 0) seat.hidden = hidden;
    unseen += hidden;
    return seat;
  });
  const state = {players, dealer: ids[ids.length - 1], to_act: YOU, phase: layout.phase, first_play: false,
                 stock: [], stock_hidden: Math.max(0, packSize(parameters.pack) - laid - unseen),
                 discard: layout.discard.slice(),
                 melds: layout.melds.map(m => ({id: m.id, owner: m.owner, kind: m.kind, cards: m.cards.slice()}))};
  if (layout.phase === "play") state.turn = {drawn: layout.drawn, source: "stock"};
  if (layout.handNumber) state.hand_number = layout.handNumber;
  if (layout.calls && layout.calls.length) state.calls = layout.calls.slice();
  for (const [id, calls] of Object.entries(layout.callsMade || {})) {
    const seat = players.find(p => p.id === id);
    if (seat && calls > 0) seat.calls = calls;
  }
  return state;
}

// A count typed into the page, or `fallback` when the field is empty.
function countField(id, fallback) {
  const text = $(id).value.trim();
  return text === "" ? fallback : Number(text);
}

// A table meld's kind as chosen, else what its cards say: naturals all of one rank make a set.
function meldKind(m) {
  if (m.kind) return m.kind;
  const ranks = new Set(m.cards.map(Cards.parse).filter(c => c && !c.joker).map(c => c.rank));
  return ranks.size === 1 ? "set" : "run";
}

// The questions asked before the player to act has drawn; those that play cards from the hand; those
// about a meld on the table; those about another player.
const DRAW_QUESTIONS = new Set(["take", "draw", "call", "allow", "penalty", "challenge"]);
const PLAY_QUESTIONS = new Set(["take", "meld", "build", "discard", "swap", "moveup"]);
const ONTO_QUESTIONS = new Set(["build", "swap", "moveup"]);
const WHO_QUESTIONS = new Set(["call", "allow", "penalty", "challenge"]);

// The variant's contract table (hand number: cards dealt, 3s and 4s), where it deals by one.
function contractHands(params) { return params && params.contract && params.contract.hands ? params.contract.hands : null; }

// A table meld's owner: you, or the seat chosen (one still at the table).
function ownerOf(m, players) {
  if (m.owner === "you") return YOU;
  const seat = /^Player (\d+)$/.exec(m.owner);
  return seat && Number(seat[1]) <= players ? m.owner : "Player 2";
}

function variantParameters(id) {
  const v = page.variants.find(x => x.id === id);
  return v ? v.parameters : null;
}

// The request for the question asked, with the map from each place a problem can point at (a JSON
// pointer of the request) back to the card laid out there.
function buildRequest() {
  const question = $("build-question").value;
  const kind = $("build-kind").value;
  const hand = [...builder.hand, ...builder.play];
  const players = Number($("build-players").value);
  const params = variantParameters(page.variant);
  const handNumber = contractHands(params) ? Number($("build-hand-number").value) : null;
  const row = handNumber ? contractHands(params)[String(handNumber)] : null;
  const who = $("build-who").value;
  const layout = {players, opened: $("build-opened").checked, hand, handNumber,
                  others: countField("build-others", row ? row.cards : cardsFor(params.deal, players)),
                  mineHidden: countField("build-mine-hidden", 0),
                  discard: builder.discard.slice(), phase: DRAW_QUESTIONS.has(question) ? "draw" : "play",
                  drawn: hand[0], calls: question === "allow" ? [who] : [],
                  callsMade: question === "challenge" ? {[$("build-target").value]: countField("build-target-calls", 0)} : {},
                  melds: builder.melds.map(m => ({id: m.id, owner: ownerOf(m, players),
                                                  kind: meldKind(m), cards: m.cards}))};
  const newMeld = cards => kind ? {cards, kind} : {cards};
  let action;
  if (question === "draw") {
    action = {type: "draw", source: "discard"};
  } else if (question === "discard") {
    action = {type: "discard", card: builder.play[0]};
  } else if (question === "swap") {
    action = {type: "swap_joker", meld: $("build-onto").value, naturals: builder.play.slice()};
  } else if (question === "call") {
    action = {type: "call", player: who};
  } else if (question === "allow") {
    action = {type: "allow", caller: who};
  } else if (question === "moveup") {
    action = {type: "swap_joker", meld: $("build-onto").value, naturals: builder.play.slice(0, 1),
              place: {type: "build", meld: $("build-onto").value, cards: ["JK"], end: "high"}};
  } else if (question === "challenge") {
    action = {type: "challenge", player: who, target: $("build-target").value, claim: $("build-claim").value};
  } else if (question === "penalty") {
    action = {type: "penalty", player: who, infraction: $("build-infraction").value};
  } else if (question === "take") {
    action = {type: "turn", actions: [{type: "draw", source: "discard"},
                                      {type: "meld", melds: [newMeld([...builder.discard, ...builder.play])]}]};
  } else if (question === "meld") {
    action = {type: "meld", melds: [newMeld(builder.play.slice())]};
  } else {
    action = {type: "build", meld: $("build-onto").value, cards: builder.play.slice()};
    if ($("build-end").value) action.end = $("build-end").value;
  }
  return {variant: page.variant, state: completePosition(layout, params), action};
}

// Where a problem of the request is shown: {box, field, area, index} from its JSON pointer.
function buildPlace(pointer) {
  const question = $("build-question").value;
  let m;
  if ((m = /^\/state\/players\/0\/hand\/(\d+)/.exec(pointer))) {
    const i = Number(m[1]);
    return i < builder.hand.length ? {area: "hand", index: i} : {area: "play", index: i - builder.hand.length};
  }
  if (pointer === "/state/players/0/hand") return {area: "hand", index: null};
  if (pointer === "/state/players/0/opened") return {box: "build-question-problems", field: $("build-opened"), label: "whether you have opened"};
  if (pointer === "/state/players") return {box: "build-question-problems", field: $("build-players"), label: "the players at the table"};
  if (pointer === "/state/players/0/hidden") return {box: "build-question-problems", field: $("build-mine-hidden"), label: "the cards of yours not laid out"};
  if (/^\/state\/players\/\d+\/hidden$/.test(pointer) || pointer === "/state/stock_hidden") {
    return {box: "build-question-problems", field: $("build-others"), label: "the cards in the other hands"};
  }
  if ((m = /^\/state\/discard\/0/.exec(pointer))) return {area: "discard", index: 0};
  if ((m = /^\/state\/melds\/(\d+)(\/cards\/(\d+))?/.exec(pointer)) && builder.melds[Number(m[1])]) {
    return {area: builder.melds[Number(m[1])].id, index: m[3] === undefined ? null : Number(m[3])};
  }
  if (question === "take" && (m = /^\/action\/actions\/1\/melds\/0\/cards\/(\d+)/.exec(pointer))) {
    const i = Number(m[1]);
    return i < builder.discard.length ? {area: "discard", index: i} : {area: "play", index: i - builder.discard.length};
  }
  if ((m = /^\/action(?:\/melds\/0)?\/(?:cards|naturals)\/(\d+)/.exec(pointer))) return {area: "play", index: Number(m[1])};
  if (pointer === "/action/card") return {area: "play", index: 0};
  if (/^\/action\/(player|caller)$/.test(pointer)) return {box: "build-question-problems", field: $("build-who"), label: "the player"};
  if (pointer === "/state/hand_number") return {box: "build-question-problems", field: $("build-hand-number"), label: "the hand of the game"};
  if (pointer.startsWith("/action/meld")) return {box: "build-onto-problems", field: $("build-onto"), label: "the meld to add to"};
  if (pointer === "/variant") return {box: "variant-problems", field: $("variant"), label: "the variant"};
  return {box: "build-problems", field: null, label: ordinalPath(pointer)};
}

function areaBox(area) { return BUILD_AREAS[area] ? `build-${area}-problems` : `build-meld-${area}-problems`; }

// The problems (the API's, or the page's own in the same shape) each beside the field it is about.
function showBuildProblems(problem, state = null) {
  const errors = (problem && problem.errors && problem.errors.length) ? problem.errors
               : [{pointer: "", detail: (problem && problem.detail) || "the referee refused this"}];
  const groups = new Map();
  for (const e of errors) {
    const place = e.place || buildPlace(e.pointer || "");
    const box = place.area ? areaBox(place.area) : place.box;
    if (!groups.has(box)) groups.set(box, {place, errors: []});
    groups.get(box).errors.push(e);
    if (place.area && place.index !== null && place.index !== undefined) {
      const card = document.querySelector(`[data-area-cards='${place.area}'] .card-button[data-index='${place.index}']`);
      if (card) card.classList.add("has-problem");
    }
  }
  for (const [box, {place, errors: list}] of groups) {
    const where = pointer => {
      const at = pointer ? buildPlace(pointer) : place;
      if (!at.area) return at.label;
      const cards = targetCards(at.area) || [];
      return at.index === null || at.index === undefined || cards[at.index] === undefined
        ? targetName(at.area) : `${Cards.name(cards[at.index])} in ${targetName(at.area)}`;
    };
    showProblems(box, place.area ? null : place.field, {title: problem && problem.title, errors: list}, where, state);
  }
}

function clearBuildProblems() {
  const boxes = ["build-problems", "build-question-problems", "build-onto-problems",
                 ...Object.keys(BUILD_AREAS).map(areaBox), ...builder.melds.map(m => areaBox(m.id))];
  for (const box of boxes) if ($(box)) clearProblems(box);
  for (const field of [$("build-opened"), $("build-players"), $("build-others"), $("build-mine-hidden"), $("build-onto")]) {
    field.removeAttribute("aria-invalid");
  }
}

// What must be laid out before the question can be asked, as problems in the API's shape.
function missingLayout() {
  const question = $("build-question").value;
  const errors = [];
  if (PLAY_QUESTIONS.has(question) && !builder.play.length) {
    errors.push({place: {area: "play", index: null}, detail: "click the cards you want to play, with \u201cthe cards you want to play\u201d chosen"});
  }
  if (["take", "draw", "call", "allow"].includes(question) && !builder.discard.length) {
    errors.push({place: {area: "discard", index: null},
                 detail: "click the card on top of the discard pile, with \u201cthe top of the discard pile\u201d chosen"});
  }
  if (ONTO_QUESTIONS.has(question) && !builder.melds.length) {
    errors.push({place: {box: "build-onto-problems", field: $("build-onto"), label: "the meld to add to"},
                 detail: "put the meld you want to add to on the table first"});
  }
  return errors;
}

// -- asking ---------------------------------------------------------------------------------------

// A table meld holding a joker that could stand for more than one card cannot be set out; the meld
// check lists its readings, offered beside the meld.  True when every meld can be sent.
async function readTableJokers() {
  let ok = true;
  for (const m of builder.melds) {
    if (!m.cards.some(c => c === "JK")) continue;
    const body = {variant: page.variant, cards: m.cards, declarations: {kind: meldKind(m)}};
    const r = await call("POST", "/v1/melds/check", body);
    if (!r.ok || !r.body.ambiguous) continue;  // the state check says what is wrong, if anything
    ok = false;
    $(areaBox(m.id)).replaceChildren(
      h("p", {class: "problem-title"}, `The joker in ${meldName(m)} could stand for more than one card: which did you mean?`),
      h("ul", {class: "readings"}, r.body.readings.map(reading => h("li", {},
        h("button", {type: "button", class: "reading", onclick: () => {
          m.cards = reading.cards.slice(); m.kind = reading.kind; renderBuilder(); }},
          `It is a ${reading.kind}: ${Cards.names(reading.cards)}`)))));
  }
  return ok;
}

async function askReferee() {
  clearBuildProblems();
  $("build-answer").replaceChildren();
  builder.request = null;
  const missing = missingLayout();
  if (missing.length) {
    showBuildProblems({title: "Something is missing", errors: missing});
    return;
  }
  if (!variantParameters(page.variant) || !(await readTableJokers())) return;
  const body = buildRequest();
  const r = await call("POST", "/v1/adjudicate", body);
  if (!r.ok) {
    renderBuilder();
    showBuildProblems(r.body, body.state);
    return;
  }
  builder.request = body;
  const res = await rulesResources(body.variant);
  const verdict = r.body;
  const under = `under ${variantName(body.variant)}`;
  const [kind, word] = verdict.legal === null ? ["undetermined", "The referee cannot tell from the cards shown."]
                      : verdict.legal ? ["legal", yesWord(body.action)] : ["illegal", noWord(body.action)];
  const box = h("div", {class: `verdict ${kind}`},
    h("h3", {}, $("build-question").selectedOptions[0].textContent),
    h("p", {class: "verdict-word"}, h("strong", {}, word), ` (${under})`));
  if (verdict.legal) {
    if ((verdict.events || []).length) box.append(h("p", {}, "What happens: " + verdict.events.map(describeEvent).join("; ") + "."));
  } else if (verdict.legal === false) {
    box.append(h("div", {class: "violations"}, violationBlocks(verdict.violations, res)));
  }
  if ((verdict.undetermined || []).length) box.append(undeterminedBlock(verdict.undetermined, res, body.state, verdict.legal === false));
  if (verdict.settlement) box.append(settlementBlock(verdict.settlement, body.state));
  box.append(tableNow(verdict.settlement ? "The hand is over. Settle the figures the table shows now; show the referee the cards it names (or count them at the table) for the rest."
    : verdict.legal ? "The move stands; play goes on."
    : verdict.legal === false ? "The move does not stand: the cards go back where they were and you play as the rules allow."
    : UNDECIDED_NOW));
  box.append(h("div", {class: "controls"},
    signButton(() => body),
    h("button", {type: "button", onclick: () => openInViewer(body)}, "Show the whole position in the game viewer")));
  $("build-answer").replaceChildren(box);
}

// The answer's first words, about whoever the question is about.
function yesWord(action) {
  if (action.type === "call") return `Yes, ${action.player} may.`;
  if (action.type === "penalty") return `Yes, the penalty stands against ${action.player}.`;
  if (action.type === "challenge") return `Yes, ${action.player} may challenge ${action.target}.`;
  return "Yes, you may.";
}

function noWord(action) {
  if (action.type === "call") return `No, ${action.player} may not.`;
  if (action.type === "penalty") return `No, that costs ${action.player} no penalty here.`;
  if (action.type === "challenge") return `No, ${action.player} may not challenge ${action.target} here.`;
  return "No, you may not.";
}

function openInViewer(body) {
  $("log-text").value = JSON.stringify(body, null, 1);
  runLog($("log-text").value).then(() => $("log").scrollIntoView());
}

// -- drawing the layout ----------------------------------------------------------------------------

function cardButtons(target) {
  const cards = targetCards(target);
  if (!cards.length) return [h("p", {class: "empty"}, "No card chosen yet.")];
  return cards.map((code, i) => cardButton(code, `Take ${Cards.name(code)} out of ${targetName(target)}`, {"data-index": i},
                                           () => { cards.splice(i, 1); renderBuilder(); }));
}

// A tapped card goes to the chosen destination; the tray under the picker shows that destination's
// cards at once (the new one marked), so the card's place is in sight on a phone, and the focus stays
// on the picker for the next card.
function place(code, button) {
  const cards = targetCards(builder.target);
  if (!cards) return;
  if (builder.target === "discard") cards.splice(0, cards.length, code);  // one card: the top
  else cards.push(code);
  renderBuilder();
  renderTray(cards.lastIndexOf(code));
  $("build-placed").textContent = `Put ${Cards.name(code)} in ${targetName(builder.target)}: ${plural(cards.length, "card")} there now.`;
  flashPlaced(button);
}

function renderTray(newest) {
  const cards = targetCards(builder.target) || [];
  const row = cards.length ? Cards.row(cards) : h("p", {class: "empty"}, "No card there yet.");
  if (newest !== undefined && newest >= 0 && row.children[newest]) flashPlaced(row.children[newest]);
  $("build-tray").replaceChildren(
    h("p", {}, "A tapped card goes to ", h("strong", {}, targetName(builder.target)),
      ` (${plural(cards.length, "card")} there now; choose another place above).`),
    row);
}

function renderPaletteFor() {
  const into = targetName(builder.target);
  cardPicker($("build-palette"), code => `Put ${Cards.name(code)} in ${into}`, (code, button) => place(code, button));
}

function renderTargets() {
  const targets = [...Object.keys(BUILD_AREAS), ...builder.melds.map(m => m.id)];
  if (!targets.includes(builder.target)) builder.target = "play";
  $("build-target-list").replaceChildren(...targets.map(t => h("span", {class: "target"},
    h("input", {type: "radio", name: "build-target", id: `build-target-${t}`, value: t, checked: t === builder.target,
                onchange: () => { builder.target = t; renderBuilder(); }}),
    h("label", {for: `build-target-${t}`}, targetName(t)))));
}

function renderTable() {
  $("build-table").replaceChildren(...(builder.melds.length ? builder.melds.map(m => h("figure", {class: "build-meld", "data-meld": m.id},
    h("figcaption", {}, `Meld ${m.id}`),
    h("div", {class: "card-row meld-row", "data-area-cards": m.id, "aria-label": `The cards of ${meldName(m)}`,
              "aria-describedby": areaBox(m.id)}, cardButtons(m.id)),
    h("div", {class: "controls"},
      h("label", {for: `build-meld-${m.id}-kind`}, "It is"),
      h("select", {id: `build-meld-${m.id}-kind`, onchange: e => { m.kind = e.target.value; }},
        [["", "a set or a run, as its cards say"], ["set", "a set"], ["run", "a run (from its low end)"]].map(
          ([value, text]) => h("option", {value, selected: m.kind === value}, text))),
      h("label", {for: `build-meld-${m.id}-owner`}, "laid by"),
      h("select", {id: `build-meld-${m.id}-owner`, onchange: e => { m.owner = e.target.value; }},
        [["you", "you (Player 1)"], ...seatIds(Number($("build-players").value) || 2).slice(1).map(id => [id, id])].map(
          ([value, text]) => h("option", {value, selected: ownerOf(m, Number($("build-players").value) || 2) === (value === "you" ? YOU : value)}, text))),
      h("button", {type: "button", onclick: () => { builder.melds = builder.melds.filter(x => x !== m); renderBuilder(); }},
        `Take meld ${m.id} off the table`)),
    h("div", {id: areaBox(m.id), class: "problems", role: "alert"})))
    : [h("p", {class: "empty"}, "No meld on the table.")]));
  const onto = $("build-onto");
  const chosen = onto.value;
  onto.replaceChildren(...builder.melds.map(m => h("option", {value: m.id, selected: m.id === chosen},
    `meld ${m.id}${m.cards.length ? ": " + Cards.names(m.cards) : ""}`)));
}

function renderBuilder() {
  renderTargets();
  renderPaletteFor();
  renderTray();
  for (const area of Object.keys(BUILD_AREAS)) {
    const row = $(`build-${area}`);
    row.dataset.areaCards = area;
    row.replaceChildren(...cardButtons(area));
  }
  renderTable();
  const question = $("build-question").value;
  $("build-onto-controls").hidden = !ONTO_QUESTIONS.has(question);
  $("build-end").hidden = $("build-end").previousElementSibling.hidden = question !== "build";
  $("build-kind-controls").hidden = !["take", "meld"].includes(question);
  $("build-who-controls").hidden = !WHO_QUESTIONS.has(question);
  $("build-infraction").hidden = $("build-infraction-label").hidden = question !== "penalty";
  $("build-challenge-controls").hidden = question !== "challenge";
  renderWho();
  $("build-play-help").textContent = {
    take: "The cards from your hand that go with the top discard into the new meld.",
    meld: "The cards from your hand that make the new meld, in order (a run from its low end).",
    build: "The cards from your hand you add to the meld, in order.",
    draw: "Nothing to play: the question is the top discard. Cards put here count as your hand.",
    discard: "The card you want to throw (the first one here); the rest of your hand below.",
    swap: "The natural cards from your hand you offer for the joker.",
    call: "Nothing to play: another player calls the top discard. Cards put here count as your hand.",
    allow: "Nothing to play: you allow the call. Cards put here count as your hand.",
    penalty: "Nothing to play: the table reports an infraction. Cards put here count as your hand.",
    moveup: "The card the joker stands for in your run (the first one here); the joker goes on at the run's high end.",
    challenge: "Nothing to play: a player challenges another. Cards put here count as your hand.",
  }[question];
}

// The player a call, an allow or a penalty is about: the others (calls and allows), anyone (penalties).
function renderWho() {
  const question = $("build-question").value;
  const ids = seatIds(Number($("build-players").value) || 2);
  const choices = question === "penalty" || question === "challenge" ? ids : ids.slice(1);
  const options = (select, list) => {
    const chosen = select.value;
    select.replaceChildren(...list.map(id => h("option", {value: id, selected: id === chosen}, id === YOU ? "you (Player 1)" : id)));
  };
  options($("build-who"), choices);
  options($("build-target"), ids);
}

function renderHandNumbers(params) {
  const hands = contractHands(params);
  $("build-hand-number-controls").hidden = !hands;
  if (!hands) return;
  const select = $("build-hand-number");
  const chosen = select.value || Object.keys(hands)[0];
  select.replaceChildren(...Object.keys(hands).map(n => h("option", {value: n, selected: n === chosen}, `hand ${n}`)));
  if (!hands[select.value]) select.value = Object.keys(hands)[0];
  const row = hands[select.value];
  $("build-contract").textContent = `${plural(row.cards, "card")} dealt; the contract is ${contractOf(row)}.`;
}

function renderPlayers(id) {
  const params = variantParameters(id);
  if (!params) return;
  const select = $("build-players");
  const current = Number(select.value) || 4;
  const counts = [];
  for (let n = params.players.min; n <= params.players.max; n++) counts.push(n);
  const chosen = Math.min(Math.max(current, params.players.min), params.players.max);
  select.replaceChildren(...counts.map(n => h("option", {value: n, selected: n === chosen}, String(n))));
  renderHandNumbers(params);
  renderBuilder();
}

document.addEventListener("variant-chosen", e => renderPlayers(e.detail));
document.addEventListener("DOMContentLoaded", () => {
  $("build-question").addEventListener("change", renderBuilder);
  $("build-players").addEventListener("change", renderBuilder);
  $("build-hand-number").addEventListener("change", () => renderHandNumbers(variantParameters(page.variant)));
  $("build-add-meld").addEventListener("click", () => {
    const m = {id: `m${builder.nextMeld++}`, cards: [], kind: "", owner: "Player 2"};
    builder.melds.push(m);
    builder.target = m.id;
    renderBuilder();
  });
  $("build-ask").addEventListener("click", askReferee);
  $("build-clear").addEventListener("click", () => {
    Object.assign(builder, {play: [], hand: [], discard: [], melds: [], target: "play", nextMeld: 1, request: null});
    clearBuildProblems();
    $("build-answer").replaceChildren();
    renderBuilder();
  });
  renderBuilder();
});
