// node --test: the referee's notes in a player's words (api/static/rulewords.js).
import {test} from "node:test";
import assert from "node:assert/strict";
import {plainWords} from "../../api/static/rulewords.js";

const RES = {sources: new Map([["pagat", {id: "pagat", file: "000_pagat.txt", title: "Kaluki (pagat.com)"}]]),
             clauses: new Map([["play.final_discard", {id: "play.final_discard", statement: "Going out ends with a discard."}]])};

test("documents are named by title and ambiguity ids are left out", () => {
  assert.equal(plainWords("Document 000 is silent (amb.x_y).", RES), "\u201cKaluki (pagat.com)\u201d is silent.");
  assert.equal(plainWords("amb.x_y: documents agree against 000.", RES), "Documents agree against \u201cKaluki (pagat.com)\u201d.");
  assert.equal(plainWords("amb.only_an_id.", RES), "The sources leave this open: this is the referee's reading.");
});

test("a refusal's status number, codes and parameter names become words", () => {
  assert.equal(plainWords("A seat off is refused (422, HAND_SIZE at its hand) with its count.", RES),
               "A seat off is refused with its count.");
  assert.equal(plainWords("It cannot be settled: 422, pointing at the loser's missing hands entry (or the penalty).", RES),
               "It cannot be settled: the referee asks for the cards left in the loser's hand (or the penalty).");
  assert.equal(plainWords("Clubs that differ set full_set_joker to last_natural.", RES), "Clubs that differ choose so in their house rules.");
  assert.equal(plainWords("It is sent as a swap_joker whose place is a build.", RES), "It is sent as a joker exchange whose place is a build.");
});

test("a clause id becomes the rule's own words", () => {
  assert.equal(plainWords("As play.final_discard says.", RES), "As the rule \u201cGoing out ends with a discard\u201d says.");
});
