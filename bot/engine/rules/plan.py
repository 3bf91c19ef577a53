"""What a legal complete turn must reach, and which partial turns lead there, without listing
every turn.

:func:`.common.search_turns` lists every distinct legal turn; a crazy gul-bara cascade of twelve
or twenty-four moves can have thousands, and a player tapping a turn step by step needs much
less: whether a step leads on to *some* legal complete turn. A :class:`TurnPlan` answers that by
depth-first search with early exit, each node (the board's state and the moves left) searched
at most once and its answer kept, so the taps of one turn share their work.

The full-use rules (see :mod:`.common`) become a *rank* for the moves left: more moves played
is better; among as many, the larger played values (free order) are better; an ordered list is
played from its beginning, so only the count matters. A node's best rank is the best rank of
any sequence through it; a legal complete turn is a sequence whose rank is the best rank of the
root, and a step is offered exactly when its node's best rank is the root's. An order rule
(``higher_die_first``) forbids single steps outright: bearing off in a turn whose first die
was the lower one.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Hashable, Mapping
from itertools import combinations
from typing import Any, Concatenate, ParamSpec, TypeVar, cast

from ..dice import MoveList
from ..moves import Played
from ..position import Position
from .common import SearchBoard, played_rank
from .ruleset import RuleSet

Path = tuple[Played, ...]
_Asked = ParamSpec("_Asked")
_Answer = TypeVar("_Answer")


def _one_thread_at_a_time(
    question: Callable[Concatenate[TurnPlan, _Asked], _Answer],
) -> Callable[Concatenate[TurnPlan, _Asked], _Answer]:
    """Makes ``question`` hold the plan's lock while it searches: a plan is shared by every game
    in the same turn (openings are), and games are searched on threads; numbering completions
    (``_final_positions``) is not safe with two searches at once. A second thread waits for
    the first, then finds its answers kept."""

    @functools.wraps(question)
    def asked(plan: TurnPlan, /, *args: _Asked.args, **kwargs: _Asked.kwargs) -> _Answer:
        with plan._lock:
            return question(plan, *args, **kwargs)

    return asked


class TurnPlan:
    """The legal complete turns of one position and move list, searched on demand.

    ``new_board`` makes a fresh search board of the position (the variant's
    :meth:`~bot.engine.rules.Variant.board`). Answers are kept, so one plan may serve every tap
    of a turn; its questions are asked one thread at a time (a lock), and it is a cache, never
    part of a value's identity.
    """

    __slots__ = (
        "__weakref__",  # the plans alive are found by weak reference (bot.engine.stepwise)
        "_lock",
        "_new_board",
        "moves",
        "_lefts",
        "_rank",
        "_dice",
        "_top",
        "_full",
        "_memo",
        "_finals_memo",
        "_final_by_key",
        "_final_by_position",
        "_final_positions",
        "_best",
        "_answers",
    )

    def __init__(
        self, new_board: Callable[[], SearchBoard], moves: MoveList, rules: RuleSet
    ) -> None:
        self._new_board = new_board
        self._lock = threading.RLock()
        self.moves = moves
        values = moves.values
        ordered = moves.ordered or values.count(values[0]) == len(values)
        # A node's moves left are a number: an index into _lefts, which is sorted by rank, so
        # the index is the rank. Ordered lists: the moves left after k played are values[k:].
        lefts: list[tuple[int, ...]]
        if ordered:
            lefts = [values[k:] for k in range(len(values) + 1)]
        else:
            lefts = sorted(
                {c for n in range(len(values) + 1) for c in combinations(sorted(values), n)},
                key=lambda left: played_rank(values, left),
            )
        self._lefts = lefts
        index = {left: i for i, left in enumerate(lefts)}
        self._rank = tuple(range(len(lefts)))
        self._full = 0
        self._top = len(lefts) - 1
        no_off: set[tuple[tuple[int, ...], int]] = set()
        if rules.higher_die_first and not ordered and len(values) == 2:
            # bearing off in a turn whose first die is the lower one
            low, high = min(values), max(values)
            no_off = {((low, high), low), ((high,), high)}
        # _dice[left]: (die, moves left after it, bearing off forbidden) for each die that may be
        # played next, in the order of the list (options and finishes are listed in that order)
        dice: list[tuple[tuple[int, int, bool], ...]] = []
        for left in lefts:
            if ordered:
                dice.append(((left[0], index[left[1:]], False),) if left else ())
                continue
            pairs = []
            for die in dict.fromkeys(values):
                if die in left:
                    rest = list(left)
                    rest.remove(die)
                    pairs.append((die, index[tuple(rest)], (left, die) in no_off))
            dice.append(tuple(pairs))
        self._dice = tuple(dice)
        self._memo: dict[Hashable, tuple[int, bool]] = {}
        # _finals_memo[node]: (the limit it was searched with, its completions or None: more)
        self._finals_memo: dict[
            Hashable, tuple[int, dict[int, tuple[Played, Hashable] | None] | None]
        ] = {}
        # completions are numbered: by the board's state, by position, and back
        self._final_by_key: dict[Hashable, int] = {}
        self._final_by_position: dict[Position, int] = {}
        self._final_positions: list[Position] = []
        self._best: int | None = None
        # The answers to the questions below, by question and path: a bot asks them again for
        # every tap (its input is rebuilt from the stored taps) and for the board drawn after.
        self._answers: dict[tuple[str, Path, int], Any] = {}

    @property
    def nodes(self) -> int:
        """How many nodes the plan has kept answers for (what its memory grows with)."""
        return (
            len(self._memo) + len(self._finals_memo) + len(self._final_by_key) + len(self._answers)
        )

    # The search.
    def _steps(self, board: SearchBoard, left: int) -> list[tuple[int, int, int, int]]:
        """The legal next steps from a node: ``(die, moves left after it, src, dst)``."""
        found = []
        for die, rest, no_off in self._dice[left]:
            for src, dst in board.steps(die):
                if dst or not no_off:
                    found.append((die, rest, src, dst))
        return found

    def _best_from(
        self, board: SearchBoard, left: int, stop: int, key: Hashable | None = None
    ) -> int:
        """The best rank of a sequence through the node (the board as it is, ``left`` to
        play; ``key`` its node, if known): exact, or at least ``stop`` once one reaching
        ``stop`` is found."""
        if key is None:
            key = (board.key(), left)
        memo = self._memo
        known = memo.get(key)
        if known is not None and (known[1] or known[0] >= stop):
            return known[0]
        best = left  # the index of the moves left is the node's own rank
        if best < stop:
            make, unmake, best_from = board.make, board.unmake, self._best_from
            for die, rest, no_off in self._dice[left]:
                for src, dst in board.steps(die):
                    if not dst and no_off:
                        continue
                    hit = make(src, dst)
                    value = best_from(board, rest, stop)
                    unmake(src, dst, hit)
                    if value > best:
                        best = value
                        if best >= stop:
                            memo[key] = (best, best == self._top)
                            return best
            memo[key] = (best, True)
            return best
        memo[key] = (best, best == self._top)
        return best

    @property
    @_one_thread_at_a_time
    def best(self) -> int:
        """The rank of a legal complete turn; 0 means the side cannot move (a pass)."""
        if self._best is None:
            self._best = self._best_from(self._new_board(), self._full, self._top)
        return self._best

    def _walk(self, path: Path) -> tuple[SearchBoard, int] | None:
        """The board after ``path`` and the moves left, or None if ``path`` is not a legal
        beginning of a turn (a step not legal, a die not available)."""
        board = self._new_board()
        left = self._full
        for played in path:
            for die, rest, src, dst in self._steps(board, left):
                if die == played.die and src == played.src and dst == played.dst:
                    board.make(src, dst)
                    left = rest
                    break
            else:
                return None
        return board, left

    def _board(self, path: Path) -> tuple[SearchBoard, int]:
        walked = self._walk(path)
        if walked is None:
            raise ValueError(f"not a legal beginning of a turn: {path}")
        return walked

    # Questions about a partial turn (``path``: its steps so far, each legal); each answer is
    # kept (see _answers).
    @_one_thread_at_a_time
    def is_complete(self, path: Path) -> bool:
        """Whether ``path`` is a legal complete turn (the empty path when the side passes)."""
        key = ("complete", path, 0)
        known = self._answers.get(key)
        if known is None:
            known = self._answers[key] = self._is_complete(path)
        return bool(known)

    def _is_complete(self, path: Path) -> bool:
        best = self.best
        if not path:
            return best == 0
        _, left = self._board(path)
        return left == best

    @_one_thread_at_a_time
    def options(self, path: Path) -> tuple[Played, ...]:
        """The next steps after ``path`` that lead on to a legal complete turn, each with its
        die and whether it hits, in the order of the move list and the board's steps."""
        key = ("options", path, 0)
        known = self._answers.get(key)
        if known is None:
            known = self._answers[key] = self._options(path)
        return cast(tuple[Played, ...], known)

    def _options(self, path: Path) -> tuple[Played, ...]:
        best = self.best
        board, left = self._board(path)
        if left == best:
            return ()
        found: list[Played] = []
        for die, rest, src, dst in self._steps(board, left):
            hit = board.make(src, dst)
            if self._best_from(board, rest, best) >= best:
                found.append(Played(src, dst, die, hit))
            board.unmake(src, dst, hit)
        return tuple(found)

    @_one_thread_at_a_time
    def current(self, path: Path) -> Position:
        """The position after ``path``, the opponent to move (as a search board gives it)."""
        key = ("current", path, 0)
        known = self._answers.get(key)
        if known is None:
            board, _ = self._board(path)
            known = self._answers[key] = board.position()
        return cast(Position, known)

    @_one_thread_at_a_time
    def finishes(self, path: Path, limit: int) -> Mapping[Position, Path] | None:
        """The distinct ways to complete the turn after ``path``: the remaining steps by the
        position they reach; None when there are more than ``limit``.

        Only steps that lead on are followed, and each node's answer is kept: the completions
        it reaches, each as a number with the first step towards it (or that it has more than
        a number of them). So a node met again costs a look-up, the finishes of the nodes a
        player taps through next are known already, and a node with thousands of completions
        stops at the first ``limit + 1``. The answer is kept too (so it must not be changed).
        """
        key = ("finishes", path, limit)
        if key in self._answers:
            return cast(Mapping[Position, Path] | None, self._answers[key])
        found = self._answers[key] = self._finishes(path, limit)
        return found

    def _finishes(self, path: Path, limit: int) -> dict[Position, Path] | None:
        best = self.best
        if not path and best == 0:
            return {}
        board, left = self._board(path)
        if left == best:
            return {board.position(): ()}
        key = (board.key(), left)
        found = self._finals(board, left, limit, key)
        if found is None:
            return None
        return {self._final_positions[final]: self._steps_to(key, final) for final in found}

    def _steps_to(self, key: Hashable, final: int) -> Path:
        """The steps from the node ``key`` to the completion numbered ``final``, followed
        through the kept first steps."""
        steps: list[Played] = []
        node: Hashable | None = key
        while node is not None:
            kept = self._finals_memo[node][1]
            assert kept is not None  # a node on the way to a completion kept its answer
            link = kept[final]
            assert link is not None
            step, node = link
            steps.append(step)
        return tuple(steps)

    def _final(self, board: SearchBoard) -> int:
        """The number of the completion the board stands at (one per distinct position)."""
        state = board.key()
        number = self._final_by_key.get(state)
        if number is None:
            position = board.position()
            number = self._final_by_position.setdefault(position, len(self._final_positions))
            if number == len(self._final_positions):
                self._final_positions.append(position)
            self._final_by_key[state] = number
        return number

    def _finals(
        self, board: SearchBoard, left: int, limit: int, key: Hashable
    ) -> dict[int, tuple[Played, Hashable] | None] | None:
        """The completions (by number, each with its first step and the node it leads to)
        from a node that leads on and is not complete: the board as it is, ``left`` to play,
        ``key`` its node; None when there are more than ``limit``."""
        memo = self._finals_memo
        known = memo.get(key)
        if known is not None:
            cap, kept = known
            if kept is not None:
                return kept if len(kept) <= limit else None
            if limit <= cap:
                return None
        best = self.best
        found: dict[int, tuple[Played, Hashable] | None] = {}
        for die, rest, src, dst in self._steps(board, left):
            hit = board.make(src, dst)
            step = Played(src, dst, die, hit)
            if rest == best:
                final = self._final(board)
                if final not in found:
                    found[final] = (step, None)
                board.unmake(src, dst, hit)
            else:
                child = (board.key(), rest)
                after = None
                known_best = self._memo.get(child)  # _best_from's answer, looked up inline
                if known_best is not None and (known_best[1] or known_best[0] >= best):
                    leads = known_best[0] >= best
                else:
                    leads = self._best_from(board, rest, best, child) >= best
                if leads:
                    after = self._finals(board, rest, limit, child)
                    if after is None:
                        board.unmake(src, dst, hit)
                        memo[key] = (limit, None)
                        return None
                board.unmake(src, dst, hit)
                if after:
                    link = (step, child)
                    for final in after:
                        if final not in found:
                            found[final] = link
            if len(found) > limit:
                memo[key] = (limit, None)
                return None
        memo[key] = (limit, found)
        return found

    @_one_thread_at_a_time
    def check(self, path: Path) -> Position | None:
        """The position a legal complete turn ``path`` reaches (the opponent to move), or None
        if ``path`` is not one. The empty path is legal only when the side cannot move."""
        if not path:
            return None if self.best else self._new_board().position()
        walked = self._walk(path)
        if walked is None:
            return None
        board, left = walked
        return board.position() if left == self.best else None
