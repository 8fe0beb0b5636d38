"""The leaderboard's filters (a GET form: nothing is written)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from sessions.games import GAMES
from sessions.statistics.ratings import OVERALL

PERIOD_CHOICES = [("all", _("All time")), ("year", _("This year")), ("month", _("This month"))]
ORDER_CHOICES = [("rating", _("Rating")), ("win_rate", _("Win rate"))]


class LeaderboardForm(forms.Form):
    game = forms.ChoiceField(label=_("Game"), required=False)
    period = forms.ChoiceField(label=_("Period"), choices=PERIOD_CHOICES, required=False)
    min_plays = forms.IntegerField(label=_("Minimum plays"), min_value=0, max_value=100_000, required=False)
    order = forms.ChoiceField(label=_("Order by"), choices=ORDER_CHOICES, required=False)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        game = self.fields["game"]
        assert isinstance(game, forms.ChoiceField)
        game.choices = [(OVERALL, _("All games")), *((g.slug, g.name) for g in GAMES.values())]

    def filters(self) -> dict[str, Any]:
        """The cleaned filters, with the defaults for what is missing or invalid."""
        data = self.cleaned_data if self.is_valid() else {}
        return {
            "game": data.get("game") or OVERALL,
            "period": data.get("period") or "all",
            "min_plays": data.get("min_plays") or 0,
            "order": data.get("order") or "rating",
        }
