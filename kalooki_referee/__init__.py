"""The Kalooki referee: a stateless REST service that adjudicates the Kalooki family of rummy games.

The distribution installs one package, ``kalooki_referee``, holding the project's three packages:
``kalooki_referee.rules`` (the pure rules core), ``kalooki_referee.api`` (the Flask edge) and
``kalooki_referee.vectors`` (the conformance suite and its runner).  In the repository they are the
top-level folders ``rules/``, ``api/`` and ``vectors/``; this folder links to them, so the same names
import in a checkout and in an installed wheel (which holds copies, not links).
"""

__version__ = "0.2.0"  # the one place the version is written; pyproject.toml and the service read it
