"""Provably fair dice: every die of a game derived from a secret seed, by commit and reveal.

When a game starts, the bot draws a secret *server seed* (32 random bytes) and shows its
*commitment*, the SHA-256 of the seed in hex; the *client value* is one nobody knew before (the
id Telegram gives the tap that started the game). Die ``n``, counting from 0 every die of the
game in the order rolled (the opening roll's dice and their re-rolls included), is::

    digest = HMAC-SHA256(key = seed, message = f"{client}:{n}:{k}".encode())   # k = 0 first
    die    = b % 6 + 1 for the first byte b of digest with b < 252

If all 32 bytes are rejected, the same die tries ``k = 1``, then 2 ... The seed is revealed when
the game ends, so anyone can check it against the commitment and recompute every die.
:class:`FairDice` is the dice source a game rolls with (the one method of
:class:`random.Random` the engine rolls with, ``randint(1, 6)``); :class:`Roll` is one roll as
the game's roll log keeps it, with its number (the number of its first die) and who rolled.
"""

from __future__ import annotations

import hashlib
import hmac
import itertools
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from .dice import DiceMode
from .errors import NardyError
from .game import Game
from .rules import RuleSet
from .types import Side

SEED_BYTES: Final = 32
"""The server seed's length: as many bytes as SHA-256 gives, so no guess can be cheaper than
trying every seed."""
ACCEPT_BELOW: Final = 252
"""Bytes below this make a die (42 for each face); bytes 252..255 are rejected."""
CLIENT_VALUE: Final = re.compile(r"[!-~]{1,128}")
"""A client value: 1..128 printable ASCII characters without spaces (a callback query id
is a short string of digits), so that it fits a line of the moves file as it is."""


class FairDiceError(NardyError, ValueError):
    """Raised for a seed or client value that cannot make fair dice, and for anything else
    asked of fair dice than one die at a time."""


def commitment(seed: bytes) -> str:
    """The commitment to ``seed``: its SHA-256 as 64 lower-case hex digits.

    >>> commitment(bytes(32))[:16]
    '66687aadf862bd77'
    """
    return hashlib.sha256(seed).hexdigest()


def die_message(client: str, number: int, attempt: int = 0) -> bytes:
    """The HMAC message of die ``number``'s ``attempt``-th digest: ``client:number:attempt``
    in ASCII.

    >>> die_message("4242", 17)
    b'4242:17:0'
    """
    return f"{client}:{number}:{attempt}".encode("ascii")


def face(digests: Iterable[bytes]) -> int:
    """The die that a stream of digests gives: the first byte below :data:`ACCEPT_BELOW`,
    modulo 6, plus 1 (bytes 252..255 are skipped, the next digest read when one runs out).

    >>> face([bytes([255, 252, 13])]), face([bytes([253] * 32), bytes([0])])
    (2, 1)

    :raises: :exc:`FairDiceError` if the stream ends before an accepted byte.
    """
    for digest in digests:
        for byte in digest:
            if byte < ACCEPT_BELOW:
                return byte % 6 + 1
    raise FairDiceError("the digests ran out before a byte below 252")


def derive_die(seed: bytes, client: str, number: int) -> int:
    """Die ``number`` of a game with ``seed`` and ``client`` (the module docstring's
    formula)."""
    return face(
        hmac.new(seed, die_message(client, number, attempt), hashlib.sha256).digest()
        for attempt in itertools.count()
    )


def check_seed(seed: bytes) -> None:
    """:raises: :exc:`FairDiceError` unless ``seed`` is :data:`SEED_BYTES` bytes."""
    if type(seed) is not bytes or len(seed) != SEED_BYTES:
        raise FairDiceError(f"a server seed is {SEED_BYTES} bytes")


def check_client(client: str) -> None:
    """:raises: :exc:`FairDiceError` unless ``client`` is a client value
    (:data:`CLIENT_VALUE`)."""
    if type(client) is not str or not CLIENT_VALUE.fullmatch(client):
        raise FairDiceError(
            f"a client value is 1..128 printable ASCII characters without spaces: {client!r}"
        )


@dataclass(frozen=True, slots=True)
class Roll:
    """One roll of a game: its ``number`` (the number of its first die: the roll's dice are
    dice ``number``, ``number + 1`` ...), the side that rolled, and the dice as rolled.

    Each side's die of the opening roll is a roll of one die (re-rolls on equal dice too);
    the starter's first roll after it is a roll of its own (two dice in long nardy and
    gul-bara, the third die in the three dice mode of the short variants, none otherwise).

    >>> str(Roll(4, Side.WHITE, (5, 2))), Roll.from_text("0 b 6")
    ('4 w 5-2', Roll(number=0, side=<Side.BLACK: 'b'>, values=(6,)))
    """

    number: int
    side: Side
    values: tuple[int, ...]

    def __post_init__(self) -> None:
        if type(self.number) is not int or self.number < 0:
            raise FairDiceError(f"a roll's number counts from 0, not {self.number!r}")
        if not 1 <= len(self.values) <= 3 or any(
            type(v) is not int or not 1 <= v <= 6 for v in self.values
        ):
            raise FairDiceError(f"a roll is one to three dice showing 1..6, not {self.values!r}")

    @property
    def end(self) -> int:
        """The number of the die after this roll's last."""
        return self.number + len(self.values)

    def to_text(self) -> str:
        """``<number> <w|b> <dice>``: ``4 w 5-2``, ``0 b 6``, ``12 b 6-3-5``."""
        return f"{self.number} {self.side.value} {'-'.join(map(str, self.values))}"

    @classmethod
    def from_text(cls, text: str) -> Roll:
        """Reads what :meth:`to_text` writes.

        :raises: :exc:`FairDiceError` if ``text`` is not a roll.
        """
        found = _ROLL.fullmatch(text.strip())
        if found is None:
            raise FairDiceError(f"a roll is written like '4 w 5-2', not {text!r}")
        number, side, dice = found.groups()
        return cls(int(number), Side(side), tuple(int(v) for v in dice.split("-")))

    def __str__(self) -> str:
        return self.to_text()


_ROLL: Final = re.compile(r"(\d{1,9}) ([wb]) ([1-6](?:-[1-6]){0,2})")


class FairDice:
    """The dice of one game: die ``n`` is :func:`derive_die` of the game's seed, client value
    and ``n``, and the dice are rolled in order from ``count`` (0 for a new game; the number of
    dice rolled so far for a game read back from storage, so it goes on where it stopped).

    It stands in for the :class:`random.Random` that :meth:`Game.start` and :meth:`Game.roll`
    take (they call ``randint(1, 6)`` once a die); :meth:`start` and :meth:`roll` do that and
    return the :class:`Roll` records as well. Its ``repr`` shows the commitment, never the seed.
    """

    __slots__ = ("_client", "_count", "_drawn", "_seed")

    def __init__(self, seed: bytes, client: str, count: int = 0) -> None:
        """:raises: :exc:`FairDiceError` for a seed or client value that is not one, or a
        negative count."""
        check_seed(seed)
        check_client(client)
        if type(count) is not int or count < 0:
            raise FairDiceError(f"dice are counted from 0, not {count!r}")
        self._seed = seed
        self._client = client
        self._count = count
        self._drawn: list[int] | None = None  # the dice rolled, while start() records them

    @property
    def count(self) -> int:
        """The number of the next die (how many dice the game has rolled)."""
        return self._count

    @property
    def client(self) -> str:
        return self._client

    @property
    def commitment(self) -> str:
        """The SHA-256 of the seed, in hex (:func:`commitment`)."""
        return commitment(self._seed)

    def randint(self, a: int, b: int, /) -> int:
        """The next die, as :meth:`random.Random.randint` ``(1, 6)`` would give one.

        :raises: :exc:`FairDiceError` for any other range: these dice have six faces.
        """
        if (a, b) != (1, 6):
            raise FairDiceError(f"fair dice give 1..6, not {a}..{b}")
        value = derive_die(self._seed, self._client, self._count)
        self._count += 1
        if self._drawn is not None:
            self._drawn.append(value)
        return value

    def start(
        self,
        variant: str,
        *,
        rules: RuleSet | str | None = None,
        cube: bool = False,
        dice_mode: DiceMode | str = DiceMode.TWO,
    ) -> tuple[Game, tuple[Roll, ...]]:
        """:meth:`Game.start` with these dice, and the rolls it made: white's and black's die
        of the opening roll (again while they are equal), then the starter's first roll when
        it makes one.

        :raises: what :meth:`Game.start` raises.
        """
        first = self._count
        drawn: list[int] = []
        self._drawn = drawn
        try:
            game = Game.start(variant, self, rules=rules, cube=cube, dice_mode=dice_mode)
        finally:
            self._drawn = None
        rolls: list[Roll] = []
        number, index = first, 0
        while True:  # Game.start rolls white's die, then black's, until they differ
            white, black = drawn[index], drawn[index + 1]
            rolls += [Roll(number, Side.WHITE, (white,)), Roll(number + 1, Side.BLACK, (black,))]
            number, index = number + 2, index + 2
            if white != black:
                break
        if index < len(drawn):
            rolls.append(Roll(number, game.turn, tuple(drawn[index:])))
        return game, tuple(rolls)

    def roll(self, game: Game) -> tuple[Game, Roll]:
        """:meth:`Game.roll` with these dice, and the roll it made.

        :raises: what :meth:`Game.roll` raises.
        """
        number = self._count
        rolled = game.roll(self)
        assert rolled.dice is not None
        return rolled, Roll(number, rolled.turn, rolled.dice.values)

    def __repr__(self) -> str:
        return (
            f"FairDice(commitment={self.commitment!r}, client={self._client!r}, "
            f"count={self._count})"
        )
