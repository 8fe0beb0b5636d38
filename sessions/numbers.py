"""Numbers typed into the pages' forms, parsed one way everywhere.

Only ASCII digits count (``int()`` would also take ``٣`` and fail on ``²``, which
``str.isdigit()`` lets through), and at most ``MAX_DIGITS`` of them (``int()`` refuses a
string of more than 4,300 digits with a ValueError): anything else is not a number here,
so the caller refuses it naming its field instead of answering 500.
"""

from __future__ import annotations

import re

# Enough for any count or score at the table; far below int()'s 4,300-digit limit.
MAX_DIGITS = 9

_WHOLE = re.compile(rf"[0-9]{{1,{MAX_DIGITS}}}", re.ASCII)
_SUM = re.compile(rf"\s*[+-]?\s*[0-9]{{1,{MAX_DIGITS}}}(\s*[+-]\s*[0-9]{{1,{MAX_DIGITS}}})*\s*", re.ASCII)
_TERM = re.compile(rf"([+-]?)\s*([0-9]{{1,{MAX_DIGITS}}})", re.ASCII)
# A sum of more terms than this is not something typed at a table.
MAX_TERMS = 50


def whole(raw: str | None) -> int | None:
    """``" 12 "`` → 12; None for anything but up to MAX_DIGITS ASCII digits."""
    text = (raw or "").strip()
    return int(text) if _WHOLE.fullmatch(text) else None


def whole_or_text(raw: str | None) -> int | str:
    """A typed count, or the text as it was (stripped) for the engine to refuse by name."""
    number = whole(raw)
    return (raw or "").strip() if number is None else number


def parse_sum(text: str) -> int | None:
    """``3+4+2`` → 9, ``-2`` → -2; None for anything else."""
    if not _SUM.fullmatch(text):
        return None
    terms = _TERM.findall(text)
    if len(terms) > MAX_TERMS:
        return None
    return sum(-int(digits) if sign == "-" else int(digits) for sign, digits in terms)
