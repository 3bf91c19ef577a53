"""Invariants of legal turns, notation, step-by-step input and whole games (hypothesis)."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engine import (
    Dice,
    Game,
    Outcome,
    Position,
    RuleSet,
    Side,
    Turn,
    TurnInput,
    legal_turns,
    parse_steps,
    steps_text,
)
from bot.engine.rules import find_variant

from .strategies import dice, played_positions, positions

SLOW = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _replay(position: Position, turn: Turn, first: bool, rules: RuleSet) -> Position:
    """Applies the turn's steps one by one on a fresh board, checking each is a legal step."""
    assert turn.played
    board = find_variant(position.variant).board(
        position, Dice(turn.played[0].die, turn.played[-1].die), first_turn=first, rules=rules
    )
    for played in turn.played:
        assert (played.src, played.dst) in board.steps(played.die), f"{turn} in {position}"
        assert board.make(played.src, played.dst) == played.hit
    return board.position()


@SLOW
@given(positions(), dice)
def test_turns_conserve_checkers_replay_and_are_distinct(position: Position, roll: Dice) -> None:
    rules = RuleSet("classic")
    turns = legal_turns(position, roll)
    assert len({t.position for t in turns}) == len(turns)
    for turn in turns:
        after = turn.position
        assert sum(after.white) == sum(after.black) == 15
        assert after.turn is position.turn.other
        assert _replay(position, turn, False, rules) == after
        assert parse_steps(steps_text(turn.steps)) == turn.steps


@SLOW
@given(positions(), dice)
def test_every_turn_plays_the_most_dice(position: Position, roll: Dice) -> None:
    turns = legal_turns(position, roll)
    lengths = {len(t.played) for t in turns if t.position.borne_off(position.turn) < 15}
    assert len(lengths) <= 1
    if turns and roll.is_double is False and lengths == {1}:
        # only one die: the larger whenever some turn plays it
        dice_played = {t.played[0].die for t in turns}
        assert len(dice_played) == 1


@SLOW
@given(positions(), dice)
def test_empty_only_when_no_single_step_exists(position: Position, roll: Dice) -> None:
    board = find_variant(position.variant).board(
        position, roll, first_turn=False, rules=RuleSet("classic")
    )
    any_step = any(board.steps(d) for d in set(roll.moves))
    assert bool(legal_turns(position, roll)) == any_step


@SLOW
@given(positions())
def test_notation_round_trips(position: Position) -> None:
    assert Position.from_text(position.to_text()) == position
    assert eval(repr(position)) == position  # noqa: S307 - repr is code by design


def _mirror(position: Position) -> Position:
    return Position("long", position.turn.other, position.black, position.white)


@SLOW
@given(positions("long"), dice, st.booleans())
def test_long_colours_exchanged_give_the_mirrored_turns(
    position: Position, roll: Dice, first: bool
) -> None:
    turns = {t.position for t in legal_turns(position, roll, first_turn=first)}
    mirrored = {t.position for t in legal_turns(_mirror(position), roll, first_turn=first)}
    assert {_mirror(p) for p in turns} == mirrored


def _all_inputs(start: TurnInput) -> set[Position]:
    """Every complete turn reachable by tapping options, depth first."""
    reached: set[Position] = set()
    stack = [start]
    while stack:
        current = stack.pop()
        if current.is_complete:
            reached.add(current.turn().position)
            assert not current.options
            continue
        assert current.options, "dead end: incomplete input with nothing to tap"
        stack.extend(current.play(option) for option in current.options)
    return reached


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(played_positions())
def test_step_by_step_reaches_exactly_the_legal_turns(played: tuple[Game, RuleSet]) -> None:
    game, _ = played
    start = game.turn_input()
    expected = {t.position for t in game.legal_turns()}
    if not expected:
        assert start.is_complete and start.turn().played == ()
        return
    assert _all_inputs(start) == expected
    assert start.play(start.options[0]).undo() == start


def _finished_positions(current: TurnInput) -> set[Position]:
    finishes = current.finishes(10_000)
    assert finishes is not None
    return {current.finish(steps).turn().position for steps in finishes}


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(played_positions(), st.integers(1, 12))
def test_finishes_are_the_legal_completions_and_one_tap_each(
    played: tuple[Game, RuleSet], limit: int
) -> None:
    game, _ = played
    start = game.turn_input()
    expected = {t.position for t in game.legal_turns()}
    if not expected:
        assert start.finishes(limit) == ()
        return
    # from the start: exactly the legal turns, each distinct, or None past the limit
    assert _finished_positions(start) == expected
    capped = start.finishes(limit)
    assert (capped is None) == (len(expected) > limit)
    # after any first step: exactly what tapping on from there reaches
    for option in start.options:
        after = start.play(option)
        if after.is_complete:
            assert after.finishes(limit) == () and after.with_forced() == after
            continue
        assert _finished_positions(after) == _all_inputs(after)
        forced = after.with_forced()
        if len(_all_inputs(after)) == 1:
            assert forced.is_complete and forced.undo() == start
        else:
            assert forced == after
    finish = start.finishes(10_000)
    assert finish is not None
    assert start.finish(finish[0]).undo() == start


@settings(max_examples=25, deadline=None)
@given(
    st.integers(0, 2**32), st.sampled_from(["long", "short"]), st.sampled_from([None, "sheshbesh"])
)
def test_random_self_play_always_ends_with_a_valid_result(
    seed: int, variant: str, rules: str | None
) -> None:
    rng = random.Random(seed)
    game = Game.start(variant, rng, rules=rules if variant == "long" else None)
    for _ in range(2000):
        if game.is_over:
            break
        if game.dice is None:
            game = game.roll(rng)
        turns = game.legal_turns()
        game = game.play(rng.choice(turns)) if turns else game.pass_turn()
    assert game.result is not None, "a game did not end in 2000 turns"
    winner = game.result.winner
    assert game.position.borne_off(winner) == 15
    assert game.result.outcome in (Outcome.OIN, Outcome.MARS, Outcome.KOKS, Outcome.HOME_MARS)
    assert game.result.points == game.rules.points(game.result.outcome)
    loser_off = game.position.borne_off(winner.other)
    assert (game.result.outcome is Outcome.OIN) == (loser_off > 0)
    assert winner in (Side.WHITE, Side.BLACK)
