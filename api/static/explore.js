// "What could I do here?": the legal actions at a position of the game viewer (POST /v1/legal-actions:
// the moves of the player to act, and, in the contract game, the calls other seats may make), each in
// words; choosing one plays it (POST /v1/adjudicate) and the viewer goes on from the new position.
// From any step of a log this is a branch ("what if"): the log up to that step and the move chosen,
// the original log kept to go back to.  Uses page.js (h, $, call, page, goTo, renderStepList...).
import {Cards} from "./cards.js";
import {$, h, plural, ordinalPath, call, clearProblems, showProblems, page, handOf, describeAction, renderStepList, goTo, meldCalled, meldsAt} from "./page.js";

export const EXPLORE_SHOWN = 12;  // moves listed at once; the rest behind "show all"
export const explore = {original: null, from: null, actions: [], all: false};

// A move in words, with the cards it lays (the step list's words say only how many melds).
export function moveWords(a, who) {
  if (a.type === "meld") {
    const melds = (a.melds || []).map(m => Cards.names(m.cards || []));
    const builds = (a.builds || []).map(b => `${Cards.names(b.cards || [])} on ${meldCalled(b.meld, meldsAt(page.p))}`);
    return `${who} lays ${melds.join("; and ")}${builds.length ? `, adding ${builds.join(" and ")}` : ""}`;
  }
  if (a.type === "turn") return `${who}: ` + (a.actions || []).map(x => moveWords(x, who)).join(", then ");
  return describeAction(a, who, meldsAt(page.p));
}

export async function askLegal() {
  const log = page.log;
  const hand = handOf(log.positions[page.p]);
  const box = $("explore-list");
  box.replaceChildren(h("p", {}, "Asking the referee\u2026"));
  const body = {variant: log.variant, state: hand};
  if (log.rules !== undefined) body.rules = log.rules;
  const r = await call("POST", "/v1/legal-actions", body);
  if (!r.ok) {
    box.replaceChildren();
    showProblems("explore-problems", null, r.body, ordinalPath);
    return;
  }
  explore.actions = r.body.actions;
  explore.all = false;
  explore.player = r.body.player;
  renderLegal(r.body);
}

export function renderLegal(answer) {
  const box = $("explore-list");
  const list = explore.actions;
  const shown = explore.all ? list : list.slice(0, EXPLORE_SHOWN);
  if (!list.length) {
    box.replaceChildren(h("p", {}, "Nobody may do anything here: the hand is over, or the position waits on something the rules do not list."));
    return;
  }
  const who = answer && answer.player ? answer.player : explore.player;
  box.replaceChildren(
    h("p", {id: "explore-said"}, `${who ? `${who} is to act` : "Nobody is to act"}; ${plural(list.length, "move")} the rules allow here` +
      (answer && answer.truncated ? " (the referee stopped looking after its limit; there may be more)" : "") +
      ". Choose one to play it and go on from there:"),
    h("ul", {class: "legal-moves", "aria-labelledby": "explore-said"}, shown.map(a => h("li", {},
      h("button", {type: "button", class: "legal-move", onclick: () => playMove(a)}, moveWords(a, a.player || who || "The player"))))),
    list.length > shown.length ? h("button", {type: "button", id: "explore-all", onclick: () => { explore.all = true; renderLegal(answer); }},
                                   `Show all ${list.length} moves`) : "");
}

// Plays `action` from the position on screen: a branch of the log (its steps up to here and this move).
export async function playMove(action) {
  const log = page.log;
  const p = page.p;
  const body = {variant: log.variant, action};
  if (log.rules !== undefined) body.rules = log.rules;
  body[log.kind === "game" ? "game" : "state"] = log.positions[p];
  const r = await call("POST", "/v1/adjudicate", body);
  if (!r.ok) {
    showProblems("explore-problems", null, r.body, ordinalPath);
    return;
  }
  if (!explore.original) { explore.original = log; explore.from = p; }
  const branch = {...log, positions: log.positions.slice(0, p + 1), verdicts: log.verdicts.slice(0, p),
                  actions: [...log.actions.slice(0, p), action], illegal: null, undecided: null, branch: true};
  branch.verdicts[p] = r.body;
  if (r.body.legal) branch.positions[p + 1] = log.kind === "game" ? r.body.game : r.body.state;
  else if (r.body.legal === false) branch.illegal = p;
  else branch.undecided = p;
  branch.end = r.body.legal ? p + 1 : p;
  page.log = branch;
  $("explore-list").replaceChildren();
  renderStepList();
  renderBranchNote();
  await goTo(branch.end);
  $("explore-ask").focus();
}

export function renderBranchNote() {
  const note = $("branch-note");
  if (!explore.original) { note.hidden = true; note.replaceChildren(); return; }
  note.hidden = false;
  note.replaceChildren(
    h("p", {}, h("strong", {}, "What if: "), `this is not the log as written. From step ${explore.from + 1} on, it plays the moves chosen here ` +
      `(${plural(page.log.actions.length - explore.from, "move")} so far). The original log is kept.`),
    h("button", {type: "button", id: "branch-back", onclick: backToOriginal}, "Back to the original log"));
}

export async function backToOriginal() {
  const p = explore.from;
  page.log = explore.original;
  explore.original = null;
  explore.from = null;
  $("explore-list").replaceChildren();
  renderStepList();
  renderBranchNote();
  await goTo(p);
  $("explore-ask").focus();
}

// A new log opened: no branch any more.
export function forgetBranch() {
  explore.original = null;
  explore.from = null;
  $("explore-list").replaceChildren();
  clearProblems("explore-problems");
  renderBranchNote();
}

document.addEventListener("DOMContentLoaded", () => {
  $("explore-ask").addEventListener("click", () => { clearProblems("explore-problems"); askLegal(); });
  document.addEventListener("log-opened", forgetBranch);
  document.addEventListener("position-shown", () => { $("explore-list").replaceChildren(); });
});
