// A hand played through a client generated from openapi.yaml: openapi-typescript writes the types
// (api.d.ts) and openapi-fetch makes the calls, so `tsc` checks every request and answer against the
// contract.  Usage: node out/play-hand.js BASE_URL SEED TURNS.  It deals, plays TURNS turns (each
// action taken from /v1/legal-actions: draw from the stock, then the first discard listed), replays
// the log, checks a meld, and prints a JSON summary; any unexpected answer exits with status 1.
import createClient from "openapi-fetch";
import type { components, paths } from "./api.js";

type Action = components["schemas"]["Action"];
type State = components["schemas"]["State"];

const [baseUrl, seed, turnsText] = process.argv.slice(2);
if (!baseUrl || !seed || !turnsText) {
  throw new Error("usage: play-hand.js BASE_URL SEED TURNS");
}
const client = createClient<paths>({ baseUrl });
const players = ["Andy", "Mark", "John", "Frank"];

function fail(what: string, detail: unknown): never {
  console.error(`${what}: ${JSON.stringify(detail)}`);
  process.exit(1);
}

function choose(actions: Action[], phase: string): Action {
  const pick = phase === "draw"
    ? actions.find((a) => a.type === "draw" && a.source === "stock")
    : actions.find((a) => a.type === "discard");
  return pick ?? fail(`no action to take in phase ${phase}`, actions);
}

const dealt = await client.POST("/v1/deal", { body: { variant: "british", players, seed, dealer: "Frank" } });
if (!dealt.data) fail("deal", dealt.error);
let state: State = dealt.data.state;
const log: Action[] = [];

for (let turn = 0; turn < Number(turnsText); turn++) {
  for (const phase of ["draw", "play"]) {
    const listed = await client.POST("/v1/legal-actions", { body: { variant: "british", state } });
    if (!listed.data) fail("legal-actions", listed.error);
    if (listed.data.phase !== phase || listed.data.player !== state.to_act) fail("listing", listed.data);
    const action = choose(listed.data.actions, phase);
    const verdict = await client.POST("/v1/adjudicate", { body: { variant: "british", state, action } });
    if (!verdict.data) fail("adjudicate", verdict.error);
    if (!verdict.data.legal || !verdict.data.state) fail("a listed action was refused", verdict.data);
    const kinds = verdict.data.events.map((e) => e.type);
    if (!kinds.includes(action.type === "draw" ? "drew" : "discarded")) fail("events", verdict.data.events);
    state = verdict.data.state;
    log.push(action);
  }
}

const replayed = await client.POST("/v1/replay", {
  body: { variant: "british", start: { deal: { players, seed, dealer: "Frank" } }, actions: log },
});
if (!replayed.data) fail("replay", replayed.error);
const { final, first_illegal, steps } = replayed.data;
if (first_illegal !== null || final === null || steps.length !== log.length) fail("replay", replayed.data);
if (JSON.stringify(final.position) !== JSON.stringify(state)) fail("the replay ends elsewhere", final.position);

const meld = await client.POST("/v1/melds/check", {
  body: { variant: "british", cards: ["6S", "5S", "JK"], declarations: { kind: "run", jokers: ["4S"] } },
});
if (!meld.data) fail("melds/check", meld.error);

const refused = await client.POST("/v1/melds/check", { body: { variant: "british", cards: [] } });
if (refused.response.status !== 422 || !refused.error) fail("an empty meld was not refused", refused.response.status);

console.log(JSON.stringify({
  actions: log, to_act: state.to_act, final_hash: final.hash,
  meld: { valid: meld.data.valid, kind: meld.data.kind, cards: meld.data.cards, value: meld.data.value },
  refused: refused.error.errors?.map((e) => e.pointer) ?? [],
}));
