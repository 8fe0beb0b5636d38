"""A group's edition table keeps to the rules (TB-4, TB-6, TB-8): a single disc demands 3 to 6
cards, a two-kind disc at least one card of each of its kinds, the two-kind variant needs a
single disc of 5 per kind to take out, and a row's first value is not below its second. What
the table accepts, every session deals without a crash (on the pages and through the API)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from scoring.errors import RuleError
from scoring.tower_of_babel.discs import deal
from scoring.tower_of_babel.engine import TowerOfBabel
from scoring.tower_of_babel.table import load_table
from sessions import services
from sessions.api.tokens import create_api_token
from sessions.models import GameSession

URL = "/g/{}/tables/tower-of-babel/"
ROWS = [[8, 4], [10, 5], [12, 6], [14, 7], [16, 8], [18, 9], [20, 10]]


def refused_table(overrides, rule, field):
    with pytest.raises(RuleError) as error:
        load_table(overrides)
    assert (error.value.rule, error.value.field) == (rule, field), error.value.message
    return error.value


def test_tb_8_an_edition_table_without_a_five_is_refused_when_saved(group):
    with pytest.raises(RuleError) as error:
        services.set_edition_table(
            group=group, game="tower-of-babel", overrides={"single_disc_numbers": [3, 3, 4, 4, 6, 6]}
        )
    assert (error.value.rule, error.value.field) == ("TB-8", "single_disc_numbers")
    group.refresh_from_db()
    assert group.edition_tables == {}


def test_tb_8_the_edition_page_says_why_a_table_without_a_five_is_refused(owner_client, group):
    data = {f"single_disc_numbers.{i}": str(n) for i, n in enumerate([3, 3, 4, 4, 6, 6])}
    response = owner_client.post(URL.format(group.pk), data)
    assert response.status_code == 400
    assert "(rule TB-8)" in response.content.decode()


def api_for(user):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {create_api_token(user=user, name='tests')[1]}")
    return client


def test_tb_8_a_stored_table_without_a_five_answers_400_on_session_create_not_500(member, group, night, players):
    # A table saved before the check existed: the two-kind variant cannot take out a 5.
    group.edition_tables = {"tower-of-babel": {"single_disc_numbers": [3, 3, 4, 4, 6, 6]}}
    group.save(update_fields=["edition_tables"])
    response = api_for(member).post(
        f"/api/v1/nights/{night.pk}/sessions/",
        {"game": "tower-of-babel", "players": [p.pk for p in players[:3]], "options": {"two_kind_discs": True}},
        format="json",
    )
    assert response.status_code == 400
    assert response.json()["errors"][0]["rule"] == "TB-8"
    assert not GameSession.objects.exists()


@pytest.mark.parametrize(
    ("numbers", "index"), [([0, 4, 4, 5, 5, 6], 0), ([3, 4, 4, 5, 5, 7], 5), ([2, 4, 4, 5, 5, 6], 0)]
)
def test_tb_4_a_single_disc_demands_three_to_six_cards(numbers, index):
    refused_table({"single_disc_numbers": numbers}, "TB-4", f"single_disc_numbers[{index}]")


def test_tb_4_a_two_kind_disc_demands_one_to_six_cards_of_each_kind():
    discs = [
        {"camel": 2, "stonemason": 3},
        {"crane": 0, "ship": 3},
        {"ship": 2, "camel": 3},
        {"stonemason": 2, "crane": 3},
    ]
    refused_table({"two_kind_discs": discs}, "TB-4", "two_kind_discs[1].crane")
    discs[1] = {"crane": 7, "ship": 3}
    refused_table({"two_kind_discs": discs}, "TB-4", "two_kind_discs[1].crane")


def test_tb_4_the_edition_page_refuses_a_disc_of_no_cards(owner_client, group):
    response = owner_client.post(URL.format(group.pk), {"single_disc_numbers.0": "0"})
    assert response.status_code == 400
    assert "(rule TB-4)" in response.content.decode()
    group.refresh_from_db()
    assert group.edition_tables == {}


def test_tb_6_a_row_whose_first_value_is_below_its_second_is_refused():
    rows = [list(row) for row in ROWS]
    rows[2] = [6, 12]
    refused_table({"rows": rows}, "TB-6", "rows[2]")


def test_tb_4_tb_8_a_table_within_the_rules_is_still_accepted():
    table = load_table({"single_disc_numbers": [3, 3, 5, 5, 6, 6], "rows": [[8, 4], [10, 5], *[[9, 9]] * 5]})
    assert table.single_disc_numbers == (3, 3, 5, 5, 6, 6)


@settings(max_examples=200, deadline=None)
@given(
    numbers=st.lists(st.integers(0, 100), min_size=6, max_size=6),
    pairs=st.lists(st.tuples(st.integers(0, 100), st.integers(0, 100)), min_size=3, max_size=3),
    variant=st.booleans(),
    seed=st.integers(0, 2**48),
)
def test_tb_8_every_table_the_group_may_save_deals_a_session(numbers, pairs, variant, seed):
    two_kind = [{"camel": 2, "stonemason": 3}] + [
        {a: x, b: y}
        for (a, b), (x, y) in zip([("crane", "ship"), ("ship", "camel"), ("stonemason", "crane")], pairs, strict=True)
    ]
    overrides = {"single_disc_numbers": numbers, "two_kind_discs": two_kind}
    try:
        table = load_table(overrides)
    except RuleError:
        return
    board = deal(table, two_kind_variant=variant, seed=seed)
    assert sum(len(discs) for discs in board.values()) == 24
    state = TowerOfBabel().initial_state(
        seats=["a", "b", "c"], options={"table": overrides, "two_kind_discs": variant}, seed=seed
    )
    assert all(sum(d["demand"].values()) >= 3 for d in state["discs"].values())
