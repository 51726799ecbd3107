"""A variant's parameters on the wire: the marshmallow schemas derived from the parameters' one
declaration (rules/params.py), which read a variant file's ``parameters`` block (with any house rules
merged over it) into the typed ``Rules``, refusing an unknown key or a value of the wrong type or
range with the path of the field; and a declared value written back as the wire writes it
(``wire_value``)."""
from __future__ import annotations

import functools
from collections import abc
from dataclasses import fields as dataclass_fields
from dataclasses import is_dataclass, replace
from enum import StrEnum
from types import MappingProxyType
from typing import Any, Callable, Iterator, Mapping, get_args, get_origin

from marshmallow import RAISE, Schema, ValidationError, fields, post_load, validate

from ..params import Rules, Spec, Stakes, declared

class _Int(fields.Integer):
    """An integer; JSON's 2.0 is the integer 2, a boolean is not a number."""

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> Any:
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value != int(value):
            raise self.make_error("invalid")
        return int(value)


class _Bool(fields.Boolean):
    """true or false only (no "yes", no 1)."""

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> Any:
        if not isinstance(value, bool):
            raise self.make_error("invalid")
        return value


class _Group(Schema):
    class Meta:
        unknown = RAISE

    type_: type = object

    @post_load
    def _build(self, data: dict[str, Any], **_: Any) -> Any:
        return self.type_(**data)


class _ByNumber(fields.Dict):
    """A table keyed by a number written as a string ("5": ...): read with integer keys."""

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> Any:
        # (null never gets here: marshmallow answers it by the field's allow_none)
        entries: Callable[..., dict[str, Any]] = super()._deserialize  # unannotated in marshmallow
        out = entries(value, attr, data, **kwargs)
        return MappingProxyType({int(k): v for k, v in out.items()})


class _Tuple(fields.List[Any]):
    """A list, read as a tuple."""

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> Any:
        return tuple(super()._deserialize(value, attr, data, **kwargs))


class _Presets(fields.Dict):
    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> Any:
        presets: Callable[..., dict[str, Stakes]] = super()._deserialize  # unannotated in marshmallow
        return MappingProxyType(dict(presets(value, attr, data, **kwargs)))


def wire_value(value: Any) -> Any:
    """A declared value (a default, a group) as the wire and a variant file write it."""
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: wire_value(getattr(value, f.name)) for f in dataclass_fields(value)}
    if isinstance(value, StrEnum):
        return value.value
    if isinstance(value, tuple):
        return [wire_value(v) for v in value]
    if isinstance(value, Mapping):   # a table: keyed by a number (written as a string) or by a name
        return {str(k): wire_value(v) for k, v in value.items()}
    return value


def _range(meta: Spec) -> list[validate.Validator]:
    return [validate.Range(min=meta.lo, max=meta.hi)] if meta.lo is not None or meta.hi is not None else []


def _size(meta: Spec) -> list[validate.Validator]:
    return [validate.Length(min=meta.size[0], max=meta.size[1])] if meta.size is not None else []


def _field(kind: Any, meta: Spec, **options: Any) -> fields.Field[Any]:
    """The marshmallow field of a parameter of type ``kind`` declared with ``meta``."""
    origin, args = get_origin(kind), get_args(kind)
    if kind is bool:
        return _Bool(validate=[validate.Equal(meta.const)] if meta.const is not None else [], **options)
    if kind is int:
        return _Int(validate=_range(meta), **options)
    if isinstance(kind, type) and issubclass(kind, StrEnum):
        return fields.Enum(kind, by_value=True, **options)
    if isinstance(kind, type) and is_dataclass(kind):
        return fields.Nested(schema_of(kind), **options)
    if origin is tuple:
        item: fields.Field[Any] = (_Int(validate=_range(meta)) if args[0] is int
                                   else fields.String(validate=validate.OneOf(meta.choices or ())))
        return _Tuple(item, validate=_size(meta), **options)
    if origin is abc.Mapping and args[0] is int:
        value = _field(args[1], replace(meta, const=None)) if args[1] is int else fields.Nested(schema_of(args[1]))
        return _ByNumber(keys=fields.String(validate=validate.Regexp(meta.key_pattern)), values=value,
                         validate=_size(meta), **options)
    if origin is abc.Mapping:
        lo, hi = meta.name_length
        return _Presets(keys=fields.String(validate=validate.Length(min=lo, max=hi)),
                        values=fields.Nested(schema_of(args[1])), validate=_size(meta), **options)
    raise TypeError(f"no field for a parameter of type {kind!r}")  # pragma: no cover - a declaration error


@functools.cache
def schema_of(group: type) -> type[_Group]:
    """The marshmallow schema of a group, derived from its declarations: a required parameter must be
    given; one with a default may be left out (then its default); a nullable one may be null."""
    spec: dict[str, Any] = {"type_": group}
    for p in declared(group):
        options: dict[str, Any] = {"allow_none": p.nullable}
        options.update(required=True) if p.required else options.update(required=False, load_default=p.default)
        spec[p.name] = _field(p.kind, p.meta, **options)
    return type(group.__name__ + "Schema", (_Group,), spec)


RULES_SCHEMA = schema_of(Rules)()


def load_rules(params: Mapping[str, Any]) -> tuple[Rules | None, list[tuple[tuple[str, ...], str]]]:
    """``params`` as ``Rules``, or the problems found: (path of the field, what is wrong)."""
    try:
        return RULES_SCHEMA.load(params), []
    except ValidationError as exc:
        return None, list(_walk(exc.messages, ()))


def _walk(messages: Any, path: tuple[str, ...]) -> Iterator[tuple[tuple[str, ...], str]]:
    if isinstance(messages, dict):
        for key, value in messages.items():
            if key in ("key", "value", "_schema") and path:  # a mapping's entry; a whole object
                yield from _walk(value, path)
            else:
                yield from _walk(value, path + (str(key),))
    else:
        for m in (messages if isinstance(messages, list) else [messages]):
            if isinstance(m, (dict, list)):  # pragma: no cover - marshmallow lists messages as strings; kept for safety
                yield from _walk(m, path)
            else:
                yield path, str(m)

