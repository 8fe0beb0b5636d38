"""Forms for the pages. Each write form carries the idempotency key it was rendered with."""

from __future__ import annotations

import uuid
from typing import TYPE_CHECKING, Any

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext_lazy as _

from sessions.games import COLOUR_NAMES, Game
from sessions.numbers import parse_sum

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise
from sessions.models import GameNight, Player


class IdempotentForm(forms.Form):
    idempotency_key = forms.CharField(widget=forms.HiddenInput, max_length=64, required=False)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["idempotency_key"].initial = uuid.uuid4().hex


class SignupForm(UserCreationForm):
    pass


class GroupForm(IdempotentForm):
    name = forms.CharField(label=_("Group name"), max_length=80)


class PlayerForm(IdempotentForm):
    name = forms.CharField(label=_("Player name"), max_length=40)


class MergeForm(IdempotentForm):
    """The player to keep, of the group's other players (the one merged is dropped)."""

    into = forms.TypedChoiceField(label=_("Merge into"), coerce=int)

    def __init__(self, *args: Any, players: list[Player], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["into"].choices = [("", "—")] + [(p.pk, p.name) for p in players]  # type: ignore[attr-defined]


class MemberForm(IdempotentForm):
    username = forms.CharField(label=_("Username"), max_length=150)


class NightForm(IdempotentForm):
    date = forms.DateField(label=_("Date"), widget=forms.DateInput(attrs={"type": "date"}))
    place = forms.CharField(label=_("Place"), max_length=80, required=False)
    notes = forms.CharField(label=_("Notes"), max_length=2000, required=False, widget=forms.Textarea(attrs={"rows": 2}))

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["date"].initial = GameNight._meta.get_field("date").get_default()


class SumField(forms.CharField):
    """A whole number, or a small sum typed at the table: ``3+4+2``."""

    def to_python(self, value: Any) -> int | None:  # type: ignore[override]
        text = super().to_python(value)
        if not text:
            return None
        total = parse_sum(text)
        if total is None:
            raise forms.ValidationError(_("Enter a whole number or a sum like 3+4+2."), code="invalid")
        return total


class SessionForm(IdempotentForm):
    """Seats in order (a player per seat, optional colour) and the game's options."""

    def __init__(self, *args: Any, game: Game, players: list[Player], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.game = game
        player_choices = [("", "—")] + [(str(p.pk), p.name) for p in players]
        colour_choices = [("", "—")] + [(c, COLOUR_NAMES[c]) for c in game.colours]
        for index in range(game.max_players):
            self.fields[f"seat_{index}"] = forms.ChoiceField(
                label=_("Seat %(number)d") % {"number": index + 1}, choices=player_choices, required=False
            )
            if game.colours:
                self.fields[f"colour_{index}"] = forms.ChoiceField(
                    label=_("Colour"), choices=colour_choices, required=False
                )
        for option in game.options:
            if option.choices:
                self.fields[f"option_{option.name}"] = forms.ChoiceField(
                    label=option.label, choices=option.choices, initial=option.default, required=False
                )
            else:
                self.fields[f"option_{option.name}"] = forms.BooleanField(
                    label=option.label, initial=option.default, required=False
                )

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        # The page lists the seats' errors only here: a player archived or removed since it was shown.
        if any(f"seat_{index}" in self.errors for index in range(self.game.max_players)):
            self.add_error(None, _("A chosen player can no longer take a seat: choose again."))
        return cleaned

    def seat_rows(self) -> list[tuple[forms.BoundField, forms.BoundField | None]]:
        return [
            (self[f"seat_{i}"], self[f"colour_{i}"] if self.game.colours else None)
            for i in range(self.game.max_players)
        ]

    def option_fields(self) -> list[forms.BoundField]:
        return [self[f"option_{option.name}"] for option in self.game.options]

    def seats(self) -> list[tuple[int, str]]:
        """(player id, colour) for each filled seat, in seat order."""
        rows = []
        for index in range(self.game.max_players):
            player = self.cleaned_data.get(f"seat_{index}")
            if player:
                rows.append((int(player), self.cleaned_data.get(f"colour_{index}") or ""))
        return rows

    def options(self) -> dict[str, Any]:
        # A choice left out keeps the game's default (`Option.clean` treats None so); an
        # unticked switch is a plain no.
        return {
            option.name: self.cleaned_data[f"option_{option.name}"] or (None if option.choices else False)
            for option in self.game.options
        }


class VersionedForm(IdempotentForm):
    expected_version = forms.IntegerField(widget=forms.HiddenInput, min_value=0)


class SeatFieldsForm(VersionedForm):
    """A form with a field for each seat, ``seats`` as (key, name)."""

    def __init__(self, *args: Any, seats: list[tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.seats = seats
        self.seat_keys = [key for key, _name in seats]

    @property
    def shown(self) -> str:
        """What the form's visible fields show, in plain values (the page keeps their render
        under it): its seats, and what was typed and refused when it comes back."""
        typed = (sorted(dict(self.data).items()), self.errors.get_json_data()) if self.is_bound else None
        return repr((type(self).__name__, self.seats, str(getattr(self, "tiebreak", None)), typed))


class ScoresForm(SeatFieldsForm):
    """Points per seat, and the game's tie-break number if it has one."""

    def __init__(self, *args: Any, seats: list[tuple[str, str]], tiebreak: StrOrPromise | None, **kwargs: Any) -> None:
        super().__init__(*args, seats=seats, **kwargs)
        self.tiebreak = tiebreak
        for key, name in seats:
            self.fields[f"score_{key}"] = SumField(label=name, widget=forms.TextInput(attrs={"inputmode": "tel"}))
            if tiebreak:
                self.fields[f"tiebreak_{key}"] = SumField(
                    label=_("%(name)s: %(tiebreak)s") % {"name": name, "tiebreak": tiebreak},
                    required=False,
                    widget=forms.TextInput(attrs={"inputmode": "numeric"}),
                )

    def rows(self) -> list[tuple[forms.BoundField, forms.BoundField | None]]:
        return [(self[f"score_{k}"], self[f"tiebreak_{k}"] if self.tiebreak else None) for k in self.seat_keys]

    def payload(self) -> dict[str, Any]:
        payload: dict[str, Any] = {"scores": {k: self.cleaned_data[f"score_{k}"] for k in self.seat_keys}}
        if self.tiebreak and all(self.cleaned_data.get(f"tiebreak_{k}") is not None for k in self.seat_keys):
            payload["tiebreaks"] = {k: self.cleaned_data[f"tiebreak_{k}"] for k in self.seat_keys}
        return payload


class PlacesForm(SeatFieldsForm):
    """The finishing order: a place per seat; equal places are a shared place."""

    def __init__(self, *args: Any, seats: list[tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(*args, seats=seats, **kwargs)
        places = [(str(n), str(n)) for n in range(1, len(seats) + 1)]
        for key, name in seats:
            self.fields[f"place_{key}"] = forms.TypedChoiceField(label=name, choices=places, coerce=int)

    def payload(self) -> dict[str, Any]:
        return {"places": {k: self.cleaned_data[f"place_{k}"] for k in self.seat_keys}}


class JoinForm(forms.Form):
    # Typed as the host's screen shows it (capitals and digits): no keyboard's corrections,
    # suggestions or lower-case first letter. The server reads it in any case, spaces trimmed.
    code = forms.CharField(
        label=_("Join code"),
        max_length=20,
        widget=forms.TextInput(
            attrs={
                "class": "join-code",
                "autocapitalize": "characters",
                "autocomplete": "off",
                "autocorrect": "off",
                "spellcheck": "false",
                "inputmode": "text",
                "enterkeyhint": "go",
            }
        ),
    )
