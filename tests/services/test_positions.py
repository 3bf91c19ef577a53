"""Play from here through the services: a challenge from a position (of a finished game, or
from its ID) starts a game at exactly that position with its side to move rolling, played by
the challenger, not rated and paying no chips; finished games move by move; ``/position``'s
choice of game; replays' file ids."""

from __future__ import annotations

import random

import pytest

from bot.engine import Game, Position, Side, TurnRecord, starting_position
from bot.engine.verify import verify
from bot.model import Challenge, ChallengeStatus, User
from bot.services import GameSnapshot, Scores, Services, Terms, compose
from bot.services import errors as e
from bot.services.replays import rebuilt
from bot.storage import Store
from tests.support.clock import Clock

from ..engine.strategies import MODES, advance
from .conftest import World
from .test_scores import play_out

GROUP = -5


def _position(variant: str, plies: int, seed: int = 1) -> Position:
    """A position of a random game of ``variant`` after about ``plies`` turns."""
    rng = random.Random(f"{variant} {seed}")
    game = Game.start(variant, rng)
    for _ in range(plies):
        after = advance(game, rng)
        if after.is_over:
            break
        game = after
    return game.position


async def _from(
    services: Services, users: list[User], start: Position, **terms: object
) -> tuple[Challenge, tuple[Challenge, GameSnapshot]]:
    challenge = await services.challenges.open(
        chat_id=GROUP,
        challenger=users[0],
        target=users[1],
        locale="en",
        terms=Terms(start=start, **terms),  # type: ignore[arg-type]
    )
    return challenge, await services.lobby.accept(challenge.id, users[1])


@pytest.mark.parametrize("variant", list(MODES))
@pytest.mark.parametrize("side", [Side.WHITE, Side.BLACK])
async def test_a_game_from_a_position_starts_there_with_its_side_to_move_rolling(
    world: World, variant: str, side: Side
) -> None:
    services, _, users = world
    start = Position.from_id(_position(variant, 14).with_turn(side).to_id())
    challenge, (closed, snapshot) = await _from(services, users, start, match_length=5, stake=10)
    assert challenge.terms.start == start and challenge.terms.variant == variant
    assert (challenge.terms.match_length, challenge.terms.stake) == (0, 0)  # one game, for nothing
    assert closed.status is ChallengeStatus.ACCEPTED
    stored = snapshot.stored
    assert stored.start == start and stored.game.opening is None
    assert stored.player(side) == users[0].id  # the challenger plays the side to move
    assert stored.player(side.other) == users[1].id
    assert stored.match_id is None and stored.stake == 0
    history = [TurnRecord.from_text(line) for line in stored.history]
    if history:  # a pass or a forced turn played itself: it was the side to move's roll
        assert history[0].side is side
    else:
        assert stored.game.position == start
        assert stored.game.turn is side and stored.game.dice is not None
    # the game replays from there
    assert rebuilt(stored)[0] == start


async def test_the_first_turn_exception_holds_for_a_side_still_on_its_head(world: World) -> None:
    services, _, users = world
    start = Position.from_text("long b / 24:14 18:1 / 24:15")
    _, (_, snapshot) = await _from(services, users, start)
    stored = snapshot.stored
    if stored.history:  # black's first roll was forced (one checker off the head): played
        _, moves = rebuilt(stored)
        assert moves[0].before.first_turn and moves[0].before.moved == {Side.WHITE}
        assert moves[0].before.turn is Side.BLACK
    else:
        assert stored.game.moved == {Side.WHITE} and stored.game.first_turn


async def test_options_a_position_decides_are_refused_and_change_nothing(world: World) -> None:
    services, _, users = world
    challenge = await services.challenges.open(
        chat_id=GROUP,
        challenger=users[0],
        locale="en",
        terms=Terms(start=_position("short", 10)),
    )
    for option in ("variant", "match", "stake", "stake_mode"):
        with pytest.raises(e.StaleAction):
            await services.challenges.change_option(
                challenge.id, users[0].id, challenge.version, option, 1
            )
    assert await services.challenges.get(challenge.id) == challenge
    changed = await services.challenges.change_option(
        challenge.id, users[0].id, challenge.version, "dice", 1
    )
    assert changed.terms.dice_mode.value == "three" and changed.terms.start == challenge.terms.start


async def test_a_position_where_the_game_is_over_is_refused(world: World) -> None:
    services, _, users = world
    with pytest.raises(e.PositionOver):
        await services.challenges.open(
            chat_id=GROUP,
            challenger=users[0],
            locale="en",
            terms=Terms(start=Position.from_text("short w / 1:2 off:13 / off:15")),
        )


async def test_a_position_where_neither_side_can_ever_move_is_refused(
    world: World, store: Store
) -> None:
    services, _, users = world
    shut_out = "bar:1 13:2 6:2 5:2 4:2 3:2 2:2 1:2"  # on the bar, facing a closed board
    for start in (
        Position.from_id("LbbYDAAtttgMAC"),
        Position.from_text(f"short b / {shut_out} / {shut_out}"),
        Position.from_text(f"abkhaz w / {shut_out} / {shut_out}"),
    ):
        with pytest.raises(e.PositionDeadlocked):
            await services.challenges.open(
                chat_id=GROUP, challenger=users[0], locale="en", terms=Terms(start=start)
            )
    row = await store.database.fetch_one("SELECT COUNT(*) FROM challenges")
    assert row is not None and row[0] == 0


async def test_a_game_from_a_position_is_not_rated_pays_nothing_and_says_so(
    store: Store, clock: Clock
) -> None:
    services = compose(store, random.Random(5), move_seconds=60, clock=clock)
    service = services.games
    scores = Scores(store, clock=clock)
    users = [
        await services.users.see(i, username=name, first_name=name.title(), language_code="en")
        for i, name in ((1, "anna"), (2, "boris"))
    ]
    balances = [await scores.balance(u.id) for u in users]
    start = _position("long", 30)
    _, (_, snapshot) = await _from(services, users, start, stake=10)
    finished = await play_out(service, snapshot, random.Random(3))
    assert finished.game.is_over and finished.stored.chips_status is None
    for user in users:
        assert (await scores.rating(user.id, "long")).games == 0
        assert (await scores.stats(user.id)).games == 0  # practice: in no record
    assert [await scores.balance(u.id) for u in users] == balances
    assert (await scores.head_to_head(1, 2)).games == 0  # nor in scores and leaderboards
    assert await scores.top(GROUP) == []
    assert (await service.snapshot(finished.stored.id)).score.games == 0
    text = (await scores.moves_file(finished.stored.id, user_id=1, chat_id=1)).data.decode()
    lines = text.splitlines()
    assert "# Set up: from a position, not rated" in lines
    assert f"# Start position ID: {start.to_id()}" in lines
    assert f"# End position ID: {finished.game.position.to_id()}" in lines
    assert f"start {start.to_text()}" in lines
    assert not any(line.startswith("opening ") for line in lines)
    # its dice are fair dice like any game's: the moves file verifies from the position
    verdict = verify(text)
    assert verdict.ok, verdict.text
    tampered = text.replace(
        f"start {start.to_text()}", f"start {start.with_turn(start.turn.other).to_text()}"
    )
    assert not verify(tampered).ok
    # a rematch starts from the same position
    rematch = await services.lobby.rematch(finished.stored.id, users[1], chat_id=GROUP, locale="en")
    assert rematch.terms.start == start and rematch.challenger_id == users[1].id


async def test_a_finished_game_move_by_move_and_who_may_see_it(world: World) -> None:
    services, _, users = world
    service = services.games
    challenge = await services.challenges.open(
        chat_id=GROUP, challenger=users[0], target=users[1], locale="en"
    )
    _, snapshot = await services.lobby.accept(challenge.id, users[1])
    game_id = snapshot.stored.id
    with pytest.raises(e.GameStillPlayed):
        await services.replays.finished(game_id, user_id=users[0].id, chat_id=GROUP)
    finished = await play_out(service, snapshot, random.Random(8))
    replays = services.replays
    found = await replays.finished(game_id, user_id=users[2].id, chat_id=GROUP)  # onlooker
    turns = sum(1 for line in finished.stored.history if line.split()[1][0].isdigit())
    assert len(found.moves) == turns > 10
    assert found.start == starting_position("long").with_turn(found.moves[0].before.turn)
    assert found.position_after(0) == found.start
    # each move's board is where the next one starts, and the last is the end of the game
    for move, after in zip(found.moves, found.moves[1:], strict=False):
        assert move.after == after.before.position
    end = found.position_after(len(found.moves))
    assert (end.white, end.black) == (finished.game.position.white, finished.game.position.black)
    with pytest.raises(e.NoSuchMove):
        found.position_after(len(found.moves) + 1)
    with pytest.raises(e.NotAPlayer):  # not a player, and not where it was played
        await replays.finished(game_id, user_id=users[2].id, chat_id=users[2].id)
    with pytest.raises(e.GameNotFound):
        await replays.finished(999, user_id=users[0].id, chat_id=GROUP)
    # the board after move 10 to play on from; the end of a game played out is no start
    _, after_ten = await replays.position_after(game_id, 10, user_id=1, chat_id=1)
    assert after_ten == found.moves[9].after
    with pytest.raises(e.PositionOver):
        await replays.position_after(game_id, None, user_id=1, chat_id=1)
    with pytest.raises(e.NoSuchMove):
        await replays.position_after(game_id, -1, user_id=1, chat_id=1)


async def test_which_game_position_asks_about(world: World) -> None:
    services, _, users = world
    replays = services.replays
    with pytest.raises(e.NoGameHere):
        await replays.current(None, user_id=users[0].id, chat_id=GROUP)
    challenge = await services.challenges.open(
        chat_id=GROUP, challenger=users[0], target=users[1], locale="en"
    )
    _, snapshot = await services.lobby.accept(challenge.id, users[1])
    game_id = snapshot.stored.id
    for user in users:  # players and an onlooker, in the group
        assert (await replays.current(None, user_id=user.id, chat_id=GROUP)).id == game_id
        assert (await replays.current(game_id, user_id=user.id, chat_id=GROUP)).id == game_id
    assert (await replays.current(game_id, user_id=users[0].id, chat_id=1)).id == game_id
    with pytest.raises(e.NotAPlayer):  # an onlooker elsewhere
        await replays.current(game_id, user_id=users[2].id, chat_id=users[2].id)
    with pytest.raises(e.NoGameHere):
        await replays.current(None, user_id=users[2].id, chat_id=users[2].id)
    with pytest.raises(e.GameNotFound):
        await replays.current(999, user_id=users[0].id, chat_id=GROUP)


async def test_replay_file_ids_are_kept_per_game_and_language(world: World) -> None:
    services, _, users = world
    challenge = await services.challenges.open(
        chat_id=GROUP, challenger=users[0], target=users[1], locale="en"
    )
    _, snapshot = await services.lobby.accept(challenge.id, users[1])
    game_id, replays = snapshot.stored.id, services.replays
    assert await replays.file_id(game_id, "en") is None
    await replays.remember(game_id, "en", "A1")
    await replays.remember(game_id, "ru", "R1")
    await replays.remember(game_id, "en", "A2")
    assert (await replays.file_id(game_id, "en"), await replays.file_id(game_id, "ru")) == (
        "A2",
        "R1",
    )
    await replays.remember(game_id, "en", None)
    assert await replays.file_id(game_id, "en") is None
    assert await replays.file_id(game_id, "ru") == "R1"
