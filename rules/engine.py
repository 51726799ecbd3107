"""The one entry point: ``adjudicate(variant, state, action) -> Verdict``.

Every rule here is general and reads the variant's parameters; no rule looks at a variant's id.
A rule-illegal action is not an exception for the caller: it is a verdict with ``legal: false``.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Callable, Sequence

from . import search
from .actions import (Action, Allow, Announce, Build, Call, Challenge, Discard, Draw, MeldAction, Pass, Penalty,
                      SwapJoker, TurnAction)
from .cards import JOKER, UNSEEN, Card, seen
from .clause_ids import (BUILD_NONE_AFTER_SOMEONE_GOES_OUT, BUILD_ONLY_AFTER_OWN_OPENING,
                         CALL_ALLOWED_CALL_EFFECTS, CALL_DEAD_AFTER_STOCK_PLUCK, CALL_ELIGIBILITY,
                         CALL_FIRST_CALLER_PRIORITY, CALL_LAID_DOWN_TURN_PLAYER_MUST_ALLOW,
                         CALL_LIMIT_THREE_PER_HAND, CALL_NOT_BEFORE_CARD_LANDS,
                         CALL_OVERCALL_CHALLENGE, CALL_TURN_PLAYER_ALLOWS_OR_REFUSES,
                         DISCARD_JAMAICAN_JOKER_FORBIDDEN, PENALTY_JAMAICAN_HOUSE_RULE_INFRACTIONS,
                         PENALTY_JAMAICAN_INCORRECT_LAY_AFTER_DISCARD, PENALTY_JAMAICAN_INCORRECT_LAY_BEFORE_DISCARD,
                         TURN_JAMAICAN_MISSING_PLUCK_OR_DISCARD_PENALTY, DRAW_JAMAICAN_STOCK_ONLY_AFTER_LAYING,
                         INITIAL_MELD_JAMAICAN_COMPLETE_CONTRACT_FIRST, JOKER_JAMAICAN_MOVE_UP_IN_4,
                         JOKER_JAMAICAN_ONLY_ON_OWN_SETS,
                         REFEREE_JOKER_NEVER_RELEASED,
                         BUILD_RUN_MAX_TWO_PER_END_PER_TURN, BUILD_RUN_MAX_TWO_TOTAL_PER_TURN,
                         DRAW_DEALER_UPCARD_OPTION, DRAW_DISCARD_ONLY_WITH_INITIAL_MELD, DRAW_ONLY_TOP_CARD,
                         DRAW_UK_DISCARD_NOT_AS_GOER, GO_OUT_FINAL_DISCARD_REQUIRED, INITIAL_MELD_MINIMUM_40,
                         JOKER_DECLARE_RUN_END_JOKER, JOKER_REUSE_RELEASED_JOKER_USED_AT_ONCE,
                         JOKER_REUSE_REQUIRES_OPENING, JOKER_REUSE_RUN_EXACT_NATURAL,
                         JOKER_REUSE_RUN_INTERIOR_ONLY, JOKER_REUSE_SET_NEEDS_BOTH_MISSING_NATURALS,
                         JOKER_REUSE_SET_SINGLE_NATURAL_CLOSES_SET,
                         JOKER_REUSE_SET_SINGLE_NATURAL_NORTH_AMERICAN,
                         JOKER_REUSE_SET_TWO_JOKERS_RELEASE_ONE, MELD_PERMANENT_NO_REARRANGEMENT,
                         MELD_SET_GRIFFIN_IDENTICAL_TRIPLE, MELD_SET_SCARNE_ALL_JOKER_SET, REFEREE_CARDS_HELD,
                         REFEREE_FIRST_DRAW_WITHOUT_UPCARD, REFEREE_FULL_SET_JOKER_ONE_NATURAL,
                         TURN_DRAW_MELD_DISCARD, TURN_LEFT_OF_DEALER_STARTS_CLOCKWISE,
                         WARNING_ANNOUNCE_ONE_TO_THREE_CARDS)
from .clauses import Cited
from . import events as ev
from .errors import MalformedInput, Problem, RefereeInputError, pointer
from .melds import (Failure, Meld, MeldDict, Slot, Token, contract_failure, extend_run, extend_set,
                    is_identical, meld_value, read_meld, set_order)
from .settlement import OpenSettlement, Seat, settle_open, settle_void, settle_won
from .shuffle import shuffled
from .state import (FRESH_TURN, Announcement, HandResult, Phase, Player, Source, State, TableMeld, Turn, build,
                    free_meld_id, replace, unaccounted)
from .params import OnlyJokers
from .variant import Variant
from .clause_ids import (BUILD_ONTO_ANY_PLAYERS_MELD, DISCARD_JAMAICAN_ANY_OTHER_CARD,
                         DRAW_DISCARD_FREE_AFTER_INITIAL_MELD, DRAW_FIRST_PLAY_FREE_UPCARD,
                         DRAW_JAMAICAN_DISCARD_OPEN_BEFORE_LAYING, GAME_EACH_HAND_SETTLED_SEPARATELY,
                         GAME_NORTH_AMERICAN_WINNER_COLLECTS_POINTS, INITIAL_MELD_BUILDS_NOT_COUNTED,
                         INITIAL_MELD_KALOOKIE_EXEMPT, INITIAL_MELD_LATER_MELDS_ANY_VALUE,
                         INITIAL_MELD_LAYOFFS_COUNT_WITH_OWN_MELD, INITIAL_MELD_SEVERAL_MELDS_SUMMED,
                         KALOOKIE_BUILDS_NEED_FORTY_NEW_FIRST, KALOOKIE_DEFINITION,
                         KALOOKIE_DOUBLE_PENALTIES_VARIANT, KALOOKIE_NO_BONUS_NORTH_AMERICA,
                         KALUKI_DOUBLES_PER_CARD_PAYMENTS, MELD_RUN_LONG_SEQUENCE_MAY_SPLIT,
                         SCORE_PER_CARD_PAYMENTS, STAKES_DENEXA_TOKENS,
                         STAKES_UK_REWARD_PAYMENTS, STOCK_NO_RESHUFFLE_VARIANT, STOCK_RESHUFFLE_ONCE,
                         STOCK_SECOND_EXHAUSTION_VOIDS_HAND, TURN_MELDING_OPTIONAL)
from .clauses import enforces


@dataclass(frozen=True)
class Violation:
    clause: str
    message: str
    step: int | None = None
    ambiguous: bool = False
    readings: tuple[MeldDict, ...] = ()
    needs: tuple[str, ...] = ()  # an undetermined answer's: pointers (into the state) of what would have to be seen
    cited: Cited | None = None  # how the variant cites it: set by cited_by, as for every violation a verdict holds
    charge: "Charge | None" = None  # the infraction the refused act is at the table (see ``Charge``)
    penalty: "Penalised | None" = None  # what the variant's table charges for it: set by cited_by

    def cited_by(self, variant: Variant) -> "Violation":
        """This violation as ``variant`` cites it (``Variant.citation``: the variant's clause for the
        rule, its statement, sources and the rulings it rests on)."""
        cited = variant.citation(self.clause)
        return replace(self, clause=cited.clause, cited=cited, penalty=penalised(variant, self.charge))


@dataclass(frozen=True)
class Charge:
    """A refused act that is itself an infraction at the table (``params.INFRACTIONS``): who made it and
    which.  The engine names the act; the variant decides whether its table penalises it."""
    player: str
    infraction: str


@dataclass(frozen=True)
class Penalised:
    """The penalty a variant's table charges for a refused act: ``points`` to ``player`` for the
    ``infraction``, under ``clause`` (the variant's citation).  A client applies it with the ``penalty``
    action (type penalty, by that player, with that infraction)."""
    player: str
    infraction: str
    points: int
    clause: str


def infraction_clause(infraction: str) -> str:
    """The rule that penalises ``infraction``: the missing pluck or discard, else the house rules'."""
    return (TURN_JAMAICAN_MISSING_PLUCK_OR_DISCARD_PENALTY if infraction.startswith("missing_")
            else PENALTY_JAMAICAN_HOUSE_RULE_INFRACTIONS)


def penalised(variant: Variant, charge: Charge | None) -> Penalised | None:
    """What ``variant``'s table charges for the act ``charge`` names (``penalties``): its points where the
    infraction is one the table penalises (``penalties.infractions``) and a penalty costs something."""
    rules = variant.rules.penalties
    if charge is None or charge.infraction not in rules.infractions or not rules.points:
        return None
    return Penalised(charge.player, charge.infraction, rules.points, variant.cite(infraction_clause(charge.infraction)))


@dataclass(frozen=True)
class Verdict:
    """``legal`` is None when the answer depends on cards nobody listed: ``undetermined`` then says
    which rule and what would have to be seen.  A legal action whose settlement depends on unseen
    cards (going out while other hands are counted, not listed) is legal with ``undetermined``
    naming the settlement, no result, and ``settlement``: every figure, decided or bounded."""
    legal: bool | None
    violations: tuple[Violation, ...]
    state: State
    events: tuple[ev.Event, ...]
    undetermined: tuple[Violation, ...] = ()
    settlement: OpenSettlement | None = None   # a hand won with figures the seen cards leave open

    @property
    def result(self) -> HandResult | None:
        return self.state.result if self.legal else None


class Illegal(Exception):
    """A rule the action breaks.  ``waived`` is, where the rule can be set aside, the position as if it
    held (the action the actor's to make, a card not held in their hand): the turn machine looks on
    from there for the other rules the same action breaks (``_broken``)."""
    def __init__(self, clause: str, message: str, ambiguous: bool = False, readings: tuple[MeldDict, ...] = (),
                 charge: Charge | None = None, waived: State | None = None):
        super().__init__(message)
        self.violation = Violation(clause, message, None, ambiguous, readings, charge=charge)
        self.waived = waived

    @classmethod
    def of(cls, failure: Failure) -> "Illegal":
        return cls(failure.clause, failure.message, failure.ambiguous, failure.readings)


class Undetermined(Exception):
    """The answer depends on cards nobody listed: the rule (its clause), why, and the pointers
    (relative to the state) of the counts that would have to be seen.  Never a guess either way.

    ``owes``: what the action would owe were it allowed (taking the discard: the opening in this turn,
    the card to be melded at once), and ``carried``: the position after it, owing that.  A whole turn
    reads on from ``carried``: its later steps may settle the question (``adjudicate``)."""
    def __init__(self, clause: str, message: str, needs: Sequence[str],
                 owes: tuple[bool, Card | None] | None = None):
        super().__init__(message)
        self.violation = Violation(clause, message, needs=tuple(needs))
        self.owes = owes
        self.carried: State | None = None


def _hidden_of(state: State, player_id: str) -> list[str]:
    """The pointer of ``player_id``'s count of unseen cards."""
    return [pointer("players", state.index(player_id), "hidden")]


def adjudicate(variant: Variant, state: State, action: Action) -> Verdict:
    """Decide ``action`` in ``state`` under ``variant``.  A ``turn`` is all-or-nothing: the first
    illegal step is reported (with its index) and the state is returned unchanged."""
    events: list[ev.Event] = []
    is_turn = isinstance(action, TurnAction)
    steps, who = (action.actions, action.player) if isinstance(action, TurnAction) else ((action,), None)
    current = state
    for i, step in enumerate(steps):
        if who is not None and step.player is None:
            step = replace(step, player=who)
        at = f"/actions/{i}" if is_turn else ""
        try:
            current = _apply(variant, current, step, events, at)
        except Illegal as exc:
            broken, open_rule = _broken(variant, step, exc, at)
            found = tuple(v.cited_by(variant) for v in broken)
            opened = tuple(u.cited_by(variant) for u in open_rule)
            if is_turn:
                found = tuple(replace(v, step=i) for v in found)
                opened = tuple(replace(u, step=i) for u in opened)
            return Verdict(False, found, state, (), opened)
        except Undetermined as exc:
            u = exc.violation.cited_by(variant)
            if not is_turn:
                return Verdict(None, (), state, (), (u,))
            return _read_on(variant, state, steps[i + 1:], i, who, exc.carried, replace(u, step=i), events)
    return _settled(variant, state, current, events)


def _read_on(variant: Variant, state: State, rest: Sequence[Action], i: int, who: str | None,
             carried: State | None, u: Violation, events: list[ev.Event]) -> Verdict:
    """A whole turn whose step ``i`` the seen cards leave undetermined (``u``), but which, were it
    allowed, would leave the position ``carried`` owing something in this turn (an opening, a taken
    discard melded at once): the rest of the turn is read from there.  A turn that then discharges what
    was owed shows the step was possible: legal.  A later step that breaks what was owed (the step's own
    rule) makes the turn illegal whatever the unseen cards are: refused either at step ``i`` or there.
    Otherwise (the turn ends still owing it, a later step breaks another rule the unseen cards might have
    refused at step ``i`` first, or is itself undetermined): undetermined."""
    if carried is None:
        return Verdict(None, (), state, (), (u,))
    current = carried
    for j, step in enumerate(rest, start=i + 1):
        if who is not None and step.player is None:
            step = replace(step, player=who)
        try:
            current = _apply(variant, current, step, events, f"/actions/{j}")
        except Illegal as exc:
            broken, open_rule = _broken(variant, step, exc, f"/actions/{j}")
            found = tuple(replace(v.cited_by(variant), step=j) for v in broken)
            if found[0].clause != u.clause:  # another rule: the unseen cards may refuse the step first
                return Verdict(None, (), state, (), (u,))
            opened = tuple(replace(v.cited_by(variant), step=j) for v in open_rule)
            return Verdict(False, found, state, (), opened)
        except Undetermined:
            return Verdict(None, (), state, (), (u,))
    turn = current.turn
    if current.to_act == carried.to_act and current.phase == Phase.PLAY and (
            turn.must_use is not None or (turn.must_open and not current.current.opened)):
        return Verdict(None, (), state, (), (u,))
    return _settled(variant, state, current, events)


def _settled(variant: Variant, state: State, current: State, events: list[ev.Event]) -> Verdict:
    """The verdict on a turn or action found legal, from ``state`` to ``current``."""
    if current.phase == Phase.ENDED and current.result is None and state.phase != Phase.ENDED:
        won = next(e for e in reversed(events) if isinstance(e, (ev.CalledUp, ev.Kalookie)))
        settlement = open_settlement(variant, current, won.player, isinstance(won, ev.Kalookie))
        settled = Violation(settlement.open_rule(), "the hand is won, but some of what it settles depends "
                                                             "on the cards of other hands nobody listed",
                            needs=settlement.needs())
        return Verdict(True, (), current, tuple(events), (settled.cited_by(variant),), settlement)
    # ``build``: a verdict without the frozen dataclass ``__init__`` (every legal verdict is made here)
    return build(Verdict, {"legal": True, "violations": (), "state": current, "events": tuple(events),
                           "undetermined": (), "settlement": None})


MAX_VIOLATIONS = 4  # a refusal lists at most this many broken rules


def _broken(variant: Variant, action: Action, first: Illegal, at: str) -> tuple[list[Violation], list[Violation]]:
    """Every rule ``action`` breaks, the first found first: while the rule just found can be set aside
    (``Illegal.waived``), the action is tried again on the position as if that rule held, and each
    further rule it breaks is listed (at most ``MAX_VIOLATIONS``).  A rule that cannot be set aside or
    an action that then passes ends the list; so does a further rule the seen cards do not decide,
    returned second (the verdict's ``undetermined``: illegal in any case, and perhaps on that count too)."""
    found = [first.violation]
    waived = first.waived
    while waived is not None and len(found) < MAX_VIOLATIONS:
        try:
            _apply(variant, waived, action, [], at)
            break
        except Illegal as exc:
            if exc.violation.clause not in {v.clause for v in found}:
                found.append(exc.violation)
            waived = exc.waived
        except Undetermined as exc:
            return found, [exc.violation]
        except RefereeInputError:
            break
    return found, []


def is_legal(variant: Variant, state: State, action: Action) -> bool:
    """Whether ``action`` is legal in ``state`` under ``variant``: ``adjudicate``'s verdict says yes
    (an action whose legality depends on cards nobody listed is not known legal: False)."""
    return adjudicate(variant, state, action).legal is True


# -------------------------------------------------------------------------------------------

# -- the turn machine ---------------------------------------------------------------------------
# Every action passes through ``_apply``: ``_gate`` checks, in this one place, the phase, whose move
# it is and every obligation that spans the steps of a turn (a released joker to place, a taken
# discard to meld, the dealer's exchange, an opening owed before discarding); the phase's handler
# then applies the action; ``_owed_after`` checks what the action had to discharge.  A new phase or
# obligation (the contract game's calls out of turn) is added here.

def _apply(variant: Variant, state: State, action: Action, events: list[ev.Event], at: str) -> State:
    actor = _gate(variant, state, action, at)
    if isinstance(action, Draw):  # a turn's draw and discard first: the commonest actions
        return _draw(variant, state, action, events, at)
    if isinstance(action, Discard):
        return _discard(variant, state, action, events)
    if isinstance(action, Announce):
        return _announce(variant, state, action, actor, events)
    if isinstance(action, Pass):
        return _pass(variant, state, actor, events)
    if isinstance(action, Call):
        return _call(variant, state, actor, events)
    if isinstance(action, Allow):
        return _allow(variant, state, action, actor, events)
    if isinstance(action, Penalty):
        return _penalty(variant, state, action, actor, events)
    if isinstance(action, Challenge):
        return _challenge(variant, state, action, actor, events, at)
    if isinstance(action, MeldAction):
        after = _meld(variant, state, action, events, at)
    elif isinstance(action, Build):
        after = _build(variant, state, action, events, at)
    elif isinstance(action, SwapJoker):
        after = _swap(variant, state, action, events, at)
    else:
        raise MalformedInput(Problem(at + "/type", "a turn cannot contain a turn"))
    _owed_after(variant, state, after, action)
    return after


def _gate(variant: Variant, state: State, action: Action, at: str) -> str:
    """Whether ``action`` may come now at all; the player making it."""
    if state.phase == Phase.ENDED:
        raise Illegal(BUILD_NONE_AFTER_SOMEONE_GOES_OUT,
                      "the hand is over: no one may draw, meld, build or discard after it ends")
    who = action.player  # the actor: the player named, else the player to act (else the one owing an announcement)
    if who is not None and who not in {p.id for p in state.players}:
        raise MalformedInput(Problem(at + "/player", f"{who!r} is not a player in the state"))
    if isinstance(action, (Announce, Call, Penalty, Challenge)):  # made whoever is to act (see _announce, _call...)
        if isinstance(action, Announce):
            return who or (state.announcement.player if state.announcement else state.to_act)
        return who or state.to_act
    actor = who or state.to_act
    if actor != state.to_act:
        raise Illegal(TURN_LEFT_OF_DEALER_STARTS_CLOCKWISE, f"it is {state.to_act}'s turn, not {actor}'s",
                      waived=_as_if_their_turn(state, actor, action))
    turn = state.turn
    if turn.pending_jokers and not isinstance(action, (MeldAction, Build)):
        raise Illegal(JOKER_REUSE_RELEASED_JOKER_USED_AT_ONCE,
                      f"the released joker must be placed in {_released_joker_goes(variant)} before anything else")
    if isinstance(action, (Pass, Draw, Allow)):
        return actor  # the draw phase's own actions (their handlers check the phase)
    if state.phase != Phase.PLAY:
        clause = REFEREE_FIRST_DRAW_WITHOUT_UPCARD if state.first_play and not state.discard else TURN_DRAW_MELD_DISCARD
        raise Illegal(clause, "a turn starts with drawing a card", charge=Charge(actor, "missing_pluck"),
                      waived=replace(state, phase=Phase.PLAY))
    must = turn.must_use
    if must is not None:
        if not isinstance(action, (MeldAction, Build)):
            raise Illegal(DRAW_DISCARD_ONLY_WITH_INITIAL_MELD,
                          f"the discard taken ({must.code}) must be melded by the next action of the turn")
        opened = state.current.opened
        if isinstance(action, MeldAction):
            in_melds = any(t.card == must for spec in action.melds for t in spec.tokens)
            if not in_melds and (opened or not variant.rules.opening.counts_builds):
                raise Illegal(DRAW_DISCARD_ONLY_WITH_INITIAL_MELD,
                              f"the discard taken ({must.code}) must be melded by the next action of the turn")
        elif not any(t.card == must for t in action.tokens) and opened and not turn.opened_this_turn:
            raise Illegal(DRAW_DISCARD_ONLY_WITH_INITIAL_MELD,
                          f"the discard taken ({must.code}) must be melded by the next action of the turn")
    if state.dealer_option and not isinstance(action, Discard):
        raise Illegal(DRAW_DEALER_UPCARD_OPTION,
                      "the dealer's option is only an exchange: having taken the upcard, the dealer discards")
    if isinstance(action, Discard) and turn.must_open and not state.current.opened:
        _take(variant, state, state.current.hand, [action.card], "discard")  # a card not held is refused as such first
        raise Illegal(DRAW_DISCARD_ONLY_WITH_INITIAL_MELD,
                      f"a player who took the discard before opening must lay their opening (worth at least "
                      f"{variant.rules.opening.minimum}) in the same turn, before discarding")
    return actor


def _as_if_their_turn(state: State, actor: str, action: Action) -> State:
    """The position as if it were ``actor``'s turn at the point ``action`` belongs to, owing nothing:
    before the draw for the draw phase's own actions, after it for the rest."""
    drawing = isinstance(action, (Pass, Draw, Allow))
    return replace(state, to_act=actor, turn=FRESH_TURN, dealer_option=False,
                   phase=Phase.DRAW if drawing else Phase.PLAY)


def _owed_after(variant: Variant, before: State, after: State, action: Action) -> None:
    """What a meld or build had to discharge: a taken discard that had to be part of the opening."""
    must = after.turn.must_use
    if must is not None and isinstance(action, MeldAction) and not before.current.opened:
        raise Illegal(DRAW_DISCARD_ONLY_WITH_INITIAL_MELD,
                      f"the discard taken ({must.code}) must be part of the opening")


def _take(variant: Variant, state: State, hand: Sequence[Card], cards: Sequence[Card], what: str) -> tuple[Card, ...]:
    """``hand`` without ``cards``; Illegal if any is not held.  A card the hand does not list may be
    one of its unseen cards when the state leaves a copy of it unaccounted for: the unseen card is
    then taken for it (shown, it is seen from now on)."""
    rest = list(hand)
    free = None
    for c in cards:
        if c not in rest:
            if UNSEEN in rest:
                free = unaccounted(state, variant) if free is None else free
                if free[c] > 0:
                    free[c] -= 1
                    rest.remove(UNSEEN)
                    continue
                raise Illegal(REFEREE_CARDS_HELD, f"{c.code} is not in the hand ({what}), and none of its unseen "
                                                  f"cards can be it: every {c.code} of the pack is listed elsewhere",
                              waived=_as_if_held(state, hand, cards))
            raise Illegal(REFEREE_CARDS_HELD, f"{c.code} is not in the hand ({what})", waived=_as_if_held(state, hand, cards))
        rest.remove(c)
    return tuple(rest)


def _as_if_held(state: State, hand: Sequence[Card], cards: Sequence[Card]) -> State:
    """The position as if the player to act held every card of ``cards``: they take the place of cards
    the action does not name, so that the hand keeps its size (what is left to discard is counted right)."""
    others = list((Counter(hand) - Counter(cards)).elements())
    return state.with_player(state.to_act, hand=tuple(cards) + tuple(others[:max(0, len(hand) - len(cards))]))


def _check_hand_left(variant: Variant, state: State, hand: Sequence[Card]) -> None:
    if not hand:
        raise Illegal(GO_OUT_FINAL_DISCARD_REQUIRED,
                      "a player must keep one card to discard: going out ends with a discard",
                      charge=Charge(state.to_act, "missing_discard"))
    if not variant.rules.discarding.joker and _nothing_but_jokers(
            variant, state, hand, lambda n: f"whether {state.to_act} keeps a card other than a joker to discard "
                                            f"depends on the {n} cards of their hand nobody listed (a joker is never "
                                            f"discarded)"):
        raise Illegal(DISCARD_JAMAICAN_JOKER_FORBIDDEN,
                      "the card kept to discard cannot be a joker: a joker is never discarded")
    if len(hand) < 2 and state.current.barred:
        raise Illegal(WARNING_ANNOUNCE_ONE_TO_THREE_CARDS,
                      "a player who did not announce their last cards may not go out on this turn")


def _use_cards(variant: Variant, state: State, tokens: Sequence[Token], what: str) -> tuple[State, int]:
    """Take the cards of ``tokens`` from the hand, jokers coming first from any released joker.
    Returns the new state and how many released jokers were used."""
    jokers = sum(1 for t in tokens if t.card.is_joker)
    from_pending = min(jokers, state.turn.pending_jokers)
    if from_pending and what == "build" and variant.rules.joker_reuse.released_into == "new_meld":
        raise Illegal(JOKER_REUSE_RELEASED_JOKER_USED_AT_ONCE,
                      "a released joker must go into a new meld of the player's, not onto a meld on the table")
    needed = [t.card for t in tokens if not t.card.is_joker] + [JOKER] * (jokers - from_pending)
    hand = _take(variant, state, state.current.hand, needed, what)
    if state.turn.pending_jokers and not from_pending:
        raise Illegal(JOKER_REUSE_RELEASED_JOKER_USED_AT_ONCE,
                      f"the released joker must go into {_released_joker_goes(variant)}: it cannot wait or go to the hand")
    _check_hand_left(variant, state, hand)
    state = state.with_player(state.to_act, hand=hand)
    state = replace(state, turn=replace(state.turn, pending_jokers=state.turn.pending_jokers - from_pending))
    return state, from_pending


# -- draw ---------------------------------------------------------------------------------------

# DRAW_JAMAICAN_DISCARD_OPEN_BEFORE_LAYING: free: a player who has not laid down takes the top discard with
#   nothing owed
@enforces(DRAW_FIRST_PLAY_FREE_UPCARD, DRAW_DISCARD_FREE_AFTER_INITIAL_MELD,
          DRAW_JAMAICAN_DISCARD_OPEN_BEFORE_LAYING)
def _draw(variant: Variant, state: State, action: Draw, events: list[ev.Event], at: str = "") -> State:
    if state.phase != Phase.DRAW:
        raise Illegal(TURN_DRAW_MELD_DISCARD, "a turn has exactly one draw, and this turn has drawn")
    if state.announcement is not None:
        # The window to announce closes with the next draw: the silent player is barred next turn.
        silent = state.announcement.player
        state = replace(state.with_player(silent, barred=True), announcement=None)
        events.append(ev.AnnouncementMissed(silent))
    seat = state.index(state.to_act)
    player = state.players[seat]
    must_open, must_use = False, None
    undecided: Undetermined | None = None
    if state.calls:  # a call waits: allow it, or (not laid down) take the card, which refuses it
        if player.opened:
            raise Illegal(CALL_LAID_DOWN_TURN_PLAYER_MUST_ALLOW,
                          f"{player.id} has laid down and must allow the call of {', '.join(state.calls)} before plucking")
        if action.source == "stock":
            raise Illegal(CALL_TURN_PLAYER_ALLOWS_OR_REFUSES,
                          "with a call waiting the player to act either allows it or refuses it by taking the discard")
        state = replace(state, calls=())
    if state.stock_owed and action.source != "stock":
        raise Illegal(CALL_ALLOWED_CALL_EFFECTS, "having allowed a call, the player to act plucks from the stock")
    if action.source == "stock":
        if state.dealer_option:
            raise Illegal(DRAW_DEALER_UPCARD_OPTION,
                          "before the first turn the dealer may only take the upcard in exchange for a card, or pass")
        card = _stock_top(variant, state, action, at)
        stock, discard = state.stock[1:], state.discard
    else:
        if not state.discard:
            raise Illegal(REFEREE_FIRST_DRAW_WITHOUT_UPCARD if state.first_play else DRAW_ONLY_TOP_CARD,
                          "the discard pile is empty: draw from the stock")
        top = state.discard[0]
        if action.card is not None and action.card != top:
            raise Illegal(DRAW_ONLY_TOP_CARD,
                          f"only the top card of the discard pile ({top.code}) may be taken, not {action.card.code}")
        try:
            must_open, must_use = _discard_owes(variant, state, player, top)
        except Undetermined as exc:  # were the taking allowed, what it owes is carried (``_read_on``)
            if exc.owes is None:
                raise
            undecided, (must_open, must_use) = exc, exc.owes
        card, stock, discard = top, state.stock, state.discard[1:]
    events.append(ev.Drew(player.id, action.source, card.code if action.source == "discard" else None))
    source = Source.STOCK if action.source == "stock" else Source.DISCARD  # anything else is read as the discard pile
    # the new turn made whole by ``build`` (every field, in order), not as a copy of FRESH_TURN
    turn = build(Turn, {"drawn": card, "source": source, "must_open": must_open, "opened_this_turn": False,
                        "pending_jokers": 0, "builds": (), "must_use": must_use})
    after = replace(state, players=state.seated(seat, replace(player, hand=player.hand + (card,))), phase=Phase.PLAY,
                    turn=turn, stock_owed=False, stock=stock, discard=discard)
    if undecided is not None:
        undecided.carried = after
        raise undecided
    return after


def _stock_top(variant: Variant, state: State, action: Draw, at: str) -> Card:
    """The card a draw from the stock takes: its top card, or, where nobody listed the stock, the card
    the action names (if the pack leaves one unaccounted for) or the unseen card."""
    card = state.stock[0]
    if card is UNSEEN:  # nobody listed the stock: the card drawn is seen if the action names it
        if action.card is not None:
            if unaccounted(state, variant)[action.card] <= 0:
                raise MalformedInput(Problem(at + "/card", f"{action.card.code} cannot be the top of the stock: "
                                                           f"every {action.card.code} of the pack is listed elsewhere"))
            card = action.card
    elif action.card is not None and action.card != card:
        raise Illegal(DRAW_ONLY_TOP_CARD, f"only the top card of the stock may be drawn, not {action.card.code}")
    return card


def _discard_owes(variant: Variant, state: State, player: Player, top: Card) -> tuple[bool, Card | None]:
    """Whether the player to act (``player``) may take the top discard ``top`` now, and what it owes: the
    opening in this turn (``must_open``), the card itself to be melded (``must_use``); Illegal if refused."""
    must_open, must_use = False, None
    rules = variant.rules.draw
    if player.opened and not rules.discard_after_opening:
        raise Illegal(DRAW_JAMAICAN_STOCK_ONLY_AFTER_LAYING,
                      f"{player.id} has laid down and may no longer take the discard: draw from the stock")
    if state.dealer_option:
        pass  # the dealer's exchange: no obligation comes with it
    elif not player.opened and rules.discard_before_opening == "free":
        pass  # taken freely before laying down, with nothing owed
    elif not player.opened and ((state.first_play and rules.first_play_free_upcard)
                                or (state.first_round and rules.free_discard_first_round)):
        pass  # a free upcard or first round: nothing owed
    elif not player.opened:
        must_open, must_use = _opening_owed(variant, state, player, top)
    elif rules.taken_discard != "keep":
        if not _use_possible(variant, state, top):
            if UNSEEN in player.hand:
                raise Undetermined(DRAW_DISCARD_ONLY_WITH_INITIAL_MELD,
                                   f"whether {top.code} can be melded at once depends on the {player.hidden} cards "
                                   f"of {player.id}'s hand nobody listed", _hidden_of(state, player.id),
                                   owes=(False, top))
            raise Illegal(DRAW_DISCARD_ONLY_WITH_INITIAL_MELD,
                          f"{top.code} cannot be melded at once from {player.id}'s hand: "
                          "the discard may be taken only to meld it in the same turn")
        must_use = top
    return must_open, must_use


def _opening_owed(variant: Variant, state: State, player: Player, top: Card) -> tuple[bool, Card | None]:
    """``player``, to act and not opened, takes the discard ``top`` (neither a free upcard nor in a free
    first round): the opening is owed in this turn, and whether with that card; Illegal where no opening
    is possible."""
    rules = variant.rules.draw
    in_opening = rules.discard_before_opening == "in_opening" or rules.taken_discard != "keep"
    hand = seen(player.hand) + (top,)
    owes = (True, top if in_opening else None)
    # an unseen card can be kept to discard (unless it could be a joker no one may discard)
    keep = 0 if UNSEEN in player.hand and variant.rules.discarding.joker else 1
    if not search.opening_possible(variant, hand, owes[1], state.melds, keep=keep):
        if UNSEEN in player.hand:
            raise Undetermined(DRAW_DISCARD_ONLY_WITH_INITIAL_MELD,
                               f"whether {player.id} can lay a qualifying opening with {top.code} depends on "
                               f"the {player.hidden} cards of their hand nobody listed", _hidden_of(state, player.id),
                               owes=owes)
        if search.opening_possible(variant, hand, top if in_opening else None, state.melds, keep=0):
            # the opening exists, but only by laying every card: the true cause is the final discard
            raise Illegal(GO_OUT_FINAL_DISCARD_REQUIRED,
                          f"{player.id}'s only opening with {top.code} lays every card and leaves none to discard: "
                          "going out ends with a discard")
        raise Illegal(DRAW_DISCARD_ONLY_WITH_INITIAL_MELD,
                      f"{player.id} has not opened and cannot lay a qualifying opening with {top.code}: "
                      "the discard may be taken before opening only to open in the same turn"
                      + (" with that card" if in_opening else ""))
    return owes


# -- calls out of turn (the contract game) -------------------------------------------------------

def _call(variant: Variant, state: State, actor: str, events: list[ev.Event]) -> State:
    """A player who is not to act calls for the top discard (``rules.calling``); the player to act
    then allows a call (``_allow``) or, not laid down, refuses it by taking the card (``_draw``)."""
    rules = variant.rules.calling
    if not rules.per_hand:
        raise Illegal(CALL_ELIGIBILITY, "this variant has no calls out of turn")
    if state.phase == Phase.PLAY:
        if state.turn.source == "stock":
            raise Illegal(CALL_DEAD_AFTER_STOCK_PLUCK,
                          f"{state.to_act} has plucked from the stock: the last discard is dead and cannot be called")
        raise Illegal(CALL_NOT_BEFORE_CARD_LANDS,
                      f"{state.to_act} is playing: a card is called only once it lies discarded on the pile")
    if state.stock_owed:
        raise Illegal(CALL_ALLOWED_CALL_EFFECTS, "the called discard went to its caller; the card beneath it is "
                                                 "no fresh discard and cannot be called")
    if not state.discard or state.first_play:
        raise Illegal(CALL_NOT_BEFORE_CARD_LANDS,
                      "no player's discard lies on the pile to be called (the upcard is no player's discard)")
    caller = state.player(actor)
    n = len(state.players)
    discarder = state.players[(state.index(state.to_act) - 1) % n].id
    if actor == state.to_act:
        raise Illegal(CALL_ELIGIBILITY, "the player to act takes the discard by plucking it, not by calling")
    if actor == discarder:
        raise Illegal(CALL_ELIGIBILITY, "a player does not call back their own discard")
    if caller.opened:
        raise Illegal(CALL_ELIGIBILITY, f"{actor} has laid down and can no longer call")
    if actor in state.calls:
        raise Illegal(CALL_ELIGIBILITY, f"{actor} has already called this discard")
    made = max(caller.calls, calls_shown(variant, state, actor) or 0)  # the record, or the cards where they show more
    if made >= rules.per_hand:
        shown = "" if made == caller.calls else f" (the {len(caller.hand)} cards {actor} holds show it)"
        raise Illegal(CALL_LIMIT_THREE_PER_HAND, f"{actor} has made {made} calls in this deal, "
                                                 f"the most a player may make{shown}")
    if len(state.stock) < rules.penalty_cards + 1:
        raise Illegal(CALL_ALLOWED_CALL_EFFECTS, "the stock cannot give a caller the penalty card and the "
                                                 "player to act a pluck: no call now")
    events.append(ev.Called(actor, state.discard[0].code))
    return replace(state, calls=state.calls + (actor,))


def _allow(variant: Variant, state: State, action: Allow, actor: str, events: list[ev.Event]) -> State:
    """The player to act lets ``action.caller`` (the first caller, as the player to act judges)
    have the discard: the caller takes it and the penalty cards from the stock, laying and
    discarding nothing; the player to act then plucks from the stock."""
    if state.phase != Phase.DRAW or not state.calls:
        raise Illegal(CALL_TURN_PLAYER_ALLOWS_OR_REFUSES, "no call is waiting to be allowed")
    if action.caller not in state.calls:
        raise Illegal(CALL_FIRST_CALLER_PRIORITY, f"{action.caller} has not called this discard "
                                                  f"(the callers: {', '.join(state.calls)})")
    k = variant.rules.calling.penalty_cards
    card, penalty = state.discard[0], state.stock[:k]
    caller = state.player(action.caller)
    state = state.with_player(caller.id, hand=caller.hand + (card,) + penalty, calls=caller.calls + 1)
    events.append(ev.CallAllowed(actor, caller.id, card.code))
    return replace(state, discard=state.discard[1:], stock=state.stock[k:], calls=(), stock_owed=True)


# -- penalties and challenges (told to the referee after the fact) ---------------------------------

def _penalty(variant: Variant, state: State, action: Penalty, actor: str, events: list[ev.Event]) -> State:
    """An infraction the table reports against ``actor``: ``penalties.points`` added to their total,
    where the variant (or a house rule) lists the infraction."""
    rules = variant.rules.penalties
    if action.infraction not in rules.infractions:
        raise Illegal(infraction_clause(action.infraction), f"{action.infraction} carries no penalty at this table "
                              f"(penalties: {', '.join(rules.infractions) or 'none'})")
    offender = state.player(actor)
    events.append(ev.Penalized(actor, action.infraction, rules.points))
    return state.with_player(actor, score=offender.score + rules.points)


def _challenge(variant: Variant, state: State, action: Challenge, actor: str, events: list[ev.Event],
               at: str) -> State:
    """``actor`` challenges ``action.target``: an over-call (more calls than ``calling.per_hand``,
    before the target has begun to lay) or an incorrect first lay (the target's melds are not the
    hand's contract).  Upheld, the target takes the sanction; wrong, the challenger takes
    ``penalties.points``."""
    if action.target not in {p.id for p in state.players}:
        raise MalformedInput(Problem(at + "/target", f"{action.target!r} is not a player in the state"))
    rules = variant.rules.penalties
    target = state.player(action.target)
    challenger = state.player(actor)
    if actor == target.id:
        raise Illegal(CALL_OVERCALL_CHALLENGE, "a player does not challenge themselves")
    if action.claim == "overcall":
        return _challenge_overcall(variant, state, target, challenger, events)
    contract = variant.rules.contract
    if contract is None or not target.opened:
        raise Illegal(PENALTY_JAMAICAN_INCORRECT_LAY_BEFORE_DISCARD,
                      f"{target.id} has laid no contract to challenge")
    own = [m for m in state.melds if m.owner == target.id]
    if contract_failure(variant, state.hand_number, [m.meld for m in own]) is None:
        events.append(ev.Penalized(actor, "wrong_challenge", rules.points))
        return state.with_player(actor, score=challenger.score + rules.points)
    # the lay is picked up: its cards go back to the hand
    picked = tuple(c for m in own for c in m.meld.cards)
    hand = target.hand + picked
    gone = {m.id for m in own}
    state = replace(state, melds=tuple(m for m in state.melds if m.id not in gone))
    before_discard = state.to_act == target.id and state.phase == Phase.PLAY and state.turn.opened_this_turn
    if before_discard:
        # found before the discard: no penalty if the player can still lay the contract from what they hold
        turn = replace(state.turn, opened_this_turn=False,
                       builds=tuple(b for b in state.turn.builds if b[0] not in gone))
        state = replace(state, turn=turn)
        # the search reads the seen cards (an unseen card is no candidate, and made it fail: a 500)
        fixable = bool(search.contract_openings(variant, seen(hand), state.hand_number, limit=1).openings)
        if not fixable and UNSEEN in hand:  # the seen cards cannot lay it; the unseen ones might
            raise Undetermined(PENALTY_JAMAICAN_INCORRECT_LAY_BEFORE_DISCARD,
                               f"whether {target.id} can still lay the contract from the cards held depends on the "
                               f"{target.hidden} cards of their hand nobody listed", _hidden_of(state, target.id))
        points = 0 if fixable else rules.points
        events.append(ev.Penalized(target.id, "incorrect_lay", points))
        return state.with_player(target.id, hand=hand, opened=False, score=target.score + points)
    events.append(ev.Penalized(target.id, "incorrect_lay", rules.points, barred=True))
    return state.with_player(target.id, hand=hand, opened=False, lay_barred=True, score=target.score + rules.points)


def calls_shown(variant: Variant, state: State, player_id: str) -> int | None:
    """The calls a seat's cards show (document 002: an over-call "can be verified by counting the cards"):
    a player who has not laid down holds the hand's deal, the pluck of a turn under way and, for each
    call allowed, the discard and the penalty cards (``calling.penalty_cards``).  None where the count
    cannot tell: no calls in the variant, a player who has laid down, or cards no number of calls gives."""
    rules = variant.rules.calling
    player = state.player(player_id)
    if not rules.per_hand or player.opened:  # pragma: no cover - a call and an over-call challenge are refused first in both cases
        return None
    drawn = 1 if state.to_act == player_id and state.phase == Phase.PLAY else 0
    extra = len(player.hand) - variant.cards_for(len(state.players), state.hand_number) - drawn
    each = 1 + rules.penalty_cards
    return extra // each if extra >= 0 and extra % each == 0 else None


def _calls_made(variant: Variant, state: State, player_id: str) -> int:
    """How many calls a player has made in the deal: what the cards show where they show it, except that
    a record at the limit with more cards is an over-call already settled (a challenge sets ``calls`` to
    the limit and leaves the cards); else the record (``calls``)."""
    recorded = state.player(player_id).calls
    shown = calls_shown(variant, state, player_id)
    if shown is None or (recorded == variant.rules.calling.per_hand and shown > recorded):
        return recorded
    return shown


def _challenge_overcall(variant: Variant, state: State, target: Player, challenger: Player,
                        events: list[ev.Event]) -> State:
    """An over-call challenge, decided by the calls the target has made (``_calls_made``: the cards
    counted where they are seen): upheld, the target takes the sanction; wrong, the challenger pays."""
    rules = variant.rules.penalties
    per_hand = variant.rules.calling.per_hand
    if not per_hand:
        raise Illegal(CALL_OVERCALL_CHALLENGE, "this variant has no calls out of turn")
    if target.opened:
        raise Illegal(CALL_OVERCALL_CHALLENGE,
                      f"{target.id} has begun to lay and can no longer be challenged for an over-call")
    excess = _calls_made(variant, state, target.id) - per_hand
    if excess <= 0:
        events.append(ev.Penalized(challenger.id, "wrong_challenge", rules.points))
        return state.with_player(challenger.id, score=challenger.score + rules.points)
    if rules.overcall == "bar":
        events.append(ev.Penalized(target.id, "over_call", None, barred=True))
        return state.with_player(target.id, calls=per_hand, lay_barred=True)
    events.append(ev.Penalized(target.id, "over_call", rules.points * excess))
    return state.with_player(target.id, calls=per_hand, score=target.score + rules.points * excess)


def _pass(variant: Variant, state: State, actor: str, events: list[ev.Event]) -> State:
    """The dealer declining the upcard; or, where a joker is never discarded and the table's ruling is
    to pass (``discarding.only_jokers``), a player holding nothing but jokers ending the turn without a
    discard (``dec.jamaican_only_jokers_left``)."""
    if state.phase == Phase.PLAY and _passes_on_jokers(variant, state):
        events.append(ev.Passed(actor))
        return _end_turn(variant, state, {"players": state.players_with(actor, barred=False), "announcement": None},
                         events)
    if not state.dealer_option or state.phase != Phase.DRAW:
        raise Illegal(DRAW_DEALER_UPCARD_OPTION if variant.rules.draw.dealer_upcard_option else TURN_DRAW_MELD_DISCARD,
                      "only the dealer, before the first turn, may pass (declining the upcard), and a player "
                      "only ends a turn without a discard holding nothing but jokers where a joker is never "
                      "discarded")
    events.append(ev.Passed(actor))
    return replace(state, dealer_option=False, to_act=state.left_of(state.dealer))


def _only_jokers(variant: Variant, state: State) -> bool:
    """Whether the player to act holds nothing but jokers (``_nothing_but_jokers`` of their hand)."""
    return _nothing_but_jokers(variant, state, state.current.hand, lambda n: f"whether {state.to_act} holds nothing "
                               f"but jokers depends on the {n} cards of their hand nobody listed")


def _nothing_but_jokers(variant: Variant, state: State, hand: Sequence[Card], undecided: Callable[[int], str]) -> bool:
    """Whether ``hand`` (of the player to act) holds nothing but jokers; Undetermined, saying
    ``undecided(count of unseen cards)``, while its unseen cards could all be jokers.  Where some of
    them cannot (the pack's jokers are listed elsewhere), one is a natural and the answer is no."""
    if not hand or any(not c.is_joker and c is not UNSEEN for c in hand):
        return False
    hidden = hand.count(UNSEEN)
    if hidden and unaccounted(state, variant)[JOKER] >= hidden:
        raise Undetermined(DISCARD_JAMAICAN_JOKER_FORBIDDEN, undecided(hidden), _hidden_of(state, state.to_act))
    return not hidden


def _passes_on_jokers(variant: Variant, state: State) -> bool:
    """Whether the player to act, owing nothing this turn, may end it without a discard (see ``_pass``)."""
    rules = variant.rules.discarding
    return (not rules.joker and rules.only_jokers == OnlyJokers.PASS and state.turn.must_use is None
            and not state.turn.must_open and _only_jokers(variant, state))


def _use_possible(variant: Variant, state: State, card: Card) -> bool:
    """Whether ``card`` taken from the discard pile can be melded at once: ``search.discard_placeable``."""
    return search.discard_placeable(variant, state, card)


# -- meld ---------------------------------------------------------------------------------------

# INITIAL_MELD_LAYOFFS_COUNT_WITH_OWN_MELD: lay-offs count only inside a meld action, which lays one new meld
#   or more
# INITIAL_MELD_LATER_MELDS_ANY_VALUE: the minimum is checked only on the turn a player opens
# KALOOKIE_BUILDS_NEED_FORTY_NEW_FIRST: a build needs the builder opened, and the opening counts only the new
#   melds
@enforces(MELD_RUN_LONG_SEQUENCE_MAY_SPLIT, INITIAL_MELD_SEVERAL_MELDS_SUMMED,
          INITIAL_MELD_BUILDS_NOT_COUNTED, INITIAL_MELD_LAYOFFS_COUNT_WITH_OWN_MELD,
          INITIAL_MELD_LATER_MELDS_ANY_VALUE, INITIAL_MELD_KALOOKIE_EXEMPT,
          KALOOKIE_BUILDS_NEED_FORTY_NEW_FIRST)
def _meld(variant: Variant, state: State, action: MeldAction, events: list[ev.Event], at: str) -> State:
    player = state.current
    melds: list[Meld] = []
    for spec in action.melds:
        reading = read_meld(spec.tokens, variant, spec.kind)
        if isinstance(reading, Failure):
            raise Illegal.of(reading)
        melds.append(reading)
    contract = variant.rules.contract
    if contract is not None:
        if player.lay_barred and any(not p.opened for p in state.players if p.id != player.id):
            raise Illegal(PENALTY_JAMAICAN_INCORRECT_LAY_AFTER_DISCARD,
                          f"{player.id} is barred from laying until every other player has laid (a penalty)")
        if player.opened and not contract.later_melds:
            raise Illegal(INITIAL_MELD_JAMAICAN_COMPLETE_CONTRACT_FIRST,
                          "after the contract a player only tacks cards onto melds on the table")
        failure = contract_failure(variant, state.hand_number, melds) if not player.opened else None
        if failure is not None:
            raise Illegal.of(failure)
    tokens = [t for spec in action.melds for t in spec.tokens]
    state, _ = _use_cards(variant, state, tokens, "meld")
    total = sum(meld_value(m, variant) for m in melds)
    must = state.turn.must_use
    if must is not None and any(t.card == must for t in tokens):  # the taken discard is used (see _gate)
        state = replace(state, turn=replace(state.turn, must_use=None))
    opening = not player.opened
    if opening:
        state = state.with_player(player.id, opened=True, lay_barred=False)
        state = replace(state, turn=replace(state.turn, opened_this_turn=True))
    opened_at = len(events)
    taken = {m.id for m in state.melds}
    laid: list[TableMeld] = []
    for i, (spec, meld) in enumerate(zip(action.melds, melds)):
        mid = spec.id or free_meld_id(taken, len(state.melds) + len(laid))
        if mid in taken and spec.id:
            raise MalformedInput(Problem(at + pointer("melds", i, "id"), f"meld id {mid!r} is already on the table"))
        taken.add(mid)
        laid.append(TableMeld(mid, player.id, meld))
        events.append(ev.Melded(player.id, mid, meld.kind, tuple(meld.codes), meld_value(meld, variant)))
    state = state.with_new_melds(laid)
    laid_off = 0
    for i, build in enumerate(action.builds):
        before = _table_meld(state, build.meld, at + pointer("builds", i))
        state = _build(variant, state, build, events, at + pointer("builds", i))
        after = _table_meld(state, build.meld, at + pointer("builds", i))
        laid_off += meld_value(after.meld, variant) - meld_value(before.meld, variant)
    if opening:
        counted = total + (laid_off if variant.rules.opening.counts_builds else 0)
        minimum = variant.rules.opening.minimum
        kalookie = (variant.rules.opening.kalookie_exempt and len(state.current.hand) == 1
                    and not state.turn.pending_jokers)
        if counted < minimum and not kalookie:
            what = "new melds and lay-offs" if variant.rules.opening.counts_builds else "new sets and runs"
            raise Illegal(INITIAL_MELD_MINIMUM_40,
                          f"the first meld must be worth at least {minimum} in {what}; this is worth {counted}")
        events.insert(opened_at, ev.Opened(player.id, counted))
    return state


# -- build --------------------------------------------------------------------------------------

def _table_meld(state: State, meld_id: str, at: str) -> TableMeld:
    m = state.meld(meld_id)
    if m is None:
        raise MalformedInput(Problem(at + "/meld", f"no meld {meld_id!r} on the table"))
    return m


# BUILD_ONTO_ANY_PLAYERS_MELD: any meld on the table is a target, whoever owns it; only the builder's own
#   opening is required
@enforces(BUILD_ONTO_ANY_PLAYERS_MELD, KALOOKIE_BUILDS_NEED_FORTY_NEW_FIRST)
def _build(variant: Variant, state: State, action: Build, events: list[ev.Event], at: str) -> State:
    player = state.current
    if variant.rules.building.requires_opening and not player.opened:
        raise Illegal(BUILD_ONLY_AFTER_OWN_OPENING,
                      "a player adds to melds on the table only after laying their own opening")
    target = _table_meld(state, action.meld, at)
    meld = target.meld
    end = action.end
    if (not variant.rules.building.jokers_on_others and target.owner != player.id
            and any(t.card.is_joker for t in action.tokens)):
        raise Illegal(JOKER_JAMAICAN_ONLY_ON_OWN_SETS,
                      f"a joker goes only on the player's own melds; {target.id} is {target.owner}'s")
    if meld.kind == "run":
        if end is None:
            fits = {e: extend_run(meld, action.tokens, e, variant) for e in ("low", "high")}
            good = [(e, r) for e, r in fits.items() if isinstance(r, Meld)]
            if len(good) == 2:
                raise Illegal(JOKER_DECLARE_RUN_END_JOKER, "the cards fit either end of the run: name the end",
                              ambiguous=True, readings=tuple(r.to_dict() for _, r in good))
            end = good[0][0] if good else "high"
            new = fits[end]
        else:
            new = extend_run(meld, action.tokens, end, variant)
        if isinstance(new, Failure):
            raise Illegal.of(new)
        k = len(action.tokens)
        low, high = state.turn.built(target.id)
        per_end = variant.rules.building.max_per_run_end_per_turn
        already = low if end == "low" else high
        if per_end is not None and already + k > per_end:
            raise Illegal(BUILD_RUN_MAX_TWO_PER_END_PER_TURN,
                          f"at most {per_end} cards may be added to one end of a run in a turn "
                          f"({already} already added there); lay three or more as a new run")
        per_run = variant.rules.building.max_per_run_per_turn
        if per_run is not None and low + high + k > per_run:
            raise Illegal(BUILD_RUN_MAX_TWO_TOTAL_PER_TURN,
                          f"at most {per_run} cards may be added to a run in a turn ({low + high} already added)")
    else:
        end = None
        new = extend_set(meld, action.tokens, variant)
        if isinstance(new, Failure):
            raise Illegal.of(new)
    must = state.turn.must_use
    if must is not None and any(t.card == must for t in action.tokens):
        if variant.rules.draw.taken_discard == "new_meld":
            raise Illegal(DRAW_UK_DISCARD_NOT_AS_GOER,
                          f"the discard taken ({must.code}) must go into a new meld of the player's, not onto a meld on the table")
        state = replace(state, turn=replace(state.turn, must_use=None))
    state, _ = _use_cards(variant, state, action.tokens, "build")
    if end is not None:
        state = replace(state, turn=state.turn.with_build(target.id, end, len(action.tokens)))
    state = state.with_meld(replace(target, meld=new))
    k = len(action.tokens)
    added = new.slots[:k] if end == "low" else new.slots[-k:] if end == "high" else ()
    events.append(ev.Built(player.id, target.id,
                           tuple(s.code for s in added) if added else tuple(t.card.code for t in action.tokens), end))
    if new.kind == "set" and new.jokers and len(new.slots) >= variant.rules.melds.set.max:
        events.append(ev.SetClosed(target.id))
    return state


# -- joker exchange -----------------------------------------------------------------------------

def _swap(variant: Variant, state: State, action: SwapJoker, events: list[ev.Event], at: str) -> State:
    player = state.current
    rules = variant.rules.joker_reuse
    if rules.move_up and isinstance(action.place, Build) and action.place.meld == action.meld:
        return _move_up(variant, state, action, action.place, events, at)
    if not rules.allowed:
        held = _table_meld(state, action.meld, at).meld.jokers
        raise Illegal(REFEREE_JOKER_NEVER_RELEASED if held else MELD_PERMANENT_NO_REARRANGEMENT,
                      "melded jokers cannot be taken back in this variant" if held
                      else "that meld holds no joker; melds cannot be rearranged")
    if rules.requires_opening and not player.opened:
        raise Illegal(JOKER_REUSE_REQUIRES_OPENING, "only a player who has opened may exchange for a joker")
    target = _table_meld(state, action.meld, at)
    meld = target.meld
    if not meld.jokers:
        raise Illegal(MELD_PERMANENT_NO_REARRANGEMENT, "that meld holds no joker; melds cannot be rearranged")
    if meld.kind == "run":
        new = _swap_run(variant, meld, action.naturals)
    else:
        new = _swap_set(variant, meld, action.naturals)
    hand = _take(variant, state, player.hand, action.naturals, "joker exchange")
    _check_hand_left(variant, state, hand)  # the released joker cannot stay in the hand
    state = state.with_player(player.id, hand=hand)
    state = state.with_meld(replace(target, meld=new))
    state = replace(state, turn=replace(state.turn, pending_jokers=state.turn.pending_jokers + 1))
    if action.place is None and not _joker_placeable(variant, state):
        if UNSEEN in hand:
            raise Undetermined(JOKER_REUSE_RELEASED_JOKER_USED_AT_ONCE,
                               f"whether the released joker can be placed at once depends on the cards of "
                               f"{player.id}'s hand nobody listed", _hidden_of(state, player.id))
        raise Illegal(JOKER_REUSE_RELEASED_JOKER_USED_AT_ONCE,
                      f"the released joker could not be placed at once: {_released_joker_goes(variant)} with it is not possible from this hand")
    events.append(ev.JokerReleased(player.id, target.id, tuple(c.code for c in action.naturals)))
    if action.place is not None:
        if action.place.player not in (None, player.id):
            raise Illegal(TURN_LEFT_OF_DEALER_STARTS_CLOCKWISE, "the released joker is placed by the same player")
        state = _apply(variant, state, action.place, events, at + "/place")
    return state


def _move_up(variant: Variant, state: State, action: SwapJoker, place: Build, events: list[ev.Event], at: str) -> State:
    """A joker moved up its run (``/joker_reuse/move_up``): the natural it stands for takes its place
    and the same joker goes on above the run's top, never leaving the table.  It is a swap whose
    placement is a build of that one joker at the high end of the same run."""
    player = state.current
    target = _table_meld(state, action.meld, at)
    if not player.opened:
        raise Illegal(JOKER_JAMAICAN_MOVE_UP_IN_4, "only a player who has laid down may move a joker up")
    if target.meld.kind != "run":
        raise Illegal(JOKER_JAMAICAN_MOVE_UP_IN_4, "only a joker in a run (a 4) is moved up")
    if not variant.rules.building.jokers_on_others and target.owner != player.id:
        raise Illegal(JOKER_JAMAICAN_MOVE_UP_IN_4,
                      f"a joker is moved up only in the player's own runs; {target.id} is {target.owner}'s")
    if len(place.tokens) != 1 or not place.tokens[0].card.is_joker or place.end == "low":
        raise Illegal(JOKER_JAMAICAN_MOVE_UP_IN_4,
                      "the joker moved up goes, alone, on the high end of the same run")
    try:
        swapped = _swap_run(variant, target.meld, action.naturals)
    except Illegal as exc:
        raise Illegal(JOKER_JAMAICAN_MOVE_UP_IN_4, exc.violation.message) from None
    moved = extend_run(swapped, place.tokens, "high", variant)
    if isinstance(moved, Failure):
        raise Illegal(JOKER_JAMAICAN_MOVE_UP_IN_4, f"the joker cannot go on above the run's top: {moved.message}")
    hand = _take(variant, state, player.hand, action.naturals, "joker move")
    _check_hand_left(variant, state, hand)
    state = state.with_player(player.id, hand=hand)
    must = state.turn.must_use
    if must is not None and must in action.naturals:
        state = replace(state, turn=replace(state.turn, must_use=None))
    state = replace(state, turn=state.turn.with_build(target.id, "high", 1))
    state = state.with_meld(replace(target, meld=moved))
    events.append(ev.JokerReleased(player.id, target.id, tuple(c.code for c in action.naturals)))
    events.append(ev.Built(player.id, target.id, (moved.slots[-1].code,), "high"))
    return state


def _joker_placeable(variant: Variant, state: State) -> bool:
    """Whether a released joker can be placed at once: ``search.released_joker_placeable``."""
    return search.released_joker_placeable(variant, state)


def _released_joker_goes(variant: Variant) -> str:
    """Where a released joker may go in this variant, in words (``/joker_reuse/released_into``)."""
    return "a new meld" if variant.rules.joker_reuse.released_into == "new_meld" else "a new meld or a build"


def _swap_run(variant: Variant, meld: Meld, naturals: Sequence[Card]) -> Meld:
    if len(naturals) != 1:
        raise Illegal(JOKER_REUSE_RUN_EXACT_NATURAL, "a run's joker is exchanged for exactly one natural card")
    natural = naturals[0]
    for i, slot in enumerate(meld.slots):
        if slot.is_joker and slot.suit == natural.suit and (slot.rank == natural.rank or (slot.rank == 1 and natural.rank == 14)):
            if variant.rules.joker_reuse.run_joker_position == "interior" and i in (0, len(meld.slots) - 1):
                raise Illegal(JOKER_REUSE_RUN_INTERIOR_ONLY,
                              "only a joker inside a run, not at its end, may be exchanged in this variant")
            slots = list(meld.slots)
            slots[i] = Slot(natural, slot.rank, slot.suit)
            return Meld("run", tuple(slots))
    stands = ", ".join(s.stands_for for s in meld.slots if s.is_joker)
    raise Illegal(JOKER_REUSE_RUN_EXACT_NATURAL,
                  f"{natural.code} is not the card the run's joker stands for ({stands})")


def _swap_set(variant: Variant, meld: Meld, naturals: Sequence[Card]) -> Meld:
    rules = variant.rules.melds.set
    size = len(meld.slots)
    if meld.rank == 0:
        raise Illegal(MELD_SET_SCARNE_ALL_JOKER_SET,
                      "a set of jokers alone stands for no rank: no natural card can take a joker's place")
    if is_identical(meld):
        raise Illegal(MELD_SET_GRIFFIN_IDENTICAL_TRIPLE,
                      "a set of identical cards is complete: its joker cannot be exchanged")
    reuse = variant.rules.joker_reuse
    if reuse.set_exchange == "one_natural" or (size >= rules.max and reuse.full_set_joker == "last_natural"):
        return _swap_set_one(variant, meld, naturals)
    if size >= rules.max:
        raise Illegal(JOKER_REUSE_SET_SINGLE_NATURAL_CLOSES_SET,
                      f"a set of {size} cards with a joker is closed: its joker can never be taken")
    clause = JOKER_REUSE_SET_NEEDS_BOTH_MISSING_NATURALS if meld.jokers == 1 else JOKER_REUSE_SET_TWO_JOKERS_RELEASE_ONE
    needed = rules.max - size + 1
    if len(naturals) != needed:
        raise Illegal(clause, f"the joker is released only by adding {needed} naturals that fill the set "
                              f"to {rules.max} cards; {len(naturals)} offered")
    held = [s.card.suit for s in meld.slots if not s.is_joker]
    for c in naturals:
        if c.rank != meld.rank:
            raise Illegal(clause, f"{c.code} is not of the set's rank")
        if rules.distinct_suits and c.suit in held:
            raise Illegal(clause, f"the set already holds the suit of {c.code}")
        held.append(c.suit)
    return _set_releasing_one_joker(meld, naturals)


def _set_releasing_one_joker(meld: Meld, naturals: Sequence[Card]) -> Meld:
    """``meld`` with ``naturals`` added and one of its jokers taken out (released)."""
    slots = [s for s in meld.slots if not s.is_joker] + [Slot(c, meld.rank, c.suit) for c in naturals]
    slots += [Slot(JOKER, meld.rank, "")] * (meld.jokers - 1)
    return Meld("set", tuple(sorted(slots, key=set_order)))


def _swap_set_one(variant: Variant, meld: Meld, naturals: Sequence[Card]) -> Meld:
    """One natural of the set's rank, of a suit the set lacks, takes a joker's place."""
    size = len(meld.slots)
    clause = (REFEREE_FULL_SET_JOKER_ONE_NATURAL if size >= variant.rules.melds.set.max else JOKER_REUSE_SET_SINGLE_NATURAL_NORTH_AMERICAN)
    if len(naturals) != 1:
        raise Illegal(clause, f"a set's joker is exchanged for exactly one natural card; {len(naturals)} offered")
    natural = naturals[0]
    if natural.rank != meld.rank:
        raise Illegal(clause, f"{natural.code} is not of the set's rank")
    held = [s.card.suit for s in meld.slots if not s.is_joker]
    if variant.rules.melds.set.distinct_suits and natural.suit in held:
        raise Illegal(clause, f"the set already holds the suit of {natural.code}: only a missing suit takes the joker")
    return _set_releasing_one_joker(meld, [natural])


# -- discard and the end of a turn --------------------------------------------------------------

# TURN_MELDING_OPTIONAL: a discard is legal whether or not the player melded
# DISCARD_JAMAICAN_ANY_OTHER_CARD: any held card may be discarded; only a joker is refused, where
#   /discarding/joker is false
@enforces(TURN_MELDING_OPTIONAL, DISCARD_JAMAICAN_ANY_OTHER_CARD, STOCK_RESHUFFLE_ONCE,
          STOCK_SECOND_EXHAUSTION_VOIDS_HAND, STOCK_NO_RESHUFFLE_VARIANT)
def _discard(variant: Variant, state: State, action: Discard, events: list[ev.Event]) -> State:
    seat = state.index(state.to_act)
    player = state.players[seat]
    hand = player.hand
    if action.card in hand:  # the one card taken out of the tuple by slicing: not through _take's list
        at = hand.index(action.card)
        hand = hand[:at] + hand[at + 1:]
    else:
        hand = _take(variant, state, hand, [action.card], "discard")
    rules = variant.rules.discarding
    if action.card.is_joker and not rules.joker and not (rules.only_jokers == OnlyJokers.DISCARD
                                                         and _only_jokers(variant, state)):
        raise Illegal(DISCARD_JAMAICAN_JOKER_FORBIDDEN, "a joker may never be discarded",
                      charge=Charge(player.id, "joker_discard"))
    events.append(ev.Discarded(player.id, action.card.code))
    discard = (action.card,) + state.discard
    if not hand:
        if player.barred:
            raise Illegal(WARNING_ANNOUNCE_ONE_TO_THREE_CARDS,
                          "a player who did not announce their last cards may not go out on this turn")
        return _hand_won(variant, replace(state, players=state.seated(seat, replace(player, hand=hand)),
                                          discard=discard), player.id, events)
    announce_at = variant.rules.warning.announce_at_most
    announcement = Announcement(player.id, len(hand)) if 1 <= len(hand) <= announce_at else None
    return _end_turn(variant, state, {"players": state.seated(seat, replace(player, hand=hand, barred=False)),
                                      "discard": discard, "announcement": announcement}, events)


def _end_turn(variant: Variant, state: State, changes: dict[str, object], events: list[ev.Event]) -> State:
    """The end of the turn of the player to act, with ``changes`` (their hand, the discard pile...): an
    empty stock turned or the hand void, then the next player's draw."""
    actor = state.to_act
    if not state.stock:
        state, changes = replace(state, **changes), {}
        if state.reshuffles < variant.rules.stock.reshuffles and len(state.discard) > 1:
            n = state.reshuffles + 1
            if state.seed or not state.partial:
                new_stock = shuffled(state.discard[1:], state.seed, f"reshuffle-{n}")
            else:  # a position with unseen cards and no seed (a seat's view): the order is not known
                new_stock = [UNSEEN] * (len(state.discard) - 1)
            state = replace(state, stock=tuple(new_stock), discard=state.discard[:1], reshuffles=n)
            events.append(ev.StockReshuffled(n, len(new_stock)))
        else:
            events.append(ev.HandVoid())
            result = settle_void([Seat(p.id, p.score) for p in state.players])
            return replace(state, phase=Phase.ENDED, turn=FRESH_TURN, announcement=None, result=result)
    # the dealer's exchange of the upcard comes before the first play, which is still to come
    # the first round ends with the dealer's own turn (the last seat of the round)
    first_round = state.first_round and (state.dealer_option or actor != state.dealer)
    fields = state.__dict__.copy()  # (set item by item: cheaper than replace's keyword arguments)
    fields.update(changes)
    fields["to_act"] = state.left_of(actor)
    fields["phase"] = Phase.DRAW
    fields["turn"] = FRESH_TURN
    fields["first_play"] = state.dealer_option
    fields["dealer_option"] = False
    fields["first_round"] = first_round
    return build(State, fields)


# KALOOKIE_DEFINITION: a hand won on the turn the winner opened is a kalookie
# STAKES_DENEXA_TOKENS: only in part: the referee keeps the payments in units; the tokens shared out at the
#   start and their money value are the players' affair
@enforces(GAME_NORTH_AMERICAN_WINNER_COLLECTS_POINTS, GAME_EACH_HAND_SETTLED_SEPARATELY, KALOOKIE_DEFINITION,
          KALOOKIE_NO_BONUS_NORTH_AMERICA, KALUKI_DOUBLES_PER_CARD_PAYMENTS,
          KALOOKIE_DOUBLE_PENALTIES_VARIANT, SCORE_PER_CARD_PAYMENTS, STAKES_UK_REWARD_PAYMENTS,
          STAKES_DENEXA_TOKENS)
def _hand_won(variant: Variant, state: State, winner: str, events: list[ev.Event]) -> State:
    """Settle a won hand under the variant's scoring model (rules/settlement.py): the result, each
    player's new total, the call-up or kalookie event."""
    kalookie = state.turn.opened_this_turn and not (
        variant.rules.kalookie.first_down_only and any(p.opened for p in state.players if p.id != winner))
    if any(UNSEEN in p.hand for p in state.players):
        settlement = open_settlement(variant, state, winner, kalookie)
        if not settlement.decided:
            # some figures depend on cards nobody listed: the hand ends unsettled (``adjudicate`` says which)
            events.append(ev.Kalookie(winner) if kalookie else ev.CalledUp(winner))
            return replace(state, phase=Phase.ENDED, turn=FRESH_TURN, announcement=None, result=None)
        result = settlement.result()  # the seen cards and the counts decide every figure
    else:
        result = settle_won(variant.rules, winner, kalookie, [Seat(p.id, p.score, p.hand) for p in state.players])
    for pid, score in result.scores:
        state = state.with_player(pid, score=score)
    events.append(ev.Kalookie(winner) if result.how == "kalookie" else ev.CalledUp(winner))
    return replace(state, phase=Phase.ENDED, turn=FRESH_TURN, announcement=None, result=result)


def open_settlement(variant: Variant, state: State, winner: str, kalookie: bool) -> OpenSettlement:
    """The settlement, figure by figure, of the hand ``winner`` has just won in ``state`` while some
    hands hold unseen cards (rules/settlement.py, ``settle_open``)."""
    seats = [Seat(p.id, p.score, seen(p.hand), hidden=p.hand.count(UNSEEN)) for p in state.players]
    where = {p.id: pointer("players", i, "hidden") for i, p in enumerate(state.players)}
    return settle_open(variant.rules, winner, kalookie, seats, unaccounted(state, variant), where)


def _announce(variant: Variant, state: State, action: Announce, actor: str, events: list[ev.Event]) -> State:
    owed = state.announcement
    if owed is None or owed.player != actor:
        raise Illegal(WARNING_ANNOUNCE_ONE_TO_THREE_CARDS,
                      f"{actor} owes no announcement now: it follows a discard that leaves "
                      f"1 to {variant.rules.warning.announce_at_most} cards")
    if action.count != owed.count:
        raise Illegal(WARNING_ANNOUNCE_ONE_TO_THREE_CARDS, f"{actor} holds {owed.count} cards, not {action.count}")
    events.append(ev.Announced(actor, owed.count))
    return replace(state, announcement=None)
