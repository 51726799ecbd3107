"""The contract's validators as the web layer reads them: openapi.yaml is the rules core's (its
check lives in rules/wire/contract.py, which the library's readers share), and the edge's decoder
(api/wire.py), the warm-up and ``GET /openapi.yaml`` use it from there."""
from __future__ import annotations

from kalooki_referee.rules.wire.contract import (MAX_PROBLEMS, OPENAPI_PATH, YAML_LOADER, compiled_count, is_valid,
                                                 longest_string, openapi_document, openapi_text, refuse_overlong,
                                                 validate, widest_object)

__all__ = ["MAX_PROBLEMS", "OPENAPI_PATH", "YAML_LOADER", "compiled_count", "is_valid", "longest_string",
           "openapi_document", "openapi_text", "refuse_overlong", "validate", "widest_object"]
