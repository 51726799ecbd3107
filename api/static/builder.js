// Set out a position by hand and ask about one move: the player lays out only what the dispute is
// about (their hand, the table's melds, the top discard), the page completes it into a whole position
// the API accepts and asks /v1/adjudicate.  Uses page.js (h, $, call, the citations) and cards.js.
import {Cards} from "./cards.js";
import {chooseVariant, decodeShare, encodeShare, renderPosition, checkMeld, $, h, plural, ordinalPath, call, rulesResources, undeterminedBlock, clearProblems, showProblems, page, variantName, runLog, describeEvent, UNDECIDED_NOW, tableNow, violationBlocks, settlementBlock, contractOf, cardPicker, flashPlaced, cardButton} from "./page.js";
import {signButton} from "./rulings.js";
import {completePosition, contractHands, dealtEach, meldKind as kindOf, parseNames, questionRules, seatCounts, seatIds, seatOf, tableOf} from "./position.js";
import {askerOf, firstWords, meldWords, moveWords, readingWords, tableNowWords, withReading} from "./answers.js";
import {namesInText} from "./cardwords.js";
import {askFragment} from "./fragment.js";

export const BUILD_AREAS = {play: "the cards you want to play", hand: "the rest of your hand", discard: "the top of the discard pile",
                     addto: "the cards you add to a meld on the table", jokerwith: "the cards you lay with the joker"};
const ORDINALS = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth"];
export const builder = {play: [], hand: [], discard: [], addto: [], jokerwith: [], melds: [], extra: [], target: "play", nextMeld: 1, request: null};

// A meld on the table by its cards ("the run of the seven of hearts, ..."), or by its place while empty.
// (its place on the table while it is set out; by its cards in answers).
export function meldName(m) { return `the ${ORDINALS[builder.melds.indexOf(m)] || "next"} meld on the table`; }

// A meld on the table in few words, for a narrow list: "Player 2's run: 7\u2665 Joker 9\u2665".
function shortMeld(m, owner, you) {
  const card = code => {
    const c = Cards.parse(code);
    return !c || c.joker ? "Joker" : c.rank + Cards.SUITS[c.suit].symbol;
  };
  return `${owner === you ? "your" : `${owner}'s`} ${meldKind(m)}: ${m.cards.map(card).join(" ")}`;
}

// Your new melds after the first (questions that lay several at once): targets "extra0", "extra1"...
function extraIndex(target) { const m = /^extra(\d+)$/.exec(target); return m ? Number(m[1]) : null; }
function extraName(i) { return `your ${ORDINALS[i + 1] || "next"} new meld`; }
const LAYS = new Set(["take", "meld", "meldall", "forgot"]);
const THROWS = new Set(["draw", "discard", "upcard"]);  // questions whose one played card is thrown

export function targetName(target) {
  if (extraIndex(target) !== null) return extraName(extraIndex(target));
  if (target === "play" && LAYS.has($("build-question").value) && builder.extra.length) return "your first new meld";
  if (target === "play" && THROWS.has($("build-question").value)) return "the card you throw";
  if (target === "play" && $("build-question").value === "swap") return "the cards you offer for the joker";
  if (target === "play" && $("build-question").value === "moveup") return "the card the joker stands for";
  if (BUILD_AREAS[target]) return BUILD_AREAS[target];
  const m = builder.melds.find(x => x.id === target);
  return m ? meldName(m) : target;
}

export function targetCards(target) {
  if (extraIndex(target) !== null) return builder.extra[extraIndex(target)] || null;
  if (BUILD_AREAS[target]) return builder[target];
  const m = builder.melds.find(x => x.id === target);
  return m ? m.cards : null;
}

// A table meld's kind as chosen, else what its cards say (position.js).
export function meldKind(m) { return kindOf(m, Cards.parse); }

// A count typed into the page, or null when the field is empty (the count is then worked out).
function typedCount(id) {
  const text = $(id).value.trim();
  return text === "" ? null : Number(text);
}

// The questions asked before the player to act has drawn; those that play cards from the hand; those
// about a meld on the table; those about another player.
const DRAW_QUESTIONS = new Set(["take", "draw", "call", "allow", "penalty", "challenge", "upcard"]);
const PLAY_QUESTIONS = new Set(["check", "take", "meld", "meldall", "forgot", "build", "discard", "swap", "moveup", "upcard"]);
// questions where the cards set out are all the player holds
const WHOLE_HAND = new Set(["meldall", "forgot"]);
const ONTO_QUESTIONS = new Set(["build", "swap", "moveup"]);
// questions that lay new melds and may add cards to melds on the table as well
const ADDS_TOO = new Set(["meld", "meldall", "forgot"]);
const WHO_QUESTIONS = new Set(["call", "allow", "penalty", "challenge"]);

// The seats at the table, by the names typed for them (else "Player 1", "Player 2"...).
export function tableIds() {
  return seatIds(Number($("build-players").value) || 2, parseNames($("build-names").value));
}

// A table meld's owner, by its seat's key: "you", or "Player k" for a seat still at the table (else the
// second seat's).
export function ownerKey(m, players) {
  if (m.owner === "you") return "Player 1";
  const seat = /^Player (\d+)$/.exec(m.owner);
  return seat && Number(seat[1]) <= players ? m.owner : "Player 2";
}

export function variantOf(id) {
  return page.variants.find(x => x.id === id) || null;
}

export function variantParameters(id) {
  const v = variantOf(id);
  return v ? v.parameters : null;
}

// The request for the question asked, with the map from each place a problem can point at (a JSON
// pointer of the request) back to the card laid out there.
export function buildLayout() {
  const question = $("build-question").value;
  const extra = LAYS.has(question) ? [...builder.extra.flat(), ...builder.addto] : question === "swap" ? builder.jokerwith : [];
  const hand = [...builder.hand, ...builder.play, ...extra];
  const players = Number($("build-players").value);
  const variant = variantOf(page.variant);
  const handNumber = contractHands(variant.parameters) ? Number($("build-hand-number").value) : null;
  const ids = tableIds();
  const who = seatOf($("build-who").value, ids);
  const upcard = question === "upcard";
  return {players, names: parseNames($("build-names").value), opened: $("build-opened").checked, hand, handNumber,
          dealt: dealtEach(variant, players, handNumber), pack: tableOf(variant, players).pack,
          others: typedCount("build-others"),
          mineHidden: WHOLE_HAND.has(question) ? 0 : typedCount("build-mine-hidden"),
          barred: question === "forgot",
          dealer: upcard ? ids[0] : seatOf($("build-dealer").value, ids), firstPlay: upcard, dealerOption: upcard,
          discard: builder.discard.slice(), phase: DRAW_QUESTIONS.has(question) ? "draw" : "play",
          drawn: hand[0], calls: question === "allow" ? [who] : [],
          callsMade: question === "challenge" ? {[seatOf($("build-target").value, ids)]: typedCount("build-target-calls") || 0} : {},
          melds: builder.melds.map(m => ({id: m.id, owner: seatOf(ownerKey(m, players), ids), kind: meldKind(m), cards: m.cards}))};
}

// The request for the question asked.
export function buildRequest() {
  const question = $("build-question").value;
  const kind = $("build-kind").value;
  const ids = tableIds();
  const who = seatOf($("build-who").value, ids);
  const params = variantParameters(page.variant);
  const layout = buildLayout();
  const newMeld = cards => kind ? {cards, kind} : {cards};
  const lays = [builder.play, ...builder.extra].filter(cards => cards.length).map(cards => newMeld(cards.slice()));
  const adds = () => {
    const onto = $("build-onto").value;
    return builder.addto.length && onto ? [{meld: onto, cards: builder.addto.slice()}] : [];
  };
  let action;
  if (question === "draw") {
    // taking the discard, keeping it and throwing another card (or, with no card to throw, the draw alone)
    action = builder.play.length ? {type: "turn", actions: [{type: "draw", source: "discard"}, {type: "discard", card: builder.play[0]}]}
                                 : {type: "draw", source: "discard"};
  } else if (question === "discard") {
    action = {type: "discard", card: builder.play[0]};
  } else if (question === "upcard") {
    action = {type: "turn", actions: [{type: "draw", source: "discard"}, {type: "discard", card: builder.play[0]}]};
  } else if (question === "swap") {
    action = {type: "swap_joker", meld: $("build-onto").value, naturals: builder.play.slice()};
    if (builder.jokerwith.length) action.place = {type: "meld", melds: [{cards: [...builder.jokerwith, "JK"]}]};
  } else if (question === "call") {
    action = {type: "call", player: who};
  } else if (question === "allow") {
    action = {type: "allow", caller: who};
  } else if (question === "moveup") {
    action = {type: "swap_joker", meld: $("build-onto").value, naturals: builder.play.slice(0, 1),
              place: {type: "build", meld: $("build-onto").value, cards: ["JK"], end: "high"}};
  } else if (question === "challenge") {
    action = {type: "challenge", player: who, target: seatOf($("build-target").value, ids), claim: $("build-claim").value};
  } else if (question === "penalty") {
    action = {type: "penalty", player: who, infraction: $("build-infraction").value};
  } else if (question === "take") {
    const [first, ...rest] = lays.length ? lays : [newMeld([])];
    action = {type: "turn", actions: [{type: "draw", source: "discard"},
                                      {type: "meld", melds: [{...first, cards: [...builder.discard, ...first.cards]}, ...rest]}]};
  } else if (ADDS_TOO.has(question)) {
    const builds = adds();
    action = {type: "meld", melds: lays};
    if (builds.length) action.builds = builds;
    // lay-offs alone, with no meld of one's own: a build
    if (!lays.length && builds.length === 1) action = {type: "build", ...builds[0]};
    if (question === "forgot") {
      const throwing = builder.hand[builder.hand.length - 1];
      action = {type: "turn", actions: [...(lays.length || builds.length ? [action] : []), {type: "discard", card: throwing}]};
    }
  } else {
    action = {type: "build", meld: $("build-onto").value, cards: builder.play.slice()};
    if ($("build-end").value) action.end = $("build-end").value;
  }
  const rules = questionRules(layout, params);
  return {variant: page.variant, ...(rules ? {rules} : {}), state: completePosition(layout, params), action};
}

// Where a problem of the request is shown: {box, field, area, index} from its JSON pointer.
export function buildPlace(pointer) {
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
  if ((m = /^\/action(?:\/actions\/\d+)?\/melds\/([1-9]\d*)(?:\/cards\/(\d+))?/.exec(pointer))) {
    return {area: `extra${Number(m[1]) - 1}`, index: m[2] === undefined ? null : Number(m[2])};
  }
  if ((m = /^\/action\/place\/melds\/0\/cards\/(\d+)/.exec(pointer))) {
    return {area: "jokerwith", index: Number(m[1]) < builder.jokerwith.length ? Number(m[1]) : null};
  }
  if ((m = /^\/action(?:\/actions\/\d+)?\/builds\/0(?:\/cards\/(\d+))?/.exec(pointer))) {
    return {area: "addto", index: m[1] === undefined ? null : Number(m[1])};
  }
  if (question === "take" && (m = /^\/action\/actions\/1\/melds\/0\/cards\/(\d+)/.exec(pointer))) {
    const i = Number(m[1]);
    return i < builder.discard.length ? {area: "discard", index: i} : {area: "play", index: i - builder.discard.length};
  }
  if ((m = /^\/action(?:\/actions\/0)?(?:\/melds\/0)?\/(?:cards|naturals)\/(\d+)/.exec(pointer))) return {area: "play", index: Number(m[1])};
  if (pointer === "/action/card") return {area: "play", index: 0};
  if (/^\/action\/(player|caller)$/.test(pointer)) return {box: "build-question-problems", field: $("build-who"), label: "the player"};
  if (pointer === "/state/hand_number") return {box: "build-question-problems", field: $("build-hand-number"), label: "the hand of the game"};
  if (pointer.startsWith("/action/meld")) return {box: "build-onto-problems", field: $("build-onto"), label: "the meld to add to"};
  if (pointer === "/variant") return {box: "variant-problems", field: $("variant"), label: "the variant"};
  return {box: "build-problems", field: null, label: ordinalPath(pointer)};
}

export function areaBox(area) { return BUILD_AREAS[area] ? `build-${area}-problems` : `build-meld-${area}-problems`; }

// The problems (the API's, or the page's own in the same shape) each beside the field it is about.
export function showBuildProblems(problem, state = null) {
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

export function clearBuildProblems() {
  const boxes = ["build-problems", "build-question-problems", "build-onto-problems",
                 ...Object.keys(BUILD_AREAS).map(areaBox), ...builder.melds.map(m => areaBox(m.id))];
  for (const box of boxes) if ($(box)) clearProblems(box);
  for (const field of [$("build-opened"), $("build-players"), $("build-others"), $("build-mine-hidden"), $("build-onto")]) {
    field.removeAttribute("aria-invalid");
  }
}

// What must be laid out before the question can be asked, as problems in the API's shape.
export function missingLayout() {
  const question = $("build-question").value;
  const errors = [];
  const laying = ADDS_TOO.has(question) && (builder.addto.length || builder.extra.some(cards => cards.length));
  if (PLAY_QUESTIONS.has(question) && !builder.play.length && !laying) {
    const area = targetName("play");
    errors.push({place: {area: "play", index: null}, detail: `click ${area}, with \u201c${area}\u201d chosen`});
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
export async function readTableJokers() {
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

export async function askReferee() {
  clearBuildProblems();
  const missing = missingLayout();
  if (missing.length) {  // (the answer on screen, a shared one too, stays until a question can be asked)
    showBuildProblems({title: "Something is missing", errors: missing});
    const first = document.querySelector("#build .problems:not(:empty)");
    if (first) first.scrollIntoView({block: "center"});
    return;
  }
  $("build-answer").replaceChildren();
  builder.request = null;
  if (!variantParameters(page.variant)) return;
  if ($("build-question").value === "check") {  // the meld alone: /v1/melds/check
    const box = h("div", {id: "build-verdict", class: "verdict", tabindex: "-1"});
    $("build-answer").replaceChildren(box);
    await checkMeld(builder.play, $("build-kind").value, box, {
      problems: "build-play-problems", kindField: $("build-kind"),
      choose: reading => { builder.play = reading.cards.slice(); $("build-kind").value = reading.kind; renderBuilder(); askReferee(); }});
    box.prepend(h("h3", {}, $("build-question").selectedOptions[0].textContent));
    box.scrollIntoView({block: "start"});
    return;
  }
  if (!(await readTableJokers())) return;
  const body = buildRequest();
  const r = await call("POST", "/v1/adjudicate", body);
  if (!r.ok) {
    renderBuilder();
    showBuildProblems(r.body, body.state);
    return;
  }
  builder.request = body;
  await showVerdict(body, r.body, $("build-question").selectedOptions[0].textContent, $("build-question").value);
}

// The answer in words: the question, yes or no and why, what happens, what the table does now; then
// the controls to sign it, share it, or see the whole position.
async function showVerdict(body, verdict, question, kind) {
  const res = await rulesResources(body.variant);
  const params = variantParameters(body.variant);
  const word = verdict.legal === null ? "undetermined" : verdict.legal ? "legal" : "illegal";
  const melds = new Map(body.state.melds.map(m => [m.id, m]));
  const box = h("div", {class: `verdict ${word}`, id: "build-verdict", tabindex: "-1"},
    h("h3", {}, question),
    h("p", {class: "verdict-word"}, h("strong", {}, firstWords(body.action, verdict.legal, verdict.events, askerOf(body.state))),
      ` (${variantName(body.variant)})`));
  if (verdict.legal) {
    if ((verdict.events || []).length) {
      box.append(h("p", {class: "what-happens"}, "What happens: " + verdict.events.map(e => eventWords(e, melds, askerOf(body.state))).join("; ") + "."));
    }
  } else if (verdict.legal === false) {
    box.append(h("div", {class: "violations"}, violationBlocks(verdict.violations, res, askerOf(body.state))));
    const choices = readingChoices(body, verdict, question, kind);
    if (choices) box.append(choices);
  }
  if ((verdict.undetermined || []).length) box.append(undeterminedBlock(verdict.undetermined, res, body.state, verdict.legal === false));
  if (verdict.settlement) box.append(settlementBlock(verdict.settlement, body.state));
  box.append(tableNow(tableNowWords(body.action, verdict, params || {}, body.state.discard, body.state)));
  box.append(h("div", {class: "controls"},
    h("button", {type: "button", onclick: e => shareAsked(body, kind, e.currentTarget)}, "Share this question"),
    signButton(() => body),
    h("button", {type: "button", onclick: () => openInViewer(body)}, "Show the whole position in the game viewer")));
  $("build-answer").replaceChildren(box);
  box.scrollIntoView({block: "start"});
  box.focus({preventScroll: true});
  return box;
}

// A meld of the move whose jokers can stand for more than one card: a button for each reading the
// referee found, asking the same question again with the jokers declared that way.
function readingChoices(body, verdict, question, kind) {
  const v = (verdict.violations || []).find(x => x.ambiguous && (x.readings || []).length);
  if (!v) return null;
  const buttons = v.readings.map(reading => {
    const action = withReading(body.action, reading);
    return action && h("button", {type: "button", onclick: () => askAgain({...body, action}, question, kind)},
                       `Ask again with ${readingWords(reading)}`);
  }).filter(Boolean);
  if (!buttons.length) return null;
  return h("div", {class: "readings"}, h("p", {}, "Say which card the joker stands for, and ask again:"),
           h("div", {class: "controls"}, ...buttons));
}

async function askAgain(body, question, kind) {
  const r = await call("POST", "/v1/adjudicate", body);
  if (!r.ok) {
    showBuildProblems(r.body, body.state);
    return;
  }
  builder.request = body;
  await showVerdict(body, r.body, question, kind);
}

// The question as a link (the position, the question and its kind travel whole in the fragment: the
// referee keeps nothing), shown under the answer with the QR code of the position.
async function shareAsked(body, kind, button) {
  const link = `${location.origin}${location.pathname}${askFragment(await encodeShare({question: kind, request: body}))}`;
  const old = $("build-share");
  if (old) old.remove();
  const panel = h("div", {id: "build-share", class: "share-asked"},
    h("p", {}, "Send this link: it opens this question, its position and its answer on another phone."),
    h("p", {class: "share-url-text", id: "build-share-link"}, link),
    h("button", {type: "button", onclick: () => navigator.clipboard && navigator.clipboard.writeText(link).catch(() => {})}, "Copy the link"));
  const r = await call("POST", "/v1/notation", {variant: body.variant, state: body.state});
  if (r.ok) {
    panel.append(h("details", {class: "share-details"}, h("summary", {}, "The position as text, and its QR code"),
      h("p", {}, "Scanning the code opens the position (without the question) on a phone; the text opens it pasted into the game log box."),
      h("p", {class: "share-url-text"}, r.body.notation),
      h("img", {class: "share-qr", width: "200", height: "200", alt: "QR code of a link to this position",
                src: `/v1/notation/qr.svg?notation=${encodeURIComponent(r.body.notation)}`})));
  }
  button.closest(".controls").after(panel);
  $("build-share-link").focus && panel.scrollIntoView({block: "nearest"});
}

// A shared question opened from its link: the variant chosen, the question asked again, the answer in
// words first, then the whole position.
export async function openAsked(code) {
  let shared;
  try {
    shared = await decodeShare(code);
  } catch (err) {
    showBuildProblems({title: "This link does not hold a question", errors: [{place: {box: "build-problems", field: null, label: "the link"},
                                                                         detail: "it was cut short or changed"}]});
    return;
  }
  const body = shared.request;
  if (!body || !body.state || !body.action) return;
  if (page.variants.some(v => v.id === body.variant)) await chooseVariant(body.variant);
  const option = [...$("build-question").options].find(o => o.value === shared.question);
  if (option) $("build-question").value = option.value;
  const r = await call("POST", "/v1/adjudicate", body);
  if (!r.ok) {
    showBuildProblems(r.body, body.state);
    return;
  }
  builder.request = body;
  const box = await showVerdict(body, r.body, option ? option.textContent : "The question shared with you", shared.question);
  box.insertBefore(h("p", {class: "shared-note"}, "Someone shared this question with you: the answer below is the referee's. "
    + "To ask a question of your own, choose it above and tap in your cards."), box.children[1] || null);
  box.append(h("details", {class: "shared-position"}, h("summary", {}, "The position it was asked in"),
    renderPosition(body.state)));
  box.scrollIntoView({block: "start"});
}

// An event of the answer in words, melds named by their cards and you as "you".
function eventWords(e, melds, you) {
  const words = describeEvent(e, [...melds.values()])
                  .replace(/\bmeld (\w+)\b/g, (whole, id) => melds.has(id) ? meldWords(melds.get(id)) : /^m\d+$/.test(id) ? "the meld" : whole)
                  .replace(/\bthe set (\w+) is complete/, (whole, id) => `${melds.has(id) ? meldWords(melds.get(id)) : "the set"} is complete`);
  const escaped = you.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return namesInText(words).replace(new RegExp(`(?<![\\w])${escaped}(?![\\w])`, "g"), "you");
}

// A question asked, and said so if the page itself fails in asking it (never a silent button).
async function guarded(ask) {
  try {
    await ask();
  } catch (err) {
    showBuildProblems({title: "The page could not ask this question",
                       errors: [{place: {box: "build-problems", field: null, label: "the page"},
                                 detail: `it stopped with an error (${err && err.message ? err.message : err}); reload the page and ask again`}]});
    const box = $("build-problems");
    if (box) box.scrollIntoView({block: "center"});
  }
}

// "What could I do here?": the moves the rules allow in the position set out (POST /v1/legal-actions),
// each in words.
export async function askWhatNow() {
  clearBuildProblems();
  const params = variantParameters(page.variant);
  if (!params) return;
  const layout = buildLayout();
  const state = completePosition(layout, params);
  const rules = questionRules(layout, params);
  const r = await call("POST", "/v1/legal-actions", {variant: page.variant, ...(rules ? {rules} : {}), state});
  if (!r.ok) {
    showBuildProblems(r.body, state);
    return;
  }
  const melds = new Map(state.melds.map(m => [m.id, m]));
  const list = r.body.actions || [];
  const box = h("div", {class: "verdict legal", id: "build-verdict", tabindex: "-1"},
    h("h3", {}, "What could I do here?"),
    h("p", {class: "verdict-word"}, list.length ? `The rules allow ${plural(list.length, "move")} here${r.body.truncated ? " (and perhaps more)" : ""}`
                                                  + (state.phase === "play" ? ", now that you have drawn:"
                                                     : state.dealer_option || state.first_play ? ", at the start of the hand:" : ", before you draw:")
                                                : "The rules allow no move here."),
    h("ul", {class: "legal-moves"}, list.map(a => h("li", {}, moveWords(a, melds, askerOf(state))))));
  $("build-answer").replaceChildren(box);
  box.scrollIntoView({block: "start"});
  box.focus({preventScroll: true});
}

export function openInViewer(body) {
  $("log-text").value = JSON.stringify(body, null, 1);
  runLog($("log-text").value).then(() => $("log").scrollIntoView());
}

// -- drawing the layout ----------------------------------------------------------------------------

export function cardButtons(target) {
  const cards = targetCards(target);
  if (!cards.length) return [h("p", {class: "empty"}, "No card chosen yet.")];
  return cards.map((code, i) => cardButton(code, `Take ${Cards.name(code)} out of ${targetName(target)}`, {"data-index": i},
                                           () => { cards.splice(i, 1); renderBuilder(); }));
}

// A tapped card goes to the chosen destination; the tray under the picker shows that destination's
// cards at once (the new one marked), so the card's place is in sight on a phone, and the focus stays
// on the picker for the next card.
export function place(code, button) {
  const cards = targetCards(builder.target);
  if (!cards) return;
  if (builder.target === "discard") cards.splice(0, cards.length, code);  // one card: the top
  else cards.push(code);
  renderBuilder();
  renderTray(cards.lastIndexOf(code));
  $("build-placed").textContent = `Put ${Cards.name(code)} in ${targetName(builder.target)}: ${plural(cards.length, "card")} there now.`;
  flashPlaced(button);
}

export function renderTray(newest) {
  const cards = targetCards(builder.target) || [];
  const row = cards.length ? Cards.row(cards) : h("p", {class: "empty"}, "No card there yet.");
  if (newest !== undefined && newest >= 0 && row.children[newest]) flashPlaced(row.children[newest]);
  $("build-tray").replaceChildren(
    h("p", {}, "A tapped card goes to ", h("strong", {}, targetName(builder.target)),
      ` (${plural(cards.length, "card")} there now; choose another place above).`),
    row);
}

export function renderPaletteFor() {
  const into = targetName(builder.target);
  cardPicker($("build-palette"), code => `Put ${Cards.name(code)} in ${into}`, (code, button) => place(code, button));
}

// The places a tapped card can go for the question asked.
function targetList(question) {
  const lays = LAYS.has(question);
  return ["play", ...(lays ? builder.extra.map((_, i) => `extra${i}`) : []),
          ...(ADDS_TOO.has(question) ? ["addto"] : []), ...(question === "swap" ? ["jokerwith"] : []),
          "hand", "discard", ...builder.melds.map(m => m.id)];
}

export function renderTargets() {
  const targets = targetList($("build-question").value);
  if (!targets.includes(builder.target)) builder.target = "play";
  $("build-target-list").replaceChildren(...targets.map(t => h("span", {class: "target"},
    h("input", {type: "radio", name: "build-target", id: `build-target-${t}`, value: t, checked: t === builder.target,
                onchange: () => { builder.target = t; renderBuilder(); }}),
    h("label", {for: `build-target-${t}`}, targetName(t)))));
}

// Your further new melds, each a row of cards with a button to take it away.
function renderExtras(question) {
  const shown = LAYS.has(question);
  $("build-add-new").hidden = !shown;
  $("build-extras").replaceChildren(...(shown ? builder.extra.map((cards, i) => h("div", {class: "build-area", "data-area": `extra${i}`},
    h("h3", {id: `build-extra${i}-heading`}, capitalised(extraName(i))),
    h("div", {class: "card-row meld-row", "data-area-cards": `extra${i}`, "aria-labelledby": `build-extra${i}-heading`,
              "aria-describedby": areaBox(`extra${i}`)}, cardButtons(`extra${i}`)),
    h("button", {type: "button", onclick: () => { builder.extra.splice(i, 1); renderBuilder(); }}, `Take away ${extraName(i)}`),
    h("div", {id: areaBox(`extra${i}`), class: "problems", role: "alert"}))) : []));
}

function capitalised(text) { return text.charAt(0).toUpperCase() + text.slice(1); }

// The counts the page works out, said under the count fields (their placeholders show them too).
function renderCounts() {
  const params = variantParameters(page.variant);
  if (!params || !$("build-players").value) return;
  const question = $("build-question").value;
  let counts, layout;
  try { layout = buildLayout(); counts = seatCounts(layout, params); } catch { return; }
  const [mine, other] = [counts[0], counts[1]];
  const laid = id => layout.melds.filter(m => m.owner === id).reduce((n, m) => n + m.cards.length, 0);
  $("build-others").placeholder = String(other.hidden);
  $("build-mine-hidden").placeholder = String(mine.hidden);
  $("build-mine-hidden").disabled = WHOLE_HAND.has(question);
  const yours = WHOLE_HAND.has(question) ? `you hold only the ${plural(mine.listed, "card")} you tapped in`
    : `you hold ${plural(mine.count, "card")} (${mine.listed} tapped in, ${mine.hidden} not)${mine.derived ? "" : ", as you said"}`;
  // each other player's count, from the deal less the cards of the melds that player laid (never another's)
  const others = counts.slice(1);
  const theirs = !other.derived ? `each other player holds ${plural(other.count, "card")}, as you said`
    : others.every(c => c.count === other.count && !laid(c.id)) ? `each other player holds ${plural(other.count, "card")}`
    : others.map(c => `${c.id} holds ${plural(c.count, "card")}${laid(c.id) ? `, not counting the ${plural(laid(c.id), "card")} of their own melds on the table` : ""}`).join(", ");
  $("build-counts").textContent = `Counted from the deal: ${yours}; ${theirs}. Type a number to correct a count.`;
}

export function renderTable() {
  $("build-table").replaceChildren(...(builder.melds.length ? builder.melds.map(m => h("figure", {class: "build-meld", "data-meld": m.id},
    h("figcaption", {}, capitalised(meldName(m))),
    h("div", {class: "card-row meld-row", "data-area-cards": m.id, "aria-label": `The cards of ${meldName(m)}`,
              "aria-describedby": areaBox(m.id)}, cardButtons(m.id)),
    h("div", {class: "controls"},
      h("label", {for: `build-meld-${m.id}-kind`}, "It is"),
      h("select", {id: `build-meld-${m.id}-kind`, onchange: e => { m.kind = e.target.value; }},
        [["", "a set or a run, as its cards say"], ["set", "a set"], ["run", "a run (from its low end)"]].map(
          ([value, text]) => h("option", {value, selected: m.kind === value}, text))),
      h("label", {for: `build-meld-${m.id}-owner`}, "laid by"),
      h("select", {id: `build-meld-${m.id}-owner`, onchange: e => { m.owner = e.target.value; }},
        tableIds().map((id, i) => [i ? `Player ${i + 1}` : "you", i ? id : `you (${id})`]).map(
          ([value, text]) => h("option", {value, selected: ownerKey(m, Number($("build-players").value) || 2) === (value === "you" ? "Player 1" : value)}, text))),
      h("button", {type: "button", onclick: () => { builder.melds = builder.melds.filter(x => x !== m); renderBuilder(); }},
        "Take this meld off the table")),
    h("div", {id: areaBox(m.id), class: "problems", role: "alert"})))
    : [h("p", {class: "empty"}, "No meld on the table.")]));
  const onto = $("build-onto");
  const chosen = onto.value;
  const ids = tableIds(), players = Number($("build-players").value) || 2;
  onto.replaceChildren(...builder.melds.map(m => h("option", {value: m.id, selected: m.id === chosen},
    m.cards.length ? shortMeld(m, seatOf(ownerKey(m, players), ids), ids[0]) : meldName(m))));
}

export function renderBuilder() {
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
  renderExtras(question);
  document.querySelector(".build-area[data-area=addto]").hidden = !ADDS_TOO.has(question);
  document.querySelector(".build-area[data-area=jokerwith]").hidden = question !== "swap";
  $("build-onto-controls").hidden = !ONTO_QUESTIONS.has(question);
  renderCounts();
  if (ADDS_TOO.has(question)) $("build-onto-controls").hidden = !builder.melds.length;
  $("build-end").hidden = $("build-end").previousElementSibling.hidden = question !== "build";
  $("build-kind-controls").hidden = !LAYS.has(question) && question !== "check";
  $("build-who-controls").hidden = !WHO_QUESTIONS.has(question);
  $("build-who").labels[0].textContent = {call: "Which player calls the top discard", allow: "Which player's call you allow",
                                          penalty: "Which player the table reports", challenge: "Which player makes the challenge"}[question] || "Which player";
  $("build-infraction").hidden = $("build-infraction-label").hidden = question !== "penalty";
  $("build-challenge-controls").hidden = question !== "challenge";
  renderWho();
  $("build-play-heading").textContent = capitalised(targetName("play"));
  $("build-play-help").textContent = {
    take: "The cards from your hand that go with the top discard into the new meld (more melds below).",
    meld: "The cards of your first new meld, in order (a run from its low end); lay more melds below.",
    check: "The cards of the meld, in the order they lie (a run from its low end).",
    meldall: "All the cards you lay, as melds; nothing else stays in your hand.",
    forgot: "The melds you lay (cards you add to melds on the table go below); the card you throw goes in \u201cthe rest of your hand\u201d.",
    upcard: "Here you are the dealer (the other seats play after you): the card you throw in place of the face-up card.",
    build: "The cards from your hand you add to the meld, in order.",
    draw: "The card you throw after taking the discard (leave it empty to ask about the taking alone).",
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
export function renderWho() {
  const question = $("build-question").value;
  const seats = tableIds().map((id, i) => ({key: `Player ${i + 1}`, label: i ? id : `you (${id})`}));
  const choices = question === "penalty" || question === "challenge" ? seats : seats.slice(1);
  const options = (select, list) => {
    const chosen = select.value;
    select.replaceChildren(...list.map(({key, label}) => h("option", {value: key, selected: key === chosen}, label)));
  };
  options($("build-who"), choices);
  options($("build-target"), seats);
  // who dealt: the last seat unless chosen (the dealer's own question: you)
  const dealer = $("build-dealer");
  const keep = dealer.value && seats.some(seat => seat.key === dealer.value) && dealer.dataset.chosen === "true";
  options(dealer, seats);
  if (!keep) dealer.value = seats[seats.length - 1].key;
  const upcard = question === "upcard";
  dealer.hidden = $("build-dealer-label").hidden = upcard;
}

export function renderHandNumbers(params) {
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

// The questions the variant can be asked: a call only where players call, and so on.
function renderQuestions(params) {
  const has = {upcard: Boolean(params.draw && params.draw.dealer_upcard_option), calling: Boolean(params.calling),
               penalties: Boolean(params.penalties), moveup: Boolean(params.joker_reuse && params.joker_reuse.move_up)};
  const select = $("build-question");
  for (const option of select.options) {
    const off = option.dataset.needs ? !has[option.dataset.needs] : false;
    option.hidden = option.disabled = off;
  }
  if (select.selectedOptions[0] && select.selectedOptions[0].disabled) select.value = "meld";
}

export function renderPlayers(id) {
  const params = variantParameters(id);
  if (!params) return;
  renderQuestions(params);
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
  // the seats' names, as they are typed: only what names a seat is drawn again (not the cards, so a
  // card tapped just after typing lands where it was tapped)
  $("build-names").addEventListener("input", () => { renderTable(); renderWho(); renderCounts(); });
  $("build-dealer").addEventListener("change", e => { e.target.dataset.chosen = "true"; });
  $("build-hand-number").addEventListener("change", () => renderHandNumbers(variantParameters(page.variant)));
  $("build-add-meld").addEventListener("click", () => {
    const m = {id: `m${builder.nextMeld++}`, cards: [], kind: "", owner: "Player 2"};
    builder.melds.push(m);
    builder.target = m.id;
    renderBuilder();
  });
  $("build-ask").addEventListener("click", () => guarded(askReferee));
  $("build-what-now").addEventListener("click", () => guarded(askWhatNow));
  $("build-add-new").addEventListener("click", () => {
    builder.extra.push([]);
    builder.target = `extra${builder.extra.length - 1}`;
    renderBuilder();
  });
  for (const id of ["build-others", "build-mine-hidden", "build-hand-number", "build-opened"]) $(id).addEventListener("input", renderCounts);
  $("build-clear").addEventListener("click", () => {
    Object.assign(builder, {play: [], hand: [], discard: [], addto: [], jokerwith: [], melds: [], extra: [], target: "play", nextMeld: 1, request: null});
    $("build-kind").value = "";   // (how the new meld is laid goes with its cards; the table's names stay)
    clearBuildProblems();
    $("build-answer").replaceChildren();
    renderBuilder();
  });
  renderBuilder();
});
