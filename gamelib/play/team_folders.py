"""A class tournament's entries found in the submissions folder itself, one subfolder per team.

Where the folder has no ``entries.toml``, :func:`find_entries` reads it as a class hands bots in: each subfolder a
team (hidden ones skipped), holding one Python file with one bot class, a class with a ``choose`` method. The team
is the folder's name; the entry's name is that name made fit for a manifest (letters, digits, ``-``, ``_`` and
``.``, at most 40). A folder with no such file, or several files or classes to choose from, is an error naming it:
:func:`draft_manifest` then writes the ``entries.toml`` to review (``tournament FOLDER --init``), every team
filled in where its bot was found and marked ``# CHECK`` where a choice is left to the instructor.

The files are read as text and parsed (:mod:`ast`), never imported or run here: a submission runs only as a
tournament entry, boxed (:mod:`gamelib.play.entries`).
"""

from __future__ import annotations

import ast
import os
import re
from dataclasses import dataclass
from pathlib import Path

from gamelib.play.entries import MANIFEST, Entry, EntryError, load_entries

__all__ = ["MAX_TEAMS", "TeamBot", "draft_manifest", "find_entries", "team_bots"]

MAX_TEAMS = 1000
"""The most team folders read."""

_MAX_FILE_BYTES = 1 << 20
"""The largest Python file parsed for its bot classes."""


@dataclass(frozen=True)
class TeamBot:
    """What a team's folder holds: ``team`` its name, ``name`` the entry's, the ``files`` of Python found (paths
    relative to the submissions folder) and the bot ``classes`` of each (``file -> class names``); ``problem`` why
    no one bot can be chosen, or empty."""

    team: str
    name: str
    files: tuple[str, ...]
    classes: tuple[tuple[str, tuple[str, ...]], ...]
    problem: str = ""

    @property
    def choice(self) -> tuple[str, str] | None:
        """The one (file, class) to enter, or None."""
        found = [(file, name) for file, names in self.classes for name in names]
        return found[0] if len(found) == 1 and not self.problem else None


def team_bots(folder: str | Path) -> list[TeamBot]:
    """Every team folder of ``folder``, sorted by name, with what it holds. Raises EntryError for a folder that is
    not one, or holds no team folder, or more than :data:`MAX_TEAMS`."""
    root = Path(folder)
    if not root.is_dir():
        raise EntryError(f"{root} is not a folder: give the folder of submissions, a subfolder per team")
    with os.scandir(root) as scan:
        teams = sorted(entry.name for entry in scan if entry.is_dir(follow_symlinks=False)
                       and not entry.name.startswith("."))
    if not teams:
        raise EntryError(f"{root} has no {MANIFEST} and no team folders: give a subfolder per team, each with its "
                         f"bot's Python file, or describe the entries in {MANIFEST}")
    if len(teams) > MAX_TEAMS:
        raise EntryError(f"{root} has {len(teams):,} team folders: at most {MAX_TEAMS:,}")
    names: dict[str, int] = {}
    found = []
    for team in teams:
        base = _entry_name(team)
        names[base] = names.get(base, 0) + 1
        name = base if names[base] == 1 else f"{base[:37]}-{names[base]}"
        found.append(_team(root, team, name))
    return found


def _entry_name(team: str) -> str:
    """A team folder's name as an entry's: characters a manifest's name may not hold become ``-``."""
    name = re.sub(r"[^A-Za-z0-9_.-]+", "-", team).strip("-._")[:40]
    return name if name and name[0].isalnum() else f"team-{name}"[:40]


def _team(root: Path, team: str, name: str) -> TeamBot:
    files = sorted(str(path.relative_to(root)) for path in (root / team).rglob("*.py")
                   if path.is_file() and not path.is_symlink()
                   and not any(part.startswith(".") for part in path.relative_to(root).parts))
    classes = tuple((file, _bot_classes(root / file)) for file in files)
    with_bots = [(file, names) for file, names in classes if names]
    if not files:
        problem = "no Python file"
    elif not with_bots:
        problem = f"no bot class (a class with a choose method) in {', '.join(files[:5])}"
    elif len(with_bots) > 1 or len(with_bots[0][1]) > 1:
        problem = "several bot classes: " + "; ".join(f"{file}: {', '.join(names)}" for file, names in with_bots[:5])
    else:
        problem = ""
    return TeamBot(team, name, tuple(files), classes, problem)


def _bot_classes(path: Path) -> tuple[str, ...]:
    """The classes of the file ``path`` that define a ``choose`` method, by parsing it (never running it); none
    for a file too big, unreadable or not Python."""
    try:
        if path.stat().st_size > _MAX_FILE_BYTES:
            return ()
        tree = ast.parse(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, SyntaxError, ValueError, RecursionError):
        return ()
    return tuple(node.name for node in tree.body if isinstance(node, ast.ClassDef)
                 and any(isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) and item.name == "choose"
                         for item in node.body))


def find_entries(folder: str | Path) -> list[Entry]:
    """The entries of ``folder``: its ``entries.toml``'s (:func:`gamelib.play.entries.load_entries`) if it has
    one, else one a team folder, as the module's docstring says. Raises EntryError naming every team folder whose
    bot cannot be chosen (and telling to write a manifest with ``--init``), or as ``load_entries`` does."""
    root = Path(folder)
    if (root / MANIFEST).exists():
        return load_entries(root)
    teams = team_bots(root)
    unclear = [team for team in teams if team.choice is None]
    if unclear:
        raise EntryError(f"{root} has no {MANIFEST}, and no one bot could be chosen in "
                         + "; ".join(f"{team.team}/ ({team.problem})" for team in unclear[:10])
                         + f": write {MANIFEST} with tournament {root} --init, check it, then run again")
    if len(teams) < 2:
        raise EntryError(f"{root}: a tournament needs at least two team folders")
    entries = []
    for team in teams:
        file, class_name = team.choice or ("", "")
        real, inside = os.path.realpath(root / file), os.path.realpath(root)
        if os.path.commonpath([real, inside]) != inside:
            raise EntryError(f"{team.team}/: {file} resolves to {real}, outside the submissions folder {inside}")
        entries.append(Entry(name=team.name, team=team.team, file=real, class_name=class_name))
    return entries


def _quoted(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def draft_manifest(folder: str | Path) -> str:
    """The text of an ``entries.toml`` for ``folder``'s team folders: an ``[[entry]]`` a team, its file and class
    where one bot was found, else the candidates in comments and ``# CHECK``, for the instructor to review. Raises
    EntryError as :func:`team_bots` does."""
    lines = [f"# {MANIFEST} drafted by tournament --init from the team folders of {Path(folder).name}: review it,",
             "# settle every entry marked CHECK, then run the tournament. See docs/tournament.md.", ""]
    for team in team_bots(folder):
        lines += ["[[entry]]", f"name = {_quoted(team.name)}", f"team = {_quoted(team.team)}"]
        choice = team.choice
        if choice is not None:
            lines += [f"file = {_quoted(choice[0])}", f"class = {_quoted(choice[1])}"]
        else:
            lines.append(f"# CHECK: {team.problem}")
            candidates = [(file, name) for file, names in team.classes for name in names] or [(file, "Bot")
                                                                                            for file in team.files]
            for file, name in candidates[:10]:
                lines.append(f"# file = {_quoted(file)}    class = {_quoted(name)}")
        lines.append("")
    return "\n".join(lines)
