"""The rules core of the Kalooki referee: pure Python, no web imports.

``adjudicate(variant, state, action) -> Verdict`` is the one entry point (``Table`` plays a hand
on it move by move, ``legal_actions`` lists the legal moves, ``parse_move`` / ``move_text`` read and
write a move as text); the value types are in
``cards``, ``melds``, ``state`` and ``actions``; variants are YAML data read by ``wire.variant`` into ``variant.Variant``; JSON
becomes values and values become JSON in ``wire`` (``state_from_dict``, ``verdict_wire``, ...).
"""
from .actions import Action
from .deal import deal
from .engine import Verdict, Violation, adjudicate, is_legal
from .legal import Listing, legal_actions
from .errors import ImpossibleState, InvalidRules, MalformedInput, Problem, RefereeInputError, UnknownVariant
from .state import State
from .table import IllegalMove, Table
from .variant import Variant
from .wire.actions import action_from_dict, action_wire
from .wire.moves import move_text, parse_move
from .wire.notation import NotationError
from .wire.state import state_from_dict, state_wire
from .wire.variant import all_variants, load_variant, variant_ids
from .wire.verdicts import verdict_wire, violation_wire

__all__ = [
    "Action", "action_from_dict", "deal", "Verdict", "Violation", "adjudicate", "is_legal",
    "ImpossibleState", "InvalidRules", "MalformedInput", "Problem", "RefereeInputError", "UnknownVariant",
    "State", "state_from_dict", "Variant", "all_variants", "load_variant", "variant_ids",
    "action_wire", "state_wire", "verdict_wire", "violation_wire",
    "Table", "IllegalMove", "legal_actions", "Listing", "parse_move", "move_text", "NotationError",
]
