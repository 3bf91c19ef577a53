"""What a board shows is a function of the game's state alone, and its buttons read well."""

from __future__ import annotations

import random
from pathlib import Path

from bot.engine import Played, Side
from bot.i18n import create_i18n
from bot.services import GameSnapshot, compose
from bot.storage import Store, open_database
from bot.views.boards import board_position, board_view, caption, finish_label, keyboard
from bot.views.common import translator
from render import render_board


async def test_two_drawings_of_one_state_are_identical(tmp_path: Path) -> None:
    db = await open_database(tmp_path / "v.sqlite3")
    clock = [1_000_000.0]
    services = compose(Store(db), random.Random(8), move_seconds=90, clock=lambda: clock[0])
    service = services.game_service
    alice = await services.users.see(1, username="alice", first_name="A", language_code="en")
    bob = await services.users.see(2, username="bob", first_name="B", language_code="ru")
    challenge = await services.challenges.open(
        chat_id=-5, challenger=alice, target=bob, locale="ru"
    )
    _, snapshot = await services.lobby.accept(challenge.id, bob)
    _ = translator(create_i18n(), "ru")

    def drawing(shown: GameSnapshot) -> tuple[object, ...]:
        picture = render_board(board_position(shown), view=board_view(shown, Side.WHITE, _))
        return caption(shown, _), keyboard(shown, None, _), picture

    first = drawing(snapshot)
    clock[0] += 37  # time passes; the state does not change
    assert drawing(await service.snapshot(snapshot.stored.id)) == first
    assert "⏳ 90 с на ход, до 13:48:10 UTC" in caption(snapshot, _)  # no countdown
    # a tap changes the state, and with it the buttons
    mover = snapshot.user(snapshot.game.turn).id
    tap = service.finish if snapshot.finishes else service.choose
    tapped = await tap(snapshot.stored.id, mover, snapshot.stored.version, 0)
    assert keyboard(tapped, None, _) != first[1]
    await db.close()


def test_finish_labels_follow_each_checker_from_the_highest_point() -> None:
    assert finish_label((Played(24, 18, 6), Played(18, 13, 5))) == "24→13"
    assert finish_label((Played(13, 8, 5), Played(24, 18, 6))) == "24→18 13→8"
    assert finish_label((Played(13, 7, 6, True), Played(7, 2, 5))) == "13→7*→2"
    assert finish_label((Played(24, 20, 4), Played(20, 16, 4, True))) == "24→16*"
    doubled = (Played(8, 5, 3), Played(8, 5, 3), Played(13, 10, 3), Played(10, 7, 3))
    assert finish_label(doubled) == "13→7 8→5(2)"
    assert finish_label((Played(25, 22, 3), Played(6, 0, 6))) == "bar→22 6→off"
