"""What the operators read: the figures of ``/ops``, a broadcast's confirmation and progress,
the held chip transfers with their decisions, and the answers to ``/ban`` and ``/unban``. Pure
functions of domain values and ``_`` (the reader's gettext)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from aiogram import html
from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot.callbacks import BroadcastStep, FlagDecision
from bot.model import Broadcast, BroadcastState, Figures, Seeker
from bot.services.leagues import HeldTransfer
from bot.services.tournament_values import Progress

from .common import Translate, player_name
from .numbers import chips_text, count


@dataclass(frozen=True, slots=True)
class ProcessFigures:
    """This worker's own figures, beside the database's: updates that failed unexpectedly
    since it started, and its worker pools' restarts by pool name."""

    errors: int
    restarts: tuple[tuple[str, int], ...]


def figures_text(figures: Figures, process: ProcessFigures, _: Translate) -> str:
    """``/ops``: users, today's games, errors and queues at a glance."""
    restarts = ", ".join(f"{name} {count(n, _)}" for name, n in process.restarts) or "0"
    return "\n".join(
        [
            html.bold(_("🛠 The bot at a glance")),
            _("Users: {users} ({reachable} reachable in private, {banned} banned)").format(
                users=count(figures.users, _),
                reachable=count(figures.reachable, _),
                banned=count(figures.banned, _),
            ),
            _(
                "Games today (UTC): {started} started, {finished} finished; {running} in "
                "progress now"
            ).format(
                started=count(figures.games_today, _),
                finished=count(figures.finished_today, _),
                running=count(figures.in_progress, _),
            ),
            _("Failed updates since this worker started: {errors}").format(
                errors=count(process.errors, _)
            ),
            _("Worker restarts: {restarts}").format(restarts=restarts),
            _("Waiting: {analyses}, {seekers}, {left}").format(
                analyses=_(
                    "{n} game for its analysis",
                    "{n} games for their analysis",
                    figures.analysis_backlog,
                ).format(n=count(figures.analysis_backlog, _)),
                seekers=_("{n} player in /find", "{n} players in /find", figures.seekers).format(
                    n=count(figures.seekers, _)
                ),
                left=_(
                    "{n} recipient of broadcasts",
                    "{n} recipients of broadcasts",
                    figures.broadcast_left,
                ).format(n=count(figures.broadcast_left, _)),
            ),
        ]
    )


def draft_text(text: str, recipients: int, _: Translate) -> str:
    """A broadcast written, to be confirmed: what it says, to how many."""
    return (
        _("📣 Recipients (everyone with a private chat with the bot): {count}. It says:").format(
            count=count(recipients, _)
        )
        + "\n\n"
        + text
    )


def draft_keyboard(broadcast: Broadcast, recipients: int, _: Translate) -> InlineKeyboardMarkup:
    """Send it, or not."""
    send = InlineKeyboardButton(
        text=_("📣 Send ({count})").format(count=count(recipients, _)),
        callback_data=BroadcastStep(broadcast=broadcast.id, send=True).pack(),
    )
    cancel = InlineKeyboardButton(
        text="✖ " + _("Cancel"),
        callback_data=BroadcastStep(broadcast=broadcast.id, send=False).pack(),
    )
    return InlineKeyboardMarkup(inline_keyboard=[[send, cancel]])


def progress_text(broadcast: Broadcast, _: Translate) -> str:
    """A broadcast's state: how far it has gone."""
    counts = {
        "sent": count(broadcast.sent, _),
        "failed": count(broadcast.failed, _),
        "total": count(broadcast.total, _),
    }
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
                "Game #{game} in chat {chat}: {loser} → {winner}, {amount} ({payments}, {paid})"
            ).format(
                game=flag.game_id,
                chat=flag.chat_id,
                loser=player_name(transfer.loser, _),
                winner=player_name(transfer.winner, _),
                amount=chips_text(flag.amount, _),
                payments=_("{n} payment", "{n} payments", flag.payments).format(
                    n=count(flag.payments, _)
                ),
                paid=_("{n} chip one way in 24 h", "{n} chips one way in 24 h", flag.paid).format(
                    n=count(flag.paid, _)
                ),
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
        return _(
            "Game #{game}: {paid} chip paid to {winner}.",
            "Game #{game}: {paid} chips paid to {winner}.",
            paid,
        ).format(game=transfer.flag.game_id, paid=count(paid, _), winner=transfer.winner.mention)
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
        ended.append(_("open challenges cancelled: {count}").format(count=count(challenges, _)))
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
