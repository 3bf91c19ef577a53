"""Open Sage as short nardy's valuer (:mod:`bot.ai.sage`): our boards are its boards, our turns
its moves, and what we ask of it is what it answers through its own interface."""

from __future__ import annotations

import random
from dataclasses import replace

import bgsage
import pytest
from hypothesis import given, settings

from bot.ai import computer
from bot.ai.computer import Computer
from bot.ai.evaluator import Evaluator
from bot.ai.sage import SageValuer, board, for_game, position, sage
from bot.ai.search import ply0, ply1
from bot.engine import Dice, DiceMode, Game, Position, Side, resolve_rules
from tests.ai.games import BOTH
from tests.engine.strategies import dice, positions

START = "short w / 24:2 13:5 8:3 6:5 / 24:2 13:5 8:3 6:5"


def rolled(text: str, values: tuple[int, int]) -> Game:
    """A short-nardy game at ``text`` with ``values`` rolled, both sides past their first turn."""
    return Game(
        "short", resolve_rules("short", None), Position.from_text(text), Dice(*values), moved=BOTH
    )


def midgame(seed: int, turns: int = 12) -> Game:
    """A short-nardy game after ``turns`` random turns, rolled."""
    from tests.ai.games import played

    game, rng = played("short", "two", "standard", seed, turns)
    return game.roll(rng) if game.needs_roll else game


def test_the_board_is_open_sages_starting_board() -> None:
    start = Position.from_text(START)
    assert board(start, Side.WHITE) == bgsage.STARTING_BOARD
    assert board(start, Side.BLACK) == bgsage.STARTING_BOARD


def finished(cells: tuple[int, ...]) -> bool:
    """Whether the side whose board it is has borne off every checker."""
    return cells[25] == 0 and all(c <= 0 for c in cells[1:25])


@settings(max_examples=300, deadline=None)
@given(positions("short"), dice)
def test_our_legal_turns_are_open_sages_moves(place: Position, roll: Dice) -> None:
    """Parity on random positions (the bar, bearing off, contact): the positions our turns
    reach are the boards Open Sage's move generator gives, but for two differences: where we
    pass it gives the board unchanged, and where the last checker can be borne off with one die
    it gives that too, where our full-use rule wants both dice played (rules.md; GNU
    Backgammon agrees with us): a win either way."""
    if 15 in (place.white[0], place.black[0]):
        return
    game = Game("short", resolve_rules("short", None), place, roll, moved=BOTH)
    mover = place.turn
    ours = {tuple(board(t.position, mover)) for t in game.legal_turns()}
    theirs = {tuple(b) for b in bgsage.possible_moves(board(place, mover), *roll.values)}
    if not ours:
        assert theirs == {tuple(board(place, mover))}
        return
    assert ours <= theirs
    assert all(finished(cells) for cells in theirs - ours)
    assert all(finished(cells) for cells in ours) or ours == theirs
    for turn in game.legal_turns():
        assert position(board(turn.position, mover), mover) == turn.position


def test_the_last_checker_off_with_one_die_is_open_sages_only_difference() -> None:
    # rules.md: last checker on 2, 3-1, a blot on 1: 2/1* 1/off, not 2/off
    game = rolled("short w / 2:1 off:14 / 24:1 13:5 8:3 6:6", (3, 1))
    ours = [tuple(board(t.position, Side.WHITE)) for t in game.legal_turns()]
    theirs = {tuple(b) for b in bgsage.possible_moves(board(game.position, Side.WHITE), 3, 1)}
    assert len(ours) == 1 and ours[0][0] == 1  # the blot hit: on the bar
    assert theirs - set(ours) == {(0, -1, *ours[0][2:])}  # 2/off, the blot left where it was


def test_which_games_open_sage_values_and_searches() -> None:
    assert isinstance(for_game(midgame(1)), SageValuer)
    assert for_game(midgame(1)).searches(midgame(1))
    anti = Game.start("short", random.Random(1), dice_mode=DiceMode.ANTI_THREE)
    assert isinstance(for_game(anti), SageValuer)
    abkhaz = Game.start("abkhaz", random.Random(1))
    assert isinstance(for_game(abkhaz), SageValuer)
    assert not for_game(abkhaz).searches(abkhaz)  # its rules are not backgammon's
    for other in ("long", "gulbara"):
        assert isinstance(for_game(Game.start(other, random.Random(1))), Evaluator)
    for variant in ("short", "abkhaz"):
        three = Game.start(variant, random.Random(1), dice_mode=DiceMode.THREE)
        assert isinstance(for_game(three), Evaluator)


@pytest.mark.parametrize("seed", [3, 4])
def test_turns_are_valued_as_open_sage_values_its_moves(seed: int) -> None:
    """0-ply of a roll's turns is Open Sage's 1-ply checker play (cubeless, knowing where the
    turn began), and 1-ply its 2-ply: the same equities, turn by turn."""
    game = midgame(seed)
    turns = game.legal_turns()
    mover = game.turn
    values = dict(
        zip(
            (tuple(board(t.position, mover)) for t in turns), ply0(sage(), game, turns), strict=True
        )
    )
    assert game.dice is not None
    cells = board(game.position, mover)
    one = bgsage.BgBotAnalyzer(eval_level="1ply", cubeful=False)
    for move in one.checker_play(cells, *game.dice.values).moves:
        assert values[tuple(move.board)] == pytest.approx(move.cubeless_equity, abs=1e-5)
    two = bgsage.BgBotAnalyzer(eval_level="2ply", cubeful=False, parallel_threads=1)
    deep = two.checker_play(cells, *game.dice.values).moves[:2]
    chosen = [next(t for t in turns if board(t.position, mover) == m.board) for m in deep]
    ours = ply1(sage(), game, chosen)
    assert ours == pytest.approx([m.cubeless_equity for m in deep], abs=1e-5)


def test_the_cube_is_open_sages_decision() -> None:
    import bgbot_cpp

    weights = bgsage.default_weights()
    for seed in (5, 6, 7):
        game = midgame(seed, 16)
        ours = sage().cube(game)
        cells = board(game.position, game.turn)
        theirs = bgbot_cpp.evaluate_cube_decision_unified(
            cells,
            1,
            bgbot_cpp.CubeOwner.CENTERED,
            weights.strategy_type,
            weights.weight_paths_list,
            weights.hidden_sizes_list,
            jacoby=False,
            beaver=False,
            bearoff_db=sage()._bearoff,
        )
        assert ours.no_double == pytest.approx(theirs["equity_nd"], abs=1e-5)
        assert ours.double_take == pytest.approx(theirs["equity_dt"], abs=1e-5)
        assert ours.should_double == theirs["should_double"]
        assert ours.should_take == theirs["should_take"]


def test_level_5_looks_two_rolls_ahead_and_falls_back_to_2_ply_past_its_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = midgame(8)
    turns = game.legal_turns()
    assert len(turns) > 2
    assert sage().deeper(game, turns, 3, budget=0.0) is None  # no time: nothing looked at
    ranked = Computer(5).rank(game)
    deeper = sage().deeper(game, ranked.turns[:1], 3)
    assert deeper is not None and ranked.equities[0] == pytest.approx(deeper[0])
    at_2_ply = Computer(5)
    at_2_ply.level = replace(at_2_ply.level, deeper=0)
    monkeypatch.setattr(computer, "DEEPEST_BUDGET", 0.0)
    assert Computer(5).rank(game) == at_2_ply.rank(game)


def test_the_computer_and_the_analysis_decide_the_cube_by_open_sage() -> None:
    from bot.ai.analysis import CubeDecision, judge_cube
    from bot.ai.cubeful import CubeAction

    game, rng = played_with_cube()
    offered = game.double()
    judged = sage().cube(game)
    assert Computer().wants_double(game) == judged.should_double
    assert Computer().takes(offered) == judged.should_take
    (doubled,) = judge_cube([CubeDecision(0, offered, CubeAction.TAKE)])
    assert doubled.equities == judged
    assert doubled.loss == judged.loss(CubeAction.TAKE)


def played_with_cube() -> tuple[Game, random.Random]:
    """A short-nardy game with a centred cube after some random turns, waiting for a roll."""
    from tests.engine.strategies import advance

    rng = random.Random(11)
    game = Game.start("short", rng, cube=True)
    for _ in range(14):
        game = advance(game, rng)
    assert game.needs_roll and game.can_double
    return game, rng
