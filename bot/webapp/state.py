"""A game as the board page reads it: one JSON object per state and reader, and the step tree.

Everything is seen from the reader's side (white's for a watcher): ``points[v]`` is the viewer's
point ``v`` (1..24, the same numbering as the pictures, :mod:`render.layout`), so the page draws
without knowing which way each variant goes. The player to move gets the turn's **step tree**:
every next step that leads on to a legal complete turn, from the turn's start, as the engine's
step-by-step input (:class:`~bot.engine.TurnInput`) offers them, each with the die it plays and
whether it hits, each leading to the node after it. A node is ``[complete, options]`` and an
option ``[src, dst, die, hit, node]``, points in the mover's own numbering (the viewer's, as the
mover is drawn at the bottom; 25 the bar, 0 off). The tree is cut after :data:`TREE_NODES`
nodes: a node whose options are ``null`` is asked for when the player reaches it (a crazy
gul-bara cascade can have tens of thousands). So the page holds no rules: it moves the checkers
the tree says, and Confirm sends the steps, which the server checks again.

``recent`` lists the turns played since the side to act last chose (the caption's "Last"
line: :func:`~bot.views.boards.unseen_turns`), each with its index in the history, so that a
page shows and slides those it has not shown yet, the computer's opening and the forced reply
played with it included; ``plies`` is the history's length.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from typing import Any, Final, TypeAlias

from bot.engine import Played, RecordError, Side, TurnInput, TurnRecord, opponent_point
from bot.services import GameSnapshot
from bot.services.actions import allowed, strikes
from bot.views.boards import (
    AUTOMATIC_NOTES,
    RECENT_TURNS,
    board_view,
    history_text,
    unseen_turns,
)
from bot.views.common import Translate, mention

from .protocol import action_words

TREE_NODES: Final = 1_500
"""Nodes of the step tree sent at once (about 20 bytes each): every turn of two dice, and the
first steps of a double's; the rest is sent when reached."""

Node: TypeAlias = list[Any]
"""``[complete (0/1), options or None]``, an option ``[src, dst, die, hit (0/1), node]``."""

SIDE: Final = {Side.WHITE: "w", Side.BLACK: "b"}


def step_tree(start: TurnInput, path: Sequence[Played] = (), *, budget: int = TREE_NODES) -> Node:
    """The step tree from ``path`` (steps from the turn's start, each offered in its turn),
    breadth first, at most ``budget`` nodes with their options listed (the others ``None``)."""
    plan = start.plan
    base = tuple(path)
    root: Node = [int(plan.is_complete(base)), None]
    queue: deque[tuple[Node, tuple[Played, ...]]] = deque([(root, base)])
    listed = 0
    while queue and listed < budget:
        node, steps = queue.popleft()
        listed += 1
        options = []
        for option in plan.options(steps):
            after = (*steps, option)
            child: Node = [int(plan.is_complete(after)), None]
            options.append([option.src, option.dst, option.die, int(option.hit), child])
            queue.append((child, after))
        node[1] = options
    return root


def find_path(start: TurnInput, steps: Sequence[Sequence[int]]) -> tuple[Played, ...] | None:
    """The offered steps ``steps`` name (``[src, dst, die]`` each, from the turn's start), or
    None when one of them is not offered in its turn."""
    plan = start.plan
    path: tuple[Played, ...] = ()
    for step in steps:
        if len(step) != 3 or not all(isinstance(v, int) for v in step):
            return None
        src, dst, die = step
        found = next(
            (o for o in plan.options(path) if (o.src, o.dst, o.die) == (src, dst, die)), None
        )
        if found is None:
            return None
        path = (*path, found)
    return path


def board_state(
    snapshot: GameSnapshot, you: Side | None, _: Translate, *, tree: Node | None = None
) -> dict[str, Any]:
    """The state ``snapshot`` as the reader playing ``you`` (None: a watcher) sees it; the
    player to move's with the step ``tree`` of the turn (:func:`step_tree`)."""
    stored, game = snapshot.stored, snapshot.game
    position = game.position
    variant = position.variant
    bottom = you or Side.WHITE
    view = board_view(snapshot, bottom, _)

    def seen(side: Side, point: int) -> int:
        return point if side is bottom else opponent_point(variant, point)

    points: list[list[Any]] = [[None, 0] for _ in range(25)]
    for side in (Side.WHITE, Side.BLACK):
        for point, count in enumerate(position.checkers(side)):
            if 1 <= point <= 24 and count:
                points[seen(side, point)] = [SIDE[side], count]
    current = snapshot.turn_input
    mover = game.turn
    last_side = mover.other
    last = [[seen(last_side, p.src), seen(last_side, p.dst), int(p.hit)] for p in stored.last_turn]
    recent = unseen_turns(stored)[-RECENT_TURNS:]
    cube = game.cube
    actions = action_words(allowed(snapshot, you), strikes(snapshot))
    state: dict[str, Any] = {
        "type": "state",
        "game": stored.id,
        "version": stored.version,
        "variant": variant,
        "you": SIDE[you] if you is not None else None,
        "bottom": SIDE[bottom],
        "turn": SIDE[mover],
        "to_act": SIDE[game.to_act],
        "over": game.is_over,
        "points": points,
        "bar": {SIDE[s]: position.checkers(s)[25] for s in Side},
        "off": {SIDE[s]: position.checkers(s)[0] for s in Side},
        # the opponent's number of each viewer point: the pips a hit adds
        "flip": [opponent_point(variant, v) if v else 0 for v in range(25)],
        "pips": {SIDE[s]: position.pip_count(s) for s in Side},
        "names": {SIDE[s]: _name(snapshot, s, _) for s in Side},
        "dice": list(view.dice.values) if view.dice is not None else [],
        "moves": list(view.moves),
        "struck": view.struck,
        "label": view.dice_label,
        "cube": None
        if cube is None
        else {
            "value": cube.value,
            "owner": SIDE[cube.owner] if cube.owner else None,
            "offered": view.cube_offered,
        },
        "match": view.match_label,
        "result": view.result,
        "deadline": None if game.is_over else stored.deadline,
        "last": {"side": SIDE[last_side], "steps": last},
        "plies": len(stored.history),
        "recent": [_turn(stored.history[index], index, seen, _) for index in recent],
        "actions": actions,
        "tree": None,
        "picked": [],
    }
    if tree is not None and current is not None:
        state["tree"] = tree
        state["picked"] = [[p.src, p.dst, p.die] for p in current.played]
    return state


def _turn(line: str, index: int, seen: Callable[[Side, int], int], _: Translate) -> dict[str, Any]:
    """A history line the reader is shown (see :func:`~bot.views.boards.unseen_turns`): its
    index, side, words, steps in viewer points (``[src, dst, hit]``; none for a cube action,
    a resignation) and whether the bot played it for its side (forced, a pass)."""
    side = Side(line.partition(" ")[0])
    try:
        steps = TurnRecord.from_text(line).steps
    except RecordError:
        steps = ()
    return {
        "n": index,
        "side": SIDE[side],
        "text": history_text(line, _),
        "steps": [[seen(side, s.src), seen(side, s.dst), int(s.hit)] for s in steps],
        "auto": int(line.rsplit(" ", 1)[-1] in AUTOMATIC_NOTES),
    }


def _name(snapshot: GameSnapshot, side: Side, _: Translate) -> str:
    user = snapshot.user(side)
    return f"🤖 {user.mention}" if user.computer_level is not None else mention(user, _)
