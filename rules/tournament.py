"""A tournament of tables: qualifying tables fed by buy-ins, semi-finals and a final (Blackpool).

Stateless like the rest: a request sends the whole tournament and one event, and the answer is the
tournament after it.  The numbers come from the variant's ``tournament`` parameters (seats at a
table, the most qualifying tables, the semi-final tables and how many go through from each); the
fewest players a short table may start with is the variant's ``players.min``.

* ``buy_in`` (a player over the limit at a qualifying table buys in): the player leaves the table
  and joins the pool; as soon as the pool holds a table's worth of players and fewer qualifying tables
  exist than allowed, they form a new table, in the order they bought in.  Once the most qualifying
  tables exist, a buy-in is refused.
* ``table_won`` (a table reports its winners: one for a qualifying table or the final, the number
  that go through for a semi-final).  When every qualifying table has its winner, players still
  waiting in the pool play a last short table if there are enough of them, a lone one is out; then
  the qualifying winners are dealt in turn to the semi-final tables (a semi-final with no more
  players than go through from it is not played), or meet straight in the final when they are no more
  than the final's seats.  The semi-finals' winners play the final; its winner wins the tournament.

The referee's rulings behind these choices are the decisions of the variant file that gives the tournament block.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from . import events as ev
from .clause_ids import BUYIN_BLACKPOOL_MOVES_TO_NEW_TABLE, TOURNAMENT_BLACKPOOL_SEMIS_AND_FINAL
from .engine import Illegal, Violation
from .errors import ImpossibleState, MalformedInput, Problem, pointer
from .params import TournamentRules
from .variant import Variant

ROUNDS = ("qualifying", "semi_final", "final")
ROUND_OF_STAGE = {"qualifying": "qualifying", "semi_finals": "semi_final", "final": "final"}
FINAL_ID = "F"


# -- values -------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Table:
    id: str
    round: str                      # qualifying | semi_final | final
    seats: tuple[str, ...]          # who sat down, in seat order
    left: tuple[str, ...] = ()      # who bought in and went to the pool (qualifying tables)
    winners: tuple[str, ...] = ()   # empty while the table plays

    @property
    def playing(self) -> bool:
        return not self.winners


@dataclass(frozen=True)
class Tournament:
    stage: str                      # qualifying | semi_finals | final | finished
    tables: tuple[Table, ...]       # every table formed, in order: qualifying, semi-finals, final
    pool: tuple[str, ...] = ()      # bought-in players waiting for a new table, in the order they bought in
    winner: str | None = None

    def table(self, table_id: str) -> Table | None:
        return next((t for t in self.tables if t.id == table_id), None)

    def of_round(self, round_: str) -> list[Table]:
        return [t for t in self.tables if t.round == round_]

    def with_table(self, table: Table) -> "Tournament":
        return replace(self, tables=tuple(table if t.id == table.id else t for t in self.tables))


@dataclass(frozen=True)
class TournamentEvent:
    """An event sent with a tournament: ``buy_in`` (``table``, ``player``) or ``table_won``
    (``table``, ``winners``)."""
    type: str
    table: str
    player: str | None = None
    winners: tuple[str, ...] = ()


# what an accepted event did (the answer's events)

@dataclass(frozen=True, slots=True)
class JoinedPool(ev.Event):
    type = "joined_pool"
    player: str
    table: str
    clause: str


@dataclass(frozen=True, slots=True)
class TableFormed(ev.Event):
    type = "table_formed"
    table: str
    round: str
    seats: tuple[str, ...]
    clause: str


@dataclass(frozen=True, slots=True)
class TableWon(ev.Event):
    type = "table_won"
    table: str
    winners: tuple[str, ...]
    played: bool


@dataclass(frozen=True, slots=True)
class PoolLapsed(ev.Event):
    type = "pool_lapsed"
    players: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class TournamentWon(ev.Event):
    type = "tournament_won"
    player: str


@dataclass(frozen=True)
class TournamentVerdict:
    legal: bool
    violations: tuple[Violation, ...]
    tournament: Tournament
    events: tuple[ev.Event, ...]


def tournament_rules(variant: Variant) -> TournamentRules:
    """The variant's tournament parameters; a variant without a tournament format is refused."""
    rules = variant.rules.tournament
    if rules is None:
        raise MalformedInput(Problem("/variant", f"{variant.id} has no tournament format (its tournament "
                                                 "parameters are null)"))
    return rules


# -- checking what was sent -----------------------------------------------------------------------

def _twice(ids: tuple[str, ...], at: tuple[str | int, ...], problems: list[Problem]) -> None:
    """A player named twice in one list is a problem."""
    if len(set(ids)) != len(ids):
        problems.append(Problem(pointer(*at), "a player is named twice"))


def expected_table_ids(tables: list[tuple[str, int]]) -> list[str]:
    """The id each table must have, given (round, position) in order: qualifying tables T1, T2...,
    semi-finals S1, S2..., the final F."""
    out, counts = [], {"qualifying": 0, "semi_final": 0}
    for round_, _ in tables:
        if round_ == "final":
            out.append(FINAL_ID)
            continue
        counts[round_] = counts.get(round_, 0) + 1
        out.append(("T" if round_ == "qualifying" else "S") + str(counts[round_]))
    return out


def checked_tournament(tournament: Tournament, variant: Variant) -> Tournament:
    """``tournament`` as sent (the edge read its shape: api/requests.py), checked: a player named twice
    in a list, or tables out of their order and names, is a ``MalformedInput``; a tournament that
    cannot occur under the variant's tournament rules an ``ImpossibleState``; every problem at once."""
    rules = tournament_rules(variant)
    problems: list[Problem] = []
    for i, table in enumerate(tournament.tables):
        for field in ("seats", "left", "winners"):
            _twice(getattr(table, field), ("tables", i, field), problems)
    _twice(tournament.pool, ("pool",), problems)
    order = [t.round for t in tournament.tables]
    if order != sorted(order, key=ROUNDS.index):
        problems.append(Problem("/tables", "tables are listed qualifying first, then the semi-finals, then the final"))
    wanted = expected_table_ids([(t.round, i) for i, t in enumerate(tournament.tables)])
    for i, (t, want) in enumerate(zip(tournament.tables, wanted)):
        if t.id != want:
            problems.append(Problem(pointer("tables", i, "id"), f"expected {want!r}: tables are named in order, "
                                                                "T1, T2... qualifying, S1, S2... semi-finals, F the final"))
    if problems:
        raise MalformedInput(problems)
    problems = check_tournament(tournament, variant, rules)
    if problems:
        raise ImpossibleState(problems)
    return tournament


def check_tournament(t: Tournament, variant: Variant, rules: TournamentRules) -> list[Problem]:
    """Whether ``t`` can occur under the rules: every way it cannot, as problems (its tables and pool,
    then its stage: qualifying, semi-finals, final)."""
    qualifying = t.of_round("qualifying")
    problems = _table_problems(t, variant.rules.players.min, rules)
    if t.stage != "finished" and t.winner is not None:
        problems.append(Problem("/winner", "only a finished tournament has a winner"))
    done = all(not q.playing for q in qualifying)
    if t.stage == "qualifying":
        if t.of_round("semi_final") or t.of_round("final") or done:
            problems.append(Problem("/stage", "the qualifying stage lasts while a qualifying table plays, and has no "
                                              "semi-final or final"))
        return problems
    if not done or t.pool:
        problems.append(Problem("/stage", "the qualifying tables are not all over"))
    return problems + _stage_problems(t, rules)


def _table_problems(t: Tournament, fewest: int, rules: TournamentRules) -> list[Problem]:
    """The tables' seats, leavers and winners, and the pool of players waiting for a new table."""
    problems: list[Problem] = []
    qualifying = t.of_round("qualifying")
    if not qualifying:
        problems.append(Problem("/tables", "a tournament starts with its qualifying tables"))
    if len(qualifying) > rules.tables_max:
        problems.append(Problem("/tables", f"{len(qualifying)} qualifying tables; at most {rules.tables_max} "
                                           f"may be formed ({BUYIN_BLACKPOOL_MOVES_TO_NEW_TABLE})"))
    live: dict[str, str] = {}
    for i, table in enumerate(t.tables):
        problems += _one_table_problems(table, ("tables", i), fewest, rules, live)
    for j, pid in enumerate(t.pool):
        if pid in live:
            problems.append(Problem(pointer("pool", j), f"{pid} is waiting in the pool and playing at {live[pid]}"))
        if not any(pid in table.left for table in qualifying):
            problems.append(Problem(pointer("pool", j), f"{pid} has not bought in from a qualifying table"))
    if len(t.pool) >= rules.table_seats or (t.pool and len(qualifying) >= rules.tables_max):
        problems.append(Problem("/pool", f"a pool of {rules.table_seats} forms a new table at once, and none waits "
                                         f"once {rules.tables_max} tables exist ({BUYIN_BLACKPOOL_MOVES_TO_NEW_TABLE})"))
    return problems


def _one_table_problems(table: Table, at: tuple[str, int], fewest: int, rules: TournamentRules,
                        live: dict[str, str]) -> list[Problem]:
    """One table's problems; its players still playing are noted in ``live`` (by the table's id)."""
    problems: list[Problem] = []
    if table.round == "qualifying" and not fewest <= len(table.seats) <= rules.table_seats:
        problems.append(Problem(pointer(*at, "seats"), f"a qualifying table seats {fewest} to {rules.table_seats}"))
    if set(table.left) - set(table.seats):
        problems.append(Problem(pointer(*at, "left"), "only a player seated at the table can leave it"))
    if table.left and table.round != "qualifying":
        problems.append(Problem(pointer(*at, "left"), "buy-ins are only at the qualifying tables "
                                                      f"({BUYIN_BLACKPOOL_MOVES_TO_NEW_TABLE})"))
    if table.winners:
        want = advancing(table, rules)
        if len(table.winners) != want:
            problems.append(Problem(pointer(*at, "winners"), f"this table has {want} winner(s), not "
                                                             f"{len(table.winners)} ({TOURNAMENT_BLACKPOOL_SEMIS_AND_FINAL})"))
        if set(table.winners) - (set(table.seats) - set(table.left)):
            problems.append(Problem(pointer(*at, "winners"), "a winner is a player still at the table"))
        return problems
    for pid in table.seats:
        if pid not in table.left:
            if pid in live:
                problems.append(Problem(pointer(*at, "seats"), f"{pid} is playing at {live[pid]} too"))
            live[pid] = table.id
    return problems


def _stage_problems(t: Tournament, rules: TournamentRules) -> list[Problem]:
    """Past the qualifying stage: the semi-finals seated from the qualifying winners, the final from
    theirs, and the stage and winner that follow from which tables still play."""
    problems: list[Problem] = []
    qualifying, semis, finals = t.of_round("qualifying"), t.of_round("semi_final"), t.of_round("final")
    seeded = _seeding([q.winners[0] for q in qualifying if q.winners], rules)
    if seeded is not None and [table.seats for table in semis] != seeded:
        problems.append(Problem("/tables", "the semi-final tables seat the qualifying winners, dealt to them in turn "
                                           f"in the order of their tables ({TOURNAMENT_BLACKPOOL_SEMIS_AND_FINAL})"))
    if seeded is None and semis:
        problems.append(Problem("/tables", "too few qualifying winners for semi-finals: they meet in the final "
                                           f"({TOURNAMENT_BLACKPOOL_SEMIS_AND_FINAL})"))
    if t.stage == "semi_finals":
        if finals or not semis or not any(s.playing for s in semis):
            problems.append(Problem("/stage", "the semi-final stage has a semi-final still playing and no final yet"))
        return problems
    if any(s.playing for s in semis):
        problems.append(Problem("/stage", "the final starts when every semi-final has its winners"))
    expected = _final_seats(t, rules)
    if len(expected) == 1:  # a lone qualifying winner: no final is played
        if finals or t.stage == "final":
            problems.append(Problem("/stage", "a single qualifying winner wins the tournament without a final"))
    elif len(finals) != 1 or finals[0].seats != expected:
        seated = (f"the final seats {', '.join(expected)}, the winners before it" if expected
                  else "the final seats the winners before it, and no table before it has a winner yet")
        problems.append(Problem("/tables", f"{seated} ({TOURNAMENT_BLACKPOOL_SEMIS_AND_FINAL})"))
    elif (t.stage == "final") != finals[0].playing:
        problems.append(Problem("/stage", "the tournament is finished exactly when its final has a winner"))
    if t.stage == "finished":
        last = finals[0].winners if finals else expected
        if t.winner is None or (t.winner,) != tuple(last):
            problems.append(Problem("/winner", "a finished tournament names the winner of its last table"))
    return problems


def advancing(table: Table, rules: TournamentRules) -> int:
    """How many winners ``table`` has: the number that go through from a semi-final (all its players
    where it seats no more), else one."""
    return min(rules.advance_per_semi_final, len(table.seats)) if table.round == "semi_final" else 1


def _seeding(winners: list[str], rules: TournamentRules) -> list[tuple[str, ...]] | None:
    """The semi-final tables' seats: the qualifying winners dealt to them in turn; None when the
    winners are too few for semi-finals (no more than the final's seats)."""
    if len(winners) <= rules.semi_finals * rules.advance_per_semi_final:
        return None
    return [tuple(winners[k::rules.semi_finals]) for k in range(rules.semi_finals)]


def _final_seats(t: Tournament, rules: TournamentRules) -> tuple[str, ...]:
    semis = t.of_round("semi_final")
    if semis:
        return tuple(pid for s in semis for pid in s.winners)
    return tuple(q.winners[0] for q in t.of_round("qualifying") if q.winners)


# -- events -------------------------------------------------------------------------------------

def checked_event(event: TournamentEvent) -> TournamentEvent:
    """``event`` as sent, checked: winners named twice are a ``MalformedInput``."""
    problems: list[Problem] = []
    _twice(event.winners, ("winners",), problems)
    if problems:
        raise MalformedInput(problems)
    return event


def adjudicate_tournament(variant: Variant, tournament: Tournament, event: TournamentEvent) -> TournamentVerdict:
    """The tournament after ``event``, or the unchanged tournament with the rule the event breaks.
    An event naming a table or a player the tournament does not have is a ``MalformedInput``."""
    rules = tournament_rules(variant)
    events: list[ev.Event] = []
    try:
        if event.type == "buy_in":
            new = _buy_in(variant, rules, tournament, event, events)
        else:
            new = _table_won(variant, rules, tournament, event, events)
    except Illegal as exc:
        return TournamentVerdict(False, (exc.violation.cited_by(variant),), tournament, ())
    return TournamentVerdict(True, (), new, tuple(events))


def _table_of(t: Tournament, event: TournamentEvent) -> Table:
    table = t.table(event.table)
    if table is None:
        raise MalformedInput(Problem("/table", f"no table {event.table!r} in the tournament"))
    return table


def _buy_in(variant: Variant, rules: TournamentRules, t: Tournament, event: TournamentEvent,
            events: list[ev.Event]) -> Tournament:
    table = _table_of(t, event)
    player = event.player or ""
    if player not in table.seats:
        raise MalformedInput(Problem("/player", f"{player!r} is not seated at {table.id}"))
    if player in table.left:
        raise Illegal(BUYIN_BLACKPOOL_MOVES_TO_NEW_TABLE, f"{player} has already bought in and left {table.id}")
    if table.round != "qualifying":
        raise Illegal(BUYIN_BLACKPOOL_MOVES_TO_NEW_TABLE, f"{table.id} is a {table.round.replace('_', '-')} table: "
                                                          "buying in is only at the qualifying tables")
    if t.stage != "qualifying":
        reached = "is over" if t.stage == "finished" else f"has reached its {t.stage.replace('_', '-')}"
        raise Illegal(BUYIN_BLACKPOOL_MOVES_TO_NEW_TABLE, f"the tournament {reached}: "
                                                          "buying in is only while the qualifying tables are played")
    if not table.playing:
        raise Illegal(BUYIN_BLACKPOOL_MOVES_TO_NEW_TABLE, f"{table.id} is over: {table.winners[0]} has won it")
    qualifying = len(t.of_round("qualifying"))
    if qualifying >= rules.tables_max:
        raise Illegal(BUYIN_BLACKPOOL_MOVES_TO_NEW_TABLE,
                      f"{qualifying} tables have been formed, the most allowed: buying in has stopped, so {player} is out")
    t = t.with_table(replace(table, left=table.left + (player,)))
    t = replace(t, pool=t.pool + (player,))
    events.append(JoinedPool(player, table.id, BUYIN_BLACKPOOL_MOVES_TO_NEW_TABLE))
    if len(t.pool) >= rules.table_seats:
        t = _new_table(t, events)
    return t


def _new_table(t: Tournament, events: list[ev.Event]) -> Tournament:
    """A qualifying table formed of the players waiting in the pool."""
    table = Table(f"T{len(t.of_round('qualifying')) + 1}", "qualifying", t.pool)
    events.append(TableFormed(table.id, table.round, table.seats, BUYIN_BLACKPOOL_MOVES_TO_NEW_TABLE))
    qualifying = t.of_round("qualifying")
    rest = t.tables[len(qualifying):]
    return replace(t, tables=tuple(qualifying) + (table,) + rest, pool=())


def _table_won(variant: Variant, rules: TournamentRules, t: Tournament, event: TournamentEvent,
               events: list[ev.Event]) -> Tournament:
    table = _table_of(t, event)
    if t.stage == "finished":
        raise Illegal(TOURNAMENT_BLACKPOOL_SEMIS_AND_FINAL, f"the tournament is over: {t.winner} has won it")
    if not table.playing:
        raise Illegal(TOURNAMENT_BLACKPOOL_SEMIS_AND_FINAL, f"{table.id} has already reported its winners")
    for i, pid in enumerate(event.winners):
        if pid not in table.seats:
            raise MalformedInput(Problem(pointer("winners", i), f"{pid!r} is not seated at {table.id}"))
        if pid in table.left:
            raise Illegal(BUYIN_BLACKPOOL_MOVES_TO_NEW_TABLE,
                          f"{pid} bought in and left {table.id} for a new table, so cannot win it")
    want = advancing(table, rules)
    if len(event.winners) != want:
        what = (f"{want} players go through from each semi-final" if table.round == "semi_final"
                else f"a {table.round.replace('_', ' ')} table has one winner")
        raise Illegal(TOURNAMENT_BLACKPOOL_SEMIS_AND_FINAL, f"{len(event.winners)} winners reported for {table.id}: {what}")
    t = t.with_table(replace(table, winners=event.winners))
    events.append(TableWon(table.id, event.winners, True))
    return _advance(variant, rules, t, events)


def _advance(variant: Variant, rules: TournamentRules, t: Tournament, events: list[ev.Event]) -> Tournament:
    """The next stage, once every table of this one has its winners."""
    current = t.of_round(ROUND_OF_STAGE[t.stage])
    if any(table.playing for table in current):
        return t
    if t.stage == "qualifying":
        if len(t.pool) >= variant.rules.players.min:  # the last, short table of those still waiting
            return _new_table(t, events)
        if t.pool:
            events.append(PoolLapsed(t.pool))
            t = replace(t, pool=())
        seeded = _seeding([q.winners[0] for q in current], rules)
        if seeded is not None:
            semis = []
            for k, seats in enumerate(seeded, 1):
                table = Table(f"S{k}", "semi_final", seats)
                events.append(TableFormed(table.id, table.round, seats, TOURNAMENT_BLACKPOOL_SEMIS_AND_FINAL))
                if len(seats) <= rules.advance_per_semi_final:  # everyone goes through: not played
                    table = replace(table, winners=seats)
                    events.append(TableWon(table.id, seats, False))
                semis.append(table)
            return replace(t, stage="semi_finals", tables=t.tables + tuple(semis))
    if t.stage in ("qualifying", "semi_finals"):
        seats = _final_seats(t, rules)
        if len(seats) == 1:
            return _finished(t, seats[0], events)
        final = Table(FINAL_ID, "final", seats)
        events.append(TableFormed(final.id, final.round, seats, TOURNAMENT_BLACKPOOL_SEMIS_AND_FINAL))
        return replace(t, stage="final", tables=t.tables + (final,))
    return _finished(t, current[0].winners[0], events)


def _finished(t: Tournament, winner: str, events: list[ev.Event]) -> Tournament:
    events.append(TournamentWon(winner))
    return replace(t, stage="finished", winner=winner)
