"""The play log's filters, read from the page's address (so that a filtered log can be shared
or bookmarked) and written back into its links: game, player, night, from, to, winner.

A value the group does not have (a game we do not know, a player of another group, a date
"2026-13-01") is refused naming its field, never read as no filter.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

from django import forms
from django.db.models import QuerySet
from django.http import QueryDict
from django.utils.formats import date_format
from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext_lazy as _

from sessions.games import GAMES, game_name
from sessions.models import GameNight, Group, Player

OTHER_GAMES = "other"  # the game filter's value for the plays of games this app does not track
ISO_DATE = "%Y-%m-%d"  # what <input type="date"> sends, whatever the reader's language
NIGHTS_OFFERED = 30  # the night select's newest nights; an older one is a play's night link away


@dataclass(frozen=True)
class Filters:
    game: str = ""  # a game's slug, OTHER_GAMES, or "" for every game
    player: Player | None = None
    night: GameNight | None = None
    since: date | None = None
    until: date | None = None
    winner: Player | None = None

    def address(self) -> dict[str, str]:
        """The query string's parameters of the filters set, in the form the page reads."""
        values = {
            "game": self.game,
            "player": str(self.player.pk) if self.player else "",
            "night": str(self.night.pk) if self.night else "",
            "from": self.since.isoformat() if self.since else "",
            "to": self.until.isoformat() if self.until else "",
            "winner": str(self.winner.pk) if self.winner else "",
        }
        return {name: value for name, value in values.items() if value}

    @property
    def any(self) -> bool:
        return bool(self.address())

    @property
    def tracked_only(self) -> bool:
        """Only the sessions played here can match: a game of ours, or a night (the imported
        plays of other games have no night)."""
        return self.game in GAMES or self.night is not None

    @property
    def others_only(self) -> bool:
        return self.game == OTHER_GAMES


class GroupRowField(forms.ModelChoiceField):
    """A player or night of the group, by id: anything else (another group's, a word, a number
    too long for the database) is one refusal, naming the field."""

    def to_python(self, value: Any) -> Any:
        text = str(value or "").strip()
        if text and not (text.isascii() and text.isdigit() and len(text) <= 12):
            raise forms.ValidationError(self.error_messages["invalid_choice"], code="invalid_choice")
        return super().to_python(text)


class FilterForm(forms.Form):
    """The filters as sent in the address; ``filters()`` once valid."""

    def __init__(self, data: QueryDict, *, group: Group) -> None:
        super().__init__(data)
        self.fields["game"] = forms.ChoiceField(
            label=_("Game"),
            required=False,
            choices=[("", _("Every game")), *game_choices()],
            error_messages={"invalid_choice": _("There is no game “%(value)s” in the log.")},
        )
        unknown_player = _("This group has no such player.")
        self.fields["player"] = GroupRowField(
            Player.objects.filter(group=group),
            label=_("Player"),
            required=False,
            error_messages={"invalid_choice": unknown_player},
        )
        self.fields["night"] = GroupRowField(
            GameNight.objects.filter(group=group),
            label=_("Night"),
            required=False,
            error_messages={"invalid_choice": _("This group has no such game night.")},
        )
        not_a_date = _("Enter a real date, as 2026-03-14.")
        for name, label in (("from", _("From")), ("to", _("To"))):
            self.fields[name] = forms.DateField(
                label=label, required=False, input_formats=[ISO_DATE], error_messages={"invalid": not_a_date}
            )
        self.fields["winner"] = GroupRowField(
            Player.objects.filter(group=group),
            label=_("Winner"),
            required=False,
            error_messages={"invalid_choice": unknown_player},
        )

    def clean(self) -> dict[str, Any]:
        cleaned: dict[str, Any] = super().clean() or {}
        since, until = cleaned.get("from"), cleaned.get("to")
        if since and until and since > until:
            self.add_error("to", _("The last day comes before the first: swap them."))
        return cleaned

    def filters(self) -> Filters:
        data = self.cleaned_data
        return Filters(
            game=data["game"],
            player=data["player"],
            night=data["night"],
            since=data["from"],
            until=data["to"],
            winner=data["winner"],
        )

    def refusals(self) -> list[str]:
        """Each refusal as one sentence that names its field ("From: Enter a real date...")."""
        return [
            f"{self.fields[name].label}: {message}" if name in self.fields else str(message)
            for name, messages in self.errors.items()
            for message in messages
        ]


def game_choices() -> list[tuple[str, Any]]:
    return [(slug, game_name(slug)) for slug in GAMES] + [(OTHER_GAMES, _("Other games"))]


def read_filters(data: QueryDict, *, group: Group) -> FilterForm:
    return FilterForm(data, group=group)


@dataclass(frozen=True)
class Choices:
    """The options of the filter form's selects, built in Python: a group of a thousand players
    gives two selects of a thousand options, which Django's widgets (a template per option)
    took tens of milliseconds to render."""

    games: SafeString
    players: SafeString
    nights: SafeString
    winners: SafeString


def choices(group: Group, shown: Filters, sent: QueryDict) -> Choices:
    """Two queries: the group's players, and its newest nights (with the night filtered on)."""
    players = _options(list(Player.objects.filter(group=group).order_by("name").values_list("pk", "name")))
    nights = _nights_offered(group, shown.night)
    return Choices(
        games=_first(_("Every game")) + _chosen(_options(game_choices()), sent.get("game", "")),
        players=_first(_("Everyone")) + _chosen(players, sent.get("player", "")),
        nights=_first(_("Every night"))
        + _chosen(_options([(n.pk, night_label(n)) for n in nights]), sent.get("night", "")),
        winners=_first(_("Anyone")) + _chosen(players, sent.get("winner", "")),
    )


def _nights_offered(group: Group, chosen: GameNight | None) -> list[GameNight]:
    newest: QuerySet[GameNight] = GameNight.objects.filter(group=group).order_by("-date", "-id")
    nights = list(newest.only("pk", "date", "place")[:NIGHTS_OFFERED])
    if chosen is not None and all(n.pk != chosen.pk for n in nights):
        nights.append(chosen)
    return nights


def night_label(night: GameNight) -> str:
    day = date_format(night.date, "DATE_FORMAT")
    return f"{day} · {night.place}" if night.place else day


def _first(everything: Any) -> SafeString:
    return format_html('<option value="">{}</option>', everything)


def _options(values: list[tuple[Any, Any]]) -> str:
    """The options, none selected: written once for the player and the winner selects."""
    return "".join(f'<option value="{escape(value)}">{escape(label)}</option>' for value, label in values)


def _chosen(options: str, selected: str) -> SafeString:
    if selected:
        option = f'<option value="{escape(selected)}">'
        options = options.replace(option, option[:-1] + " selected>", 1)
    return mark_safe(options)  # every value and label is escaped by _options
