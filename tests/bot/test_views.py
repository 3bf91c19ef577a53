"""What a board shows is a function of the game's state alone, and its buttons read well; what
an analysis's summary shows."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

from bot.ai.analysis import CubeDecision, CubeReview, summarise
from bot.ai.cubeful import CubeAction, CubeEquities
from bot.ai.luck import RollLuck, game_luck
from bot.engine import Game, Match, Outcome, Played, Position, Result, Side
from bot.i18n import create_i18n
from bot.model import MatchRecord, StoredGame, Tally
from bot.services import GameSnapshot, compose
from bot.services.analysis import Analysis
from bot.storage import Store, open_database
from bot.views.analysis import summary_text
from bot.views.board_buttons import finish_label, keyboard
from bot.views.boards import board_position, board_view, caption, unseen_turns
from bot.views.common import translator
from render import render_board


async def test_two_drawings_of_one_state_are_identical(tmp_path: Path) -> None:
    db = await open_database(tmp_path / "v.sqlite3")
    clock = [1_000_000.0]
    services = compose(Store(db), random.Random(8), move_seconds=90, clock=lambda: clock[0])
    service = services.games
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
    # no countdown: a moment each reader's app shows in their own time zone (UTC inside)
    deadline = '<tg-time unix="1000090" format="T">13:48:10 UTC</tg-time>'
    assert f"⏳ 90 с на ход, до {deadline}" in caption(snapshot, _)
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


async def test_an_analysis_shows_pr_luck_the_adjusted_result_and_cube_errors(
    tmp_path: Path,
) -> None:
    """The summary of a game with the cube: each side's PR, luck (zero-sum) and luck-adjusted
    result, its cube decisions, and each cube error with the model's choice; in Russian too."""
    snapshot = await _accepted(tmp_path)
    alice, bob = snapshot.white, snapshot.black
    game = Game.setup(Position.from_text("short w / 6:15 / 6:15"), cube=True)
    doubled = CubeReview(
        CubeDecision(11, game, CubeAction.DOUBLE), CubeEquities(0.40, 0.10, 1.0), 0.30, True
    )
    taken = CubeReview(
        CubeDecision(11, game.double(), CubeAction.TAKE), CubeEquities(0.40, 0.10, 1.0), 0.0, True
    )
    rolls = (
        RollLuck(0, Side.WHITE, 0.5, 0.2, False),  # white +0.30
        RollLuck(1, Side.BLACK, 0.1, 0.2, False, cube=2),  # black −0.10 at a cube of 2
    )
    result = Result(Side.BLACK, Outcome.OIN, 2)
    analysis = Analysis(
        snapshot.stored,
        alice,
        bob,
        20,
        summarise([], [doubled, taken]),
        rolls,
        (doubled, taken),
        game_luck(rolls, [], result, [doubled, taken]),
    )
    text = summary_text(analysis, translator(create_i18n(), "en"))
    assert "⚪ @alice: PR 150.0 · 0 moves with a choice: 0 errors, 0 blunders" in text
    assert "🍀 ⚪ @alice: luck +0.40, luck-adjusted result −2.50" in text
    assert "🍀 ⚫ @bob: luck −0.40, luck-adjusted result +2.50" in text
    assert "⏫ ⚪ @alice: 1 cube decision, 1 cube error" in text
    assert "⏫ ⚫ @bob: 1 cube decision, 0 cube errors" in text
    assert "⏫ ⚪ @alice before move 12: double, better no double, equity lost 0.300" in text
    # PR is the one figure of play, named on each side's line and explained once
    assert text.count("PR (performance rating)") == 1 and "error rate" not in text
    russian = summary_text(analysis, translator(create_i18n(), "ru"))
    assert "⏫ ⚪ @alice" in russian and "0,300" in russian and "double" not in russian
    assert "⚪ @alice: PR 150,0 · " in russian and "доля ошибок" not in russian
    assert "1 решение с кубом" in russian


async def _accepted(tmp_path: Path) -> GameSnapshot:
    """A fresh single game between @alice (white) and @bob, in English."""
    db = await open_database(tmp_path / "v.sqlite3")
    services = compose(Store(db), random.Random(8))
    alice = await services.users.see(1, username="alice", first_name="A", language_code="en")
    bob = await services.users.see(2, username="bob", first_name="B", language_code="en")
    challenge = await services.challenges.open(
        chat_id=-5, challenger=alice, target=bob, locale="en"
    )
    _, snapshot = await services.lobby.accept(challenge.id, bob)
    await db.close()
    return snapshot


async def test_a_single_games_caption_has_no_score_only_the_head_to_head_named_so(
    tmp_path: Path,
) -> None:
    """The all-time tally between the two is no score of this game: a single game shows it as
    the head-to-head of all their games, and nothing before their first; a match its score."""
    snapshot = await _accepted(tmp_path)
    english = translator(create_i18n(), "en")
    first = caption(snapshot, english)
    assert "Score" not in first and "Head to head" not in first
    before = replace(snapshot, score=Tally(games=3, wins=2))
    shown = caption(before, english)
    assert "Score" not in shown
    assert "🤝 Head to head, all their games: @alice 2:1 @bob" in shown
    in_match = replace(before, match=MatchRecord(1, Match(5, white=2, black=1), False, 0.0, None))
    text = caption(in_match, english)
    assert "🏁 Match to 5 · game 1 · 2:1" in text and "Head to head" not in text
    russian = caption(before, translator(create_i18n(), "ru"))
    assert "Личные встречи" in russian and "Счёт" not in russian


def test_a_board_lists_every_turn_since_the_side_to_act_last_chose() -> None:
    """The turns its player did not see made: the opponent's and those played for them
    (forced, passes); the opponent's alone when the side to act chose the one before."""
    start = Game.setup(Position.from_text("long w / 24:15 / 24:15"))

    def stored(history: tuple[str, ...], turn: Side) -> StoredGame:
        game = replace(start, position=replace(start.position, turn=turn))
        return StoredGame(1, -5, 1, 2, game, (), (), history, 90, None, "en", 1, 0.0, None)

    opened = ("b 6-1 24/18 18/17 forced", "w 3-2 24/21 21/19 forced")
    assert list(unseen_turns(stored(opened, Side.BLACK))) == [0, 1]
    chosen = (*opened, "b 3-3 24/21 21/18 17/14 14/11")
    assert list(unseen_turns(stored(chosen, Side.WHITE))) == [0, 1, 2]
    later = (*chosen, "w 5-2 24/19 13/11", "b 6-5 24/18 18/13")
    assert list(unseen_turns(stored(later, Side.WHITE))) == [4]
    passed = (*later, "w 6-6 pass", "b 2-1 13/11 13/12")
    assert list(unseen_turns(stored(passed, Side.WHITE))) == [4, 5, 6]
    assert list(unseen_turns(stored(passed, Side.BLACK))) == [6]  # its own choice: that line
    assert list(unseen_turns(stored((), Side.WHITE))) == []
