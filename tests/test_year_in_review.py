"""A year in review (issue 44, point 7): a group's and a player's year, its figures against a
plain recomputation, its shareable SVG, who may see it, and what it costs in queries."""

from __future__ import annotations

import datetime
import re
import xml.etree.ElementTree as ET
from collections import Counter
from itertools import combinations

import pytest
from django.db import transaction
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring import session as core
from sessions import services
from sessions.games import BABEL_CUBES, BABEL_ON, SEVEN_WONDERS, TOWER_OF_BABEL
from sessions.models import GameSession, Player, Result
from sessions.statistics import year as figures
from tests.conftest import client_for

YEAR = 2025
SVG = "{http://www.w3.org/2000/svg}"


def at(month: int, day: int, hour: int = 21, *, year: int = YEAR) -> datetime.datetime:
    return datetime.datetime(year, month, day, hour, 0, tzinfo=datetime.UTC)


def stored(night, game, seats, *, when, status=core.FINISHED):
    """A session of ``night`` with these results: (player, rank, score, breakdown) each."""
    session = GameSession.objects.create(
        night=night, group=night.group, game=game, status=status, secret="1", state={}, finished_at=when
    )
    for player, rank, score, breakdown in seats:
        Result.objects.create(session=session, player=player, rank=rank, score=score, breakdown=breakdown or {})
    return session


def scored(night, game, scores, *, when):
    """A session whose ranks follow the scores (ties share the place)."""
    seats = [(player, 1 + sum(other > score for _p, other in scores), score, None) for player, score in scores]
    return stored(night, game, seats, when=when)


@pytest.fixture
def nights(group):
    return [
        services.create_night(group=group, date=datetime.date(YEAR, 3, 1), place="Ada's flat, 3rd floor"),
        services.create_night(group=group, date=datetime.date(YEAR, 6, 7)),
    ]


@pytest.fixture
def year_played(nights, players):
    """2025: Ada wins three Tower of Babel games in a row (the last by one point), Bruno wins a
    Babel On! with a perfect tower, Chiara a babel to level 5; one game of 2024 and one left
    open, neither counted."""
    ada, bruno, chiara, dieter = players
    march, june = nights
    scored(march, TOWER_OF_BABEL, [(ada, 50), (bruno, 40), (chiara, 30)], when=at(3, 1, 20))
    scored(march, TOWER_OF_BABEL, [(ada, 45), (bruno, 44), (chiara, 30)], when=at(3, 1, 21))
    scored(march, SEVEN_WONDERS, [(ada, 61), (bruno, 55)], when=at(3, 1, 22))
    perfect = {"won_by": "perfect", "perfect": True}
    stored(june, BABEL_ON, [(bruno, 1, None, perfect), (ada, 2, None, {}), (dieter, 2, None, {})], when=at(6, 7))
    cubes = {"level": 5, "cubes_placed": 9}
    stored(june, BABEL_CUBES, [(chiara, 1, None, cubes), (ada, 2, None, cubes)], when=at(6, 7, 22))
    scored(march, TOWER_OF_BABEL, [(ada, 99), (bruno, 10), (chiara, 10)], when=at(12, 31, 12, year=YEAR - 1))
    stored(june, TOWER_OF_BABEL, [(ada, 1, 70, None)], when=None, status=core.PLAYING)
    return march.group


# --- the figures ---------------------------------------------------------------------------


def test_it_counts_the_group_year_from_its_finished_plays_only(year_played, players):
    ada, _bruno, _chiara, _dieter = players
    review = figures.group_year(year_played, YEAR)
    assert (review.plays, review.nights) == (5, 2)
    assert [(line.name, line.plays, line.wins) for line in review.players] == [
        ("Ada", 5, 3),
        ("Chiara", 3, 1),  # as many wins as Bruno, in fewer plays
        ("Bruno", 4, 1),
        ("Dieter", 1, 0),
    ]
    assert [(line.game, line.plays) for line in review.games] == [
        (TOWER_OF_BABEL, 2),
        (SEVEN_WONDERS, 1),  # then by name: "7 Wonders: Babel", "babel", "Babel On!"
        (BABEL_CUBES, 1),
        (BABEL_ON, 1),
    ]
    assert review.streak == figures.Streak(3, ada.pk, "Ada")
    assert review.busiest_night == figures.Night(year_played.nights.get(date__month=3).pk, datetime.date(YEAR, 3, 1), 3)


def test_it_names_the_rivalries_the_records_and_the_highlights(year_played, players):
    _ada, _bruno, *_ = players
    review = figures.group_year(year_played, YEAR)
    assert review.most_met is not None
    assert {review.most_met.first.name, review.most_met.second.name} == {"Ada", "Bruno"}
    assert review.most_met.shared == 4
    # Ada and Bruno: 3-1 in 4 games; Ada and Chiara 2-1 in 3: the closest of at least 3 games together.
    assert review.closest is not None
    assert review.closest.shared == 3
    assert (review.closest.first.wins, review.closest.second.wins) == (2, 1)
    assert [(r.game, r.score, r.player_name) for r in review.records] == [
        (SEVEN_WONDERS, 61, "Ada"),
        (TOWER_OF_BABEL, 50, "Ada"),  # 99 was 2024's
    ]
    shown = {(h.kind, h.game): (h.count, [m.winners for m in h.moments]) for h in review.highlights}
    assert shown == {
        ("perfect-tower", BABEL_ON): (1, [("Bruno",)]),
        ("one-point", TOWER_OF_BABEL): (1, [("Ada",)]),
        ("tallest-tower", BABEL_CUBES): (1, [("Chiara",)]),
    }


def test_a_player_year_counts_their_own_plays_and_opponents(year_played, players):
    _ada, bruno, _chiara, _dieter = players
    review = figures.player_year(bruno, YEAR)
    assert (review.plays, review.wins, review.win_rate, review.nights) == (4, 1, 0.25, 2)
    assert [(line.game, line.plays, line.wins) for line in review.games] == [
        (TOWER_OF_BABEL, 2, 0),
        (SEVEN_WONDERS, 1, 0),
        (BABEL_ON, 1, 1),
    ]
    assert review.most_met is not None
    assert review.most_met.first.player_id == bruno.pk
    assert (review.most_met.second.name, review.most_met.shared) == ("Ada", 4)
    assert [(r.game, r.score) for r in review.records] == [(SEVEN_WONDERS, 55), (TOWER_OF_BABEL, 44)]
    assert review.streak == figures.Streak(1, bruno.pk, "Bruno")


def test_a_play_counts_in_the_year_of_the_site_time_zone(settings, night, players):
    settings.TIME_ZONE = "America/New_York"
    ada, bruno, *_ = players
    # 2026-01-01 03:00 UTC is still New Year's Eve in New York.
    scored(night, TOWER_OF_BABEL, [(ada, 10), (bruno, 5)], when=datetime.datetime(2026, 1, 1, 3, tzinfo=datetime.UTC))
    assert figures.group_year(night.group, 2025).plays == 1
    assert figures.group_year(night.group, 2026).plays == 0
    assert figures.group_years(night.group) == [2025]


def test_a_player_hidden_from_the_leaderboards_is_named_in_no_figure_of_the_group(year_played, players):
    ada, _bruno, *_ = players
    Player.objects.filter(pk=ada.pk).update(hidden_from_leaderboards=True)
    review = figures.group_year(year_played, YEAR)
    assert review.plays == 5  # the games were played all the same
    assert "Ada" not in [line.name for line in review.players]
    assert review.streak is not None
    assert review.streak.name != "Ada"
    assert review.most_met is not None
    assert "Ada" not in (review.most_met.first.name, review.most_met.second.name)
    assert all(r.player_name != "Ada" for r in review.records)
    assert all("Ada" not in m.winners for h in review.highlights for m in h.moments)
    own = figures.player_year(Player.objects.get(pk=ada.pk), YEAR)
    assert (own.plays, own.wins) == (5, 3)  # their own year stays theirs


# --- against a plain recomputation ---------------------------------------------------------


class RolledBack(Exception):
    """Ends a hypothesis example's transaction: each example starts from the same players."""


# A play: its game, its day of the year (0-364) and the seats' scores by player index.
PLAY = st.tuples(
    st.sampled_from([TOWER_OF_BABEL, SEVEN_WONDERS, BABEL_ON]),
    st.integers(0, 364),
    st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3)), min_size=1, max_size=4, unique_by=lambda s: s[0]),
)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(history=st.lists(PLAY, max_size=8))
def test_the_figures_are_what_a_plain_reading_of_the_results_gives(night, players, history):
    """Random small years of plays with ties, against counts made one play at a time."""
    try:
        with transaction.atomic():
            for number, (game, day, seats) in enumerate(history):
                when = at(1, 1) + datetime.timedelta(days=day, minutes=number)
                scored(night, game, [(players[index], score) for index, score in seats], when=when)
            check_against_plain_counts(night.group, players, history)
            raise RolledBack
    except RolledBack:
        pass


def check_against_plain_counts(group, players, history):
    ordered = sorted(enumerate(history), key=lambda item: (item[1][1], item[0]))  # as played
    plays, wins = Counter(), Counter()
    met, beat = Counter(), Counter()
    running, longest = Counter(), Counter()
    for _number, (_game, _day, seats) in ordered:
        top = max(score for _i, score in seats)
        for index, score in seats:
            plays[index] += 1
            won = score == top
            wins[index] += won
            running[index] = running[index] + 1 if won else 0
            longest[index] = max(longest[index], running[index])
        for (a, sa), (b, sb) in combinations(seats, 2):
            met[frozenset((a, b))] += 1
            beat[(a, b)] += sa > sb or sa == sb == top
            beat[(b, a)] += sb > sa or sa == sb == top
    review = figures.group_year(group, YEAR)
    assert review.plays == len(history)
    assert {line.player_id: (line.plays, line.wins) for line in review.players} == {
        players[index].pk: (count, wins[index]) for index, count in plays.items()
    }
    assert Counter({line.game: line.plays for line in review.games}) == Counter(game for game, _d, _s in history)
    assert (review.streak.length if review.streak else 0) == max(longest.values(), default=0)
    assert (review.most_met.shared if review.most_met else 0) == max(met.values(), default=0)
    for index, player in enumerate(players):
        own = figures.player_year(player, YEAR)
        assert (own.plays, own.wins) == (plays[index], wins[index])
        assert own.win_rate == (round(wins[index] / plays[index], 4) if plays[index] else None)
        assert (own.streak.length if own.streak else 0) == longest[index]
        met_most = max((count for pair, count in met.items() if index in pair), default=0)
        assert (own.most_met.shared if own.most_met else 0) == met_most
        if own.most_met is not None:
            pair = own.most_met
            other = next(i for i, p in enumerate(players) if p.pk == pair.second.player_id)
            assert (pair.first.wins, pair.second.wins) == (beat[(index, other)], beat[(other, index)])


# --- the pages -----------------------------------------------------------------------------


def test_the_group_year_page_shows_the_figures_and_links_the_years_with_plays(member_client, year_played):
    page = member_client.get(reverse("group_year", args=[year_played.pk, YEAR])).content.decode()
    assert "2025 in review" in page
    assert re.search(r'<span class="stat-label">Plays</span>\s*<span class="stat-figure">5</span>', page)
    assert "won with a perfect tower" in page
    assert "won by a single point" in page
    assert "Ada: 3 wins in a row" in page
    assert f'href="{reverse("group_year", args=[year_played.pk, YEAR - 1])}" rel="prev"' in page
    assert f'src="{reverse("group_year_card", args=[year_played.pk, YEAR])}"' in page


def test_a_year_without_plays_says_so(member_client, year_played, players):
    page = member_client.get(reverse("group_year", args=[year_played.pk, 2019])).content.decode()
    assert "The group finished no game in 2019." in page
    assert 'data-testid="cards"' not in page
    assert f'href="{reverse("group_year", args=[year_played.pk, YEAR])}"' in page  # the years that have some
    player_page = member_client.get(reverse("player_year", args=[players[3].pk, YEAR - 1])).content.decode()
    assert "Dieter finished no game in 2024." in player_page


def test_the_group_page_and_the_player_page_link_to_this_year(member_client, group, players):
    this_year = datetime.date.today().year
    group_page = member_client.get(reverse("group", args=[group.pk])).content.decode()
    assert f'href="{reverse("group_year", args=[group.pk, this_year])}"' in group_page
    player_page = member_client.get(reverse("player_statistics", args=[players[0].pk])).content.decode()
    assert f'href="{reverse("player_year", args=[players[0].pk, this_year])}"' in player_page


def urls(group, player):
    return [
        reverse("group_year", args=[group.pk, YEAR]),
        reverse("group_year_card", args=[group.pk, YEAR]),
        reverse("player_year", args=[player.pk, YEAR]),
        reverse("player_year_card", args=[player.pk, YEAR]),
    ]


def test_the_owner_and_a_member_see_the_year_and_an_outsider_gets_a_404(owner, member, outsider, year_played, players):
    for url in urls(year_played, players[0]):
        assert client_for(owner).get(url).status_code == 200, url
        assert client_for(member).get(url).status_code == 200, url
        assert client_for(outsider).get(url).status_code == 404, url
        assert client_for(None).get(url).status_code == 302, url  # to the login page


def test_a_year_out_of_range_is_a_404(member_client, group):
    assert member_client.get(reverse("group_year", args=[group.pk, 10000])).status_code == 404
    assert member_client.get(reverse("group_year_card", args=[group.pk, 1])).status_code == 404


# --- the image -----------------------------------------------------------------------------


def svg_texts(response):
    root = ET.fromstring(response.content)  # well-formed XML, or this raises
    return root, [element.text or "" for element in root.iter(f"{SVG}text")]


def test_the_card_is_an_svg_download_with_the_headline_figures(member_client, year_played):
    response = member_client.get(reverse("group_year_card", args=[year_played.pk, YEAR]))
    assert response["Content-Type"] == "image/svg+xml; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="thursday-table-2025.svg"'
    root, texts = svg_texts(response)
    assert (root.get("width"), root.get("height")) == ("1080", "1350")
    assert {"2025", "Thursday table", "5", "plays", "2", "game nights", "Ada", "most wins: 3"} <= set(texts)
    assert sum(text in ("plays", "game nights") or ":" in text or "row" in text for text in texts) >= 4


def test_the_card_names_no_place_account_or_e_mail(owner, member_client, year_played):
    owner.email = "olga@example.org"
    owner.save()
    body = member_client.get(reverse("group_year_card", args=[year_played.pk, YEAR])).content.decode()
    for private in ("Ada's flat", "olga", "example.org", "milo"):
        assert private not in body


@pytest.mark.parametrize("name", ["<script>alert(1)</script>", "Tom & Jerry", 'Ann "the" O\'Neil', "Bell\x07e\x0b"])
def test_a_name_with_markup_or_control_characters_is_drawn_as_typed_and_safely(member_client, group, night, name):
    player = services.create_player(group=group, name="Placeholder")
    Player.objects.filter(pk=player.pk).update(name=name)  # past the form's own checks, as an import might
    other = services.create_player(group=group, name="Other")
    scored(night, TOWER_OF_BABEL, [(player, 30), (other, 20)], when=datetime.datetime.now(datetime.UTC))
    year = datetime.date.today().year
    expected = re.sub("[\x00-\x08\x0b\x0c\x0e-\x1f]", "", name)
    for url, drawn in [
        (reverse("player_year_card", args=[player.pk, year]), expected),  # the title: the whole name
        (reverse("group_year_card", args=[group.pk, year]), expected[:8]),  # most wins: cut to fit its half
    ]:
        response = member_client.get(url)
        root, texts = svg_texts(response)
        assert not list(root.iter(f"{SVG}script"))
        assert b"<script" not in response.content
        assert any(text.startswith(drawn) for text in texts), (drawn, texts)


# --- what it costs -------------------------------------------------------------------------


def more_plays(nights, players, count):
    for number in range(count):
        table = [(players[(number + i) % 4], (number * 7 + i * 3) % 11) for i in range(3)]
        scored(nights[number % 2], TOWER_OF_BABEL, table, when=at(4, 1) + datetime.timedelta(hours=number))


@pytest.mark.parametrize("extra", [0, 40])
def test_the_pages_read_in_as_many_queries_whatever_the_number_of_plays(
    member_client, year_played, nights, players, extra, django_assert_max_num_queries
):
    more_plays(nights, players, extra)
    # The session and the user, the membership (or the player), the years with plays, the year's results.
    for url, most in zip(urls(year_played, players[0]), [5, 4, 5, 4], strict=True):
        with django_assert_max_num_queries(most):
            assert member_client.get(url).status_code == 200


def test_the_review_reads_one_query_whatever_the_number_of_plays(
    year_played, nights, players, django_assert_num_queries
):
    more_plays(nights, players, 30)
    with django_assert_num_queries(1):
        assert figures.group_year(year_played, YEAR).plays == 35
    with django_assert_num_queries(1):
        assert figures.player_year(players[0], YEAR).plays > 20
