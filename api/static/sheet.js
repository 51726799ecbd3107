// The score sheet of a game, entered hand by hand as the table wrote it: who went out and how, each
// other player's penalty points (and, where the table wrote them, the running totals, the reported
// infractions, the dealer's exact cut, who bought back in).  Each hand added asks POST /v1/scoresheet
// for the whole sheet so far and shows the running totals, eliminations, buy-ins, payments and the
// pool, and the first entry that disagrees with the rules, in words.  In the contract game each row
// shows its hand's contract; a bend is the hand won in one go.  Uses page.js and builder.js (variantParameters).
import {variantParameters} from "./builder.js";
import {$, h, plural, ordinalPath, call, rulesResources, violationBlock, clearProblems, showProblems, page, tableNow, contractOf,
        cardPicker, cardButton, describeEvent} from "./page.js";
import {Cards} from "./cards.js";
import {parseNames, seatIds} from "./position.js";

export const sheet = {players: [], hands: [], answer: null, cards: {}, picking: null, stakesOf: null};

const STAKE_FIELDS = [["call_up", "Each loser pays the winner"], ["kalookie", "Each loser pays for a kalookie"],
                      ["initial", "Each player puts into the pool at the start"], ["buy_in", "A buy-in puts into the pool"]];

/** The stakes the table plays for: the variant's unless changed in the form (null: the variant's). */
export function stakesChosen(params) {
  if (!params.stakes) return null;
  const chosen = {};
  for (const [key] of STAKE_FIELDS) {
    const input = $(`sheet-stake-${key}`);
    const typed = input ? Number(input.value) : NaN;
    chosen[key] = Number.isInteger(typed) && typed >= 0 ? typed : params.stakes[key];
  }
  return STAKE_FIELDS.every(([key]) => chosen[key] === params.stakes[key]) ? null : chosen;
}

function renderStakes(params) {
  const box = $("sheet-stakes");
  box.hidden = !params.stakes;
  if (!params.stakes) return;
  const presets = Object.entries(params.stake_presets || {});
  const fill = values => { for (const [key] of STAKE_FIELDS) $(`sheet-stake-${key}`).value = values[key]; };
  box.replaceChildren(
    h("legend", {}, "The stakes"),
    h("p", {class: "area-help"}, "What the table plays for, in chips or money. The pool holds each player's "
      + "starting stake and every buy-in; the last player left in the game takes it."),
    presets.length ? h("div", {class: "controls"}, presets.map(([name, values]) =>
      h("button", {type: "button", onclick: () => { fill(values); resettle(); }}, `Use the ${name} stakes`))) : "",
    h("div", {class: "controls"}, STAKE_FIELDS.flatMap(([key, label]) => [
      h("label", {for: `sheet-stake-${key}`}, label),
      h("input", {type: "number", id: `sheet-stake-${key}`, min: 0, max: 1000000, step: 1, inputmode: "numeric",
                  value: params.stakes[key], onchange: resettle})])));
}

export function sheetParams() { return variantParameters(page.variant) || {}; }

export function howChoices(params) {
  const bend = params.kalookie && params.kalookie.first_down_only;
  return [["call_up", "went out"],
          ["kalookie", bend ? "a bend: went out in the turn they first laid" : "went out all at once (a kalookie)"],
          ["void", "nobody: the stock ran out and the hand is void"]];
}

// How many times the losers' points count after a hand won all at once (a bend, in the Jamaican game), and
// the name of such a hand.
export function doubling(params) {
  const k = params.kalookie || {};
  return {times: k.penalty_multiplier || 1, name: k.first_down_only ? "a bend" : "a kalookie"};
}

export function timesWord(n) { return {2: "doubled", 3: "tripled", 4: "quadrupled"}[n] || `multiplied by ${n}`; }

export function contractRow(params, n) {
  const hands = params.contract && params.contract.hands;
  return hands ? hands[String(n)] || null : null;
}

// The form for the next hand: a winner, how it ended, and a line per player.
export function renderSheetForm() {
  const params = sheetParams();
  const n = sheet.hands.length + 1;
  const row = contractRow(params, n);
  const penalties = params.penalties && params.penalties.points;
  const queue = (sheet.answer && sheet.answer.buy_in_queue) || [];
  $("sheet-hand-heading").textContent = `Hand ${n}` + (row ? `: ${plural(row.cards, "card")} each, the contract ${contractOf(row)}` : "");
  $("sheet-winner").replaceChildren(...sheet.players.map(p => h("option", {value: p}, p)));
  $("sheet-how").replaceChildren(...howChoices(params).map(([value, text]) => h("option", {value}, text)));
  $("sheet-cut-control").hidden = !(params.deal && params.deal.dealer_cut_bonus);
  $("sheet-cut").checked = false;
  $("sheet-lines").replaceChildren(...sheet.players.map((p, i) => h("fieldset", {class: "sheet-line", "data-player": p},
    h("legend", {}, p),
    cardsLeft(p, i),
    h("label", {for: `sheet-pen-${i}`, class: "sheet-pen-label"}, "Penalty points this hand (or tap the cards above)"),
    h("input", {type: "number", id: `sheet-pen-${i}`, min: 0, max: 10000, step: 1, inputmode: "numeric", class: "sheet-pen"}),
    h("label", {for: `sheet-total-${i}`}, "Total written on the sheet (if any)"),
    h("input", {type: "number", id: `sheet-total-${i}`, min: -100000, max: 1000000, step: 1, inputmode: "numeric", class: "sheet-total"}),
    penalties ? [h("label", {for: `sheet-inf-${i}`}, `Points of penalties reported (${penalties} each)`),
                 h("input", {type: "number", id: `sheet-inf-${i}`, min: 0, max: 10000, step: 1, inputmode: "numeric", class: "sheet-inf"})] : "",
    queue.includes(p) ? h("span", {class: "target"}, h("input", {type: "checkbox", id: `sheet-buy-${i}`, class: "sheet-buy"}),
                          h("label", {for: `sheet-buy-${i}`}, "buys back in")) : "")));
  syncWinner();
  $("sheet-undo").disabled = !sheet.hands.length;
}

// A loser's cards left in hand, tapped in: the referee counts their penalty points from them.
function cardsLeft(p, i) {
  const cards = sheet.cards[p] || [];
  const open = sheet.picking === p;
  const box = h("div", {class: "sheet-cards", id: `sheet-cards-${i}`},
    h("p", {class: "area-help", id: `sheet-cards-${i}-said`}, cards.length ? `Cards left: ${Cards.names(cards)}.` : "No cards tapped in."),
    h("div", {class: "card-row meld-row"}, cards.map((code, k) => cardButton(code, `Take ${Cards.name(code)} out of ${p}'s cards`, {},
      () => { cards.splice(k, 1); redrawCards(p, i); }))),
    h("button", {type: "button", class: "sheet-pick", "aria-expanded": String(open),
                 onclick: () => { const was = sheet.picking; sheet.picking = open ? null : p;
                                                   sheet.players.forEach((q, j) => { if (q === p || q === was) redrawCards(q, j); });
                                                   $(`sheet-cards-${i}`).querySelector(".sheet-pick").focus(); }},
      open ? `Done with ${p}'s cards` : `Tap ${p}'s cards left in hand`));
  if (open) {
    const picker = h("div", {class: "picker", role: "group", "aria-label": `Cards left in ${p}'s hand`});
    box.append(picker);
    cardPicker(picker, code => `Put ${Cards.name(code)} in ${p}'s cards`, code => {
      (sheet.cards[p] = sheet.cards[p] || []).push(code);
      redrawCards(p, i, code);
    });
  }
  return box;
}

// One line's cards drawn again (the typed figures of the form stay), the focus kept on the card tapped.
function redrawCards(p, i, tapped) {
  $(`sheet-cards-${i}`).replaceWith(cardsLeft(p, i));
  if (tapped) $(`sheet-cards-${i}`).querySelector(`.pick[data-card='${tapped}']`).focus();
}

// The winner's line takes no penalty; a void hand has no winner.  After a hand that multiplies the
// losers' points, the form says so: the referee multiplies the points of the cards tapped in, and takes
// the points typed as already multiplied (as the score sheet reads them).
export function syncWinner() {
  const how = $("sheet-how").value;
  const {times, name} = doubling(sheetParams());
  const multiplied = how === "kalookie" && times > 1;
  $("sheet-how-note").hidden = !multiplied;
  $("sheet-how-note").textContent = multiplied
    ? `After ${name} every other player's points count ${timesWord(times)}: tap in their cards left and the referee ` +
      `counts them ${timesWord(times)}; points you type are taken as already ${timesWord(times)}.` : "";
  for (const label of document.querySelectorAll(".sheet-pen-label"))
    label.textContent = (multiplied ? `Penalty points this hand, already ${timesWord(times)}` : "Penalty points this hand")
                        + " (or tap the cards above)";
  $("sheet-winner").disabled = how === "void";
  for (const line of document.querySelectorAll(".sheet-line")) {
    const pen = line.querySelector(".sheet-pen");
    const winner = how !== "void" && line.dataset.player === $("sheet-winner").value;
    pen.disabled = winner || how === "void";
    if (pen.disabled) pen.value = "";
  }
}

export function numberOf(input) {
  const text = input ? input.value.trim() : "";
  return text === "" ? null : Number(text);
}

// The entry of the hand as written in the form (HandEntry of openapi.yaml).
export function entryFromForm() {
  const how = $("sheet-how").value;
  const entry = {how, winner: how === "void" ? null : $("sheet-winner").value};
  const table = cls => {
    const out = {};
    for (const line of document.querySelectorAll(".sheet-line")) {
      const value = numberOf(line.querySelector(cls));
      if (value !== null) out[line.dataset.player] = value;
    }
    return out;
  };
  const penalties = table(".sheet-pen"), scores = table(".sheet-total"), infractions = table(".sheet-inf");
  // a loser whose cards were tapped in is scored from the cards; the others from the figures typed
  const hands = {};
  for (const p of sheet.players) {
    if (how !== "void" && p !== entry.winner && (sheet.cards[p] || []).length) {
      hands[p] = sheet.cards[p].slice();
      delete penalties[p];
    }
  }
  if (how !== "void") entry.penalties = penalties;
  if (Object.keys(hands).length) entry.hands = hands;
  if (Object.keys(scores).length) entry.scores = scores;
  if (Object.keys(infractions).length) entry.infractions = infractions;
  if (!$("sheet-cut-control").hidden && $("sheet-cut").checked) entry.cut_bonus = true;
  const buys = {};
  for (const box of document.querySelectorAll(".sheet-buy")) buys[box.closest(".sheet-line").dataset.player] = box.checked;
  if (Object.keys(buys).length) entry.buy_ins = buys;
  return entry;
}

export function sheetRequest(hands) {
  const stakes = stakesChosen(sheetParams());
  return {variant: page.variant, players: sheet.players.slice(), ...(stakes ? {stakes} : {}), hands};
}

export function sheetWhere(pointer) {
  const m = /^\/hands\/(\d+)(?:\/(\w+)(?:\/(.+))?)?/.exec(pointer);
  if (!m) return ordinalPath(pointer);
  const field = {penalties: "penalty points", scores: "total written", infractions: "penalties reported", winner: "winner",
                 how: "how it ended", buy_ins: "buying back in", cut_bonus: "the dealer's exact cut"}[m[2]] || m[2];
  return `hand ${Number(m[1]) + 1}${field ? `, ${field}` : ""}${m[3] ? ` of ${m[3].replace(/~1/g, "/").replace(/~0/g, "~")}` : ""}`;
}

export async function addHand() {
  clearProblems("sheet-problems");
  const entry = entryFromForm();
  const hands = [...sheet.hands, entry];
  const r = await call("POST", "/v1/scoresheet", sheetRequest(hands));
  if (!r.ok) {
    showProblems("sheet-problems", null, r.body, sheetWhere);
    return;
  }
  sheet.hands = hands;
  sheet.answer = r.body;
  sheet.cards = {};
  sheet.picking = null;
  await renderSheet();
  renderSheetForm();
  $("sheet-answer").scrollIntoView({block: "start"});
}

function payWords(amount) { return amount > 0 ? `gets ${amount}` : amount < 0 ? `pays ${-amount}` : "pays nothing"; }

export async function renderSheet() {
  const a = sheet.answer;
  const box = $("sheet-answer");
  if (!a) { box.replaceChildren(); return; }
  const params = sheetParams();
  const res = await rulesResources(page.variant);
  const bad = a.inconsistency;
  const {times, name} = doubling(params);
  const multiplied = row => row.how === "kalookie" && times > 1;
  const rows = a.rows.map((row, i) => h("tr", {"data-hand": row.hand, class: bad && bad.hand === row.hand ? "has-problem" : ""},
    h("th", {scope: "row"}, `Hand ${row.hand}`, contractRow(params, row.hand) ? h("span", {class: "contract-cell"}, ` ${contractOf(contractRow(params, row.hand))}`) : ""),
    h("td", {"data-label": "Ended"}, row.how === "void" ? "void" : `${row.winner} ${(howChoices(params).find(c => c[0] === row.how) || [0, row.how])[1]}`),
    sheet.players.map(p => h("td", {"data-player": p, "data-label": p}, String((row.scores || {})[p] ?? ""),
      (row.penalties || {})[p] !== undefined ? h("span", {class: "penalty"},
        ` (${plural(row.penalties[p], "point")} this hand${multiplied(row) && row.winner !== p ? `, ${timesWord(times)} for ${name}` : ""}`
        + `${(row.buy_ins || {})[p] === true ? `; bought back in, so restarts at ${row.scores[p]}` : ""})`) : "",
      (row.payments || {})[p] !== undefined ? h("span", {class: "ledger"}, ` ${payWords(row.payments[p])}`) : "")),
    h("td", {"data-label": "Pool"}, String(row.pool)),
    h("td", {"data-label": "Out, buy-ins"}, [(row.eliminated || []).length ? `out: ${row.eliminated.join(", ")}` : "",
                 Object.entries(row.buy_ins || {}).map(([p, yes]) => `${p} ${yes ? "bought back in" : "did not buy back in"}`).join("; ")].filter(Boolean).join("; "))));
  const parts = [
    h("div", {class: "sheet-table-wrap", tabindex: "0", role: "region", "aria-label": "The score sheet"}, h("table", {class: "sheet-table"},
      h("caption", {}, "The sheet as the rules settle it: each player's running total (and payments), the pool, who is out"),
      h("thead", {}, h("tr", {}, h("th", {scope: "col"}, "Hand"), h("th", {scope: "col"}, "Ended"),
        sheet.players.map(p => h("th", {scope: "col"}, p)), h("th", {scope: "col"}, "Pool"), h("th", {scope: "col"}, "Out, buy-ins"))),
      h("tbody", {}, rows))),
    h("p", {class: "sheet-state"}, a.winner ? `${a.winner} won the game.` : `The game is ${a.phase === "over" ? "over" : "going on"}; the pool holds ${a.pool}.`,
      (a.buy_in_queue || []).length ? ` May buy back in: ${a.buy_in_queue.join(", ")}.` : "",
      a.settlement ? ` Settlement: ${Object.entries(a.settlement).map(([p, v]) => `${p} ${payWords(v)}`).join(", ")}.` : ""),
    eventsSaid(a.events || [])];
  const offered = (a.events || []).filter(e => e.type === "buy_in_offered").flatMap(e => e.players);
  if (bad && bad.pointer === `/hands/${sheet.hands.length - 1}/buy_ins` && offered.length) {
    // not a mistake of the sheet: the players over the limit have yet to say whether they buy back in
    parts.unshift(h("div", {class: "verdict sheet-buy-in", id: "sheet-buy-in"},
      h("p", {class: "verdict-word"}, h("strong", {}, `${offered.join(" and ")} went over the limit: may buy back in.`)),
      offered.map(p => h("div", {class: "controls"},
        h("button", {type: "button", onclick: () => decideBuyIn(p, true)}, `${p} buys back in`),
        h("button", {type: "button", onclick: () => decideBuyIn(p, false)}, `${p} goes out`)))));
    box.replaceChildren(...parts);
    return;
  }
  if (bad) {
    parts.unshift(h("div", {class: "verdict illegal sheet-inconsistency", "data-hand": bad.hand},
      h("p", {class: "verdict-word"}, h("strong", {}, `Hand ${bad.hand} disagrees with the rules`), ` (${sheetWhere(bad.pointer)}).`),
      violationBlock(bad, res),
      tableNow("Put right the entry named, then go on: nothing after it can be trusted until it is.")));
  } else {
    parts.unshift(h("div", {class: "verdict legal sheet-consistent"},
      h("p", {class: "verdict-word"}, h("strong", {}, "The sheet agrees with the rules"), ` (${plural(a.rows.length, "hand")} so far).`),
      multipliedSaid(a.rows[a.rows.length - 1], sheet.hands[a.rows.length - 1], times, name)));
  }
  box.replaceChildren(...parts);
}

// The last hand, where it multiplied the losers' points: each loser's figure and where it came from, in words.
function multipliedSaid(row, entry, times, name) {
  if (!row || row.how !== "kalookie" || times < 2) return "";
  const said = Object.entries(row.penalties || {}).filter(([p]) => p !== row.winner).map(([p, v]) =>
    (entry && entry.hands && entry.hands[p]) ? `${p} ${plural(v, "point")} (${v / times} for the cards left, ${timesWord(times)})`
    : (entry && entry.penalties && entry.penalties[p] !== undefined) ? `${p} ${plural(v, "point")} (as typed, taken as already ${timesWord(times)})`
    : `${p} ${plural(v, "point")}`);
  return h("p", {class: "sheet-multiplied"},
    `Hand ${row.hand} was ${name} by ${row.winner}: every other player's points for the hand count ${timesWord(times)}: ` +
    said.join(", ") + ".");
}

// A player over the limit decides: the last hand's entry says so, and the sheet is asked again.
async function decideBuyIn(player, yes) {
  const last = sheet.hands[sheet.hands.length - 1];
  const hands = [...sheet.hands.slice(0, -1), {...last, buy_ins: {...(last.buy_ins || {}), [player]: yes}}];
  const r = await call("POST", "/v1/scoresheet", sheetRequest(hands));
  if (!r.ok) {
    showProblems("sheet-problems", null, r.body, sheetWhere);
    return;
  }
  sheet.hands = hands;
  sheet.answer = r.body;
  await renderSheet();
  renderSheetForm();
}

// Who went out of the game, who may buy back in and who did, in words.
function eventsSaid(events) {
  // an offer is said only while it is open: not once the player has bought back in or gone out
  const decided = new Set(events.filter(e => e.type === "bought_in" || e.type === "eliminated").map(e => e.player));
  const open = e => e.type !== "buy_in_offered" || e.players.some(p => !decided.has(p));
  const said = events.filter(e => ["eliminated", "buy_in_offered", "bought_in", "moved_to_new_table", "game_won"].includes(e.type))
                     .filter(open).map(e => e.type === "buy_in_offered" ? {...e, players: e.players.filter(p => !decided.has(p))} : e);
  return said.length ? h("ul", {class: "sheet-events"}, said.map(e => h("li", {}, describeEvent(e)))) : "";
}

// The last hand taken off the sheet (to enter it again, put right).
export async function undoHand() {
  sheet.hands = sheet.hands.slice(0, -1);
  await resettle();
}

// The sheet's hands settled again (after a hand is taken back, or the stakes change).
async function resettle() {
  clearProblems("sheet-problems");
  sheet.answer = null;
  if (sheet.hands.length) {
    const r = await call("POST", "/v1/scoresheet", sheetRequest(sheet.hands));
    if (r.ok) sheet.answer = r.body;
  }
  await renderSheet();
  renderSheetForm();
}

export function resetSheet() {
  const params = sheetParams();
  if (sheet.stakesOf !== page.variant) {  // (the stakes form is the variant's: kept while its sheet restarts)
    renderStakes(params);
    sheet.stakesOf = page.variant;
  }
  const select = $("sheet-players");
  const min = (params.players && params.players.min) || 2, max = (params.players && params.players.max) || 6;
  const chosen = Math.min(Math.max(Number(select.value) || 3, min), max);
  select.replaceChildren(...Array.from({length: max - min + 1}, (_, i) => min + i).map(n => h("option", {value: n, selected: n === chosen}, String(n))));
  sheet.players = seatIds(chosen, parseNames($("sheet-names").value));  // the names typed, else "Player 1"...
  sheet.hands = [];
  sheet.answer = null;
  sheet.cards = {};
  sheet.picking = null;
  clearProblems("sheet-problems");
  renderSheet();
  renderSheetForm();
}

document.addEventListener("variant-chosen", () => { if (page.variants.length) resetSheet(); });
document.addEventListener("DOMContentLoaded", () => {
  $("sheet-players").addEventListener("change", resetSheet);
  $("sheet-names").addEventListener("change", resetSheet);
  $("sheet-how").addEventListener("change", syncWinner);
  $("sheet-winner").addEventListener("change", syncWinner);
  $("sheet-add").addEventListener("click", addHand);
  $("sheet-clear").addEventListener("click", resetSheet);
  $("sheet-undo").addEventListener("click", undoHand);
});
