"""A class tournament found in its folder: a subfolder per team with one bot file, no manifest written by hand;
``tournament --init`` drafts the manifest where a choice is left to the instructor. Files are parsed, never run."""

from __future__ import annotations

from pathlib import Path

import pytest

from gamelib.cli import main
from gamelib.play.entries import MANIFEST, EntryError, load_entries
from gamelib.play.team_folders import draft_manifest, find_entries, team_bots

BOT = "from gamelib.play.bots.base import RandomBot\n\n\nclass {name}(RandomBot):\n    def choose(self, game, state, seconds):\n        return super().choose(game, state, seconds)\n"


def team_folder(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def test_one_bot_a_team_folder_makes_the_entries(tmp_path: Path) -> None:
    root = team_folder(tmp_path / "class", {"Team 1/bot.py": BOT.format(name="Greedy"),
                                           "ada/src/my_bot.py": "import math\n" + BOT.format(name="Ada"),
                                           "ada/README.md": "notes", ".hidden/x.py": BOT.format(name="No")})
    entries = {entry.name: entry for entry in find_entries(root)}
    assert set(entries) == {"Team-1", "ada"}
    assert (entries["Team-1"].team, entries["Team-1"].class_name) == ("Team 1", "Greedy")
    assert entries["ada"].file == str((root / "ada/src/my_bot.py").resolve()) and entries["ada"].class_name == "Ada"


def test_teams_without_one_bot_are_named_and_init_is_suggested(tmp_path: Path) -> None:
    root = team_folder(tmp_path / "class", {"a/bot.py": BOT.format(name="A"),
                                           "b/one.py": BOT.format(name="B1"), "b/two.py": BOT.format(name="B2"),
                                           "c/helper.py": "def f():\n    return 1\n", "d/notes.txt": "none"})
    with pytest.raises(EntryError) as error:
        find_entries(root)
    said = str(error.value)
    assert "b/ (several bot classes" in said and "c/ (no bot class" in said and "d/ (no Python file)" in said
    assert "--init" in said and "a/" not in said.split("chosen in")[1]


def test_init_drafts_a_manifest_to_review_and_never_overwrites(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    root = team_folder(tmp_path / "class", {"a/bot.py": BOT.format(name="A"), "b/one.py": BOT.format(name="B1"),
                                           "b/two.py": BOT.format(name="B2")})
    assert main(["tournament", str(root), "--init"]) == 0
    text = (root / MANIFEST).read_text(encoding="utf-8")
    assert "1 marked CHECK" in capsys.readouterr().out and text.count("[[entry]]") == 2 and "# CHECK" in text
    assert main(["tournament", str(root), "--init"]) == 2 and "exists" in capsys.readouterr().err
    settled = text.replace('# file = "b/one.py"    class = "B1"', 'file = "b/one.py"\nclass = "B1"')
    (root / MANIFEST).write_text(settled, encoding="utf-8")
    assert [(entry.name, entry.class_name) for entry in load_entries(root)] == [("a", "A"), ("b", "B1")]


def test_a_clear_draft_loads_as_the_found_entries(tmp_path: Path) -> None:
    root = team_folder(tmp_path / "class", {"x/bot.py": BOT.format(name="X"), "y/bot.py": BOT.format(name="Y")})
    found = find_entries(root)
    (root / MANIFEST).write_text(draft_manifest(root), encoding="utf-8")
    assert load_entries(root) == found


def test_the_files_are_parsed_never_run(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    root = team_folder(tmp_path / "class", {
        "a/bot.py": f"open({str(marker)!r}, 'w').close()\n" + BOT.format(name="A"),
        "b/bot.py": "raise SystemExit(3)\n" + BOT.format(name="B")})
    assert [team.choice for team in team_bots(root)] == [("a/bot.py", "A"), ("b/bot.py", "B")]
    assert not marker.exists()


def test_a_tournament_without_out_is_one_line_and_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = team_folder(tmp_path / "class", {"x/bot.py": BOT.format(name="X"), "y/bot.py": BOT.format(name="Y")})
    assert main(["tournament", str(root)]) == 2 and "needs --out" in capsys.readouterr().err
