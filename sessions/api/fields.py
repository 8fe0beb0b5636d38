"""Body fields that take the JSON type the schema names and nothing else.

DRF's fields coerce: ``CharField`` turns ``0`` into ``"0"``, ``IntegerField`` reads ``"7"``
and ``7.0``, ``BooleanField`` reads ``0``, ``"yes"`` and ``"true"``. For a form that is a
kindness; for a JSON API it means accepting what its own schema refuses (the contract run's
``negative_data_rejection`` check, issue 42). The request bodies use these instead; query
parameters, which are all text, keep DRF's.
"""

from __future__ import annotations

from typing import Any

from rest_framework import serializers


class Text(serializers.CharField):
    """A JSON string (``"Not a valid string."`` for a number, a list, a boolean ...)."""

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


class Whole(serializers.IntegerField):
    """A JSON integer: not a string of digits, not 7.0, not a boolean."""

    def to_internal_value(self, data: Any) -> int:
        if isinstance(data, bool) or not isinstance(data, int):
            self.fail("invalid")
        value: int = super().to_internal_value(data)
        return value


class Flag(serializers.BooleanField):
    """A JSON boolean: ``true`` or ``false``, not 0, 1 or ``"yes"``."""

    def to_internal_value(self, data: Any) -> bool:
        if not isinstance(data, bool):
            self.fail("invalid")
        return data
