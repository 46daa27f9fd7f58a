"""What a person types, checked where it enters: bounded numbers in ASCII digits, short quotes.

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
"""

from __future__ import annotations

import re
import reprlib
from typing import Any

__all__ = ["decimal_number", "shown", "whole_number"]

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
