"""Step-by-step input: only steps that lead on, undo, completion, higher-die choices."""

from __future__ import annotations

import gc
import weakref

import pytest

from bot.engine import Dice, IllegalTurnError, MoveList, Played, Position, TurnInput, stepwise


def _begin(text: str, dice: tuple[int, int], rules: str | None = None) -> TurnInput:
    return TurnInput.begin(Position.from_text(text), Dice(*dice), first_turn=False, rules=rules)


def test_head_rule_shapes_the_options() -> None:
    start = _begin("long w / 24:14 13:1 / 24:15", (6, 5))
    assert {str(o.step) for o in start.options} == {"24/18", "24/19", "13/7", "13/8"}
    after = start.play(Played(24, 18, 6))
    # the head was used: only the checkers off the head may take the 5
    assert {str(o.step) for o in after.options} == {"18/13", "13/8"}
    assert not after.is_complete
    done = after.play(Played(18, 13, 5))
    assert done.is_complete and done.options == ()
    assert str(done.turn()) == "24/18 18/13"


def test_a_step_that_leads_to_a_dead_end_is_not_offered() -> None:
    # Only the 6 can be played alone... and both dice together cannot: the larger die rule
    start = _begin("long w / 24:1 1:14 / 24:14 1:1", (6, 5))
    assert [str(o.step) for o in start.options] == ["24/18"]


def test_undo_and_refusals() -> None:
    start = _begin("long w / 24:14 13:1 / 24:15", (6, 5))
    assert start.undo() is start
    step = start.play(start.options[0])
    assert step.undo() == start
    with pytest.raises(IllegalTurnError, match="not offered"):
        start.play(Played(13, 2, 6))
    with pytest.raises(IllegalTurnError, match="not complete"):
        step.turn()


def test_bearing_off_with_either_die_is_offered_per_die() -> None:
    start = _begin("long w / 5:1 3:1 off:13 / 24:15", (6, 4))
    offered = {(o.src, o.dst, o.die) for o in start.options}
    assert (5, 0, 6) in offered and (5, 1, 4) in offered


def test_sheshbesh_order_is_enforced_step_by_step() -> None:
    start = _begin("long w / 8:1 5:1 off:13 / 24:15", (5, 2), rules="sheshbesh")
    low_first = start.play(Played(8, 6, 2))
    assert {str(o.step) for o in low_first.options} == {"6/1"}  # 5/off would bear off after the 2


def test_pass_is_complete_at_once() -> None:
    start = _begin("long w / 24:1 1:14 / 24:13 7:1 6:1", (6, 5))
    assert start.is_complete and start.options == ()
    assert start.turn().played == ()


def test_finishes_list_each_resulting_position_once_highest_point_first() -> None:
    start = _begin("long w / 24:14 13:1 / 24:15", (6, 5))
    labels = [" ".join(str(p.step) for p in steps) for steps in start.finishes(8) or ()]
    # 24/19 19/13 reaches the same position as 24/18 18/13: listed once
    assert labels == ["24/18 18/13", "24/18 13/8", "13/7 24/19", "13/7 7/2"]
    assert start.finishes(3) is None


def test_a_finish_is_one_tap_and_undo_takes_it_back_whole() -> None:
    start = _begin("long w / 24:14 13:1 / 24:15", (6, 5))
    finishes = start.finishes(8)
    assert finishes
    done = start.finish(finishes[0])
    assert done.is_complete and len(done.taps) == 1 and len(done.played) == 2
    assert done.undo() == start
    with pytest.raises(IllegalTurnError):
        start.finish(finishes[0][:1])  # one step does not complete the turn


def test_a_forced_remainder_joins_the_tap_before_it() -> None:
    start = _begin("long w / 24:14 13:1 / 24:15", (6, 5))
    after = start.play(Played(13, 7, 6))
    assert after.with_forced() == after  # 24/19 or 7/2: a choice, nothing is played for you
    last = _begin("long w / 10:1 off:14 / 24:15", (6, 5))
    step = last.play(Played(10, 4, 6))
    forced = step.with_forced()  # the 5 can only bear the last checker off
    assert forced.is_complete and forced.taps == ((Played(10, 4, 6), Played(4, 0, 5)),)
    assert forced.undo() == last
    assert last.with_forced() == last  # nothing tapped yet: nothing is played


def test_replay_keeps_the_taps_and_checks_every_step() -> None:
    start = _begin("long w / 24:14 13:1 / 24:15", (6, 5))
    finishes = start.finishes(8)
    assert finishes
    replayed = start.replay((finishes[1],))
    assert replayed == start.finish(finishes[1]) and replayed.undo() == start
    with pytest.raises(IllegalTurnError):
        start.replay(((Played(13, 2, 6),),))


# A crazy gul-bara 1-1 (1, 1, 2, 2, ..., 6, 6: twelve moves) with 10,819 distinct results.
CASCADE = "crazy_gulbara b / 24:7 15:1 11:1 5:3 1:3 / 24:6 18:1 16:1 14:2 8:1 5:3 1:1"


def test_a_cascade_is_tapped_without_listing_its_turns() -> None:
    stepwise._plans.clear()  # searched from scratch here
    start = TurnInput.begin(Position.from_text(CASCADE), Dice(1, 1), first_turn=False, rules=None)
    assert start.moves.values == (1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6)
    assert start.finishes(16) is None and start.options
    # each answer searched only the nodes it needed: a few hundred, not ten thousand turns
    assert len(start.plan._memo) < 500
    current = start
    while not current.is_complete:
        assert current.options
        current = current.play(current.options[0]).with_forced()
    assert len(current.played) == 12 and current.left == ()
    assert len(start.plan._memo) < 2_000
    assert "turns" not in vars(start)  # the legal turns were never listed


def test_plans_are_kept_for_many_games_within_their_node_budget(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A bot taps many games in turn: each game's next tap finds its turn's plan again...
    stepwise._plans.clear()
    games = [f"long w / 24:{15 - n} {23 - n}:{n} / 24:15" for n in range(1, 10)]
    plans = [_begin(game, (6, 5)).plan for game in games]
    assert all(_begin(game, (6, 5)).plan is plan for game, plan in zip(games, plans, strict=True))
    # ...while a cascade's search, hundreds of nodes here, pushes the others out of a budget
    # of a hundred once it is counted, at its next look-up (the latest plan is kept whatever
    # its size)
    monkeypatch.setattr(stepwise, "PLAN_NODES_KEPT", 100)
    cascade = TurnInput.begin(Position.from_text(CASCADE), Dice(1, 1), first_turn=False, rules=None)
    assert cascade.finishes(16) is None and cascade.plan.nodes > 100
    again = TurnInput.begin(Position.from_text(CASCADE), Dice(1, 1), first_turn=False, rules=None)
    assert stepwise._plans.values() == [again.plan] and again.plan is cascade.plan
    later = _begin("short w / 24:15 / 24:15", (3, 1))
    assert list(stepwise._plans.values()) == [later.plan]


def test_a_held_plan_pushed_out_of_the_budget_is_found_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # a bot holds the plan of each game whose turn is being tapped: taps in other games push
    # a cascade's plan out of the budget, but its next tap finds the same plan, searched already
    stepwise._plans.clear()
    monkeypatch.setattr(stepwise, "PLAN_NODES_KEPT", 100)

    def tap_cascade() -> TurnInput:
        return TurnInput.begin(
            Position.from_text(CASCADE), Dice(1, 1), first_turn=False, rules=None
        )

    held = tap_cascade()
    assert held.finishes(16) is None and held.plan.nodes > 100
    assert tap_cascade().plan is held.plan  # its nodes counted at this look-up
    others = [_begin(f"long w / 24:{15 - n} {23 - n}:{n} / 24:15", (6, 5)) for n in range(1, 4)]
    assert held.plan not in stepwise._plans.values()  # pushed out...
    assert tap_cascade().plan is held.plan  # ...and found again while held
    # a plan nobody holds goes with the budget: finding plans alive keeps none alive
    gone = weakref.ref(others[0].plan)
    del others
    _begin("short w / 24:15 / 24:15", (3, 1))
    gc.collect()
    assert gone() is None


def test_a_remainder_is_tapped_like_a_roll() -> None:
    position = Position.from_text("gulbara w / 24:15 / 24:15")
    start = TurnInput.begin(
        position, None, first_turn=False, rules=None, moves=MoveList.remainder((6, 5))
    )
    assert [str(o.step) for o in start.options] == ["24/18"]  # the 6 comes first
    done = start.play(start.options[0]).with_forced()
    assert done.is_complete and str(done.turn()) == "24/18 18/13"
    assert done.turn().remainder == ()  # what a remainder turn leaves is lost


def test_taps_tell_which_moves_are_left() -> None:
    start = _begin("long w / 24:14 13:1 / 24:15", (6, 5))
    assert start.left == (6, 5)
    assert start.play(start.options[0]).left == (5,)
