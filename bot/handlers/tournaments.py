"""Tournaments in groups: ``/tournament`` (the creation picker and the group's tournaments),
``/tournament anyone`` and ``/tournament admins`` (who may make one: the admins' setting),
``/tournament leave`` (withdraw from the one being played), and the taps on the picker and on
a sign-up message (Join, Leave, and the creator's Start and Call off).

The rest (rounds, games, the pinned message, the winner) happens without anyone: the timers
move each tournament on (:class:`~bot.messages.tournaments.TournamentPublisher`).
"""

from __future__ import annotations

import contextlib

from aiogram import Bot, Router
from aiogram.enums import ChatType
from aiogram.exceptions import TelegramBadRequest
from aiogram.filters import Command, CommandObject
from aiogram.types import CallbackQuery, Message
from aiogram.utils.callback_answer import CallbackAnswer
from aiogram.utils.i18n import gettext as _

from bot.callbacks import (
    TournamentAction,
    TournamentOption,
    TournamentPage,
    TournamentPick,
    TournamentStep,
)
from bot.i18n import current_locale
from bot.messages.members import ADMINS, check_admin
from bot.messages.tournaments import TournamentPublisher
from bot.model import Tournament, TournamentState, User
from bot.outbox import Outbox
from bot.services.errors import (
    ForeignButton,
    NotEntered,
    NotYourPicker,
    TournamentMade,
    TournamentNotFound,
)
from bot.services.tournaments import Tournaments
from bot.views.tournament_picker import LISTS, Pick, choices_keyboard, picker_keyboard, picker_text
from bot.views.tournaments import past_text


def create_router() -> Router:
    """Returns a new router with ``/tournament`` and the tournament buttons."""
    router = Router(name=__name__)
    router.message.register(on_tournament, Command("tournament"))
    router.callback_query.register(on_pick, TournamentPick.filter())
    router.callback_query.register(on_action, TournamentAction.filter())
    router.callback_query.register(on_page, TournamentPage.filter())
    return router


async def on_tournament(
    message: Message,
    command: CommandObject,
    bot: Bot,
    tournaments: Tournaments,
    tournament_publisher: TournamentPublisher,
    player: User,
) -> None:
    """``/tournament``: the group's tournaments and the creation picker; with ``anyone`` or
    ``admins``, the admins' setting of who may make one; with ``leave``, a withdrawal."""
    if message.chat.type == ChatType.PRIVATE:
        await message.answer(
            _("Tournaments are held in groups: add me to one and send /tournament there.")
        )
        return
    chat_id = message.chat.id
    word = (command.args or "").strip().lower()
    if word in ("anyone", "admins"):
        await check_admin(message, bot)
        await tournaments.set_anyone_creates(chat_id, word == "anyone")
        await message.answer(
            _("Anyone here may make a tournament now.")
            if word == "anyone"
            else _("Only the group's admins may make a tournament now.")
        )
        return
    if word == "leave":
        running = [
            t for t in await tournaments.in_chat(chat_id) if t.state is TournamentState.RUNNING
        ]
        for tournament in running:
            with contextlib.suppress(NotEntered):
                await tournaments.leave(tournament.id, player.id)
                await message.answer(
                    _("You have withdrawn from tournament #{id}: your games are forfeited.").format(
                        id=tournament.id
                    )
                )
                return
        await message.answer(_("You are not playing in a tournament here."))
        return
    listed = await tournaments.in_chat(chat_id)
    if listed:
        winners = {}
        for t in listed:
            if t.winner_id is not None:
                overview = await tournaments.overview(t.id)
                winners[t.winner_id] = overview.user(t.winner_id)
        await message.answer(past_text(listed, winners, _))
    pick = Pick(user=player.id)
    await message.answer(picker_text(pick, _), reply_markup=picker_keyboard(pick, _))


async def on_pick(
    callback: CallbackQuery,
    callback_data: TournamentPick,
    bot: Bot,
    tournaments: Tournaments,
    tournament_publisher: TournamentPublisher,
    player: User,
) -> None:
    """A tap on the creation picker, by the one who opened it: an option's list of choices, a
    choice picked (or ↩ Back), or ✅ Create, which makes
    the tournament (for whoever may) and turns the picker into its sign-up message. A picker
    makes one tournament: a second tap (or a tap on another worker at the same time) is told
    so, and the sign-up message is shown again (the first tap's edit may have been lost)."""
    message = callback.message
    if not isinstance(message, Message) or not _is_picker(message):
        raise ForeignButton()
    pick = Pick.of(callback_data)
    if pick is None:
        raise ForeignButton()  # forged choices
    if pick.user != player.id:
        raise NotYourPicker()
    option = callback_data.option
    if option is not TournamentOption.CREATE:
        markup = (  # an option's list of choices, or the picker (a choice picked, ↩ Back)
            choices_keyboard(pick, option, _) if option in LISTS else picker_keyboard(pick, _)
        )
        with contextlib.suppress(TelegramBadRequest):  # two taps at once: "not modified"
            await message.edit_text(picker_text(pick, _), reply_markup=markup)
        return
    member = await bot.get_chat_member(message.chat.id, callback.from_user.id)
    try:
        made = await tournaments.create(
            message.chat.id,
            player,
            format=pick.tournament_format,
            terms=pick.terms,
            entry=pick.chips,
            starts_at=tournaments.now() + pick.starts_in if pick.starts_in else None,
            locale=current_locale(),
            is_admin=member.status in ADMINS,
            picker_id=message.message_id,
        )
    except TournamentMade as made_before:
        await tournament_publisher.show_signup(made_before.tournament)
        raise
    await tournament_publisher.show_signup(made.id)


async def on_action(
    callback: CallbackQuery,
    callback_data: TournamentAction,
    tournaments: Tournaments,
    tournament_publisher: TournamentPublisher,
    player: User,
) -> None:
    """Join, Leave, Start, Call off, on the tournament's own sign-up message only."""
    tournament = await _pressed_on(callback, tournaments, callback_data.tournament, pinned=False)
    step = callback_data.action
    if step is TournamentStep.JOIN:
        await tournaments.join(tournament.id, player)
    elif step is TournamentStep.LEAVE:
        await tournaments.leave(tournament.id, player.id)
    elif step is TournamentStep.CANCEL:
        await tournaments.cancel(tournament.id, player.id)
    else:
        await tournament_publisher.progressed(await tournaments.start(tournament.id, player.id))
        return
    await tournament_publisher.show_signup(tournament.id)


async def on_page(
    callback: CallbackQuery,
    callback_data: TournamentPage,
    tournaments: Tournaments,
    tournament_publisher: TournamentPublisher,
    outbox: Outbox,
    player: User,
    callback_answer: CallbackAnswer,
) -> None:
    """📋 under a pinned table: that page of it, sent to the presser in private (within their
    allowance of messages on demand), on the tournament's own pinned message only."""
    tournament = await _pressed_on(callback, tournaments, callback_data.tournament, pinned=True)
    with outbox.on_demand.spend(player.id, player.id):
        await tournament_publisher.send_page(tournament.id, callback_data.page, player.id, _)
    callback_answer.text = _("Sent to you in private.")


def _is_picker(message: Message) -> bool:
    """Whether ``message`` shows the creation picker (its buttons are the picker's)."""
    markup = message.reply_markup
    prefix = TournamentPick.__prefix__ + TournamentPick.__separator__
    return markup is not None and any(
        (button.callback_data or "").startswith(prefix)
        for row in markup.inline_keyboard
        for button in row
    )


async def _pressed_on(
    callback: CallbackQuery, tournaments: Tournaments, number: int, *, pinned: bool
) -> Tournament:
    """The tournament whose button was pressed, on its own message only (its pinned one, or
    its sign-up one): a button copied onto any other message is :exc:`ForeignButton`."""
    message = callback.message
    try:
        tournament = await tournaments.get(number)
    except TournamentNotFound:
        raise ForeignButton() from None
    own = tournament.pinned_id if pinned else tournament.message_id
    if (
        not isinstance(message, Message)
        or message.chat.id != tournament.chat_id
        or message.message_id != own
    ):
        raise ForeignButton()
    return tournament
