"""Month names as dates write them ("27 novembre 2026").

Django's Italian catalog capitalises its month names ("27 Novembre 2026"), which Italian does
not: the project's catalog, read before Django's own, holds them in lower case (French writes
them so too, German capitalises them as nouns). They are marked here so that ``makemessages``
keeps them in the project's catalog; Django uses them through ``django.utils.dates.MONTHS``.
"""

from __future__ import annotations

from django.utils.translation import gettext_noop

MONTHS = (
    gettext_noop("January"),
    gettext_noop("February"),
    gettext_noop("March"),
    gettext_noop("April"),
    gettext_noop("May"),
    gettext_noop("June"),
    gettext_noop("July"),
    gettext_noop("August"),
    gettext_noop("September"),
    gettext_noop("October"),
    gettext_noop("November"),
    gettext_noop("December"),
)
