"""Moves written as text (docs/moves.md), both ways: ``move_text(action)`` writes an action, hand or
game, as one short line (``draw stock``, ``meld 7H 8H 9H + KS KH KC``, ``Andy: discard KC``) and
``parse_move(text)`` reads it back as the same value.  Cards are written as the position notation
writes them (rules/wire/notation.py: a ten is ``T``, a joker ``JK``, a joker with its reading
``JK(=9H)``), and so are names (player and meld ids: the characters a URL keeps as they are, every
other one %XX-escaped); a seed is a JSON string or an integer.  The text ``move_text`` writes is
the one canonical spelling: ``move_text(parse_move(t)) == t`` for every text it writes; the reader
also takes runs of spaces where one is written.  A text that is not a move raises
``NotationError`` naming the character where reading stopped.
"""
from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, Union

from ..actions import (MAX_CARDS, MAX_MELDS, MAX_TURN_STEPS, Action, Allow, Announce, Build, Call, Challenge, Discard, Draw, MeldAction, MeldSpec, Pass,
                       Penalty, SwapJoker, TurnAction)
from ..deal import ReportedCut
from ..game import GameAction
from ..melds import Token, parse_token
from ..params import INFRACTIONS
from .notation import NotationError, Reader, card, name

Move = Union[Action, GameAction]
MAX_TEXT = 2000              # the longest text read (openapi.yaml's ActionText)
CLAIMS = ("overcall", "lay")
KINDS = ("run", "set")
ENDS = ("low", "high")
SOURCES = ("stock", "discard")
MAX_SEED = 9007199254740991  # openapi.yaml's Seed: an integer seed within JSON's exact integers
MAX_NATURALS = 4             # the natural cards given for a joker (openapi.yaml's SwapJokerAction)
MAX_CUT = 1000               # the cards a reported cut lifts (openapi.yaml's ReportedCut)
_SAID_BY_A_PLAYER = ("call", "penalty", "challenge")   # moves the schema's object form names the player of
_LETTERS = frozenset("abcdefghijklmnopqrstuvwxyz_")
_CARD_START = frozenset("AKQJT98765432")   # the first character of every card (``JK`` included)


# -- writing ---------------------------------------------------------------------------------------

def move_text(move: Move) -> str:  # pragma: no cover - the writer: no request is answered with a move's text
    """The canonical text of a hand action or a game action."""
    if isinstance(move, dict):
        return _game_text(move)
    who = "" if move.player is None else f"{name(move.player)}: "
    return who + _act_text(move)


def _cards_text(tokens: tuple[Token, ...]) -> str:  # pragma: no cover - the writer: no request is answered with a move's text
    return " ".join(t.code.replace("10", "T") for t in tokens)


def _layoff_text(b: Build) -> str:  # pragma: no cover - the writer: no request is answered with a move's text
    end = "" if b.end is None else f" at {b.end}"
    return f"{name(b.meld)} {_cards_text(b.tokens)}{end}"


def _spec_text(spec: MeldSpec) -> str:  # pragma: no cover - the writer: no request is answered with a move's text
    kind = "" if spec.kind is None else f"{spec.kind} "
    label = "" if spec.id is None else f" as {name(spec.id)}"
    return f"{kind}{_cards_text(spec.tokens)}{label}"


def _act_text(a: Action) -> str:  # pragma: no cover - the writer: no request is answered with a move's text
    if isinstance(a, Draw):
        drawn = "" if a.card is None else f" {card(a.card)}"
        return ("draw stock" if a.source == "stock" else "take") + drawn
    if isinstance(a, MeldAction):
        parts = [_spec_text(s) for s in a.melds] + [f"build {_layoff_text(b)}" for b in a.builds]
        return "meld " + " + ".join(parts)
    if isinstance(a, Build):
        return f"build {_layoff_text(a)}"
    if isinstance(a, SwapJoker):
        place = "" if a.place is None else f" -> {move_text(a.place)}"
        return f"swap {name(a.meld)} {' '.join(card(c) for c in a.naturals)}{place}"
    if isinstance(a, Discard):
        return f"discard {card(a.card)}"
    if isinstance(a, Announce):
        return f"announce {a.count}"
    if isinstance(a, Allow):
        return f"allow {name(a.caller)}"
    if isinstance(a, Penalty):
        return f"penalty {a.infraction}"
    if isinstance(a, Challenge):
        return f"challenge {name(a.target)} {a.claim}"
    if isinstance(a, TurnAction):
        return "turn (" + "; ".join(move_text(step) for step in a.actions) + ")"
    return a.type   # pass, call


def _game_text(g: GameAction) -> str:  # pragma: no cover - the writer: no request is answered with a move's text
    who = f"{name(g['player'])}: " if "player" in g else ""
    if g["type"] != "next_hand":
        return who + ("buy in" if g["type"] == "buy_in" else "decline")
    text = f"{who}next hand {json.dumps(g['seed'], ensure_ascii=False)}"
    cut = g.get("cut")
    if cut is not None:
        text += f" cut {cut.count}" + ("" if cut.by is None else f" by {name(cut.by)}")
    return text


# -- reading ---------------------------------------------------------------------------------------

def parse_move(text: str) -> Move:
    """The action (hand or game) a move's text names; NotationError where it is not one."""
    if not isinstance(text, str):  # pragma: no cover - openapi.yaml's ActionText is a string
        raise NotationError(0, "a move is a text")
    if len(text) > MAX_TEXT:  # pragma: no cover - openapi.yaml's ActionText holds at most 2000 characters
        raise NotationError(MAX_TEXT, f"a move is at most {MAX_TEXT} characters")
    p = _Parser(text)
    p.spaces()
    move = p.move(top=True)
    p.spaces()
    if p.r.peek():
        raise p.r.fail(f"unexpected {p.r.peek()!r} after the move")
    return move


def parse_action(text: str) -> Action:
    """The hand action a move's text names (a game's own action, ``buy in``, ``decline`` or ``next
    hand``, is refused: it is no action of a hand)."""
    move = parse_move(text)
    if isinstance(move, dict):
        raise NotationError(0, f"{move['type']!r} is a game's action, not an action of a hand")
    return move


class _Parser:
    """The grammar of docs/moves.md over the notation's cursor (``Reader``)."""

    def __init__(self, text: str):
        self.r = Reader(text)

    # -- the pieces ---------------------------------------------------------------------------------
    def spaces(self) -> bool:
        start = self.r.at
        while self.r.peek() == " ":
            self.r.at += 1
        return self.r.at > start

    def gap(self, what: str) -> None:
        if not self.spaces():
            found = repr(self.r.peek()) if self.r.peek() else "the end"
            raise self.r.fail(f"expected a space before {what}, found {found}")

    def ahead(self, word: str) -> bool:
        """Whether ``word`` (after spaces) comes next, as a whole word; if so the cursor is past it."""
        start = self.r.at
        self.spaces()
        end = self.r.at + len(word)
        if self.r.text.startswith(word, self.r.at) and end <= len(self.r.text) and \
                (end == len(self.r.text) or self.r.text[end] in " ;)"):
            self.r.at = end
            return True
        self.r.at = start
        return False

    def word(self) -> str:
        start = self.r.at
        while self.r.peek() and self.r.peek() in _LETTERS:
            self.r.at += 1
        return self.r.text[start:self.r.at]

    def choice(self, options: tuple[str, ...], what: str) -> str:
        start = self.r.at
        found = self.word()
        if found not in options:
            raise self.r.fail(f"{what} is one of {', '.join(options)}", start)
        return found

    def name(self, what: str) -> str:
        found = self.r.take_name(what)
        if len(found) > 64:
            raise self.r.fail(f"{what} is at most 64 characters")
        return found

    def tokens(self, most: int = MAX_CARDS) -> tuple[Token, ...]:
        """Cards of a meld, one or more (at most ``most``), the first at the cursor, each other after
        a space."""
        out = [parse_token(self.r.take_meld_card())]
        while self.ahead_card():
            if len(out) == most:
                raise self.r.fail(f"at most {most} cards here")
            out.append(parse_token(self.r.take_meld_card()))
        return tuple(out)

    def limit(self, items: list[Any], most: int, what: str, at: int) -> None:
        if len(items) >= most:
            raise self.r.fail(f"at most {most} {what}", at)

    # -- a move -------------------------------------------------------------------------------------
    def move(self, top: bool = False) -> Move:
        start = self.r.at
        player = self.r.take_name("a move", empty=True)
        if self.r.peek() == ":" and player:
            self.r.at += 1
            self.gap("the move")
            if len(player) > 64:
                raise self.r.fail("a player id is at most 64 characters", start)
        else:
            self.r.at, player = start, ""
        at = self.r.at
        verb = self.word()
        read = _VERBS.get(verb)
        if read is None or (verb in _GAME_VERBS and not top):
            raise self.r.fail(f"expected a move ({', '.join(sorted(_VERBS))}), found {self.r.text[at:at + 12]!r}", at)
        if verb in _SAID_BY_A_PLAYER and not player:
            raise self.r.fail(f"{verb} is said by a player: write it after the player's id and ':'", at)
        return read(self, player or None)

    def draw(self, player: str | None) -> Action:
        self.gap("the source")
        source = self.choice(("stock",), "the source (take draws the discard)")
        drawn = None
        if self.ahead_card():
            drawn = self.r.take_card()
        return Draw(source, None if drawn is None else parse_token(drawn).card, player)

    def take(self, player: str | None) -> Action:
        drawn = self.r.take_card() if self.ahead_card() else None
        return Draw("discard", None if drawn is None else parse_token(drawn).card, player)

    def ahead_card(self) -> bool:
        start = self.r.at
        if self.spaces() and self.r.peek() and self.r.peek() in _CARD_START:
            return True
        self.r.at = start
        return False

    def layoff(self, player: str | None) -> Build:
        self.gap("a meld id")
        meld = self.name("a meld id")
        self.gap("the cards laid off")
        tokens = self.tokens()
        end = self.choice(ENDS, "the end") if self.ahead("at") and self.gap_then() else None
        return Build(meld, tokens, end, player)

    def gap_then(self) -> bool:
        self.gap("the word that follows")
        return True

    def meld(self, player: str | None) -> Action:
        specs: list[MeldSpec] = []
        builds: list[Build] = []
        while True:
            self.gap("a meld")
            if self.ahead("build"):
                self.limit(builds, MAX_MELDS, "lay-offs in one meld action", self.r.at)
                builds.append(self.layoff(None))
            elif builds:
                raise self.r.fail("the lay-offs (+ build ...) come after the new melds")
            else:
                self.limit(specs, MAX_MELDS, "new melds in one action", self.r.at)
                specs.append(self.spec())
            start = self.r.at
            self.spaces()
            if not self.r.eat("+"):
                self.r.at = start
                break
        if not specs:
            raise self.r.fail("a meld action lays at least one new meld")
        return MeldAction(tuple(specs), player, tuple(builds))

    def spec(self) -> MeldSpec:
        kind = None
        for k in KINDS:
            if self.ahead(k):
                kind = k
                self.gap("the cards of a meld")
                break
        tokens = self.tokens()
        label = self.name("a meld id") if self.ahead("as") and self.gap_then() else None
        return MeldSpec(tokens, kind, label)

    def build(self, player: str | None) -> Action:
        return self.layoff(player)

    def swap(self, player: str | None) -> Action:
        self.gap("a meld id")
        meld = self.name("a meld id")
        self.gap("the natural cards given for the joker")
        naturals = [t.card for t in self.tokens(MAX_NATURALS)]
        if any(c.is_joker for c in naturals):
            raise self.r.fail("a joker is taken by giving natural cards, not a joker")
        place: MeldAction | Build | None = None
        start = self.r.at
        self.spaces()
        if self.r.eat("-"):
            self.r.expect(">", "in ->")
            self.gap("where the joker goes")
            at = self.r.at
            placed = self.move()
            if not isinstance(placed, (MeldAction, Build)):
                raise self.r.fail("the released joker goes to a meld or a build", at)
            place = placed
        else:
            self.r.at = start
        return SwapJoker(meld, tuple(naturals), place, player)

    def discard(self, player: str | None) -> Action:
        self.gap("the card")
        return Discard(parse_token(self.r.take_card()).card, player)

    def announce(self, player: str | None) -> Action:
        self.gap("the count")
        start = self.r.at
        count = self.r.take_int("the count announced")
        if count > 100:
            raise self.r.fail("the count announced is at most 100", start)
        return Announce(count, player)

    def allow(self, player: str | None) -> Action:
        self.gap("the caller")
        return Allow(self.name("the caller"), player)

    def penalty(self, player: str | None) -> Action:
        self.gap("the infraction")
        return Penalty(self.choice(INFRACTIONS, "the infraction"), player)

    def challenge(self, player: str | None) -> Action:
        self.gap("the player challenged")
        target = self.name("the player challenged")
        self.gap("the claim")
        return Challenge(target, self.choice(CLAIMS, "the claim"), player)

    def turn(self, player: str | None) -> Action:
        self.spaces()
        self.r.expect("(", "opening a turn's steps")
        steps: list[Action] = []
        while True:
            self.spaces()
            at = self.r.at
            self.limit(steps, MAX_TURN_STEPS, "steps in a turn", at)
            step = self.move()
            if isinstance(step, (TurnAction, Call, Penalty, Challenge)):
                raise self.r.fail(f"a turn's step is no {step.type}", at)
            assert not isinstance(step, dict)   # (refused by ``move`` below the top)
            steps.append(step)
            self.spaces()
            if not self.r.eat(";"):
                break
        self.r.expect(")", "closing a turn's steps")
        return TurnAction(tuple(steps), player)

    def buy(self, player: str | None) -> Move:
        self.gap("in")
        self.choice(("in",), "after buy")
        return self.game({"type": "buy_in"}, player)

    def decline(self, player: str | None) -> Move:
        return self.game({"type": "decline"}, player)

    def game(self, action: GameAction, player: str | None) -> GameAction:
        if player is None:
            raise self.r.fail(f"{action['type']} is said by a player: write it after the player's id and ':'")
        action["player"] = player
        return action

    def next(self, player: str | None) -> Move:
        self.gap("hand")
        self.choice(("hand",), "after next")
        self.gap("the seed")
        if player is not None:
            raise self.r.fail("the next hand is dealt by the table: no player names it")
        action: GameAction = {"type": "next_hand", "seed": self.seed()}
        if self.ahead("cut"):
            self.gap("the count cut")
            start = self.r.at
            count = self.r.take_int("the count cut")
            if not 1 <= count <= MAX_CUT:
                raise self.r.fail(f"a cut lifts 1 to {MAX_CUT} cards", start)
            by = self.name("the player who cut") if self.ahead("by") and self.gap_then() else None
            action["cut"] = ReportedCut(count, by)
        return action

    def seed(self) -> str | int:
        start = self.r.at
        if self.r.peek() == '"':
            try:
                value, end = json.JSONDecoder().raw_decode(self.r.text, self.r.at)
            except json.JSONDecodeError as exc:
                raise self.r.fail(f"the seed is a JSON string: {exc.msg}", exc.pos) from None
            if len(value) > 256:
                raise self.r.fail("a seed is at most 256 characters", start)
            self.r.at = end
            return str(value)
        number = self.r.take_int("the seed (a JSON string or an integer)", signed=True)
        if abs(number) > MAX_SEED:
            raise self.r.fail(f"an integer seed is at most {MAX_SEED} either side of 0", start)
        return number


def _pass(p: _Parser, player: str | None) -> Action:
    return Pass(player)


def _call(p: _Parser, player: str | None) -> Action:
    return Call(player)


_VERBS: dict[str, Callable[[_Parser, str | None], Move]] = {
    "draw": _Parser.draw, "take": _Parser.take, "meld": _Parser.meld, "build": _Parser.build,
    "swap": _Parser.swap, "discard": _Parser.discard, "announce": _Parser.announce, "pass": _pass,
    "call": _call, "allow": _Parser.allow, "penalty": _Parser.penalty, "challenge": _Parser.challenge,
    "turn": _Parser.turn, "buy": _Parser.buy, "decline": _Parser.decline, "next": _Parser.next,
}
_GAME_VERBS = ("buy", "decline", "next")
