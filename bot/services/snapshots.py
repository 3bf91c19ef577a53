"""What a view needs to show a game, as of one version (:class:`GameSnapshot`): the stored
game, its players, their score and match, its luck; and the turn being tapped, worked out once
(on a thread) for the caption, the buttons, the picture and the Mini App alike."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from bot.engine import Game, Played, Side, TurnInput
from bot.engine.lazy import lazy
from bot.model import MatchRecord, PlayerLuck, StoredGame, Tally, User

from .autoanalysis import MatchLuck

WHOLE_TURN_BUTTONS: Final = 16
"""At most this many ways to finish a turn are offered as one button each (one tap finishes the
turn); with more, the player taps step by step until they are few enough. 16 keeps a board's
keyboard to eight rows and, in self-play of long nardy, a turn to 1.9 board edits on average
(``bench/edits.py``)."""


@dataclass(frozen=True)
class GameSnapshot:
    """Everything a view needs to show a game, as of one version."""

    stored: StoredGame
    white: User
    black: User
    score: Tally
    """Finished games between the two, from white's side."""
    match: MatchRecord | None = None
    """The match the game belongs to, with its score after this game once it is over."""
    luck: tuple[PlayerLuck, ...] = ()
    """A finished game's luck and PR per side (white's first), once its automatic analysis
    is done."""
    match_luck: MatchLuck | None = None
    """A finished match's luck per player over its analysed games, on its games' boards once
    the match is over and one of them is analysed."""

    @property
    def game(self) -> Game:
        return self.stored.game

    @lazy
    def turn_input(self) -> TurnInput | None:
        """The turn being tapped (None when the game is over or nobody has dice); worked out
        once per snapshot, since the caption, the buttons and the picture all need it."""
        return turn_input(self.stored)

    @lazy
    def finishes(self) -> tuple[tuple[Played, ...], ...] | None:
        """The ways to finish the turn being tapped, when there are at most
        :data:`WHOLE_TURN_BUTTONS` (the keyboard's whole-turn buttons), else None."""
        current = self.turn_input
        return None if current is None else current.finishes(WHOLE_TURN_BUTTONS)

    def prepare(self) -> None:
        """Works out what the views ask of the turn being tapped (its finishes, else its next
        steps; whether it is complete; the position it has reached), so that showing the
        snapshot searches nothing: called on a thread, as the turn's first look can take
        seconds."""
        current = self.turn_input
        if current is None:
            return
        if self.finishes is None:
            _ = current.options
        _ = current.is_complete, current.current

    def user(self, side: Side) -> User:
        return self.white if side is Side.WHITE else self.black


def turn_input(stored: StoredGame) -> TurnInput | None:
    """The turn the player to move is tapping, with the taps already made replayed (None while
    there is nothing to play: over, before the roll, while a die is to be struck)."""
    game = stored.game
    if game.moves is None:
        return None
    return game.turn_input().replay(stored.input)
