"""Fair dice through the services: every roll of a game played to the end is recomputed from its
moves file (by the engine's ``verify``, also as the real ``python -m bot.engine verify``
process) and any tampering fails; the seed stays secret until the end; dice go on after a
restart on both backends; ``/verify``'s and ``/dice``'s data."""

from __future__ import annotations

import hashlib
import random
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.ai import Action
from bot.engine import DiceMode, Game, Side, derive_die
from bot.engine.fair import CLIENT_VALUE
from bot.engine.verify import MovesFileError, read_moves_file, verify
from bot.model import DiceProof, StoredGame, User
from bot.services import Games, GameSnapshot, Scores, Services, Terms, compose, flow
from bot.services import errors as e
from bot.services.dice_stats import chi_square_survival, dice_stats
from bot.services.export import moves_text
from bot.services.inline import seal
from bot.storage import Store
from tests.support.clock import Clock

from .conftest import World

GROUP = -5
DAY = 86_400
KINDS = [
    ("long", DiceMode.TWO, False),
    ("long", DiceMode.TWO, True),
    ("short", DiceMode.TWO, True),
    ("abkhaz", DiceMode.THREE, False),
    ("short", DiceMode.ANTI_THREE, True),
    ("gulbara", DiceMode.TWO, False),
    ("crazy_gulbara", DiceMode.TWO, False),
]
"""Variants, dice modes and the cube: every way a game rolls (re-rolled openings, the third
die of three dice, strikes, chain rolls, cascades, rolls after a take)."""


def _stored(game: Game, proof: DiceProof | None, history: tuple[str, ...]) -> StoredGame:
    return StoredGame(
        id=7, chat_id=GROUP, white_id=1, black_id=2, game=game, input=(), last_turn=(),
        history=history, move_seconds=60, deadline=None, locale="en", version=0,
        created_at=0.0, finished_at=None, dice_proof=proof,
    )  # fmt: skip


def play_fair(
    seed: bytes,
    client: str,
    kind: tuple[str, DiceMode, bool],
    choices: random.Random,
    *,
    stop_after: int | None = None,
    ending: str = "resign",
) -> StoredGame:
    """A game played through :mod:`bot.services.flow` with fair dice, each choice (steps,
    strikes, doubles, takes) drawn from ``choices``; after ``stop_after`` actions it ends by
    ``ending`` (``resign`` or ``timeout``) instead of being played out."""
    variant, mode, cube = kind
    unused = random.Random(0)  # fair games never roll with the service's source
    dice = flow.GameDice(DiceProof.new(seed, client), unused)
    game = dice.start(variant, rules=None, cube=cube, dice_mode=mode)
    game, history, _ = flow.play_automatic(game, (), dice)
    stored = _stored(game, dice.proof, history)
    for actions in range(5000):
        game = stored.game
        if game.is_over:
            return stored
        if stop_after is not None and actions >= stop_after:
            ended = game.resign(game.to_act) if ending == "resign" else game.timeout()
            return flow.concluded(stored, ended, f"{game.to_act.value} {ending}")
        if game.cube is not None and game.cube.offered:
            action = Action.TAKE if choices.random() < 0.8 else Action.DROP
            stored = flow.acted(stored, action, unused, 0.0)
        elif game.can_double:
            action = Action.DOUBLE if choices.random() < 0.15 else Action.ROLL
            stored = flow.acted(stored, action, unused, 0.0)
        elif game.strike_pending:
            assert game.dice is not None
            stored = flow.struck(stored, choices.choice(game.dice.values), unused, 0.0)
        else:
            current = game.turn_input()
            while not current.is_complete:
                current = current.play(choices.choice(current.options))
            stored = flow.played(stored, current.turn(), unused, 0.0)
    raise AssertionError("the game did not end")


def _lines_changed(text: str, prefix: str, change: int = 0) -> str:
    """``text`` with the ``change``-th line starting with ``prefix`` given other dice."""
    lines = text.splitlines()
    index = [i for i, line in enumerate(lines) if line.startswith(prefix)][change]
    words = lines[index].split()
    at = next(i for i, w in enumerate(words) if "-" in w or (i == 3 and w.isdigit()))
    dice = [int(v) for v in words[at].split("-")]
    dice[0] = dice[0] % 6 + 1
    words[at] = "-".join(map(str, dice))
    lines[index] = " ".join(words)
    return "\n".join(lines) + "\n"


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.binary(min_size=32, max_size=32),
    client=st.from_regex(CLIENT_VALUE, fullmatch=True),
    kind=st.sampled_from(KINDS),
    choices=st.integers(0, 2**32),
    stop=st.one_of(st.none(), st.integers(0, 30)),
    ending=st.sampled_from(["resign", "timeout"]),
)
def test_any_game_with_fair_dice_is_reproduced_from_its_moves_file(
    seed: bytes,
    client: str,
    kind: tuple[str, DiceMode, bool],
    choices: int,
    stop: int | None,
    ending: str,
) -> None:
    stored = play_fair(seed, client, kind, random.Random(choices), stop_after=stop, ending=ending)
    assert stored.dice_proof is not None
    text = moves_text(stored, None, None)
    assert verify(text).ok, verify(text).text
    rolls = read_moves_file(text).rolls
    assert rolls == stored.dice_proof.rolls
    assert [v for r in rolls for v in r.values] == [
        derive_die(seed, client, n) for n in range(stored.dice_proof.count)
    ]
    # one die of any roll changed: the file fails, naming that roll
    which = random.Random(choices).randrange(len(rolls))
    tampered = _lines_changed(text, "roll ", which)
    verdict = verify(tampered)
    assert not verdict.ok and f"roll {rolls[which].number} " in verdict.text, verdict.text


@pytest.fixture
def finished() -> StoredGame:
    return play_fair(hashlib.sha256(b"finished").digest(), "31337", KINDS[1], random.Random(3))


def test_a_played_game_verifies_and_every_kind_of_tampering_fails(finished: StoredGame) -> None:
    text = moves_text(finished, None, None)
    assert verify(text).ok
    assert verify(text).text.startswith("OK: the seed matches the commitment")
    proof = finished.dice_proof
    assert proof is not None
    seed_line = f"# Dice seed: {proof.seed.hex()}"
    other_seed = hashlib.sha256(b"another").hexdigest()
    turns = [line for line in finished.history if line[2:3].isdigit()]
    lines = text.splitlines()
    changed_turn = _lines_changed(text, turns[3])
    rolls = [line for line in lines if line.startswith("roll ")]
    dropped = "\n".join(line for line in lines if line != rolls[5]) + "\n"
    swapped = text.replace(rolls[6], "@").replace(rolls[7], rolls[6]).replace("@", rolls[7])
    opening = next(line for line in lines if line.startswith("opening "))
    white, black = opening.removeprefix("opening ").split("-")
    cases = {
        "seed": (text.replace(seed_line, f"# Dice seed: {other_seed}"), "not the commitment"),
        "commitment": (text.replace(proof.commitment, other_seed), "not the commitment"),
        "client": (text.replace("value: 31337", "value: 31338"), "the seed gives"),
        "a roll": (_lines_changed(text, "roll ", 4), "roll "),
        "a turn's dice": (changed_turn, "plays"),
        "a roll left out": (dropped, "dice missing or added"),
        "two rolls swapped": (swapped, "dice missing or added"),
        "the opening": (text.replace(opening, f"opening {black}-{white}"), "opening roll"),
        "a turn left out": (text.replace(turns[2] + "\n", "", 1), "the turn "),
    }
    for name, (tampered, expected) in cases.items():
        assert tampered != text, name
        verdict = verify(tampered)
        assert not verdict.ok and verdict.text.startswith("FAIL: "), name
        assert expected in verdict.text, (name, verdict.text)


def test_what_is_not_a_checkable_moves_file_is_malformed(finished: StoredGame) -> None:
    text = moves_text(finished, None, None)
    proof = finished.dice_proof
    assert proof is not None
    seed_line = f"# Dice seed: {proof.seed.hex()}\n"
    for bad in (
        "",
        "hello\n",
        text.replace(seed_line, ""),  # a game in progress has no seed yet
        text.replace(seed_line, "# Dice seed: xyz\n"),
        text.replace("# Dice client value: 31337", "# Dice client value: two words"),
        text.replace("end ", "finish "),
        text + "roll 9 q 1-1\n",
    ):
        with pytest.raises(MovesFileError):
            verify(bad)


def test_the_verify_command_exits_0_1_and_2(finished: StoredGame, tmp_path: Path) -> None:
    good, bad, broken = tmp_path / "good.txt", tmp_path / "bad.txt", tmp_path / "broken.txt"
    text = moves_text(finished, None, None)
    good.write_text(text, encoding="utf-8")
    bad.write_text(_lines_changed(text, "roll ", 2), encoding="utf-8")
    broken.write_text("start nowhere\n", encoding="utf-8")

    def run(path: Path) -> subprocess.CompletedProcess[str]:
        command = [sys.executable, "-m", "bot.engine", "verify", str(path)]
        return subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)

    ok, failed, malformed, missing = (run(p) for p in (good, bad, broken, tmp_path / "none.txt"))
    assert (ok.returncode, ok.stdout.startswith("OK: ")) == (0, True), ok.stderr
    assert (failed.returncode, failed.stdout.startswith("FAIL: roll ")) == (1, True)
    assert malformed.returncode == missing.returncode == 2
    assert "not a moves file" in malformed.stderr and malformed.stdout == ""


def test_the_seed_is_written_only_once_the_game_is_over(finished: StoredGame) -> None:
    proof = finished.dice_proof
    assert proof is not None and finished.game.is_over
    seed = proof.seed.hex()
    assert finished.revealed_seed == seed and f"# Dice seed: {seed}" in moves_text(
        finished, None, None
    )
    during = replace(finished, game=replace(finished.game, result=None))
    assert during.revealed_seed is None
    shown = moves_text(during, None, None) + repr(during) + str(during) + repr(proof)
    assert seed not in shown and proof.commitment in shown


# --- through the game service, on both backends -------------------------------------------


async def _accept(services: Services, users: list[User], client: str | None) -> GameSnapshot:
    challenge = await services.challenges.open(
        chat_id=GROUP, challenger=users[0], target=users[1], locale="en"
    )
    _, snapshot = await services.lobby.accept(challenge.id, users[1], dice_client=client)
    return snapshot


async def _play(
    service: Games, snapshot: GameSnapshot, rng: random.Random, turns: int
) -> GameSnapshot:
    """Plays ``turns`` actions (random steps, rolls; doubles refused) or to the end."""
    for _ in range(turns):
        game, stored = snapshot.game, snapshot.stored
        if game.is_over:
            break
        actor = stored.player(game.to_act)
        if game.can_double:
            snapshot = await service.roll(stored.id, actor, stored.version)
            continue
        while not (tapping := snapshot.turn_input).is_complete:  # type: ignore[union-attr]
            index = rng.randrange(len(tapping.options))  # type: ignore[union-attr]
            snapshot = await service.choose(stored.id, actor, snapshot.stored.version, index)
        snapshot = await service.confirm(stored.id, actor, snapshot.stored.version)
    return snapshot


async def test_dice_go_on_after_a_restart_and_verify_at_the_end(store: Store, clock: Clock) -> None:
    first = compose(store, random.Random(21), move_seconds=60, clock=clock)
    users = [
        await first.users.see(i, username=n, first_name=n.title(), language_code="en")
        for i, n in ((1, "anna"), (2, "boris"))
    ]
    accepted = await _accept(first, users, "AgADBAAD-42")
    snapshot = await _play(first.games, accepted, random.Random(1), 12)
    proof = snapshot.stored.dice_proof
    assert proof is not None and proof.client == "AgADBAAD-42" and proof.rolls
    # another process with another random source: the game's dice do not depend on it
    second = compose(store, random.Random(999), move_seconds=60, clock=clock).games
    reloaded = await second.snapshot(snapshot.stored.id)
    assert reloaded.stored.dice_proof == proof
    done = await _play(second, reloaded, random.Random(2), 3000)
    assert done.game.is_over
    scores = Scores(store, clock=clock)
    text = (await scores.moves_file(done.stored.id, user_id=1, chat_id=1)).data.decode()
    assert verify(text).ok, verify(text).text
    assert read_moves_file(text).rolls[: len(proof.rolls)] == proof.rolls


async def test_seeds_and_client_values(store: Store, clock: Clock) -> None:
    # games by correspondence: the same two start several at once
    seeded = [compose(store, random.Random(5), clock=clock, move_seconds=DAY) for _ in range(2)]
    users = [
        await seeded[0].users.see(i, username=n, first_name=n, language_code="en")
        for i, n in ((1, "anna"), (2, "boris"))
    ]
    made = [(await _accept(s, users, None)).stored.dice_proof for s in seeded]
    assert made[0] is not None and made[1] is not None
    assert made[0].seed == made[1].seed  # a seeded source replays: tests are reproducible
    assert made[0].client.startswith("made-") and len(made[0].client) == 5 + 16
    refused = await _accept(seeded[0], users, "not one")  # a space: not a client value
    assert refused.stored.dice_proof is not None
    assert refused.stored.dice_proof.client.startswith("made-")
    production = compose(store, random.SystemRandom(), clock=clock, move_seconds=DAY)
    drawn = [(await _accept(production, users, "77")).stored.dice_proof for _ in range(2)]
    assert all(p is not None and len(p.seed) == 32 and p.client == "77" for p in drawn)
    assert drawn[0] is not None and drawn[1] is not None and drawn[0].seed != drawn[1].seed


async def test_dice_check_shows_the_seed_only_at_the_end_and_only_to_whom_it_may(
    world: World, scores: Scores
) -> None:
    services, _, users = world
    service = services.games
    anna, boris, vera = users
    snapshot = await _accept(services, users, "123456789")
    game_id = snapshot.stored.id
    proof = snapshot.stored.dice_proof
    assert proof is not None
    during = await scores.dice_check(game_id, user_id=vera.id, chat_id=GROUP)  # in the group
    assert (during.seed, during.over, during.client) == (None, False, "123456789")
    assert during.commitment == proof.commitment and during.rolls == len(proof.rolls)
    with pytest.raises(e.NotYourGame):
        await scores.dice_check(game_id, user_id=vera.id, chat_id=vera.id)
    with pytest.raises(e.GameNotFound):
        await scores.dice_check(10**9, user_id=anna.id, chat_id=anna.id)
    await service.resign(game_id, boris.id)
    after = await scores.dice_check(game_id, user_id=anna.id, chat_id=anna.id)
    assert after.over and after.seed == proof.seed.hex()
    assert hashlib.sha256(bytes.fromhex(after.seed)).hexdigest() == after.commitment


async def test_a_game_from_before_fair_dice_rolls_on_and_is_not_verifiable(
    world: World, store: Store, scores: Scores
) -> None:
    services, _, users = world
    service = services.games
    old = await store.games.create(
        chat_id=GROUP, white_id=1, black_id=2, game=Game.start("long", random.Random(8)),
        move_seconds=60, deadline=None, locale="en", boards=[(GROUP, Side.WHITE)], now=0.0,
    )  # fmt: skip
    assert old.dice_proof is None
    snapshot = await _play(service, await service.snapshot(old.id), random.Random(4), 6)
    assert snapshot.stored.dice_proof is None and len(snapshot.stored.history) >= 6
    with pytest.raises(e.NotVerifiable):
        await scores.dice_check(old.id, user_id=1, chat_id=1)


async def test_dice_stats_count_the_players_own_rolls_of_finished_games(
    world: World, scores: Scores
) -> None:
    services, _, users = world
    service = services.games
    anna, boris, _vera = users
    ended = await _accept(services, users, "1")
    ended = await _play(service, ended, random.Random(7), 10)
    ended = await service.resign(ended.stored.id, boris.id)
    await _play(service, await _accept(services, users, "2"), random.Random(8), 4)  # unfinished
    proof = ended.stored.dice_proof
    assert proof is not None
    own = [r.values for r in proof.rolls if r.side is Side.WHITE]  # anna plays white
    stats = await scores.dice_stats(anna.id)
    assert stats == dice_stats(1, own)
    assert stats.games == 1 and stats.dice == sum(map(len, own))
    assert stats.faces == tuple(sum(v.count(f) for v in own) for f in range(1, 7))
    theirs = await scores.dice_stats(boris.id)
    assert theirs.dice == sum(len(r.values) for r in proof.rolls) - stats.dice
    assert (await scores.dice_stats(10**9)).dice == 0


@pytest.mark.parametrize(
    ("statistic", "freedom", "p"),
    [
        (11.0705, 5, 0.05),  # the tables' critical values
        (15.0863, 5, 0.01),
        (20.5150, 5, 0.001),
        (1.1455, 5, 0.95),
        (3.8415, 1, 0.05),
        (5.9915, 2, 0.05),
        (18.3070, 10, 0.05),
        (0.0, 5, 1.0),
    ],
)
def test_chi_square_p_values(statistic: float, freedom: int, p: float) -> None:
    assert chi_square_survival(statistic, freedom) == pytest.approx(p, rel=1e-3, abs=1e-6)


def test_dice_stats_of_a_few_rolls() -> None:
    stats = dice_stats(2, [(3,), (5,), (6, 6), (2, 1), (4, 5, 6), (3, 3)])
    assert stats.faces == (1, 1, 3, 1, 2, 3) and stats.dice == 11
    assert (stats.rolls, stats.doubles, stats.pips) == (3, 2, 24 + 3 + 12)
    assert stats.chi_square is None and stats.p_value is None  # too few dice
    even = dice_stats(1, [(f,) for f in range(1, 7)] * 10)
    assert even.chi_square == 0 and even.p_value == 1.0
    skewed = dice_stats(1, [(6,)] * 60)
    assert skewed.p_value is not None and skewed.p_value < 1e-20


async def test_the_tap_that_starts_a_game_is_its_client_value_everywhere(
    world: World,
) -> None:
    """Accept (tested above), an inline invitation's Join, a match's Next game."""
    services, _, users = world
    service = services.games
    anna, boris, _vera = users
    made = await services.inline_games.invite(
        inline_message_id="BAAAA0002FakeInline",
        challenger=anna,
        target_username=None,
        locale="en",
        terms=Terms(match_length=3),
    )
    _, joined = await services.lobby.join(
        "BAAAA0002FakeInline",
        anna.id,
        boris,
        chat_instance="-55",
        shown_seal=seal(made),
        dice_client="4000000777",
    )
    assert joined.stored.dice_proof is not None
    assert joined.stored.dice_proof.client == "4000000777"
    await service.resign(joined.stored.id, boris.id)
    following = await service.next_game(joined.stored.id, anna.id, dice_client="4000000778")
    assert following.stored.dice_proof is not None
    assert following.stored.dice_proof.client == "4000000778"
    assert following.stored.dice_proof.seed != joined.stored.dice_proof.seed
