"""One date format per language on the statistics pages, the play log and the charts: the
language's own (Django's DATE_FORMAT), with its month names."""

import re

import pytest
from django.urls import reverse

from sessions import tasks
from tests.test_statistics import play

# The first play finishes on 2 March 2026 (tests.test_statistics.BASE), the last on 9 March;
# the night is on 19 November 2026.
DATES = {
    "en": ("March 2, 2026", "March 9, 2026", "Nov. 19, 2026"),
    "it": ("02 marzo 2026", "09 marzo 2026", "19 novembre 2026"),
    "de": ("2. März 2026", "9. März 2026", "19. November 2026"),
}


@pytest.fixture
def played(night, players):
    for day in (0, 7):
        tasks.update_statistics(play(night, players[:3], [30, 20, 10], days=day).pk)
    return night.group


@pytest.mark.parametrize("language", sorted(DATES))
def test_the_player_page_writes_its_dates_alike_in_the_text_and_the_chart(member_client, played, players, language):
    _first, last, _night = DATES[language]
    url = reverse("player_statistics", args=[players[0].pk])
    page = member_client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
    plays = re.search(r'data-card="plays".*?</li>', page, re.S).group(0)
    assert last in plays  # the plays card: "the last on <date>"
    # Two plays draw no rating curve yet; a drawn chart's dates are written by the browser in the
    # page's language (tests/browser/test_statistics_charts.py).
    assert 'id="rating-history-data"' not in page


@pytest.mark.parametrize("language", sorted(DATES))
def test_the_play_log_writes_the_night_in_the_same_format(member_client, played, language):
    *_plays, night = DATES[language]
    page = member_client.get(reverse("group", args=[played.pk]), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert f'<small class="muted">{night}</small>' in page
    page = member_client.get(reverse("play_log", args=[played.pk]), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert f'<span class="play-day">{night}</span>' in page
