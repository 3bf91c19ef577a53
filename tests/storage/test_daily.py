"""The daily position's tables on both backends: one position per variant and day whoever
records it first, its ranking and game read back equal, one answer per player, streaks, and a
group's morning post claimed by one worker only."""

from __future__ import annotations

from pathlib import Path

from bot.engine import Dice, Game, Position
from bot.model import DailyAnswer, DailyGroup, RankedTurn, Streak
from bot.storage import Store, open_database

GAME = Game.setup(Position.from_text("long w / 24:14 13:1 / 24:15")).with_dice(Dice(6, 5))
RANKING = tuple(
    RankedTurn(str(turn), turn.position.to_text(), 0.5 - 0.25 * n)
    for n, turn in enumerate(GAME.legal_turns())
)


async def test_positions_answers_streaks_and_posts(database: Path | str) -> None:
    db = await open_database(database)
    try:
        daily = Store(db).daily
        first = await daily.add_position(
            variant="long", day="2026-12-03", key="k1", game=GAME, ranking=RANKING,
            source_game_id=None, now=1.0,
        )  # fmt: skip
        # another worker's choice for the same day is not recorded: the first one stays
        other = await daily.add_position(
            variant="long", day="2026-12-03", key="k2", game=GAME, ranking=RANKING[1:],
            source_game_id=7, now=2.0,
        )  # fmt: skip
        assert other == first and first.key == "k1" and first.source_game_id is None
        assert first.game == GAME and first.ranking == RANKING
        assert first.best == RANKING[0] and first.ranked(RANKING[1].reaches) == RANKING[1]
        assert await daily.position("long", "2026-12-03") == first
        assert await daily.position("short", "2026-12-03") is None
        assert await daily.keys_since("long", "2026-12-03") == {"k1"}
        assert await daily.keys_since("long", "2026-12-04") == frozenset()

        answer = DailyAnswer(first.id, 5, RANKING[1].turn, 0.25, False, 3.0)
        assert await daily.add_answer(answer)
        assert not await daily.add_answer(DailyAnswer(first.id, 5, RANKING[0].turn, 0, True, 4))
        assert await daily.answer_of(first.id, 5) == answer
        assert await daily.add_answer(DailyAnswer(first.id, 6, RANKING[0].turn, 0.0, True, 5.0))
        tally = await daily.tally(first.id)
        assert (tally.answers, tally.correct, tally.percent) == (2, 1, 50)

        await daily.set_streak(Streak(6, 2, 4, "2026-12-03"))
        await daily.set_streak(Streak(5, 9, 9, "2026-11-01"))  # ended long ago
        assert await daily.streak(6) == Streak(6, 2, 4, "2026-12-03")
        top = await daily.top_streaks("2026-12-04", 10, rated_games=0)
        assert top == [Streak(6, 2, 4, "2026-12-03")]
        assert await daily.top_streaks("2026-12-04", 10, rated_games=1) == []  # none rated
        # on the day of its last right answer, as it stood when the day began
        await daily.set_streak(Streak(6, 3, 4, "2026-12-04", best_before=4))
        top = await daily.top_streaks("2026-12-04", 10, rated_games=0)
        assert top == [Streak(6, 2, 4, "2026-12-04", best_before=4)]

        group = DailyGroup(-100, "Europe/Moscow", "long", "ru", 10.0)
        await daily.set_group(group, now=1.0)
        assert await daily.due_groups(9.0) == [] and await daily.due_groups(10.0) == [group]
        assert await daily.claim_post(group, 20.0, first.id)
        assert not await daily.claim_post(group, 20.0, first.id)  # the post is claimed once
        assert await daily.due_groups(19.0) == []
        [post] = await daily.posts(first.id)
        assert (post.chat_id, post.message_id, post.locale) == (-100, None, "ru")
        await daily.set_post_message(-100, first.id, 42)
        assert [p.message_id for p in await daily.posts(first.id)] == [42]
        assert await daily.remove_group(-100) and not await daily.remove_group(-100)
    finally:
        await db.close()
