// A misspelt house rule: tsc must refuse this file (tests/api/test_contract_tools.py), as the service
// refuses the rule with a 422 naming /rules/opening/minimun.
import type { components } from "./api.js";

type Rules = components["schemas"]["Rules"];

export const misspelt: Rules = { opening: { minimun: 51 } };
