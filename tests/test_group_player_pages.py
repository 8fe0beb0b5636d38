"""The group page shows its players thirty at a time, with a search by name (issue 16, item
5): a group of a thousand players costs what a group of forty does. Each player's wins and
games read as words (issue 17)."""

from __future__ import annotations

import re

from django.urls import reverse
from django.utils import translation

from sessions import services
from sessions.games import BABEL_ON, TOWER_OF_BABEL
from sessions.models import Player, PlayerTally


def names_on(page: str) -> list[str]:
    players = page.split('data-testid="players"')[1].split("</ul>")[0]
    return re.findall(r'class="player-name"[^>]*>([^<]+)<', players)


def tallies_on(page: str, name: str) -> str:
    """The words after ``name`` on the group page's list of players: their wins and games."""
    found = re.search(rf'>{name}</a>\s*<small class="muted" data-testid="tallies">(.*?)</small>', page)
    assert found
    return re.sub(r"</?span[^>]*>", "", found[1])


def add_players(group, count, *, start=0):
    Player.objects.bulk_create(Player(group=group, name=f"Player {n:04d}") for n in range(start, start + count))


def test_a_large_group_shows_thirty_players_a_page_by_name(member_client, group):
    add_players(group, 65)
    url = reverse("group", args=[group.pk])
    first = member_client.get(url).content.decode()
    assert names_on(first) == [f"Player {n:04d}" for n in range(30)]
    assert "Page 1 of 3" in first
    assert "?players=2" in first
    last = member_client.get(url, {"players": 3}).content.decode()
    assert names_on(last) == [f"Player {n:04d}" for n in range(60, 65)]
    assert "Next players" not in last
    assert names_on(member_client.get(url, {"players": "99"}).content.decode()) == names_on(last)
    assert names_on(member_client.get(url, {"players": "x"}).content.decode()) == names_on(first)


def test_a_search_finds_players_by_part_of_their_name_and_keeps_it_across_pages(member_client, group):
    add_players(group, 70)
    services.create_player(group=group, name="Chiara")
    url = reverse("group", args=[group.pk])
    assert names_on(member_client.get(url, {"q": "chi"}).content.decode()) == ["Chiara"]
    page = member_client.get(url, {"q": "player 00"}).content.decode()
    assert len(names_on(page)) == 30
    assert "?q=player%2000&amp;players=2" in page
    assert "name holds" not in page
    assert "holds “Zed”" in member_client.get(url, {"q": "Zed"}).content.decode()


def test_a_small_group_shows_its_players_without_pages_or_search(member_client, group, players):
    page = member_client.get(reverse("group", args=[group.pk])).content.decode()
    assert names_on(page) == ["Ada", "Bruno", "Chiara", "Dieter"]
    assert 'name="q"' not in page
    assert 'data-testid="player-pages"' not in page


def test_the_group_page_reads_as_many_queries_at_a_thousand_players_as_at_forty(
    member_client, group, django_assert_max_num_queries
):
    url = reverse("group", args=[group.pk])
    add_players(group, 40)
    member_client.get(url)
    with django_assert_max_num_queries(12) as small:
        member_client.get(url)
    add_players(group, 960, start=40)
    with django_assert_max_num_queries(len(small.captured_queries)):
        assert len(names_on(member_client.get(url).content.decode())) == 30


def test_a_players_wins_and_games_read_as_words_in_the_singular_and_the_plural(member_client, group, players):
    ada, bruno = players[:2]
    # The rows the statistics task keeps (sessions/statistics), as it leaves them after these plays.
    PlayerTally.objects.create(player=ada, game=TOWER_OF_BABEL, plays=5, wins=2)
    PlayerTally.objects.create(player=ada, game=BABEL_ON, plays=1, wins=1)
    PlayerTally.objects.create(player=bruno, game=TOWER_OF_BABEL, plays=1, wins=0)
    url = reverse("group", args=[group.pk])
    page = member_client.get(url).content.decode()
    assert sorted(tallies_on(page, "Ada").split(" · ")) == [
        "Babel On!: 1 win in 1 game",
        "Tower of Babel: 2 wins in 5 games",
    ]
    assert tallies_on(page, "Bruno") == "Tower of Babel: 0 wins in 1 game"
    italian = member_client.get(url, headers={"accept-language": "it"}).content.decode()
    with translation.override("it"):  # the title of the Italian edition
        title = translation.pgettext("game title", "Tower of Babel")
    assert sorted(tallies_on(italian, "Ada").split(" · ")) == sorted(
        ["Babel On!: 1 vittoria su 1 partita", f"{title}: 2 vittorie su 5 partite"]
    )
