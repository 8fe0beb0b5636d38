"""The one error type the engines raise for input that breaks a rule."""

from __future__ import annotations

from collections.abc import Mapping


def gettext_noop(message: str) -> str:
    """Marks a message for translation without translating it (the engines know no Django).

    ``makemessages`` extracts calls by this name; the web layer translates
    ``RuleError.template`` and fills in ``RuleError.params``.
    """
    return message


class RuleError(ValueError):
    """Input that an engine refuses.

    ``field`` names what is wrong (``"scores.12"``, ``"moves[3].cell"``), ``rule`` the rule
    id from the digests when a game rule is broken (``"TB-13"``), ``None`` for plain
    malformed input. ``template`` is an English message with ``{name}`` placeholders.
    """

    def __init__(
        self, template: str, *, field: str, rule: str | None = None, params: Mapping[str, object] | None = None
    ) -> None:
        self.template = template
        self.params = dict(params or {})
        self.field = field
        self.rule = rule
        super().__init__(self.message)

    @property
    def message(self) -> str:
        return self.template.format(**self.params)
