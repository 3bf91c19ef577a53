"""The score service's moves files (replayed with the engine), who may have them, and the chip
statement, on games played through the game service."""

from __future__ import annotations

import random
import re

import pytest

from bot.engine import (
    BAR,
    Dice,
    Game,
    Position,
    Side,
    Step,
    opponent_point,
    parse_steps,
    resolve_rules,
)
from bot.model import User
from bot.services import Games, GameSnapshot, Scores, Services, compose
from bot.services import errors as e
from bot.storage import Store
from tests.support.clock import Clock

from .conftest import World, change

GROUP = -5
_DICE = re.compile(r"^\d-\d$")


def _after_steps(position: Position, steps: tuple[Step, ...]) -> Position:
    """The position after ``steps`` of the side to move, the opponent then to move: each step
    moves one checker, and a hit sends the opponent's checker to the bar."""
    mover = position.turn
    own = list(position.checkers(mover))
    theirs = list(position.checkers(mover.other))
    for step in steps:
        own[step.src] -= 1
        own[step.dst] += 1
        if step.hit:
            point = opponent_point(position.variant, step.dst)
            theirs[point] -= 1
            theirs[BAR] += 1
    white, black = (own, theirs) if mover is Side.WHITE else (theirs, own)
    return Position(position.variant, mover.other, tuple(white), tuple(black))


def replay(text: str) -> tuple[Game, int]:
    """Replays a moves file with the engine alone; returns the final game and the number of
    turns played. Fails on any line the engine does not accept."""
    header = dict(
        line[2:].split(": ", 1)
        for line in text.splitlines()
        if line.startswith("# ") and ": " in line
    )
    lines = _body(text)
    assert lines[0].startswith("start ") and lines[1].startswith("opening ")
    assert lines[-1].startswith("end ")
    start = Position.from_text(lines[0].removeprefix("start "))
    white_die, black_die = (int(d) for d in lines[1].removeprefix("opening ").split("-"))
    assert start.turn is (Side.WHITE if white_die > black_die else Side.BLACK)
    game = Game(start.variant, resolve_rules(start.variant, header["Rule set"]), start)
    turns = 0
    for line in lines[2:-1]:
        side, word, *rest = line.split()
        if _DICE.match(word):
            assert game.turn is Side(side), line
            if turns == 0 and start.variant == "short":  # the opening dice are the first roll
                assert sorted(map(int, word.split("-"))) == sorted((white_die, black_die))
            game = game.with_dice(Dice.from_text(word))
            steps = parse_steps(" ".join(w for w in rest if w != "forced"))
            if not steps:
                assert not game.legal_turns(), line
                game = game.pass_turn()
            else:
                target = _after_steps(game.position, steps)
                (turn,) = [t for t in game.legal_turns() if t.position == target]
                if "forced" in rest:
                    assert len(game.legal_turns()) == 1, line
                game = game.play(turn)
            turns += 1
        elif word in ("resign", "timeout", "drop"):
            game = Game(game.variant, game.rules, game.position.with_turn(Side(side).other))
        else:
            assert word in ("double", "take"), line
    assert game.position == Position.from_text(lines[-1].removeprefix("end ")), text
    return game, turns


def _body(text: str) -> list[str]:
    """A moves file's lines from ``start`` to ``end``; the roll lines that follow are checked
    to be just that (``python -m bot.engine verify`` reads them, tests/services/
    test_fair_dice.py)."""
    lines = [line for line in text.splitlines() if line and not line.startswith("#")]
    end = next(i for i, line in enumerate(lines) if line.startswith("end "))
    assert all(line.startswith("roll ") for line in lines[end + 1 :]), lines[end + 1 :]
    return lines[: end + 1]


async def play_out(service: Games, snapshot: GameSnapshot, rng: random.Random) -> GameSnapshot:
    """Plays random legal steps, doubles, takes and drops until the game ends."""
    for _ in range(3000):
        game, stored = snapshot.game, snapshot.stored
        if game.is_over:
            return snapshot
        actor = stored.player(game.to_act)
        if game.cube is not None and game.cube.offered:
            act = service.take if rng.random() < 0.85 else service.drop
            snapshot = await act(stored.id, actor, stored.version)
        elif game.can_double:
            act = service.double if rng.random() < 0.1 else service.roll
            snapshot = await act(stored.id, actor, stored.version)
        else:
            while not (tapping := snapshot.turn_input).is_complete:  # type: ignore[union-attr]
                index = rng.randrange(len(tapping.options))  # type: ignore[union-attr]
                snapshot = await service.choose(stored.id, actor, snapshot.stored.version, index)
            snapshot = await service.confirm(stored.id, actor, snapshot.stored.version)
    raise AssertionError("the game did not end")


async def _new_game(
    services: Services, users: list[User], options: tuple[str, ...] = ()
) -> GameSnapshot:
    """Anna challenges Boris in the group, cycling each of ``options`` once; Boris accepts."""
    challenge = await services.challenges.open(
        chat_id=GROUP, challenger=users[0], target=users[1], locale="en"
    )
    for option in options:
        challenge = await change(services, challenge, option)
    _, snapshot = await services.lobby.accept(challenge.id, users[1])
    return snapshot


@pytest.mark.parametrize(
    ("seed", "options"),
    [
        (1, ()),
        (2, ()),
        (3, ("rules",)),  # Shesh Besh: higher die first, koks, home mars
        (4, ("rules", "rules")),  # karzar
        (5, ("cube", "match", "stake")),
        (6, ("variant",)),
        (7, ("variant",)),
        (8, ("variant", "cube", "stake", "stake_mode")),
    ],
)
async def test_a_moves_file_replays_to_the_final_position(
    store: Store, clock: Clock, seed: int, options: tuple[str, ...]
) -> None:
    services = compose(store, random.Random(seed), move_seconds=60, clock=clock)
    service = services.games
    scores = Scores(store, clock=clock)
    users = [
        await services.users.see(i, username=name, first_name=name.title(), language_code="en")
        for i, name in ((1, "anna"), (2, "boris"), (3, "vera"))
    ]
    snapshot = await _new_game(services, users, options)
    clock.now += 600
    finished = await play_out(service, snapshot, random.Random(seed))
    stored = finished.stored
    result = finished.game.result
    assert result is not None
    found = await scores.moves_file(stored.id, user_id=users[0].id, chat_id=users[0].id)
    assert found.name == f"nardy-game-{stored.id}.txt"
    text = found.data.decode()
    game, turns = replay(text)
    assert game.position == finished.game.position
    assert turns == sum(1 for line in stored.history if _DICE.match(line.split()[1]))
    assert game.variant == stored.game.variant and game.rules == stored.game.rules
    lines = [line for line in text.splitlines() if not line.startswith("roll ")]
    assert lines[:7] == [
        f"# Nardy game #{stored.id}",
        f"# Variant: {stored.game.variant}",
        f"# Rule set: {stored.game.rules.name}",
        "# White: @anna (Anna)",
        "# Black: @boris (Boris)",
        "# Started: 1970-01-12 13:46:40 UTC",
        "# Finished: 1970-01-12 13:56:40 UTC",
    ]
    winner = "white" if result.winner is Side.WHITE else "black"
    assert lines[7].startswith(f"# Result: {winner} wins by ")
    assert lines[7].endswith(f", {result.points} points") or lines[7].endswith(
        f", {result.points} points (cube {finished.game.cube_value})"
    )
    assert ("# Match: #1 to 3, game 1" in lines) is ("match" in options)
    assert any(line.startswith("# Stake: 10 chips, ") for line in lines) is ("stake" in options)
    assert lines[-len(stored.history) - 1 : -1] == list(stored.history)


async def test_a_moves_file_after_a_resignation_and_who_may_have_it(
    world: World, scores: Scores
) -> None:
    services, _, users = world
    service = services.games
    anna, boris, vera = users
    snapshot = await _new_game(services, users)
    game_id = snapshot.stored.id
    with pytest.raises(e.StaleAction):  # not over yet
        await scores.moves_file(game_id, user_id=anna.id, chat_id=anna.id)
    with pytest.raises(e.NotAPlayer):  # an unfinished game is not shown to strangers either
        await scores.moves_file(game_id, user_id=vera.id, chat_id=vera.id)
    await service.resign(game_id, boris.id)
    text = (await scores.moves_file(game_id, user_id=boris.id, chat_id=-99)).data.decode()
    assert "# Result: white wins by resignation, 2 points" in text.splitlines()
    assert _body(text)[-2] == "b resign"
    replay(text)
    in_group = await scores.moves_file(game_id, user_id=vera.id, chat_id=GROUP)
    assert in_group.data.decode() == text
    with pytest.raises(e.NotAPlayer):
        await scores.moves_file(game_id, user_id=vera.id, chat_id=vera.id)
    with pytest.raises(e.NotAPlayer):
        await scores.moves_file(game_id, user_id=vera.id, chat_id=-99)
    with pytest.raises(e.GameNotFound):
        await scores.moves_file(9999, user_id=anna.id, chat_id=GROUP)


async def test_a_game_between_private_chats_is_only_for_its_players(
    world: World, scores: Scores
) -> None:
    services, _, users = world
    service = services.games
    anna, boris, vera = users
    challenge = await services.challenges.open(
        chat_id=0, challenger=anna, target=boris, locale="en"
    )
    _, snapshot = await services.lobby.accept(challenge.id, boris)
    await service.resign(snapshot.stored.id, anna.id)
    assert (await scores.moves_file(snapshot.stored.id, user_id=anna.id, chat_id=anna.id)).data
    with pytest.raises(e.NotAPlayer):  # chat 0 is nobody's group
        await scores.moves_file(snapshot.stored.id, user_id=vera.id, chat_id=0)


async def test_the_chip_statement_names_the_other_player(store: Store, clock: Clock) -> None:
    services = compose(store, random.Random(21), move_seconds=60, clock=clock)
    service = services.games
    scores = Scores(store, clock=clock)
    users = [
        await services.users.see(i, username=name, first_name=name.title(), language_code="en")
        for i, name in ((1, "anna"), (2, "boris"))
    ]
    snapshot = await _new_game(services, users, ("stake",))  # 10 chips, by the rules
    finished = await play_out(service, snapshot, random.Random(21))
    result = finished.game.result
    assert result is not None and finished.stored.chips_status is not None
    paid = finished.stored.chips or 0
    assert paid == 10 * result.points  # the rules table: the game's points, cube included
    winner = finished.stored.player(result.winner)
    loser = finished.stored.player(result.winner.other)
    won = await scores.chip_statement(winner)
    assert won.balance == 1000 + paid
    (game_row, won_against), (grant, nobody) = won.entries
    assert (game_row.kind, game_row.delta, game_row.game_id) == ("game", paid, finished.stored.id)
    assert won_against is not None and won_against.id == loser
    assert (grant.kind, grant.delta, grant.balance, nobody) == ("grant", 1000, 1000, None)
    lost = await scores.chip_statement(loser, limit=1)
    assert lost.balance == 1000 - paid
    assert [(entry.delta, other.id if other else None) for entry, other in lost.entries] == [
        (-paid, winner)
    ]
    newcomer = await services.users.see(3, username="vera", first_name="Vera", language_code="en")
    first_look = await scores.chip_statement(newcomer.id)
    assert first_look.balance == 1000 and [e.kind for e, _ in first_look.entries] == ["grant"]
