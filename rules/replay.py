"""Replaying a recorded log: a starting position and a list of actions, adjudicated one by one.

``replay`` takes the log as the core's values (``Log``: a hand's state or a game, and the typed steps)
and gives each step's verdict in turn, up to and including the first that is not legal: an illegal
step, or (a log from a state with unseen cards) a step whose legality the seen cards do not decide.
The log's JSON, the answer and the hash chain over its positions (RFC 8785 canonical JSON) are the
wire's (rules/wire/replay.py).
"""
from __future__ import annotations

from dataclasses import dataclass

from .actions import Action
from .engine import Verdict, adjudicate
from .errors import MalformedInput, pointer
from .game import Game, GameAction, GameVerdict, adjudicate_game
from .state import State
from .variant import Variant

MAX_STEPS = 5000


@dataclass(frozen=True)
class Log:
    """A recorded log as the core's values: its starting position (a hand's state, or a game) and its
    steps (hand actions; in a game, game actions too)."""
    start: State | Game
    actions: tuple[Action | GameAction, ...]

    @property
    def kind(self) -> str:
        """``hand`` or ``game``: what the log's positions are."""
        return "game" if isinstance(self.start, Game) else "hand"


def replay(variant: Variant, log: Log, stakes_override: object = None) -> tuple[Verdict | GameVerdict, ...]:
    """Each step of ``log`` adjudicated in turn from its start, each from the position the one before
    left, up to and including the first step that is not legal (illegal, or undetermined); in a game,
    ``stakes_override`` are the house rules' stakes sent with the log (``adjudicate_game``).  A step
    naming what its position cannot resolve (an unknown meld id, say) is a ``MalformedInput`` under
    ``/actions/<its index>``."""
    position: State | Game = log.start
    verdicts: list[Verdict | GameVerdict] = []
    for i, action in enumerate(log.actions):
        verdict: Verdict | GameVerdict
        try:
            if isinstance(position, Game):
                verdict = adjudicate_game(variant, position, action, stakes_override)
            else:
                assert not isinstance(action, dict)  # a hand's log holds hand actions only (wire.replay.read_log)
                verdict = adjudicate(variant, position, action)
        except MalformedInput as exc:
            raise exc.prefixed(pointer("actions", i)) from None
        verdicts.append(verdict)
        if not verdict.legal:
            break
        position = verdict.game if isinstance(verdict, GameVerdict) else verdict.state
    return tuple(verdicts)
