"""The state of one hand: immutable value types, their wire form, and the check that a state can
occur at all (in the spirit of python-chess's ``Board.status()``: every problem is reported at once).

Wire conventions (see docs/wire-format.md):
* ``players`` are listed in seating order, clockwise: each player's left neighbour is the next entry
  (the last player's left neighbour is the first).
* ``stock`` and ``discard`` are listed top card first.
* hands are unordered and emitted sorted (suits S H D C, high rank first, jokers last).
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .cards import JOKER_CODE, Card, CardError, canonical, known_cards, pack, pack_counts, parse_card
from .clause_ids import PLAYERS_COUNT_TWO_TO_FIVE
from .errors import ImpossibleState, MalformedInput, Problem, pointer
from .melds import Failure, Meld, parse_token, readings
from .variant import Variant

def replace(obj: Any, **changes: Any) -> Any:
    """``dataclasses.replace`` for the engine's frozen value types, without re-running ``__init__``
    (none of them validates there): a copy of the instance's fields with ``changes`` applied."""
    new = object.__new__(type(obj))
    fields_ = new.__dict__
    fields_.update(obj.__dict__)
    fields_.update(changes)
    return new


PHASES = ("draw", "play", "ended")
SOURCES = ("stock", "discard")


@dataclass(frozen=True)
class Player:
    id: str
    hand: tuple[Card, ...]
    opened: bool = False
    score: int = 0
    barred: bool = False

    def to_dict(self) -> dict:
        return {"id": self.id, "hand": [c.code for c in canonical(self.hand)], "opened": self.opened,
                "score": self.score, "barred": self.barred}


@dataclass(frozen=True)
class TableMeld:
    id: str
    owner: str
    meld: Meld

    def to_dict(self) -> dict:
        return {"id": self.id, "owner": self.owner, "kind": self.meld.kind, "cards": self.meld.codes}


@dataclass(frozen=True)
class Turn:
    """What the current turn has done so far and what it still owes."""
    drawn: Card | None = None
    source: str | None = None
    must_open: bool = False          # took the discard before opening: must open before discarding
    opened_this_turn: bool = False   # the opening was laid in this turn (a kalookie if they go out)
    pending_jokers: int = 0          # jokers released and not yet placed
    builds: tuple[tuple[str, int, int], ...] = ()   # (run meld id, cards added low, cards added high)
    must_use: Card | None = None     # a taken discard that must still be melded this turn

    def built(self, meld_id: str) -> tuple[int, int]:
        for mid, low, high in self.builds:
            if mid == meld_id:
                return low, high
        return 0, 0

    def with_build(self, meld_id: str, end: str, count: int) -> "Turn":
        low, high = self.built(meld_id)
        low, high = (low + count, high) if end == "low" else (low, high + count)
        rest = [b for b in self.builds if b[0] != meld_id]
        return replace(self, builds=tuple(sorted(rest + [(meld_id, low, high)])))

    @property
    def is_fresh(self) -> bool:
        return self == Turn()

    def to_dict(self) -> dict:
        return {"drawn": self.drawn.code if self.drawn else None, "source": self.source,
                "must_open": self.must_open, "opened_this_turn": self.opened_this_turn,
                "pending_jokers": self.pending_jokers,
                "builds": {mid: {"low": low, "high": high} for mid, low, high in self.builds},
                # emitted only while owed, so states of variants without the rule read as before
                **({"must_use": self.must_use.code} if self.must_use else {})}


@dataclass(frozen=True)
class Announcement:
    player: str
    count: int

    def to_dict(self) -> dict:
        return {"player": self.player, "count": self.count}


@dataclass(frozen=True)
class HandResult:
    how: str                                   # call_up | kalookie | void
    winner: str | None
    penalties: tuple[tuple[str, int], ...]     # per player, seating order
    payments: tuple[tuple[str, int], ...]
    scores: tuple[tuple[str, int], ...]        # cumulative score after the hand
    credits: tuple[tuple[str, int], ...] | None = None   # points credited to the winner (winner_collects)

    def to_dict(self) -> dict:
        out = {"how": self.how, "winner": self.winner, "penalties": dict(self.penalties),
               "payments": dict(self.payments), "scores": dict(self.scores)}
        if self.credits is not None:
            out["credits"] = dict(self.credits)
        return out


@dataclass(frozen=True)
class State:
    players: tuple[Player, ...]
    dealer: str
    to_act: str
    phase: str
    stock: tuple[Card, ...]
    discard: tuple[Card, ...]
    melds: tuple[TableMeld, ...] = ()
    first_play: bool = False
    turn: Turn = field(default_factory=Turn)
    announcement: Announcement | None = None
    reshuffles: int = 0
    seed: str = ""
    result: HandResult | None = None
    dealer_option: bool = False      # the dealer may still exchange a card for the upcard (or pass)
    first_round: bool = False        # no player's first turn of the deal has ended yet for some seats

    # -- lookups -----------------------------------------------------------------------------
    def index(self, player_id: str) -> int:
        for i, p in enumerate(self.players):
            if p.id == player_id:
                return i
        raise KeyError(player_id)

    def player(self, player_id: str) -> Player:
        return self.players[self.index(player_id)]

    def left_of(self, player_id: str) -> str:
        return self.players[(self.index(player_id) + 1) % len(self.players)].id

    def meld(self, meld_id: str) -> TableMeld | None:
        for m in self.melds:
            if m.id == meld_id:
                return m
        return None

    @property
    def current(self) -> Player:
        return self.player(self.to_act)

    # -- functional updates ------------------------------------------------------------------
    def with_player(self, player_id: str, **changes: Any) -> "State":
        i = self.index(player_id)
        players = list(self.players)
        players[i] = replace(players[i], **changes)
        return replace(self, players=tuple(players))

    def with_meld(self, table_meld: TableMeld) -> "State":
        melds = [table_meld if m.id == table_meld.id else m for m in self.melds]
        if self.meld(table_meld.id) is None:
            melds.append(table_meld)
        return replace(self, melds=tuple(melds))

    def new_meld_id(self) -> str:
        taken = {m.id for m in self.melds}
        n = len(self.melds) + 1
        while f"m{n}" in taken:
            n += 1
        return f"m{n}"

    # -- wire form ---------------------------------------------------------------------------
    def to_dict(self) -> dict:
        return {
            "players": [p.to_dict() for p in self.players],
            "dealer": self.dealer,
            "to_act": self.to_act,
            "phase": self.phase,
            "first_play": self.first_play,
            "stock": [c.code for c in self.stock],
            "discard": [c.code for c in self.discard],
            "melds": [m.to_dict() for m in self.melds],
            "turn": self.turn.to_dict(),
            "announcement": self.announcement.to_dict() if self.announcement else None,
            "reshuffles": self.reshuffles,
            "seed": self.seed,
            "result": self.result.to_dict() if self.result else None,
            **({"dealer_option": True} if self.dealer_option else {}),
            **({"first_round": True} if self.first_round else {}),
        }

    def card_counts(self) -> Counter:
        """How many of each card code the state holds, wherever it lies."""
        cards = [c for p in self.players for c in p.hand]
        cards += self.stock
        cards += self.discard
        for m in self.melds:
            cards += m.meld.cards
        counts = Counter([c.code for c in cards])
        if self.turn.pending_jokers:
            counts[JOKER_CODE] += self.turn.pending_jokers
        return counts


# ------------------------------------------------------------------------------------------
# Parsing.  Shape errors raise MalformedInput (pointers relative to the state object); then
# ``check_state`` lists every reason the state is impossible.
# ------------------------------------------------------------------------------------------

STATE_KEYS = {"players", "dealer", "to_act", "phase", "first_play", "stock", "discard", "melds", "turn",
              "announcement", "reshuffles", "seed", "result", "dealer_option", "first_round"}
REQUIRED_STATE_KEYS = {"players", "dealer", "to_act", "phase", "stock", "discard"}
PLAYER_KEYS = {"id", "hand", "opened", "score", "barred"}
MELD_KEYS = {"id", "owner", "kind", "cards"}
TURN_KEYS = {"drawn", "source", "must_open", "opened_this_turn", "pending_jokers", "builds", "must_use"}


class _Reader:
    """Collects shape problems while reading a JSON-like value."""

    def __init__(self) -> None:
        self.problems: list[Problem] = []

    def bad(self, path: tuple, detail: str) -> None:
        self.problems.append(Problem(pointer(*path), detail))

    def obj(self, value: Any, path: tuple, keys: set, required: set = frozenset()) -> dict:
        if not isinstance(value, Mapping):
            self.bad(path, "expected an object")
            return {}
        if value.keys() - keys:
            for k in value:
                if k not in keys:
                    self.bad(path + (k,), f"unknown field {k!r}")
        if required - value.keys():
            for k in sorted(required - value.keys()):
                self.bad(path + (k,), "required field is missing")
        return value  # only read

    def string(self, value: Any, path: tuple, default: str | None = None) -> str:
        if value is None and default is not None:
            return default
        if not isinstance(value, str) or not value or len(value) > 64:
            self.bad(path, "expected a non-empty string of at most 64 characters")
            return default or ""
        return value

    def boolean(self, value: Any, path: tuple, default: bool = False) -> bool:
        if value is None:
            return default
        if not isinstance(value, bool):
            self.bad(path, "expected true or false")
            return default
        return value

    def integer(self, value: Any, path: tuple, default: int = 0, minimum: int = 0, maximum: int = 10**9) -> int:
        if value is None:
            return default
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value != int(value):
            self.bad(path, "expected an integer")
            return default
        value = int(value)
        if not minimum <= value <= maximum:
            self.bad(path, f"expected an integer from {minimum} to {maximum}")
            return default
        return value

    def card(self, value: Any, path: tuple) -> Card | None:
        try:
            return parse_card(value)
        except CardError as exc:
            self.bad(path, str(exc))
            return None

    def cards(self, value: Any, path: tuple, limit: int = 500) -> tuple[Card, ...]:
        if not isinstance(value, list):
            self.bad(path, "expected a list of card codes")
            return ()
        if len(value) > limit:
            self.bad(path, f"at most {limit} cards")
            return ()
        known = known_cards(value)
        if known is not None:  # the common case: every code is a plain card code
            return known
        out = []
        for i, code in enumerate(value):
            card = self.card(code, path + (i,))
            if card is not None:
                out.append(card)
        return tuple(out)


def _read_meld(r: _Reader, raw: Any, path: tuple, variant: Variant, problems: list[Problem]) -> TableMeld | None:
    data = r.obj(raw, path, MELD_KEYS, MELD_KEYS)
    if not data:
        return None
    mid = r.string(data.get("id"), path + ("id",))
    owner = r.string(data.get("owner"), path + ("owner",))
    kind = data.get("kind")
    if kind not in ("set", "run"):
        r.bad(path + ("kind",), "expected 'set' or 'run'")
        return None
    codes = data.get("cards")
    if not isinstance(codes, list) or not codes or len(codes) > 60:
        r.bad(path + ("cards",), "expected a non-empty list of at most 60 card codes")
        return None
    tokens = []
    for i, code in enumerate(codes):
        try:
            tokens.append(parse_token(code))
        except CardError as exc:
            r.bad(path + ("cards", i), str(exc))
    if len(tokens) != len(codes):
        return None
    found, failure = readings(tokens, variant, kind)
    if failure is not None:
        problems.append(Problem(pointer(*path), f"not a valid {kind}: {failure.message} ({variant.cite(failure.clause)})"))
        return None
    if len(found) != 1:
        problems.append(Problem(pointer(*path, "cards"),
                                "the meld's jokers can be read in more than one way: write each as JK(=card)"))
        return None
    return TableMeld(mid, owner, found[0])


def state_from_dict(data: Any, variant: Variant) -> State:
    """Read a state from its wire form; raise MalformedInput or ImpossibleState (pointers relative to
    the state)."""
    r = _Reader()
    impossible: list[Problem] = []
    d = r.obj(data, (), STATE_KEYS, REQUIRED_STATE_KEYS)
    raw_players = d.get("players")
    players = []
    if not isinstance(raw_players, list) or not raw_players or len(raw_players) > 12:
        if "players" in d:
            r.bad(("players",), "expected a list of 1 to 12 players")
    else:
        for i, raw in enumerate(raw_players):
            pd = r.obj(raw, ("players", i), PLAYER_KEYS, {"id", "hand"})
            if not pd:
                continue
            players.append(Player(
                id=r.string(pd.get("id"), ("players", i, "id")),
                hand=r.cards(pd.get("hand"), ("players", i, "hand")),
                opened=r.boolean(pd.get("opened"), ("players", i, "opened")),
                score=r.integer(pd.get("score"), ("players", i, "score")),
                barred=r.boolean(pd.get("barred"), ("players", i, "barred")),
            ))
    dealer = r.string(d.get("dealer"), ("dealer",)) if "dealer" in d else ""
    to_act = r.string(d.get("to_act"), ("to_act",)) if "to_act" in d else ""
    phase = d.get("phase")
    if "phase" in d and phase not in PHASES:
        r.bad(("phase",), f"expected one of {', '.join(PHASES)}")
    stock = r.cards(d.get("stock"), ("stock",)) if "stock" in d else ()
    discard = r.cards(d.get("discard"), ("discard",)) if "discard" in d else ()
    melds = []
    raw_melds = d.get("melds", [])
    if not isinstance(raw_melds, list) or len(raw_melds) > 100:
        r.bad(("melds",), "expected a list of at most 100 melds")
    else:
        for i, raw in enumerate(raw_melds):
            m = _read_meld(r, raw, ("melds", i), variant, impossible)
            if m is not None:
                melds.append(m)
    turn = _read_turn(r, d.get("turn"))
    announcement = None
    raw_ann = d.get("announcement")
    if raw_ann is not None:
        ad = r.obj(raw_ann, ("announcement",), {"player", "count"}, {"player", "count"})
        if ad:
            announcement = Announcement(r.string(ad.get("player"), ("announcement", "player")),
                                        r.integer(ad.get("count"), ("announcement", "count"), maximum=100))
    reshuffles = r.integer(d.get("reshuffles"), ("reshuffles",), maximum=10)
    seed = d.get("seed", "")
    if not isinstance(seed, str) or len(seed) > 256:
        r.bad(("seed",), "expected a string of at most 256 characters")
        seed = ""
    result = _read_result(r, d.get("result"))
    first_play = r.boolean(d.get("first_play"), ("first_play",))
    dealer_option = r.boolean(d.get("dealer_option"), ("dealer_option",))
    first_round = r.boolean(d.get("first_round"), ("first_round",))
    if r.problems:
        raise MalformedInput(r.problems)
    state = State(tuple(players), dealer, to_act, phase, stock, discard, tuple(melds), first_play, turn,
                  announcement, reshuffles, seed, result, dealer_option, first_round)
    problems = impossible + check_state(state, variant)
    if problems:
        raise ImpossibleState(problems)
    return state


def _read_turn(r: _Reader, raw: Any) -> Turn:
    if raw is None:
        return Turn()
    t = r.obj(raw, ("turn",), TURN_KEYS)
    drawn = r.card(t["drawn"], ("turn", "drawn")) if t.get("drawn") is not None else None
    source = t.get("source")
    if source is not None and source not in SOURCES:
        r.bad(("turn", "source"), "expected 'stock', 'discard' or null")
        source = None
    builds = []
    raw_builds = t.get("builds", {})
    if not isinstance(raw_builds, Mapping) or len(raw_builds) > 100:
        r.bad(("turn", "builds"), "expected an object of meld id to {low, high}")
    else:
        for mid, counts in raw_builds.items():
            c = r.obj(counts, ("turn", "builds", mid), {"low", "high"})
            builds.append((mid, r.integer(c.get("low"), ("turn", "builds", mid, "low"), maximum=20),
                           r.integer(c.get("high"), ("turn", "builds", mid, "high"), maximum=20)))
    must_use = r.card(t["must_use"], ("turn", "must_use")) if t.get("must_use") is not None else None
    return Turn(drawn, source, r.boolean(t.get("must_open"), ("turn", "must_open")),
                r.boolean(t.get("opened_this_turn"), ("turn", "opened_this_turn")),
                r.integer(t.get("pending_jokers"), ("turn", "pending_jokers"), maximum=12),
                tuple(sorted(builds)), must_use)


def _read_result(r: _Reader, raw: Any) -> HandResult | None:
    if raw is None:
        return None
    d = r.obj(raw, ("result",), {"how", "winner", "penalties", "payments", "scores", "credits"},
              {"how", "winner", "penalties", "payments", "scores"})
    if not d:
        return None
    how = d.get("how")
    if how not in ("call_up", "kalookie", "void"):
        r.bad(("result", "how"), "expected call_up, kalookie or void")
    winner = d.get("winner")
    if winner is not None and not isinstance(winner, str):
        r.bad(("result", "winner"), "expected a player id or null")
    tables = []
    for key in ("penalties", "payments", "scores", "credits"):
        table = d.get(key)
        if key == "credits" and table is None:
            tables.append(None)
            continue
        if not isinstance(table, Mapping) or len(table) > 12:
            r.bad(("result", key), "expected an object of player id to integer")
            tables.append(())
            continue
        tables.append(tuple((k, r.integer(v, ("result", key, k), minimum=-10**9)) for k, v in table.items()))
    return HandResult(how if isinstance(how, str) else "", winner, *tables)


def check_state(state: State, variant: Variant) -> list[Problem]:
    """Every reason ``state`` cannot occur under ``variant`` (empty when it can)."""
    problems: list[Problem] = []

    def bad(detail: str, *path: object) -> None:
        problems.append(Problem(pointer(*path), detail))

    ids = [p.id for p in state.players]
    lo, hi = variant.rules.players.min, variant.rules.players.max
    if not lo <= len(ids) <= hi:
        bad(f"{len(ids)} players; this variant is for {lo} to {hi} ({variant.cite(PLAYERS_COUNT_TWO_TO_FIVE)})", "players")
    seen = set()
    for i, pid in enumerate(ids):
        if pid in seen:
            bad(f"player id {pid!r} is used twice", "players", i, "id")
        seen.add(pid)
    if state.dealer not in seen:
        bad(f"dealer {state.dealer!r} is not a player", "dealer")
    if state.to_act not in seen:
        bad(f"to_act {state.to_act!r} is not a player", "to_act")

    # Conservation of cards.
    expected = pack(variant.rules.pack.decks, variant.rules.pack.jokers)
    counts = state.card_counts()
    same = dict.__eq__(counts, pack_counts(variant.rules.pack.decks, variant.rules.pack.jokers))
    for code in ([] if same else sorted(set(expected) | set(counts), key=lambda c: (c == JOKER_CODE, c))):
        have, want = counts.get(code, 0), expected.get(code, 0)
        if have < want:
            bad(f"card {code} is missing: the pack has {want}, the state holds {have}")
        elif have > want:
            places = _places(state, code)
            where = f"found in {', '.join(places)}" if places else "found among the melds or released jokers"
            extra = "is not in this variant's pack" if want == 0 else f"appears {have} times but the pack has {want}"
            for place in places or [""]:
                problems.append(Problem(place, f"card {code} {extra} ({where})"))

    # Melds on the table.
    meld_ids = set()
    for i, m in enumerate(state.melds):
        if m.id in meld_ids:
            bad(f"meld id {m.id!r} is used twice", "melds", i, "id")
        meld_ids.add(m.id)
        if m.owner not in seen:
            bad(f"owner {m.owner!r} is not a player", "melds", i, "owner")
        elif not state.player(m.owner).opened:
            bad(f"{m.owner} has a meld on the table but is not marked as opened", "melds", i, "owner")

    # Phase and turn record.
    t = state.turn
    if state.phase == "draw" and not t.is_fresh:
        bad("in the draw phase the turn record must be empty (nothing drawn or laid yet)", "turn")
    if state.phase == "play":
        if t.drawn is None or t.source is None:
            bad("in the play phase the turn record names the card drawn and its source", "turn")
        if t.must_open and t.source != "discard":
            bad("must_open is only owed after taking the discard", "turn", "must_open")
        if t.must_use is not None and t.source != "discard":
            bad("must_use is only owed after taking the discard", "turn", "must_use")
        if t.opened_this_turn and state.to_act in seen and not state.current.opened:
            bad("opened_this_turn is set but the player to act has not opened", "turn", "opened_this_turn")
    for mid, low, high in t.builds:
        m = state.meld(mid)
        if m is None or m.meld.kind != "run":
            bad(f"builds names {mid!r}, which is not a run on the table", "turn", "builds", mid)
    if state.phase == "ended":
        if state.result is None:
            bad("an ended hand carries its result", "result")
    elif state.result is not None:
        bad("only an ended hand carries a result", "result")
    if state.phase in ("draw", "play"):
        for i, p in enumerate(state.players):
            if not p.hand:
                bad(f"{p.id} has no cards but the hand has not ended", "players", i, "hand")
        if state.phase == "draw" and not state.stock:
            bad("the stock is empty at the start of a turn: it should have been reshuffled or the hand voided", "stock")
    if state.discard == () and state.phase == "draw" and state.first_play and variant.rules.deal.upcard:
        bad("the first play of a deal starts with the upcard on the discard pile", "discard")
    if state.first_round and not variant.rules.draw.free_discard_first_round:
        bad("this variant gives no free discard in the first round", "first_round")
    if state.dealer_option:
        if not variant.rules.draw.dealer_upcard_option:
            bad("this variant gives the dealer no upcard option", "dealer_option")
        elif not state.first_play or state.phase == "ended" or state.to_act != state.dealer:
            bad("the dealer's upcard option is open only before the first play, with the dealer to act", "dealer_option")
    elif state.first_play and state.phase != "ended":
        if state.dealer in seen and state.to_act in seen and state.to_act != state.left_of(state.dealer):
            bad("on the first play the player on the dealer's left is to act", "to_act")
        if state.phase == "draw" and state.melds:
            bad("no melds can be on the table before the first play", "melds")
    if state.first_play and state.phase == "draw":
        # nothing has been drawn or laid yet: every hand holds what the deal gave it (a cutter who
        # kept the joker shown on the cut was dealt one card fewer)
        dealt = variant.cards_for(len(state.players))
        for i, p in enumerate(state.players):
            if len(p.hand) != dealt:
                bad(f"before the first play every player holds the {dealt} cards dealt; {p.id} holds {len(p.hand)}",
                    "players", i, "hand")
    if state.announcement is not None:
        a = state.announcement
        if a.player not in seen:
            bad(f"{a.player!r} is not a player", "announcement", "player")
        elif state.phase != "draw" or a.player == state.to_act:
            bad("an announcement is owed only between a player's discard and the next player's draw", "announcement")
        elif len(state.player(a.player).hand) != a.count:
            bad(f"{a.player} holds {len(state.player(a.player).hand)} cards, not {a.count}", "announcement", "count")
    max_re = variant.rules.stock.reshuffles
    if state.reshuffles > max_re:
        bad(f"{state.reshuffles} reshuffles; this variant allows {max_re}", "reshuffles")
    return problems


def _places(state: State, code: str) -> list[str]:
    """Every place holding ``code``: a hand (unordered), or the exact position in the stock, the
    discard pile or a meld."""
    places = []
    for i, p in enumerate(state.players):
        if any(c.code == code for c in p.hand):
            places.append(pointer("players", i, "hand"))
    places += [pointer("stock", j) for j, c in enumerate(state.stock) if c.code == code]
    places += [pointer("discard", j) for j, c in enumerate(state.discard) if c.code == code]
    for i, m in enumerate(state.melds):
        places += [pointer("melds", i, "cards", j) for j, c in enumerate(m.meld.cards) if c.code == code]
    if code == JOKER_CODE and state.turn.pending_jokers:
        places.append("/turn/pending_jokers")
    return places
