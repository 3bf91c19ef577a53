"""Tournament pairing: knock-out brackets, round-robin tables, Swiss rounds and standings.

Pure arithmetic on player ids: no storage, no clock, no randomness, standard library only, so
the tournament service can pair a round again after a restart and get the same round. Every
game has a winner (nardy has no draws); a :class:`PairingResult` with no winner is a double forfeit,
where neither player scores.

- Knock-out (:func:`knockout_bracket`): players seeded by rating into a bracket of the next
  power of two, in the standard order (seeds 1 and 2 can meet only in the final, 1-4 and 2-3
  in the semi-finals); the missing places are byes, given to the top seeds in round 1 only.
- Round robin (:func:`round_robin`): FIDE's Berger tables, every pair once, colours (who
  plays first) as the tables give them; with an odd number the player drawn against the dummy
  number has the round's bye.
- Swiss (:func:`swiss_round`): score groups, top half against bottom half, the odd player
  floated down; no repeated pairing while a repeat-free one exists (a matching search decides,
  see :func:`swiss_round`), and the bye to the lowest-ranked player who has not had one.
- Standings (:func:`standings`): score, Buchholz, head-to-head, rating.

No PyPI package fitted: the pairing libraries there (``caissify-pairings``, ``pairing-core``,
``cardarena-tournament-core``, ``gacrux``, ``swisspair``) are young, one-maintainer projects
or bindings, and FIDE's Dutch rules are more than a club tournament in a chat needs. This one is
tested against FIDE's published Berger tables and the bracket order, and by properties.
"""

from __future__ import annotations

import math
from collections import Counter, deque
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

PlayerId = int
"""A player's id (a Telegram user id): the only thing pairing knows of a person."""


@dataclass(frozen=True, slots=True)
class SeededPlayer:
    """A player taking part, with the rating that seeds and ranks them."""

    player: PlayerId
    rating: float


@dataclass(frozen=True, slots=True)
class Pairing:
    """One board of a round: ``first`` plays first (white in the Berger tables); a pairing
    with no ``second`` is a bye."""

    first: PlayerId
    second: PlayerId | None = None

    @property
    def is_bye(self) -> bool:
        return self.second is None

    @property
    def players(self) -> tuple[PlayerId, ...]:
        return (self.first,) if self.second is None else (self.first, self.second)


@dataclass(frozen=True, slots=True)
class Round:
    """A round's boards in order (the top board first; a knock-out round in bracket order)."""

    number: int
    pairings: tuple[Pairing, ...]

    @property
    def matches(self) -> tuple[Pairing, ...]:
        """The boards with two players: the games to start."""
        return tuple(pairing for pairing in self.pairings if pairing.second is not None)

    @property
    def byes(self) -> tuple[PlayerId, ...]:
        return tuple(pairing.first for pairing in self.pairings if pairing.second is None)


@dataclass(frozen=True, slots=True)
class PairingResult:
    """A finished board: the pairing's players and the winner.

    A bye is ``PairingResult(player, None, player)``: it scores a win. ``winner=None`` on a game is
    a double forfeit (both players absent): it counts as a game played, and neither scores.
    """

    first: PlayerId
    second: PlayerId | None
    winner: PlayerId | None

    def __post_init__(self) -> None:
        if self.second is None and self.winner != self.first:
            raise ValueError("a bye is won by its player")
        if self.first == self.second:
            raise ValueError("a player cannot play themselves")
        if self.winner not in (self.first, self.second, None):
            raise ValueError("the winner must be one of the two players")

    @classmethod
    def bye(cls, player: PlayerId) -> PairingResult:
        return cls(player, None, player)

    def points(self, player: PlayerId) -> int:
        """What the board scores for ``player``: 1 for a win or a bye, else 0."""
        return 1 if self.winner == player else 0


def _check_unique(players: Iterable[PlayerId]) -> list[PlayerId]:
    listed = list(players)
    if len(listed) < 2:
        raise ValueError("a tournament needs at least two players")
    if len(set(listed)) != len(listed):
        raise ValueError("a player is entered twice")
    return listed


def seeded(entrants: Iterable[SeededPlayer]) -> list[SeededPlayer]:
    """Entrants by seed: the highest rating first; equal ratings by player id, so the order
    never depends on the order of sign-up."""
    return sorted(entrants, key=lambda entrant: (-entrant.rating, entrant.player))


# Knock-out


def bracket_order(size: int) -> tuple[int, ...]:
    """Seed numbers (1-based) in the order of a bracket's places, for ``size`` a power of two.

    Places ``2i`` and ``2i + 1`` meet in round 1, each pair's seeds adding up to ``size + 1``,
    the better seed in the upper place. Built by doubling: each seed ``s`` of the bracket of
    ``m`` places is joined by ``2m + 1 - s``, alternately after and before it, so that every
    half, quarter, ... holds one of the seeds 1, 2; 1-4; 1-8 and so on. For 16: 1 16 8 9 5 12
    4 13 3 14 6 11 7 10 2 15.
    """
    if size < 1 or size & (size - 1):
        raise ValueError(f"a bracket's size is a power of two, not {size}")
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        doubled: list[int] = []
        for index, seed in enumerate(order):
            doubled += [seed, total - seed] if index % 2 == 0 else [total - seed, seed]
        order = doubled
    return tuple(
        seed
        for upper, lower in zip(order[::2], order[1::2], strict=True)
        for seed in sorted((upper, lower))
    )


@dataclass(frozen=True, slots=True)
class KnockoutDraw:
    """A knock-out bracket: the players by seed and the bracket's size (a power of two).

    Seeds past the number of players are byes; they fall against the top seeds, one each, so
    a bye never meets a bye and every bye is used up in round 1.
    """

    seeds: tuple[PlayerId, ...]
    size: int

    @property
    def byes(self) -> int:
        return self.size - len(self.seeds)

    @property
    def rounds(self) -> int:
        """Rounds up to and including the final."""
        return self.size.bit_length() - 1

    def seed_of(self, player: PlayerId) -> int:
        """The player's seed, 1 the top."""
        return self.seeds.index(player) + 1

    def _pairing(self, one: PlayerId, other: PlayerId | None) -> Pairing:
        if other is None:
            return Pairing(one)
        if self.seed_of(other) < self.seed_of(one):
            one, other = other, one
        return Pairing(one, other)

    def first_round(self) -> Round:
        """Round 1 in bracket order: the better seed plays first; a top seed's bye is a
        pairing of its own, kept in its place so that round 2 pairs by place."""
        places: list[PlayerId | None] = [
            self.seeds[seed - 1] if seed <= len(self.seeds) else None
            for seed in bracket_order(self.size)
        ]
        pairings = []
        for upper, lower in zip(places[::2], places[1::2], strict=True):
            assert upper is not None  # the upper place holds the better seed, never a bye
            pairings.append(self._pairing(upper, lower))
        return Round(1, tuple(pairings))

    def next_round(self, previous: Round, results: Iterable[PairingResult]) -> Round:
        """The round after ``previous``: the winners of boards ``2i`` and ``2i + 1`` meet, the
        better seed playing first. Raises ValueError after the final or when a game of
        ``previous`` has no winner in ``results``."""
        if len(previous.pairings) < 2:
            raise ValueError("the final has no next round")
        winners = round_winners(previous, results)
        pairings = tuple(
            self._pairing(upper, lower)
            for upper, lower in zip(winners[::2], winners[1::2], strict=True)
        )
        return Round(previous.number + 1, pairings)


def knockout_bracket(entrants: Iterable[SeededPlayer]) -> KnockoutDraw:
    """A bracket for the entrants, seeded by rating (:func:`seeded`), of the smallest power of
    two that holds them all."""
    players = _check_unique(entrant.player for entrant in seeded(entrants))
    return KnockoutDraw(tuple(players), 1 << (len(players) - 1).bit_length())


def round_winners(played: Round, results: Iterable[PairingResult]) -> tuple[PlayerId, ...]:
    """Who goes through from each board of a knock-out round, in board order: a bye's player,
    else the game's winner. The champion is the final's one winner."""
    winner_of: dict[frozenset[PlayerId], PlayerId | None] = {
        frozenset((result.first, result.second)): result.winner
        for result in results
        if result.second is not None
    }
    winners = []
    for pairing in played.pairings:
        if pairing.second is None:
            winners.append(pairing.first)
            continue
        winner = winner_of.get(frozenset(pairing.players))
        if winner is None:
            raise ValueError(f"no winner yet between {pairing.first} and {pairing.second}")
        winners.append(winner)
    return tuple(winners)


# Round robin


def round_robin(players: Sequence[PlayerId]) -> tuple[Round, ...]:
    """Every round of a single round robin by FIDE's Berger tables.

    ``players`` are the table's numbers 1, 2, ... in order (the caller seeds them by rating
    or draws lots). With ``n`` players, ``n`` even: ``n - 1`` rounds; ``n`` odd: number
    ``n + 1`` is a dummy and whoever meets it has a bye, ``n`` rounds. Round 1 is 1 v n,
    2 v n-1, ...; each next round adds ``n/2`` to every number but the last (modulo ``n - 1``)
    and the last number changes colour every round, which is how the published tables read.
    """
    listed = _check_unique(players)
    size = len(listed) + len(listed) % 2
    half = size // 2
    last = size - 1  # the table's number n, 0-based
    rounds = []
    for index in range(size - 1):

        def number(seat: int, index: int = index) -> int:
            return (seat + index * half) % (size - 1)

        opponent = number(0)
        boards = [(opponent, last) if index % 2 == 0 else (last, opponent)]
        boards += [(number(k), number(size - 1 - k)) for k in range(1, half)]
        pairings = []
        for first, second in boards:
            if first >= len(listed):
                pairings.append(Pairing(listed[second]))
            elif second >= len(listed):
                pairings.append(Pairing(listed[first]))
            else:
                pairings.append(Pairing(listed[first], listed[second]))
        rounds.append(Round(index + 1, tuple(pairings)))
    return tuple(rounds)


# Swiss


def swiss_rounds(players: int) -> int:
    """The default number of Swiss rounds: ``ceil(log2 n)``, enough to leave one player with
    a perfect score when every round goes to form."""
    return max(1, math.ceil(math.log2(max(players, 2))))


class _Matcher:
    """A maximum matching of the players still to pair, over the repeat-free pairs.

    Edmonds' blossom search (alternating trees, odd cycles shrunk to their base) finds the
    augmenting paths. Pairing two players removes them; the matching of the rest is then
    repaired from the (at most two) players it left alone, since every augmenting path left
    must end at one of them, so each question "can the rest still be paired as well as
    before?" costs one or two searches, most often none.
    """

    def __init__(self, allowed: list[set[int]]) -> None:
        self.allowed = allowed
        count = len(allowed)
        self.alive = [True] * count
        self.match = [-1] * count
        self.size = 0
        for vertex in range(count):  # greedy first, then the searches
            if self.match[vertex] == -1:
                for other in sorted(allowed[vertex]):
                    if self.match[other] == -1:
                        self.match[vertex], self.match[other] = other, vertex
                        self.size += 1
                        break
        for vertex in range(count):
            if self.match[vertex] == -1 and self._augment(vertex, self.match):
                self.size += 1

    def without(self, one: int, other: int) -> tuple[int, list[int]]:
        """The size of a maximum matching once ``one`` and ``other`` are gone, and that
        matching; the matcher itself is left as it was."""
        match = self.match.copy()
        size = self.size
        freed = []
        for vertex in (one, other):
            mate = match[vertex]
            if mate != -1:
                match[vertex] = match[mate] = -1
                size -= 1
                if mate not in (one, other):
                    freed.append(mate)
        self.alive[one] = self.alive[other] = False
        if len(freed) == 2 and freed[1] in self.allowed[freed[0]]:
            match[freed[0]], match[freed[1]] = freed[1], freed[0]
            size += 1
        else:
            for vertex in freed:
                if match[vertex] == -1 and self._augment(vertex, match):
                    size += 1
        self.alive[one] = self.alive[other] = True
        return size, match

    def remove(self, one: int, other: int, size: int, match: list[int]) -> None:
        self.alive[one] = self.alive[other] = False
        self.size, self.match = size, match

    def _augment(self, root: int, match: list[int]) -> bool:
        """Edmonds' search from the unmatched ``root``; augments ``match`` when it finds a
        path (and says so)."""
        count = len(match)
        alive, allowed = self.alive, self.allowed
        used = [False] * count
        parent = [-1] * count
        base = list(range(count))
        used[root] = True
        queue = deque([root])

        def lca(a: int, b: int) -> int:
            seen = [False] * count
            while True:
                a = base[a]
                seen[a] = True
                if match[a] == -1:
                    break
                a = parent[match[a]]
            while True:
                b = base[b]
                if seen[b]:
                    return b
                b = parent[match[b]]

        def mark(vertex: int, stop: int, child: int, blossom: list[bool]) -> None:
            while base[vertex] != stop:
                blossom[base[vertex]] = blossom[base[match[vertex]]] = True
                parent[vertex] = child
                child = match[vertex]
                vertex = parent[match[vertex]]

        while queue:
            vertex = queue.popleft()
            for other in allowed[vertex]:
                if not alive[other] or base[vertex] == base[other] or match[vertex] == other:
                    continue
                if other == root or (match[other] != -1 and parent[match[other]] != -1):
                    stop = lca(vertex, other)
                    blossom = [False] * count
                    mark(vertex, stop, other, blossom)
                    mark(other, stop, vertex, blossom)
                    for inner in range(count):
                        if blossom[base[inner]]:
                            base[inner] = stop
                            if not used[inner]:
                                used[inner] = True
                                queue.append(inner)
                elif parent[other] == -1:
                    parent[other] = vertex
                    if match[other] == -1:
                        end: int = other
                        while end != -1:
                            step = parent[end]
                            after = match[step]
                            match[end], match[step] = step, end
                            end = after
                        return True
                    used[match[other]] = True
                    queue.append(match[other])
        return False


def _history(results: Iterable[PairingResult]) -> tuple[Counter[PlayerId], Counter[frozenset[int]]]:
    """Byes had per player, and games played per pair of players."""
    byes: Counter[PlayerId] = Counter()
    met: Counter[frozenset[int]] = Counter()
    for result in results:
        if result.second is None:
            byes[result.first] += 1
        else:
            met[frozenset((result.first, result.second))] += 1
    return byes, met


def scores(results: Iterable[PairingResult]) -> Counter[PlayerId]:
    """Each player's score: a point per win and per bye."""
    total: Counter[PlayerId] = Counter()
    for result in results:
        total[result.first] += 0  # listed with 0 when they have not won yet
        if result.second is not None:
            total[result.second] += 0
        if result.winner is not None:
            total[result.winner] += 1
    return total


def swiss_round(
    entrants: Sequence[SeededPlayer], history: Sequence[PairingResult], number: int
) -> Round:
    """Round ``number`` of a Swiss tournament, from the results of the rounds before.

    ``entrants`` are the players still in (a withdrawn player is left out, their past games
    stay in ``history``); ``history`` is every result so far in the order played (colours
    read the last game). Players are ranked by score, then rating, then id, and paired from
    the top: the highest-ranked player left takes, in this order of preference, the bottom
    half of their score group (the group split in halves when its first player comes up, the
    upper half meeting the lower one board by board), then the rest of the upper half from
    its foot, then the players below in rank order, which is how the odd one floats down to
    the next group's top. A player alone in their score group is a floater.

    No pairing is repeated while a repeat-free pairing of the whole round exists: before a
    preferred partner is taken, a maximum matching of the repeat-free pairs (:class:`_Matcher`)
    says whether the players left can still be paired as well as before; if not, the next
    preference is tried. When no repeat-free pairing exists at all (a small tournament run
    for many rounds), the round has as few repeats as can be; a player who must repeat tries
    first whoever they have met the fewest times, in the same order of preference.

    With an odd number of players the bye goes first: to the lowest-ranked player who has
    not had one yet (the fewest byes, once everyone has had one) and whose bye leaves the
    rest pairable without repeats, if any does. Colours (:func:`_coloured`): a player leans to
    the side they have played less, or, when even, away from their last game's side; a board
    meets both leans when it can, else the stronger, else the higher-ranked player's. In
    round 1 the top board's higher-ranked player plays first and the boards alternate.
    """
    active = _check_unique(entrant.player for entrant in entrants)
    ratings = {entrant.player: entrant.rating for entrant in entrants}
    points = scores(history)
    byes, met = _history(history)
    ranked = sorted(active, key=lambda player: (-points[player], -ratings[player], player))
    count = len(ranked)
    score = [points[player] for player in ranked]
    phantom = count if count % 2 else -1
    vertices = count + (1 if phantom != -1 else 0)
    allowed: list[set[int]] = [set() for _ in range(vertices)]
    for one in range(count):
        for other in range(one + 1, count):
            if frozenset((ranked[one], ranked[other])) not in met:
                allowed[one].add(other)
                allowed[other].add(one)
    eligible: list[int] = []
    if phantom != -1:
        fewest = min(byes[player] for player in ranked)
        eligible = [index for index in reversed(range(count)) if byes[ranked[index]] == fewest]
        for index in eligible:
            allowed[phantom].add(index)
            allowed[index].add(phantom)
    matcher = _Matcher(allowed)

    def times_met(one: int, other: int) -> int:
        return met[frozenset((ranked[one], ranked[other]))]

    def take(player: int, candidates: Iterable[int]) -> int:
        """The first candidate that keeps the matching of the rest as large as it is, else
        the one that loses least."""
        best: tuple[int, int, int, list[int]] | None = None
        for candidate in candidates:
            size, match = matcher.without(player, candidate)
            value = size + (1 if candidate in allowed[player] else 0)
            if value == matcher.size:
                matcher.remove(player, candidate, size, match)
                return candidate
            if best is None or value > best[0]:
                best = (value, candidate, size, match)
        assert best is not None
        _, candidate, size, match = best
        matcher.remove(player, candidate, size, match)
        return candidate

    boards: list[tuple[int, int]] = []
    bye: int | None = None
    if phantom != -1:
        bye = take(phantom, eligible)
    unpaired = [index for index in range(count) if index != bye]
    upper: list[int] = []
    lower: list[int] = []
    while unpaired:
        player = unpaired[0]
        group = [index for index in unpaired if score[index] == score[player]]
        if player not in upper:
            upper, lower = group[: len(group) // 2], group[len(group) // 2 :]
        waiting = set(unpaired)
        if len(group) == 1:
            preferred = unpaired[1:]
        else:
            preferred = [index for index in lower if index in waiting]
            preferred += [index for index in reversed(upper) if index in waiting]
            preferred += [index for index in unpaired if score[index] != score[player]]
        preferred = [index for index in preferred if index != player]
        fresh = [index for index in preferred if index in allowed[player]]
        repeats = sorted(
            (index for index in preferred if index not in allowed[player]),
            key=lambda index: times_met(player, index),
        )
        partner = take(player, _chain(fresh, repeats))
        boards.append((player, partner))
        unpaired.remove(player)
        unpaired.remove(partner)
    leaning = _leanings(history)
    pairings = [
        _coloured(ranked[one], ranked[other], leaning, board)
        for board, (one, other) in enumerate(boards)
    ]
    if bye is not None:
        pairings.append(Pairing(ranked[bye]))
    return Round(number, tuple(pairings))


def _chain(*parts: Iterable[int]) -> Iterator[int]:
    for part in parts:
        yield from part


def _leanings(history: Iterable[PairingResult]) -> dict[PlayerId, tuple[bool, int]]:
    """Each player's colour lean from their games: whether they lean to playing first, and how
    strongly (twice the imbalance between firsts and seconds, plus one). Byes do not count;
    a player with no game has no lean."""
    balance: Counter[PlayerId] = Counter()
    last: dict[PlayerId, bool] = {}
    for result in history:
        if result.second is None:
            continue
        balance[result.first] += 1
        balance[result.second] -= 1
        last[result.first], last[result.second] = True, False
    return {
        player: (
            balance[player] < 0 or (balance[player] == 0 and not was_first),
            2 * abs(balance[player]) + 1,
        )
        for player, was_first in last.items()
    }


def _coloured(
    higher: PlayerId, lower: PlayerId, leaning: dict[PlayerId, tuple[bool, int]], board: int
) -> Pairing:
    """The board with its colours: both players' leans when they agree, else the stronger
    lean, else the higher-ranked player's; with no lean on either side the boards alternate,
    the top board's higher-ranked player first."""
    high, low = leaning.get(higher), leaning.get(lower)
    if high is None and low is None:
        first_is_higher = board % 2 == 0
    elif low is None or (high is not None and (high[0] != low[0] or high[1] >= low[1])):
        assert high is not None
        first_is_higher = high[0]
    else:
        first_is_higher = not low[0]
    return Pairing(higher, lower) if first_is_higher else Pairing(lower, higher)


# Standings


@dataclass(frozen=True, slots=True)
class Placing:
    """A player's line in the standings, with the figures that placed them."""

    place: int
    player: PlayerId
    score: int
    buchholz: int
    head_to_head: int
    rating: float


def standings(
    entrants: Iterable[SeededPlayer], results: Iterable[PairingResult]
) -> tuple[Placing, ...]:
    """The standings of a round robin or a Swiss, best first.

    Ties are broken by Buchholz (the sum of the opponents' scores), then head-to-head (the
    points each scored in the games among the players still tied, which between two is their
    own game), then rating, then player id so that no two lines share a place.

    A bye counts in Buchholz as an opponent with the player's own score: neither a gift nor a
    penalty for the bye, close to what FIDE's rules do for an unplayed round. A double forfeit
    counts as a game against that opponent.
    """
    listed = list(entrants)
    played = list(results)
    points = scores(played)
    buchholz: Counter[PlayerId] = Counter()
    for result in played:
        if result.second is None:
            buchholz[result.first] += points[result.first]
        else:
            buchholz[result.first] += points[result.second]
            buchholz[result.second] += points[result.first]
    tied: dict[tuple[int, int], set[PlayerId]] = {}
    for entrant in listed:
        key = (points[entrant.player], buchholz[entrant.player])
        tied.setdefault(key, set()).add(entrant.player)
    among: Counter[PlayerId] = Counter()
    for result in played:
        if result.second is None or result.winner is None:
            continue
        key = (points[result.first], buchholz[result.first])
        if result.second in tied.get(key, ()) and result.first in tied.get(key, ()):
            among[result.winner] += 1
    order = sorted(
        listed,
        key=lambda entrant: (
            -points[entrant.player],
            -buchholz[entrant.player],
            -among[entrant.player],
            -entrant.rating,
            entrant.player,
        ),
    )
    return tuple(
        Placing(
            place,
            entrant.player,
            points[entrant.player],
            buchholz[entrant.player],
            among[entrant.player],
            entrant.rating,
        )
        for place, entrant in enumerate(order, start=1)
    )
