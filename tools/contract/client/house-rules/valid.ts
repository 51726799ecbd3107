// A house rule as a TypeScript client writes it, typed by openapi.yaml's Rules (tests/api/test_contract_tools.py
// generates api.d.ts with openapi-typescript and runs tsc on this file: it must compile).
import type { components } from "./api.js";

type Rules = components["schemas"]["Rules"];
type RulesOrNull = components["schemas"]["RulesOrNull"];

// document 000's "Variations": the game played to 501, and 51 to open
export const to501: Rules = { game: { limit: 501 }, opening: { minimum: 51 } };
// a table that plays without a limit and with aces either end of a run
export const noLimit: Rules = { game: { limit: null }, melds: { run: { ace: "high_or_low" } } };
// no house rules at all (a request's `rules` may be null)
export const none: RulesOrNull = null;
