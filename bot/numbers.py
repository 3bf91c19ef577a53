"""Numbers people and clients write: game numbers after a command, ids in ``/start`` links and
in callback data. One parser for all of them, so that what one place accepts, every place does.

Python's own tests are too kind for input: ``"²".isdigit()`` is true but ``int("²")`` raises,
``int("٣")`` is 3, and ``int`` takes ``"-5"``, ``" 7 "`` and ``"1_000"`` too. A number here is
ASCII digits and nothing else, and not too long: an id of 2**63 or more fits no database
column (SQLite raises ``OverflowError``), and no game has one.

>>> parse_number("12"), parse_number("007"), parse_number(str(10**ID_DIGITS - 1)) is not None
(12, 7, True)
>>> [parse_number(t) for t in ("", "²", "٣", "-5", "+5", " 7 ", "1_000", "7.0", "1" * 19)]
[None, None, None, None, None, None, None, None, None]
"""

from __future__ import annotations

from typing import Final

ID_DIGITS: Final = 18
"""At most this many digits make an id: every such number is below 2**63, so it fits SQLite's
integers and PostgreSQL's ``BIGINT`` (Telegram's user ids need 16 digits)."""
COUNT_DIGITS: Final = 10
"""At most this many digits make a count: a move number, a board's version, a stake, a level
(compared with what the bot knows, never written as given)."""


def parse_number(text: str, digits: int = ID_DIGITS) -> int | None:
    """Returns the number ``text`` writes in 1 to ``digits`` ASCII digits, else None."""
    if 0 < len(text) <= digits and text.isascii() and text.isdigit():
        return int(text)
    return None
