"""A replay's frames for games of every variant and dice mode played through the game service:
the start and one board per recorded turn, each with the roll its history line names and its
steps marked, the result on the last; the GIF decodes to exactly those frames."""

from __future__ import annotations

import io
import random
from pathlib import Path

import pytest
from PIL import Image
from PIL.GifImagePlugin import GifImageFile

from bot.engine import DiceMode, RecordError, Side, TurnRecord
from bot.i18n import create_i18n
from bot.services import Games, GameSnapshot, Terms, compose
from bot.services.replays import moves_in
from bot.storage import Store, open_database
from bot.views.common import translator
from bot.views.replays import (
    FIRST_MS,
    LAST_MS,
    MOVE_MS,
    position_caption,
    replay_caption,
    replay_durations,
    replay_frames,
)
from render import render_animation


async def _play_out(service: Games, snapshot: GameSnapshot, rng: random.Random) -> GameSnapshot:
    """Random legal taps until the game ends: the opponent strikes a random die in anti three
    dice, a double is taken."""
    for _ in range(3000):
        game, stored = snapshot.game, snapshot.stored
        if game.is_over:
            return snapshot
        actor = stored.player(game.to_act)
        if game.strike_pending and game.dice is not None:
            value = rng.choice(game.dice.values)
            snapshot = await service.strike(stored.id, actor, stored.version, value)
        elif game.cube is not None and game.cube.offered:
            snapshot = await service.take(stored.id, actor, stored.version)
        elif game.can_double:
            snapshot = await service.roll(stored.id, actor, stored.version)
        else:
            tapping = snapshot.turn_input
            assert tapping is not None
            while not tapping.is_complete:
                index = rng.randrange(len(tapping.options))
                snapshot = await service.choose(stored.id, actor, snapshot.stored.version, index)
                tapping = snapshot.turn_input
                assert tapping is not None
            snapshot = await service.confirm(stored.id, actor, snapshot.stored.version)
    raise AssertionError("the game did not end")


def _records(history: tuple[str, ...]) -> list[TurnRecord]:
    found = []
    for line in history:
        try:
            found.append(TurnRecord.from_text(line))
        except RecordError:
            continue  # a cube action, a resignation
    return found


@pytest.mark.parametrize(
    ("variant", "mode", "seed"),
    [
        ("long", DiceMode.TWO, 1),
        ("short", DiceMode.THREE, 2),
        ("abkhaz", DiceMode.ANTI_THREE, 3),
        ("gulbara", DiceMode.TWO, 4),
        ("crazy_gulbara", DiceMode.TWO, 5),
    ],
)
async def test_one_frame_per_turn_with_its_roll_and_steps(
    tmp_path: Path, variant: str, mode: DiceMode, seed: int
) -> None:
    db = await open_database(tmp_path / "r.sqlite3")
    services = compose(Store(db), random.Random(seed), move_seconds=90)
    service = services.games
    alice = await services.users.see(1, username="alice", first_name="A", language_code="en")
    bob = await services.users.see(2, username="bob", first_name="B", language_code="ru")
    challenge = await services.challenges.open(
        chat_id=-5,
        challenger=alice,
        target=bob,
        locale="en",
        terms=Terms(variant=variant, dice_mode=mode),
    )
    _, snapshot = await services.lobby.accept(challenge.id, bob)
    finished = await _play_out(service, snapshot, random.Random(seed))
    replayed = await services.replays.finished(finished.stored.id, user_id=1, chat_id=1)
    _ = translator(create_i18n(), "ru")
    frames = replay_frames(replayed, _)
    records = _records(finished.stored.history)
    assert len(frames) == len(records) + 1 == moves_in(finished.stored) + 1
    assert frames[0][0] == replayed.start and frames[0][1].dice_label == f"0/{len(records)}"
    assert frames[0][1].last_steps == () and frames[0][1].result is None
    for number, ((position, view), record, move) in enumerate(
        zip(frames[1:], records, replayed.moves, strict=True), start=1
    ):
        assert position.turn is record.side  # drawn with its mover to move: its dice, its name
        assert (position.white, position.black) == (move.after.white, move.after.black)
        assert view.last_steps == record.steps and view.last_side is record.side
        assert (view.dice_label or "").startswith(f"{number}/{len(records)}")
        if record.remainder:
            assert view.dice is None and view.moves == record.remainder
            assert "остаток" in (view.dice_label or "")
        else:
            assert view.dice == record.dice and view.struck == record.struck
        if not record.steps:
            assert "пропуск хода" in (view.dice_label or "")
        assert (view.result is not None) is (number == len(records))
        assert view.bottom is Side.WHITE
    durations = replay_durations(len(frames))
    assert durations == [FIRST_MS] + [MOVE_MS] * (len(frames) - 2) + [LAST_MS]
    data = render_animation(frames, durations)
    with Image.open(io.BytesIO(data)) as image:
        assert isinstance(image, GifImageFile) and image.n_frames == len(frames)
    caption = replay_caption(replayed.stored, replayed.white, replayed.black, len(records), _)
    assert f"Повтор партии #{finished.stored.id}" in caption and f"\n{len(records)} ход" in caption
    await db.close()


async def test_the_position_caption_gives_the_id_to_copy(tmp_path: Path) -> None:
    db = await open_database(tmp_path / "p.sqlite3")
    services = compose(Store(db), random.Random(3), move_seconds=90)
    alice = await services.users.see(1, username="alice", first_name="A", language_code="en")
    bob = await services.users.see(2, username="bob", first_name="B", language_code="en")
    challenge = await services.challenges.open(
        chat_id=-5, challenger=alice, target=bob, locale="en"
    )
    _, snapshot = await services.lobby.accept(challenge.id, bob)
    stored = snapshot.stored
    caption = position_caption(stored, alice, bob, translator(create_i18n(), "en"))
    position_id = stored.game.position.to_id()
    assert f"Position ID: <code>{position_id}</code>" in caption
    assert f"/from {position_id} bot" in caption
    mover = alice if stored.game.turn is Side.WHITE else bob
    assert f"@{mover.username} to move" in caption
    await db.close()
