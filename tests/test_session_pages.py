"""Playing a session on its page: start, scores or places, finish, undo, abandon."""

import pytest

from scoring import session as core
from sessions import selectors, services
from sessions.models import GameSession, Result, SessionEvent


def post_scores(client, session, points, **extra):
    data = {"expected_version": session.version, "idempotency_key": extra.pop("key", "")}
    data.update({f"score_{seat.key}": value for seat, value in zip(session.seats.all(), points, strict=True)})
    data.update(extra)
    return client.post(f"/s/{session.pk}/scores/", data)


def do(client, session, action, key=""):
    session.refresh_from_db()
    return client.post(f"/s/{session.pk}/do/{action}/", {"expected_version": session.version, "idempotency_key": key})


@pytest.mark.parametrize(("who", "status"), [("owner", 200), ("member", 200), ("outsider", 404)])
def test_only_members_open_a_session(request, session, who, status):
    client = request.getfixturevalue(f"{who}_client")
    assert client.get(f"/s/{session.pk}/").status_code == status
    assert client.get(f"/s/{session.pk}/live/").status_code == status


@pytest.mark.parametrize("who", ["outsider"])
def test_an_outsider_cannot_write_to_a_session(request, session, who):
    client = request.getfixturevalue(f"{who}_client")
    assert do(client, session, "start").status_code == 404
    assert post_scores(client, session, [1, 2, 3]).status_code == 404
    assert not SessionEvent.objects.exists()


def test_a_table_enters_final_scores_finishes_and_sees_shared_ranks(member_client, session):
    do(member_client, session, "start")
    session.refresh_from_db()
    assert post_scores(member_client, session, [40, "30+12", 42]).status_code == 302
    do(member_client, session, "finish")
    session.refresh_from_db()
    assert session.status == core.FINISHED
    results = {r.player.name: (r.score, r.rank) for r in Result.objects.filter(session=session)}
    assert results == {"Ada": (40, 3), "Bruno": (42, 1), "Chiara": (42, 1)}  # TB-21: ties share the place
    page = member_client.get(f"/s/{session.pk}/").content.decode()
    assert "finished" in page
    log = member_client.get(f"/g/{session.group_id}/log/").content.decode()
    assert "Tower of Babel" in log
    assert "Bruno" in log


def test_the_finishing_order_alone_is_enough(member_client, session):
    seats = list(session.seats.all())
    data = {"expected_version": 0, **{f"place_{s.key}": place for s, place in zip(seats, [2, 1, 2], strict=True)}}
    member_client.post(f"/s/{session.pk}/places/", data)
    do(member_client, session, "finish")
    ranks = {r.player.name: (r.score, r.rank) for r in Result.objects.filter(session=session)}
    assert ranks == {"Ada": (None, 2), "Bruno": (None, 1), "Chiara": (None, 2)}


def test_seven_wonders_ties_are_broken_by_coins(member_client, night, players):  # SW-14
    session = services.create_session(night=night, game="seven-wonders", players=players[:3], secret="1")
    seats = list(session.seats.all())
    extra = {f"tiebreak_{s.key}": coins for s, coins in zip(seats, [3, 8, 1], strict=True)}
    post_scores(member_client, session, [50, 50, 40], **extra)
    do(member_client, session, "finish")
    ranks = {r.player.name: r.rank for r in Result.objects.filter(session=session)}
    assert ranks == {"Bruno": 1, "Ada": 2, "Chiara": 3}


def test_a_score_that_is_not_a_number_is_refused_naming_the_player(member_client, session):
    response = post_scores(member_client, session, [40, "lots", 42])
    assert response.status_code == 400
    assert "Enter a whole number or a sum like 3+4+2." in response.content.decode()
    assert not SessionEvent.objects.exists()


def test_finishing_without_scores_is_refused_with_the_reason(member_client, session):
    response = do(member_client, session, "finish")
    assert response.status_code == 400
    assert "Enter the scores or the finishing order first." in response.content.decode()
    assert not Result.objects.exists()


def test_undo_reverts_the_last_step_and_the_log_keeps_both(member_client, session):
    do(member_client, session, "start")
    session.refresh_from_db()
    post_scores(member_client, session, [1, 2, 3])
    do(member_client, session, "undo")
    session.refresh_from_db()
    assert session.status == core.PLAYING
    assert session.state["entry"]["scores"] is None
    # A Tower of Babel game started on the pages opens with the first player the app drew (TB-9).
    types = ["session.start", "tob.first_player", "scores.record", "undo"]
    assert list(session.events.values_list("type", flat=True)) == types


def test_abandoning_closes_the_session_without_results(member_client, session):
    do(member_client, session, "abandon")
    session.refresh_from_db()
    assert session.status == core.ABANDONED
    assert not Result.objects.exists()


def test_an_unknown_action_is_a_404(member_client, session):
    assert member_client.post(f"/s/{session.pk}/do/explode/", {"expected_version": 0}).status_code == 404


def test_htmx_requests_get_the_session_region_alone(member_client, session):
    response = member_client.get(f"/s/{session.pk}/", HTTP_HX_REQUEST="true")
    body = response.content.decode()
    assert response.status_code == 200
    assert body.startswith('<div id="session" ')
    assert "<html" not in body


def test_a_move_sent_by_htmx_is_answered_204_and_the_region_then_shows_it(member_client, session):
    response = member_client.post(
        f"/s/{session.pk}/do/start/", {"expected_version": 0, "idempotency_key": "h1"}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 204
    assert response.content == b""
    region = member_client.get(f"/s/{session.pk}/live/", HTTP_HX_REQUEST="true").content.decode()
    assert response["Babel-Version"] == "2"  # the start, and the first player the app drew (TB-9)
    assert 'data-version="2.' in region
    assert 'class="badge status-playing"' in region


def test_the_cached_state_always_equals_a_replay_of_the_log(member_client, session):
    do(member_client, session, "start")
    session.refresh_from_db()
    post_scores(member_client, session, [5, 6, 7])
    do(member_client, session, "undo")
    session.refresh_from_db()
    post_scores(member_client, session, [9, 6, 7])
    do(member_client, session, "finish")
    session = GameSession.objects.get(pk=session.pk)
    assert selectors.replayed_state(session) == session.state


def test_the_session_page_uses_a_bounded_number_of_queries(member_client, session, django_assert_max_num_queries):
    with django_assert_max_num_queries(15):
        assert member_client.get(f"/s/{session.pk}/").status_code == 200
