// The words of an answer, with no page around them: the first words ("Yes, you may."), and what the
// table does now, from the question asked (the action sent), the referee's verdict and the variant's
// parameters (GET /v1/variants).  Players are "you" (the player to act) or "Player 2", "Player 3"...;
// cards by name, melds by their cards: never a code, an id or a field name.
import {listWords, name, names, plural} from "./cardwords.js";
import {YOU} from "./position.js";

/** A seat as the answer names it: "you" for the person asking (the seat `you`), else the seat's name. */
export function who(id, you = YOU) { return id === you ? "you" : id; }

const whoIs = who;

/** The person asking: the first seat of the position asked about. */
export function askerOf(state) { return state && state.players && state.players[0] ? state.players[0].id : YOU; }

function capital(text) { return text.charAt(0).toUpperCase() + text.slice(1); }

/** A meld on the table by its cards: "the run of the seven of hearts, a joker and the nine of hearts". */
export function meldWords(meld) {
  if (!meld) return "that meld";
  return `the ${meld.kind || "meld"} of ${names(meld.cards)}`;
}

/** The answer's first words, about whoever the question is about (a challenge's, about who is charged:
 *  the verdict's events say). */
export function firstWords(action, legal, events = [], you = YOU) {
  if (legal === null || legal === undefined) return "The referee needs to see more cards to decide.";
  const yes = legal;
  const who = id => whoIs(id, you);
  const charged = (events || []).find(e => e.type === "penalized");
  switch (action.type) {
    case "call": return yes ? `Yes, ${who(action.player)} may call it.` : `No, ${who(action.player)} may not call it.`;
    case "allow": return yes ? `Yes, you may allow ${who(action.caller)}'s call.` : `No, you may not allow ${who(action.caller)}'s call here.`;
    case "penalty": return yes ? `Yes, the penalty stands against ${who(action.player)}.` : `No, that costs ${who(action.player)} no penalty here.`;
    case "challenge":
      if (!yes) return `No, ${who(action.player)} may not challenge ${who(action.target)} here.`;
      if (charged && charged.player === action.player) {
        return `Yes, ${who(action.player)} may challenge ${who(action.target)}, but the challenge is wrong: ${who(action.player)} is charged, not ${who(action.target)}.`;
      }
      return charged ? `Yes, ${who(action.player)} may challenge ${who(action.target)}, and the challenge is right: ${who(charged.player)} is charged.`
                     : `Yes, ${who(action.player)} may challenge ${who(action.target)}.`;
    default: return yes ? "Yes, you may." : "No, you may not.";
  }
}

function penaltyCards(params) { return (params.calling && params.calling.penalty_cards) || 0; }

function jokerGoes(params) {
  const into = params.joker_reuse && params.joker_reuse.released_into;
  if (into === "new_meld") return "The joker must go at once into a new meld of yours: it never goes into your hand, nor onto a meld already on the table.";
  return "The joker must be laid at once, in a new meld or added to a meld on the table: it never goes into your hand.";
}

function stepsOf(action) { return action.type === "turn" ? action.actions : [action]; }

/** The cards a meld step lays (its new melds and what it adds to melds on the table). */
function cardsLaid(step) {
  if (step.type === "build") return (step.cards || []).length;
  if (step.type !== "meld") return 0;
  return (step.melds || []).reduce((n, m) => n + (m.cards || []).length, 0)
       + (step.builds || []).reduce((n, b) => n + (b.cards || []).length, 0);
}

/** After a refused move: it does not stand, and what the player does instead, from the step refused
 *  (the violation's `step` in a turn), what the turn had done before it and the player's seat. */
function refusedWords(action, verdict, discard, state) {
  const who = id => whoIs(id, askerOf(state));
  const v = (verdict.violations || [])[0] || {};
  const steps = stepsOf(action);
  const index = Number.isInteger(v.step) ? Math.min(v.step, steps.length - 1) : steps.length - 1;
  const refused = steps[index] || action;
  const seat = state && state.players ? state.players.find(p => p.id === state.to_act) : null;
  const penalty = v.penalty ? ` The table may also charge ${who(v.penalty.player)} ${plural(v.penalty.points, "point")} for it.` : "";
  const top = discard && discard.length ? name(discard[0]) : "the discard";
  const tookDiscard = steps.slice(0, index + 1).some(s => s.type === "draw" && s.source === "discard");
  const held = seat ? seat.hand.length + (seat.hidden || 0) : null;
  const laid = steps.reduce((n, s) => n + cardsLaid(s), 0);
  let instead;
  if (seat && seat.barred) {
    instead = "you may still draw, lay and throw a card this turn, but not go out: keep a card in your hand after your throw.";
  } else if (tookDiscard && ["draw", "discard", "meld", "build"].includes(refused.type)) {
    instead = `${top} goes back on the discard pile, and you draw from the stock instead and play your turn.`;
  } else if (held !== null && laid >= held && !steps.some(s => s.type === "discard")) {
    instead = "keep one card back: lay the others as the rules allow and end your turn by throwing it.";
  } else if (["meld", "build", "swap_joker"].includes(refused.type)) {
    instead = "the cards go back where they were; you may still lay what the rules allow, and you end your turn with a discard.";
  } else if (refused.type === "discard") {
    instead = "you keep that card and throw one the rules allow.";
  } else if (refused.type === "draw") {
    instead = "you draw as the rules allow instead.";
  } else if (["call", "allow", "challenge", "penalty"].includes(refused.type)) {
    instead = "nothing changes, and play goes on as before.";
  } else {
    instead = "the cards go back where they were, and the player plays as the rules allow.";
  }
  return `The move does not stand: ${instead}${penalty}`;
}

/** What the table does now, in a sentence or two: after an allowed move, what follows from it; after
 *  a refused one, what the player does instead.  `state` is the position asked about. */
export function tableNowWords(action, verdict, params, discard, state = null) {
  if (verdict.legal === false) return refusedWords(action, verdict, discard, state);
  const who = id => whoIs(id, askerOf(state));
  if (verdict.legal !== true) {
    return "Show the referee the cards it names (or settle them at the table) and ask again; until then the move is neither allowed nor refused.";
  }
  if (verdict.settlement) {
    return "The hand is over. Settle the figures the table shows now; show the referee the cards it names (or count them at the table) for the rest.";
  }
  if (verdict.state && verdict.state.phase === "ended") {
    return "The hand is over: the others count the cards left in their hands and pay as the answer shows.";
  }
  const top = discard && discard.length ? name(discard[0]) : "the discard";
  const steps = stepsOf(action);
  const last = steps[steps.length - 1];
  const n = penaltyCards(params);
  switch (last.type) {
    case "call":
      return `If you allow the call, ${who(action.player)} takes ${top}${n ? ` and ${plural(n, "penalty card")} from the stock` : ""}, and may not lay or discard now. Then you, the player to act, pluck from the stock and play your turn.`;
    case "allow":
      return `${capital(who(last.caller))} takes ${top}${n ? ` and ${plural(n, "penalty card")} from the stock` : ""}, and may not lay or discard now. Then you pluck from the stock and play your turn.`;
    case "swap_joker":
      if (!last.place) return jokerGoes(params);
      if (last.place.type === "build" && last.place.meld === last.meld) return "The joker moves up to the high end of the run; you go on with your turn.";
      return "The joker goes at once into your new meld, as you laid it: it never goes into your hand. You go on with your turn and end it with a discard.";
    case "draw":
      if (last.source === "discard" && steps.length === 1) return `You take ${top} into your hand; then you lay what you may and end your turn with a discard.`;
      return "You draw; then you lay what you may and end your turn with a discard.";
    case "meld": case "build":
      return "The cards stay on the table; you go on with your turn and end it with a discard.";
    case "discard":
      return "Your turn ends; the player on your left plays next.";
    case "pass":
      return "Your turn ends; the player on your left plays first.";
    case "challenge": case "penalty":
      return "The points are charged as the referee says; play goes on.";
    default:
      return "The move stands; play goes on.";
  }
}

/** A move the rules allow, in a player's words, melds by their cards ("Lay the ten of spades, ...").
 *  `melds` maps a table meld's id to the meld. */
export function moveWords(action, melds, you = YOU) {
  const who = id => whoIs(id, you);
  const meld = id => meldWords(melds.get(id));
  switch (action.type) {
    case "meld": {
      const laid = (action.melds || []).map(m => names(m.cards || []));
      const adds = (action.builds || []).map(b => `${names(b.cards || [])} to ${meld(b.meld)}`);
      return `Lay ${listWords(laid.map(w => `(${w})`))}${adds.length ? `, adding ${listWords(adds)}` : ""}`;
    }
    case "build": return `Add ${names(action.cards || [])} to ${meld(action.meld)}${action.end ? ` at its ${action.end} end` : ""}`;
    case "discard": return `Throw ${name(action.card)}`;
    case "draw": return action.source === "discard" ? "Take the top discard" : "Draw from the stock";
    case "swap_joker": return `Put ${names(action.naturals || [])} in place of the joker in ${meld(action.meld)}`;
    case "pass": return "Pass on the face-up card";
    case "announce": return `Say how many cards you hold (${action.count})`;
    case "call": return `${capital(who(action.player))} calls the top discard`;
    case "allow": return `Let ${who(action.caller)} have the called card`;
    case "turn": return (action.actions || []).map(a => moveWords(a, melds, you)).join(", then ");
    default: return "Another move the rules allow";
  }
}

// -- a meld whose jokers can be read more than one way ------------------------------------------------

const bare = code => (code.startsWith("JK") ? "JK" : code);
const sameCards = (a, b) => a.length === b.length && a.map(bare).sort().join() === b.map(bare).sort().join();

/** The move asked again with one of the readings the referee found for a meld of it (the meld of the
 *  same cards laid with its jokers declared as the reading says); null when no meld of the move has
 *  those cards. */
export function withReading(action, reading) {
  let found = false;
  const fix = melds => (melds || []).map(m => {
    if (found || !sameCards(m.cards || [], reading.cards)) return m;
    found = true;
    return {...m, kind: reading.kind, cards: reading.cards.slice()};
  });
  const step = a => {
    if (a.type === "meld") return {...a, melds: fix(a.melds)};
    if (a.type === "swap_joker" && a.place) return {...a, place: step(a.place)};
    if (a.type === "turn") return {...a, actions: (a.actions || []).map(step)};
    return a;
  };
  const asked = step(action);
  return found ? asked : null;
}

/** A reading as a player chooses it: "a joker standing for the six of hearts". */
export function readingWords(reading) {
  return names(reading.cards.filter(code => code.startsWith("JK(")));
}
