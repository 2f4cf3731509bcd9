"""The base of the generated models (``models.py``) and the conversions they share."""

from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Callable, ClassVar, Dict, Mapping, Type, TypeVar

E = TypeVar("E", bound=Enum)
Convert = Callable[[Any], Any]


@dataclass
class Model:
    """A record of the API: built from its JSON by ``from_dict``, back to its JSON (camelCase names) by ``to_dict``.

    Fields a newer server sends that this version does not know are kept in ``extra_fields`` (and written back by
    ``to_dict``), so reading and resending a record never loses them. An enum value this version does not know
    stays a plain ``str``.
    """

    #: attribute name -> JSON name, for the fields this version knows.
    _wire: ClassVar[Dict[str, str]] = {}
    #: the JSON names that are required (written even when ``None``).
    _required: ClassVar[frozenset] = frozenset()

    def to_dict(self) -> Dict[str, Any]:
        out: Dict[str, Any] = {}
        for attribute, name in self._wire.items():
            value = getattr(self, attribute)
            if value is None and name not in self._required:
                continue
            out[name] = plain(value)
        out.update(getattr(self, "extra_fields", {}))
        return out


def plain(value: Any) -> Any:
    """A model, enum, list or dict as the API's JSON."""
    if isinstance(value, Model):
        return value.to_dict()
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, (list, tuple)):
        return [plain(item) for item in value]
    if isinstance(value, dict):
        return {key: plain(item) for key, item in value.items()}
    return value


def extra(data: Mapping[str, Any], wire: Mapping[str, str]) -> Dict[str, Any]:
    """The fields of ``data`` the model does not declare."""
    known = set(wire.values())
    return {key: value for key, value in data.items() if key not in known}


def model(cls: Any) -> Convert:
    return lambda value: cls.from_dict(value) if isinstance(value, Mapping) else value


def enum(cls: Type[E]) -> Convert:
    def convert(value: Any) -> Any:
        try:
            return cls(value)
        except ValueError:
            return value  # a value a newer server added: kept as it came

    return lambda value: None if value is None else convert(value)


def list_of(item: Convert) -> Convert:
    return lambda value: [item(v) for v in value] if isinstance(value, list) else value


def map_of(item: Convert) -> Convert:
    return lambda value: {k: item(v) for k, v in value.items()} if isinstance(value, Mapping) else value


def variant(data: Any, tag: str, variants: Mapping[str, Any], fallback: Any) -> Any:
    """A tagged union's JSON read as the model its ``tag`` field names; ``fallback`` for a tag this version does not
    know (a newer server's), which keeps every field all the same."""
    if not isinstance(data, Mapping):
        return data
    return variants.get(data.get(tag), fallback).from_dict(data)


def as_is(value: Any) -> Any:
    return value


__all__ = ["Model", "field", "plain", "extra", "model", "enum", "list_of", "map_of", "variant", "as_is"]
