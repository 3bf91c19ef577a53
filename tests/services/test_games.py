"""The game service on a real SQLite file: challenges, taps, confirm, refusals, timeouts."""

from __future__ import annotations

import random

import pytest

from bot.engine import DiceMode, Outcome, Side
from bot.model import Challenge, ChallengeStatus, User
from bot.services import Games, GameSnapshot, Scores, Services, Terms, compose
from bot.services import errors as e
from bot.services.choices import MATCH_LENGTHS, VARIANTS
from bot.storage import Store

from .conftest import World


async def _start(
    services: Services, users: list[User], terms: Terms | None = None
) -> tuple[Challenge, GameSnapshot]:
    challenge = await services.challenges.open(
        chat_id=-5, challenger=users[0], target=users[1], locale="ru", terms=terms or Terms()
    )
    return await services.lobby.accept(challenge.id, users[1])


async def _play_turn(service: Games, snapshot: GameSnapshot) -> GameSnapshot:
    mover = snapshot.stored.player(snapshot.game.turn)
    assert snapshot.turn_input is not None
    while not snapshot.turn_input.is_complete:
        snapshot = await service.choose(snapshot.stored.id, mover, snapshot.stored.version, 0)
        assert snapshot.turn_input is not None
    return await service.confirm(snapshot.stored.id, mover, snapshot.stored.version)


async def test_refusals_change_nothing(world: World) -> None:
    services, _, users = world
    service = services.games
    with pytest.raises(e.SelfChallenge):
        await services.challenges.open(
            chat_id=-5, challenger=users[0], target_username="anna", locale="en"
        )
    with pytest.raises(e.BotChallenge):
        await services.challenges.open(
            chat_id=-5, challenger=users[0], target_username="helperbot", locale="en"
        )
    challenge = await services.challenges.open(
        chat_id=-5, challenger=users[0], target=users[1], locale="ru"
    )
    with pytest.raises(e.OwnChallenge):
        await services.lobby.accept(challenge.id, users[0])
    with pytest.raises(e.NotForYou):
        await services.lobby.accept(challenge.id, users[2])
    changed = await services.challenges.change_option(
        challenge.id, users[0].id, challenge.version, "variant", VARIANTS.index("short")
    )
    assert changed.terms.variant == "short"
    with pytest.raises(e.StaleAction):  # an option button drawn for the old version
        await services.challenges.change_option(
            challenge.id, users[0].id, challenge.version, "time", 0
        )
    with pytest.raises(e.NotChallenger):
        await services.challenges.change_option(
            challenge.id, users[1].id, changed.version, "time", 0
        )
    closed, snapshot = await services.lobby.accept(challenge.id, users[1])
    assert closed.status is ChallengeStatus.ACCEPTED and snapshot.game.variant == "short"
    with pytest.raises(e.ChallengeClosed):
        await services.lobby.accept(challenge.id, users[1])

    game_id, version = snapshot.stored.id, snapshot.stored.version
    mover = snapshot.stored.player(snapshot.game.turn)
    other = snapshot.stored.player(snapshot.game.turn.other)
    with pytest.raises(e.NotAPlayer):
        await service.choose(game_id, users[2].id, version, 0)
    with pytest.raises(e.NotYourTurn):
        await service.choose(game_id, other, version, 0)
    with pytest.raises(e.StaleAction):
        await service.choose(game_id, mover, version, 999)  # forged index
    with pytest.raises(e.StaleAction):
        await service.confirm(game_id, mover, version)  # nothing tapped yet
    tapped = await service.choose(game_id, mover, version, 0)
    with pytest.raises(e.StaleAction):  # the same tap delivered twice
        await service.choose(game_id, mover, version, 0)
    assert (await service.snapshot(game_id)).stored.version == tapped.stored.version


async def test_a_whole_game_to_the_end_and_its_score(world: World, scores: Scores) -> None:
    services, _, users = world
    service = services.games
    _, snapshot = await _start(services, users)
    for _ in range(1000):
        if snapshot.game.is_over:
            break
        snapshot = await _play_turn(service, snapshot)
    result = snapshot.game.result
    assert result is not None
    assert snapshot.stored.deadline is None and snapshot.stored.finished_at is not None
    winner = snapshot.stored.player(result.winner)
    loser = snapshot.stored.player(result.winner.other)
    tally = await scores.head_to_head(winner, loser)
    assert (tally.games, tally.wins, tally.points_won) == (1, 1, result.points)
    assert (await scores.stats(loser)).points_lost == result.points
    top = await scores.top(-5)
    assert [s.user.id for s in top] == [winner, loser]
    assert top[0].points == result.points and top[1].points == -result.points
    with pytest.raises(e.GameFinished):
        await service.resign(snapshot.stored.id, winner)


async def test_undo_and_resign(world: World) -> None:
    services, _, users = world
    service = services.games
    _, snapshot = await _start(services, users)
    game_id = snapshot.stored.id
    mover = snapshot.stored.player(snapshot.game.turn)
    tapped = await service.choose(game_id, mover, snapshot.stored.version, 0)
    assert len(tapped.stored.input) == 1
    undone = await service.undo(game_id, mover, tapped.stored.version)
    assert undone.stored.input == () and undone.game == snapshot.game
    resigned = await service.resign(game_id, users[1].id)
    assert resigned.game.result is not None
    assert resigned.game.result.winner is Side.WHITE
    assert resigned.game.result.outcome is Outcome.RESIGN


async def _shown(services: Services, snapshot: GameSnapshot) -> None:
    """Records each players' board of the game as showing ``snapshot``, the first board of a
    move, as the publisher does once Telegram took the edit (the clock first)."""
    await services.board_messages.start_clock(snapshot.stored)
    for board in await services.board_messages.boards(snapshot.stored.id):
        await services.board_messages.set_board_shown(board, snapshot.stored.version)


async def test_timeout_loses_for_the_player_to_move(world: World) -> None:
    services, clock, users = world
    _, snapshot = await _start(services, users)
    await _shown(services, snapshot)
    assert await services.timeouts.timeouts() == []
    clock.now += 61
    ended = await services.timeouts.timeouts()
    assert len(ended) == 1
    result = ended[0].game.result
    assert result is not None and result.outcome is Outcome.TIMEOUT
    assert result.winner is snapshot.game.turn.other
    assert await services.timeouts.timeouts() == []


async def test_no_move_runs_out_before_its_board_is_shown(world: World) -> None:
    """A board held back by Telegram's pace: the deadline passes, but nobody could see the
    move, so the game goes on; shown 50 s late, the move gets its whole minute from then."""
    services, clock, users = world
    service = services.games
    _, snapshot = await _start(services, users)
    started = clock.now
    clock.now = started + 110  # the deadline (60 s) passed; the board still does not show it
    assert await services.timeouts.timeouts() == []
    assert not (await service.snapshot(snapshot.stored.id)).game.is_over
    await _shown(services, snapshot)  # shown at last: the clock starts now
    assert (await service.stored(snapshot.stored.id)).deadline == started + 110 + 60
    clock.now = started + 169
    assert await services.timeouts.timeouts() == []
    clock.now = started + 171
    [ended] = await services.timeouts.timeouts()
    assert ended.game.result is not None and ended.game.result.outcome is Outcome.TIMEOUT


async def test_a_move_being_tapped_runs_out_though_its_board_is_behind(world: World) -> None:
    """The player saw the move and tapped a step: a board behind that tap holds nothing."""
    services, clock, users = world
    service = services.games
    _, snapshot = await _start(services, users)
    await _shown(services, snapshot)
    mover = snapshot.stored.player(snapshot.game.turn)
    await service.choose(snapshot.stored.id, mover, snapshot.stored.version, 0)  # not shown
    clock.now += 61
    [ended] = await services.timeouts.timeouts()
    assert ended.game.result is not None and ended.game.result.outcome is Outcome.TIMEOUT


async def test_a_board_shown_in_time_keeps_the_clock(world: World) -> None:
    """A board shown within a second of its move costs no write: the deadline stays."""
    services, clock, users = world
    service = services.games
    _, snapshot = await _start(services, users)
    clock.now += 0.5
    await _shown(services, snapshot)
    assert (await service.stored(snapshot.stored.id)).deadline == snapshot.stored.deadline


async def test_a_board_that_cannot_be_shown_holds_the_game_one_move_time_more(world: World) -> None:
    """A chat gone (the board never shown): the move runs out one move's time after its
    deadline, so a game nobody can see still ends."""
    services, clock, users = world
    _, snapshot = await _start(services, users)
    assert snapshot.stored.deadline is not None
    clock.now = snapshot.stored.deadline + 59
    assert await services.timeouts.timeouts() == []
    clock.now = snapshot.stored.deadline + 60
    [ended] = await services.timeouts.timeouts()
    assert ended.game.result is not None and ended.game.result.outcome is Outcome.TIMEOUT


async def test_challenges_expire(world: World) -> None:
    services, clock, users = world
    challenge = await services.challenges.open(chat_id=-5, challenger=users[0], locale="en")
    clock.now += 15 * 60 + 1
    with pytest.raises(e.ChallengeClosed):
        await services.lobby.accept(challenge.id, users[2])
    expired = await services.challenges.expire()
    assert [c.id for c in expired] == [challenge.id]
    assert expired[0].status is ChallengeStatus.EXPIRED


async def test_unseen_username_can_accept_once_seen(world: World) -> None:
    services, _, users = world
    challenge = await services.challenges.open(
        chat_id=-5, challenger=users[0], target_username="@Gleb", locale="en"
    )
    assert challenge.target_username == "gleb" and challenge.target_id is None
    with pytest.raises(e.NotForYou):
        await services.lobby.accept(challenge.id, users[2])
    gleb = await services.users.see(4, username="Gleb", first_name="Gleb", language_code=None)
    closed, snapshot = await services.lobby.accept(challenge.id, gleb)
    assert closed.target_id == 4 and snapshot.stored.black_id == 4


async def test_challenges_offer_every_variant_with_its_dice_modes_and_cube(world: World) -> None:
    services, _, users = world
    service = services.games
    anna, boris = users[0], users[1]
    challenge = await services.challenges.open(
        chat_id=-5, challenger=anna, target=boris, locale="en", terms=Terms(cube=True)
    )
    with pytest.raises(e.StaleAction):  # long nardy has no dice modes
        await services.challenges.change_option(challenge.id, anna.id, challenge.version, "dice", 0)
    with pytest.raises(e.StaleAction):  # a list's choice without its number, one out of it
        await services.challenges.change_option(challenge.id, anna.id, challenge.version, "time")
    with pytest.raises(e.StaleAction):
        await services.challenges.change_option(
            challenge.id, anna.id, challenge.version, "match", len(MATCH_LENGTHS)
        )
    seen = [(challenge.terms.variant, challenge.terms.rule_set, challenge.terms.cube)]
    for index in range(1, 5):  # each picked at once from the list
        challenge = await services.challenges.change_option(
            challenge.id, anna.id, challenge.version, "variant", index
        )
        seen.append((challenge.terms.variant, challenge.terms.rule_set, challenge.terms.cube))
    assert seen == [
        ("long", "classic", True),
        ("short", "standard", True),
        ("abkhaz", "standard", True),
        ("gulbara", "classic", False),  # gul-bara is played without the cube
        ("crazy_gulbara", "classic", False),
    ]
    with pytest.raises(e.StaleAction):
        await services.challenges.change_option(challenge.id, anna.id, challenge.version, "cube")
    rules = await services.challenges.change_option(
        challenge.id, anna.id, challenge.version, "rules", 1
    )
    assert rules.terms.rule_set == "international"
    # short nardy, straight from crazy gul-bara: its dice modes, each one tap
    short = await services.challenges.change_option(
        rules.id, anna.id, rules.version, "variant", VARIANTS.index("short")
    )
    assert short.terms.variant == "short" and short.terms.dice_mode is DiceMode.TWO
    modes = []
    for index in (2, 0, 1):
        short = await services.challenges.change_option(
            short.id, anna.id, short.version, "dice", index
        )
        modes.append(short.terms.dice_mode)
    assert modes == [DiceMode.ANTI_THREE, DiceMode.TWO, DiceMode.THREE]
    _, snapshot = await services.lobby.accept(short.id, boris)
    assert snapshot.game.dice_mode is DiceMode.THREE and snapshot.game.variant == "short"
    assert snapshot.game.dice is not None and snapshot.game.dice.third is not None
    again = await service.snapshot(snapshot.stored.id)  # read back from the database
    assert again.game == snapshot.game


async def test_an_anti_three_strike_is_refused_to_all_but_the_striker(world: World) -> None:
    services, _, users = world
    service = services.games
    challenge = await services.challenges.open(
        chat_id=-5,
        challenger=users[0],
        target=users[1],
        locale="en",
        terms=Terms(variant="abkhaz", dice_mode=DiceMode.ANTI_THREE),
    )
    _, snapshot = await services.lobby.accept(challenge.id, users[1])
    for _ in range(40):  # play until a strike is pending
        if snapshot.game.strike_pending:
            break
        snapshot = await _play_turn(service, snapshot)
    game, stored = snapshot.game, snapshot.stored
    assert game.strike_pending and game.dice is not None
    striker, mover = stored.player(game.to_act), stored.player(game.turn)
    with pytest.raises(e.NotYourTurn):
        await service.strike(stored.id, mover, stored.version, game.dice.first)
    with pytest.raises(e.NotAPlayer):
        await service.strike(stored.id, users[2].id, stored.version, game.dice.first)
    missing = next(v for v in range(1, 7) if v not in game.dice.values)
    with pytest.raises(e.StaleAction):  # no die shows it: a forged tap
        await service.strike(stored.id, striker, stored.version, missing)
    assert (await service.snapshot(stored.id)).stored.version == stored.version
    struck = await service.strike(stored.id, striker, stored.version, game.dice.first)
    assert struck.game.struck == game.dice.first or struck.game.turn is not game.turn


async def test_a_pressed_board_becomes_the_board_only_where_none_is_known(
    world: World, store: Store
) -> None:
    services, clock, users = world
    _, snapshot = await _start(services, users)
    game_id = snapshot.stored.id
    # the board's sending got no answer, but it arrived: the pressed message becomes the board
    with pytest.raises(e.ForeignButton):  # a text message is no board
        await services.board_messages.check_board(game_id, -5, 41)
    await services.board_messages.check_board(game_id, -5, 41, photo=True)
    assert [b.message_id for b in await services.board_messages.boards(game_id)] == [41]
    await services.board_messages.check_board(game_id, -5, 41)
    with pytest.raises(e.ForeignButton):  # a press on an older message changes nothing
        await services.board_messages.check_board(game_id, -5, 42, photo=True)
    # nor in another process on the same database, which has not seen the board yet
    other = compose(store, random.Random(1), clock=clock).board_messages
    with pytest.raises(e.ForeignButton):
        await other.check_board(game_id, -5, 43, photo=True)
    with pytest.raises(e.ForeignButton):  # nor in another chat
        await other.check_board(game_id, -6, 41, photo=True)
    await other.check_board(game_id, -5, 41)
    assert [b.message_id for b in await services.board_messages.boards(game_id)] == [41]
    # another game's board is never adopted as this one's (a game by mail: one beside it)
    _, second = await _start(services, users, Terms(move_seconds=86_400))
    with pytest.raises(e.ForeignButton):
        await services.board_messages.check_board(second.stored.id, -5, 41, photo=True)


async def test_the_versions_boards_show_are_written_late_latest_only_and_read_at_once(
    world: World,
    store: Store,
) -> None:
    """One process (SQLite): the version a board shows is written a moment later, with the
    others, the latest of each board only (never going back), and read back through the
    service at once (the publisher and the timeouts read it there)."""
    services, _, users = world
    _, snapshot = await _start(services, users)
    game_id = snapshot.stored.id
    board = (await services.board_messages.boards(game_id))[0]

    async def written() -> int | None:
        found = [b for b in await store.games.boards(game_id) if b.chat_id == board.chat_id]
        return found[0].shown_version

    before = await written()
    for version in (3, 5) if store.shared else (3, 5, 4):
        await services.board_messages.set_board_shown(board, version)
    read = [b for b in await services.board_messages.boards(game_id) if b.chat_id == board.chat_id]
    assert read[0].shown_version == 5
    # several workers read it from the database: written at once there
    assert await written() == (5 if store.shared else before)
    await services.board_messages.flush()
    assert await written() == 5
    if not store.shared:
        await services.board_messages.set_board_shown(board, 2)  # an older one: nothing
    await services.board_messages.close()
    assert await written() == 5
