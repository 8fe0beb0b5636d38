import pytest

from scoring.errors import RuleError
from sessions.games import BABEL_CUBES, BABEL_ON, GAMES, SEVEN_WONDERS, TOWER_OF_BABEL, get_game


def test_the_registry_lists_the_four_games():
    assert set(GAMES) == {TOWER_OF_BABEL, BABEL_ON, SEVEN_WONDERS, BABEL_CUBES}


@pytest.mark.parametrize(
    ("game", "fits", "refused", "rule"),
    [
        (TOWER_OF_BABEL, [3, 4, 5], [2, 6], "TB-1"),  # TB-1: 3 to 5 players
        (BABEL_ON, [2, 6], [1, 7], "BO-1"),  # BO-1: 2 to 6 players
        (SEVEN_WONDERS, [2, 7], [1, 8], "SW-1"),  # SW-1: 2 to 7 without Cities
        (BABEL_CUBES, [2], [1, 3], "BC-1"),  # BC-1: two players
    ],
)
def test_player_counts_follow_the_rules(game, fits, refused, rule):
    spec = get_game(game)
    for count in fits:
        spec.check_player_count(count, spec.clean_options({}))
    for count in refused:
        with pytest.raises(RuleError) as error:
            spec.check_player_count(count, spec.clean_options({}))
        assert error.value.rule == rule
        assert error.value.field == "seats"


def test_an_eighth_seven_wonders_player_needs_cities():  # SW-1
    spec = get_game(SEVEN_WONDERS)
    spec.check_player_count(8, spec.clean_options({"cities": True}))


def test_options_default_and_refuse_unknown_names_and_values():
    spec = get_game(BABEL_CUBES)
    assert spec.clean_options({}) == {"type2": "adjacent", "type3": "corner"}  # BC-2 default geometry
    with pytest.raises(RuleError) as unknown:
        spec.clean_options({"type5": "x"})
    assert unknown.value.field == "options.type5"
    with pytest.raises(RuleError) as bad_value:
        spec.clean_options({"type2": "diagonal"})
    assert bad_value.value.field == "options.type2"


def test_a_switch_option_takes_only_yes_or_no():
    with pytest.raises(RuleError):
        get_game(TOWER_OF_BABEL).clean_options({"action_cards": "maybe"})


def test_an_unknown_game_is_refused():
    with pytest.raises(RuleError) as error:
        get_game("monopoly")
    assert error.value.field == "game"


def test_seven_wonders_breaks_ties_on_coins():  # SW-14
    assert get_game(SEVEN_WONDERS).entry.tiebreak == "coins"
    assert str(get_game(SEVEN_WONDERS).tiebreak_label) == "coins"


def test_a_game_for_exactly_two_says_so():  # BC-1
    with pytest.raises(RuleError) as error:
        get_game(BABEL_CUBES).check_player_count(3, {})
    assert error.value.message == "babel is played by exactly 2 players."


def test_tower_of_babel_ties_are_shared():  # TB-21
    assert get_game(TOWER_OF_BABEL).entry.tiebreak is None
