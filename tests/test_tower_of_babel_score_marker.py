"""One of each player's 20 building parts marks the score (TB-5; seed 000: "20 parti di
costruzione di quel colore (ne verrà utilizzato uno come segnapunti)"), so a player can have
at most 14 parts of 1 and 5 of 3, 29 by value, on the wonders at once."""

from scoring.tower_of_babel import engine as tob
from scoring.tower_of_babel.table import load_table
from tests.test_tower_of_babel_engine import SHIP5, build, game, refused


def with_red_parts_on_babel(value):
    state = game(SHIP5)
    return {**state, "wonders": {**state["wonders"], "babel": {**state["wonders"]["babel"], "parts": {"red": value}}}}


def test_tb_5_the_parts_in_play_leave_out_the_score_marker():
    assert load_table().parts_in_play == 29


def test_tb_5_a_player_can_place_twenty_nine_parts_but_not_thirty():
    state = build(with_red_parts_on_babel(24), "pyramids", own={"ship": 5})
    assert state["wonders"]["pyramids"]["parts"] == {"red": 5}
    error = refused(
        with_red_parts_on_babel(25), tob.BUILD, "TB-5", wonder="pyramids", disc="pyramids-0", own={"ship": 5}
    )
    assert "29" in error.message
