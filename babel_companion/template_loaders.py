"""Template loaders that drop the templates' indentation as they read them.

A live region is sent to every device at each move, and a third of a board's HTML was the
indentation of its templates. HTML shows a run of white space as one space, so a line's
leading spaces and blank lines change nothing on screen; the templates keep no literal text
across lines inside <pre> or <textarea>, and ``{% blocktranslate %}`` texts that span lines are
``trimmed``, so their message ids are the ones ``makemessages`` extracts.
"""

from __future__ import annotations

import re

from django.template import Origin
from django.template.loaders import app_directories, filesystem

INDENTATION = re.compile(r"\n\s+")  # a line break, and the blank lines and indentation after it


def without_indentation(source: str) -> str:
    return INDENTATION.sub("\n", source)


class FilesystemLoader(filesystem.Loader):
    def get_contents(self, origin: Origin) -> str:
        return without_indentation(super().get_contents(origin))


class AppDirectoriesLoader(app_directories.Loader):
    def get_contents(self, origin: Origin) -> str:
        return without_indentation(super().get_contents(origin))
