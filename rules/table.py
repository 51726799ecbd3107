"""A position you can play on: ``Table``, a variant and a hand's state with the moves pushed onto it,
as a chess library's board is (docs/library.md).  A move is an action value or its text
(docs/moves.md); ``push`` puts it to the referee (``engine.adjudicate``) and, legal, makes the
verdict's state the table's; refused, it raises ``IllegalMove`` carrying the verdict.  ``pop`` takes
the last move back.  ``str(table)`` is the position as a person reads it."""
from __future__ import annotations

from collections.abc import Iterator, Sequence

from .actions import Action
from .cards import CANONICAL, UNSEEN, Card, seen
from .deal import deal
from .engine import Verdict, adjudicate
from .errors import MalformedInput, Problem
from .legal import DEFAULT_CAP, Listing, legal_actions
from .state import Phase, State
from .variant import Variant
from .wire.moves import move_text, parse_action
from .wire.notation import card as card_text
from .wire.notation import read as read_notation
from .wire.notation import write as write_notation
from .wire.state import state_from_dict
from .wire.variant import load_variant

Move = Action | str   # an action value, or its text (docs/moves.md)


class IllegalMove(ValueError):  # pragma: no cover - the library's: no request plays on a Table
    """A move the referee refused (``verdict.legal`` False) or could not decide on the cards listed
    (``verdict.legal`` None): ``move`` is the action, ``verdict`` the referee's answer, with the
    violations and the clauses they cite."""

    def __init__(self, move: Action, verdict: Verdict):
        self.move = move
        self.verdict = verdict
        reasons = verdict.violations or verdict.undetermined
        why = "; ".join(f"{v.message} ({v.clause})" for v in reasons) or "refused"
        undecided = "undetermined" if verdict.legal is None else "illegal"
        super().__init__(f"{undecided} move {move_text(move)!r}: {why}")


class Table:  # pragma: no cover - the library's: no request plays on a Table
    """A hand in play: ``variant``, the current ``state``, and the ``moves`` pushed since the table was
    set (each with the state before it, for ``pop``)."""

    def __init__(self, variant: Variant, state: State):
        self.variant = variant
        self.state = state
        self._history: list[tuple[Action, State]] = []

    # -- setting a table -----------------------------------------------------------------------
    @classmethod
    def dealt(cls, variant: Variant | str, players: Sequence[str], seed: str | int,
              dealer: str | None = None) -> "Table":
        """A new hand dealt from ``seed`` (``rules.deal``), the last player dealing unless ``dealer``."""
        chosen = load_variant(variant) if isinstance(variant, str) else variant
        return cls(chosen, deal(chosen, list(players), seed, dealer)[0])

    @classmethod
    def from_notation(cls, text: str, variant: Variant | None = None) -> "Table":
        """The position of a position notation (docs/notation.md), under its variant (``variant``, when
        given: the same variant with house rules, ``load_variant(id, rules)``); checked as any position
        (``ImpossibleState`` if it cannot occur)."""
        position = read_notation(text)
        if variant is not None and variant.id != position.variant:
            raise MalformedInput(Problem("", f"the position is one of {position.variant!r}, not {variant.id!r}"))
        chosen = load_variant(position.variant) if variant is None else variant
        return cls(chosen, state_from_dict(position.state, chosen))

    # -- what may be played --------------------------------------------------------------------
    def listing(self, cap: int = DEFAULT_CAP) -> Listing:
        """The legal actions with their listing's details (``truncated``, ``undetermined``)."""
        return legal_actions(self.variant, self.state, cap)

    @property
    def legal_moves(self) -> tuple[Action, ...]:
        """The legal actions of the player to act (and of calls out of turn), in canonical order (the
        listing of ``rules.legal``: capped, ``listing().truncated`` says when it was cut)."""
        return self.listing().actions

    def move(self, move: Move) -> Action:
        """``move`` as an action value (a text is read: ``NotationError`` where it is not a move)."""
        return parse_action(move) if isinstance(move, str) else move

    def adjudicate(self, move: Move) -> Verdict:
        """The referee's verdict on ``move`` here, the table left as it is."""
        return adjudicate(self.variant, self.state, self.move(move))

    def is_legal(self, move: Move) -> bool:
        """Whether ``move`` (an action or its text) is legal here: the referee accepts it (a move the
        cards listed leave undecided is not known legal: False).  The table is left as it is."""
        return self.adjudicate(move).legal is True

    # -- playing -------------------------------------------------------------------------------
    def push(self, move: Move) -> Verdict:
        """Play ``move``: the verdict's state becomes the table's, and the verdict is returned; a move
        the referee does not accept raises ``IllegalMove`` (carrying the verdict), the table unchanged."""
        action = self.move(move)
        verdict = adjudicate(self.variant, self.state, action)
        if verdict.legal is not True:
            raise IllegalMove(action, verdict)
        self._history.append((action, self.state))
        self.state = verdict.state
        return verdict

    def pop(self) -> Action:
        """Take back the last move pushed, and return it (IndexError when none is left)."""
        action, before = self._history.pop()
        self.state = before
        return action

    @property
    def moves(self) -> tuple[Action, ...]:
        """The moves pushed, in order."""
        return tuple(a for a, _ in self._history)

    @property
    def notation(self) -> str:
        """The position in the position notation (docs/notation.md)."""
        return write_notation(self.state, self.variant.id)

    # -- reading it ----------------------------------------------------------------------------
    def __repr__(self) -> str:
        return f"<Table {self.variant.id}: {owed(self.state)}; {len(self._history)} moves pushed>"

    def __str__(self) -> str:
        return "\n".join(_lines(self.variant, self.state))


def _cards(cards: Sequence[Card]) -> str:  # pragma: no cover - the library's: no request plays on a Table
    listed = " ".join(card_text(c) for c in sorted(seen(tuple(cards)), key=CANONICAL))
    hidden = len(cards) - len(seen(tuple(cards)))
    return " ".join(p for p in (listed, f"+{hidden} unseen" if hidden else "") if p) or "-"


def _count(n: int) -> str:  # pragma: no cover - the library's: no request plays on a Table
    return f"{n} card" + "s" * (n != 1)


def _lines(variant: Variant, state: State) -> Iterator[str]:  # pragma: no cover - the library's: no request plays on a Table
    width = max(len(p.id) for p in state.players)
    yield f"{variant.name} ({variant.id}), dealt by {state.dealer}" + (f", seed {state.seed!r}" if state.seed else "")
    for p in state.players:
        marks = ["opened"] * p.opened + ["barred"] * p.barred + [f"score {p.score}"] * (p.score != 0)
        pointer = ">" if p.id == state.to_act and state.phase != Phase.ENDED else " "
        yield f"{pointer} {p.id:<{width}}  {_count(len(p.hand)):>8}: {_cards(p.hand)}" + \
            (f"  ({', '.join(marks)})" if marks else "")
    for m in state.melds:
        yield f"  meld {m.id} ({m.owner}): {m.meld.kind} " + " ".join(s.code.replace("10", "T") for s in m.meld.slots)
    top = card_text(state.discard[0]) if state.discard else "-"
    yield f"  discard: {top} on top, {_count(len(state.discard))}; stock: {_count(len(state.stock))}"
    yield owed(state)


def owed(state: State) -> str:  # pragma: no cover - the library's: no request plays on a Table
    """Whose turn it is and what the turn still owes, as a sentence (``Andy to play: has drawn 9S from
    the discard, must discard``)."""
    if state.phase == Phase.ENDED:
        result = state.result
        if result is None or result.winner is None:
            return "The hand is over" + ("" if result is None else f" ({result.how})")
        return f"The hand is over: {result.winner} won ({result.how})"
    who, turn = state.to_act, state.turn
    if state.phase == Phase.DRAW:
        extra = [f"calls for the discard: {', '.join(state.calls)}"] if state.calls else []
        if state.dealer_option:
            extra.append("may take the upcard for a card, or pass")
        if state.stock_owed:
            extra.append("allowed a call, must draw from the stock")
        return f"{who} to draw" + (": " + "; ".join(extra) if extra else "")
    owes = []
    if turn.drawn is not None and turn.source is not None:
        owes.append(f"has drawn {'a card' if turn.drawn is UNSEEN else card_text(turn.drawn)} from the {turn.source.value}")
    if turn.pending_jokers:
        owes.append(f"must place {turn.pending_jokers} released joker(s)")
    if turn.must_use is not None:
        owes.append(f"must meld {card_text(turn.must_use)}")
    if turn.must_open:
        owes.append("must open before discarding")
    owes.append("must discard")
    return f"{who} to play: " + ", ".join(owes)
