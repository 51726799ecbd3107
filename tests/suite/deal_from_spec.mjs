#!/usr/bin/env node
// The deal of `sha256-fisher-yates/1`, written from the export's shuffle.md alone (no dependency:
// node's crypto for SHA-256, BigInt for the 64-bit numbers), and checked against every deal vector of
// an export: each vector the referee answers with a deal must be dealt here to the same values at
// every pointer the vector expects.  tests/suite/test_deal_spec.py runs it.
//
//   node deal_from_spec.mjs EXPORT_DIR      prints {"dealt": N, "refused": N, "mismatches": [...]}
import { createHash } from "node:crypto";
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

const TWO64 = 1n << 64n;

// 1. the seed as text, the key of a purpose
function seedText(seed) {
  return typeof seed === "number" ? String(Math.trunc(seed)) : seed;
}

// 2. a purpose's endless sequence of uint64 numbers
function* numbers(seed, purpose) {
  const key = Buffer.concat([Buffer.from(seedText(seed), "utf8"), Buffer.from([0]), Buffer.from(purpose, "utf8")]);
  for (let k = 0n; ; k++) {
    const counter = Buffer.alloc(8);
    counter.writeBigUInt64BE(k);
    const block = createHash("sha256").update(Buffer.concat([key, counter])).digest();
    for (let at = 0; at < 32; at += 8) yield block.readBigUInt64BE(at);
  }
}

// 3. the shuffle, from the last position down
export function shuffle(items, seed, purpose) {
  const out = [...items];
  const draw = numbers(seed, purpose);
  for (let i = out.length - 1; i >= 1; i--) {
    const m = BigInt(i + 1);
    const limit = TWO64 - (TWO64 % m);
    let x = draw.next().value;
    while (x >= limit) x = draw.next().value;
    const j = Number(x % m);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

// 4. the pack before the shuffle
const SUITS = ["S", "H", "D", "C"];
const RANKS = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"];
function startingPack(decks, jokers) {
  const out = [];
  for (let d = 0; d < decks; d++) for (const s of SUITS) for (const r of RANKS) out.push(r + s);
  for (let j = 0; j < jokers; j++) out.push("JK");
  return out;
}
function startingPlace(card) {
  return card === "JK" ? 1000 : 100 * SUITS.indexOf(card.slice(-1)) + RANKS.indexOf(card.slice(0, -1));
}

// 5. house rules laid over the variant's parameters
function merge(base, over) {
  const out = structuredClone(base);
  for (const [key, value] of Object.entries(over ?? {})) {
    const plain = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
    out[key] = plain(value) && plain(out[key]) ? merge(out[key], value) : structuredClone(value);
  }
  return out;
}

export function deal(parameters, request) {
  const p = merge(parameters, request.rules);
  const players = typeof request.players === "number"
    ? Array.from({ length: request.players }, (_, k) => `P${k + 1}`) : request.players;
  const n = players.length;
  const dealer = request.dealer ?? players[n - 1];
  const seed = seedText(request.seed);
  const table = p.pack.by_players?.[String(n)] ?? { decks: p.pack.decks, jokers: p.pack.jokers };
  let pack = shuffle(startingPack(table.decks, table.jokers), seed, "deal");
  const first = (players.indexOf(dealer) + 1) % n;
  const order = players.map((_, k) => players[(first + k) % n]);
  const cutter = players[(players.indexOf(dealer) - 1 + n) % n];
  const lifted = request.cut ? request.cut.count : 4 + Number(numbers(seed, "cut").next().value % BigInt(pack.length - 7));
  const handNumber = p.contract ? (request.hand ?? p.contract.first) : 0;
  const each = p.contract ? p.contract.hands[String(handNumber)].cards
    : (p.deal.cards_by_players?.[String(n)] ?? p.deal.cards_each);
  const hands = Object.fromEntries(players.map((id) => [id, []]));
  let shown = null;
  if (p.deal.joker_on_cut) {
    shown = pack[lifted - 1];
    pack = [...pack.slice(lifted), ...pack.slice(0, lifted)];
    if (shown === "JK") hands[cutter].push(pack.pop());
  }
  let at = 0;
  for (const size of p.deal.packets ?? Array(each).fill(1)) {
    for (const id of order) {
      const give = Math.min(size, each - hands[id].length);
      hands[id].push(...pack.slice(at, at + give));
      at += give;
    }
  }
  const discard = p.deal.upcard ? [pack[at++]] : [];
  const option = p.draw.dealer_upcard_option;
  const state = {
    players: players.map((id) => ({ id, hand: [...hands[id]].sort((a, b) => startingPlace(a) - startingPlace(b)),
                                    score: 0, opened: false, barred: false })),
    dealer, to_act: option ? dealer : order[0], phase: "draw", stock: pack.slice(at), discard, first_play: true,
    reshuffles: 0, seed, melds: [], result: null, announcement: null,
  };
  if (handNumber) state.hand_number = handNumber;
  if (option) state.dealer_option = true;
  const record = { algorithm: "sha256-fisher-yates/1", seed, dealer, first_to_play: state.to_act, cut_by: cutter,
                   cards_each: each, pack: { decks: table.decks, jokers: table.jokers }, upcard: discard[0] ?? null };
  if (handNumber) record.hand_number = handNumber;
  if (p.deal.dealer_cut_bonus !== null && p.deal.dealer_cut_bonus !== undefined) {
    record.cut_by = dealer;
    record.dealer_cut = lifted;
    record.dealer_cut_bonus = lifted === n * each ? p.deal.dealer_cut_bonus : 0;
  }
  if (shown !== null) {
    record.cut_shows = shown;
    record.cutter_keeps_joker = shown === "JK";
  }
  if (request.cut) record.cut_reported = true;
  return { deal: record, state };
}

function at(doc, pointer) {
  let here = doc;
  for (const raw of pointer.split("/").slice(1)) {
    const key = raw.replaceAll("~1", "/").replaceAll("~0", "~");
    if (here === null || typeof here !== "object" || !(key in here)) return undefined;
    here = here[key];
  }
  return here;
}

function main(directory) {
  const variants = JSON.parse(readFileSync(join(directory, "variants.json"), "utf8")).variants;
  const summary = { dealt: 0, refused: 0, mismatches: [] };
  for (const name of readdirSync(directory).sort()) {
    if (!statSync(join(directory, name)).isDirectory()) continue;
    for (const file of readdirSync(join(directory, name)).filter((f) => f.endsWith(".json")).sort()) {
      for (const vector of JSON.parse(readFileSync(join(directory, name, file), "utf8")).vectors) {
        if (vector.endpoint !== "deal") continue;
        if ((vector.expected.status ?? 200) !== 200) {  // a request the referee refuses: nothing is dealt
          summary.refused += 1;
          continue;
        }
        const answer = deal(variants[vector.request.variant].parameters, vector.request);
        summary.dealt += 1;
        for (const [pointer, wanted] of Object.entries(vector.expected.response ?? {})) {
          const got = at(answer, pointer);
          if (JSON.stringify(got) !== JSON.stringify(wanted)) summary.mismatches.push({ id: vector.id, pointer, wanted, got });
        }
      }
    }
  }
  console.log(JSON.stringify(summary));
}

main(process.argv[2]);
