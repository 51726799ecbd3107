// A whole position from what a person set out at the table, with no page around it.  The person lists
// only the cards the dispute is about; every count they did not give is worked out the way the table
// would: each seat holds the cards it was dealt, less the cards it laid on the table, plus the card
// drawn this turn and any called discards with their penalty cards; the stock holds the rest of the
// pack.  Counts a person typed are taken as typed.  So the position adds up by construction.

export const YOU = "Player 1";  // you, as the referee names you

/** The variant's contract table (hand number: cards dealt, 3s and 4s), where it deals by one. */
export function contractHands(params) {
  return params && params.contract && params.contract.hands ? params.contract.hands : null;
}

/** A table of `players` as the variant deals it ({pack, dealt}: GET /v1/variants' `tables`). */
export function tableOf(variant, players) {
  const table = variant.tables[String(players)];
  if (!table) throw new RangeError(`the variant does not seat ${players} players`);
  return table;
}

/** Cards each player was dealt: in a contract game, those of the hand played; else the table's deal. */
export function dealtEach(variant, players, handNumber) {
  const table = tableOf(variant, players);
  const byHand = table.dealt_by_hand;
  return byHand && handNumber && byHand[String(handNumber)] !== undefined ? byHand[String(handNumber)] : table.dealt;
}

/** The names a person typed for the seats ("Andy, Mark, John, Frank"), in seat order. */
export function parseNames(text) {
  return String(text || "").split(",").map(name => name.trim().replace(/\s+/g, " ").slice(0, 40)).filter(Boolean);
}

/** The seats: you, then the players on your left in turn; the last of them deals.  Each seat goes by
 *  the name typed for it, else "Player 1", "Player 2"...; if two seats would share a name, none is used. */
export function seatIds(n, names = []) {
  const plain = Array.from({length: n}, (_, i) => (i ? `Player ${i + 1}` : YOU));
  const ids = plain.map((id, i) => names[i] || id);
  return new Set(ids).size === ids.length ? ids : plain;
}

/** The seat a page control means by its key ("Player 3": the third seat, whatever its name), as the
 *  position names it. */
export function seatOf(key, ids) {
  const seat = /^Player (\d+)$/.exec(key || "");
  return seat && ids[Number(seat[1]) - 1] !== undefined ? ids[Number(seat[1]) - 1] : key;
}

/** A meld's kind as chosen, else what its cards say: naturals all of one rank make a set. */
export function meldKind(meld, parse) {
  if (meld.kind) return meld.kind;
  const ranks = new Set(meld.cards.map(parse).filter(c => c && !c.joker).map(c => c.rank));
  return ranks.size === 1 ? "set" : "run";
}

/** How many cards each seat holds, worked out: [{id, count, listed, hidden, derived}]. */
export function seatCounts(layout, parameters) {
  const ids = seatIds(layout.players, layout.names);
  const perCall = 1 + ((parameters.calling && parameters.calling.penalty_cards) || 0);
  const laidBy = id => layout.melds.filter(m => m.owner === id).reduce((n, m) => n + m.cards.length, 0);
  return ids.map((id, i) => {
    const listed = i === 0 ? layout.hand.length : 0;
    const typed = i === 0 ? layout.mineHidden : layout.others;
    const calls = (layout.callsMade && layout.callsMade[id]) || 0;
    const drew = i === 0 && layout.phase === "play" ? 1 : 0;
    const worked = layout.dealt - laidBy(id) + drew + calls * perCall;
    if (typed !== null && typed !== undefined) {
      return {id, listed, hidden: typed, count: listed + typed, worked, derived: false};
    }
    const hidden = Math.max(0, worked - listed);
    return {id, listed, hidden, count: listed + hidden, worked, derived: true};
  });
}

/** The house rules a question is sent with: a position whose counts the person gave themselves, other
 * than the deal, the cards laid and the turn give (a dispute told from memory, or "these are all my
 * cards" with the rest of the table left out), is a composed position (docs/wire-format.md), sent with
 * positions.counted false so that the referee rules on it instead of refusing its count; one whose
 * counts were all worked out adds up by construction and is sent as it is. */
export function questionRules(layout, parameters) {
  const told = seatCounts(layout, parameters).some(c => c.count !== c.worked);
  return told ? {positions: {counted: false}} : undefined;
}

/** The position as /v1/adjudicate takes it (docs/wire-format.md; unseen cards as `hidden` counts). */
export function completePosition(layout, parameters) {
  const counts = seatCounts(layout, parameters);
  const owners = new Set(layout.melds.map(m => m.owner));
  const listed = layout.hand.length + layout.discard.length + layout.melds.reduce((n, m) => n + m.cards.length, 0);
  let unseen = 0;
  const players = counts.map(({id, hidden}, i) => {
    const seat = {id, hand: i === 0 ? layout.hand.slice() : [], opened: i === 0 ? layout.opened : owners.has(id)};
    if (i === 0 && layout.barred) seat.barred = true;
    if (hidden > 0) seat.hidden = hidden;
    unseen += hidden;
    return seat;
  });
  const ids = counts.map(c => c.id);
  const state = {players, dealer: layout.dealer || ids[ids.length - 1], to_act: layout.toAct || ids[0], phase: layout.phase,
                 first_play: Boolean(layout.firstPlay),
                 stock: [], stock_hidden: Math.max(0, layout.pack - listed - unseen),
                 discard: layout.discard.slice(),
                 melds: layout.melds.map(m => ({id: m.id, owner: m.owner, kind: m.kind, cards: m.cards.slice()}))};
  if (layout.phase === "play") state.turn = {drawn: layout.drawn, source: "stock"};
  if (layout.dealerOption) state.dealer_option = true;
  if (layout.handNumber) state.hand_number = layout.handNumber;
  if (layout.calls && layout.calls.length) state.calls = layout.calls.slice();
  for (const [id, calls] of Object.entries(layout.callsMade || {})) {
    const seat = players.find(p => p.id === id);
    if (seat && calls > 0) seat.calls = calls;
  }
  return state;
}

/** The cards the position holds in all, listed and counted (for the check that it makes the pack). */
export function cardsInPosition(state) {
  const inHands = state.players.reduce((n, p) => n + p.hand.length + (p.hidden || 0), 0);
  return inHands + state.stock.length + (state.stock_hidden || 0) + state.discard.length
       + state.melds.reduce((n, m) => n + m.cards.length, 0);
}
