"""Strength matches: Elo and its interval, the GSPRT, openings, the frozen version, the match report."""

from __future__ import annotations

import dataclasses
import json
import math
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from gamelib.games.adjacency import AdjacencyGame
from gamelib.play.arena import balanced_openings, random_line
from gamelib.play.ratings import Sprt, elo, elo_interval, expected_score, llr
from gamelib.play.records import GameRecord, append_record
from gamelib.play.strength import (
    BASE_COMMIT,
    engine_spec,
    export_commit,
    margin_gain,
    report,
)
from gamelib.search.negamax import alphabeta

ROOT = Path(__file__).resolve().parent.parent
Z95 = 1.959963984540054  # the normal quantile of 0.975 (tables: 1.95996)


def test_elo_of_known_scores() -> None:
    # 3 to 1: 400 log10 3 = 190.85 Elo; 10 to 1: 400 log10 10 = 400 (Elo's logistic curve)
    assert elo(0.75) == pytest.approx(400 * math.log10(3))
    assert elo(10 / 11) == pytest.approx(400.0)
    assert elo(0.5) == pytest.approx(0.0)
    assert expected_score(400.0) == pytest.approx(10 / 11) and expected_score(elo(0.3)) == pytest.approx(0.3)
    assert elo(1.0) == math.inf and elo(0.0) == -math.inf
    with pytest.raises(ValueError, match="score"):
        elo(1.5)


@pytest.mark.parametrize("counts, elo0, elo1, published", [
    # fastchess app/tests/sprt_test.cpp, "logistic" model: Stats(wins, losses, draws) and
    # Stats(LL, LD, WL, DD, WD, WW); here (losses, draws, wins) and pairs scoring 0 .. 2 (WL + DD together)
    ((21184, 40708, 21404), 0.5, 2.5, -1.57),
    ((57030, 106593, 57433), 0.0, 2.0, -2.59),
    ((223, 9863, 20279 + 1000, 10037, 246), 0.5, 2.5, -3.07),
    ((871, 26175, 55003 + 980, 26678, 821), 0.0, 2.0, -4.98),
])
def test_llr_matches_fastchess_published_values(counts: tuple[int, ...], elo0: float, elo1: float,
                                                published: float) -> None:
    assert llr(counts, elo0, elo1) == pytest.approx(published, abs=0.01)


def test_llr_is_zero_between_equal_hypotheses_and_symmetric() -> None:
    # results whose mean is exactly halfway between the hypotheses' scores are equally likely under
    # both: swapping A and B (reversing the counts) and the bounds (-elo1, -elo0) changes nothing
    counts = (30, 50, 40)
    assert llr(counts, -5, 5) == pytest.approx(-llr(counts[::-1], -5, 5))
    assert llr((20, 60, 20), -5, 5) == pytest.approx(0.0, abs=1e-9)


def test_sprt_bounds_are_walds() -> None:
    test = Sprt(0, 10, 0.05, 0.05)
    assert test.bounds == pytest.approx((-math.log(19), math.log(19)))  # log(0.05/0.95), log(0.95/0.05)
    assert test.verdict(math.log(19)) == "H1" and test.verdict(-3.0) == "H0" and test.verdict(2.9) is None
    with pytest.raises(ValueError, match="elo0 < elo1"):
        Sprt(5, 5)


def test_trinomial_interval_by_hand() -> None:
    # 10 losses, 20 draws, 30 wins: mean 40/60 = 2/3; variance (20/4 + 30)/60 - 4/9 = 5/36;
    # half width 1.96 * sqrt(5/36/60) = 0.094299; Elo of 2/3 = 400 log10 2
    middle, low, high = elo_interval((10, 20, 30))
    half = Z95 * math.sqrt(5 / 36 / 60)
    assert half == pytest.approx(0.094299, abs=1e-6)
    assert middle == pytest.approx(400 * math.log10(2))
    assert low == pytest.approx(-400 * math.log10(1 / (2 / 3 - half) - 1))
    assert high == pytest.approx(-400 * math.log10(1 / (2 / 3 + half) - 1))
    assert (round(low, 1), round(high, 1)) == (50.6, 201.2)


def test_pentanomial_interval_by_hand() -> None:
    # pairs scoring 0, 1/2, 1, 3/2, 2 points: 1, 2, 4, 2, 1 of 10; per game 0, .25, .5, .75, 1:
    # mean 0.5, variance (2 * 0.25 + 4 * 0.0625) / 10 = 0.075, half width 1.96 * sqrt(0.0075) = 0.16974
    middle, low, high = elo_interval((1, 2, 4, 2, 1))
    assert middle == pytest.approx(0.0, abs=1e-9)
    assert low == pytest.approx(-400 * math.log10(1 / 0.3302621 - 1), abs=1e-3)
    assert round(low, 1) == -122.8 and high == pytest.approx(-low)


def _record(index: int, result: str) -> GameRecord:
    return GameRecord(index, 0, "a" if index % 2 == 0 else "b", "b" if index % 2 == 0 else "a", 8, 28, 0.2,
                      (), (0, 0), result, (), (), (), ())


def test_report_counts_games_and_pairs_from_a_s_side() -> None:
    # A is X in the even games: pair (0, 1) A wins both; (2, 3) X wins both, 1 point each;
    # (4, 5) draw then A loses as O: 1/2; game 6 alone: a win, in the trinomial only
    results = ["X", "O", "X", "X", "draw", "X", "X"]
    found = report([_record(i, r) for i, r in enumerate(results)], Sprt(0, 10))
    assert found.trinomial == (2, 1, 4)  # losses, draws, wins
    assert found.pentanomial == (0, 1, 1, 0, 1)
    assert found.score == pytest.approx(4.5 / 7)
    assert found.elo == pytest.approx(elo((0.25 + 0.5 + 1.0) / 3))
    assert found.llr == pytest.approx(llr((0, 1, 1, 0, 1), 0, 10))


def _final(index: int, x: int, o: int, reason: str = "played") -> GameRecord:
    result = "X" if x > o else "O" if o > x else "draw"
    return dataclasses.replace(_record(index, result), counts=(x, o), reason=reason)


def test_margin_gain_by_hand() -> None:
    # pair (0, 1): A as X 40-24 (+16), then as O 26-38 (-12): +4; pair (2, 3): +2 as X (33-31),
    # +4 as O (34-30): +6; pair (4, 5): 0 as X (32-32), +2 as O (33-31): +2; pair (6, 7): B forfeits
    # game 7 (left out); game 8 has no partner yet. Margins 4, 6, 2: mean 4, sample deviation 2,
    # t quantile 0.975 with 2 degrees of freedom 4.3027 (tables: 4.303): half width 4.3027 * 2 / sqrt 3
    records = [_final(0, 40, 24), _final(1, 38, 26), _final(2, 33, 31), _final(3, 30, 34), _final(4, 32, 32),
               _final(5, 31, 33), _final(6, 35, 29), _final(7, 20, 10, reason="timeout"), _final(8, 50, 14)]
    found = margin_gain(records)
    assert found is not None
    half = 4.302653 * 2 / math.sqrt(3)
    assert (found.pairs, found.left_out, found.mean) == (3, 1, 4.0)
    assert found.low == pytest.approx(4 - half, abs=1e-5) and found.high == pytest.approx(4 + half, abs=1e-5)
    assert "margin +4.00 [-0.97, +8.97] marks a pair (3 pairs, 1 with a forfeit left out)" in report(
        records, Sprt(0, 10)).line()


def test_margin_gain_needs_two_finished_pairs() -> None:
    assert margin_gain([_final(0, 40, 24), _final(1, 38, 26), _final(2, 33, 31)]) is None
    assert report([_final(0, 40, 24), _final(1, 38, 26)], Sprt(0, 10)).margin is None


def test_openings_are_reproducible_distinct_and_balanced() -> None:
    game = AdjacencyGame()
    first = balanced_openings(4, seed=3, depths=(3, 4))
    assert first == balanced_openings(4, seed=3, depths=(3, 4))
    assert first != balanced_openings(4, seed=4, depths=(3, 4))
    positions = [game.play(game.root, line) for line in first]
    assert len({state.key for state in positions}) == 4
    assert all(len(line) == 6 and state.to_move.value == "X" for line, state in zip(first, positions))

    def mean_value(state: object) -> float:  # plain alpha-beta, every move generated: an independent search
        return (alphabeta(game, state, 3).value + alphabeta(game, state, 4).value) / 2

    reference = mean_value(game.root)
    assert all(abs(mean_value(state) - reference) <= 2 for state in positions)


def test_random_line_rejects_a_bad_length() -> None:
    import random

    with pytest.raises(ValueError, match="plies"):
        random_line(AdjacencyGame(rounds=2), random.Random(0), 5)


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """This test's own user cache folder (``XDG_CACHE_HOME``): nothing is written to the real one."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return tmp_path / "cache"


def test_export_commit_makes_a_runnable_frozen_copy_in_a_private_folder(cache: Path) -> None:
    folder = export_commit(BASE_COMMIT)
    assert (folder / "gamelib" / "play" / "engine_protocol.py").is_file()
    assert folder.parent == cache / "gamelib" and folder.name.startswith("gamelib-frozen-")
    private = (cache / "gamelib").lstat()
    assert stat.S_IMODE(private.st_mode) == 0o700 and private.st_uid == os.geteuid()  # never in a shared /tmp
    assert export_commit(BASE_COMMIT) == folder  # reused: a resumed match names the same engine
    assert engine_spec(folder).startswith("cmd:env PYTHONPATH=" + str(folder))
    assert [path.name for path in folder.parent.iterdir()] == [folder.name]  # no half-made export left
    with pytest.raises(ValueError, match="no commit"):
        export_commit("not-a-commit")


def test_a_frozen_folder_someone_else_could_have_made_is_never_used(cache: Path, tmp_path: Path) -> None:
    # another user plants the folder (or the code in it) before the match: its code would run as you
    planted = cache / "gamelib"
    planted.mkdir(parents=True, mode=0o700)
    planted.chmod(0o777)  # writable by anyone: whatever is in it may be anyone's
    with pytest.raises(ValueError, match=r"may be used by others \(mode 0777, not 0700\)"):
        export_commit(BASE_COMMIT)
    planted.rmdir()
    elsewhere = tmp_path / "theirs"
    elsewhere.mkdir(mode=0o700)
    planted.symlink_to(elsewhere)  # a symlink to a folder of theirs
    with pytest.raises(ValueError, match="is not a folder"):
        export_commit(BASE_COMMIT)
    assert list(elsewhere.iterdir()) == []
    if os.geteuid() == 0:  # only root can give a folder away
        planted.unlink()
        planted.mkdir(mode=0o700)
        os.chown(planted, 65534, 65534)
        with pytest.raises(ValueError, match="belongs to another user"):
            export_commit(BASE_COMMIT)


def test_the_summary_script_keeps_what_lesson_6_reads(tmp_path: Path) -> None:
    # two pairs by hand: A (frozen abcdef1...) wins both as O; as X it loses 30-34 and 31-33:
    # margins (-4 + 10) = +6 and (-2 + 6) = +4; O won all four games
    cache = "/home/u/.cache/gamelib"
    new = f"cmd:env PYTHONPATH={cache}/gamelib-frozen-abcdef1234 python"
    base = f"cmd:env PYTHONPATH={cache}/gamelib-frozen-9876543210 python"
    games = [(0, 30, 34), (1, 27, 37), (2, 31, 33), (3, 29, 35)]
    match = tmp_path / "match.jsonl"
    for index, x, o in games:
        record = _final(index, x, o)
        append_record(match, dataclasses.replace(record, x=new if index % 2 == 0 else base,
                                                 o=base if index % 2 == 0 else new))
    out = tmp_path / "strength.json"
    done = subprocess.run([sys.executable, "benchmarks/strength_summary.py", str(match), "--out", str(out), "--load", "1"],
                          cwd=ROOT, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    found = json.loads(out.read_text())["matches"][0]
    assert (found["new"], found["base"], found["games"]) == ("abcdef1", "9876543", 4)
    assert found["pair_margins"] == [6, 4] and found["winners"] == {"X": 0, "O": 4, "draw": 0}
    assert found["trinomial"] == [2, 0, 2] and found["pentanomial"] == [0, 0, 2, 0, 0]
    missing = subprocess.run([sys.executable, "benchmarks/strength_summary.py", str(tmp_path / "none.jsonl"), "--out",
                              str(out)], cwd=ROOT, capture_output=True, text=True, check=False)
    assert missing.returncode == 2 and missing.stderr.count("\n") == 1 and "error" in missing.stderr


@pytest.mark.parametrize("with_filter", [True, False], ids=["data filter", "Python before 3.11.4"])
def test_an_archive_member_leaving_its_folder_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                         with_filter: bool) -> None:
    # export_commit unpacks a git archive; on a Python without tarfile's data filter (3.11.0-3.11.3) it
    # checks the members itself, so a member naming ../ or a link out is refused either way.
    import io
    import tarfile

    from gamelib.play import strength

    if not with_filter:
        monkeypatch.delattr(tarfile, "data_filter", raising=False)

    def archive(*members: tarfile.TarInfo) -> tarfile.TarFile:
        data = io.BytesIO()
        with tarfile.open(fileobj=data, mode="w") as tar:
            for member in members:
                tar.addfile(member, io.BytesIO(b"x" * member.size) if member.isfile() else None)
        data.seek(0)
        return tarfile.open(fileobj=data)

    good = tarfile.TarInfo("gamelib/__init__.py")
    good.size = 1
    (tmp_path / "ok").mkdir()
    strength._extract(archive(good), tmp_path / "ok")
    assert (tmp_path / "ok" / "gamelib" / "__init__.py").read_bytes() == b"x"
    up = tarfile.TarInfo("../escaped.py")
    up.size = 1
    out = tarfile.TarInfo("gamelib/out")
    out.type, out.linkname = tarfile.SYMTYPE, "../../outside"
    for bad in (up, out):
        (tmp_path / "bad").mkdir(exist_ok=True)
        with pytest.raises((ValueError, tarfile.TarError)):
            strength._extract(archive(bad), tmp_path / "bad")
    assert not (tmp_path / "escaped.py").exists()
