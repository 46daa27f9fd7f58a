"""A class tournament where no process can start (a browser): file entries play in the kernel under a step budget
(gamelib.play.kernel_entry), giving the same games as the desktop's processes on a schedule whose entries keep well
inside their time; an endless loop loses by timeout on its steps, whatever the clock says."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

import gamelib.play.arena as arena
import gamelib.play.tournament as tournament
from gamelib.games.data import DATA_DIR
from gamelib.play.entries import course_entry, load_entries
from gamelib.play.kernel_entry import SETUP_STEPS, KernelEntryBot
from gamelib.play.tournament import run_tournament

SUBMISSIONS = DATA_DIR / "class_tournament"


def deterministic_entries() -> list:  # type: ignore[type-arg]
    """Lesson 10's three files and the random bot (seeded): none depends on the clock."""
    files = [entry for entry in load_entries(SUBMISSIONS) if entry.kind == "file"]
    return [*files, course_entry("random")]


def games(records: object) -> list[tuple[object, ...]]:
    return [(r.index, r.x, r.o, r.moves, r.result, r.reason, r.forfeit) for r in records]  # type: ignore[attr-defined]


@pytest.mark.slow
def test_the_kernel_plays_the_games_the_processes_play(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    options = dict(games=2, rounds=3, seconds=0.2, seed=4, progress=False)
    desktop = run_tournament(deterministic_entries(), out=tmp_path / "processes", workers=2, **options)  # type: ignore[arg-type]
    monkeypatch.setattr(arena, "in_browser", lambda: True)
    monkeypatch.setattr(tournament, "in_browser", lambda: True)
    monkeypatch.setattr(arena, "ProcessPoolExecutor", None)  # none may start
    from gamelib.play.entries import start_entry as started

    def course_bots_only(entry, *args, **options):  # type: ignore[no-untyped-def]
        assert entry.kind == "bot", f"{entry.name}'s process was started in a browser"
        return started(entry, *args, **options)

    monkeypatch.setattr(tournament, "start_entry", course_bots_only)  # no entry's process either
    kernel = run_tournament(deterministic_entries(), out=tmp_path / "kernel", workers=2, **options)  # type: ignore[arg-type]
    assert games(kernel.records) == games(desktop.records)
    def lost_by(name: str) -> list:  # type: ignore[type-arg]
        return [r for r in kernel.records if r.forfeit and (r.x if r.forfeit == "X" else r.o) == name]

    slow = lost_by("slow")
    assert slow and all(r.reason == "timeout" and "step budget" in r.detail for r in slow)
    crashy = lost_by("crashy")
    assert crashy and all(r.reason == "crash" and "index out of range" in r.detail for r in crashy)


def test_a_move_over_its_steps_loses_by_timeout_whatever_the_clock(tmp_path: Path) -> None:
    (tmp_path / "busy.py").write_text(
        "from gamelib.play.bots.base import Decision\n\n"
        "class Busy:\n"
        "    def choose(self, game, state, seconds):\n"
        "        for _ in range(1_100_000):\n"  # 1,100,000 steps: more than the 1,000,000 of a 0.01 s move
        "            pass\n"
        "        return Decision(move=game.legal_moves(state)[0])\n", encoding="utf-8")
    (tmp_path / "quick.py").write_text(
        "from gamelib.play.bots.base import Decision\n\n"
        "class Quick:\n"
        "    def choose(self, game, state, seconds):\n"
        "        for _ in range(900_000):\n"
        "            pass\n"
        "        return Decision(move=game.legal_moves(state)[0])\n", encoding="utf-8")
    (tmp_path / "entries.toml").write_text(
        '[[entry]]\nname = "busy"\nfile = "busy.py"\nclass = "Busy"\n\n'
        '[[entry]]\nname = "quick"\nfile = "quick.py"\nclass = "Quick"\n', encoding="utf-8")
    busy, quick = load_entries(tmp_path)
    from gamelib.games.adjacency import AdjacencyGame

    game = AdjacencyGame(rounds=2)
    assert KernelEntryBot(quick, 0, 2, 0.01).choose(game, game.initial_state(), 0.01).move is not None
    with pytest.raises(arena.MoveTimeout, match="more than the 1,000,000"):
        KernelEntryBot(busy, 0, 2, 0.01).choose(game, game.initial_state(), 0.01)


def test_an_entry_that_loads_forever_or_has_no_class_loses_at_its_first_move(tmp_path: Path,
                                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "forever.py").write_text("while True:\n    pass\n", encoding="utf-8")
    (tmp_path / "nothing.py").write_text("x = 1\n", encoding="utf-8")
    (tmp_path / "entries.toml").write_text(
        '[[entry]]\nname = "forever"\nfile = "forever.py"\nclass = "Bot"\n\n'
        '[[entry]]\nname = "nothing"\nfile = "nothing.py"\nclass = "Bot"\n\n'
        '[[entry]]\nname = "random"\nbot = "random"\n', encoding="utf-8")
    monkeypatch.setattr(arena, "in_browser", lambda: True)
    monkeypatch.setattr(tournament, "in_browser", lambda: True)
    result = run_tournament(load_entries(tmp_path), games=2, rounds=2, seconds=0.01, progress=False,
                            executor=ThreadPoolExecutor(1))
    faults = {(r.x if r.forfeit == "X" else r.o): (r.reason, r.detail) for r in result.records if r.forfeit}
    assert faults["forever"] == ("timeout", f"forever took more than {SETUP_STEPS:,} steps to load")
    assert faults["nothing"][0] == "crash" and "defines no class Bot" in faults["nothing"][1]


def test_each_game_loads_its_entrys_helper_modules_afresh_and_no_team_gets_anothers(tmp_path: Path) -> None:
    for team, word in (("a", "team A's"), ("b", "team B's")):
        folder = tmp_path / team
        folder.mkdir()
        (folder / "util.py").write_text(f"WORD = {word!r}\nCALLS = []\n", encoding="utf-8")
        (folder / "bot.py").write_text(
            "import util\nfrom gamelib.play.bots.base import Decision\n\n"
            "class Bot:\n    def choose(self, game, state, seconds):\n        util.CALLS.append(1)\n"
            "        return Decision(move=game.legal_moves(state)[0], note=f'{util.WORD} {len(util.CALLS)}')\n",
            encoding="utf-8")
        (folder / "entries.toml").write_text('[[entry]]\nname = "bot"\nfile = "bot.py"\nclass = "Bot"\n\n'
                                             '[[entry]]\nname = "random"\nbot = "random"\n', encoding="utf-8")
    from gamelib.games.adjacency import AdjacencyGame

    game = AdjacencyGame(rounds=2)
    notes = [KernelEntryBot(load_entries(tmp_path / team)[0], 0, 2, 0.2).choose(game, game.initial_state(), 0.2).note
             for team in ("a", "b", "a")]
    assert notes == ["team A's 1", "team B's 1", "team A's 1"]
