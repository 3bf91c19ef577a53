"""What a board message shows: caption, buttons and the picture's options, from a snapshot.

Pure functions of (snapshot, viewer, locale): the publisher calls them for every board of a game,
the handlers never build a caption themselves. Texts go through gettext with the reader's
locale (a group's board uses the locale of the challenge).
"""

from __future__ import annotations

from typing import Final

from aiogram import html
from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup, WebAppInfo

from bot.ai import Hint
from bot.callbacks import (
    Analyse,
    GameButton,
    NextGame,
    PlayAnyone,
    Rematch,
    Replay,
)
from bot.engine import (
    DiceMode,
    Game,
    Played,
    Position,
    RecordError,
    Side,
    Turn,
    TurnRecord,
    steps_text,
)
from bot.model import ChipsStatus, StoredGame
from bot.services import GameSnapshot
from bot.services.actions import GameAction, allowed, strikes
from bot.views.common import (
    DICE_MODE_NAMES,
    OUTCOME_NAMES,
    RULE_SET_NAMES,
    SIDE_MARKS,
    STAKE_MODE_NAMES,
    VARIANT_NAMES,
    Translate,
    duration,
    mention,
    moment,
    player_name,
)
from bot.views.luck import luck_line, match_luck_line
from render import BoardView

STEPS_PER_ROW: Final = 4
WATCH_PREFIX: Final = "w"
"""Deep-link payloads ``w<game id>`` make the one who opens them a watcher of the game."""


def caption(
    snapshot: GameSnapshot, _: Translate, *, watch_link: str | None = None, watcher: bool = False
) -> str:
    """The board's caption: players, rules, score, dice, whose turn and until when, or the
    result. A function of the snapshot alone: nothing in it counts down, so two drawings of one
    state are identical and a board that shows it is never edited again for it.

    While the game goes on, a players' board of a game open to watchers ends with its
    ``watch_link`` (to share), a ``watcher``'s board with how to stop watching."""
    stored, game = snapshot.stored, snapshot.game
    white, black = player_name(snapshot.white, _), player_name(snapshot.black, _)
    kind = f"{_(VARIANT_NAMES[game.variant])} · {_(RULE_SET_NAMES[game.rules.name])}"
    if game.dice_mode is not DiceMode.TWO:
        kind += f" · {_(DICE_MODE_NAMES[game.dice_mode])}"
    lines = [f"⚪ {white} — ⚫ {black}", f"{kind} · #{stored.id}"]
    if stored.start is not None:
        lines.append("▶ " + _("From a position, not rated"))
    if stored.training:
        lines.append("🎓 " + _("Training game: each of your turns is judged below"))
    if snapshot.match is not None:
        lines.append(_match_line(snapshot, _))
    elif snapshot.score.games:  # a single game has no score: their games before, named so
        lines.append(
            "🤝 "
            + _("Head to head, all their games: {white} {won}:{lost} {black}").format(
                white=white,
                black=black,
                won=snapshot.score.wins,
                lost=snapshot.score.games - snapshot.score.wins,
            )
        )
    if stored.stake:
        lines.append(
            "💰 "
            + _("Stake: {stake} chips, {mode}").format(
                stake=stored.stake, mode=_(STAKE_MODE_NAMES[stored.stake_mode])
            )
        )
    if game.cube is not None and game.cube.owner is not None:
        lines.append(
            _("Cube: {value}, {mark} {name}").format(
                value=game.cube.value,
                mark=SIDE_MARKS[game.cube.owner],
                name=player_name(snapshot.user(game.cube.owner), _),
            )
        )
    recent = unseen_turns(stored)
    if recent:
        shown = recent[-RECENT_TURNS:]
        moves = " → ".join(history_text(stored.history[index], _) for index in shown)
        if len(shown) < len(recent):
            moves = "… → " + moves
        label = _("Last: {moves}") if len(shown) == 1 else _("Last turns: {moves}")
        lines.append(label.format(moves=html.quote(moves)))
    if game.result is not None:
        winner = snapshot.user(game.result.winner)
        lines.append(
            "🏆 "
            + _("{winner} wins: {outcome}, {points} pt.").format(
                winner=player_name(winner, _),
                outcome=_(OUTCOME_NAMES[game.result.outcome]),
                points=game.result.points,
            )
        )
        if snapshot.luck:  # once the automatic analysis is done
            lines.append(luck_line(snapshot.luck, _))
        lines.extend(_settled_lines(snapshot, _))
        lines.extend(_fair_dice_lines(snapshot, _))
        return "\n".join(lines)
    mover = snapshot.user(game.turn)
    if game.cube is not None and game.cube.offered:
        lines.append(
            "⏫ "
            + _(
                "{mark} {name} offers to double to {value}: {other_mark} {other}, take or drop?"
            ).format(
                mark=SIDE_MARKS[game.turn],
                name=player_name(mover, _),
                value=game.cube.value * 2,
                other_mark=SIDE_MARKS[game.to_act],
                other=player_name(snapshot.user(game.to_act), _),
            )
        )
    elif game.strike_pending:
        striker = game.to_act
        lines.append(
            _(
                "🎲 {dice} — {mark} {name} strikes a die, {other_mark} {other} plays the two left"
            ).format(
                dice=game.dice,
                mark=SIDE_MARKS[striker],
                name=player_name(snapshot.user(striker), _),
                other_mark=SIDE_MARKS[game.turn],
                other=player_name(mover, _),
            )
        )
    elif game.remainder:
        lines.append(
            "↪ "
            + _("{other_mark} could not play {moves}: {mark} {name} plays them now").format(
                other_mark=SIDE_MARKS[game.turn.other],
                moves=" ".join(map(str, game.remainder)),
                mark=SIDE_MARKS[game.turn],
                name=player_name(mover, _),
            )
        )
    elif game.dice is None:
        lines.append(
            "🎲 "
            + _("{mark} {name}: roll or double").format(
                mark=SIDE_MARKS[game.turn], name=player_name(mover, _)
            )
        )
    else:
        lines.append(
            _("🎲 {dice} — {mark} {name} to move").format(
                dice=game.dice, mark=SIDE_MARKS[game.turn], name=player_name(mover, _)
            )
        )
        lines.extend(_roll_lines(game, _))
    if stored.deadline is not None:
        lines.append(
            _("⏳ {duration} a move, until {time} UTC").format(
                duration=duration(stored.move_seconds, _),
                time=moment(stored.deadline, stored.move_seconds),
            )
        )
    lines.extend(_fair_dice_lines(snapshot, _))
    if watcher:
        lines.append("👁 " + _("You are watching this game: /unwatch stops it."))
    elif watch_link is not None:
        lines.append("👁 " + _("Friends can watch: {link}").format(link=watch_link))
    return "\n".join(lines)


RECENT_TURNS: Final = 4
"""The most turns a caption lists as played since its player to act last chose (the newest)."""
AUTOMATIC_NOTES: Final = frozenset({"forced", "pass"})
"""The notes of the history lines the bot played for a player (a forced turn, a pass)."""


def unseen_turns(stored: StoredGame) -> range:
    """The history lines (indices) played since the side to act last chose something: the
    opponent's turns and the turns the bot played for that side meanwhile (forced ones,
    passes), none of which its player saw made. When the computer opens, its first turn and
    the forced reply played for the person come in one change, so a board lists both, not the
    last alone. After the game, the lines since the loser last chose. When the side's own
    choice is the latest line (it resigned, it ran out of time), that line."""
    game, history = stored.game, stored.history
    side = game.result.winner.other if game.result is not None else game.to_act
    prefix = side.value + " "
    first = 0
    for index in range(len(history) - 1, -1, -1):
        line = history[index]
        if line.startswith(prefix) and line.rsplit(" ", 1)[-1] not in AUTOMATIC_NOTES:
            first = index + 1
            break
    first = min(first, len(history) - 1)
    while 0 <= first < len(history) and not history[first]:
        first += 1
    return range(max(first, 0), len(history))


def watch_payload(game_id: int) -> str:
    """The deep-link payload that makes its opener a watcher of game ``game_id``."""
    return f"{WATCH_PREFIX}{game_id}"


def result_line(snapshot: GameSnapshot, _: Translate) -> str:
    """A finished game's result in one line: ``Game #12 is over: @anna wins: mars, 2 pt.``"""
    result = snapshot.game.result
    assert result is not None
    return _("Game #{game} is over: {winner} wins: {outcome}, {points} pt.").format(
        game=snapshot.stored.id,
        winner=player_name(snapshot.user(result.winner), _),
        outcome=_(OUTCOME_NAMES[result.outcome]),
        points=result.points,
    )


COMMITMENT_SHOWN: Final = 16
"""Hex digits of the dice's commitment on the board: 64 bits, too many for a seed to be
searched for that matches them; /verify shows all 64."""


def _fair_dice_lines(snapshot: GameSnapshot, _: Translate) -> list[str]:
    """The fair dice under the board: the commitment's beginning while the game is played
    (from the first caption on, so it is seen before any die), and where the seed is revealed
    once it is over. Never the seed itself."""
    stored = snapshot.stored
    proof = stored.dice_proof
    if proof is None:
        return []  # a game started before fair dice
    if stored.game.is_over:
        return ["🔓 " + _("Dice seed revealed: /verify {game}").format(game=stored.id)]
    return [
        "🔒 "
        + _("Fair dice {commitment}… · /verify {game}").format(
            commitment=proof.commitment[:COMMITMENT_SHOWN], game=stored.id
        )
    ]


def _roll_lines(game: Game, _: Translate) -> list[str]:
    """What is special about the roll being played: a gul-bara roll again, a die struck, a
    crazy gul-bara cascade's moves."""
    lines = []
    if game.chain:
        lines.append("🔁 " + _("A double played in full: rolls again"))
    if game.struck is not None:
        lines.append("✂ " + _("{value} was struck").format(value=game.struck))
    moves = game.moves
    if moves is not None and game.dice is not None and moves.values != game.dice.moves:
        lines.append(
            "⛓ "
            + _("Double {dice}: {moves}").format(
                dice=game.dice, moves=" ".join(map(str, moves.values))
            )
        )
    return lines


def _match_line(snapshot: GameSnapshot, _: Translate) -> str:
    """``Match to 7 · game 3 · 2:1``, with the Crawford game marked."""
    assert snapshot.match is not None
    match = snapshot.match.match
    line = _("Match to {length} · game {number} · {white}:{black}").format(
        length=match.length,
        number=snapshot.stored.game_no,
        white=match.white,
        black=match.black,
    )
    if match.crawford and not snapshot.game.is_over:
        line += " · " + _("Crawford game, no cube")
    return "🏁 " + line


def _settled_lines(snapshot: GameSnapshot, _: Translate) -> list[str]:
    """After a game: what the stake did, and where the match stands."""
    stored, result = snapshot.stored, snapshot.game.result
    assert result is not None
    lines = []
    winner, loser = snapshot.user(result.winner), snapshot.user(result.winner.other)
    if stored.chips_status is ChipsStatus.PAID:
        lines.append(
            "💰 "
            + _("{loser} pays {winner} {chips} chips.").format(
                loser=player_name(loser, _), winner=player_name(winner, _), chips=stored.chips
            )
        )
    elif stored.chips_status is ChipsStatus.HELD:
        lines.append(
            "💰 "
            + _("{chips} chips are held: the group's admins will look at this game.").format(
                chips=stored.chips
            )
        )
    elif stored.chips_status is ChipsStatus.VOID:
        lines.append("💰 " + _("No chips move: the game was given up too early."))
    if snapshot.match is not None:
        match = snapshot.match.match
        if match.winner is not None:
            lines.append(
                "🏁 "
                + _("{name} wins the match {white}:{black}!").format(
                    name=player_name(snapshot.user(match.winner), _),
                    white=match.white,
                    black=match.black,
                )
            )
            if snapshot.match_luck is not None:  # once one of its games is analysed
                lines.append(
                    match_luck_line(snapshot.match_luck, snapshot.white, snapshot.black, _)
                )
        elif not _next_game_started(snapshot):
            lines.append("🏁 " + _("Next game: either player taps the button."))
    return lines


def history_text(line: str, _: Translate) -> str:
    """A history line (``w 5-2 24/19 13/11``, ``b 6-6 pass``, ``b remainder 6,6 13/7(2)``,
    ``w 4-4 … left 6,6``, ``w resign``, ``w double 2``, ``b take``) for people."""
    side, _sep, text = line.partition(" ")
    actions = {
        "resign": _("resigned"),
        "timeout": _("time ran out"),
        "take": _("takes"),
        "drop": _("drops"),
    }
    if text in actions:
        return f"{SIDE_MARKS[Side(side)]} {actions[text]}"
    if text.startswith("double "):
        value = text.removeprefix("double ")
        return f"{SIDE_MARKS[Side(side)]} " + _("doubles to {value}").format(value=value)
    try:
        record = TurnRecord.from_text(line)
    except RecordError:
        return f"{SIDE_MARKS[Side(side)]} {text}"
    words = []
    if record.remainder and not record.steps:  # nothing of it could be played (rules.md)
        moves = " ".join(map(str, record.remainder))
        return f"{SIDE_MARKS[record.side]} " + _(
            "cannot play the remainder {moves}: it is lost"
        ).format(moves=moves)
    if record.remainder:
        words.append(
            _("plays the remainder {moves}:").format(moves=" ".join(map(str, record.remainder)))
        )
    else:
        words.append(("🔁 " if record.chain else "") + str(record.dice))
        if record.struck is not None:
            words.append("✂" + str(record.struck))
    if record.steps:
        words.append(steps_text(record.steps))
    if record.left:
        words.append(_("(hands over {moves})").format(moves=" ".join(map(str, record.left))))
    if record.note == "forced":
        words.append("(" + _("forced") + ")")
    elif record.note == "pass":
        words.append("— " + _("pass"))
    return f"{SIDE_MARKS[record.side]} " + " ".join(words)


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


HINT_LINES: Final = 3
"""Turns a hint lists: the best and the next ones, each with what it gives away."""


def hint_text(hint: Hint, tapped: Turn | None, _: Translate) -> str:
    """The 💡 answer (an alert, at most 200 characters): the best turns for the roll with their
    equity, and what the turn tapped so far gives away against the best."""
    ranked = hint.ranked
    if not ranked.turns:
        return _("💡 No move is possible: the turn passes.")
    best = ranked.equities[0]
    lines = [_("💡 Best: {turn} ({equity:+.2f})").format(turn=ranked.turns[0], equity=best)]
    for turn, value in list(zip(ranked.turns, ranked.equities, strict=True))[1:HINT_LINES]:
        lines.append(f"{turn} ({value - best:+.2f})")
    if tapped is not None:
        loss = hint.loss(tapped)
        if loss is not None and loss < 0.005:
            lines.append(_("Your {turn}: the best.").format(turn=tapped))
        elif loss is not None:
            lines.append(_("Your {turn}: −{loss:.2f}").format(turn=tapped, loss=loss))
    return "\n".join(lines)[:200]


def _next_game_started(snapshot: GameSnapshot) -> bool:
    """Whether the game is one of a match whose next game has started."""
    match = snapshot.match
    return match is not None and match.games > snapshot.stored.game_no


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


def board_view(snapshot: GameSnapshot, viewer: Side, _: Translate) -> BoardView:
    """The picture's options: the reader's side at the bottom, the dice with the used ones
    spent, the steps tapped this turn (or the last turn), names and the result."""
    stored, game = snapshot.stored, snapshot.game
    current = snapshot.turn_input
    if current is not None and current.played:
        marks, marks_side = tuple(p.step for p in current.played), game.turn
    else:
        marks, marks_side = tuple(p.step for p in stored.last_turn), game.turn.other
    result = None
    if game.result is not None:
        result = _("{winner} wins: {outcome} ×{points}").format(
            winner=mention(snapshot.user(game.result.winner), _),
            outcome=_(OUTCOME_NAMES[game.result.outcome]),
            points=game.result.points,
        )
    moves = game.moves
    label = None
    if game.remainder:
        label = _("Remainder from {name}").format(name=mention(snapshot.user(game.turn.other), _))
    elif game.chain:
        label = _("Rolls again")
    elif game.strike_pending:
        label = _("{name} strikes a die").format(name=mention(snapshot.user(game.to_act), _))
    cube = game.cube
    match_label = None
    if snapshot.match is not None:
        match = snapshot.match.match
        match_label = _("Match to {length} · {white}:{black}").format(
            length=match.length, white=match.white, black=match.black
        )
    return BoardView(
        cube=cube.value if cube is not None else None,
        cube_owner=cube.owner if cube is not None else None,
        cube_offered=bool(cube and cube.offered and not game.is_over),
        match_label=match_label,
        bottom=viewer,
        dice=None if game.is_over or game.remainder else game.dice,
        dice_used=tuple(p.die for p in current.played) if current else (),
        moves=moves.values if moves is not None else (),
        struck=game.struck if game.dice is not None and not game.is_over else None,
        dice_label=label,
        last_steps=marks,
        last_side=marks_side,
        white_name=mention(snapshot.white, _),
        black_name=mention(snapshot.black, _),
        result=result,
        pip_label=_("pips"),
    )


def board_position(snapshot: GameSnapshot) -> Position:
    """The position to draw: with the steps tapped so far this turn."""
    current = snapshot.turn_input
    return current.current if current is not None else snapshot.game.position
