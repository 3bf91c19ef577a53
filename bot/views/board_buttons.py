"""A game board's buttons and their labels, from a snapshot and the reader's side: the ways to
finish a turn or its steps (``13→7``, ``24→13 8→3(2)``), Undo and Confirm, the cube's, what
follows a finished game, and the button to the Mini App board. Pure functions: the publisher
and the inline boards draw them, the Mini App and the daily position speak their notation."""

from __future__ import annotations

from typing import Final

from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup, WebAppInfo

from bot.callbacks import Analyse, GameButton, NextGame, PlayAnyone, Rematch, Replay
from bot.engine import Played, Side
from bot.services import GameSnapshot
from bot.services.actions import GameAction, allowed, strikes
from bot.services.hints import Tap
from bot.views.common import Translate

STEPS_PER_ROW: Final = 4


def step_label(played: Played, ambiguous: bool) -> str:
    """A step button's text: ``13→7``, ``bar→20``, ``3→off``, ``13→7*`` for a hit; the die in
    brackets when two dice make the same step differently."""
    src = "bar" if played.src == 25 else str(played.src)
    dst = "off" if played.dst == 0 else str(played.dst)
    return f"{src}→{dst}{'*' if played.hit else ''}" + (f" ({played.die})" if ambiguous else "")


def finish_label(steps: tuple[Played, ...]) -> str:
    """A whole-turn button's text: each checker's path from where it starts to where it ends,
    ``24→13`` for one checker taking both dice, ``18→13*`` with its hits, ``8→3(2)`` for two
    checkers making the same move, paths from the highest point down."""
    paths: list[list[Played]] = []
    for step in steps:  # a step that goes on from where another ended continues its path
        path = next((p for p in paths if p[-1].dst == step.src and step.src not in (0, 25)), None)
        if path is None:
            paths.append([step])
        else:
            path.append(step)
    texts = []
    for path in paths:
        src = "bar" if path[0].src == 25 else str(path[0].src)
        stops = [str(p.dst) + "*" for p in path[:-1] if p.hit]
        end = "off" if path[-1].dst == 0 else str(path[-1].dst)
        texts.append("→".join([src, *stops, end + ("*" if path[-1].hit else "")]))
    counted = sorted(dict.fromkeys(texts), key=lambda t: -int(t.split("→")[0].replace("bar", "25")))
    return " ".join(t if texts.count(t) == 1 else f"{t}({texts.count(t)})" for t in counted)


def keyboard(
    snapshot: GameSnapshot,
    viewer: Side | None,
    _: Translate,
    *,
    board: InlineKeyboardButton | None = None,
) -> InlineKeyboardMarkup:
    """The board's buttons: the ways to finish the turn when they are few (one tap each), else
    the offered steps, with Undo and Confirm, for the player to move; Roll and
    Double before a roll when the cube may be turned; Take and Drop for the player a double is
    offered to; Next game after a game of a match, Rematch after anything else, each with 📊
    Analysis (and after the last, 🔎 Play anyone: ``/find``); once the match's next game has
    started, only 📊 and 🎞 (an edit after it, such as the luck line, keeps them). ``viewer`` is
    the reader's side on a private board (None in a group, where everyone sees the buttons and
    the service refuses onlookers). ``board``: the Mini App board's button
    (:func:`board_app_button`), last, while the game goes on.

    Rows are built directly: aiogram's ``InlineKeyboardBuilder`` deep-copies every button on
    export, which cost more than a millisecond a board."""
    markup = _game_keyboard(snapshot, viewer, _)
    if board is not None and not snapshot.game.is_over:
        markup.inline_keyboard.append([board])
    return markup


def _game_keyboard(
    snapshot: GameSnapshot, viewer: Side | None, _: Translate
) -> InlineKeyboardMarkup:
    stored, game = snapshot.stored, snapshot.game
    if viewer is None:  # a group's board: the buttons of whoever acts, the service checks who
        viewer = game.to_act
    can = allowed(snapshot, viewer)
    if game.is_over:
        analysis = _analysis_button(stored.id, _)
        replay = [_replay_button(stored.id, _)]
        if GameAction.NEXT_GAME in can:
            next_game = _button("▶ " + _("Next game"), NextGame(game=stored.id).pack())
            return _markup([[next_game, analysis], replay])
        if GameAction.REMATCH in can:
            rematch = _button("🔁 " + _("Rematch"), Rematch(game=stored.id).pack())
            anyone = _button("🔎 " + _("Play anyone"), PlayAnyone().pack())
            return _markup([[rematch, analysis], [*replay, anyone]])
        return analysis_keyboard(stored.id, _)

    def action(move: GameAction, arg: int = 0) -> str:
        return GameButton.data(stored.id, stored.version, move, arg)

    cube_value = game.cube.value * 2 if game.cube is not None else 2
    if GameAction.TAKE in can:
        take = _button("✅ " + _("Take ×{value}").format(value=cube_value), action(GameAction.TAKE))
        return _markup([[take, _button("🏳 " + _("Drop"), action(GameAction.DROP))]])
    if GameAction.STRIKE in can:
        return _markup(
            [
                [
                    _button(
                        "✂ " + _("Strike {value}").format(value=v), action(GameAction.STRIKE, v)
                    )
                    for v in strikes(snapshot)
                ]
            ]
        )
    if GameAction.ROLL in can:
        roll = _button("🎲 " + _("Roll"), action(GameAction.ROLL))
        double = _button(
            "⏫ " + _("Double ×{value}").format(value=cube_value), action(GameAction.DOUBLE)
        )
        return _markup([[roll, double]])
    current = snapshot.turn_input
    if current is None or GameAction.TURN not in can:
        return _markup([])  # nothing to tap for this reader, or the computer is thinking
    buttons: list[InlineKeyboardButton] = []
    per_row = STEPS_PER_ROW
    if GameAction.FINISH in can and snapshot.finishes:  # few ways to finish: one button each
        labels = [finish_label(steps) for steps in snapshot.finishes]
        per_row = 3 if max(map(len, labels)) <= 9 else 2
        buttons = [
            _button(label, action(GameAction.FINISH, index)) for index, label in enumerate(labels)
        ]
    elif GameAction.STEP in can:
        steps = [(o.src, o.dst) for o in current.options]
        buttons = [
            _button(
                step_label(option, steps.count((option.src, option.dst)) > 1),
                action(GameAction.STEP, index),
            )
            for index, option in enumerate(current.options)
        ]
    rows = [buttons[i : i + per_row] for i in range(0, len(buttons), per_row)]
    controls = [
        _button(label, action(move))
        for move, label in (
            (GameAction.HINT, "💡 " + _("Hint")),
            (GameAction.UNDO, "↩ " + _("Undo")),
            (GameAction.CONFIRM, "✅ " + _("Confirm")),
        )
        if move in can
    ]
    if controls:
        rows.append(controls)
    return _markup(rows)


def board_app_button(
    url: str, *, web_app: bool, _: Translate, watch: bool = False
) -> InlineKeyboardButton:
    """The "▶ Play on the board" button (a watcher's: "▶ Open the board"): a ``web_app``
    button in a private chat, where Telegram opens the Mini App with the reader's signed init
    data; elsewhere (a group, an inline message: no ``web_app`` buttons there) a link, the Mini
    App's Direct Link."""
    text = "▶ " + (_("Open the board") if watch else _("Play on the board"))
    if web_app:
        return InlineKeyboardButton(text=text, web_app=WebAppInfo(url=url))
    return InlineKeyboardButton(text=text, url=url)


def tap_label(tap: Tap) -> str:
    """The label of the button ``tap`` is: a whole-turn button's or a step button's."""
    if tap.whole:
        return finish_label(tap.steps)
    return step_label(tap.steps[0], tap.ambiguous)


def analysis_keyboard(game_id: int, _: Translate) -> InlineKeyboardMarkup:
    """What a finished game's board keeps once the match's next game has started."""
    return _markup([[_analysis_button(game_id, _), _replay_button(game_id, _)]])


def _analysis_button(game_id: int, _: Translate) -> InlineKeyboardButton:
    return _button("📊 " + _("Analysis"), Analyse(game=game_id).pack())


def _replay_button(game_id: int, _: Translate) -> InlineKeyboardButton:
    return _button("🎞 " + _("Replay"), Replay(game=game_id).pack())


def _button(text: str, data: str) -> InlineKeyboardButton:
    return InlineKeyboardButton(text=text, callback_data=data)


def _markup(rows: list[list[InlineKeyboardButton]]) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(inline_keyboard=rows)
