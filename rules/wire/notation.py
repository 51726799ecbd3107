"""Position notation: one hand's state as a short line of text (docs/notation.md), as FEN is for chess.

``write(state, variant_id)`` gives the text of a state; ``read(text)`` gives back the variant id and the
state in its canonical wire form (docs/wire-format.md), which the caller then checks as any state
(``state.state_from_dict``).  The text is made of the characters a URL fragment holds as they are, so
a link ``/#p=<notation>`` carries a position; nothing in it depends on a variant's rules, so reading
needs no variant.  A bad text raises ``NotationError`` naming the character where reading stopped.

    K1/<variant id>/north:ASKH7D...,o;east:+13;.../p:4:1,f/9C2H...+40/QS/1r7H8HJK(=9H)/s9H,o/hand-1
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..cards import CANONICAL, JOKER_CODE, UNSEEN, Card, parse_card, rank_code, seen
from ..errors import MalformedInput, Problem
from ..melds import Meld
from ..state import HandResult, Player, State, TableMeld, Turn

VERSION = "K1"
# characters a name (player id, meld id, variant id, seed) keeps as they are: RFC 3986's unreserved
# characters; every other character is written as the %XX escapes of its UTF-8 bytes
_PLAIN = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
_RANKS = "AKQJT98765432"
_SUITS = "SHDC"
_PHASES = {"draw": "d", "play": "p", "ended": "e"}
_PHASE_OF = {v: k for k, v in _PHASES.items()}
_KINDS = {"set": "s", "run": "r"}
_KIND_OF = {v: k for k, v in _KINDS.items()}
_SOURCES = {"stock": "s", "discard": "d"}
_SOURCE_OF = {v: k for k, v in _SOURCES.items()}
_TABLES = {"penalties": "p", "payments": "y", "scores": "s", "credits": "c"}
EMPTY = "-"


class NotationError(MalformedInput):
    """A text that is not a position in this notation: ``at`` is the index (from 0) of the character
    where reading stopped; the problem's detail counts characters from 1."""

    def __init__(self, at: int, message: str):
        self.at = at
        self.message = message
        super().__init__([Problem("", f"at character {at + 1}: {message}")])

    def prefixed(self, prefix: str) -> MalformedInput:
        """The same problem placed under ``prefix`` (the field the text was read from)."""
        return MalformedInput([Problem(prefix + p.pointer, p.detail, p.code) for p in self.problems])


# -- writing -------------------------------------------------------------------------------------

def name(text: str) -> str:
    """A name as the notation writes it: plain characters kept, every other one %XX-escaped."""
    return "".join(ch if ch in _PLAIN else "".join(f"%{b:02X}" for b in ch.encode("utf-8")) for ch in text)


def card(c: Card) -> str:
    """A card's two characters (a ten is ``T``)."""
    return c.code.replace("10", "T")


def cards(cs: tuple[Card, ...] | list[Card]) -> str:
    return "".join(map(card, cs))


def _with_hidden(listed: str, hidden: int) -> str:
    return listed + (f"+{hidden}" if hidden else "")


def _seat(p: Player) -> str:
    marks = ["o"] * p.opened + ["b"] * p.barred + ["l"] * p.lay_barred
    marks += [f"s{p.score}"] * (p.score != 0) + [f"c{p.calls}"] * (p.calls != 0)
    hand = cards(sorted(seen(p.hand), key=CANONICAL))
    return ",".join([f"{name(p.id)}:{_with_hidden(hand, p.hidden)}", *marks])


def _table(state: State, seat: dict[str, int]) -> str:
    marks = ["f"] * state.first_play + ["o"] * state.dealer_option + ["r"] * state.first_round
    marks += ["w"] * state.stock_owed
    marks += [f"R{state.reshuffles}"] * (state.reshuffles != 0) + [f"H{state.hand_number}"] * (state.hand_number != 0)
    if state.announcement is not None:
        marks.append(f"a{seat[state.announcement.player]}x{state.announcement.count}")
    marks += [f"c{seat[caller]}" for caller in state.calls]
    head = f"{_PHASES[state.phase]}:{seat[state.dealer]}:{seat[state.to_act]}"
    return ",".join([head, *marks])


def _meld(m: TableMeld, at: int, seat: dict[str, int]) -> str:
    label = "" if m.id == f"m{at + 1}" else f"{name(m.id)}:"
    return f"{label}{seat[m.owner]}{_KINDS[m.meld.kind]}{_meld_cards(m.meld)}"


def _meld_cards(meld: Meld) -> str:
    """A meld's cards in order; in a run, three or more naturals in a row as a range ``2S-8S``."""
    slots, out, i = meld.slots, [], 0
    while i < len(slots):
        j = i
        if meld.kind == "run" and not slots[i].is_joker:
            while j + 1 < len(slots) and not slots[j + 1].is_joker and slots[j + 1].rank == slots[j].rank + 1:
                j += 1
        if j - i >= 2:
            out.append(f"{card(slots[i].card)}-{card(slots[j].card)}")
        else:
            out += [slots[k].code.replace("10", "T") for k in range(i, j + 1)]
        i = j + 1
    return "".join(out)


def _turn(t: Turn) -> str:
    drawn = None if t.drawn is None or t.drawn is UNSEEN else t.drawn
    marks = []
    if t.source is not None or drawn is not None:
        marks.append(("x" if t.source is None else _SOURCES[t.source]) + ("?" if drawn is None else card(drawn)))
    marks += ["m"] * t.must_open + ["o"] * t.opened_this_turn
    marks += [f"j{t.pending_jokers}"] * (t.pending_jokers != 0)
    if t.must_use is not None:
        marks.append(f"u{card(t.must_use)}")
    marks += [f"b{name(mid)}:{low}:{high}" for mid, low, high in t.builds]
    return ",".join(marks) or EMPTY


def _result(r: HandResult, seat: dict[str, int]) -> str:
    winner = EMPTY if r.winner is None else str(seat[r.winner])
    parts = [r.how, winner]
    for key in _TABLES:
        table = getattr(r, key)
        if table is None:
            continue
        values = dict(table)
        if sorted(values) == sorted(seat):   # a value for every seat: in seat order
            entries = [str(values[pid]) for pid in seat]
        else:                                # some seats only: each value after its seat
            entries = [f"{seat[pid]}={v}" for pid, v in sorted(table, key=lambda item: seat[item[0]])]
        parts.append(_TABLES[key] + ".".join(entries))
    return ",".join(parts)


def write(state: State, variant_id: str) -> str:
    """The notation of ``state`` (a state of the variant ``variant_id``), in the one form ``read``
    gives back unchanged: hands in the canonical order, default meld ids left out."""
    seat = {p.id: i + 1 for i, p in enumerate(state.players)}
    fields = [VERSION, name(variant_id), ";".join(map(_seat, state.players)), _table(state, seat),
              _with_hidden(cards(seen(state.stock)), state.stock_hidden) or EMPTY,
              cards(state.discard) or EMPTY,
              ";".join(_meld(m, i, seat) for i, m in enumerate(state.melds)) or EMPTY,
              _turn(state.turn), name(state.seed)]
    if state.result is not None:
        fields.append(_result(state.result, seat))
    return "/".join(fields)


# -- reading -------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Position:
    """What a notation holds: the variant's id and the state in its canonical wire form."""
    variant: str
    state: dict[str, Any]


class Reader:
    """A cursor over the text: each ``take_*`` reads one element at ``at`` and moves past it, or
    raises NotationError there."""

    def __init__(self, text: str):
        self.text = text
        self.at = 0

    def fail(self, message: str, at: int | None = None) -> NotationError:
        return NotationError(self.at if at is None else at, message)

    def peek(self) -> str:
        return self.text[self.at] if self.at < len(self.text) else ""

    def eat(self, ch: str) -> bool:
        if self.peek() == ch:
            self.at += 1
            return True
        return False

    def expect(self, ch: str, what: str) -> None:
        if not self.eat(ch):
            found = repr(self.peek()) if self.peek() else "the end"
            raise self.fail(f"expected {ch!r} {what}, found {found}")

    def take_name(self, what: str, empty: bool = False) -> str:
        start = self.at
        while self.peek() and (self.peek() in _PLAIN or self.peek() == "%"):
            if self.peek() == "%":
                hex_ = self.text[self.at + 1:self.at + 3]
                if len(hex_) != 2 or any(h not in "0123456789ABCDEFabcdef" for h in hex_):
                    raise self.fail("a % escape is followed by two hex digits")
                self.at += 3
            else:
                self.at += 1
        raw = self.text[start:self.at]
        if not raw and not empty:
            raise self.fail(f"expected {what}")
        try:
            return _unescape(raw)
        except UnicodeDecodeError:
            raise self.fail(f"{what} is not UTF-8 once unescaped", start) from None

    def take_int(self, what: str, signed: bool = False) -> int:
        start = self.at
        if signed:
            self.eat("-")
        while self.peek().isascii() and self.peek().isdigit():
            self.at += 1
        digits = self.text[start:self.at]
        if not digits.lstrip("-") or len(digits) > 30:
            raise self.fail(f"expected {what} (a number)", start)
        return int(digits)

    def take_card(self) -> str:
        """One card (two characters, a ten as T; ``JK`` for a joker): its wire code."""
        start, pair = self.at, self.text[self.at:self.at + 2]
        if pair == JOKER_CODE or (len(pair) == 2 and pair[0] in _RANKS and pair[1] in _SUITS):
            self.at += 2
            return parse_card(pair).code
        raise self.fail(f"expected a card (rank A K Q J T 9-2 then suit S H D C, or JK), found {pair!r}", start)

    def take_cards(self, stop: str) -> list[str]:
        out = []
        while self.peek() and self.peek() not in stop:
            out.append(self.take_card())
        return out

    def take_meld_card(self) -> str:
        """A card of a meld: a card, or a joker with its reading ``JK(=9H)`` / ``JK(=9)``."""
        code = self.take_card()
        if code != JOKER_CODE or not self.eat("("):
            return code
        self.expect("=", "in a joker's reading JK(=...)")
        rank = self.peek()
        if not rank or rank not in _RANKS:
            raise self.fail("a joker's reading starts with a rank")
        self.at += 1
        suit = self.peek() if self.peek() and self.peek() in _SUITS else ""
        self.at += len(suit)
        self.expect(")", "closing a joker's reading")
        reading = parse_card(rank + (suit or "S")).code[:-1] + suit
        return f"JK(={reading})"


def _unescape(raw: str) -> str:
    if "%" not in raw:
        return raw
    out, i = bytearray(), 0
    while i < len(raw):
        if raw[i] == "%":
            out.append(int(raw[i + 1:i + 3], 16))
            i += 3
        else:
            out += raw[i].encode("ascii")
            i += 1
    return out.decode("utf-8")


def _read_seats(r: Reader) -> list[dict[str, Any]]:
    players = []
    while True:
        pid = r.take_name("a player id")
        r.expect(":", "after a player id")
        hand = r.take_cards("+,;/")
        p: dict[str, Any] = {"id": pid, "hand": sorted(hand, key=lambda c: CANONICAL(parse_card(c))),
                             "opened": False, "score": 0, "barred": False}
        hidden = r.take_int("a count of unseen cards") if r.eat("+") else 0
        while r.eat(","):
            _seat_mark(r, p)
        if hidden:
            p["hidden"] = hidden
        players.append(_ordered(p, ("id", "hand", "opened", "score", "barred", "hidden", "calls", "lay_barred")))
        if not r.eat(";"):
            return players


def _seat_mark(r: Reader, p: dict[str, Any]) -> None:
    start, mark = r.at, r.peek()
    r.at += 1
    if mark in ("o", "b", "l"):
        p[{"o": "opened", "b": "barred", "l": "lay_barred"}[mark]] = True
    elif mark == "s":
        p["score"] = r.take_int("a score", signed=True)
    elif mark == "c":
        p["calls"] = r.take_int("a number of calls")
    else:
        raise r.fail(f"{mark!r} is not a seat mark (o b l s<score> c<calls>)", start)


def _ordered(d: dict[str, Any], keys: tuple[str, ...]) -> dict[str, Any]:
    return {k: d[k] for k in keys if k in d}


def _seat_id(r: Reader, ids: list[str], what: str) -> str:
    start = r.at
    n = r.take_int(what)
    if not 1 <= n <= len(ids):
        raise r.fail(f"{what}: there is no seat {n} (seats are numbered 1 to {len(ids)})", start)
    return ids[n - 1]


def _read_table(r: Reader, ids: list[str], state: dict[str, Any]) -> None:
    start, phase = r.at, r.peek()
    if phase not in _PHASE_OF or not phase:
        raise r.fail("the phase is d (draw), p (play) or e (ended)", start)
    r.at += 1
    state["phase"] = _PHASE_OF[phase]
    r.expect(":", "after the phase")
    state["dealer"] = _seat_id(r, ids, "the dealer")
    r.expect(":", "after the dealer")
    state["to_act"] = _seat_id(r, ids, "the player to act")
    while r.eat(","):
        _table_mark(r, ids, state)


def _table_mark(r: Reader, ids: list[str], state: dict[str, Any]) -> None:
    start, mark = r.at, r.peek()
    r.at += 1
    flags = {"f": "first_play", "o": "dealer_option", "r": "first_round", "w": "stock_owed"}
    if mark in flags:
        state[flags[mark]] = True
    elif mark == "R":
        state["reshuffles"] = r.take_int("a number of reshuffles")
    elif mark == "H":
        state["hand_number"] = r.take_int("a hand number")
    elif mark == "a":
        player = _seat_id(r, ids, "the announcing seat")
        r.expect("x", "between the announcing seat and its count")
        state["announcement"] = {"player": player, "count": r.take_int("the announced count")}
    elif mark == "c":
        state.setdefault("calls", []).append(_seat_id(r, ids, "a calling seat"))
    else:
        raise r.fail(f"{mark!r} is not a table mark (f o r w R<n> H<n> a<seat>x<n> c<seat>)", start)


def _read_pile(r: Reader, hidden: bool) -> tuple[list[str], int]:
    if r.eat(EMPTY):
        return [], 0
    listed = r.take_cards("+/")
    count = r.take_int("a count of unseen cards") if hidden and r.eat("+") else 0
    return listed, count


def _read_melds(r: Reader, ids: list[str]) -> list[dict[str, Any]]:
    if r.eat(EMPTY):
        return []
    melds: list[dict[str, Any]] = []
    while True:
        start = r.at
        label = r.take_name("a meld")
        if r.eat(":"):
            mid = label
        else:  # no id: the text read as a name was the owner's seat and the kind
            r.at, mid = start, f"m{len(melds) + 1}"
        owner = _seat_id(r, ids, "a meld's owner")
        kind = r.peek()
        if not kind or kind not in _KIND_OF:
            raise r.fail("a meld's kind is s (set) or r (run)")
        r.at += 1
        codes: list[str] = []
        while r.peek() and r.peek() not in ";/":
            if codes and kind == "r" and r.peek() == "-":
                codes += _run_range(r, codes.pop())
            else:
                codes.append(r.take_meld_card())
        if not codes:
            raise r.fail("a meld holds cards")
        melds.append({"id": mid, "owner": owner, "kind": _KIND_OF[kind], "cards": codes})
        if not r.eat(";"):
            return melds


def _run_range(r: Reader, first: str) -> list[str]:
    """The naturals of a run from ``first`` to the card after the ``-`` at the cursor (an ace is low
    at the start of a range, high at its end)."""
    start = r.at
    r.expect("-", "in a range")
    last = r.take_card()
    if first.startswith(JOKER_CODE) or last == JOKER_CODE or first[-1] != last[-1]:
        raise r.fail("a range of a run goes from a natural to a natural of the same suit", start)
    low = 1 if first[:-1] == "A" else parse_card(first).rank
    high = parse_card(last).rank
    if high <= low:
        raise r.fail(f"a range goes up: {first} to {last} is empty", start)
    return [rank_code(rank) + first[-1] for rank in range(low, high + 1)]


def _read_turn(r: Reader) -> dict[str, Any]:
    turn: dict[str, Any] = {"drawn": None, "source": None, "must_open": False, "opened_this_turn": False,
                            "pending_jokers": 0, "builds": {}}
    if r.eat(EMPTY):
        return turn
    while True:
        _turn_mark(r, turn)
        if not r.eat(","):
            break
    turn["builds"] = dict(sorted(turn["builds"].items()))
    return _ordered(turn, ("drawn", "source", "must_open", "opened_this_turn", "pending_jokers", "builds", "must_use"))


def _turn_mark(r: Reader, turn: dict[str, Any]) -> None:
    start, mark = r.at, r.peek()
    r.at += 1
    if mark in ("s", "d", "x"):
        turn["source"] = _SOURCE_OF.get(mark)
        turn["drawn"] = None if r.eat("?") else r.take_card()
    elif mark in ("m", "o"):
        turn["must_open" if mark == "m" else "opened_this_turn"] = True
    elif mark == "j":
        turn["pending_jokers"] = r.take_int("a number of jokers")
    elif mark == "u":
        turn["must_use"] = r.take_card()
    elif mark == "b":
        mid = r.take_name("a meld id")
        r.expect(":", "after a built meld's id")
        low = r.take_int("the cards built at the low end")
        r.expect(":", "between the low and the high count")
        turn["builds"][mid] = {"low": low, "high": r.take_int("the cards built at the high end")}
    else:
        raise r.fail(f"{mark!r} is not a turn mark (s<card> d<card> x? m o j<n> u<card> b<meld>:<low>:<high>)", start)


def _read_result(r: Reader, ids: list[str]) -> dict[str, Any]:
    how = r.take_name("how the hand ended")
    r.expect(",", "after how the hand ended")
    winner = None if r.eat(EMPTY) else _seat_id(r, ids, "the winner")
    result: dict[str, Any] = {"how": how, "winner": winner}
    while r.eat(","):
        start, key = r.at, r.peek()
        table = next((t for t, letter in _TABLES.items() if letter == key and key), None)
        if table is None:
            raise r.fail(f"{key!r} is not a result table (p y s c: penalties payments scores credits)", start)
        r.at += 1
        result[table] = _read_int_table(r, ids)
    for table in ("penalties", "payments", "scores"):
        if table not in result:
            raise r.fail(f"the result has no {table}")
    return result


def _read_int_table(r: Reader, ids: list[str]) -> dict[str, int]:
    entries: list[tuple[str, int]] = []
    while True:
        start = r.at
        value = r.take_int("a number", signed=True)
        if r.eat("="):  # keyed by seat: <seat>=<value>
            r.at = start
            pid = _seat_id(r, ids, "a seat")
            r.expect("=", "after a seat")
            value = r.take_int("a number", signed=True)
        else:
            if len(entries) >= len(ids):
                raise r.fail("more values than seats", start)
            pid = ids[len(entries)]
        entries.append((pid, value))
        if not r.eat("."):
            return dict(entries)


def read(text: str) -> Position:
    """The variant id and the state (canonical wire form) of a notation; NotationError if ``text`` is
    not one.  The state is not checked against the variant's rules: give it to ``state_from_dict``."""
    r = Reader(text)
    for ch in VERSION:
        r.expect(ch, f"(a position starts with {VERSION}/)")
    r.expect("/", f"after {VERSION}")
    variant = r.take_name("a variant id")
    r.expect("/", "after the variant id")
    players = _read_seats(r)
    ids = [p["id"] for p in players]
    r.expect("/", "after the seats")
    table: dict[str, Any] = {}
    _read_table(r, ids, table)
    r.expect("/", "after the table (phase, dealer, player to act)")
    stock, stock_hidden = _read_pile(r, hidden=True)
    r.expect("/", "after the stock")
    discard, _ = _read_pile(r, hidden=False)
    r.expect("/", "after the discard pile")
    melds = _read_melds(r, ids)
    r.expect("/", "after the melds")
    turn = _read_turn(r)
    r.expect("/", "after the turn")
    seed = r.take_name("the seed", empty=True)
    result = _read_result(r, ids) if r.eat("/") else None
    if r.peek():
        raise r.fail(f"unexpected {r.peek()!r} after the position")
    state = _state(players, table, stock, stock_hidden, discard, melds, turn, seed, result)
    return Position(variant, state)


def _state(players: list[dict[str, Any]], table: dict[str, Any], stock: list[str], stock_hidden: int,
           discard: list[str], melds: list[dict[str, Any]], turn: dict[str, Any], seed: str,
           result: dict[str, Any] | None) -> dict[str, Any]:
    """The canonical wire form (``State.to_dict``'s fields, in its order) of what was read."""
    state: dict[str, Any] = {"players": players, "dealer": table["dealer"], "to_act": table["to_act"],
                             "phase": table["phase"], "first_play": table.get("first_play", False), "stock": stock}
    if stock_hidden:
        state["stock_hidden"] = stock_hidden
    state.update({"discard": discard, "melds": melds, "turn": turn, "announcement": table.get("announcement"),
                  "reshuffles": table.get("reshuffles", 0), "seed": seed, "result": result})
    for flag in ("dealer_option", "first_round"):
        if table.get(flag):
            state[flag] = True
    if table.get("hand_number"):
        state["hand_number"] = table["hand_number"]
    if table.get("calls"):
        state["calls"] = table["calls"]
    if table.get("stock_owed"):
        state["stock_owed"] = True
    return state
