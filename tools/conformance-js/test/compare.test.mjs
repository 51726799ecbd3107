// The comparison rules of docs/conformance.md, one by one.
import { test } from "node:test";
import assert from "node:assert/strict";
import { ABSENT, compare, contained, resolve, same } from "../compare.mjs";
import { globToRegExp, selects } from "../runner.mjs";

test("JSON equality: types, numbers by value, key order free", () => {
  assert.equal(same(1, 1.0), true);
  assert.equal(same(true, 1), false);
  assert.equal(same(null, ABSENT), false);
  assert.equal(same({ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] }), true);
  assert.equal(same({ a: 1, b: 2 }, { b: 2, a: 1 }), true);
  assert.equal(same({ a: 1 }, { a: 1, b: 2 }), false);
  assert.equal(same([1, 2], [2, 1]), false);
});

test("pointers: escapes, indices, absent", () => {
  const doc = { "a/b": { "m~n": [10, 20] }, "": 5 };
  assert.equal(resolve(doc, "/a~1b/m~0n/1"), 20);
  assert.equal(resolve(doc, "/"), 5);
  assert.equal(resolve(doc, ""), doc);
  assert.equal(resolve(doc, "/a~1b/m~0n/2"), ABSENT);
  assert.equal(resolve(doc, "/a~1b/m~0n/01"), ABSENT);
  assert.equal(resolve(doc, "/a~1b/m~0n/-"), ABSENT);
  assert.equal(resolve(doc, "a"), ABSENT);
  assert.equal(resolve({ s: "text" }, "/s/0"), ABSENT);
});

test("containment: objects by the keys given, recursively; arrays whole", () => {
  assert.equal(contained({ type: "drew", card: { rank: "9" } }, { type: "drew", card: { rank: "9", suit: "S" }, player: "A" }), true);
  assert.equal(contained({ cards: ["9S"] }, { cards: ["9S", "9H"] }), false);
});

test("a status that differs is the only difference", () => {
  const diffs = compare({ status: 200, legal: true }, 422, { legal: false });
  assert.deepEqual(diffs.map((d) => d.pointer), ["(status)"]);
});

test("a problem answer: its code, its pointers and its response", () => {
  const body = { type: "https://x/problems/impossible-state", errors: [{ pointer: "/state/stock", detail: "one short" }] };
  const expected = { status: 422, problem: "impossible-state", problems: ["/state/stock"], response: { "/errors/0/detail": "one short" } };
  assert.deepEqual(compare(expected, 422, body), []);
  assert.deepEqual(compare({ ...expected, problem: "malformed-input", problems: ["/action"] }, 422, body).map((d) => d.pointer), ["/type", "/errors"]);
});

test("legal, violations, undetermined, step, ambiguous, state, result", () => {
  const body = { legal: false, violations: [{ clause: "a.b", step: 2, ambiguous: true }], state: { to_act: "P2" }, result: null };
  assert.deepEqual(compare({ legal: false, violations: ["a.b"], undetermined: [], step: 2, ambiguous: true, state: { "/to_act": "P2" }, result: null }, 200, body), []);
  assert.deepEqual(compare({ legal: null }, 200, { legal: false }).map((d) => d.pointer), ["/legal"]);
  assert.deepEqual(compare({ legal: null }, 200, {}).map((d) => d.pointer), ["/legal"]);
  assert.deepEqual(compare({ violations: ["a.b", "c.d"] }, 200, body).map((d) => d.pointer), ["/violations"]);
  assert.deepEqual(compare({ result: null }, 200, {}).map((d) => d.pointer), ["/result"]);
  assert.deepEqual(compare({ state: { "/to_act": "P3", "/phase": "play" } }, 200, body).map((d) => d.pointer), ["/state/to_act", "/state/phase"]);
});

test("events: an ordered subsequence, matched greedily", () => {
  const body = { events: [{ type: "drew", card: "9S" }, { type: "melded" }, { type: "discarded", card: "KC" }] };
  assert.deepEqual(compare({ events: [{ type: "drew" }, { type: "discarded" }] }, 200, body), []);
  assert.deepEqual(compare({ events: [{ type: "discarded" }, { type: "drew" }] }, 200, body).map((d) => d.pointer), ["/events"]);
  assert.deepEqual(compare({ events: [{ type: "melded" }, { type: "melded" }] }, 200, body).map((d) => d.pointer), ["/events"]);
});

test("selection: globs on ids and clauses, none for no ruling", () => {
  const vector = { id: "british.draw.x-y", clauses: ["draw.only_top_card"], endpoint: "adjudicate", request: { variant: "british" }, expected: { violations: ["turn.order"] } };
  const none = { id: [], topic: [], clause: [], endpoint: [], decision: [], variant: [] };
  assert.equal(selects({ ...none, id: ["british.draw.*"] }, vector, "draw"), true);
  assert.equal(selects({ ...none, id: ["british.dr?w.x-y"] }, vector, "draw"), true);
  assert.equal(selects({ ...none, id: ["swedish.*"] }, vector, "draw"), false);
  assert.equal(selects({ ...none, clause: ["turn.*"] }, vector, "draw"), true);
  assert.equal(selects({ ...none, decision: ["none"], topic: ["draw"] }, vector, "draw"), true);
  assert.equal(selects({ ...none, decision: ["dec.x"] }, vector, "draw"), false);
  assert.equal(globToRegExp("a[!b]c").test("axc"), true);
  assert.equal(globToRegExp("a.c").test("abc"), false);
});
