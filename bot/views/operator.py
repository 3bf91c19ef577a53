"""What the operators read: the figures of ``/ops``, a broadcast's confirmation and progress,
the held chip transfers with their decisions, and the answers to ``/ban`` and ``/unban``. Pure
functions of domain values and ``_`` (the reader's gettext)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from aiogram import html
from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot.callbacks import BroadcastStep, FlagDecision
from bot.model import Broadcast, BroadcastState, Figures, Seeker
from bot.services.leagues import HeldTransfer
from bot.services.tournaments import Progress

from .common import player_name

Translate = Callable[[str], str]


@dataclass(frozen=True, slots=True)
class ProcessFigures:
    """This worker's own figures, beside the database's: updates that failed unexpectedly
    since it started, and its worker pools' restarts by pool name."""

    errors: int
    restarts: tuple[tuple[str, int], ...]


def figures_text(figures: Figures, process: ProcessFigures, _: Translate) -> str:
    """``/ops``: users, today's games, errors and queues at a glance."""
    restarts = ", ".join(f"{name} {count}" for name, count in process.restarts) or "0"
    return "\n".join(
        [
            html.bold(_("🛠 The bot at a glance")),
            _("Users: {users} ({reachable} reachable in private, {banned} banned)").format(
                users=figures.users, reachable=figures.reachable, banned=figures.banned
            ),
            _(
                "Games today (UTC): {started} started, {finished} finished; {running} in "
                "progress now"
            ).format(
                started=figures.games_today,
                finished=figures.finished_today,
                running=figures.in_progress,
            ),
            _("Failed updates since this worker started: {errors}").format(errors=process.errors),
            _("Worker restarts: {restarts}").format(restarts=restarts),
            _(
                "Waiting: {analyses} games for their analysis, {seekers} players in /find, "
                "{left} recipients of broadcasts"
            ).format(
                analyses=figures.analysis_backlog,
                seekers=figures.seekers,
                left=figures.broadcast_left,
            ),
        ]
    )


def draft_text(text: str, recipients: int, _: Translate) -> str:
    """A broadcast written, to be confirmed: what it says, to how many."""
    return (
        _("📣 Recipients (everyone with a private chat with the bot): {count}. It says:").format(
            count=recipients
        )
        + "\n\n"
        + text
    )


def draft_keyboard(broadcast: Broadcast, recipients: int, _: Translate) -> InlineKeyboardMarkup:
    """Send it, or not."""
    send = InlineKeyboardButton(
        text=_("📣 Send ({count})").format(count=recipients),
        callback_data=BroadcastStep(broadcast=broadcast.id, send=True).pack(),
    )
    cancel = InlineKeyboardButton(
        text="✖ " + _("Cancel"),
        callback_data=BroadcastStep(broadcast=broadcast.id, send=False).pack(),
    )
    return InlineKeyboardMarkup(inline_keyboard=[[send, cancel]])


def progress_text(broadcast: Broadcast, _: Translate) -> str:
    """A broadcast's state: how far it has gone."""
    counts = {"sent": broadcast.sent, "failed": broadcast.failed, "total": broadcast.total}
    if broadcast.state is BroadcastState.SENDING:
        head = _("📣 Broadcast #{id}: sending… {sent} of {total} sent, {failed} not reached")
    elif broadcast.state is BroadcastState.DONE:
        head = _("📣 Broadcast #{id} is done: {sent} of {total} sent, {failed} not reached")
    elif broadcast.state is BroadcastState.STOPPED and broadcast.total:
        head = _("📣 Broadcast #{id} stopped: {sent} of {total} sent, {failed} not reached")
    else:
        head = _("📣 Broadcast #{id} cancelled: nothing was sent")
    return head.format(id=broadcast.id, **counts) + "\n\n" + broadcast.text


def progress_keyboard(broadcast: Broadcast, _: Translate) -> InlineKeyboardMarkup | None:
    """⏹ Stop while it is being sent; nothing once it is over."""
    if broadcast.state is not BroadcastState.SENDING:
        return None
    stop = InlineKeyboardButton(
        text="⏹ " + _("Stop"),
        callback_data=BroadcastStep(broadcast=broadcast.id, send=False).pack(),
    )
    return InlineKeyboardMarkup(inline_keyboard=[[stop]])


def held_text(held: Sequence[HeldTransfer], _: Translate) -> str:
    """Every chat's held transfers, for an operator to decide."""
    if not held:
        return _("No chip transfers are held.")
    lines = [
        html.bold(_("Held chip transfers")),
        _("✅ releases one (the winner is paid), ↩ refunds it (the chips stay with the loser)."),
        "",
    ]
    for transfer in held:
        flag = transfer.flag
        lines.append(
            _(
                "Game #{game} in chat {chat}: {loser} → {winner}, {amount} chips "
                "({payments} payments, {paid} chips one way in 24 h)"
            ).format(
                game=flag.game_id,
                chat=flag.chat_id,
                loser=player_name(transfer.loser, _),
                winner=player_name(transfer.winner, _),
                amount=flag.amount,
                payments=flag.payments,
                paid=flag.paid,
            )
        )
    return "\n".join(lines)


def held_keyboard(held: Sequence[HeldTransfer], _: Translate) -> InlineKeyboardMarkup | None:
    """Two buttons for each held transfer: release, refund."""
    if not held:
        return None
    rows = [
        [
            InlineKeyboardButton(
                text=f"✅ #{game}",
                callback_data=FlagDecision(game=game, release=True).pack(),
            ),
            InlineKeyboardButton(
                text=f"↩ #{game}",
                callback_data=FlagDecision(game=game, release=False).pack(),
            ),
        ]
        for transfer in held
        if (game := transfer.flag.game_id) is not None  # a game's: a tournament's entry is not
    ]
    return InlineKeyboardMarkup(inline_keyboard=rows)


def decided_text(transfer: HeldTransfer, released: bool, paid: int, _: Translate) -> str:
    """The alert after a decision."""
    if released:
        return _("Game #{game}: {paid} chips paid to {winner}.").format(
            game=transfer.flag.game_id, paid=paid, winner=transfer.winner.mention
        )
    return _("Game #{game}: refunded, the chips stay with {loser}.").format(
        game=transfer.flag.game_id, loser=transfer.loser.mention
    )


def search_ended_text(_: Translate) -> str:
    """A banned user's wait in ``/find``, ended."""
    return "✖ " + _("This search has ended.")


def banned_text(
    name: str,
    *,
    challenges: int,
    seeker: Seeker | None,
    tournaments: Sequence[Progress],
    _: Translate,
) -> str:
    """The answer to ``/ban``: who, and what it ended."""
    lines = [
        _("🚫 {name} is banned: their commands and taps change nothing now.").format(name=name)
    ]
    ended = []
    if challenges:
        ended.append(_("open challenges cancelled: {count}").format(count=challenges))
    if seeker is not None:
        ended.append(_("left /find"))
    if tournaments:
        ended.append(
            _("left tournaments: {ids}").format(
                ids=", ".join(f"#{p.tournament.id}" for p in tournaments)
            )
        )
    if ended:
        lines.append("; ".join(ended))
    return "\n".join(lines)
