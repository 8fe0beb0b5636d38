"""The docs hold (issue 43): README.md and docs/*.md link only to what is there, and name only
commands and files that exist.

- A relative link (``[text](path#anchor)``, an image too) must lead to a file or folder of the
  repository, and its ``#anchor`` to a heading of the markdown file it names. http(s) and
  mailto links are left alone (no network); a link that leaves the repository (the shared
  rules, ``../shared/...``) is not the repository's to check.
- In code (fenced blocks and inline spans): ``make <target>`` must be a Makefile target,
  ``python -m bench.<name>`` a ``bench/<name>.py``, ``manage.py <command>`` a management
  command Django knows (its own, an installed app's, or ``sessions/management/commands/``),
  and a path under one of the repository's folders (``bench/x.py``, ``deploy/...``,
  ``sessions/...``; a ``*`` matches as a glob, ``path::test`` names a test in a file) must
  exist.
- docs/hosting.md's settings table names every environment variable babel_companion/settings.py
  reads, and nothing else.

Plain files only: no database, no server. The checker's own tests come last.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from django.core.management import get_commands

REPO = Path(__file__).resolve().parents[1]

# A path in code is checked when it starts with one of the repository's own folders.
FOLDERS = (
    ".ci/",
    "babel_companion/",
    "bench/",
    "deploy/",
    "docs/",
    "locale/",
    "requirements/",
    "scoring/",
    "sessions/",
    "static/",
    "templates/",
    "tests/",
)

FENCE = re.compile(r"^(\s*)(`{3,}|~{3,})")
INLINE_CODE = re.compile(r"(`+)(.+?)\1")
# [text](target) and ![alt](target); the target may be <bracketed> and followed by a "title".
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s.*)?$")
HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
# make at the start of a command (after an optional VAR=value), its target after any VAR=value.
MAKE = re.compile(r"(?:^|[;&|(]|\$\s)\s*(?:[A-Z_]+=\S*\s+)*make\s+(?:[A-Z_]+=\S*\s+)*([a-z][\w-]*)")
BENCH = re.compile(r"python3?\s+-m\s+bench\.(\w+)")
MANAGE = re.compile(r"manage\.py\s+([a-z][a-z0-9_]*)")


@dataclass(frozen=True)
class Problem:
    page: str
    line: int
    what: str

    def __str__(self) -> str:
        return f"{self.page}:{self.line}: {self.what}"


@dataclass(frozen=True)
class Page:
    path: Path
    text: list[tuple[int, str]]  # lines outside fenced blocks, as written
    prose: list[tuple[int, str]]  # the same, inline code blanked out
    inline_code: list[tuple[int, str]]  # each inline code span
    fenced_code: list[tuple[int, str]]  # each line of a fenced block

    @property
    def name(self) -> str:
        return str(self.path.relative_to(REPO)) if self.path.is_relative_to(REPO) else str(self.path)


def read_page(path: Path) -> Page:
    text: list[tuple[int, str]] = []
    prose: list[tuple[int, str]] = []
    inline: list[tuple[int, str]] = []
    fenced: list[tuple[int, str]] = []
    fence: str | None = None
    for number, line in enumerate(path.read_text().splitlines(), start=1):
        opened = FENCE.match(line)
        if fence is not None:
            if opened and opened.group(2)[0] == fence[0] and len(opened.group(2)) >= len(fence):
                fence = None
            else:
                fenced.append((number, line))
            continue
        if opened:
            fence = opened.group(2)
            continue
        text.append((number, line))
        inline.extend((number, match.group(2).strip()) for match in INLINE_CODE.finditer(line))
        prose.append((number, INLINE_CODE.sub(lambda match: " " * len(match.group(0)), line)))
    return Page(path, text, prose, inline, fenced)


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: the text of its links and code, lower case, without
    punctuation but hyphens and underscores, spaces as hyphens."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)
    text = re.sub(r"<[^>]+>", "", text).strip().lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    found: set[str] = set()
    seen: dict[str, int] = {}
    for _number, line in read_page(path).text:
        heading = HEADING.match(line)
        if heading:
            base = slug(heading.group(2))
            count = seen.get(base, 0)
            seen[base] = count + 1
            found.add(base if count == 0 else f"{base}-{count}")
    return found


def links(page: Page) -> Iterator[tuple[int, str]]:
    for number, line in page.prose:
        for match in LINK.finditer(line):
            yield number, match.group(1)
        reference = REFERENCE.match(line)
        if reference:
            yield number, reference.group(1)


def link_problems(page: Page, repo: Path = REPO) -> list[Problem]:
    problems = []
    for number, target in links(page):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.IGNORECASE):  # http:, https:, mailto:
            continue
        where, _hash, anchor = target.partition("#")
        path = (page.path.parent / where).resolve() if where else page.path
        if not path.is_relative_to(repo):
            continue
        if not path.exists():
            problems.append(Problem(page.name, number, f"links to {target}, which is not there"))
            continue
        if anchor and path.suffix == ".md" and anchor not in anchors(path):
            problems.append(Problem(page.name, number, f"links to #{anchor}, no heading of {path.name}"))
    return problems


def makefile_targets(makefile: Path) -> set[str]:
    targets: set[str] = set()
    for line in makefile.read_text().splitlines():
        rule = re.match(r"^([A-Za-z0-9_.\- ]+?)\s*:(?!=)", line)
        if rule:
            targets.update(rule.group(1).split())
    return targets


def code_lines(page: Page) -> Iterator[tuple[int, str]]:
    """Inline spans, then each line of the fenced blocks with its shell comment taken off."""
    yield from page.inline_code
    for number, line in page.fenced_code:
        yield number, re.sub(r"(^|\s)#.*$", "", line)


def path_exists(repo: Path, mention: str) -> bool:
    mention = mention.split("::", 1)[0].rstrip(".,;:)")
    if "*" in mention:
        return any(repo.glob(mention.rstrip("/")))
    return (repo / mention).exists()


def command_problems(page: Page, repo: Path = REPO, commands: frozenset[str] | None = None) -> list[Problem]:
    targets = makefile_targets(repo / "Makefile")
    known = frozenset(get_commands()) if commands is None else commands
    problems = []
    for number, code in code_lines(page):
        for match in MAKE.finditer(code):
            if match.group(1) not in targets:
                problems.append(Problem(page.name, number, f"make {match.group(1)}: no such Makefile target"))
        for name in BENCH.findall(code):
            if not (repo / "bench" / f"{name}.py").exists():
                problems.append(Problem(page.name, number, f"python -m bench.{name}: no bench/{name}.py"))
        for name in MANAGE.findall(code):
            if name not in known:
                problems.append(Problem(page.name, number, f"manage.py {name}: no such management command"))
        for token in code.split():
            word = token.strip("'\"()[],;")
            if re.search(r"[<>{}$=]", word):  # a placeholder (<game>), a variable, an option
                continue
            if word.startswith(FOLDERS) and not path_exists(repo, word):
                problems.append(Problem(page.name, number, f"{word}: not in the repository"))
    return problems


def pages() -> list[Path]:
    return [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]


@pytest.mark.parametrize("path", pages(), ids=lambda path: str(path.relative_to(REPO)))
def test_every_relative_link_leads_to_a_file_and_a_heading_that_are_there(path: Path) -> None:
    problems = link_problems(read_page(path))
    assert not problems, "\n".join(map(str, problems))


@pytest.mark.parametrize("path", pages(), ids=lambda path: str(path.relative_to(REPO)))
def test_every_command_and_path_in_code_exists(path: Path) -> None:
    problems = command_problems(read_page(path))
    assert not problems, "\n".join(map(str, problems))


def environment_variables_read(settings_file: Path) -> set[str]:
    text = settings_file.read_text()
    return set(re.findall(r"(?:os\.getenv|os\.environ\.get|envint|envbool|envstr|envlist)\(\s*\"([A-Z0-9_]+)\"", text))


def settings_table(page: Path) -> set[str]:
    """The names in the first column of the settings table (rows that start with a `NAME`)."""
    return set(re.findall(r"^\|\s*`([A-Z][A-Z0-9_]+)`\s*\|", page.read_text(), re.MULTILINE))


def test_the_settings_table_names_every_variable_the_settings_read_and_no_other() -> None:
    read = environment_variables_read(REPO / "babel_companion" / "settings.py")
    documented = settings_table(REPO / "docs" / "hosting.md")
    assert read, "no environment variable found in settings.py: has the way it reads them changed?"
    assert {"missing from docs/hosting.md": read - documented, "not read by settings.py": documented - read} == {
        "missing from docs/hosting.md": set(),
        "not read by settings.py": set(),
    }


# The checker itself: it must find what it is there to find.


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    write(tmp_path / "Makefile", ".PHONY: run test\nrun: setup\n\techo\ntest lint: setup\n\techo\nVAR := 1\n")
    write(tmp_path / "bench" / "moves.py", "")
    write(tmp_path / "sessions" / "health.py", "")
    write(
        tmp_path / "docs" / "hosting.md", "# Hosting\n\n## The venue box (no internet)\n\n## Health: `/health/ready`\n"
    )
    return tmp_path


def problems_of(repo: Path, text: str) -> list[str]:
    page = read_page(write(repo / "README.md", text))
    found = link_problems(page, repo) + command_problems(page, repo, frozenset({"migrate", "load_demo"}))
    return [problem.what for problem in found]


def test_the_checker_passes_links_commands_and_paths_that_are_there(repo: Path) -> None:
    text = """# Title

See [hosting](docs/hosting.md#the-venue-box-no-internet), [health](docs/hosting.md#health-healthready),
![a picture](docs/hosting.md), [the top](#title), [the web](https://example.org/x#y) and
[the shared rules](../shared/rules/README.md).

`make run`, make serve (prose: not checked), `sessions/health.py`, `bench/*.py`,
`sessions/health.py::test_it`, `.venue/ca/rootCA.pem`, `sessions/boards/<game>.py`.

```sh
make run    # and make nothing in a comment
DATABASE_URL=x make lint && .venv/bin/python -m bench.moves
.venv/bin/python manage.py migrate && python manage.py load_demo
```
"""
    assert problems_of(repo, text) == []


def test_the_checker_finds_a_broken_link_and_a_broken_anchor(repo: Path) -> None:
    assert problems_of(repo, "[gone](docs/gone.md) and [anchor](docs/hosting.md#production)\n") == [
        "links to docs/gone.md, which is not there",
        "links to #production, no heading of hosting.md",
    ]
    assert problems_of(repo, "# Title\n\n[here](#elsewhere)\n") == ["links to #elsewhere, no heading of README.md"]


def test_the_checker_finds_commands_and_paths_that_are_not_there(repo: Path) -> None:
    text = """`make serve` and `sessions/gone.py` and `bench/none_*.py`

```sh
make venue PORT=9443
.venv/bin/python -m bench.gone
.venv/bin/python manage.py collectall
cat deploy/probe
```
"""
    assert problems_of(repo, text) == [
        "make serve: no such Makefile target",
        "sessions/gone.py: not in the repository",
        "bench/none_*.py: not in the repository",
        "make venue: no such Makefile target",
        "python -m bench.gone: no bench/gone.py",
        "manage.py collectall: no such management command",
        "deploy/probe: not in the repository",
    ]


def test_the_settings_table_check_reads_every_kind_of_read(tmp_path: Path) -> None:
    settings_file = write(
        tmp_path / "settings.py",
        'A = os.getenv("A_URL", "")\nB = envint("B_COUNT", "1")\nC = envbool(\n    "C_ON", "false")\n',
    )
    assert environment_variables_read(settings_file) == {"A_URL", "B_COUNT", "C_ON"}
    page = write(
        tmp_path / "hosting.md", "| variable | default |\n| --- | --- |\n| `A_URL` | unset |\n| `B_COUNT` | 1 |\n"
    )
    assert settings_table(page) == {"A_URL", "B_COUNT"}
