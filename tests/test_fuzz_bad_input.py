"""Fuzzing ``python -m gamelib trace`` and the tree loader with malformed trees (issue 12).

Two properties, run in-process through :func:`gamelib.cli.main` with stdout and stderr captured:

* a tree file broken in one of many ways (each way sure to break it: a missing root, a bad value,
  a second parent, a cycle, NaN, 1e400, a key given twice, a cut-off file, a byte that is not
  UTF-8, a tree too deep, ...) always gives exit status 2, nothing on stdout, exactly one line on
  stderr and no traceback; the loader raises TreeFormatError and nothing else;
* any file and any option values (random bytes, random JSON, tree-shaped objects with random
  parts, valid trees; random text after ``--depth``, ``--table-size`` and ``--first-guess``) give
  either status 0 with JSON (or the text printout) on stdout and nothing on stderr, or status 2
  and one line.

100 + 60 examples run in ``make test``; the ``slow`` runs (``pytest -m slow
tests/test_fuzz_bad_input.py``, deselected otherwise) draw 12,000 + 8,000. No check reads a clock:
a file that took long to refuse would show as a slow test, not a failure on a busy machine. A few malformed files
also go through a real ``python -m gamelib`` process.
"""

from __future__ import annotations

import contextlib
import io
import json
import math
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from gamelib.cli import main
from gamelib.games.trees import MAX_TREE_DEPTH, TreeFormatError, load_tree
from gamelib.search.algorithms import SEARCHES
from gamelib.search.random_trees import random_tree
from tests.bad_inputs import chain


def examples(count: int) -> settings:
    """Hypothesis settings for ``count`` examples, without a per-example deadline (no check may
    depend on the machine's speed) and without health checks about slow generation."""
    return settings(max_examples=count, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


Data = dict[str, Any]
Draw = Callable[[st.SearchStrategy[Any]], Any]


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("fuzz")


def run_cli(args: list[str]) -> tuple[int, str, str]:
    """``main(args)`` in this process: (status, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(args)
    return status, out.getvalue(), err.getvalue()


def assert_one_line_error(status: int, out: str, err: str) -> None:
    assert status == 2 and out == "", (status, out[:200])
    assert err.startswith("python -m gamelib: error: ") and err.endswith("\n") and err.count("\n") == 1, err[:300]
    assert "Traceback" not in err and len(err) < 2000, err[:300]


# A valid tree to start from, and the ways to break it.

@st.composite
def valid_trees(draw: Draw) -> Data:
    tree = random_tree(branching=(1, draw(st.integers(1, 3))), depth=draw(st.integers(1, 4)), low=-9, high=9,
                       seed=draw(st.integers(0, 10**6)), to_move=draw(st.sampled_from(["max", "min"])))
    return tree.to_dict()


def leaves(data: Data) -> list[str]:
    inner = set(data["children"])
    return [node for kids in data["children"].values() for node in kids if node not in inner]


def nodes(data: Data) -> list[str]:
    return [data["root"], *(node for kids in data["children"].values() for node in kids)]


JUNK = st.one_of(st.none(), st.booleans(), st.text(max_size=8), st.lists(st.integers(), max_size=3),
                 st.dictionaries(st.text(max_size=3), st.integers(), max_size=2))
"""JSON values that are not numbers (bad values; filtered of "max" and "min" for bad players)."""


def drop_root(draw: Draw, data: Data) -> Data:
    del data["root"]
    return data


def bad_root(draw: Draw, data: Data) -> Data:
    data["root"] = draw(st.one_of(st.none(), st.integers(), st.lists(st.text(max_size=2), max_size=2)))
    return data


def bad_value(draw: Draw, data: Data) -> Data:
    data["values"][draw(st.sampled_from(leaves(data)))] = draw(JUNK)
    return data


def missing_value(draw: Draw, data: Data) -> Data:
    del data["values"][draw(st.sampled_from(leaves(data)))]
    return data


def unknown_node_valued(draw: Draw, data: Data) -> Data:
    data["values"]["zz" + draw(st.text(max_size=4))] = draw(st.integers())
    return data


def bad_children(draw: Draw, data: Data) -> Data:
    node = draw(st.sampled_from(sorted(data["children"])))
    data["children"][node] = draw(st.one_of(st.text(min_size=1, max_size=4), st.integers(), st.none(),
                                            st.lists(st.one_of(st.integers(), st.none()), min_size=1, max_size=3)
                                            .map(lambda kids: [*data["children"][node], *kids])))
    return data


def second_parent(draw: Draw, data: Data) -> Data:
    parent_of = {kid: node for node, kids in data["children"].items() for kid in kids}
    kid = draw(st.sampled_from(sorted(parent_of)))
    other = draw(st.sampled_from(sorted(node for node in nodes(data) if node not in (kid, parent_of[kid]))
                                 or [data["root"]]))
    if other == parent_of[kid]:  # a two-node tree: list the child twice instead
        data["children"][other].append(kid)
    else:
        data["children"].setdefault(other, []).append(kid)
        data["values"].pop(other, None)
    return data


def root_as_child(draw: Draw, data: Data) -> Data:
    node = draw(st.sampled_from(nodes(data)))
    data["children"].setdefault(node, []).append(data["root"])
    return data


def stray_subtree(draw: Draw, data: Data) -> Data:
    data["children"]["zz_stray"] = ["zz_kid"]
    data["values"]["zz_kid"] = 1
    return data


def bad_to_move(draw: Draw, data: Data) -> Data:
    data["to_move"] = draw(JUNK.filter(lambda value: value not in ("max", "min")))
    return data


def bad_player(draw: Draw, data: Data) -> Data:
    if draw(st.booleans()):
        data["players"] = {draw(st.sampled_from(nodes(data))): draw(JUNK.filter(lambda v: v not in ("max", "min")))}
    else:
        data["players"] = {"zz" + draw(st.text(max_size=3)): "max"}
    return data


def bad_range(draw: Draw, data: Data) -> Data:
    low = min(data["values"].values())
    data["value_range"] = draw(st.sampled_from([[low - 2, low - 1], [5, 1], [1, 1], [0], [0, 1, 2], "0..9", None,
                                                [0, "9"], [True, 9], [-math.inf, math.inf]]))
    if data["value_range"] is None:
        data["value_range"] = {}
    return data


def bad_text(draw: Draw, data: Data) -> Data:
    data[draw(st.sampled_from(["name", "source"]))] = draw(st.one_of(st.integers(), st.none(), st.lists(st.text())))
    return data


def lone_surrogate(draw: Draw, data: Data) -> Data:
    leaf = draw(st.sampled_from(leaves(data)))
    odd = draw(st.sampled_from(["\ud800", "a\udfff", "\udc00z"]))
    for node, kids in data["children"].items():
        data["children"][node] = [odd if kid == leaf else kid for kid in kids]
    data["values"][odd] = data["values"].pop(leaf)
    return data


def too_deep(draw: Draw, data: Data) -> Data:
    return chain(draw(st.integers(MAX_TREE_DEPTH + 1, 2 * MAX_TREE_DEPTH)))


def not_an_object(draw: Draw, data: Data) -> str:
    return json_text(draw(st.one_of(st.lists(st.integers(), max_size=3), st.integers(), st.text(max_size=5),
                                    st.none())))


TREE_BREAKERS = [drop_root, bad_root, bad_value, missing_value, unknown_node_valued, bad_children, second_parent,
                 root_as_child, stray_subtree, bad_to_move, bad_player, bad_range, bad_text, lone_surrogate, too_deep]
"""Changes to a valid tree's data, each of which makes it invalid."""


def json_text(data: Any) -> str:
    return json.dumps(data, allow_nan=True)


def non_finite(draw: Draw, data: Data) -> str:
    leaf = draw(st.sampled_from(leaves(data)))
    data["values"][leaf] = "@@"
    literal = draw(st.sampled_from(["NaN", "Infinity", "-Infinity", "1e400", "-1e999", "9" * 400 + ".0"]))
    return json_text(data).replace('"@@"', literal)


def repeated_key(draw: Draw, data: Data) -> str:
    """The data with one key written twice in one object (top level, 'children' or 'values')."""
    where = draw(st.sampled_from(["top", "children", "values"]))
    target = data if where == "top" else data[where]
    key = draw(st.sampled_from(sorted(target)))
    pairs = [*target.items(), (key, target[key])]
    written = "{" + ", ".join(f"{json.dumps(k)}: {json_text(v)}" for k, v in pairs) + "}"
    if where == "top":
        return written
    data[where] = "@@"
    return json_text(data).replace('"@@"', written)


def cut_short(draw: Draw, data: Data) -> str:
    text = json_text(data)
    return text[:draw(st.integers(0, len(text) - 1))]


def nested_deeply(draw: Draw, data: Data) -> str:
    depth = draw(st.integers(1, 3000))
    data["values"][draw(st.sampled_from(leaves(data)))] = "@@"
    return json_text(data).replace('"@@"', "[" * depth + "]" * depth)


TEXT_BREAKERS = [non_finite, repeated_key, cut_short, nested_deeply, not_an_object]
"""Changes to a valid tree's JSON text, each of which makes it invalid."""


@st.composite
def malformed_files(draw: Draw) -> bytes:
    """A tree file broken in one way, sometimes also carrying a byte that is never UTF-8."""
    data = draw(valid_trees())
    breaker = draw(st.sampled_from(TREE_BREAKERS + TEXT_BREAKERS))
    broken = breaker(draw, data)
    event(breaker.__name__)  # pytest --hypothesis-show-statistics counts them
    content = (broken if isinstance(broken, str) else json_text(broken)).encode("ascii")  # json.dumps escapes
    if draw(st.integers(0, 9)) == 0:
        at = draw(st.integers(0, len(content)))
        content = content[:at] + bytes([draw(st.sampled_from([0x80, 0xBF, 0xC0, 0xC1, 0xF5, 0xFF]))]) + content[at:]
    return content


def check_malformed(folder: Path, content: bytes, algorithm: str) -> None:
    path = folder / "malformed.json"
    path.write_bytes(content)
    status, out, err = run_cli(["trace", algorithm, str(path)])
    assert_one_line_error(status, out, err)
    assert str(path) in err
    with pytest.raises(TreeFormatError):
        load_tree(path)


@examples(100)
@given(content=malformed_files(), algorithm=st.sampled_from(sorted(SEARCHES)))
def test_malformed_trees_are_one_line_and_status_2(folder: Path, content: bytes, algorithm: str) -> None:
    check_malformed(folder, content, algorithm)


@pytest.mark.slow
@examples(12_000)
@given(content=malformed_files(), algorithm=st.sampled_from(sorted(SEARCHES)))
def test_malformed_trees_are_one_line_and_status_2_long(folder: Path, content: bytes, algorithm: str) -> None:
    check_malformed(folder, content, algorithm)


# Anything at all: a file and option values drawn at random.

JSON = st.recursive(st.one_of(st.none(), st.booleans(), st.integers(-10**6, 10**6), st.floats(allow_nan=False),
                              st.text(max_size=6)),
                    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=4), inner,
                                                                                          max_size=4)),
                    max_leaves=12)
IDS = st.sampled_from(["r", "a", "b", "c", "d"])


@st.composite
def tree_shaped(draw: Draw) -> Any:
    """An object with the tree format's keys, each right or wrong at random."""
    data: Data = {}
    if draw(st.booleans()):
        data["root"] = draw(st.one_of(IDS, JSON))
    if draw(st.booleans()):
        data["children"] = draw(st.dictionaries(IDS, st.one_of(st.lists(IDS, max_size=3), JSON), max_size=4))
    if draw(st.booleans()):
        data["values"] = draw(st.dictionaries(IDS, st.one_of(st.integers(-9, 9), JSON), max_size=5))
    for key, value in (("to_move", st.sampled_from(["max", "min"])), ("players", st.dictionaries(IDS, JSON)),
                       ("value_range", st.lists(st.integers(-20, 20), max_size=3))):
        if draw(st.integers(0, 3)) == 0:
            data[key] = draw(st.one_of(value, JSON))
    return data


TOKENS = st.one_of(st.sampled_from(["0", "1", "3", "200", "201", "-1", "٣", "²", "1_0", " 2", "99999999999999999999",
                                    "4194304", "4194305", "1e3", "", "1.5"]),
                   st.text(alphabet=st.characters(blacklist_categories=["Cs"], blacklist_characters="\x00"),
                           max_size=8).filter(lambda text: not text.startswith("-")))


@st.composite
def any_run(draw: Draw) -> tuple[bytes, list[str]]:
    content = draw(st.one_of(st.binary(max_size=200), JSON.map(lambda value: json_text(value).encode()),
                             tree_shaped().map(lambda value: json_text(value).encode()),
                             valid_trees().map(lambda value: json_text(value).encode())))
    options: list[str] = []
    for option in ("--depth", "--table-size", "--first-guess"):
        if draw(st.integers(0, 3)) == 0:
            options += [option, draw(TOKENS)]
    options += draw(st.lists(st.sampled_from(["--strict", "--fail-soft", "--text"]), unique=True, max_size=2))
    return content, [draw(st.sampled_from(sorted(SEARCHES))), *options]


def check_any(folder: Path, content: bytes, args: list[str]) -> None:
    path = folder / "any.json"
    path.write_bytes(content)
    status, out, err = run_cli(["trace", args[0], str(path), *args[1:]])
    event(f"status {status}")
    if status == 0:
        assert err == "" and out.endswith("\n")
        if "--text" not in args:
            json.loads(out)
    else:
        assert_one_line_error(status, out, err)


@examples(60)
@given(run=any_run())
def test_any_file_and_options_give_output_or_one_line(folder: Path, run: tuple[bytes, list[str]]) -> None:
    check_any(folder, *run)


@pytest.mark.slow
@examples(8_000)
@given(run=any_run())
def test_any_file_and_options_give_output_or_one_line_long(folder: Path, run: tuple[bytes, list[str]]) -> None:
    check_any(folder, *run)


# A handful in a real process: what a user sees, encoding and exit status included.

@examples(5)
@given(content=malformed_files())
def test_malformed_trees_in_a_real_process(folder: Path, content: bytes) -> None:
    path = folder / "process.json"
    path.write_bytes(content)
    done = subprocess.run([sys.executable, "-m", "gamelib", "trace", "alphabeta", str(path)], capture_output=True,
                          timeout=60, check=False)
    stderr = done.stderr.decode("utf-8", "replace")
    assert done.returncode == 2 and done.stdout == b"" and len(stderr.splitlines()) == 1 and "Traceback" not in stderr
