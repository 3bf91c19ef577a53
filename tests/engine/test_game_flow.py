"""The game flow of the new variants: gul-bara remainders and chains, crazy gul-bara's cascade,
Abkhaz nardy with the cube, results, and the history lines that record it all."""

from __future__ import annotations

import random

import pytest

from bot.engine import (
    CubeError,
    Dice,
    Game,
    IllegalTurnError,
    Outcome,
    Position,
    RecordError,
    Side,
    Step,
    Turn,
    TurnRecord,
    resolve_rules,
)

from .test_game import FixedDice

W, B = Side.WHITE, Side.BLACK


def _game(variant: str, text: str, dice: Dice | None = None, **kwargs: object) -> Game:
    position = Position.from_text(text)
    return Game(
        variant,
        resolve_rules(variant, None),
        position,
        dice,
        moved=frozenset(Side),
        **kwargs,  # type: ignore[arg-type]
    )


def test_a_remainder_passes_to_the_opponent_who_plays_it_before_rolling() -> None:
    # white's head checker plays the 6; the 5 (24/19 ... 18/13) cannot follow: 5 passes over
    game = _game("gulbara", "gulbara w / 24:1 1:14 / 24:14 1:1", Dice(6, 5))
    (turn,) = game.legal_turns()
    assert str(turn) == "24/18" and turn.remainder == (5,)
    after = game.play(turn)
    assert after.turn is B and after.remainder == (5,) and after.dice is None
    assert not after.needs_roll and after.to_act is B
    assert after.moves is not None and after.moves.values == (5,) and after.moves.ordered
    with pytest.raises(IllegalTurnError, match="remainder"):
        after.roll(random.Random(1))
    remainder_turns = after.legal_turns()
    assert remainder_turns and all(t.remainder == () for t in remainder_turns)
    played = after.play(remainder_turns[0])
    # the remainder played, the same side now rolls its own dice
    assert played.turn is B and played.remainder == () and played.needs_roll
    assert played.ply == after.ply + 1
    rolled = played.roll(FixedDice([3, 1]))
    assert rolled.dice == Dice(3, 1) and rolled.moves is not None
    assert rolled.moves.values == (3, 1) and rolled.moves.hands_on


def test_a_remainder_does_not_pass_back_and_what_cannot_be_played_is_lost() -> None:
    # black must play white's 6, 6 but its 6s are closed: the remainder is lost, black rolls
    game = _game("gulbara", "gulbara b / 24:14 18:1 / 24:1 5:14", remainder=(6, 6))
    blocked = _game("gulbara", "gulbara b / 24:13 6:2 / 24:1 5:14", remainder=(6, 6))
    assert game.legal_turns()  # 24/18 (one from the head)
    assert blocked.legal_turns() == ()
    lost = blocked.pass_turn()
    assert lost.turn is B and lost.remainder == () and lost.needs_roll


def test_a_pass_hands_the_whole_roll_over() -> None:
    game = _game("gulbara", "gulbara w / 24:1 1:14 / 24:13 7:1 6:1", Dice(6, 5))
    assert game.legal_turns() == ()
    with pytest.raises(IllegalTurnError):  # a pass must hand the roll over
        game.play(Turn((), game.position.with_turn(B)))
    after = game.pass_turn()
    assert after.turn is B and after.remainder == (6, 5)
    assert game.record(Turn((), after.position, (6, 5)), "pass").to_text() == "w 6-5 left 6,5 pass"


def test_a_chain_of_doubles_in_gulbara() -> None:
    # opening: white 4, black 1; white rolls 2-2, plays it in full, rolls again 3-3, in full
    # again, then 5-1; then black rolls
    game = Game.start("gulbara", FixedDice([4, 1, 2, 2]))
    assert game.turn is W and game.first_turn and game.chain == 0
    history = []
    for dice in (None, Dice(3, 3), Dice(5, 1)):
        if dice is not None:
            assert game.turn is W and game.needs_roll and game.chain > 0
            game = game.roll(FixedDice(list(dice.values)))
        turn = next(t for t in game.legal_turns() if not t.remainder)
        history.append(game.record(turn).to_text())
        game = game.play(turn)
    assert game.turn is B and game.chain == 0 and game.needs_roll
    assert history[1].startswith("w chain 3-3 ") and history[2].startswith("w chain 5-1 ")
    assert not history[0].startswith("w chain")
    # the head rule counts per roll: each roll took one checker from the head
    assert game.position.white[24] == 12


def test_a_double_with_a_remainder_ends_the_chain() -> None:
    game = _game("gulbara", "gulbara w / 24:15 / 24:15", Dice(6, 6))
    (turn,) = game.legal_turns()
    after = game.play(turn)
    assert after.turn is B and after.remainder == (6, 6, 6) and after.chain == 0


def test_crazy_gulbara_cascade_and_its_remainder() -> None:
    game = _game("crazy_gulbara", "crazy_gulbara w / 21:1 2:14 / 24:13 3:2", Dice(3, 3))
    assert game.moves is not None
    assert game.moves.values == (3, 3, 4, 4, 5, 5, 6, 6) and game.moves.ordered
    (turn,) = game.legal_turns()
    after = game.play(turn)
    assert after.remainder == (3, 4, 4, 5, 5, 6, 6) and after.turn is B
    assert after.chain == 0  # no chain in crazy gul-bara
    assert game.only_turn() == turn


def test_bearing_off_the_last_checker_in_a_remainder_turn_wins() -> None:
    game = _game("gulbara", "gulbara w / 2:1 off:14 / 24:15", remainder=(6, 6))
    (turn,) = game.legal_turns()
    assert str(turn) == "2/off"
    over = game.play(turn)
    assert over.result is not None
    assert (over.result.winner, over.result.outcome, over.result.points) == (W, Outcome.MARS, 2)


def test_the_game_refuses_a_turn_with_another_remainder() -> None:
    game = _game("gulbara", "gulbara w / 24:1 1:14 / 24:14 1:1", Dice(6, 5))
    (turn,) = game.legal_turns()
    with pytest.raises(IllegalTurnError, match="illegal turn '24/18' for dice 6-5"):
        game.play(Turn(turn.played, turn.position, ()))
    with pytest.raises(IllegalTurnError, match="leaving 6"):
        game.play(Turn(turn.played, turn.position, (6,)))


@pytest.mark.parametrize(
    ("variant", "loser", "outcome", "points"),
    [
        ("gulbara", "3:10 off:5", Outcome.OIN, 1),
        ("crazy_gulbara", "24:1 3:14", Outcome.MARS, 2),  # classic: no koks
        ("abkhaz", "bar:1 6:14", Outcome.KOKS, 3),
        ("abkhaz", "6:15", Outcome.MARS, 2),
    ],
)
def test_results_score_as_the_family_does(
    variant: str, loser: str, outcome: Outcome, points: int
) -> None:
    game = _game(variant, f"{variant} w / 1:1 off:14 / {loser}", Dice(6, 5))
    over = game.play(game.legal_turns()[0])
    assert over.result is not None
    assert (over.result.outcome, over.result.points) == (outcome, points)
    assert game.resign(W).result is not None
    assert game.resign(W).result.points == 2  # type: ignore[union-attr]


def test_the_cube_where_the_variant_has_one() -> None:
    abkhaz = Game.start("abkhaz", random.Random(2), cube=True)
    assert abkhaz.cube is not None
    for variant in ("gulbara", "crazy_gulbara"):
        with pytest.raises(CubeError, match="without the doubling cube"):
            Game.start(variant, random.Random(2), cube=True)


def test_the_opening_of_each_variant() -> None:
    assert Game.start("abkhaz", FixedDice([2, 5])).dice == Dice(5, 2)  # both opening values
    gul = Game.start("crazy_gulbara", FixedDice([2, 5, 4, 4]))
    assert gul.turn is B and gul.dice == Dice(4, 4) and gul.first_turn
    assert gul.moves is not None and gul.moves.values == (4, 4, 5, 5, 6, 6)


@pytest.mark.parametrize(
    "line",
    [
        "w 5-2 13/8 6/4",
        "b 6-5-1 13/7 7/2 6/5",
        "w 6-3 x5 13/7 8/5",
        "w 4-4 24/20(2) 20/15 15/10 left 5,6,6",
        "b remainder 5,6,6 13/8 8/2",
        "w chain 3-1 18/15 15/14",
        "w 6-5 left 6,5 pass",
        "b 6-6 24/18 forced",
        "w 1-1 3/off(12)",
    ],
)
def test_history_lines_round_trip(line: str) -> None:
    assert TurnRecord.from_text(line).to_text() == line


def test_a_history_line_reads_its_parts() -> None:
    record = TurnRecord.from_text("w chain 4-4 24/20(2) 20/15 left 5,6,6 forced")
    assert record.side is W and record.chain and record.dice == Dice(4, 4)
    assert record.steps == (Step(24, 20), Step(24, 20), Step(20, 15))
    assert record.left == (5, 6, 6) and record.note == "forced"
    struck = TurnRecord.from_text("b 6-3 x5 13/7")
    assert struck.struck == 5 and struck.dice == Dice(6, 3)
    assert TurnRecord.from_text("b remainder 5,6,6").remainder == (5, 6, 6)


@pytest.mark.parametrize(
    "line",
    ["", "x 5-2", "w", "w 7-2 13/6", "w 5-2 13/8 what now", "w remainder", "w 5-2 left 7"],
)
def test_bad_history_lines_are_refused(line: str) -> None:
    with pytest.raises(RecordError):
        TurnRecord.from_text(line)
