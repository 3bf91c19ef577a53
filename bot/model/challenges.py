"""Challenges: the terms a game is offered on, the invitation to play and the messages that
show it, with the repository that keeps them."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Final, Protocol

from bot.engine import (
    DiceMode,
    Position,
    RuleSet,
    StakeMode,
    commitment,
    resolve_rules,
)

from .users import computer_level


class ChallengeStatus(enum.Enum):
    """Where a challenge stands."""

    OPEN = "open"
    ACCEPTED = "accepted"
    DECLINED = "declined"
    CANCELLED = "cancelled"
    EXPIRED = "expired"


TRAINING_VARIANTS: Final = ("long", "short", "abkhaz")
"""The variants a training game may be played in: those whose every turn plays one roll (no
gul-bara remainder or chain), so a turn can be taken back to the roll before it."""


@dataclass(frozen=True, slots=True)
class Terms:
    """What a challenge offers besides its players: the variant and its rules, a single game or
    a match to ``match_length``, the cube, the dice, the time for a move, a stake in chips with
    the table that prices it, hints, watchers, and the position to start at.

    Asked for (``/play``, an inline query), the rule set and the move time may be left to the
    defaults; a :class:`Challenge` holds them settled (the challenge service names both when it
    opens one), so that every version of a challenge says exactly what its game will be."""

    variant: str = "long"
    rule_set: str | None = None
    """The variant's rule set by name; None: the variant's default."""
    match_length: int = 0
    """Points to win a match; 0 for a single game."""
    cube: bool = False
    stake: int = 0
    """Chips per game (times the result's multiplier); 0 plays for nothing."""
    stake_mode: StakeMode = StakeMode.RULES
    dice_mode: DiceMode = DiceMode.TWO
    """How many dice a roll has (short variants: two, three, or three with a strike)."""
    hints: bool = False
    """Both players get the 💡 button (between people; always so against the computer)."""
    move_seconds: int | None = None
    """The time for a move, in seconds; None: the bot's default."""
    watchable: bool = True
    """A game between private chats is open to watchers (a Watch link); False: the players
    keep it private. Nothing to choose in a group, where everyone sees the board."""
    start: Position | None = None
    """The position the game starts at ("play from here"), its side to move rolling first and
    played by the challenger; None: the variant's start after an opening roll. It decides the
    variant, and makes a single game without a stake."""
    training: bool = False
    """A training game against the computer: each of the player's turns judged, the better
    turn shown, a take-back to try again (:mod:`bot.services.training`); a single game of two
    dice without the cube, in a variant of :data:`TRAINING_VARIANTS`."""

    @property
    def rules(self) -> RuleSet:
        """The rule set :attr:`rule_set` names (the variant's default for None)."""
        return resolve_rules(self.variant, self.rule_set)


@dataclass(frozen=True, slots=True)
class Challenge:
    """An invitation to play, open until someone accepts it or it expires. Its ``terms`` are
    settled: they name the rule set and the move time. A version of it may change its terms
    and its ``target_id`` (the computer's level), nothing else."""

    id: int
    chat_id: int
    challenger_id: int
    target_id: int | None
    target_username: str | None
    terms: Terms
    locale: str
    status: ChallengeStatus
    expires_at: float
    game_id: int | None
    version: int
    inline_message_id: str | None = None
    """The inline message that shows the invitation, posted through the challenger in a chat
    the bot may not be in (inline mode); its game is played in that message. None elsewhere."""
    dice_seed: bytes | None = field(default=None, repr=False)
    """The secret seed of the game's fair dice, drawn with the challenge so that its
    commitment is shown before anyone accepts (and so before the client value, the accepting
    tap's id, exists); None for challenges made before it. Never shown: see
    :attr:`dice_commitment`."""

    @property
    def move_seconds(self) -> int:
        """The time for a move its terms name (settled: never the default's None)."""
        seconds = self.terms.move_seconds
        assert seconds is not None, "a challenge's terms name the move time"
        return seconds

    @property
    def dice_commitment(self) -> str | None:
        """The SHA-256 of :attr:`dice_seed` (what the challenge shows), if it has one."""
        return commitment(self.dice_seed) if self.dice_seed is not None else None

    @property
    def computer_level(self) -> int | None:
        """The level when the challenge is to play the computer, else None."""
        return None if self.target_id is None else computer_level(self.target_id)

    @property
    def in_private_chat(self) -> bool:
        """Made in the challenger's private chat (not posted inline from there): its game is
        played between private chats."""
        return self.chat_id == self.challenger_id and self.inline_message_id is None

    @property
    def is_open(self) -> bool:
        """True while it can still be accepted."""
        return self.status is ChallengeStatus.OPEN


@dataclass(frozen=True, slots=True)
class ChallengeMessage:
    """A message that shows a challenge with its buttons: where it was made, an invitation
    sent to the challenged, or a link opened (one a chat). Its buttons count only there."""

    challenge_id: int
    chat_id: int
    message_id: int | None
    """None while it is being sent (or when its sending got no answer)."""
    locale: str
    """The language it is written in (the bot edits it in the same one)."""


class ChallengeRepository(Protocol):
    """Challenges, with the same optimistic versioning as games; the terms of every version are
    kept, so that a button drawn for one can be told what changed since."""

    async def create(
        self,
        *,
        chat_id: int,
        challenger_id: int,
        target_id: int | None,
        target_username: str | None,
        terms: Terms,
        locale: str,
        expires_at: float,
        now: float,
        inline_message_id: str | None = None,
        dice_seed: bytes | None = None,
    ) -> Challenge:
        """Stores a new open challenge on ``terms`` (settled: they name the rule set and the move
        time) and returns it (``dice_seed``: the secret seed of the game it will start, whose
        commitment the challenge shows)."""

    async def get(self, challenge_id: int) -> Challenge | None:
        """Returns the challenge, if it exists."""

    async def by_inline_message(self, inline_message_id: str) -> Challenge | None:
        """Returns the challenge shown by that inline message, if there is one."""

    async def save(self, challenge: Challenge, *, expected_version: int) -> Challenge:
        """Writes ``challenge`` if nobody changed it since ``expected_version``, and keeps the terms
        of its new version."""

    async def at_version(self, challenge: Challenge, version: int) -> Challenge | None:
        """``challenge`` with the terms it offered at ``version`` (None for a version it never had
        open: a forged one)."""

    async def show(
        self, challenge_id: int, chat_id: int, message_id: int | None, locale: str
    ) -> None:
        """Records that ``message_id`` in ``chat_id`` shows the challenge, written in ``locale``
        (None: a message is being sent there): the one message of it in that chat (an earlier one
        there no longer counts). No version change: its buttons, already drawn, stay valid."""

    async def shown_by(self, chat_id: int, message_id: int) -> int | None:
        """The challenge that message ``message_id`` in ``chat_id`` shows, if any."""

    async def messages(self, challenge_id: int) -> list[ChallengeMessage]:
        """The messages that show the challenge, by chat."""

    async def pending_invitation(
        self, challenger_id: int, *, target_id: int | None, target_username: str | None, now: float
    ) -> Challenge | None:
        """The challenger's latest open challenge, not yet run out at ``now``, to the user
        ``target_id`` or to the (lowercase) ``target_username`` it was made to; None if none."""

    async def expired(self, now: float) -> list[Challenge]:
        """Open challenges whose time is up."""

    async def open_by(self, challenger_id: int, now: float) -> list[Challenge]:
        """The user's challenges still open."""
