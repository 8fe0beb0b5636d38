"""Who won, in a sentence every device shows once the game is over."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from django.utils.translation import gettext, ngettext

from scoring.engine import Standing


def names_list(names: Sequence[str]) -> str:
    """``Ada``, ``Ada and Bruno``, ``Ada, Bruno and Chiara``."""
    if len(names) == 1:
        return names[0]
    return gettext("%(names)s and %(last)s") % {"names": ", ".join(names[:-1]), "last": names[-1]}


def winner_words(standings: Sequence[Standing], names: Mapping[str, str]) -> str:
    """ "Ada wins with 87 points", "Ada and Bruno share the win with 87 points", or without
    points (a game decided by places) "Ada wins"; nothing before there are standings."""
    first = [standing for standing in standings if standing.rank == 1]
    if not first:
        return ""
    winners = names_list([names.get(standing.seat, "?") for standing in first])
    score = first[0].score
    if len(first) == 1:
        if score is None:
            return gettext("%(name)s wins") % {"name": winners}
        return ngettext("%(name)s wins with %(score)s point", "%(name)s wins with %(score)s points", score) % {
            "name": winners,
            "score": score,
        }
    if score is None:
        return gettext("%(names)s share the win") % {"names": winners}
    return ngettext(
        "%(names)s share the win with %(score)s point", "%(names)s share the win with %(score)s points", score
    ) % {"names": winners, "score": score}
