"""What a board message shows: its caption and the picture's options, from a snapshot (its
buttons are :mod:`.board_buttons`'), and the 💡 hint's answer.

Pure functions of (snapshot, viewer, locale): the publisher calls them for every board of a game,
the handlers never build a caption themselves. Texts go through gettext with the reader's
locale (a group's board uses the locale of the challenge).
"""

from __future__ import annotations

from typing import Final

from aiogram import html

from bot.engine import (
    DiceMode,
    Game,
    Position,
    RecordError,
    Side,
    TurnRecord,
    steps_text,
)
from bot.model import ChipsStatus, StoredGame
from bot.services import GameSnapshot
from bot.services.hints import Advice
from bot.views.board_buttons import finish_label, tap_label
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
from bot.views.numbers import chips_text, count, decimal
from render import BoardView

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
            + _("Stake: {stake}, {mode}").format(
                stake=chips_text(stored.stake, _), mode=_(STAKE_MODE_NAMES[stored.stake_mode])
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
            + _(
                "{winner} wins: {outcome}, {points} point",
                "{winner} wins: {outcome}, {points} points",
                game.result.points,
            ).format(
                winner=player_name(winner, _),
                outcome=_(OUTCOME_NAMES[game.result.outcome]),
                points=count(game.result.points, _),
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
            _("⏳ {duration} a move, until {time}").format(
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
    """A finished game's result in one line: ``Game #12 is over: @anna wins: mars, 2
    points``"""
    result = snapshot.game.result
    assert result is not None
    return _(
        "Game #{game} is over: {winner} wins: {outcome}, {points} point",
        "Game #{game} is over: {winner} wins: {outcome}, {points} points",
        result.points,
    ).format(
        game=snapshot.stored.id,
        winner=player_name(snapshot.user(result.winner), _),
        outcome=_(OUTCOME_NAMES[result.outcome]),
        points=count(result.points, _),
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
        unsealed = _("The dice are unsealed: check them with /verify {game}")
        return ["🔓 " + unsealed.format(game=stored.id)]
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
            + _(
                "{loser} pays {winner} {chips} chip.",
                "{loser} pays {winner} {chips} chips.",
                stored.chips or 0,
            ).format(
                loser=player_name(loser, _),
                winner=player_name(winner, _),
                chips=count(stored.chips or 0, _),
            )
        )
    elif stored.chips_status is ChipsStatus.HELD:
        lines.append(
            "💰 "
            + _(
                "{chips} chip is held: the group's admins will look at this game.",
                "{chips} chips are held: the group's admins will look at this game.",
                stored.chips or 0,
            ).format(chips=count(stored.chips or 0, _))
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


ALERT_LIMIT: Final = 200
"""Telegram shows at most this many characters of a button's alert."""


def hint_text(advice: Advice, _: Translate) -> str:
    """The 💡 answer (an alert, at most 200 characters; the Mini App's note): the best turn
    as the buttons that play it, ``[24→18 13→8]`` (or ``[13→7], then [8→3 6→1]`` when it is
    tapped step by step), the next best turns and the turn tapped so far, each with what it
    loses against the best. The next best go first when it does not all fit."""
    if advice.passes:
        return _("💡 No move is possible: the turn passes.")
    if not advice.best and advice.tapped is not None:  # tapped in full, and the best
        return _("💡 Your turn {turn} is the best.").format(turn=finish_label(advice.tapped[0]))
    buttons = f"[{tap_label(advice.best[0])}]"
    for tap in advice.best[1:]:
        buttons = _("{first}, then {next}").format(first=buttons, next=f"[{tap_label(tap)}]")
    if advice.undo_first:
        head = _("💡 Best turn, after ↩ Undo: {buttons}").format(buttons=buttons)
    else:
        head = _("💡 Best turn: {buttons}").format(buttons=buttons)
    tail = []
    if advice.tapped is not None:
        steps, loss = advice.tapped
        if round(loss, 2) == 0:
            tail.append(_("Your turn {turn} is the best.").format(turn=finish_label(steps)))
        else:
            tail.append(
                # TRANSLATORS: {loss} is a decimal number such as 0.12 (equity, in points)
                _("Your turn {turn} loses {loss} points").format(
                    turn=finish_label(steps), loss=decimal(loss, _)
                )
            )
    lines = [head]
    for steps, loss in advice.others:
        # TRANSLATORS: {loss} is a decimal number such as 0.03 (equity, in points)
        line = _("{turn} loses {loss} points").format(
            turn=finish_label(steps), loss=decimal(loss, _)
        )
        if len("\n".join([*lines, line, *tail])) > ALERT_LIMIT:
            break
        lines.append(line)
    text = "\n".join([*lines, *tail])
    return text if len(text) <= ALERT_LIMIT else text[: ALERT_LIMIT - 1] + "…"


def _next_game_started(snapshot: GameSnapshot) -> bool:
    """Whether the game is one of a match whose next game has started."""
    match = snapshot.match
    return match is not None and match.games > snapshot.stored.game_no


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
