"""The lessons' questions that are not code, checked: predictions, measurements and choices.

A lesson asks a student to predict what a search will do ("which moves fail high?"), to read a
number off a run or a recorded file ("how many overwrites?"), or to pick the explanation that holds
("why can the narrower window never give a wrong value?"). The student writes the answer in a
variable, ``my_...``, and the exercise's cell calls :func:`gamelib.teach.questions.check_answer` with the question's name,
the answers (every keyword starting ``my_``) and what the lesson built (the tree, the game, the
position, the summaries: every other keyword). The questions themselves, each with its judge, are
in :mod:`gamelib.teach.questions`; a judge works the truth out from a traced run, the rules or the
data, never from a stored answer, and returns one :class:`Line` a part of the answer.

A wrong part is told what is wrong without the answer: the items that do not belong (named up to three) and how many
are still to find, whether a number is too high or too low, why a chosen explanation fails, with a
hint; the reason behind the answer comes once it is right. A part with two possible answers (yes
or no, one of two searches) is told the other one, with the reason. An answer of the wrong kind (text where
a number is asked) is told what kind to give. While an answer is still ``None`` the part says, in a
neutral grey, that it is not written yet, and nothing else.
"""

from __future__ import annotations

import numbers
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from html import escape
from typing import Any

from gamelib.view.picture import RIGHT_INK

__all__ = ["QUESTIONS", "Answer", "Choice", "Line", "UnknownQuestionError", "equal_line", "names_of",
           "number_line", "question", "real_number", "set_line", "whole_number", "yes_or_no"]

RIGHT, WRONG, UNWRITTEN = "right", "wrong", "unwritten"
_COLOURS = {RIGHT: RIGHT_INK, WRONG: "#b2182b", UNWRITTEN: "#767676"}  # a question not yet answered is no error
"""Each state's colour, every one 4.5:1 or more on white (WCAG 2.1's text contrast): the quizzes' bluish
green (5.1:1, :mod:`gamelib.view.picture`), a dark red (6.9:1) and the lightest grey that passes (4.5:1).
The words say the state too (a right part says "right.", a wrong one what is wrong, an unwritten one "not
written yet"), so colour is never the only cue."""


class UnknownQuestionError(KeyError):
    """No question has that name."""

    def __str__(self) -> str:
        return str(self.args[0])


@dataclass(frozen=True)
class Line:
    """One part of an answer: ``state`` is ``"right"``, ``"wrong"`` or ``"unwritten"``; ``text``
    says so in words (what is wrong and why, for a wrong part)."""

    state: str
    text: str


@dataclass(frozen=True)
class Answer:
    """The verdict on a student's answers to question ``question``: its :class:`Line` s, in the
    order of the question's parts. ``ok`` when every part is right."""

    question: str
    lines: tuple[Line, ...]

    @property
    def ok(self) -> bool:
        """True when every part is right."""
        return all(line.state == RIGHT for line in self.lines)

    @property
    def unwritten(self) -> bool:
        """True when some part is not written yet."""
        return any(line.state == UNWRITTEN for line in self.lines)

    def __str__(self) -> str:
        return "\n".join(line.text for line in self.lines)

    def _repr_html_(self) -> str:
        return "".join(f'<p style="color:{_COLOURS[line.state]}; white-space:pre-wrap'
                       f'{"; font-style:italic" if line.state == UNWRITTEN else ""}">{escape(line.text)}</p>'
                       for line in self.lines)


@dataclass(frozen=True)
class Choice:
    """A question with lettered explanations: ``options`` maps a letter to an explanation, and
    ``why_not`` a wrong letter to why that explanation fails; ``key`` is the letter that holds."""

    options: Mapping[str, str]
    key: str
    why_not: Mapping[str, str]

    def judge(self, name: str, given: Any, holds: str) -> Line:
        """The line for letter ``given`` of answer ``name``; ``holds`` says, once it is chosen, why the
        right explanation holds."""
        letter = str(given).strip().upper()
        if letter not in self.options:
            return Line(WRONG, f"{name}: choose one of the letters {', '.join(self.options)}, not {given!r}.")
        if letter == self.key:
            return Line(RIGHT, f"{name}: right.{' ' + holds if holds else ''}")
        return Line(WRONG, f"{name}: not quite: {self.why_not[letter]}")


Judge = Callable[[Mapping[str, Any], Mapping[str, Any]], list[Line]]
QUESTIONS: dict[str, tuple[tuple[str, ...], Judge]] = {}
"""Every question by name: the answers it takes (``my_...``) and the judge that checks them."""


def question(name: str, *answers: str) -> Callable[[Judge], Judge]:
    """Register the decorated judge as question ``name``, taking the student's ``answers``."""
    def register(judge: Judge) -> Judge:
        QUESTIONS[name] = (answers, judge)
        return judge
    return register


def _shown(given: Any) -> str:
    return repr(given) if len(repr(given)) <= 40 else repr(given)[:37] + "..."


def whole_number(name: str, given: Any) -> int | Line:
    """``given`` as an int if it is a whole number (numpy's too; not a bool, a float or text), else
    the line that asks for one."""
    if isinstance(given, bool) or not isinstance(given, numbers.Integral):
        return Line(WRONG, f"{name}: give a whole number, like 3, not {_shown(given)}.")
    return int(given)


def real_number(name: str, given: Any) -> float | Line:
    """``given`` as a float if it is a number (numpy's too; not a bool or text), else the line
    that asks for one."""
    if isinstance(given, bool) or not isinstance(given, numbers.Real):
        return Line(WRONG, f"{name}: give a number, not {_shown(given)}.")
    return float(given)


def yes_or_no(name: str, given: Any) -> bool | Line:
    """``given`` if it is True or False (numpy's too), else the line that asks for one."""
    if type(given).__name__ not in ("bool", "bool_"):
        return Line(WRONG, f"{name}: give True or False, not {_shown(given)}.")
    return bool(given)


def names_of(name: str, given: Any, example: str) -> set[str] | Line:
    """``given`` as a set of names (each item as lower-case text: square names and node ids read
    whatever their case), if it is a set, list or tuple; else the line that asks for a set like
    ``example``."""
    if not isinstance(given, (set, frozenset, list, tuple)):
        return Line(WRONG, f"{name}: give a set, like {example}, not {_shown(given)}.")
    return {str(item).strip().lower() for item in given}


NAMED_EXTRAS = 3
"""The most items given in error that a set's answer names; past it, it says only how many (else an answer that
gives every item would be told exactly which are wrong, and so the answer)."""


def set_line(name: str, mine: set[str], right: set[str], what: str, *, hint: str = "", why: str = "") -> Line:
    """Right, or what is wrong without the answer: the items given that are not ``what``
    ("among the squares with the biggest gain"; named if at most :data:`NAMED_EXTRAS`, else counted), and how
    many are still to find; then ``hint``. ``why`` is said once the answer is right."""
    if mine == right:
        return Line(RIGHT, f"{name}: right.{' ' + why if why else ''}")
    extra, missing, kept = sorted(mine - right, key=_natural), len(right - mine), len(mine & right)
    parts = [f"{_count(kept)} of yours {'is' if kept == 1 else 'are'} right"] if kept else []
    if len(extra) > NAMED_EXTRAS:  # named, so many would tell the answer to whoever gives every item
        parts.append(f"{_count(len(extra))} of yours are not {what}")
    elif extra:
        parts.append(f"{' and '.join(extra)} {'is' if len(extra) == 1 else 'are'} not {what}")
    if missing:
        parts.append(f"{_count(missing)} more {'is' if missing == 1 else 'are'} to find" if mine & right or extra
                     else f"there {'is' if missing == 1 else 'are'} {_count(missing)}, and you have none of them")
    if not right and not extra:
        parts = ["there are none"]
    return Line(WRONG, f"{name}: not quite: {'; '.join(parts)}.{' ' + hint if hint else ''}")


def _count(number: int) -> str:
    """A count in words up to ten ("three"), so that it is not read as a node id beside one."""
    words = ("none", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
    return words[number] if number < len(words) else f"{number:,}"


def _natural(name: str) -> tuple[int, str]:
    """Node ids in numeric order, square names in the alphabet's: "2" before "10"."""
    return (int(name), "") if name.isdigit() else (1 << 30, name)


def number_line(name: str, mine: int, right: int, *, hint: str = "", why: str = "") -> Line:
    """Right, or whether ``mine`` is too high or too low, then ``hint``; ``why`` once right."""
    if mine == right:
        return Line(RIGHT, f"{name}: right.{' ' + why if why else ''}")
    return Line(WRONG, f"{name}: not quite: {mine} is too {'high' if mine > right else 'low'}."
                       f"{' ' + hint if hint else ''}")


def equal_line(name: str, mine: Any, right: Any, *, why: str = "") -> Line:
    """Right, or the right one of two answers (a yes or no, one of two names, one of two rules):
    there is nothing to hide once one of two is wrong, so the answer and ``why`` are said either way."""
    if mine == right:
        return Line(RIGHT, f"{name}: right.{' ' + why if why else ''}")
    return Line(WRONG, f"{name}: not quite: it is {right}, not {mine}.{' ' + why if why else ''}")
