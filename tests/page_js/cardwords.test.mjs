// node --test: the page's card words (api/static/cardwords.js).
import {test} from "node:test";
import assert from "node:assert/strict";
import {parse, name, names, namesInText, plural, listWords} from "../../api/static/cardwords.js";

test("a card code reads as its rank and suit, jokers with their reading", () => {
  assert.deepEqual(parse("7D"), {joker: false, rank: "7", suit: "D"});
  assert.deepEqual(parse("10s"), {joker: false, rank: "10", suit: "S"});
  assert.deepEqual(parse("TC"), {joker: false, rank: "10", suit: "C"});
  assert.deepEqual(parse("JK"), {joker: true, rank: null, suit: null});
  assert.deepEqual(parse("JK(=8H)"), {joker: true, rank: "8", suit: "H"});
  assert.equal(parse("1X"), null);
});

test("cards are named in words, never by their code", () => {
  assert.equal(name("7D"), "the seven of diamonds");
  assert.equal(name("QS"), "the queen of spades");
  assert.equal(name("JK"), "a joker");
  assert.equal(name("JK(=8H)"), "a joker standing for the eight of hearts");
  assert.equal(name("JK(=8)"), "a joker standing for an eight");
  assert.equal(name("JK(=K)"), "a joker standing for a king");
  assert.equal(names(["KH", "QS", "JK"]), "the king of hearts, the queen of spades and a joker");
  assert.equal(names(["5C"]), "the five of clubs");
  assert.equal(listWords([]), "");
  assert.doesNotMatch(name("ZZ"), /ZZ/);
});

test("codes written in a sentence become names", () => {
  assert.equal(namesInText("cannot take 7D with JK(=8H) or 10S"),
               "cannot take the seven of diamonds with a joker standing for the eight of hearts or the ten of spades");
  assert.equal(namesInText("the JKL rule, JK and 5X"), "the JKL rule, a joker and 5X");
});

test("counts are written with their noun", () => {
  assert.equal(plural(1, "card"), "1 card");
  assert.equal(plural(3, "card"), "3 cards");
  assert.equal(plural(2, "penalty", "penalties"), "2 penalties");
});
