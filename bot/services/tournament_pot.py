"""A tournament's pot: the entries, paid at the end in the transaction that names the winner,
each to the winner or back to its entrant. Only play is paid for (an entrant who played no
game gets their entry back; a winner who met fewer than :func:`prize_opponents` distinct
opponents is paid nothing), and an entry that would bring the net flow from its entrant to the
winner past the chip-dumping limit (:mod:`.chips`) goes back, flagged for the group's admins.
Why: ``docs/decisions.md``, section ``bot/services/tournaments.py``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from bot.model import Store, Tournament, TournamentEntrant

from . import chips
from .games import Games

PRIZE_OPPONENTS: Final = 2
"""Distinct opponents a winner must have played to be paid the pot (see
:func:`prize_opponents`)."""

ENTRY_KIND: Final = "tournament_entry"
REFUND_KIND: Final = "tournament_refund"
PRIZE_KIND: Final = "tournament_prize"


def prize_opponents(rounds: int) -> int:
    """The distinct opponents a tournament's winner must have played (games past the early
    concessions) to be paid its pot: :data:`PRIZE_OPPONENTS`, or one in a tournament of two
    rounds or fewer (where a bye leaves its winner only the final to play)."""
    return max(1, min(PRIZE_OPPONENTS, rounds - 1))


async def pay_pot(
    store: Store,
    games: Games,
    tournament: Tournament,
    entrants: Sequence[TournamentEntrant],
    winner: int | None,
    now: float,
) -> int:
    """Inside the caller's transaction: the pot's entries, each to the winner or back to
    its entrant (see the module docstring); returns what the winner was paid."""
    # the entrants' wallets, in one order: a staked game between two of them settling
    # meanwhile is judged after these payments (or before), never beside them
    await store.lock_players(*(e.user_id for e in entrants))
    players = await _players(store, games, tournament.id)
    opponents = players.get(winner, frozenset()) if winner is not None else frozenset()
    paid = 0
    for entrant in entrants:
        payer = entrant.user_id
        if winner is None or len(opponents) < prize_opponents(tournament.rounds):
            to_winner = False  # no prize: every entry goes back
        elif payer == winner:
            to_winner = True
        elif payer not in players:
            to_winner = False  # played no game: their entry is theirs
        else:
            flow = await chips.stream(store, payer, winner, tournament.entry, now)
            to_winner = not flow.held
            if flow.held:
                await store.chips.flag(
                    game_id=None,
                    tournament_id=tournament.id,
                    chat_id=tournament.chat_id,
                    loser_id=payer,
                    winner_id=winner,
                    amount=tournament.entry,
                    payments=flow.payments,
                    paid=flow.chips,
                    now=now,
                )
        if not to_winner:
            await store.tournaments.pay(payer, tournament.entry, kind=REFUND_KIND, now=now)
        elif payer == winner:
            await store.tournaments.pay(payer, tournament.entry, kind=PRIZE_KIND, now=now)
            paid += tournament.entry
        else:
            assert winner is not None
            await store.chips.pay_entry(
                payer_id=payer, payee_id=winner, amount=tournament.entry, now=now
            )
            paid += tournament.entry
    return paid


async def _players(store: Store, games: Games, tournament_id: int) -> dict[int, frozenset[int]]:
    """Who played in the tournament, each with the opponents they played: its finished
    games past the early concessions only (:func:`~.chips.is_early_concession`: a game
    conceded, or lost on time, before the loser's third turn)."""
    met: dict[int, set[int]] = {}
    for game_id in await store.tournaments.finished_games(tournament_id):
        stored = await games.stored(game_id)
        if chips.is_early_concession(stored):
            continue
        met.setdefault(stored.white_id, set()).add(stored.black_id)
        met.setdefault(stored.black_id, set()).add(stored.white_id)
    return {player: frozenset(others) for player, others in met.items()}
