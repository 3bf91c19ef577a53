"""A tournament's pot under the rule against chip dumping, on both backends: each entry is a
payment from its entrant to the winner, held (given back, flagged) where it would bring the
net flow between the two up to a limit; an entry whose player played no game goes back; a
winner carried by byes and forfeits is paid nothing. And a property test in the manner of
``test_dumping``: no sequence of tournaments, joins, withdrawals and staked games among three
accounts moves chips beyond the limits without a hold, and none are made or lost.

Games are "played" as the anti-dumping tests play them: three turns of each side written into
the game's history, then the loser resigns through the game service, past the early
concessions."""

from __future__ import annotations

import asyncio
import contextlib
import random
from dataclasses import replace
from pathlib import Path
from typing import Final

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from bot.engine import StakeMode
from bot.i18n import create_i18n
from bot.model import ChipsStatus, Terms, Tournament, TournamentFormat, TournamentState, User
from bot.services import Services, chips, compose
from bot.services import errors as e
from bot.storage import Store, open_database
from bot.views.common import translator
from bot.views.scores import chips_text
from bot.views.tournaments import pinned_caption
from tests.conftest import BACKENDS

from .conftest import Clock
from .staked import Payment as _Payment
from .staked import fresh_databases, play_staked
from .staked import net_flow as _net

GROUP = -100500
WINDOW = chips.DUMP_WINDOW_SECONDS


async def _players(services: Services, ids: range | list[int]) -> list[User]:
    return [
        await services.users.see(
            i, username=f"p{i}", first_name=f"P{i}", language_code="en", private_chat=True
        )
        for i in ids
    ]


async def _knockout(services: Services, creator: User, entry: int) -> Tournament:
    return await services.tournaments.create(
        GROUP,
        creator,
        format=TournamentFormat.KNOCKOUT,
        terms=Terms(),
        entry=entry,
        locale="en",
        is_admin=True,
    )


async def _play_out(services: Services, game_id: int, loser: int) -> None:
    """Three turns of each side written into the game's history, then ``loser`` resigns."""
    stored = await services.game_service.stored(game_id)
    turns = tuple(f"{side} 3-1 8/5 6/5" for _ in range(chips.MIN_LOSER_TURNS) for side in "wb")
    now = services.tournaments.now()
    await services.store.games.save(
        replace(stored, history=stored.history + turns), expected_version=stored.version, now=now
    )
    await services.game_service.resign(game_id, loser)


_EN = translator(create_i18n(), "en")


async def _caption(services: Services, tournament_id: int) -> str:
    """The pinned message's caption, in English."""
    return pinned_caption(await services.tournaments.overview(tournament_id), {}, _EN)


async def _balances(services: Services, *ids: int) -> list[int]:
    return [await chips.balance(services.store, i, services.tournaments.now()) for i in ids]


async def test_spare_accounts_that_join_and_withdraw_pass_no_chips(
    store: Store, clock: Clock
) -> None:
    # the review's case: a knock-out with a 500 entry, two spare accounts join and withdraw
    services = compose(store, random.Random(3), move_seconds=60, clock=clock)
    her, *spares = await _players(services, [1, 2, 3])
    made = await _knockout(services, her, 500)
    for player in (her, *spares):
        await services.tournaments.join(made.id, player)
    await services.tournaments.start(made.id, her.id)
    for spare in spares:
        await services.tournaments.leave(made.id, spare.id)
    for _round in range(2):  # the final (a forfeit), then the end
        await services.tournaments.due()
    over = await services.tournaments.get(made.id)
    assert over.state is TournamentState.FINISHED
    # she played nobody: no prize, every entry back
    assert await _balances(services, 1, 2, 3) == [1000, 1000, 1000]
    assert (over.winner_id, over.prize) == (her.id, 0)
    assert await store.chips.flags(GROUP) == []
    assert (
        "No prize: the winner did not play enough different opponents (1 needed). "
        "Every entry went back."
    ) in await _caption(services, made.id)


async def test_entries_are_payments_to_the_winner_held_past_the_limits(
    store: Store, clock: Clock
) -> None:
    services = compose(store, random.Random(4), move_seconds=60, clock=clock)
    anna, boris, vera = await _players(services, [1, 2, 3])
    # three players: Anna (the top seed) waits for the final; Vera withdraws before playing
    first = await _knockout(services, anna, 500)
    for player in (anna, boris, vera):
        await services.tournaments.join(first.id, player)
    await services.tournaments.start(first.id, anna.id)
    await services.tournaments.leave(first.id, vera.id)
    [final] = await services.tournaments.due()
    [game] = final.started
    await _play_out(services, game.stored.id, boris.id)
    [over] = await services.tournaments.due()
    assert await _balances(services, 1, 2, 3) == [1500, 500, 1000]  # Boris's entry, hers
    assert (over.tournament.winner_id, over.tournament.prize) == (anna.id, 1000)
    # the same day, a second pot between the same two: 1,000 one way, the limit: held
    clock.now += 3600
    second = await _knockout(services, anna, 500)
    for player in (anna, boris):
        await services.tournaments.join(second.id, player)
    [game] = (await services.tournaments.start(second.id, anna.id)).started
    await _play_out(services, game.stored.id, boris.id)
    [over] = await services.tournaments.due()
    assert await _balances(services, 1, 2) == [1500, 500]
    assert (over.tournament.winner_id, over.tournament.prize) == (anna.id, 500)  # her own
    [flag] = await store.chips.flags(GROUP)
    assert (flag.game_id, flag.tournament_id, flag.loser_id, flag.winner_id) == (
        None,
        second.id,
        boris.id,
        anna.id,
    )
    assert (flag.amount, flag.paid, flag.payments) == (500, 1000, 2)
    assert "1000 of the pot's 1500 chips are theirs." in await _caption(services, first.id)
    assert "500 of the pot's 1000 chips are theirs." in await _caption(services, second.id)
    statement = await services.score_service.chip_statement(anna.id, limit=5)
    i18n = create_i18n()
    with i18n.context(), i18n.use_locale("en"):  # /chips names whose entry she won
        assert "+500, tournament prize: the entry of @p2; balance 1500" in chips_text(statement)
    # and a staked game lost the same way is held too: the pot counted as a payment
    clock.now += 60
    held = await play_staked(
        store, loser=2, winner=1, stake=10, mode=StakeMode.AMATEUR, cube=1, now=clock.now
    )
    assert held.chips_status is ChipsStatus.PAID  # 510 net one way: under the limit
    assert (await store.chips.paid_between(2, 1, clock.now - WINDOW)) == (510, 2)


# --- the property -------------------------------------------------------------------------


ACCOUNTS = 3
game_step = st.tuples(
    st.just("game"),
    st.integers(0, ACCOUNTS - 1),  # the loser
    st.integers(1, ACCOUNTS - 1),  # the winner: that many accounts further on
    st.sampled_from([50, 100, 500]),
    st.sampled_from([0, 1]),  # unused
)
tournament_step = st.tuples(
    st.just("tournament"),
    st.lists(st.integers(0, ACCOUNTS - 1), min_size=2, max_size=ACCOUNTS, unique=True),
    st.lists(st.integers(0, 2), min_size=ACCOUNTS, max_size=ACCOUNTS),  # who withdraws when
    st.sampled_from([10, 100, 500]),
    st.integers(0, 7),  # who loses each game: bits, the first player of a board on 1
)
steps = st.lists(
    st.tuples(
        st.one_of(game_step, tournament_step),
        st.one_of(st.integers(0, 4 * 3600), st.sampled_from([WINDOW - 1, WINDOW + 1])),
    ),
    min_size=1,
    max_size=6,
)


async def _tournament(
    services: Services, entrants: list[int], withdraw: list[int], entry: int, losers: int
) -> list[_Payment]:
    """A knock-out of ``entrants`` (those who can pay), each withdrawing before their game of
    round ``withdraw[n]`` (0: never), the games lost as the bits of ``losers`` say. Returns
    the payments its pot made, read from what it did to the balances: each entrant left
    short of their entry paid it to the winner."""
    tournaments = services.tournaments
    users = await _players(services, [1 + n for n in entrants])
    mark = await _last_row(services.store)
    made = await _knockout(services, users[0], entry)
    for user in users:
        with contextlib.suppress(e.NotEnoughChips):
            await tournaments.join(made.id, user)
    try:
        progress = await tournaments.start(made.id, users[0].id)
    except e.TooFewPlayers:
        await tournaments.cancel(made.id, users[0].id)
        return []
    bit = 0
    while not progress.tournament.is_over:
        number = progress.tournament.round
        for user in users:
            if withdraw[user.id - 1] == number:
                with contextlib.suppress(e.NotEntered):
                    await tournaments.leave(made.id, user.id)
        for board in (await tournaments.overview(made.id)).round_boards(number):
            p = board.pairing
            if p.decided or p.game_id is None or p.second_id is None:
                continue
            loser = p.first_id if losers >> bit & 1 else p.second_id
            bit += 1
            await _play_out(services, p.game_id, loser)
        [progress] = await tournaments.due()
    winner = progress.tournament.winner_id
    rows = await services.store.database.fetch_all(
        """SELECT user_id, SUM(delta) FROM ledger WHERE id > ? AND kind LIKE 'tournament%'
           GROUP BY user_id ORDER BY user_id""",
        (mark,),
    )
    now = tournaments.now()
    return [
        _Payment(row[0], winner, entry, now)
        for row in rows
        if row[1] == -entry and winner is not None and row[0] != winner
    ]


async def _last_row(store: Store) -> int:
    row = await store.database.fetch_one("SELECT COALESCE(MAX(id), 0) FROM ledger")
    assert row is not None
    return int(row[0])


async def _scenario(path: Path | str, plan: list[tuple[tuple[object, ...], int]]) -> None:
    db = await open_database(path)
    store = Store(db)
    clock = Clock()
    services = compose(store, random.Random(1), move_seconds=60, clock=clock)
    payments: list[_Payment] = []
    try:
        await _players(services, range(1, ACCOUNTS + 1))
        for step, wait in plan:
            clock.now += wait
            if step[0] == "game":
                _, loser_at, further, stake, _unused = step
                assert isinstance(loser_at, int) and isinstance(further, int)
                assert isinstance(stake, int)
                loser, winner = 1 + loser_at, 1 + (loser_at + further) % ACCOUNTS
                settled = await play_staked(
                    store,
                    loser=loser,
                    winner=winner,
                    stake=stake,
                    mode=StakeMode.AMATEUR,
                    cube=1,
                    now=clock.now,
                )
                if settled.chips_status is ChipsStatus.PAID and settled.chips:
                    payments.append(_Payment(loser, winner, settled.chips, clock.now))
            else:
                _, entrants, withdraw, entry, losers = step
                assert isinstance(entrants, list) and isinstance(withdraw, list)
                assert isinstance(entry, int) and isinstance(losers, int)
                payments += await _tournament(services, entrants, withdraw, entry, losers)
        for index, payment in enumerate(payments):  # each as it was made
            net_chips, net_count = _net(
                payments[: index + 1], payment.payer, payment.payee, payment.at
            )
            assert net_chips < chips.DUMP_CHIPS, f"{net_chips} chips passed: {payment}"
            assert net_count < chips.DUMP_PAYMENTS, f"{net_count} payments: {payment}"
        for flag in await store.chips.flags(GROUP, 1000) + await store.chips.flags(-1, 1000):
            assert flag.paid >= chips.DUMP_CHIPS or flag.payments >= chips.DUMP_PAYMENTS
        # no chip made or lost: the balances hold what was granted, no more, no less
        granted = await db.fetch_one(
            "SELECT SUM(delta) FROM ledger WHERE kind IN ('grant', 'top_up')"
        )
        held = await db.fetch_one("SELECT SUM(chips) FROM wallets")
        assert granted is not None and held is not None and held[0] == granted[0]
        for tournament in await services.tournaments.in_chat(GROUP, limit=100):
            assert tournament.is_over  # each played to its end, or called off
    finally:
        await db.close()


TOURNAMENT_EXAMPLES: Final = {"sqlite": 15, "postgresql": 4}
"""Fewer than the games' property (:data:`~.staked.EXAMPLES`): an example plays whole
tournaments; the explicit one below, the review's funnel, runs every time."""

FUNNEL = [
    # two 500 knock-outs between the same two the same day, both played: 1,000 one way
    ((("tournament", [0, 1], [0, 0, 0], 500, 0)), 0),
    ((("tournament", [0, 1], [0, 0, 0], 500, 0)), 60),
]


@pytest.mark.parametrize("backend", BACKENDS)
def test_no_sequence_of_tournaments_and_games_passes_more_than_the_limits(
    backend: str, request: pytest.FixtureRequest
) -> None:
    new_database = fresh_databases(backend, request)

    @settings(
        max_examples=TOURNAMENT_EXAMPLES[backend],
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow],
    )
    @given(plan=steps)
    @example(plan=FUNNEL)
    def check(plan: list[tuple[tuple[object, ...], int]]) -> None:
        with new_database() as database:
            asyncio.run(_scenario(database, plan))

    check()
