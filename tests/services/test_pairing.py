"""Tournament pairing: the published tables and bracket order, hand-worked Swiss rounds and
standings, and properties over random fields and results."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Sequence

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.pairing import (
    KnockoutDraw,
    Pairing,
    PairingResult,
    Round,
    SeededPlayer,
    bracket_order,
    knockout_bracket,
    round_robin,
    round_winners,
    standings,
    swiss_round,
    swiss_rounds,
)
from tests.services.pairings import results_of

QUICK = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
MANY = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def field(count: int) -> list[SeededPlayer]:
    """Players 1..count, player 1 the highest-rated."""
    return [SeededPlayer(player, 2000 - player) for player in range(1, count + 1)]


def boards(played: Round) -> list[tuple[int, int | None]]:
    return [(pairing.first, pairing.second) for pairing in played.pairings]


# Knock-out


def test_the_bracket_order_of_sixteen_is_the_classic_one() -> None:
    assert bracket_order(16) == (1, 16, 8, 9, 5, 12, 4, 13, 3, 14, 6, 11, 7, 10, 2, 15)
    assert bracket_order(8) == (1, 8, 4, 5, 3, 6, 2, 7)
    assert bracket_order(2) == (1, 2)
    with pytest.raises(ValueError):
        bracket_order(12)


def test_five_players_three_byes_to_the_top_seeds_then_round_two_by_place() -> None:
    bracket = knockout_bracket(reversed(field(5)))  # sign-up order does not matter
    assert bracket == KnockoutDraw((1, 2, 3, 4, 5), 8)
    assert (bracket.byes, bracket.rounds) == (3, 3)
    first = bracket.first_round()
    assert boards(first) == [(1, None), (4, 5), (3, None), (2, None)]
    assert first.matches == (Pairing(4, 5),) and first.byes == (1, 3, 2)
    second = bracket.next_round(first, [PairingResult(4, 5, 5)])
    assert boards(second) == [(1, 5), (2, 3)]
    final = bracket.next_round(second, [PairingResult(1, 5, 5), PairingResult(2, 3, 3)])
    assert boards(final) == [(3, 5)]
    assert round_winners(final, [PairingResult(3, 5, 3)]) == (3,)
    with pytest.raises(ValueError, match="final"):
        bracket.next_round(final, [PairingResult(3, 5, 3)])


def test_a_game_without_a_winner_holds_the_next_round() -> None:
    bracket = knockout_bracket(field(4))
    first = bracket.first_round()
    assert boards(first) == [(1, 4), (2, 3)]
    with pytest.raises(ValueError, match="no winner"):
        bracket.next_round(first, [PairingResult(1, 4, 1)])
    with pytest.raises(ValueError, match="no winner"):
        bracket.next_round(first, [PairingResult(1, 4, 1), PairingResult(2, 3, None)])


@QUICK
@given(st.integers(2, 300), st.randoms(use_true_random=False))
def test_knockout_byes_to_the_top_seeds_and_seeds_one_and_two_apart(
    count: int, rng: random.Random
) -> None:
    bracket = knockout_bracket(field(count))
    size = bracket.size
    assert size >= count > size // 2 and size & (size - 1) == 0
    first = bracket.first_round()
    assert len(first.pairings) == size // 2
    assert bracket.byes == size - count == len(first.byes)
    assert set(first.byes) == set(range(1, bracket.byes + 1))  # the top seeds
    players = [player for pairing in first.pairings for player in pairing.players]
    assert sorted(players) == list(range(1, count + 1))
    half = len(first.pairings) // 2
    places = {p: board for board, pairing in enumerate(first.pairings) for p in pairing.players}
    assert (places[1] < half) != (places[2] < half) or count == 2
    # Played out at random: one winner, every round half the last; to form: 1 v 2 in the final.
    played, to_form = first, first
    for _ in range(bracket.rounds - 1):
        played = bracket.next_round(played, results_of(played, rng))
        favourites = [PairingResult(p.first, p.second, p.first) for p in to_form.matches]
        to_form = bracket.next_round(to_form, favourites)
        assert len(played.pairings) == len(played.matches) == len(to_form.pairings)
    assert len(played.pairings) == 1
    assert boards(to_form) == [(1, 2)]


# Round robin

# FIDE Handbook C.05 Annex 1, the Berger tables (also at c.w.fox.tripod.com/chess/berger.html).
BERGER = {
    4: ["1-4 2-3", "4-3 1-2", "2-4 3-1"],
    6: [
        "1-6 2-5 3-4",
        "6-4 5-3 1-2",
        "2-6 3-1 4-5",
        "6-5 1-4 2-3",
        "3-6 4-2 5-1",
    ],
    8: [
        "1-8 2-7 3-6 4-5",
        "8-5 6-4 7-3 1-2",
        "2-8 3-1 4-7 5-6",
        "8-6 7-5 1-4 2-3",
        "3-8 4-2 5-1 6-7",
        "8-7 1-6 2-5 3-4",
        "4-8 5-3 6-2 7-1",
    ],
    10: [
        "1-10 2-9 3-8 4-7 5-6",
        "10-6 7-5 8-4 9-3 1-2",
        "2-10 3-1 4-9 5-8 6-7",
        "10-7 8-6 9-5 1-4 2-3",
        "3-10 4-2 5-1 6-9 7-8",
        "10-8 9-7 1-6 2-5 3-4",
        "4-10 5-3 6-2 7-1 8-9",
        "10-9 1-8 2-7 3-6 4-5",
        "5-10 6-4 7-3 8-2 9-1",
    ],
}


def table(rounds: Sequence[Round]) -> list[str]:
    return [
        " ".join(f"{pairing.first}-{pairing.second or 'bye'}" for pairing in played.pairings)
        for played in rounds
    ]


@pytest.mark.parametrize("count", sorted(BERGER))
def test_round_robin_is_fides_berger_table(count: int) -> None:
    rounds = round_robin(range(1, count + 1))
    assert table(rounds) == BERGER[count]
    assert [played.number for played in rounds] == list(range(1, count))


def test_an_odd_round_robin_gives_the_dummy_numbers_games_as_byes() -> None:
    # Five players read the six-player table; whoever meets number 6 sits out.
    def bye(board: str) -> str:
        one, other = board.split("-")
        return f"{other if one == '6' else one}-bye" if "6" in (one, other) else board

    expected = [" ".join(bye(board) for board in row.split()) for row in BERGER[6]]
    assert table(round_robin([1, 2, 3, 4, 5])) == expected


@QUICK
@given(st.integers(2, 30))
def test_round_robin_every_pair_once_everyone_once_a_round(count: int) -> None:
    players = list(range(100, 100 + count))
    rounds = round_robin(players)
    assert len(rounds) == (count - 1 if count % 2 == 0 else count)
    met: Counter[frozenset[int]] = Counter()
    byes: Counter[int] = Counter()
    firsts: Counter[int] = Counter()
    for played in rounds:
        seen = [p for pairing in played.pairings for p in pairing.players]
        assert sorted(seen) == players
        for pairing in played.matches:
            met[frozenset(pairing.players)] += 1
            firsts[pairing.first] += 1
        byes.update(played.byes)
    assert set(met) == {frozenset(pair) for pair in itertools.combinations(players, 2)}
    assert set(met.values()) == {1}
    assert byes == (Counter(players) if count % 2 else Counter())
    for player in players:  # colours as even as the tables make them (a bye is no game)
        assert abs(2 * firsts[player] - (count - 1)) <= (1 if count % 2 == 0 else 2)


# Swiss


def test_swiss_rounds_default_to_ceil_log2() -> None:
    assert [swiss_rounds(n) for n in (2, 3, 4, 5, 8, 9, 16, 17, 256, 257)] == [
        1,
        2,
        2,
        3,
        3,
        4,
        4,
        5,
        8,
        9,
    ]


def test_swiss_round_one_top_half_against_bottom_half_colours_alternating() -> None:
    # As FIDE's Dutch system pairs round 1 of eight when the top seed draws white.
    first = swiss_round(list(reversed(field(8))), [], 1)
    assert boards(first) == [(1, 5), (6, 2), (3, 7), (8, 4)]


def test_swiss_round_two_by_score_groups_with_colours_due() -> None:
    history = [
        PairingResult(1, 5, 1),
        PairingResult(6, 2, 2),
        PairingResult(3, 7, 3),
        PairingResult(8, 4, 4),
    ]
    second = swiss_round(field(8), history, 2)
    # winners 1 2 3 4 and losers 5 6 7 8, each group split in halves; each player gets the
    # other colour, the higher-ranked player's wish first when two want the same.
    assert boards(second) == [(3, 1), (2, 4), (5, 7), (8, 6)]


def test_swiss_looks_ahead_instead_of_pairing_into_a_repeat() -> None:
    # All four on 0 (double forfeits). 1's halves partner 3 is a repeat; the next, 4, would
    # leave 2 and 3 who have met. So 1 plays 2 and 3 plays 4.
    history = [PairingResult(1, 3, None), PairingResult(2, 3, None)]
    paired = swiss_round(field(4), history, 2)
    assert sorted(sorted(p.players) for p in paired.pairings) == [[1, 2], [3, 4]]


def test_swiss_floats_the_odd_player_down_to_the_next_groups_top() -> None:
    # 1, 2, 3 on a point, 4, 5, 6 on none. The group of three splits [1] and [2, 3]: 1 v 2,
    # and 3 floats down to meet 4, the next group's top (3 has met 6); then 5 v 6.
    history = [PairingResult(1, 4, 1), PairingResult(2, 5, 2), PairingResult(3, 6, 3)]
    paired = swiss_round(field(6), history, 2)
    assert sorted(sorted(p.players) for p in paired.pairings) == [[1, 2], [3, 4], [5, 6]]


def test_swiss_bye_to_the_lowest_ranked_player_without_one() -> None:
    first = swiss_round(field(5), [], 1)
    assert first.byes == (5,)
    history = [PairingResult.bye(5), PairingResult(1, 3, 3), PairingResult(4, 2, 4)]
    # 5 has a point from the bye; 1 and 2 have none, 2 the lower rated of them.
    assert swiss_round(field(5), history, 2).byes == (2,)


def test_a_withdrawn_player_is_not_paired_but_their_games_still_count() -> None:
    history = [PairingResult(1, 3, 1), PairingResult(2, 4, 2)]
    paired = swiss_round([e for e in field(4) if e.player != 1], history, 2)
    assert paired.byes == (4,)  # three left: 4 the lowest, no bye yet
    assert sorted(paired.matches[0].players) == [2, 3]


def play_swiss(
    count: int, rounds: int, rng: random.Random
) -> tuple[list[Round], list[PairingResult]]:
    entrants = [SeededPlayer(player, rng.uniform(1000, 2000)) for player in range(count)]
    played: list[Round] = []
    history: list[PairingResult] = []
    for number in range(1, rounds + 1):
        paired = swiss_round(entrants, history, number)
        seen = sorted(p for pairing in paired.pairings for p in pairing.players)
        assert seen == list(range(count))
        assert len(paired.byes) == count % 2
        if paired.byes:  # fair: no second bye while someone has fewer
            had = Counter(r.first for r in history if r.second is None)
            assert had[paired.byes[0]] == min(had[player] for player in range(count))
        shuffled = rng.sample(entrants, len(entrants))  # a restart pairs the same round again
        assert swiss_round(shuffled, history, number) == paired
        played.append(paired)
        history += results_of(paired, rng)
    return played, history


@QUICK
@given(st.integers(1, 20), st.randoms(use_true_random=False))
def test_swiss_round_two_pairs_within_the_score_groups(half: int, rng: random.Random) -> None:
    # After round 1 the winners have met none of each other, nor the losers: every board is
    # inside a group but one, when the groups are odd, where the odd winner floats down.
    rounds, history = play_swiss(2 * half, 2, rng)
    points = Counter(r.winner for r in history[:half])
    across = [p for p in rounds[1].matches if points[p.first] != points[p.second]]
    assert len(across) == half % 2


@MANY
@given(st.integers(2, 40), st.randoms(use_true_random=False))
def test_swiss_never_repeats_a_pairing_in_its_rounds(count: int, rng: random.Random) -> None:
    rounds, _ = play_swiss(count, swiss_rounds(count), rng)
    games = [frozenset(pairing.players) for played in rounds for pairing in played.matches]
    assert len(games) == len(set(games))


def fewest_repeats(players: Sequence[int], history: Sequence[PairingResult]) -> int:
    """By brute force: the fewest repeated pairings a round can have, its bye fair."""
    met = Counter(frozenset((r.first, r.second)) for r in history if r.second is not None)
    had = Counter(r.first for r in history if r.second is None)

    def best(rest: tuple[int, ...]) -> int:
        if not rest:
            return 0
        head, tail = rest[0], rest[1:]
        return min(
            (frozenset((head, other)) in met) + best(tuple(p for p in tail if p != other))
            for other in tail
        )

    if len(players) % 2 == 0:
        return best(tuple(players))
    fewest = min(had[p] for p in players)
    return min(best(tuple(p for p in players if p != bye)) for bye in players if had[bye] == fewest)


@MANY
@given(st.integers(2, 8), st.integers(1, 10), st.randoms(use_true_random=False))
def test_swiss_past_its_rounds_repeats_only_as_much_as_it_must(
    count: int, rounds: int, rng: random.Random
) -> None:
    entrants = [SeededPlayer(player, rng.uniform(1000, 2000)) for player in range(count)]
    history: list[PairingResult] = []
    for number in range(1, rounds + 1):
        paired = swiss_round(entrants, history, number)
        met = {frozenset((r.first, r.second)) for r in history if r.second is not None}
        repeats = sum(frozenset(p.players) in met for p in paired.matches)
        assert repeats == fewest_repeats(range(count), history)
        history += results_of(paired, rng)


# Standings


def test_standings_head_to_head_settles_equal_buchholz() -> None:
    # 1 and 2 on two points, Buchholz 4 each: 1 beat 2. 3 and 4 on one, Buchholz 5: 3 beat 4.
    entrants = [
        SeededPlayer(1, 1500),
        SeededPlayer(2, 1600),
        SeededPlayer(3, 1500),
        SeededPlayer(4, 1600),
    ]
    results = [
        PairingResult(1, 2, 1),
        PairingResult(1, 3, 1),
        PairingResult(4, 1, 4),
        PairingResult(2, 3, 2),
        PairingResult(2, 4, 2),
        PairingResult(3, 4, 3),
    ]
    table = standings(entrants, results)
    assert [(p.player, p.score, p.buchholz, p.head_to_head) for p in table] == [
        (1, 2, 4, 1),
        (2, 2, 4, 0),
        (3, 1, 5, 1),
        (4, 1, 5, 0),
    ]
    assert [p.place for p in table] == [1, 2, 3, 4]


def test_standings_buchholz_counts_a_bye_as_an_opponent_with_ones_own_score() -> None:
    entrants = [
        SeededPlayer(1, 1900),
        SeededPlayer(2, 1800),
        SeededPlayer(3, 1500),
        SeededPlayer(4, 1700),
    ]
    entrants.append(SeededPlayer(5, 1600))
    results = [
        PairingResult(1, 2, 1),
        PairingResult(3, 4, 3),
        PairingResult.bye(5),
        PairingResult(1, 3, 1),
        PairingResult(5, 2, 5),
        PairingResult.bye(4),
    ]
    table = standings(entrants, results)
    # 5: bye (own 2) + 2 (0) = 2 beats 1's 2 (0) + 3 (1) = 1; 3: 4 (1) + 1 (2) = 3 beats
    # 4's 3 (1) + bye (own 1) = 2; ratings would have put 1 and 4 ahead.
    assert [(p.player, p.score, p.buchholz) for p in table] == [
        (5, 2, 2),
        (1, 2, 1),
        (3, 1, 3),
        (4, 1, 2),
        (2, 0, 4),
    ]


def test_standings_fall_back_to_rating_when_all_else_is_equal() -> None:
    # Three players, a cycle of wins and a bye each: all on 2, Buchholz 6, head-to-head 1.
    entrants = [SeededPlayer(1, 1500), SeededPlayer(2, 1600), SeededPlayer(3, 1700)]
    rounds = round_robin([1, 2, 3])
    winners = {frozenset((2, 3)): 2, frozenset((1, 2)): 1, frozenset((1, 3)): 3}
    results = [
        PairingResult.bye(p.first)
        if p.second is None
        else PairingResult(p.first, p.second, winners[frozenset(p.players)])
        for played in rounds
        for p in played.pairings
    ]
    table = standings(entrants, results)
    assert [(p.player, p.score, p.buchholz, p.head_to_head) for p in table] == [
        (3, 2, 6, 1),
        (2, 2, 6, 1),
        (1, 2, 6, 1),
    ]


def test_results_refuse_what_cannot_happen() -> None:
    with pytest.raises(ValueError):
        PairingResult(1, None, None)
    with pytest.raises(ValueError):
        PairingResult(1, 2, 3)
    with pytest.raises(ValueError):
        PairingResult(1, 1, 1)
    with pytest.raises(ValueError, match="twice"):
        swiss_round([SeededPlayer(1, 1500), SeededPlayer(1, 1600)], [], 1)
    with pytest.raises(ValueError, match="two"):
        knockout_bracket([SeededPlayer(1, 1500)])


@settings(max_examples=10, deadline=None)
@given(st.randoms(use_true_random=False))
def test_standings_rank_everyone_once_best_score_first(rng: random.Random) -> None:
    rounds, history = play_swiss(21, 5, rng)
    entrants = [SeededPlayer(player, 1500) for player in range(21)]
    table = standings(entrants, history)
    assert sorted(p.player for p in table) == list(range(21))
    assert [p.score for p in table] == sorted((p.score for p in table), reverse=True)
    assert sum(p.score for p in table) == sum(len(r.pairings) for r in rounds)
