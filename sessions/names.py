"""Names people choose between on a screen: players, groups, and the places of game nights.

One set of rules for every way in (the pages' forms, the API's serializers, the services and
both imports), so that a name refused on one is refused on all:

- the text is normalised (NFKC: a full-width A, U+FF21, is an ``A``; a no-break space is a
  space) and its runs of spaces made one;
- control and invisible characters are refused (Unicode categories Cc, Cf, Zl, Zp, Co, Cs,
  Cn, and the fillers that are letters but draw nothing): ``Al\\u200bdo`` would show as
  ``Aldo``, and three zero-width spaces as nothing at all;
- two names are the same name when they are equal once case and look-alike characters are
  folded (``Aldo``, ``ALDO``, ``Aldo`` with a Cyrillic A, U+0410, ``AIdo`` with a capital i):
  on the phones' seat chooser they cannot be told apart.

Look-alike characters come from Unicode's confusables table (UTS #39) as the
``confusable_homoglyphs`` package ships it; the folding is UTS #39's *skeleton*.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable
from functools import cache
from itertools import count
from typing import Generic, TypeVar

from scoring.errors import RuleError, gettext_noop

T = TypeVar("T")

# Refusals, with ``{value}`` the name as typed (its invisible characters shown as [U+200B]).
INVISIBLE_IN_NAME = gettext_noop("A name cannot hold invisible or control characters: “{value}” has {characters}.")
INVISIBLE_IN_PLACE = gettext_noop("A place cannot hold invisible or control characters: “{value}” has {characters}.")
ONLY_INVISIBLE = gettext_noop("This name has only invisible characters: enter one that can be seen.")
EMPTY = gettext_noop("Enter a name.")
NAME_TOO_LONG = gettext_noop("A name has at most {limit} characters: “{value}” has {count}.")
PLACE_TOO_LONG = gettext_noop("A place has at most {limit} characters: “{value}” has {count}.")
# Two names of one list or file that fold to one.
LOOKS_ALIKE = gettext_noop("“{value}” looks the same as “{name}”: choose names that tell them apart.")

# Categories that draw nothing or are not text: controls (Cc), format characters such as the
# zero-width space, joiners and direction marks (Cf), line and paragraph separators (Zl, Zp),
# private-use (Co), surrogates (Cs) and unassigned code points (Cn).
REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp", "Co", "Cs", "Cn"})
# Characters of other categories that draw nothing: the Hangul fillers (letters, Lo), the blank
# braille pattern (a symbol), the combining grapheme joiner and the variation selectors (marks).
INVISIBLE = frozenset(
    {"\u115f", "\u1160", "\u3164", "\uffa0", "\u2800", "\u034f", "\u180b", "\u180c", "\u180d", "\u180f"}
    | {chr(code) for code in range(0xFE00, 0xFE10)}
    | {chr(code) for code in range(0xE0100, 0xE01F0)}
)
# Text and emoji presentation selectors, kept after a symbol (``❤️`` is U+2764 U+FE0F): they
# choose how that symbol is drawn, and the folding leaves them out.
PRESENTATION = frozenset({"\ufe0e", "\ufe0f"})


@cache
def prototypes() -> dict[str, str]:
    """Each look-alike character to its representative (UTS #39's prototype).

    The package keeps Unicode's table both ways: a character confused with one prototype lists
    that one alone; a prototype lists the characters that look like it. Unicode's comment
    column, which the package read, wraps right-to-left characters in left-to-right marks.
    Read at the first name compared, not at start-up: the package reads its table (1 MB of
    JSON) when imported.
    """
    from confusable_homoglyphs import confusables  # type: ignore[import-untyped]  # ships no types

    marks = "\u200e"
    listed: dict[str, list[str]] = {}
    for key, found in confusables.confusables_data.items():
        listed.setdefault(key.strip(marks), []).extend(entry["c"].strip(marks) for entry in found)

    def representative(char: str) -> str:
        others = listed.get(char)
        if not others or len(others) > 1:  # no look-alike, or a prototype of several
            return char
        other = others[0]
        if len(other) > 1 or len(listed.get(other, ())) > 1:  # ``m`` looks like ``rn``; U+0410 like ``A``
            return other
        return min(char, other)  # a lone pair: either stands for both, the same from each side

    table: dict[str, str] = {}
    for key in listed:
        if len(key) == 1:
            found = representative(key)
            # A prototype of several characters is itself written with prototypes (``rn``).
            found = found if len(found) == 1 else "".join(representative(part) for part in found)
            if found != key:
                table[key] = found
    return table


def normalised(text: str) -> str:
    """NFKC, with each run of white space one space and none at either end."""
    return " ".join(unicodedata.normalize("NFKC", text).split())


def refused_characters(text: str) -> list[str]:
    """The control and invisible characters of ``text``, each once, in order."""
    found: list[str] = []
    for index, char in enumerate(text):
        kept = char in PRESENTATION and index > 0 and unicodedata.category(text[index - 1]) == "So"
        if not kept and (char in INVISIBLE or unicodedata.category(char) in REFUSED_CATEGORIES) and char not in found:
            found.append(char)
    return found


def _code(char: str) -> str:
    return f"U+{ord(char):04X}"


def _described(char: str) -> str:
    name = unicodedata.name(char, "")
    return f"{_code(char)} {name}" if name else _code(char)


def shown(text: str) -> str:
    """``text`` with its control and invisible characters written as [U+200B]: what a
    refusal quotes, so that the reader sees where they are."""
    refused = set(refused_characters(text))
    return "".join(f"[{_code(char)}]" if char in refused else char for char in text)


def clean_name(value: str, *, field: str, limit: int, place: bool = False) -> str:
    """The name as kept, or a RuleError naming ``field`` and what is wrong with it.

    ``place``: the place of a game night, which may be left blank."""
    # Controls are looked for before the white space is made one space: a tab or a line
    # separator inside a name is refused, not turned into a space without a word.
    text = unicodedata.normalize("NFKC", value).strip()
    refused = refused_characters(text)
    if refused and not place and not "".join(char for char in text if char not in refused).strip():
        raise RuleError(ONLY_INVISIBLE, field=field)
    if refused:
        raise RuleError(
            INVISIBLE_IN_PLACE if place else INVISIBLE_IN_NAME,
            field=field,
            params={"value": shown(text), "characters": ", ".join(_described(char) for char in refused)},
        )
    text = " ".join(text.split())
    if not text and not place:
        raise RuleError(EMPTY, field=field)
    if len(text) > limit:  # checked after NFKC, which can lengthen a name (one ligature, several letters)
        raise RuleError(
            PLACE_TOO_LONG if place else NAME_TOO_LONG,
            field=field,
            params={"limit": limit, "value": text, "count": len(text)},
        )
    return text


def _skeleton(text: str) -> str:
    decomposed = unicodedata.normalize("NFD", text)
    table = prototypes()
    return unicodedata.normalize("NFD", "".join(table.get(char, char) for char in decomposed))


def fold_keys(name: str) -> frozenset[str]:
    """What two names that cannot be told apart have in common (they share a key).

    Case is folded before the look-alikes (``ALDO`` is ``aldo``) and after them too: ``AIdo``
    with a capital i is ``Aldo`` only while the case is kept, as a capital i is drawn like a
    small L."""
    text = "".join(char for char in normalised(name) if char not in PRESENTATION)
    return frozenset({_skeleton(text.casefold()), _skeleton(_skeleton(text).casefold())})


def same_but_case(one: str, other: str) -> bool:
    """Whether the two names differ at most in case: a duplicate rather than a look-alike."""
    return normalised(one).casefold() == normalised(other).casefold()


class NameIndex(Generic[T]):
    """Things by their name, found again by any name that cannot be told apart from it."""

    def __init__(self, items: Iterable[tuple[str, T]] = ()) -> None:
        self._by_key: dict[str, tuple[int, str, T]] = {}
        self._added = 0
        for name, item in items:
            self.add(name, item)

    def add(self, name: str, item: T) -> None:
        self._added += 1
        for key in fold_keys(name):
            self._by_key.setdefault(key, (self._added, name, item))

    def find(self, name: str) -> tuple[str, T] | None:
        """The (name, thing) first added that looks like ``name``, or None (the first, whatever
        order a name's keys come in: "Ian" looks like both "ian" and "lan")."""
        found = [self._by_key[key] for key in fold_keys(name) if key in self._by_key]
        if not found:
            return None
        _added, other, item = min(found, key=lambda entry: entry[0])
        return other, item

    def __contains__(self, name: str) -> bool:
        return self.find(name) is not None


def twin(name: str, others: Iterable[tuple[str, T]]) -> tuple[str, T] | None:
    """The first of ``others`` (name, thing) that cannot be told apart from ``name``."""
    keys = fold_keys(name)
    return next(((other, item) for other, item in others if keys & fold_keys(other)), None)


def numbered(name: str, *, taken: Callable[[str], bool], limit: int) -> str:
    """``name (2)``, or the first of ``name (3)``, ``name (4)`` ... that is not ``taken``; the
    name is shortened to keep it within ``limit`` with its number."""
    for number in count(2):
        suffix = f" ({number})"
        candidate = name[: limit - len(suffix)].rstrip() + suffix
        if not taken(candidate):
            return candidate
    raise AssertionError("unreachable")  # count() never ends
