"""Swiss rounds: each round paired from the scores and the games so far (see
:func:`swiss_round`)."""

from __future__ import annotations

import math
from collections import Counter, deque
from collections.abc import Iterable, Iterator, Sequence

from .rounds import (
    Pairing,
    PairingResult,
    PlayerId,
    Round,
    SeededPlayer,
    check_unique,
    scores,
)


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
    active = check_unique(entrant.player for entrant in entrants)
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
