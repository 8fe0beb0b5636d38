"""Dates name their month as each language writes it: lower case in Italian and French,
capitalised in German (issue 39, point 10)."""

from __future__ import annotations

import datetime

import pytest
from django.utils import translation
from django.utils.formats import date_format

from sessions.month_names import MONTHS


@pytest.mark.parametrize(
    ("language", "written"),
    [("it", "27 novembre 2026"), ("fr", "27 novembre 2026"), ("de", "27. November 2026")],
)
def test_a_night_s_date_names_its_month_as_the_language_writes_it(language, written):
    with translation.override(language):
        assert date_format(datetime.date(2026, 11, 27), "DATE_FORMAT") == written


@pytest.mark.parametrize("month", range(1, 13))
def test_no_italian_month_is_capitalised(month):
    with translation.override("it"):
        shown = date_format(datetime.date(2026, month, 3), "DATE_FORMAT").split()[1]
        assert shown == translation.gettext(MONTHS[month - 1])  # the project's name of the month
    assert shown.islower(), shown
