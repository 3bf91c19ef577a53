"""Position IDs: a position in 14 characters that are safe to type, paste and put in a link.

In the spirit of GNU Backgammon's position ID, extended for nardy: the ID also names the
variant and the side to move, so it says which game it is and can be played on from::

    long w / 24:15 / 24:15                            AAAAH__AAAA__4
    short w / 24:2 13:5 8:3 6:5 / 24:2 13:5 8:3 6:5   IHzg-ADAfOD4AM

84 bits (the variant, the side to move, each side's checkers per point in unary) written as 14
characters of base64url (:data:`ALPHABET`); the layout, bit by bit, is :func:`encode`'s. Every
position has exactly one ID: :func:`decode` refuses anything :func:`encode` would not write.
A GNU Backgammon ID is not a nardy ID, nor the reverse.
"""

from __future__ import annotations

from typing import Final, Protocol

from .errors import InvalidPositionError
from .types import BAR, CHECKERS, FAMILY, OFF, Family, Side

ALPHABET: Final = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
"""base64url's 64 characters, each standing for its index."""
LENGTH: Final = 14
"""Characters in every position ID."""
BITS: Final = 6 * LENGTH
"""Bits an ID carries: 84, the most a position needs (4 + 2 × (15 + 25))."""
VARIANT_CODES: Final = ("long", "short", "abkhaz", "gulbara", "crazy_gulbara")
"""The variants by their three-bit number in an ID (the order is part of the format)."""

_VALUES: Final = {char: value for value, char in enumerate(ALPHABET)}


def _slots(variant: str) -> range:
    """The slots written for each side: its points 1..24, and the bar on the short board."""
    return range(1, BAR + 1) if FAMILY[variant] is Family.SHORT else range(1, 25)


class Checkers(Protocol):
    """What an ID is made of: a :class:`~bot.engine.position.Position`'s variant, side to move
    and both sides' checkers (by slot: off, the points 1..24, the bar). The codec reads these
    and gives them back, and :class:`Position` builds itself from them, so that this module
    needs nothing of the class (which calls it)."""

    @property
    def variant(self) -> str: ...
    @property
    def turn(self) -> Side: ...
    @property
    def white(self) -> tuple[int, ...]: ...
    @property
    def black(self) -> tuple[int, ...]: ...


def encode(position: Checkers) -> str:
    """Returns the position ID of ``position``. The bit string, in order:

    1. three bits, the variant: 0 ``long``, 1 ``short``, 2 ``abkhaz``, 3 ``gulbara``,
       4 ``crazy_gulbara`` (5 to 7 are not used);
    2. one bit, the side to move: 0 white, 1 black;
    3. white's checkers: for each of white's own points from 1 to 24, then the bar (on the short
       board only: long nardy and the gul-baras have none), as many 1s as white has checkers
       there, then a 0;
    4. black's checkers the same way, in black's own numbering;
    5. 0s up to 84 bits, the longest a position can need (4 + 2 × (15 + 25)).

    Checkers borne off are not written: each side has the 15 minus those on the board and the
    bar. The 84 bits are written as 14 characters of base64url (RFC 4648 §5: ``A``–``Z``,
    ``a``–``z``, ``0``–``9``, ``-``, ``_``), six bits a character, the first bit the highest,
    without padding. :func:`decode` refuses anything this would not write (another length or
    character, an unused variant number, more than 15 checkers a side, checkers of both colours
    on one point, a bar on the long board, bits left over).

    >>> from bot.engine import Position
    >>> encode(Position.from_text("long w / 24:15 / 24:15"))
    'AAAAH__AAAA__4'
    """
    value = VARIANT_CODES.index(position.variant) << 1 | (position.turn is Side.BLACK)
    length = 4
    for checkers in (position.white, position.black):
        for slot in _slots(position.variant):
            count = checkers[slot]
            value = ((value << count | ((1 << count) - 1)) << 1) if count else value << 1
            length += count + 1
    value <<= BITS - length
    return "".join(ALPHABET[value >> shift & 63] for shift in range(BITS - 6, -1, -6))


def decode(text: str) -> tuple[str, Side, tuple[int, ...], tuple[int, ...]]:
    """Returns what the ID ``text`` stands for: the variant, the side to move, white's and
    black's checkers by slot (:meth:`Position.from_id <bot.engine.position.Position.from_id>`
    makes the position of them, and checks it).

    >>> variant, turn, white, black = decode("AAAAH__AAAA__4")
    >>> variant, turn, white[24], black[24]
    ('long', <Side.WHITE: 'w'>, 15, 15)

    :raises: :exc:`~bot.engine.errors.InvalidPositionError` if ``text`` is not a position ID
        (the message says what is wrong).
    """
    if not isinstance(text, str) or len(text) != LENGTH:
        shown = len(text) if isinstance(text, str) else type(text).__name__
        raise InvalidPositionError(
            f"a position ID is {LENGTH} characters (A-Z, a-z, 0-9, - and _), not {shown}"
        )
    value = 0
    for char in text:
        found = _VALUES.get(char)
        if found is None:
            raise InvalidPositionError(f"{char!r} is not a character of a position ID ({text})")
        value = value << 6 | found
    bits = _Bits(value)
    code = bits.take(3)
    if code >= len(VARIANT_CODES):
        raise InvalidPositionError(f"position ID {text}: no variant has the number {code}")
    variant = VARIANT_CODES[code]
    turn = Side.BLACK if bits.take(1) else Side.WHITE
    sides = []
    for name in ("white", "black"):
        slots = [0] * (BAR + 1)
        on_board = 0
        for slot in _slots(variant):
            count = bits.ones(CHECKERS - on_board)
            if count is None:
                raise InvalidPositionError(
                    f"position ID {text}: {name} has more than {CHECKERS} checkers"
                )
            on_board += count
            slots[slot] = count
        slots[OFF] = CHECKERS - on_board
        sides.append(tuple(slots))
    if bits.rest():
        raise InvalidPositionError(f"position ID {text}: bits are left over after the checkers")
    return variant, turn, sides[0], sides[1]


class _Bits:
    """Reads the 84 bits of an ID from the highest down."""

    def __init__(self, value: int) -> None:
        self._value = value
        self._left = BITS

    def take(self, count: int) -> int:
        self._left -= count
        return self._value >> self._left & ((1 << count) - 1)

    def ones(self, most: int) -> int | None:
        """Counts the 1s up to the next 0 and reads past it; None when there are more than
        ``most``. (The bits cannot run out first: 84 of them hold 30 checkers and every 0.)"""
        count = 0
        while self._left and self.take(1):
            count += 1
            if count > most:
                return None
        return count

    def rest(self) -> int:
        """The bits not read yet (0 for an ID that :func:`encode` wrote)."""
        return self._value & ((1 << self._left) - 1)
