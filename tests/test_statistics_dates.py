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
    first, last, _night = DATES[language]
    url = reverse("player_statistics", args=[players[0].pk])
    page = member_client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert re.search(rf"<dd>{last}</dd>", page)  # last played
    chart = re.search(r'<svg[^>]*aria-labelledby="rating-history-title.*?</svg>', page, re.S).group(0)
    labels = re.findall(r'text-anchor="(?:start|end)">([^<]+)</text>', chart)  # the axes', then the dates
    assert labels[-2:] == [first, last]


@pytest.mark.parametrize("language", sorted(DATES))
def test_the_play_log_writes_the_night_in_the_same_format(member_client, played, language):
    *_plays, night = DATES[language]
    for url in (reverse("play_log", args=[played.pk]), reverse("group", args=[played.pk])):
        page = member_client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
        assert f'<small class="muted">{night}</small>' in page
