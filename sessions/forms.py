"""Forms for the pages. Each write form carries the idempotency key it was rendered with."""

from __future__ import annotations

import uuid
from typing import TYPE_CHECKING, Any

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from scoring.errors import RuleError, gettext_noop
from sessions import names
from sessions.games import COLOUR_NAMES, Game
from sessions.numbers import parse_sum
from sessions.rule_messages import describe

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise
from sessions.models import GameNight, Group, Player


class IdempotentForm(forms.Form):
    idempotency_key = forms.CharField(widget=forms.HiddenInput, max_length=64, required=False)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["idempotency_key"].initial = uuid.uuid4().hex


class SignupForm(UserCreationForm):
    pass


class UncutCharField(forms.CharField):
    """Text whose limit the server checks and names in its refusal. The browser is given no
    ``maxlength``, which cuts a pasted or typed text at the limit without a word."""

    default_error_messages = {
        "max_length": _("At most %(limit_value)d characters here: this has %(show_value)d."),
    }

    def widget_attrs(self, widget: forms.Widget) -> dict[str, Any]:
        attrs = super().widget_attrs(widget)
        attrs.pop("maxlength", None)
        return attrs


class NameField(UncutCharField):
    """A name as ``sessions.names`` keeps it (NFKC, one space between words), its control and
    invisible characters refused; ``place``: a game night's place, which may be blank. Whether
    it can be told apart from the others is the services' to say: they know the group."""

    def __init__(self, *args: Any, place: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.place = place

    def clean(self, value: Any) -> str:
        text: str = super().clean(value)
        if not text and not self.required:
            return text
        try:
            return names.clean_name(text, field="name", limit=self.max_length or 0, place=self.place)
        except RuleError as refused:
            raise forms.ValidationError(describe(refused), code="name") from None


class GroupForm(IdempotentForm):
    name = NameField(label=_("Group name"), max_length=Group._meta.get_field("name").max_length)


PLAYER_NAME_LIMIT = Player._meta.get_field("name").max_length or 0


class PlayerForm(IdempotentForm):
    name = NameField(
        label=_("Player name"),
        max_length=PLAYER_NAME_LIMIT,
        error_messages={
            "max_length": _("A player's name has at most %(limit_value)d characters: this one has %(show_value)d.")
        },
    )


class PlayersForm(IdempotentForm):
    """One or more players to add: a name per line, or names separated by commas. A name over
    the limit, or one given twice, refuses the whole list, naming them (never cut)."""

    name = forms.CharField(
        label=_("Players to add"),
        help_text=_("One name per line, or separated by commas."),
        widget=forms.Textarea(attrs={"rows": 3, "autocapitalize": "words", "autocomplete": "off"}),
        error_messages={"required": _("Enter a name.")},
    )

    def __init__(self, *args: Any, focused: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if focused:  # the field again after names were added or refused: the next ones are typed at once
            self.fields["name"].widget.attrs["autofocus"] = True

    def clean_name(self) -> list[str]:
        text: str = self.cleaned_data["name"]
        typed = [name.strip() for line in text.splitlines() for name in line.split(",")]
        typed = [name for name in typed if name]
        if not typed:
            raise forms.ValidationError(_("Enter a name."), code="required")
        refused = []
        kept = []
        for name in typed:
            try:
                kept.append(names.clean_name(name, field="name", limit=PLAYER_NAME_LIMIT))
            except RuleError as error:
                if error.template == names.NAME_TOO_LONG:  # this form's own words for it
                    error = RuleError(LIST_NAME_TOO_LONG, field="name", params=error.params)
                refused.append(forms.ValidationError(describe(error), code="name"))
        # "ada", "Ada" and "Ada" with a Cyrillic A are one player: the first typed is named.
        given = names.NameIndex[str]()
        twice: list[str] = []
        for name in kept:
            earlier = given.find(name)
            if earlier is None:
                given.add(name, name)
            elif earlier[0] not in twice:
                twice.append(earlier[0])
        if twice:
            said = ngettext(
                "This name is given twice: %(names)s.", "These names are given twice: %(names)s.", len(twice)
            )
            refused.append(forms.ValidationError(said % {"names": ", ".join(twice)}, code="twice"))
        if refused:
            raise forms.ValidationError(refused)
        return kept


LIST_NAME_TOO_LONG = gettext_noop("A player's name has at most {limit} characters: “{value}” has {count}.")


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
    place = NameField(
        label=_("Place"), max_length=GameNight._meta.get_field("place").max_length, required=False, place=True
    )
    notes = UncutCharField(label=_("Notes"), max_length=2000, required=False, widget=forms.Textarea(attrs={"rows": 2}))

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

    @property
    def seats_open(self) -> int:
        """How many seat rows show open: the filled ones and the rules' fewest players; the
        rest wait behind "More seats" (a table of three does not scroll past five empty rows)."""
        filled = [index for index in range(self.game.max_players) if self[f"seat_{index}"].value()]
        return max(self.game.min_players, filled[-1] + 1 if filled else 0)

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
