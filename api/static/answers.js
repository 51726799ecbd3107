// The words of an answer, with no page around them: the first words ("Yes, you may."), and what the
// table does now, from the question asked (the action sent), the referee's verdict and the variant's
// parameters (GET /v1/variants).  Players are "you" (the player to act) or "Player 2", "Player 3"...;
// cards by name, melds by their cards: never a code, an id or a field name.
import {listWords, name, names, plural} from "./cardwords.js";
import {YOU} from "./position.js";

/** A seat as the answer names it: "you" for the person asking, else the seat's name. */
export function who(id) { return id === YOU ? "you" : id; }

function capital(text) { return text.charAt(0).toUpperCase() + text.slice(1); }

/** A meld on the table by its cards: "the run of the seven of hearts, a joker and the nine of hearts". */
export function meldWords(meld) {
  if (!meld) return "that meld";
  return `the ${meld.kind || "meld"} of ${names(meld.cards)}`;
}

/** The answer's first words, about whoever the question is about. */
export function firstWords(action, legal) {
  if (legal === null || legal === undefined) return "The referee needs to see more cards to decide.";
  const yes = legal;
  switch (action.type) {
    case "call": return yes ? `Yes, ${who(action.player)} may call it.` : `No, ${who(action.player)} may not call it.`;
    case "allow": return yes ? `Yes, you may allow ${who(action.caller)}'s call.` : `No, you may not allow ${who(action.caller)}'s call here.`;
    case "penalty": return yes ? `Yes, the penalty stands against ${who(action.player)}.` : `No, that costs ${who(action.player)} no penalty here.`;
    case "challenge": return yes ? `Yes, ${who(action.player)} may challenge ${who(action.target)}.`
                                 : `No, ${who(action.player)} may not challenge ${who(action.target)} here.`;
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

/** What the table does now, in a sentence or two: after an allowed move, what follows from it; after
 *  a refused one, that it does not stand. */
export function tableNowWords(action, verdict, params, discard) {
  if (verdict.legal === false) {
    return "The move does not stand: the cards go back where they were, and the player plays as the rules allow.";
  }
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
export function moveWords(action, melds) {
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
    case "turn": return (action.actions || []).map(a => moveWords(a, melds)).join(", then ");
    default: return "Another move the rules allow";
  }
}
