"""The wire: JSON <-> the rules core's typed values, both ways, for every endpoint (openapi.yaml's
components; docs/wire-format.md).  The contract's check (``contract``: a value against its openapi.yaml
component, every problem with its JSON pointer) is here: the edge (api/wire.py) checks a request body
with it, then has it read here into values, once, by readers that trust the shape; the library's
readers (``state_from_dict``, ``action_from_dict``, ...) check the value they are given first.  The
core checks that the position is possible and rules on it; its typed answer is written here.  The core's other modules take and return typed values.

Gathered module by module (issue "The wire once"): a hand's values (``actions``, ``state`` with
the position's reading, ``deal``'s reported cut, ``legal``'s listing, ``verdicts`` with their
violations, events and open settlements), a clause as a verdict cites it (``clauses``), games
(``game``), score sheets (``scoresheet``), replayed logs with their hash chain (``replay``:
``canonical``, the RFC 8785 writer of every hashed document), tournaments, the commitment to what a
seat's view hides, the position notation (``notation``: a position as one line of text, both ways),
and variants: variant files, rulings and house rules read into a ``Variant`` (``variant``) with the
parameters' schemas (``params``).  No module of the core outside the wire holds a JSON-shaped value
(tests/project/test_types.py).
"""
