"""The command line: ``python -m gamelib trace|slides|match|tournament|engine|play|grade|worksheet ...``.

``trace`` prints one JSON object (value, best_move, pv, visited, evaluated, pruned, events, ...) or,
with ``--text``, the trace as Broeders' programs print it; ``slides`` writes one page that steps a
search on a projector (:mod:`gamelib.view.slides`). ``match``, ``tournament``, ``engine`` and
``play`` play the Adjacency game (see :mod:`gamelib.play.commands`); ``grade`` checks a class's
submissions in the sandbox (:mod:`gamelib.teach.grading`); ``worksheet`` writes a printable
worksheet and its answer key (:mod:`gamelib.teach.worksheet`). Bad input gets one line on stderr and exit
status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import shlex
import subprocess
import sys
from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager, redirect_stderr, redirect_stdout
from dataclasses import asdict
from pathlib import Path
from typing import Any, NoReturn

from gamelib.games.data import load_seed_tree, seed_tree_names
from gamelib.games.multiplayer import load_any_tree
from gamelib.games.tree_text import TreeTextError
from gamelib.games.trees import MAX_TREE_DEPTH, GameTree, TreeFormatError
from gamelib.games.user_text import decimal_number, whole_number
from gamelib.play.bots.base import pause_collector, resume_collector
from gamelib.play.box.guard import ISOLATED, bwrap_problem
from gamelib.play.box.sandbox import Limits
from gamelib.play.commands import (
    MAX_SEED,
    add_game_commands,
    dask_executor,
    option,
    run_engine,
    run_match_command,
    run_play,
    run_tournament_command,
)
from gamelib.play.records import write_atomically
from gamelib.search.algorithms import SEARCHES, run_search
from gamelib.search.expectimax import expectimax
from gamelib.search.maxn import MaxnResult
from gamelib.search.negamax import SearchError, SearchResult
from gamelib.search.tracing import (
    MtdPass,
    RecordingTracer,
    Research,
    TableHit,
    evaluated_nodes,
    pruned_nodes,
    to_jsonable,
    visited_nodes,
)
from gamelib.search.ttable import MAX_SLOTS, TranspositionTable
from gamelib.teach.autograder import build_autograder
from gamelib.teach.exercises import EXERCISES
from gamelib.teach.exercises import MAX_SEED as MAX_TREE_SEED
from gamelib.teach.gradebook import FORMATS, canvas_csv, moodle_csv
from gamelib.teach.grading import (
    MAX_GRADING_WORKERS,
    MAX_POINTS,
    MAX_SUBMISSION_SECONDS,
    NOT_RUN,
    OUTCOMES,
    Grade,
    default_out,
    grade_file,
    grade_folder,
    gradescope_results,
)
from gamelib.teach.hand_in import read_roster
from gamelib.teach.worksheet import (
    BRANCHING,
    DEPTH,
    MAX_TREES,
    WORKSHEET_SEARCHES,
    Difficulty,
    WorksheetError,
    make_worksheet,
    tree_worksheet,
    write_worksheet,
)
from gamelib.view.export import alphabeta0_text, minmax_table, root_line
from gamelib.view.leaderboard import write_leaderboard
from gamelib.view.replay import describe, payoff_text

__all__ = ["command_line", "main"]

class UsageError(Exception):
    """Bad command-line input; ``main`` prints it as one line and exits with status 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


MAX_FIRST_GUESS = 10**9
"""``--first-guess`` lies in [-MAX_FIRST_GUESS, MAX_FIRST_GUESS]; MTD(f)'s first pass moves a
bound to a value of the tree, so a guess farther out than every value only costs a pass."""

_TABLE_SEARCHES = ("alphabeta_with_memory", "mtdf")
_WINDOWLESS = ("minimax", "expectiminimax", "expectimax")
"""The searches whose traces have no windows: ``--text`` prints MinMax1.cpp's table for them."""


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``python -m gamelib``."""
    parser = _Parser(prog="python -m gamelib", description="Game-tree search, traced.")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    trace = commands.add_parser("trace", help="search a JSON tree and print the trace")
    trace.add_argument("algorithm", choices=[*SEARCHES, "expectimax"], help="the search algorithm")
    trace.add_argument("tree", nargs="?", default=None,
                       help="a tree file in the JSON tree format (gamelib/data/trees/README.md), or a CS188 "
                       "GraphGameTreeTest file ending in .test")
    trace.add_argument("--tree", dest="tree_text", metavar="TEXT", default=None,
                       help="the tree in the text notation instead of a file: '((3 12 8) (2 4 6) (14 5 2))'")
    trace.add_argument("--course-tree", metavar="NAME", default=None, choices=seed_tree_names(),
                       help="one of the course's own trees instead of a file, read from the installed package: "
                       + ", ".join(seed_tree_names()))
    trace.add_argument("--depth", type=option(whole_number, 0, MAX_TREE_DEPTH, "a number of plies"), default=None,
                       metavar="N", help=f"search at most N plies (0 to {MAX_TREE_DEPTH})")
    trace.add_argument("--strict", action="store_true", help="alpha-beta: cut only when value > beta")
    trace.add_argument("--fail-soft", action="store_true", help="alpha-beta: start values at -inf")
    trace.add_argument("--first-guess", type=option(whole_number, -MAX_FIRST_GUESS, MAX_FIRST_GUESS, "a first guess"),
                       default=None, metavar="V", help="mtdf: the first guess of the value (default 0)")
    trace.add_argument("--table-size", type=option(whole_number, 1, MAX_SLOTS, "a number of table slots"),
                       default=None, metavar="N", help="alphabeta_with_memory, mtdf: slots in the transposition "
                       f"table (default 65536, at most {MAX_SLOTS})")
    trace.add_argument("--star1", action="store_true",
                       help="expectiminimax: prune at chance nodes with Star1 (needs a value_range)")
    trace.add_argument("--text", action="store_true",
                       help="print as Broeders' programs do (AlphaBeta0.cpp, MinMax1.cpp)")
    add_game_commands(commands)
    _add_slides_command(commands)
    _add_grade_command(commands)
    _add_autograder_command(commands)
    _add_worksheet_command(commands)
    return parser


def _add_slides_command(commands: Any) -> None:
    slides = commands.add_parser("slides", help="write one page that steps a search on a projector, with the keys "
                                 "and a presenter's clicker",
                                 usage="python -m gamelib slides ALGORITHM [ALGORITHM] (TREE_FILE | --tree TEXT | "
                                 "--course-tree NAME) --out PAGE.html")
    slides.add_argument("items", nargs="+", metavar="ALGORITHM [ALGORITHM] [TREE_FILE]",
                        help=f"one or two searches ({', '.join(SEARCHES)}), then the tree file if the tree is a file")
    slides.add_argument("--tree", dest="tree_text", metavar="TEXT", default=None,
                        help="the tree in the text notation instead of a file: '((3 12 8) (2 4 6) (14 5 2))'")
    slides.add_argument("--course-tree", metavar="NAME", default=None, choices=seed_tree_names(),
                        help="one of the course's own trees instead of a file: " + ", ".join(seed_tree_names()))
    slides.add_argument("--title", default="", help="the page's title (default: the searches and the tree)")
    slides.add_argument("--out", required=True, type=Path, metavar="PAGE.html", help="the page to write")


def run_slides(args: argparse.Namespace) -> int:
    """Run ``slides``: write the page and say where. Raises UsageError, TreeFormatError, SearchError
    or OSError on bad input."""
    from gamelib.view.frames import FramesError
    from gamelib.view.slides import slides_html

    algorithms = [item for item in args.items[:2] if item in SEARCHES]
    rest = args.items[len(algorithms):]
    if not algorithms:
        raise UsageError(f"slides: unknown search {args.items[0]!r}: use one or two of {', '.join(SEARCHES)}")
    if rest and rest[0] in SEARCHES:
        raise UsageError(f"slides shows one or two searches side by side, not {len(algorithms) + 1} or more")
    if len(rest) > 1:
        raise UsageError(f"slides takes one or two searches and one tree file, not {' '.join(args.items)!r}")
    if len(args.title) > 200:
        raise UsageError("--title: at most 200 characters")
    args.tree = rest[0] if rest else None
    try:
        tree = _read_tree(args)
    except UsageError as error:
        raise UsageError(str(error).replace("trace needs", "slides needs")) from None
    if args.out.is_dir():
        raise UsageError(f"--out {args.out} is a folder: give the page's file name, such as talk.html")
    try:
        page = slides_html(tree, algorithms, title=args.title)
    except FramesError as error:  # a tree too big to draw every step of
        raise UsageError(f"slides: {error}") from None
    write_atomically(args.out, page)
    args.out.chmod(0o644)  # a page to serve: readable by everyone, as a web server needs it
    print(f"wrote {args.out} ({len(page.encode()) / 1000:.0f} KB): open it in a browser; → and ← step")
    return 0


MAX_CUTOFFS = 100
"""The largest number ``worksheet`` takes for a count of cut-offs (a 27-leaf tree has 12 inner nodes)."""


def _add_worksheet_command(commands: Any) -> None:
    sheet = commands.add_parser("worksheet", help="write a printable worksheet of alpha-beta trees and its answer key")
    sheet.add_argument("--tree", default=None, metavar="FILE",
                       help="a worksheet of your own tree (any tree file trace reads), named by it, instead of "
                       "seeded random trees")
    sheet.add_argument("--seed", type=option(whole_number, 0, MAX_SEED, "a seed"), default=None, metavar="N",
                       help="the seed that picks the trees (default 0)")
    sheet.add_argument("--trees", type=option(whole_number, 1, MAX_TREES, "a number of trees"), default=None,
                       metavar="N", help=f"trees on the worksheet, a page each (default 6, at most {MAX_TREES})")
    sheet.add_argument("--branching", type=option(whole_number, *BRANCHING, "a branching factor"), default=None,
                       metavar="B", help="children of every inner node (default 3)")
    sheet.add_argument("--depth", type=option(whole_number, *DEPTH, "a number of plies"), default=None, metavar="D",
                       help="plies from the root to the leaves (default 3); at most 27 leaves")
    sheet.add_argument("--algorithm", choices=WORKSHEET_SEARCHES, default="alphabeta", help="the search to work")
    count = option(whole_number, 0, MAX_CUTOFFS, "a number of cut-offs")
    sheet.add_argument("--min-cutoffs", type=count, default=1, metavar="N", help="at least N cut-offs a tree (default 1)")
    sheet.add_argument("--max-cutoffs", type=count, default=None, metavar="N", help="at most N cut-offs a tree")
    sheet.add_argument("--deep-cutoffs", type=count, default=0, metavar="N",
                       help="at least N deep cut-offs a tree (needs --depth 4)")
    sheet.add_argument("--out", default="worksheet", metavar="DIR", help="the folder to write to (default worksheet)")


def run_worksheet(args: argparse.Namespace) -> int:
    """Run ``worksheet``: write the files into ``--out`` and print what was written."""
    drawn = {"--seed": args.seed, "--trees": args.trees, "--branching": args.branching, "--depth": args.depth}
    try:
        if args.tree is not None:
            given = [name for name, value in drawn.items() if value is not None]
            if given:
                raise UsageError(f"--tree gives the worksheet's tree: {', '.join(given)} would draw random ones")
            sheet = tree_worksheet(load_any_tree(args.tree), algorithm=args.algorithm)
        else:
            sheet = make_worksheet(_or(args.seed, 0), _or(args.trees, 6), _or(args.branching, 3), _or(args.depth, 3),
                                   algorithm=args.algorithm,
                                   difficulty=Difficulty(args.min_cutoffs, args.max_cutoffs, args.deep_cutoffs))
    except WorksheetError as error:
        raise UsageError(str(error)) from None
    try:
        paths = write_worksheet(args.out, sheet)
    except OSError as error:
        raise UsageError(f"cannot write {error.filename or args.out}: {error.strerror}") from None
    print(f"wrote {len(paths)} files to {args.out}: worksheet.html, answers.html, answers.json and an SVG "
          "picture of each tree, blank and answered")
    return 0


def _or(value: int | None, default: int) -> int:
    return default if value is None else value


def _add_grade_command(commands: Any) -> None:
    grade = commands.add_parser("grade", help="check every student's file in a folder (or one file) in the sandbox")
    grade.add_argument("exercise", choices=list(EXERCISES), help="the exercise the files answer")
    grade.add_argument("submissions", metavar="SUBMISSIONS",
                       help="a folder with one .py or .ipynb file per student, or one such file")
    grade.add_argument("--out", default=None, metavar="CSV",
                       help="the grades CSV, for a folder (default grades-FOLDER.csv); rerunning skips unchanged "
                       "files, and another folder's grades are never replaced")
    grade.add_argument("--results", default=None, metavar="PATH",
                       help="Gradescope results.json: for one file, the file (default results.json); for a "
                       "folder, a folder of STUDENT.json files (default: none)")
    grade.add_argument("--workers", type=option(whole_number, 1, MAX_GRADING_WORKERS, "a number of workers"),
                       default=2, metavar="N", help=f"submissions checked at once (default 2, at most "
                       f"{MAX_GRADING_WORKERS})")
    _add_grading_options(grade)
    grade.add_argument("--roster", default=None, metavar="CSV",
                       help="the class's roster (columns id, name and optionally email): every student on it gets a "
                       "row, and a submission matching no one is noted")
    grade.add_argument("--format", choices=FORMATS, default="csv",
                       help="what --out holds: the grader's CSV (default), Canvas's gradebook import or Moodle's "
                       "grading worksheet; for canvas and moodle the grader's CSV is kept as grades-FOLDER.csv")
    grade.add_argument("--assignment", default=None, metavar="NAME",
                       help="the assignment's column in Canvas's file (default: the exercise's name)")
    grade.add_argument("--scheduler", default=None, metavar="tcp://HOST:8786",
                       help="check the submissions on this dask.distributed cluster (its workers must see the "
                       "folder at the same path) instead of --workers threads here")
    grade.add_argument("--quiet", action="store_true", help="no progress bar")


def _add_autograder_command(commands: Any) -> None:
    autograder = commands.add_parser("autograder", help="write a Gradescope autograder zip for an exercise")
    autograder.add_argument("exercise", choices=list(EXERCISES), help="the exercise it grades")
    autograder.add_argument("--out", default="autograder.zip", metavar="ZIP", help="the zip (default autograder.zip)")
    _add_grading_options(autograder)


def _add_grading_options(parser: argparse.ArgumentParser) -> None:
    """--time, --points and --seed: how a submission is graded, by ``grade`` and by the autograder alike."""
    parser.add_argument("--time", type=option(decimal_number, 0.5, MAX_SUBMISSION_SECONDS, "a number of seconds"),
                        default=10.0, metavar="S", help="wall-clock seconds each submission may take (default 10)")
    parser.add_argument("--points", type=option(decimal_number, 0.01, MAX_POINTS, "a number of points"),
                        default=None, metavar="N",
                        help="the points the exercise is worth, shared among its trees (default: one a tree)")
    parser.add_argument("--seed", type=option(whole_number, 0, MAX_TREE_SEED, "a seed"), default=None, metavar="N",
                        help="also grade on trees of the exercise's shapes, drawn from seed N, that no lesson shows "
                        "(keep N to yourself: a function that hard-codes the lessons' trees fails them)")


def run_autograder_command(args: argparse.Namespace) -> int:
    """Run ``autograder``: write the zip and say what it holds."""
    try:
        out = build_autograder(args.exercise, args.out, possible=args.points, seed=args.seed, seconds=args.time)
    except ValueError as error:
        raise UsageError(str(error)) from None
    except OSError as error:
        raise UsageError(f"cannot write {error.filename or args.out}: {error.strerror}") from None
    print(f"wrote {out}: setup.sh, run_autograder and the gamelib package, grading {args.exercise}; upload it on "
          "Gradescope's Configure Autograder page")
    return 0


def run_grade(args: argparse.Namespace) -> int:
    """Run ``grade``: print a summary line; write the CSV (folder) and results.json files."""
    limits = Limits(seconds=args.time)
    path = Path(args.submissions)
    if not path.is_dir() and path.suffix not in (".py", ".ipynb"):
        raise UsageError(f"{args.submissions}: give a folder of submissions or one .py or .ipynb file")
    if not path.exists():
        raise UsageError(f"{args.submissions}: no such file")
    if path.is_file():
        if args.out is not None:
            raise UsageError("--out is for a folder of submissions; for one file, use --results")
        grade = grade_file(args.exercise, path, limits, possible=args.points, seed=args.seed)
        results = Path(args.results or "results.json")
        results.write_text(json.dumps(gradescope_results(args.exercise, grade), indent=1), encoding="utf-8")
        where = (f"student code ran {_boundary_words(grade.boundary)}" if grade.ran
                 else f"no student code ran ({grade.boundary.removeprefix(NOT_RUN + ': ')})")
        print(f"{grade.student}: {grade.outcome}, {grade.passed}/{grade.trees} trees, {grade.points:g} of "
              f"{grade.max_points:g} points; {where}; wrote {results}")
        return 0
    state = args.out if args.format == "csv" and args.out else str(default_out(path))
    book = None if args.format == "csv" else args.out or f"{args.format}-{Path(state).stem.removeprefix('grades-')}.csv"
    try:
        roster = read_roster(args.roster) if args.roster is not None else None
        with ExitStack() as stack:
            executor = None if args.scheduler is None else stack.enter_context(dask_executor(args.scheduler))
            grades = grade_folder(args.exercise, path, state, args.results, limits, workers=args.workers,
                                  progress=not args.quiet, possible=args.points, roster=roster, seed=args.seed,
                                  executor=executor)
        left_out = _write_gradebook(args, grades, book)
    except ValueError as error:
        raise UsageError(str(error)) from None
    except OSError as error:
        raise UsageError(f"{error.filename or state}: {error.strerror}") from None
    counts = {outcome: sum(grade.outcome == outcome for grade in grades) for outcome in OUTCOMES}
    said = ", ".join(f"{count} {outcome}" for outcome, count in counts.items() if count)
    wrote = state if book is None else f"{state} and {book}" + (
        f" ({left_out} without a Moodle participant number left out of it)" if left_out else "")
    print(f"graded {len(grades)} rows ({said or 'no files'}); {_where_code_ran(grades)}; wrote {wrote}")
    return 0


def _write_gradebook(args: argparse.Namespace, grades: Sequence[Grade], book: str | None) -> int:
    """Write the LMS's file ``book`` in ``args.format`` (nothing for the grader's own CSV); return how many
    students it had to leave out."""
    if book is None:
        return 0
    if args.format == "canvas":
        text, left_out = canvas_csv(grades, args.assignment or args.exercise), 0
    else:
        text, left_out = moodle_csv(grades)
    write_atomically(book, text)
    return left_out


def _where_code_ran(grades: Sequence[Grade]) -> str:
    """Where the summary says student code ran: the boundaries of the grades whose code ran, and how
    many files never ran (their rows' ``boundary`` says why); never a boundary no code ran in."""
    boxes = sorted({grade.boundary for grade in grades if grade.ran})
    unrun = sum(not grade.ran for grade in grades)
    where = (f"student code ran {' and '.join(_boundary_words(box) for box in boxes)}" if boxes
             else "no student code ran")
    return where + (f"; {unrun} file{'s' * (unrun != 1)} not run (the boundary column says why)" if unrun else "")


def _boundary_words(box: str) -> str:
    """How the summary names a boundary: "isolated (bubblewrap)" or "guard only (no bubblewrap: why)"."""
    if box == ISOLATED:
        return "isolated (bubblewrap)"
    return f"{box} ({bwrap_problem() or 'not isolated'})"


def run_trace(args: argparse.Namespace) -> str:
    """Run the ``trace`` command and return what it prints. Raises UsageError, TreeFormatError,
    SearchError or OSError on bad input."""
    with _without_cycle_collection():
        tree = _read_tree(args)
        tracer = RecordingTracer()
        options = _search_options(args)
        if args.algorithm == "expectimax":  # not in SEARCHES: on a tree without chance it is no minimax
            result = expectimax(tree, tracer=tracer, **options)
        else:
            result = run_search(args.algorithm, tree, tracer=tracer, **options)
        if args.text:
            return "\n".join(_trace_text(tree, args, result, tracer))
        return json.dumps(_summary(tree, args, result, tracer, options.get("table")))


def _read_tree(args: argparse.Namespace) -> GameTree:
    """The tree of ``trace``: the file TREE, the text of ``--tree`` or the course's tree
    ``--course-tree``, exactly one of the three."""
    given = [source is not None for source in (args.tree, args.tree_text, args.course_tree)]
    if sum(given) != 1:
        raise UsageError("trace needs one tree: a tree file, --tree TEXT or --course-tree NAME"
                         + (", not several" if sum(given) > 1 else ""))
    if args.course_tree is not None:
        return load_seed_tree(args.course_tree)
    if args.tree_text is not None:
        try:
            return GameTree.from_text(args.tree_text)
        except TreeTextError as error:
            raise UsageError(f"--tree: {error}") from None
    return load_any_tree(args.tree)


@contextmanager
def _without_cycle_collection() -> Iterator[None]:
    """Python's cycle collector paused: a trace keeps every object it makes (three events a leaf,
    then their JSON) until the command ends, and no cycles among them, yet the collector would
    scan them again and again as they grow (a tenth of the time of a 200,000-leaf trace)."""
    running = pause_collector()
    try:
        yield
    finally:
        resume_collector(running)


def _search_options(args: argparse.Namespace) -> dict[str, Any]:
    """The options of ``run_search`` for the command line's flags; UsageError for a flag the
    algorithm does not take."""
    if args.algorithm != "alphabeta" and (args.strict or args.fail_soft):
        raise UsageError(f"--strict and --fail-soft are alpha-beta options, not {args.algorithm} options")
    if args.algorithm != "mtdf" and args.first_guess is not None:
        raise UsageError(f"--first-guess is an mtdf option, not a {args.algorithm} option")
    if args.algorithm != "expectiminimax" and args.star1:
        raise UsageError(f"--star1 is an expectiminimax option, not a {args.algorithm} option")
    if args.algorithm not in _TABLE_SEARCHES and args.table_size is not None:
        raise UsageError(f"--table-size is an option of {' and '.join(_TABLE_SEARCHES)}, not of {args.algorithm}")
    options: dict[str, Any] = {"depth": args.depth}
    if args.algorithm == "alphabeta":
        options.update(strict=args.strict, fail_soft=args.fail_soft)
    if args.algorithm in _TABLE_SEARCHES:
        options["table"] = TranspositionTable(size=args.table_size or 1 << 16)
    if args.algorithm == "mtdf":
        options["first_guess"] = args.first_guess or 0
    if args.algorithm == "expectiminimax":
        options["star1"] = args.star1
    return options


def _trace_text(tree: GameTree, args: argparse.Namespace, result: SearchResult, tracer: RecordingTracer) -> list[str]:
    if isinstance(result, MaxnResult):  # a payoff vector at every node: each event in words
        return [*map(describe, tracer.events), f"root payoffs {payoff_text(result.payoffs)}, best move {result.move}"]
    if args.algorithm in _WINDOWLESS and not args.star1:
        return minmax_table(tree, tracer.events)
    return [*alphabeta0_text(tracer.events), root_line(tree, result.value)]  # every search but minimax has windows


def _summary(tree: GameTree, args: argparse.Namespace, result: SearchResult, tracer: RecordingTracer,
             table: TranspositionTable | None) -> dict[str, Any]:
    """The JSON summary: the first slice's fields, plus each algorithm's own events (re-searches,
    MTD(f) passes, table hits) and the table's counters where a table was used."""
    return {
        "algorithm": args.algorithm,
        "tree": tree.name,
        "options": {"depth": args.depth, "strict": args.strict, "fail_soft": args.fail_soft,
                    "first_guess": args.first_guess, "table_size": None if table is None else table.size,
                    "star1": args.star1},
        "value": to_jsonable(result.value),
        **({"payoffs": list(result.payoffs)} if isinstance(result, MaxnResult) else {}),
        "best_move": result.move,
        "pv": list(result.pv),
        "nodes": result.nodes,
        "leaves": result.leaves,
        "visited": visited_nodes(tracer.events),
        "evaluated": evaluated_nodes(tracer.events),
        "pruned": pruned_nodes(tree, tracer.events, args.depth),
        "researches": [event.to_dict() for event in tracer.events if isinstance(event, Research)],
        "passes": [event.to_dict() for event in tracer.events if isinstance(event, MtdPass)],
        "table_hits": [event.to_dict() for event in tracer.events if isinstance(event, TableHit)],
        "table": None if table is None else asdict(table.stats),
        "events": tracer.to_json(),
    }


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status (0, or 2 after a one-line error on stderr)."""
    try:
        args = build_parser().parse_args(argv)
        if args.command == "grade":
            return run_grade(args)
        if args.command == "autograder":
            return run_autograder_command(args)
        if args.command == "worksheet":
            return run_worksheet(args)
        if args.command == "slides":
            return run_slides(args)
        if args.command != "trace":
            return _run_game_command(args)
        print(run_trace(args))
    except (UsageError, TreeFormatError, SearchError) as error:
        return _fail(str(error))
    except BrokenPipeError:  # the reader stopped early (| head): not an error
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except OSError as error:
        return _fail(f"cannot read {error.filename}: {error.strerror}")
    return 0


def command_line(arguments: str) -> list[str]:
    """Run ``python -m gamelib ARGUMENTS`` for a lesson, as a notebook's ``!`` line would: print the
    command, then what it printed (stdout, then stderr), and return its stdout's lines.

    The command runs in a child process (this Python, ``sys.executable -m gamelib``) where the platform
    has processes; in a browser (Pyodide, ``sys.platform == "emscripten"``, which has none) :func:`main`
    runs in this process instead, on the same arguments, its output captured. ``arguments`` is split as
    a POSIX shell would split it (quotes keep a tree's text together). Raises ValueError for text a
    shell could not split (an unclosed quote).
    """
    argv = shlex.split(arguments)
    print("$ python -m gamelib", arguments)
    if sys.platform == "emscripten":
        out, err = io.StringIO(), io.StringIO()
        with redirect_stdout(out), redirect_stderr(err):
            main(argv)
        stdout, stderr = out.getvalue(), err.getvalue()
    else:
        done = subprocess.run([sys.executable, "-m", "gamelib", *argv], capture_output=True, text=True,
                              check=False)
        stdout, stderr = done.stdout, done.stderr
    print(stdout + stderr, end="")
    return stdout.splitlines()


def _run_game_command(args: argparse.Namespace) -> int:
    """Run ``match``, ``engine`` or ``play``; bad input (a ValueError) is one line and status 2."""
    runners = {"match": run_match_command, "engine": run_engine, "play": run_play,
               "tournament": _run_tournament}
    try:
        return runners[args.command](args)
    except ValueError as error:
        return _fail(str(error))
    except OSError as error:
        return _fail(f"{error.filename or 'a file'}: {error.strerror}")


def _run_tournament(args: argparse.Namespace) -> int:
    """``tournament``, writing the leaderboard page as well."""
    return run_tournament_command(args, write_leaderboard)


def _fail(message: str) -> int:
    print(f"python -m gamelib: error: {' '.join(message.split())}", file=sys.stderr)
    return 2
