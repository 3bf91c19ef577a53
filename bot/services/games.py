"""The game service: challenges, turns tapped step by step, the cube, matches, timeouts, and
results with what they pay. No Telegram here.

Every action names the game (or challenge) and the ``version`` its button was drawn for. Actions
on one game run one at a time (a lock per game), and the write checks the version again in the
database, so a stale, replayed or forged tap is refused and changes nothing.

A result is saved in one transaction with its chips (:func:`.chips.settle`), the match score and
both players' ratings: a crash leaves all of them or none, and a replayed result pays nothing.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Final, TypeVar

from bot.engine import (
    CubeError,
    Game,
    IllegalTurnError,
    Played,
    Side,
    StakeMode,
    TurnInput,
    resolve_rules,
    steps_text,
)
from bot.storage import (
    Board,
    Challenge,
    ChallengeStatus,
    MatchRecord,
    Store,
    StoredGame,
    Tally,
    User,
    VersionConflict,
)

from . import chips
from .errors import (
    BotChallenge,
    ChallengeClosed,
    ChallengeNotFound,
    GameFinished,
    GameNotFound,
    NoNextGame,
    NotAPlayer,
    NotChallenger,
    NotEnoughChips,
    NotForYou,
    NotYourTurn,
    OwnChallenge,
    SelfChallenge,
    StaleAction,
)
from .ratings import rate_game

CHALLENGE_SECONDS: Final = 15 * 60
"""How long a challenge stays open."""

VARIANT_CHOICES: Final = ("long", "short")
RULE_SET_CHOICES: Final = {"long": ("classic", "sheshbesh", "karzar"), "short": ("standard",)}
TIME_CHOICES: Final = (30, 60, 90, 180, 300)
"""Move times a challenger can pick, in seconds (the configured default joins them)."""
MATCH_CHOICES: Final = (0, 3, 5, 7, 9)
"""Match lengths a challenger can pick; 0 is a single game."""
STAKE_MODE_CHOICES: Final = tuple(StakeMode)

T = TypeVar("T")

MAX_AUTOMATIC_TURNS: Final = 200
"""Passes and forced turns played in a row without a player; a guard, never reached in play."""

WHOLE_TURN_BUTTONS: Final = 16
"""At most this many ways to finish a turn are offered as one button each (one tap finishes the
turn); with more, the player taps step by step until they are few enough. 16 keeps a board's
keyboard to eight rows and, in self-play of long nardy, a turn to 1.9 board edits on average
(``bench/edits.py``)."""


@dataclass(frozen=True, slots=True)
class Terms:
    """What a challenge offers besides its players: the variant, a single game or a match to
    ``match_length``, the cube, and a stake in chips with the table that prices it."""

    variant: str = "long"
    match_length: int = 0
    cube: bool = False
    stake: int = 0
    stake_mode: StakeMode = StakeMode.RULES


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

    @property
    def game(self) -> Game:
        return self.stored.game

    @cached_property
    def turn_input(self) -> TurnInput | None:
        """The turn being tapped (None when the game is over or nobody has dice); worked out
        once per snapshot, since the caption, the buttons and the picture all need it."""
        return turn_input(self.stored)

    @cached_property
    def finishes(self) -> tuple[tuple[Played, ...], ...] | None:
        """The ways to finish the turn being tapped, when there are at most
        :data:`WHOLE_TURN_BUTTONS` (the keyboard's whole-turn buttons), else None."""
        current = self.turn_input
        return None if current is None else current.finishes(WHOLE_TURN_BUTTONS)

    def user(self, side: Side) -> User:
        return self.white if side is Side.WHITE else self.black


class GameService:
    """Challenges and games for the bot's handlers (ids and domain values in, snapshots out)."""

    def __init__(
        self,
        store: Store,
        rng: random.Random,
        *,
        move_seconds: int = 90,
        clock: Callable[[], float] = time.time,
        challenge_seconds: int = CHALLENGE_SECONDS,
    ) -> None:
        self._store = store
        self._rng = rng
        self._clock = clock
        self.move_seconds = move_seconds
        self._challenge_seconds = challenge_seconds
        self._locks: defaultdict[tuple[str, int], asyncio.Lock] = defaultdict(asyncio.Lock)
        # Read on every snapshot; this process is their only writer (one bot process per
        # database: Telegram allows one getUpdates consumer per token anyway).
        self._users: dict[int, User] = {}
        self._scores: dict[tuple[int, int], Tally] = {}

    async def claim_update(self, update_id: int) -> bool:
        """Records that an update is being handled; False if it was handled before."""
        return await self._store.updates.claim(update_id, self._clock())

    # --- users -----------------------------------------------------------------------------

    async def see_user(
        self,
        user_id: int,
        *,
        username: str | None,
        first_name: str,
        language_code: str | None,
        private_chat: bool = False,
    ) -> User:
        """Records a user met in an update (names change; a private chat opens invitations)."""
        user = await self._store.users.upsert(
            user_id,
            username=username,
            first_name=first_name,
            language_code=language_code,
            private_chat=private_chat,
            now=self._clock(),
        )
        if user.username:  # the username has left whoever had it before
            self._users = {k: v for k, v in self._users.items() if v.username != user.username}
        self._users[user_id] = user
        return user

    async def user_by_username(self, username: str) -> User | None:
        """The user with that @username, if the bot has seen them."""
        return await self._store.users.by_username(username)

    async def user(self, user_id: int) -> User | None:
        """The user with ``user_id``, if the bot has seen them."""
        found = self._users.get(user_id)
        if found is None:
            found = await self._store.users.get(user_id)
            if found is not None:
                self._users[user_id] = found
        return found

    async def set_quick(self, user_id: int, quick: bool) -> User | None:
        """Turns the user's quick mode on or off (a tap that completes a turn confirms it);
        returns the user, or None if the bot has not seen them."""
        await self._store.users.set_quick(user_id, quick)
        self._users.pop(user_id, None)
        return await self.user(user_id)

    async def mark_blocked(self, user_id: int) -> None:
        """Notes that the user blocked the bot: no more private messages until they return."""
        await self._store.users.set_blocked(user_id, True)
        self._users.pop(user_id, None)

    # --- challenges ------------------------------------------------------------------------

    async def challenge(
        self,
        *,
        chat_id: int,
        challenger: User,
        target: User | None = None,
        target_username: str | None = None,
        target_is_bot: bool = False,
        locale: str,
        terms: Terms = Terms(),
    ) -> Challenge:
        """Opens a challenge in ``chat_id``: to ``target``, to an unseen ``target_username``, or
        to anyone when neither is given, on ``terms`` (the challenger can change them until it
        is accepted).

        :raises: :exc:`SelfChallenge`, :exc:`BotChallenge`; :exc:`NotEnoughChips` for a stake
            above the challenger's balance; :exc:`ValueError` for a match length or stake that
            is not one of the choices.
        """
        if target_username and not target:
            target = await self._store.users.by_username(target_username)
        if target is not None and target.id == challenger.id:
            raise SelfChallenge()
        name = (target.username if target else target_username) or ""
        if target_is_bot or name.lower().endswith("bot"):
            # Telegram requires every bot's username to end in "bot"
            raise BotChallenge()
        if terms.match_length not in MATCH_CHOICES or terms.stake not in chips.STAKE_CHOICES:
            raise ValueError(f"not a choice: {terms}")
        now = self._clock()
        if terms.stake:
            held = await chips.balance(self._store, challenger.id, now)
            if held < terms.stake:
                raise NotEnoughChips(name=challenger.mention, chips=held)
        return await self._store.challenges.create(
            chat_id=chat_id,
            challenger_id=challenger.id,
            target_id=target.id if target else None,
            target_username=None if target else (target_username or "").lstrip("@").lower() or None,
            variant=terms.variant,
            rule_set=resolve_rules(terms.variant, None).name,
            move_seconds=self.move_seconds,
            locale=locale,
            expires_at=now + self._challenge_seconds,
            now=now,
            match_length=terms.match_length,
            cube=terms.cube,
            stake=terms.stake,
            stake_mode=terms.stake_mode,
        )

    async def private_invitation(
        self, *, challenger: User, target_username: str, locale: str, terms: Terms = Terms()
    ) -> tuple[Challenge, User | None]:
        """A challenge made in a private chat: returns it and the invited user when the bot can
        write to them privately (else the caller shares a link).

        :raises: :exc:`SelfChallenge`, :exc:`BotChallenge`.
        """
        target = await self._store.users.by_username(target_username)
        challenge = await self.challenge(
            chat_id=challenger.id,
            challenger=challenger,
            target=target,
            target_username=target_username,
            locale=locale,
            terms=terms,
        )
        reachable = target if target and target.private_chat and not target.blocked else None
        return challenge, reachable

    async def rematch(self, game_id: int, player: User, *, chat_id: int, locale: str) -> Challenge:
        """A new challenge from ``player`` to the opponent of a finished game, same options.

        :raises: :exc:`NotAPlayer`, :exc:`StaleAction` if the game is not over.
        """
        stored = await self._get(game_id)
        side = stored.side_of(player.id)
        if side is None:
            raise NotAPlayer()
        if not stored.game.is_over:
            raise StaleAction()
        opponent = await self._store.users.get(stored.player(side.other))
        match = await self._store.matches.get(stored.match_id) if stored.match_id else None
        now = self._clock()
        return await self._store.challenges.create(
            chat_id=chat_id,
            challenger_id=player.id,
            target_id=opponent.id if opponent else None,
            target_username=None,
            variant=stored.game.variant,
            rule_set=stored.game.rules.name,
            move_seconds=stored.move_seconds,
            locale=locale,
            expires_at=now + self._challenge_seconds,
            now=now,
            match_length=match.match.length if match else 0,
            cube=match.cube if match else stored.game.cube is not None,
            stake=stored.stake,
            stake_mode=stored.stake_mode,
        )

    async def get_challenge(self, challenge_id: int) -> Challenge:
        found = await self._store.challenges.get(challenge_id)
        if found is None:
            raise ChallengeNotFound()
        return found

    async def set_challenge_message(self, challenge: Challenge, message_id: int) -> None:
        """Records the message that shows the challenge."""
        await self._store.challenges.set_message(challenge.id, message_id)

    async def change_option(
        self, challenge_id: int, user_id: int, version: int, option: str
    ) -> Challenge:
        """The challenger cycles an option: ``variant``, ``rules`` or ``time``."""
        async with self._locks["challenge", challenge_id]:
            challenge = await self._open_challenge(challenge_id, version)
            if user_id != challenge.challenger_id:
                raise NotChallenger()
            if option == "variant":
                variant = _next(VARIANT_CHOICES, challenge.variant)
                changed = replace(challenge, variant=variant, rule_set=RULE_SET_CHOICES[variant][0])
            elif option == "rules":
                rule_sets = RULE_SET_CHOICES[challenge.variant]
                changed = replace(challenge, rule_set=_next(rule_sets, challenge.rule_set))
            elif option == "time":
                times = tuple(sorted({*TIME_CHOICES, self.move_seconds}))
                changed = replace(challenge, move_seconds=_next(times, challenge.move_seconds))
            elif option == "match":
                changed = replace(
                    challenge, match_length=_next(MATCH_CHOICES, challenge.match_length)
                )
            elif option == "cube":
                changed = replace(challenge, cube=not challenge.cube)
            elif option == "stake":
                held = await chips.balance(self._store, user_id, self._clock())
                stakes = tuple(s for s in chips.STAKE_CHOICES if s <= held)
                changed = replace(challenge, stake=_next(stakes, challenge.stake))
            elif option == "stake_mode":
                modes = STAKE_MODE_CHOICES
                changed = replace(challenge, stake_mode=_next(modes, challenge.stake_mode))
            else:
                raise StaleAction()
            return await self._save_challenge(changed, version)

    async def decline(self, challenge_id: int, user_id: int) -> Challenge:
        """The challenged user declines, or the challenger withdraws the challenge."""
        async with self._locks["challenge", challenge_id]:
            challenge = await self._open_challenge(challenge_id)
            if user_id == challenge.challenger_id:
                status = ChallengeStatus.CANCELLED
            elif self._is_target(challenge, user_id, await self._store.users.get(user_id)):
                status = ChallengeStatus.DECLINED
            else:
                raise NotForYou()
            return await self._save_challenge(replace(challenge, status=status), challenge.version)

    async def accept(self, challenge_id: int, user: User) -> tuple[Challenge, GameSnapshot]:
        """``user`` accepts: the game starts with the options as they are now (challenger white,
        the opening roll decides who moves first) and the challenge is closed.

        Accepting and declining take no version: an invitation shown in another chat keeps
        working when the challenger changes an option, and the board shows the final ones.

        :raises: :exc:`OwnChallenge`, :exc:`NotForYou`, :exc:`ChallengeClosed`.
        """
        async with self._locks["challenge", challenge_id]:
            challenge = await self._open_challenge(challenge_id)
            if user.id == challenge.challenger_id:
                raise OwnChallenge()
            if not self._is_target(challenge, user.id, user):
                raise NotForYou()
            now = self._clock()
            if challenge.stake:
                for player_id in (challenge.challenger_id, user.id):
                    held = await chips.balance(self._store, player_id, now)
                    if held < challenge.stake:
                        player = await self.user(player_id)
                        raise NotEnoughChips(name=player.mention if player else "?", chips=held)
            private = challenge.chat_id == challenge.challenger_id
            boards = (
                [(challenge.challenger_id, Side.WHITE), (user.id, Side.BLACK)]
                if private
                else [(challenge.chat_id, Side.WHITE)]
            )
            async with self._store.transaction():
                match = None
                if challenge.match_length:
                    match = await self._store.matches.create(
                        length=challenge.match_length, cube=challenge.cube, now=now
                    )
                stored = await self._start_game(
                    chat_id=0 if private else challenge.chat_id,
                    white_id=challenge.challenger_id,
                    black_id=user.id,
                    variant=challenge.variant,
                    rule_set=challenge.rule_set,
                    cube=challenge.cube,
                    move_seconds=challenge.move_seconds,
                    locale=challenge.locale,
                    boards=boards,
                    stake=challenge.stake,
                    stake_mode=challenge.stake_mode,
                    match_id=match.id if match else None,
                )
                closed = await self._save_challenge(
                    replace(
                        challenge,
                        status=ChallengeStatus.ACCEPTED,
                        target_id=user.id,
                        game_id=stored.id,
                    ),
                    challenge.version,
                )
            return closed, await self._snapshot(stored)

    async def next_game(self, game_id: int, user_id: int) -> GameSnapshot:
        """Starts the next game of a match after its finished game ``game_id``, same players,
        colours, options and boards; without the cube in the Crawford game.

        :raises: :exc:`NotAPlayer`; :exc:`NoNextGame` if the game is not over, not part of a
            match, the match is over, or its next game has already started.
        """
        async with self._locks["game", game_id]:
            stored = await self._get(game_id)
            if stored.side_of(user_id) is None:
                raise NotAPlayer()
            if stored.match_id is None or not stored.game.is_over:
                raise NoNextGame()
            match = await self._store.matches.get(stored.match_id)
            if match is None or match.match.is_over:
                raise NoNextGame()
            boards = [(b.chat_id, b.viewer) for b in await self._store.games.boards(game_id)]
            try:
                started = await self._start_game(
                    chat_id=stored.chat_id,
                    white_id=stored.white_id,
                    black_id=stored.black_id,
                    variant=stored.game.variant,
                    rule_set=stored.game.rules.name,
                    cube=match.cube and match.match.cube_allowed,
                    move_seconds=stored.move_seconds,
                    locale=stored.locale,
                    boards=boards,
                    stake=stored.stake,
                    stake_mode=stored.stake_mode,
                    match_id=match.id,
                    game_no=stored.game_no + 1,
                )
            except VersionConflict:  # the other player was quicker
                raise NoNextGame() from None
            return await self._snapshot(started)

    async def _start_game(
        self,
        *,
        chat_id: int,
        white_id: int,
        black_id: int,
        variant: str,
        rule_set: str,
        cube: bool,
        move_seconds: int,
        locale: str,
        boards: list[tuple[int, Side]],
        stake: int,
        stake_mode: StakeMode,
        match_id: int | None,
        game_no: int = 1,
    ) -> StoredGame:
        """Rolls a new game's opening (playing forced turns) and stores it."""
        now = self._clock()
        game = Game.start(variant, self._rng, rules=rule_set, cube=cube)
        game, history, last_turn = self._play_automatic(game, ())
        return await self._store.games.create(
            chat_id=chat_id,
            white_id=white_id,
            black_id=black_id,
            game=game,
            move_seconds=move_seconds,
            deadline=None if game.is_over else now + move_seconds,
            locale=locale,
            boards=boards,
            now=now,
            history=history,
            last_turn=last_turn,
            match_id=match_id,
            game_no=game_no,
            stake=stake,
            stake_mode=stake_mode,
        )

    async def expire_challenges(self) -> list[Challenge]:
        """Closes the challenges whose time ran out; returns them as closed."""
        closed = []
        for challenge in await self._store.challenges.expired(self._clock()):
            async with self._locks["challenge", challenge.id]:
                try:
                    closed.append(
                        await self._save_challenge(
                            replace(challenge, status=ChallengeStatus.EXPIRED), challenge.version
                        )
                    )
                except StaleAction:
                    continue
        return closed

    async def _open_challenge(self, challenge_id: int, version: int | None = None) -> Challenge:
        challenge = await self.get_challenge(challenge_id)
        if not challenge.is_open or challenge.expires_at <= self._clock():
            raise ChallengeClosed()
        if version is not None and challenge.version != version:
            raise StaleAction()
        return challenge

    async def _save_challenge(self, challenge: Challenge, version: int) -> Challenge:
        try:
            return await self._store.challenges.save(challenge, expected_version=version)
        except VersionConflict:
            raise StaleAction() from None

    @staticmethod
    def _is_target(challenge: Challenge, user_id: int, user: User | None) -> bool:
        if challenge.target_id is not None:
            return challenge.target_id == user_id
        if challenge.target_username is not None:
            return bool(user and user.username == challenge.target_username)
        return True  # an open challenge: anyone but the challenger

    # --- turns -----------------------------------------------------------------------------

    async def snapshot(self, game_id: int) -> GameSnapshot:
        """The game as it stands."""
        return await self._snapshot(await self._get(game_id))

    async def choose(self, game_id: int, user_id: int, version: int, index: int) -> GameSnapshot:
        """Plays the ``index``-th offered step of the turn being tapped, and with it a remainder
        that can be played one way only; in quick mode a step that completes the turn
        confirms it."""
        async with self._locks["game", game_id]:
            stored, turn_input = await self._mover_input(game_id, user_id, version)
            if not 0 <= index < len(turn_input.options):
                raise StaleAction()
            chosen = turn_input.play(turn_input.options[index]).with_forced()
            return await self._after_tap(stored, chosen, user_id, version)

    async def finish(self, game_id: int, user_id: int, version: int, index: int) -> GameSnapshot:
        """Finishes the turn being tapped the ``index``-th way of
        :attr:`GameSnapshot.finishes` (a whole-turn button); in quick mode this confirms it."""
        async with self._locks["game", game_id]:
            stored, turn_input = await self._mover_input(game_id, user_id, version)
            finishes = turn_input.finishes(WHOLE_TURN_BUTTONS)
            if finishes is None or not 0 <= index < len(finishes):
                raise StaleAction()
            chosen = turn_input.finish(finishes[index])
            return await self._after_tap(stored, chosen, user_id, version)

    async def undo(self, game_id: int, user_id: int, version: int) -> GameSnapshot:
        """Takes back the last tap of this turn (a step with its forced remainder, or a
        finish)."""
        async with self._locks["game", game_id]:
            stored, turn_input = await self._mover_input(game_id, user_id, version)
            if not turn_input.taps:
                raise StaleAction()
            return await self._save(replace(stored, input=turn_input.undo().taps), version)

    async def confirm(self, game_id: int, user_id: int, version: int) -> GameSnapshot:
        """Commits the tapped turn, then rolls for the next player (playing passes and forced
        turns for them)."""
        async with self._locks["game", game_id]:
            stored, turn_input = await self._mover_input(game_id, user_id, version)
            if not turn_input.is_complete:
                raise StaleAction()
            return await self._commit(stored, turn_input, version)

    async def _after_tap(
        self, stored: StoredGame, chosen: TurnInput, user_id: int, version: int
    ) -> GameSnapshot:
        """Saves a tap: the turn committed at once when it is complete and the player plays in
        quick mode, else the taps so far."""
        if chosen.is_complete:
            player = await self.user(user_id)
            if player is not None and player.quick:
                return await self._commit(stored, chosen, version)
        return await self._save(replace(stored, input=chosen.taps), version)

    async def _commit(
        self, stored: StoredGame, turn_input: TurnInput, version: int
    ) -> GameSnapshot:
        """Plays the complete ``turn_input`` and rolls for the next player, in one save: the
        board's next edit shows the turn and the next roll together."""
        turn = turn_input.turn()
        game = stored.game
        line = _history_line(game, turn.played)
        game = game.play(turn)
        game, history, last_turn = self._play_automatic(game, (*stored.history, line))
        return await self._save(
            replace(
                stored,
                game=game,
                input=(),
                history=history,
                last_turn=last_turn or turn.played,
                deadline=self._clock() + stored.move_seconds,
            ),
            version,
        )

    async def roll(self, game_id: int, user_id: int, version: int) -> GameSnapshot:
        """The player to move rolls instead of doubling (passes and forced turns play
        themselves)."""
        return await self._act(game_id, user_id, version, "roll")

    async def double(self, game_id: int, user_id: int, version: int) -> GameSnapshot:
        """The player to move offers to double."""
        return await self._act(game_id, user_id, version, "double")

    async def take(self, game_id: int, user_id: int, version: int) -> GameSnapshot:
        """The opponent takes the offered double; the doubler then rolls."""
        return await self._act(game_id, user_id, version, "take")

    async def drop(self, game_id: int, user_id: int, version: int) -> GameSnapshot:
        """The opponent drops the offered double and loses the game at the cube's value."""
        return await self._act(game_id, user_id, version, "drop")

    async def _act(self, game_id: int, user_id: int, version: int, action: str) -> GameSnapshot:
        async with self._locks["game", game_id]:
            stored = await self._get(game_id)
            side = _playing_side(stored, user_id)
            game = stored.game
            if side is not game.to_act:
                raise NotYourTurn()
            if stored.version != version:
                raise StaleAction()
            try:
                if action == "roll":
                    game, line = game.roll(self._rng), None
                elif action == "double":
                    game = game.double()
                    line = f"{side.value} double {game.cube_value * 2}"
                elif action == "take":
                    game, line = game.take(), f"{side.value} take"
                else:
                    game, line = game.drop(), f"{side.value} drop"
            except (CubeError, IllegalTurnError):  # the game has moved on since the button
                raise StaleAction() from None
            history = (*stored.history, line) if line else stored.history
            game, history, last_turn = self._play_automatic(game, history)
            return await self._save(
                replace(
                    stored,
                    game=game,
                    history=history,
                    last_turn=last_turn or stored.last_turn,
                    deadline=self._clock() + stored.move_seconds,
                ),
                version,
            )

    async def resign(self, game_id: int, user_id: int) -> GameSnapshot:
        """``user_id`` resigns the game, at any moment of it."""
        async with self._locks["game", game_id]:
            stored = await self._get(game_id)
            side = _playing_side(stored, user_id)
            return await self._save(
                _concluded(stored, stored.game.resign(side), f"{side.value} resign"),
                stored.version,
            )

    async def timeouts(self) -> list[GameSnapshot]:
        """Ends the games whose player to move ran out of time; returns them."""
        ended = []
        for game_id in await self._store.games.due(self._clock()):
            async with self._locks["game", game_id]:
                stored = await self._get(game_id)
                if stored.game.is_over or stored.deadline is None:
                    continue
                if stored.deadline > self._clock():
                    continue
                line = f"{stored.game.to_act.value} timeout"
                try:
                    ended.append(
                        await self._save(
                            _concluded(stored, stored.game.timeout(), line), stored.version
                        )
                    )
                except StaleAction:
                    continue
        return ended

    async def active_games(self, user_id: int, chat_id: int | None = None) -> list[StoredGame]:
        """Unfinished games of the user, in one chat or anywhere."""
        return await self._store.games.active_for(user_id, chat_id)

    async def boards(self, game_id: int) -> list[Board]:
        """The messages that show the game."""
        return await self._store.games.boards(game_id)

    async def set_board_message(self, game_id: int, chat_id: int, message_id: int) -> None:
        """Records the message that now shows the game in ``chat_id``."""
        await self._store.games.set_board_message(game_id, chat_id, message_id)

    async def set_board_shown(self, board: Board, version: int) -> None:
        """Records that ``board`` (its message) now shows ``version`` of its game."""
        await self._store.games.set_board_shown(board.game_id, board.chat_id, version)

    async def behind(self, within: float = 24 * 3600) -> list[int]:
        """The ids of games with a board not known to show their latest version (the bot
        stopped between saving a change and showing it): unfinished ones, and ones finished
        ``within`` seconds."""
        return await self._store.games.behind(self._clock() - within)

    async def move_chat(self, old_chat_id: int, new_chat_id: int) -> None:
        """Follows a group that became a supergroup."""
        await self._store.games.move_chat(old_chat_id, new_chat_id)
        await self._store.leagues.move_chat(old_chat_id, new_chat_id)

    async def postpone_deadlines(self, since: float, seconds: float) -> int:
        """Stops the clocks for a time the players could not reach the bot (a Telegram outage
        from ``since`` lasting ``seconds``): every running game's deadline after ``since`` moves
        ``seconds`` later. Versions stay, so buttons pressed meanwhile still count. Returns how
        many games it moved."""
        return await self._store.games.postpone_deadlines(since, seconds)

    # --- inside ----------------------------------------------------------------------------

    async def _get(self, game_id: int) -> StoredGame:
        stored = await self._store.games.get(game_id)
        if stored is None:
            raise GameNotFound()
        return stored

    async def _mover_input(
        self, game_id: int, user_id: int, version: int
    ) -> tuple[StoredGame, TurnInput]:
        stored = await self._get(game_id)
        side = _playing_side(stored, user_id)
        if side is not stored.game.turn:
            raise NotYourTurn()
        if stored.version != version:
            raise StaleAction()
        tapped = turn_input(stored)
        if tapped is None:
            raise StaleAction()
        return stored, tapped

    async def _save(self, stored: StoredGame, version: int) -> GameSnapshot:
        """Saves the game if it is still at ``version``; a result is saved in one transaction
        with what it pays, the match score and the ratings."""
        now = self._clock()
        try:
            if not stored.game.is_over:
                saved = await self._store.games.save(stored, expected_version=version, now=now)
            else:
                async with self._store.transaction():
                    stored = await chips.settle(self._store, replace(stored, deadline=None), now)
                    saved = await self._store.games.save(stored, expected_version=version, now=now)
                    await self._record_result(saved, now)
        except VersionConflict:
            raise StaleAction() from None
        return await self._snapshot(saved)

    async def _record_result(self, stored: StoredGame, now: float) -> None:
        """Adds a finished game to its match and, unless conceded early, to the ratings."""
        result = stored.game.result
        assert result is not None
        if stored.match_id is not None:
            record = await self._store.matches.get(stored.match_id)
            if record is not None and not record.match.is_over:
                match = record.match.after_game(result.winner, result.points)
                await self._store.matches.save(stored.match_id, match, now=now)
        if chips.is_early_concession(stored):
            return
        variant = stored.game.variant
        winner, loser = stored.player(result.winner), stored.player(result.winner.other)
        ratings = self._store.ratings
        won, lost = rate_game(await ratings.get(winner, variant), await ratings.get(loser, variant))
        await ratings.set(winner, variant, won)
        await ratings.set(loser, variant, lost)

    async def _snapshot(self, stored: StoredGame) -> GameSnapshot:
        white = await self.user(stored.white_id)
        black = await self.user(stored.black_id)
        pair = (stored.white_id, stored.black_id)
        if stored.game.is_over:  # a result changes the score between the two
            self._scores.pop(pair, None)
            self._scores.pop(pair[::-1], None)
        score = self._scores.get(pair)
        if score is None:
            score = await self._store.games.head_to_head(*pair)
            self._scores[pair] = score
        match = await self._store.matches.get(stored.match_id) if stored.match_id else None
        return GameSnapshot(stored, white or _NOBODY, black or _NOBODY, score, match)

    def _play_automatic(
        self, game: Game, history: tuple[str, ...]
    ) -> tuple[Game, tuple[str, ...], tuple[Played, ...]]:
        """Rolls for the side to move and plays its passes and forced turns, until a player
        has a choice (of steps, or to double) or the game ends. Each is written to the history,
        marked as such."""
        last: tuple[Played, ...] = ()
        for _ in range(MAX_AUTOMATIC_TURNS):
            if game.is_over or game.can_double or game.to_act is not game.turn:
                break  # over, or a player chooses: to double or roll, to take or drop
            if game.dice is None:
                game = game.roll(self._rng)
            turns = game.legal_turns()
            if len(turns) > 1:
                break
            if not turns:
                history = (*history, _history_line(game, ()) + " pass")
                game = game.pass_turn()
            else:
                history = (*history, _history_line(game, turns[0].played) + " forced")
                last = turns[0].played
                game = game.play(turns[0])
        return game, history, last


_NOBODY: Final = User(0, None, "?", None)


def _playing_side(stored: StoredGame, user_id: int) -> Side:
    """The side ``user_id`` plays in a game still in progress.

    :raises: :exc:`NotAPlayer`, :exc:`GameFinished`.
    """
    side = stored.side_of(user_id)
    if side is None:
        raise NotAPlayer()
    if stored.game.is_over:
        raise GameFinished()
    return side


def _concluded(stored: StoredGame, game: Game, line: str) -> StoredGame:
    """``stored`` ended by a resignation or a timeout: the tapped steps dropped, the line
    added to the history."""
    return replace(stored, game=game, input=(), history=(*stored.history, line))


def turn_input(stored: StoredGame) -> TurnInput | None:
    """The turn the player to move is tapping, with the taps already made replayed."""
    game = stored.game
    if game.is_over or game.dice is None:
        return None
    return game.turn_input().replay(stored.input)


def _history_line(game: Game, played: tuple[Played, ...]) -> str:
    moves = steps_text([p.step for p in played]) if played else ""
    return f"{game.turn.value} {game.dice} {moves}".rstrip()


def _next(choices: tuple[T, ...], current: T) -> T:
    """The choice after ``current``, round and round (the first one if it is not a choice)."""
    index = choices.index(current) if current in choices else -1
    return choices[(index + 1) % len(choices)]
