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


SEEDED = """import random
from collections import namedtuple

Answer = namedtuple("Answer", "move")  # not a Decision: read for its move, as the engine protocol reads it


class Seeded:
    def __init__(self, seed):
        self.draw = random.Random(seed)  # a generator of its own, seeded by the tournament

    def choose(self, game, state, seconds):
        return Answer(self.draw.choice(game.legal_moves(state)))
"""


def in_a_browser(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make the arena and the tournament take the browser's path (no process, file entries in the kernel)."""
    monkeypatch.setattr(arena, "in_browser", lambda: True)
    monkeypatch.setattr(tournament, "in_browser", lambda: True)


def tournament_in_a_browser(folder: Path, monkeypatch: pytest.MonkeyPatch) -> tournament.TournamentResult:
    """The entries of ``folder`` in a short round robin (2 games a pairing, 2 rounds, 0.01 s a move) on the
    browser's path, on one thread."""
    in_a_browser(monkeypatch)
    with ThreadPoolExecutor(1) as pool:
        return run_tournament(load_entries(folder), games=2, rounds=2, seconds=0.01, progress=False, executor=pool)


def deterministic_entries(folder: Path) -> list:  # type: ignore[type-arg]
    """Lesson 10's three files, a file entry that draws its moves from its own seeded generator and answers with a
    namedtuple, and the random bot (seeded): none depends on the clock."""
    (folder / "seeded.py").write_text(SEEDED, encoding="utf-8")
    (folder / "entries.toml").write_text('[[entry]]\nname = "seeded"\nfile = "seeded.py"\nclass = "Seeded"\n\n'
                                         '[[entry]]\nname = "random"\nbot = "random"\n', encoding="utf-8")
    files = [entry for entry in load_entries(SUBMISSIONS) if entry.kind == "file"]
    return [*files, load_entries(folder)[0], course_entry("random")]


def games(records: object) -> list[tuple[object, ...]]:
    return [(r.index, r.x, r.o, r.moves, r.result, r.reason, r.forfeit) for r in records]  # type: ignore[attr-defined]


@pytest.mark.slow
def test_the_kernel_plays_the_games_the_processes_play(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    options = dict(games=2, rounds=3, seconds=0.2, seed=4, progress=False)
    (tmp_path / "seeded").mkdir()
    entries = deterministic_entries(tmp_path / "seeded")
    desktop = run_tournament(entries, out=tmp_path / "processes", workers=2, **options)  # type: ignore[arg-type]
    in_a_browser(monkeypatch)
    monkeypatch.setattr(arena, "ProcessPoolExecutor", None)  # none may start
    from gamelib.play.entries import start_entry as started

    def course_bots_only(entry, *args, **options):  # type: ignore[no-untyped-def]
        assert entry.kind == "bot", f"{entry.name}'s process was started in a browser"
        return started(entry, *args, **options)

    monkeypatch.setattr(tournament, "start_entry", course_bots_only)  # no entry's process either
    kernel = run_tournament(entries, out=tmp_path / "kernel", workers=2, **options)  # type: ignore[arg-type]
    assert games(kernel.records) == games(desktop.records)
    played = [r for r in kernel.records if r.reason == "played" and "seeded" in (r.x, r.o)]
    assert len(played) >= 4 and len({r.moves for r in played}) == len(played)  # real games, each its own
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
    result = tournament_in_a_browser(tmp_path, monkeypatch)
    faults = {(r.x if r.forfeit == "X" else r.o): (r.reason, r.detail) for r in result.records if r.forfeit}
    assert faults["forever"] == ("timeout", f"forever took more than {SETUP_STEPS:,} steps to load")
    assert faults["nothing"][0] == "crash" and "defines no class Bot" in faults["nothing"][1]


def test_each_entry_has_its_own_helper_modules_loaded_at_start_or_during_a_move(tmp_path: Path) -> None:
    """Two teams' util.py, one imported when the file loads, the other during a move: each entry sees its own, keeps
    its state from move to move, and a new game loads it afresh."""
    for team, word, lazy in (("a", "team A's", False), ("b", "team B's", True)):
        folder = tmp_path / team
        folder.mkdir()
        (folder / "util.py").write_text(f"WORD = {word!r}\nCALLS = []\n", encoding="utf-8")
        top, inside = ("", "        import util\n") if lazy else ("import util\n", "")
        (folder / "bot.py").write_text(
            top + "from gamelib.play.bots.base import Decision\n\n"
            "class Bot:\n    def choose(self, game, state, seconds):\n" + inside + "        util.CALLS.append(1)\n"
            "        return Decision(move=game.legal_moves(state)[0], note=f'{util.WORD} {len(util.CALLS)}')\n",
            encoding="utf-8")
        (folder / "entries.toml").write_text('[[entry]]\nname = "bot"\nfile = "bot.py"\nclass = "Bot"\n\n'
                                             '[[entry]]\nname = "random"\nbot = "random"\n', encoding="utf-8")
    from gamelib.games.adjacency import AdjacencyGame

    game = AdjacencyGame(rounds=2)
    state = game.initial_state()
    a, b = (KernelEntryBot(load_entries(tmp_path / team)[0], 0, 2, 0.2) for team in ("a", "b"))
    notes = [bot.choose(game, state, 0.2).note for bot in (a, b, a, b)]
    assert notes == ["team A's 1", "team B's 1", "team A's 2", "team B's 2"]
    again = KernelEntryBot(load_entries(tmp_path / "a")[0], 0, 2, 0.2)
    assert again.choose(game, state, 0.2).note == "team A's 1"


def test_a_budgeted_entry_is_not_timed_out_by_the_clock(tmp_path: Path) -> None:
    """play_game judges a step-budgeted entry by its steps: moves that sleep past their limit and grace (time in C,
    no steps) are no timeout, where the same bot judged by the clock loses."""
    (tmp_path / "sleepy.py").write_text(
        "import time\nfrom gamelib.play.bots.base import Decision\n\n"
        "class Sleepy:\n    def choose(self, game, state, seconds):\n        time.sleep(0.15)\n"
        "        return Decision(move=game.legal_moves(state)[0])\n", encoding="utf-8")
    (tmp_path / "entries.toml").write_text('[[entry]]\nname = "sleepy"\nfile = "sleepy.py"\nclass = "Sleepy"\n\n'
                                           '[[entry]]\nname = "random"\nbot = "random"\n', encoding="utf-8")
    from gamelib.games.adjacency import AdjacencyGame
    from gamelib.play.bots.base import RandomBot

    sleepy = load_entries(tmp_path)[0]
    game = AdjacencyGame(rounds=2)
    judged_by_steps = arena.play_game(game, KernelEntryBot(sleepy, 0, 2, 0.01), RandomBot(seed=1), 0.01, 0, grace=0.05)
    assert judged_by_steps.reason == "played"

    class ByTheClock(KernelEntryBot):
        budgeted = False

    judged_by_clock = arena.play_game(game, ByTheClock(sleepy, 0, 2, 0.01), RandomBot(seed=1), 0.01, 0, grace=0.05)
    assert (judged_by_clock.reason, judged_by_clock.forfeit) == ("timeout", "X")


@pytest.mark.parametrize("answer, reason", [("Decision(move=64)", "protocol"), ("Decision(move='c3')", "protocol"),
                                            ("Decision(move=True)", "protocol"), ("max([])", "protocol"),
                                            ("sys.exit(2)", "crash"), ("None", "protocol")])
def test_a_fault_in_a_move_loses_as_in_a_process_and_the_tournament_goes_on(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, answer: str, reason: str) -> None:
    """An answer that is not a square, or an entry's ValueError, is a protocol fault, as its process's ``error``
    answer is; sys.exit is a crash, in a move or while the file loads, and the tournament plays on."""
    (tmp_path / "faulty.py").write_text(
        "import sys\nfrom gamelib.play.bots.base import Decision\n\n"
        f"class Faulty:\n    def choose(self, game, state, seconds):\n        return {answer}\n", encoding="utf-8")
    (tmp_path / "leaving.py").write_text("import sys\nsys.exit(3)\n", encoding="utf-8")
    (tmp_path / "entries.toml").write_text(
        '[[entry]]\nname = "faulty"\nfile = "faulty.py"\nclass = "Faulty"\n\n'
        '[[entry]]\nname = "leaving"\nfile = "leaving.py"\nclass = "Bot"\n\n'
        '[[entry]]\nname = "random"\nbot = "random"\n', encoding="utf-8")
    result = tournament_in_a_browser(tmp_path, monkeypatch)
    lost = {(r.x if r.forfeit == "X" else r.o): r.reason for r in result.records if r.forfeit}
    assert lost["faulty"] == reason and lost["leaving"] == "crash" and len(result.records) == 6
