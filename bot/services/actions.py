"""What a person can do in a game, in one vocabulary for every client: the chat's buttons, an
inline message's board and the Mini App board draw what :func:`allowed` gives, and all of them
ask :meth:`GameActions.perform` to do it, so the clients never disagree on what may be done
nor on how.

A client draws the actions it has a control for (the chat has no Resign button, ``/resign``
asks first; the Mini App plays a whole turn at once rather than tap by tap) and never one
:func:`allowed` does not give; the service checks every request again, whoever sends it.
"""

from __future__ import annotations

import enum
import math
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final, TypeAlias

from bot.ai import Hint
from bot.engine import Side, Turn
from bot.model import Challenge

from .allowance import Allowance
from .errors import NotAPlayer, StaleAction, TooSoon
from .games import GameService
from .lobby import Lobby
from .snapshots import GameSnapshot


class GameAction(enum.IntEnum):
    """What a person can do in a game. The values are the chat buttons' data: they stay."""

    STEP = 1
    """Play the ``arg``-th step offered (a chat button)."""
    UNDO = 2
    """Take back the last tap of the turn."""
    CONFIRM = 3
    """Commit the turn tapped."""
    ROLL = 4
    """Roll rather than double."""
    DOUBLE = 5
    """Offer to double."""
    TAKE = 6
    """Take the double offered."""
    DROP = 7
    """Drop it, and lose the game at the cube's value."""
    FINISH = 8
    """Finish the turn the ``arg``-th way offered (a whole-turn button)."""
    STRIKE = 9
    """Anti three dice: strike the die showing ``arg``."""
    HINT = 10
    """The best turns for the roll (changes nothing)."""
    RESIGN = 11
    """Give up the game, at any moment of it."""
    NEXT_GAME = 12
    """Start the next game of the match, after a finished game of one."""
    REMATCH = 13
    """Challenge the opponent again on the same terms, after a finished game."""
    TURN = 14
    """Play a whole turn at once, given as its steps (the Mini App board's Confirm)."""


TAPS: Final = frozenset({GameAction.STEP, GameAction.FINISH, GameAction.UNDO, GameAction.CONFIRM})
"""The actions of a turn built tap by tap (the chat's buttons)."""

HINT_ALLOWANCE: Final = (3.0, 1 / 20)
"""Hints one user may ask the computer for (burst, per second): 3 at once, then one every 20 s.
A hint costs the computer's workers a search that every game's computer moves wait behind."""

HINTS_KEPT: Final = 512
"""Hints kept, by game and version: asking again (another tab, a repeated tap) costs nothing."""


def allowed(snapshot: GameSnapshot, side: Side | None) -> frozenset[GameAction]:
    """What the reader playing ``side`` may do now in ``snapshot``'s game (None: someone who
    does not play it, who may do nothing)."""
    stored, game = snapshot.stored, snapshot.game
    if side is None:
        return frozenset()
    if game.is_over:
        match = snapshot.match
        if match is not None and not match.match.is_over:
            started = match.games > stored.game_no  # its next game has started already
            return frozenset() if started else frozenset({GameAction.NEXT_GAME})
        # an inline game's chat cannot take a challenge: its rematch is a new inline query
        return frozenset() if stored.chat_instance else frozenset({GameAction.REMATCH})
    actions = {GameAction.RESIGN}
    if stored.computer_to_act or side is not game.to_act:
        return frozenset(actions)
    cube = game.cube
    if cube is not None and cube.offered:
        actions |= {GameAction.TAKE, GameAction.DROP}
    elif game.strike_pending and game.dice is not None:
        actions.add(GameAction.STRIKE)
    elif game.can_double and cube is not None:
        actions |= {GameAction.ROLL, GameAction.DOUBLE}
    elif (current := snapshot.turn_input) is not None:
        actions.add(GameAction.TURN)
        ways = snapshot.finishes
        if ways:  # few ways left: each one tap (the chat draws these rather than the steps)
            actions.add(GameAction.FINISH)
        if current.options:
            actions.add(GameAction.STEP)
        if current.taps:
            actions.add(GameAction.UNDO)
        if current.is_complete:
            actions.add(GameAction.CONFIRM)
        choices = len(ways) if ways else len(current.options)
        if stored.hints and (choices > 1 or current.taps):
            actions.add(GameAction.HINT)
    return frozenset(actions)


def strikes(snapshot: GameSnapshot) -> tuple[int, ...]:
    """The dice values that may be struck (highest first), when striking is allowed."""
    dice = snapshot.game.dice
    return tuple(sorted(set(dice.values), reverse=True)) if dice is not None else ()


Step: TypeAlias = tuple[int, int, int]
"""A step of a whole turn: ``(src, dst, die)``."""


@dataclass(frozen=True, slots=True)
class Request:
    """``user_id`` asks for ``action`` in game ``game_id``, whose ``version`` they saw (None
    where the client's control has none: a rematch, a match's next game, a resignation asked
    and confirmed)."""

    game_id: int
    user_id: int
    action: GameAction
    version: int | None = None
    arg: int = 0
    steps: tuple[Step, ...] = ()
    """:attr:`GameAction.TURN`'s steps, from the turn's start."""
    dice_client: str | None = None
    """The id of the tap that asked for a new game (its dice's client value)."""
    locale: str = "en"
    """The language of a rematch's challenge (where it is posted)."""


@dataclass(frozen=True, slots=True)
class Moved:
    """The game after the action (or the new game, after a match's next game)."""

    snapshot: GameSnapshot


@dataclass(frozen=True, slots=True)
class Hinted:
    """A hint: the computer's view of the roll, and the turn tapped so far when complete."""

    hint: Hint
    tapped: Turn | None


@dataclass(frozen=True, slots=True)
class RematchOffered:
    """The new challenge to the same opponent, for the client to post where the board is."""

    challenge: Challenge


Outcome: TypeAlias = Moved | Hinted | RematchOffered


class GameActions:
    """Performs what a person asks for in a game (see the module docstring); the changes go
    to the change feed from the services that make them."""

    def __init__(
        self,
        games: GameService,
        lobby: Lobby,
        *,
        hint_allowance: tuple[float, float] = HINT_ALLOWANCE,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._games = games
        self._lobby = lobby
        self._hints: OrderedDict[tuple[int, int], Hint] = OrderedDict()
        self._allowance = Allowance(hint_allowance, clock)

    async def perform(self, request: Request) -> Outcome:
        """Does ``request``, or refuses it changing nothing.

        :raises: a :exc:`~.errors.GameError` saying why: :exc:`~.errors.NotAPlayer`,
            :exc:`~.errors.NotYourTurn`, :exc:`~.errors.StaleAction` (another version, or a
            request no client draws), :exc:`~.errors.NoHints`, :exc:`~.errors.TooSoon` (hints
            beyond the allowance)…
        """
        games, action = self._games, request.action
        game_id, user_id, arg = request.game_id, request.user_id, request.arg
        if action is GameAction.RESIGN:
            return Moved(await games.resign(game_id, user_id))
        if action is GameAction.NEXT_GAME:
            return Moved(await games.next_game(game_id, user_id, dice_client=request.dice_client))
        if action is GameAction.REMATCH:
            return RematchOffered(await self._rematch(request))
        version = request.version
        if version is None:
            raise StaleAction()
        if action is GameAction.HINT:
            return await self._hint(game_id, user_id, version)
        if action is GameAction.STEP:
            return Moved(await games.choose(game_id, user_id, version, arg))
        if action is GameAction.FINISH:
            return Moved(await games.finish(game_id, user_id, version, arg))
        if action is GameAction.STRIKE:
            return Moved(await games.strike(game_id, user_id, version, arg))
        if action is GameAction.TURN:
            return Moved(await games.play_turn(game_id, user_id, version, request.steps))
        simple = {
            GameAction.UNDO: games.undo,
            GameAction.CONFIRM: games.confirm,
            GameAction.ROLL: games.roll,
            GameAction.DOUBLE: games.double,
            GameAction.TAKE: games.take,
            GameAction.DROP: games.drop,
        }
        return Moved(await simple[action](game_id, user_id, version))

    async def _hint(self, game_id: int, user_id: int, version: int) -> Hinted:
        """A hint, from the cache when this version's was asked for already, else within the
        user's allowance (a refusal by the game takes nothing from it)."""
        key = (game_id, version)
        kept = self._hints.get(key)
        if kept is not None:
            self._hints.move_to_end(key)
            return Hinted(*await self._games.hint(game_id, user_id, version, known=kept))
        wait = self._allowance.wait(user_id)
        if wait > 0:
            raise TooSoon(seconds=math.ceil(wait))
        self._allowance.take(user_id)
        try:
            hint, tapped = await self._games.hint(game_id, user_id, version)
        except BaseException:
            self._allowance.give_back(user_id)
            raise
        self._hints[key] = hint
        while len(self._hints) > HINTS_KEPT:
            self._hints.popitem(last=False)
        return Hinted(hint, tapped)

    async def _rematch(self, request: Request) -> Challenge:
        """A new challenge to the opponent of the finished game, posted (by the client) where
        the game's board is: its group, else the asker's private chat.

        :raises: :exc:`~.errors.NotAPlayer`, :exc:`~.errors.StaleAction` (not over, or an
            inline game: its rematch is a new inline query), and what
            :meth:`~.lobby.Lobby.rematch` raises.
        """
        snapshot = await self._games.snapshot(request.game_id)
        side = snapshot.stored.side_of(request.user_id)
        if GameAction.REMATCH not in allowed(snapshot, side):
            raise NotAPlayer() if side is None else StaleAction()
        assert side is not None
        player = snapshot.user(side)
        chat_id = snapshot.stored.chat_id or player.id
        return await self._lobby.rematch(
            request.game_id, player, chat_id=chat_id, locale=request.locale
        )
