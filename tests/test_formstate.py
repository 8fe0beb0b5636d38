"""A refused or stale form comes back as typed, with each message on its field."""

from django.http import QueryDict

from sessions.formstate import input_for, keep_typed

PAGE = """<form id="other"><input name="own_camel" value="0"></form>
<form method="post" id="sheet-3">
  <input type="hidden" name="expected_version" value="9"><input type="hidden" name="form" value="sheet-3">
  <label>Coins <input name="coins" value="" inputmode="tel"></label>
  <label>Civil <input name="civil" value="4"></label>
  <input type="checkbox" name="trading"> <input type="checkbox" name="triple" checked>
  <input type="radio" name="call" value="even"><input type="radio" name="call" value="odd">
  <select name="spot_0"><option value="">—</option>
    <option value="1-nw" selected>1 nw</option><option value="1-ne">1 ne</option></select>
  <textarea name="note" rows="2">old</textarea>
</form>"""


def posted(**values: str) -> QueryDict:
    data = QueryDict(mutable=True)
    for key, value in values.items():
        data[key] = value
    return data


def test_it_fills_the_sent_form_with_what_was_typed_and_leaves_the_others_alone():
    data = posted(coins="3+x", civil="12", trading="on", call="odd", spot_0="1-ne", note="a <b>block</b> fell")
    html = keep_typed(PAGE, form="sheet-3", data=data)
    assert html is not None
    assert '<input name="coins" value="3+x" inputmode="tel">' in html
    assert '<input name="civil" value="12">' in html
    assert '<input type="checkbox" name="trading" checked>' in html
    assert '<input type="checkbox" name="triple">' in html  # not sent: unticked
    assert '<input type="radio" name="call" value="odd" checked>' in html
    assert '<input type="radio" name="call" value="even">' in html
    assert '<option value="1-ne" selected>' in html
    assert '<option value="1-nw">' in html
    assert "a &lt;b&gt;block&lt;/b&gt; fell</textarea>" in html
    assert '<form id="other"><input name="own_camel" value="0"></form>' in html


def test_hidden_fields_keep_what_the_server_rendered():
    html = keep_typed(PAGE, form="sheet-3", data=posted(expected_version="2", form="sheet-3"))
    assert html is not None
    assert 'name="expected_version" value="9"' in html


def test_a_message_goes_right_after_its_field_and_marks_it_invalid():
    html = keep_typed(PAGE, form="sheet-3", data=posted(coins="3+x"), errors={"coins": "Enter a whole number."})
    assert html is not None
    assert (
        '<input name="coins" value="3+x" inputmode="tel" aria-invalid="true" aria-describedby="sheet-3-coins-error">'
        '<span class="error" role="alert" id="sheet-3-coins-error">Enter a whole number.</span>'
    ) in html


def test_a_message_goes_to_the_first_of_its_fields_that_the_form_has():
    html = keep_typed(PAGE, form="sheet-3", data=posted(), errors={"bonus_0 spot_0": "That cell is taken."})
    assert html is not None
    assert '</select><span class="error" role="alert" id="sheet-3-spot_0-error">That cell is taken.</span>' in html
    assert html.count("That cell is taken.") == 1


def test_a_message_for_no_field_of_the_form_heads_the_form():
    html = keep_typed(PAGE, form="sheet-3", data=posted(), errors={"offers": "Offer once."}, form_errors=["Stale."])
    assert html is not None
    start = html.index('<form method="post" id="sheet-3" data-dirty="true">')
    messages = '<p class="msg error" role="alert">Stale.</p><p class="msg error" role="alert">Offer once.</p>'
    assert html[start:].index(messages) < 80


def test_the_form_is_marked_as_being_filled_in():
    html = keep_typed(PAGE, form="sheet-3", data=posted())
    assert html is not None
    assert 'id="sheet-3" data-dirty="true"' in html


def test_a_form_that_is_not_on_the_page_gives_nothing():
    assert keep_typed(PAGE, form="gone", data=posted()) is None
    assert keep_typed(PAGE, form="", data=posted()) is None


def test_an_engine_field_maps_to_its_input():
    patterns = [(r"own\.(\w+)", r"own_\1"), (r"offers\.(\w+)\.cards\.(\w+)", r"offer_\1_\2 offer_\2")]
    assert input_for(patterns, "own.camel") == "own_camel"
    assert input_for(patterns, "offers.3.cards.ship") == "offer_3_ship offer_ship"
    assert input_for(patterns, "jokers") == "jokers"


BOXES = """<form method="post" id="end-age">
  <label class="check"><input type="checkbox" name="cannot_suffer_a"> Ada</label>
  <label class="check"><input type="checkbox" name="cannot_suffer_b"> Bruno</label>
  <label><input type="radio" name="call" value="even"> even</label>
  <label><input type="radio" name="call" value="odd"> odd</label>
  <input type="checkbox" name="bare">
  <label>Note <input name="note"></label>
</form>"""


def test_a_checkbox_s_message_goes_after_its_whole_label_never_between_the_box_and_its_words():
    html = keep_typed(BOXES, form="end-age", data=posted(), errors={"cannot_suffer_a": "Ada has a marker."})
    assert html is not None
    assert (
        '<input type="checkbox" name="cannot_suffer_a" aria-invalid="true"'
        ' aria-describedby="end-age-cannot_suffer_a-error"> Ada</label>'
        '<span class="error" role="alert" id="end-age-cannot_suffer_a-error">Ada has a marker.</span>'
    ) in html


def test_a_radio_group_s_message_goes_after_the_last_radio_of_the_group():
    html = keep_typed(BOXES, form="end-age", data=posted(call="odd"), errors={"call": "Call even or odd."})
    assert html is not None
    assert ' odd</label><span class="error" role="alert" id="end-age-call-error">Call even or odd.</span>' in html
    assert html.count("Call even or odd.") == 1


def test_a_box_without_a_label_and_a_typed_field_keep_their_message_right_after_them():
    errors = {"bare": "Tick it.", "note": "Say what happened."}
    html = keep_typed(BOXES, form="end-age", data=posted(), errors=errors)
    assert html is not None
    assert 'aria-describedby="end-age-bare-error"><span class="error" role="alert" id="end-age-bare-error">' in html
    assert 'aria-describedby="end-age-note-error"><span class="error" role="alert" id="end-age-note-error">' in html
