"""Text crossing the course's edge: what a person types, checked as it enters; CSV cells, made safe as they leave.

What a person types, checked where it enters: bounded numbers in ASCII digits, short quotes.

The command line, the engine line protocol and the tree loader read numbers and names that people
type. Python's ``int`` reads far more than that: ``int("٣")`` is 3 (an Arabic-Indic digit),
``int("1_000")`` is 1000 and ``int(" 7 ")`` is 7, and nothing stops ``99999999999999999999``. Here
a number is ASCII digits and nothing else, inside stated bounds, and an error quotes at most a
short prefix of what was typed (an error about a 100 MB line must not be 100 MB long).

>>> whole_number("12", 0, 200, "a number of plies")
12
>>> whole_number("٣", 0, 200, "a number of plies")
Traceback (most recent call last):
...
ValueError: '٣' is not a number of plies: give a whole number from 0 to 200 in ASCII digits
>>> decimal_number("0.5", 0.001, 600, "a number of seconds")
0.5

Cells for the CSV files the course writes: text a spreadsheet would read as a formula made harmless.

A spreadsheet (Excel, LibreOffice Calc, Google Sheets) opening a CSV file runs a cell that starts
with ``=`` as a formula, and one that starts with ``+``, ``-`` or ``@`` too; some skip white space
or a line break before looking, some read the fullwidth forms (``＝``) as the ASCII ones, and a tab
or a carriage return at the start lets a cell slip past filters. A student's name (a file's stem), a
team's name or a verdict quoting a student's code is such text (CSV injection; OWASP's "CSV
Injection" page). :func:`spreadsheet_safe` puts a ``'`` before every cell that could start a
formula, as OWASP advises, so the spreadsheet shows the text as text; :func:`spreadsheet_text`
takes it off again when the course reads its own CSV back; :func:`spreadsheet_row` applies
:func:`spreadsheet_safe` to a row's text and leaves its numbers alone.

Every CSV writer of the course uses these: the grades CSV (:mod:`gamelib.teach.grading`) and a
tournament's ``standings.csv`` (:mod:`gamelib.play.match_stats`). This module is in ``games``, the
lowest room, so that any room can write a CSV through it.

>>> [spreadsheet_safe(cell) for cell in ("=1+1", " =1+1", "\\n=1+1", "＝1+1", "ada", "'quoted")]
["'=1+1", "' =1+1", "'\\n=1+1", "'＝1+1", 'ada', "''quoted"]
>>> spreadsheet_row(["-1.5", -1.5, 3])
["'-1.5", -1.5, 3]
>>> spreadsheet_text(spreadsheet_safe(" =1+1"))
' =1+1'
"""

from __future__ import annotations

import math
import re
import reprlib
import unicodedata
from collections.abc import Iterable
from typing import Any

__all__ = ["FORMULA_CHARACTERS", "decimal_number", "formula_like", "shown", "spreadsheet_row",
           "spreadsheet_safe", "spreadsheet_text", "whole_number"]


_SHORT = reprlib.Repr()
_SHORT.maxstring = _SHORT.maxother = 40
_SHORT.maxlist = _SHORT.maxdict = 6
_SHORT.maxlevel = 3

_WHOLE = re.compile(r"-?[0-9]{1,40}")
_DECIMAL = re.compile(r"[0-9]{1,40}(\.[0-9]{0,40})?|\.[0-9]{1,40}")


def shown(value: Any) -> str:
    """``repr(value)`` cut short for a one-line error: 40 characters of a string, 6 items of a
    list, 3 levels of nesting (a deeply nested list is never walked to its bottom).

    >>> shown("x" * 100)
    "'xxxxxxxxxxxxxxxxx...xxxxxxxxxxxxxxxxxx'"
    >>> shown([[[[1]]]]), shown(["a", "b"])
    ('[[[[...]]]]', "['a', 'b']")
    """
    return _SHORT.repr(value)


def whole_number(text: str, low: int, high: int, what: str) -> int:
    """``text`` as a whole number from ``low`` to ``high``: ASCII digits, a ``-`` in front if
    ``low`` is negative, nothing else (no spaces, signs, underscores or other scripts' digits).

    Raises ValueError saying "'TEXT' is not WHAT: give a whole number from LOW to HIGH in ASCII
    digits" (``what`` as "a number of plies", "a seed").
    """
    if _WHOLE.fullmatch(text) and (low < 0 or not text.startswith("-")):
        value = int(text)
        if low <= value <= high:
            return value
    raise ValueError(f"{shown(text)} is not {what}: give a whole number from {low:,} to {high:,} in ASCII digits")


def decimal_number(text: str, low: float, high: float, what: str) -> float:
    """``text`` as a decimal number from ``low`` to ``high``: ASCII digits with an optional
    decimal point (``2``, ``0.25``, ``.5``; no exponent, sign, ``inf`` or ``nan``).

    Raises ValueError saying "'TEXT' is not WHAT: give a number from LOW to HIGH in ASCII digits".
    """
    if _DECIMAL.fullmatch(text):
        value = float(text)
        if low <= value <= high:
            return value
    raise ValueError(f"{shown(text)} is not {what}: give a number from {low:g} to {high:g} in ASCII digits "
                     "(a decimal point allowed)")


FORMULA_CHARACTERS = frozenset("=+-@")
"""The characters that start a formula. A character counts as one of them if its Unicode
compatibility form (NFKC) is one: the fullwidth ``＝ ＋ － ＠`` and the small ``﹦ ﹢ ﹣ ﹫`` too;
and so does U+2212, the minus sign."""

_MINUS_SIGN = "\u2212"

_BLANK_CATEGORIES = frozenset({"Cc", "Cf", "Zs", "Zl", "Zp"})
"""Unicode categories a spreadsheet may skip before the first character it reads: control
characters (tab, line breaks, NUL), format characters (a byte-order mark, a zero-width space) and
every kind of space and line or paragraph separator."""


def _blank(character: str) -> bool:
    return character.isspace() or unicodedata.category(character) in _BLANK_CATEGORIES


def _starts_formula(character: str) -> bool:
    return character == _MINUS_SIGN or unicodedata.normalize("NFKC", character) in FORMULA_CHARACTERS


def formula_like(cell: str) -> bool:
    """True if a spreadsheet might read ``cell`` as a formula: it starts with a tab or a carriage
    return, or its first character that is not blank (white space, a line break, a control or a
    format character such as a byte-order mark or a zero-width space) is one of
    :data:`FORMULA_CHARACTERS` (ASCII, fullwidth or small, or the minus sign)."""
    if cell.startswith(("\t", "\r")):
        return True
    for character in cell:
        if not _blank(character):
            return _starts_formula(character)
    return False


def spreadsheet_safe(cell: str) -> str:
    """``cell`` with a ``'`` before it if it is :func:`formula_like` (OWASP's advice on CSV
    injection) or starts with ``'`` itself (so that :func:`spreadsheet_text` can tell the two
    apart); any other cell unchanged.

    >>> print(spreadsheet_safe('=HYPERLINK("http://x", "ok")'), spreadsheet_safe("ada"))
    '=HYPERLINK("http://x", "ok") ada
    """
    return "'" + cell if cell.startswith("'") or formula_like(cell) else cell


def spreadsheet_text(cell: str) -> str:
    """The text :func:`spreadsheet_safe` was given for ``cell``: its ``'`` taken off again if it
    put one there (``spreadsheet_text(spreadsheet_safe(text)) == text`` for any text)."""
    rest = cell[1:]
    return rest if cell.startswith("'") and (rest.startswith("'") or formula_like(rest)) else cell


def spreadsheet_row(values: Iterable[object]) -> list[object]:
    """The cells of a CSV row: each finite ``int`` or ``float`` as it is (a number the program
    computed, such as a rating of -35.2, is a number to a spreadsheet, not a formula, and a ``'``
    would turn it into text), anything else as :func:`spreadsheet_safe` of its ``str`` (text that
    looks like a number, "-1.5", is still text from outside and gets its ``'``; so does the float
    ``-inf``, which is no number to a spreadsheet)."""
    return [value if isinstance(value, int) or (isinstance(value, float) and math.isfinite(value))
            else spreadsheet_safe(str(value)) for value in values]
