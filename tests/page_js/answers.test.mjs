// node --test: the words of an answer (api/static/answers.js).
import {test} from "node:test";
import assert from "node:assert/strict";
import {firstWords, tableNowWords, meldWords, who, withReading, readingWords} from "../../api/static/answers.js";

const CODE = /\b(?:10|[2-9AKQJ])[SHDC]\b|\bJK\b|\bm\d+\b/;

test("the first words say yes or no about whoever the question is about", () => {
  assert.equal(firstWords({type: "meld"}, true), "Yes, you may.");
  assert.equal(firstWords({type: "meld"}, false), "No, you may not.");
  assert.equal(firstWords({type: "call", player: "Player 3"}, true), "Yes, Player 3 may call it.");
  assert.equal(firstWords({type: "allow", caller: "Player 2"}, true), "Yes, you may allow Player 2's call.");
  assert.equal(firstWords({type: "allow", caller: "Player 2"}, false), "No, you may not allow Player 2's call here.");
  assert.equal(firstWords({type: "challenge", player: "Player 4", target: "Player 3"}, false),
               "No, Player 4 may not challenge Player 3 here.");
  assert.match(firstWords({type: "meld"}, null), /more cards/);
  assert.equal(who("Player 1"), "you");
});

test("an allowed joker exchange says where the joker must go, by the variant's parameter", () => {
  const swap = {type: "swap_joker", meld: "m1", naturals: ["8H"]};
  const any = tableNowWords(swap, {legal: true}, {joker_reuse: {released_into: "meld_or_build"}}, []);
  const fresh = tableNowWords(swap, {legal: true}, {joker_reuse: {released_into: "new_meld"}}, []);
  assert.match(any, /at once/);
  assert.match(any, /never goes into your hand/);
  assert.match(fresh, /new meld/);
  assert.notEqual(any, fresh);
  const placed = tableNowWords({...swap, place: {type: "meld", melds: [{cards: ["7H", "7D", "JK"]}]}}, {legal: true}, {}, []);
  assert.match(placed, /new meld/);
  assert.match(placed, /never goes into your hand/);
  const moved = tableNowWords({...swap, place: {type: "build", meld: "m1", cards: ["JK"], end: "high"}}, {legal: true}, {}, []);
  assert.match(moved, /moves up/);
});

test("an allowed call or allow says the caller takes a penalty card and waits, and who plucks", () => {
  const params = {calling: {penalty_cards: 1}};
  const allow = tableNowWords({type: "allow", caller: "Player 3"}, {legal: true}, params, ["7D"]);
  assert.match(allow, /^Player 3 takes the seven of diamonds and 1 penalty card from the stock/);
  assert.match(allow, /may not lay or discard now/);
  assert.match(allow, /you pluck from the stock/);
  const call = tableNowWords({type: "call", player: "Player 3"}, {legal: true}, params, ["7D"]);
  assert.match(call, /penalty card/);
  assert.doesNotMatch(allow + call, CODE);
});

test("a refused move does not stand, and the answer says what the player does instead", () => {
  assert.match(tableNowWords({type: "meld"}, {legal: false}, {}, []), /does not stand/);
  const seat = extra => ({to_act: "Player 1", players: [{id: "Player 1", hand: ["4S", "5S", "6S"], ...extra}]});
  const kept = {type: "turn", actions: [{type: "draw", source: "discard"}, {type: "discard", card: "KD"}]};
  assert.match(tableNowWords(kept, {legal: false, violations: [{step: 1}]}, {}, ["9C"], seat({})),
               /the nine of clubs goes back on the discard pile, and you draw from the stock instead/);
  const all = {type: "meld", melds: [{cards: ["4S", "5S", "6S"]}]};
  assert.match(tableNowWords(all, {legal: false, violations: [{}]}, {}, [], seat({})), /keep one card back/);
  assert.match(tableNowWords(all, {legal: false, violations: [{}]}, {}, [], seat({barred: true})), /but not go out/);
  const some = {type: "meld", melds: [{cards: ["4S", "5S"]}]};
  assert.match(tableNowWords(some, {legal: false, violations: [{}]}, {}, [], seat({})), /cards go back where they were/);
  const charged = {legal: false, violations: [{penalty: {player: "Player 2", points: 50}}]};
  assert.match(tableNowWords({type: "discard", card: "JK"}, charged, {}, [], seat({})), /charge Player 2 50 points/);
});

test("an undecided move asks for the cards", () => {
  assert.match(tableNowWords({type: "meld"}, {legal: null}, {}, []), /ask again/);
});

test("a meld is named by its cards", () => {
  assert.equal(meldWords({kind: "run", cards: ["7H", "JK", "9H"]}),
               "the run of the seven of hearts, a joker and the nine of hearts");
});

test("a move the rules allow is said in words, melds by their cards", async () => {
  const {moveWords} = await import("../../api/static/answers.js");
  const melds = new Map([["m1", {id: "m1", kind: "run", cards: ["4C", "5C", "6C"]}]]);
  const opening = moveWords({type: "meld", melds: [{cards: ["5C", "6C", "7C"]}, {cards: ["10S", "10H", "10D"]}]}, melds);
  assert.equal(opening, "Lay (the five of clubs, the six of clubs and the seven of clubs) and "
                        + "(the ten of spades, the ten of hearts and the ten of diamonds)");
  assert.equal(moveWords({type: "build", meld: "m1", cards: ["7C"]}, melds),
               "Add the seven of clubs to the run of the four of clubs, the five of clubs and the six of clubs");
  assert.equal(moveWords({type: "discard", card: "2H"}, melds), "Throw the two of hearts");
  for (const a of [{type: "swap_joker", meld: "m1", naturals: ["8H"]}, {type: "turn", actions: [{type: "draw", source: "discard"}]}]) {
    assert.doesNotMatch(moveWords(a, melds), CODE);
  }
});

test("a challenge's first words say whether it was right, from who is charged", () => {
  const challenge = {type: "challenge", player: "Player 4", target: "Player 3", claim: "overcall"};
  assert.match(firstWords(challenge, true, [{type: "penalized", player: "Player 3", points: 50}]),
               /^Yes, Player 4 may challenge Player 3, and the challenge is right: Player 3 is charged\.$/);
  assert.match(firstWords(challenge, true, [{type: "penalized", player: "Player 4", points: 50}]),
               /^Yes, Player 4 may challenge Player 3, but the challenge is wrong: Player 4 is charged, not Player 3\.$/);
});

test("a meld whose joker can be read two ways is asked again with the reading chosen", () => {
  const low = {kind: "run", cards: ["JK(=6H)", "7H", "8H"]};
  const swap = {type: "swap_joker", meld: "m1", naturals: ["10C"], place: {type: "meld", melds: [{cards: ["7H", "8H", "JK"]}]}};
  assert.deepEqual(withReading(swap, low).place.melds[0], {kind: "run", cards: ["JK(=6H)", "7H", "8H"]});
  assert.deepEqual(withReading(swap, low).naturals, ["10C"]);
  const turn = {type: "turn", actions: [{type: "draw", source: "stock"}, {type: "meld", melds: [{cards: ["2C", "3C", "4C"]}, {cards: ["8H", "JK", "7H"]}]}]};
  const asked = withReading(turn, low);
  assert.deepEqual(asked.actions[1].melds.map(m => m.cards), [["2C", "3C", "4C"], ["JK(=6H)", "7H", "8H"]]);
  assert.equal(withReading({type: "meld", melds: [{cards: ["2C", "3C", "4C"]}]}, low), null);
  assert.equal(readingWords(low), "a joker standing for the six of hearts");
});
