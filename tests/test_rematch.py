"""A rematch: the finished game again in its night, started, with the next player first."""

import pytest

from scoring.errors import RuleError
from scoring.tower_of_babel import engine as tob
from sessions import services
from sessions.models import GameSession
from tests.conftest import advance, finish_with_scores
from tests.test_api_sessions import api_for


def finished(night, players, game, *, colours=(), options=None, first=None, scores=None):
    """A finished session of ``game`` (Tower of Babel: ``first`` chosen to play first)."""
    session = services.create_session(
        night=night, game=game, players=players, colours=colours, options=options, secret="7"
    )
    advance(session, "session.start")
    if first is not None:
        advance(session, tob.FIRST_PLAYER, seat=str(first.pk))
    finish_with_scores(session, scores or list(range(len(players), 0, -1)))
    return session


def table(session):
    return [(seat.player.name, seat.colour) for seat in session.seats.select_related("player")]


def test_a_tower_of_babel_rematch_keeps_the_table_and_starts_with_the_next_player(night, players):
    colours = ["red", "blue", "green"]
    previous = finished(
        night, players[:3], "tower-of-babel", colours=colours, options={"two_kind_discs": True}, first=players[1]
    )
    rematch = services.rematch_session(session=previous).session
    assert rematch.pk != previous.pk
    assert rematch.night_id == night.pk
    assert rematch.game == "tower-of-babel"
    assert rematch.options == previous.options
    assert table(rematch) == [("Ada", "red"), ("Bruno", "blue"), ("Chiara", "green")]
    assert rematch.status == "playing"
    assert rematch.state["game"]["active"] == str(players[2].pk)  # after Bruno, in seat order
    assert rematch.secret != previous.secret  # a new deal


def test_after_the_last_seat_the_first_seat_starts_the_rematch(night, players):
    previous = finished(night, players[:3], "tower-of-babel", first=players[2])
    rematch = services.rematch_session(session=previous).session
    assert rematch.state["game"]["active"] == str(players[0].pk)


def test_a_tower_of_babel_rematch_of_a_game_without_a_chosen_first_player_lets_the_table_choose(night, players):
    previous = services.create_session(night=night, game="tower-of-babel", players=players[:3])
    finish_with_scores(previous, [30, 20, 10])  # the final scores alone, no first player recorded
    rematch = services.rematch_session(session=previous).session
    assert rematch.status == "playing"
    assert rematch.state["game"]["active"] is None


def test_a_babel_rematch_turns_the_seats_so_the_other_player_places_the_first_cube(night, players):
    previous = finished(night, players[:2], "babel-cubes", colours=["light", "dark"], options={"type2": "opposite"})
    rematch = services.rematch_session(session=previous).session
    assert table(rematch) == [("Bruno", "dark"), ("Ada", "light")]  # each keeps their colour
    assert rematch.options == {"type2": "opposite", "type3": previous.options["type3"]}
    assert rematch.status == "playing"


def test_a_babel_on_rematch_keeps_the_seats_and_rolls_off_for_the_first_player(night, players):
    previous = finished(night, players[:3], "babel-on", colours=["purple", "red", "blue"])
    rematch = services.rematch_session(session=previous).session
    assert table(rematch) == [("Ada", "purple"), ("Bruno", "red"), ("Chiara", "blue")]
    assert rematch.status == "playing"
    assert rematch.state["game"]["phase"] == "setup"  # then the roll-off (BO-3)


def test_a_babel_on_rematch_keeps_the_colours_named_at_the_set_up(night, players):  # BO-1
    previous = services.create_session(night=night, game="babel-on", players=players[:3], colours=["", "red"])
    advance(previous, "session.start")
    seats = [str(p.pk) for p in players[:3]]
    advance(previous, "bo.setup", colours=dict(zip(seats, ["orange", "red", "yellow"], strict=True)))
    finish_with_scores(previous, [3, 2, 1])
    rematch = services.rematch_session(session=previous).session
    assert table(rematch) == [("Ada", "orange"), ("Bruno", "red"), ("Chiara", "yellow")]


def test_a_seven_wonders_rematch_keeps_the_options_and_the_neighbours(night, players):
    options = {"leaders": True, "cities": True, "great_projects": False}
    previous = finished(night, players, "seven-wonders", options=options)
    rematch = services.rematch_session(session=previous).session
    assert [name for name, _colour in table(rematch)] == ["Ada", "Bruno", "Chiara", "Dieter"]
    assert {name: rematch.options[name] for name in options} == options
    assert rematch.status == "playing"


@pytest.mark.parametrize("status", ["setup", "abandoned"])
def test_only_a_finished_session_can_be_played_again(session, status):
    if status == "abandoned":
        advance(session, "session.abandon")
    with pytest.raises(RuleError) as refused:
        services.rematch_session(session=session)
    assert refused.value.field == "session"
    assert GameSession.objects.count() == 1


def test_the_finished_page_offers_the_rematch_and_an_open_one_does_not(member_client, session):
    assert "Rematch" not in member_client.get(f"/s/{session.pk}/").content.decode()
    finish_with_scores(session, [30, 20, 10])
    page = member_client.get(f"/s/{session.pk}/").content.decode()
    assert f'action="/s/{session.pk}/rematch/"' in page
    assert 'name="idempotency_key"' in page


def test_once_someone_started_the_rematch_the_finished_page_leads_to_it(member_client, night, players):
    previous = finished(night, players[:3], "tower-of-babel", first=players[0])
    rematch = services.rematch_session(session=previous).session
    page = member_client.get(f"/s/{previous.pk}/").content.decode()
    assert f'href="/s/{rematch.pk}/"' in page
    assert "Go to the rematch" in page
    assert f'action="/s/{previous.pk}/rematch/"' not in page


@pytest.mark.parametrize(("who", "status"), [("owner", 302), ("member", 302), ("outsider", 404)])
def test_members_play_a_rematch_in_one_tap(request, night, players, who, status):
    previous = finished(night, players[:3], "tower-of-babel", first=players[0])
    client = request.getfixturevalue(f"{who}_client")
    response = client.post(f"/s/{previous.pk}/rematch/", {"idempotency_key": "again"})
    assert response.status_code == status
    assert GameSession.objects.count() == (2 if status == 302 else 1)
    if status == 302:
        rematch = GameSession.objects.exclude(pk=previous.pk).get()
        assert response["Location"] == f"/s/{rematch.pk}/"
        assert client.get(response["Location"]).context["controls_template"]  # the board, ready to play


def test_a_double_tap_on_rematch_creates_one_session(member_client, night, players):
    previous = finished(night, players[:3], "tower-of-babel", first=players[0])
    answers = [member_client.post(f"/s/{previous.pk}/rematch/", {"idempotency_key": "twice"}) for _ in range(2)]
    assert GameSession.objects.count() == 2
    assert answers[0]["Location"] == answers[1]["Location"]


def test_the_rematch_remembers_the_session_it_plays_again(night, players):
    previous = finished(night, players[:3], "babel-on")
    outcome = services.rematch_session(session=previous)
    assert outcome.created
    assert outcome.session.rematch_of == previous
    assert outcome.session.rematch_of.rematch == outcome.session


def test_asking_twice_for_a_rematch_gives_the_first_one(night, players, owner, member):
    previous = finished(night, players[:3], "tower-of-babel", first=players[0])
    first = services.rematch_session(session=previous, author=owner)
    second = services.rematch_session(session=previous, author=member)
    assert first.created
    assert not second.created
    assert second.session.pk == first.session.pk
    assert GameSession.objects.count() == 2
    assert second.session.version == first.session.version  # not started twice


def test_two_devices_tapping_rematch_with_their_own_keys_land_in_the_same_session(
    owner_client, member_client, night, players
):
    previous = finished(night, players[:3], "tower-of-babel", first=players[0])
    answers = [
        client.post(f"/s/{previous.pk}/rematch/", {"idempotency_key": key})
        for client, key in [(owner_client, "owner-tap"), (member_client, "member-tap")]
    ]
    assert GameSession.objects.count() == 2
    rematch = GameSession.objects.get(rematch_of=previous)
    assert [answer["Location"] for answer in answers] == [f"/s/{rematch.pk}/"] * 2


def test_a_second_device_asking_the_api_for_a_rematch_gets_the_first_one_with_200(owner, member, night, players):
    previous = finished(night, players[:3], "babel-on")
    url = f"/api/v1/sessions/{previous.pk}/rematch/"
    first = api_for(owner).post(url, {}, format="json", HTTP_IDEMPOTENCY_KEY="owner-phone")
    second = api_for(member).post(url, {}, format="json", HTTP_IDEMPOTENCY_KEY="member-phone")
    assert (first.status_code, second.status_code) == (201, 200)
    assert second.json()["id"] == first.json()["id"] == GameSession.objects.get(rematch_of=previous).pk
    assert GameSession.objects.count() == 2


def test_an_outsider_cannot_reach_a_rematch_through_the_session_it_plays_again(
    member_client, outsider_client, outsider, night, players
):
    previous = finished(night, players[:3], "tower-of-babel", first=players[0])
    member_client.post(f"/s/{previous.pk}/rematch/", {"idempotency_key": "member-tap"})
    assert outsider_client.post(f"/s/{previous.pk}/rematch/", {"idempotency_key": "peek"}).status_code == 404
    answer = api_for(outsider).post(f"/api/v1/sessions/{previous.pk}/rematch/", {}, format="json")
    assert answer.status_code == 404
    assert "id" not in answer.json()


def test_a_refused_rematch_says_why_on_the_session_page(member_client, session):
    response = member_client.post(f"/s/{session.pk}/rematch/", {"idempotency_key": "early"}, follow=True)
    assert "Only a finished session can be played again." in response.content.decode()
    assert GameSession.objects.count() == 1


@pytest.mark.parametrize(("who", "status"), [("owner", 201), ("member", 201), ("outsider", 404), ("nobody", 401)])
def test_the_api_rematch_is_for_members_only(request, night, players, who, status):
    previous = finished(night, players[:3], "tower-of-babel", first=players[0])
    user = None if who == "nobody" else request.getfixturevalue(who)
    response = api_for(user).post(f"/api/v1/sessions/{previous.pk}/rematch/", {}, format="json")
    assert response.status_code == status
    assert GameSession.objects.count() == (2 if status == 201 else 1)
    if status == 201:
        body = response.json()
        assert body["status"] == "playing"
        assert body["state"]["game"]["active"] == str(players[1].pk)
        assert [seat["player"] for seat in body["seats"]] == [p.pk for p in players[:3]]


@pytest.mark.parametrize("way", ["header", "body"])
def test_a_repeated_api_rematch_key_answers_the_first_rematch(member, night, players, way):
    previous = finished(night, players[:3], "babel-on")
    client = api_for(member)
    headers = {"HTTP_IDEMPOTENCY_KEY": "k1"} if way == "header" else {}
    body = {"idempotency_key": "k1"} if way == "body" else {}
    url = f"/api/v1/sessions/{previous.pk}/rematch/"
    first, second = (client.post(url, body, format="json", **headers) for _ in range(2))
    assert (first.status_code, second.status_code) == (201, 200)  # 200: a replay, as the events' POST answers
    assert first.json()["id"] == second.json()["id"]
    assert GameSession.objects.count() == 2


def test_an_api_rematch_of_an_open_session_answers_400_naming_the_field(member, session):
    response = api_for(member).post(f"/api/v1/sessions/{session.pk}/rematch/", {}, format="json")
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "session"
    assert GameSession.objects.count() == 1
