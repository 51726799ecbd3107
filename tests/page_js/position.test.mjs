// node --test: positions completed from what a person set out (api/static/position.js).
import {test} from "node:test";
import assert from "node:assert/strict";
import {completePosition, seatCounts, cardsInPosition, dealtEach, tableOf, meldKind, questionRules} from "../../api/static/position.js";
import {parse} from "../../api/static/cardwords.js";

// variants in the shape GET /v1/variants gives them (only the parts the page reads): a pack and a deal
// for each table size, and the parameters
const BRITISH_PARAMS = {};
const BRITISH = {tables: {"2": {pack: 106, dealt: 13}, "4": {pack: 106, dealt: 13}}, parameters: BRITISH_PARAMS};
const CONTRACT_PARAMS = {calling: {per_hand: 3, penalty_cards: 1}, contract: {hands: {"1": {cards: 9}, "2": {cards: 10}}}};
const CONTRACT = {tables: {"4": {pack: 108, dealt: 9, dealt_by_hand: {"1": 9, "2": 10}},
                           "6": {pack: 164, dealt: 9, dealt_by_hand: {"1": 9, "2": 10}}}, parameters: CONTRACT_PARAMS};

function layout(extra) {
  return {players: 4, opened: false, hand: [], mineHidden: null, others: null, dealt: 13, pack: 106, discard: [],
          melds: [], phase: "play", drawn: null, ...extra};
}

test("a seat nobody counted holds its deal, less what it laid, plus the card drawn this turn", () => {
  const hand = ["10S", "10H", "10D", "5C", "6C", "7C"];
  const counts = seatCounts(layout({hand, drawn: "10S",
    melds: [{id: "m1", owner: "Player 3", kind: "run", cards: ["7H", "JK", "9H"]}]}), BRITISH_PARAMS);
  assert.deepEqual(counts.map(c => c.count), [14, 13, 10, 13]);
  assert.equal(counts[0].hidden, 8);
  assert.ok(counts.every(c => c.derived));
});

test("a count typed by the person is taken as typed", () => {
  const counts = seatCounts(layout({hand: ["KH"], mineHidden: 0, others: 5}), BRITISH_PARAMS);
  assert.deepEqual(counts.map(c => c.count), [1, 5, 5, 5]);
  assert.ok(counts.every(c => !c.derived));
});

test("the position makes the pack exactly, whatever was set out", () => {
  for (const [variant, players, dealt] of [[BRITISH, 4, 13], [BRITISH, 2, 13], [CONTRACT, 4, 9], [CONTRACT, 6, 9]]) {
    const pack = tableOf(variant, players).pack;
    const state = completePosition(layout({players, dealt, pack, hand: ["KS", "KH", "KC"], discard: ["KD"], phase: "draw",
      melds: [{id: "m1", owner: "Player 2", kind: "set", cards: ["10S", "10D", "JK"]}]}), variant.parameters);
    assert.equal(cardsInPosition(state), pack);
    assert.equal(state.players.length, players);
    assert.equal(state.players[1].opened, true);
    assert.equal(state.players[1].hidden, dealt - 3);
  }
});

test("a caller holds each called card and its penalty card", () => {
  const state = completePosition(layout({dealt: 9, pack: 108, phase: "draw", callsMade: {"Player 3": 2}, discard: ["7D"]}),
                                 CONTRACT_PARAMS);
  assert.equal(state.players[2].hidden, 9 + 2 * 2);
  assert.equal(state.players[2].calls, 2);
  assert.equal(cardsInPosition(state), 108);
});

test("the deal follows the contract table where the variant has one", () => {
  assert.equal(dealtEach(CONTRACT, 4, 2), 10);
  assert.equal(dealtEach(CONTRACT, 6, null), 9);
  assert.equal(dealtEach(BRITISH, 4, null), 13);
  assert.equal(dealtEach({...BRITISH, tables: {"2": {pack: 106, dealt: 15}}}, 2, null), 15);
  assert.throws(() => dealtEach(BRITISH, 7, null), RangeError);
});

test("a meld's kind is what its naturals say unless chosen", () => {
  assert.equal(meldKind({cards: ["10S", "JK", "10D"]}, parse), "set");
  assert.equal(meldKind({cards: ["7H", "JK", "9H"]}, parse), "run");
  assert.equal(meldKind({cards: ["7H", "JK", "9H"], kind: "set"}, parse), "set");
});

test("a position whose counts were worked out is sent as it is; one a person told otherwise as composed", () => {
  const worked = layout({hand: ["10S", "10H", "10D"], drawn: "10S"});
  assert.equal(questionRules(worked, BRITISH_PARAMS), undefined);
  // "these are all my cards": three cards where the deal and the turn give fourteen
  assert.deepEqual(questionRules(layout({hand: ["4H", "5H", "6H"], mineHidden: 0}), BRITISH_PARAMS),
                   {positions: {counted: false}});
  // a count typed as the deal gives it is no composition
  assert.equal(questionRules(layout({hand: ["KH"], mineHidden: 12, others: 13, phase: "draw"}), BRITISH_PARAMS), undefined);
});

test("seats go by the names typed for them, you first, and keep their keys when renamed", async () => {
  const {parseNames, seatIds, seatOf} = await import("../../api/static/position.js");
  assert.deepEqual(parseNames(" Andy,  Mark ,, John  Smith "), ["Andy", "Mark", "John Smith"]);
  assert.deepEqual(seatIds(4, ["Andy", "Mark"]), ["Andy", "Mark", "Player 3", "Player 4"]);
  assert.deepEqual(seatIds(3, ["Andy", "Andy"]), ["Player 1", "Player 2", "Player 3"]);   // two seats, one name: none used
  assert.deepEqual(seatIds(3, ["Player 2"]), ["Player 1", "Player 2", "Player 3"]);  // a name another seat goes by
  const ids = seatIds(4, ["Mark", "John", "Frank", "Andy"]);
  assert.equal(seatOf("Player 2", ids), "John");
  assert.equal(seatOf("Player 9", ids), "Player 9");
  const state = completePosition(layout({names: ["Mark", "John"], hand: ["KS"], phase: "draw"}), BRITISH_PARAMS);
  assert.deepEqual(state.players.map(p => p.id), ["Mark", "John", "Player 3", "Player 4"]);
  assert.equal(state.to_act, "Mark");
  assert.equal(state.dealer, "Player 4");
});
