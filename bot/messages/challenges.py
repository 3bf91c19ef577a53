"""Sends the messages of challenges and keeps them in step: a challenge posted in a chat (the
board it starts from first, for a challenge from a position), an invitation sent to the
challenged, the link to forward, each message edited as the terms change and once more when
the challenge closes, every one in its own reader's language.

Every message of a challenge is recorded as one of its own (its buttons count only there, see
:meth:`~bot.services.challenges.Challenges.check_shown`), as being sent before it is sent.
"""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable

from aiogram import Bot
from aiogram.exceptions import TelegramBadRequest, TelegramForbiddenError
from aiogram.types import BufferedInputFile, InlineKeyboardMarkup, Message
from aiogram.utils.deep_linking import create_start_link
from aiogram.utils.i18n import I18n
from aiogram.utils.i18n import gettext as _

from bot.engine import Position, Side
from bot.i18n import current_locale, locale_of
from bot.model import Challenge, User
from bot.outbox import Outbox
from bot.services import Challenges, Users
from bot.services.errors import NotAPlayer
from bot.views.challenges import INVITE_PREFIX, challenge_message, closed_text, start_caption
from bot.views.common import Translate, player_name, translator
from render import FILE_NAME, BoardView


async def post_challenge(
    message: Message,
    challenge: Challenge,
    challenger: User,
    users: Users,
    challenges: Challenges,
    outbox: Outbox | None = None,
) -> Message:
    """Posts the challenge in the message's chat and remembers which message shows it; a
    challenge from a position shows that board first (drawn by ``outbox``)."""
    target = await users.get(challenge.target_id) if challenge.target_id else None
    if challenge.terms.start is not None and outbox is not None:
        await message.answer_photo(
            await start_picture(outbox, challenge.terms.start, challenger, target, _),
            caption=start_caption(challenge.terms.start, _),
        )
    text, markup = challenge_message(challenge, challenger, target, message.chat.id, _)
    return await send_shown(
        challenges,
        challenge,
        message.chat.id,
        current_locale(),
        lambda: message.answer(text, reply_markup=markup),
    )


async def post_rematch(
    bot: Bot,
    i18n: I18n,
    users: Users,
    challenges: Challenges,
    outbox: Outbox | None,
    challenge: Challenge,
) -> None:
    """Posts a rematch's challenge (:class:`~bot.services.actions.RematchOffered`, whichever
    client asked for it) where it was made, the finished game's group or its asker's private
    chat, in its language, and sends it to an opponent the bot can write to privately."""
    player = await users.get(challenge.challenger_id)
    if player is None:
        raise NotAPlayer()
    chat_id, locale = challenge.chat_id, challenge.locale
    _ = translator(i18n, locale)
    target = await users.get(challenge.target_id) if challenge.target_id else None
    if challenge.terms.start is not None and outbox is not None:
        await bot.send_photo(
            chat_id,
            await start_picture(outbox, challenge.terms.start, player, target, _),
            caption=start_caption(challenge.terms.start, _),
        )
    text, markup = challenge_message(challenge, player, target, chat_id, _)
    await send_shown(
        challenges,
        challenge,
        chat_id,
        locale,
        lambda: bot.send_message(chat_id, text, reply_markup=markup),
    )
    in_private = chat_id > 0
    if in_private and target is not None and target.private_chat and not target.blocked:
        await send_invitation(bot, i18n, users, challenges, challenge, player, target, outbox)


async def send_shown(
    challenges: Challenges,
    challenge: Challenge,
    chat_id: int,
    locale: str,
    send: Callable[[], Awaitable[Message]],
) -> Message:
    """Sends a message of the challenge in ``chat_id`` (written in ``locale``) and records it
    as one of the challenge's, as being sent first: a tap on it that comes before its id is
    recorded counts all the same (see :meth:`~bot.services.challenges.Challenges.show`)."""
    await challenges.show(challenge, chat_id, None, locale)
    sent = await send()
    await challenges.show(challenge, chat_id, sent.message_id, locale)
    return sent


async def post_with_link(
    message: Message,
    challenge: Challenge,
    player: User,
    users: Users,
    challenges: Challenges,
    outbox: Outbox,
    bot: Bot,
    i18n: I18n | None,
    reachable: User | None,
) -> None:
    """Posts a challenge made in a private chat, sends the invitation to ``reachable`` (when
    the bot can write to them) and gives the link to forward."""
    sent = await post_challenge(message, challenge, player, users, challenges, outbox)
    link = await create_start_link(bot, f"{INVITE_PREFIX}{challenge.id}")
    if (
        reachable is not None
        and i18n is not None
        and await send_invitation(
            bot, i18n, users, challenges, challenge, player, reachable, outbox
        )
    ):
        note = _("I have sent the invitation to {name}. You can also forward this link: {link}")
        await sent.reply(note.format(name=player_name(reachable, _), link=link))
    else:
        note = _("Forward this link to your friend: opening it shows them the challenge.\n{link}")
        await sent.reply(note.format(link=link))


async def send_invitation(
    bot: Bot,
    i18n: I18n,
    users: Users,
    challenges: Challenges,
    challenge: Challenge,
    challenger: User,
    to: User,
    outbox: Outbox | None = None,
) -> bool:
    """Sends the challenge to ``to`` in their private chat, in their language (the board it
    starts from first, for a challenge from a position); returns False (and remembers it) when
    they have blocked the bot."""
    locale = locale_of(to)
    their = translator(i18n, locale)
    try:
        if challenge.terms.start is not None and outbox is not None:
            await bot.send_photo(
                to.id,
                await start_picture(outbox, challenge.terms.start, challenger, to, their),
                caption=start_caption(challenge.terms.start, their),
            )
        text, markup = challenge_message(challenge, challenger, to, to.id, their)
        await send_shown(
            challenges,
            challenge,
            to.id,
            locale,
            lambda: bot.send_message(to.id, text, reply_markup=markup),
        )
    except TelegramForbiddenError:
        await users.mark_blocked(to.id)
        return False
    return True


async def show_challenge_messages(
    bot: Bot, challenge: Challenge, users: Users, challenges: Challenges, i18n: I18n
) -> None:
    """Edits every message of the open challenge to show its terms now, with buttons for its
    version."""
    found = await users.get(challenge.challenger_id)
    if found is None:
        return
    challenger: User = found
    target = await users.get(challenge.target_id) if challenge.target_id else None

    def draw(chat_id: int, _: Translate) -> tuple[str, InlineKeyboardMarkup | None]:
        return challenge_message(challenge, challenger, target, chat_id, _)

    await _edit_messages(bot, challenge, challenges, i18n, draw)


async def _edit_messages(
    bot: Bot,
    challenge: Challenge,
    challenges: Challenges,
    i18n: I18n,
    draw: Callable[[int, Translate], tuple[str, InlineKeyboardMarkup | None]],
) -> None:
    """Edits every message of the challenge to what ``draw`` gives for its chat, in its own
    language. A message that is gone or unchanged is left alone."""
    for shown in await challenges.messages(challenge.id):
        text, markup = draw(shown.chat_id, translator(i18n, shown.locale))
        with contextlib.suppress(TelegramBadRequest, TelegramForbiddenError):
            await bot.edit_message_text(
                text, chat_id=shown.chat_id, message_id=shown.message_id, reply_markup=markup
            )


async def _names(challenge: Challenge, users: Users) -> tuple[str, str]:
    challenger = await users.get(challenge.challenger_id)
    target = await users.get(challenge.target_id) if challenge.target_id else None
    return (
        player_name(challenger, _) if challenger else "?",
        player_name(target, _) if target else "?",
    )


async def close_challenge_messages(
    bot: Bot, challenge: Challenge, users: Users, challenges: Challenges, i18n: I18n
) -> None:
    """Edits every message of the challenge (an inline invitation's by its inline message), each
    in its own language, to say how it closed, without buttons. A message that is gone or
    unchanged is left alone."""
    names = await _names(challenge, users)
    if challenge.inline_message_id is not None:
        text = closed_text(challenge, names, translator(i18n, challenge.locale))
        with contextlib.suppress(TelegramBadRequest, TelegramForbiddenError):
            await bot.edit_message_text(
                text, inline_message_id=challenge.inline_message_id, reply_markup=None
            )
    await _edit_messages(
        bot,
        challenge,
        challenges,
        i18n,
        lambda _chat, _: (closed_text(challenge, names, _), None),
    )


async def start_picture(
    outbox: Outbox,
    start: Position,
    challenger: User,
    other: User | None,
    _: Translate,
) -> BufferedInputFile:
    """The board a challenge starts from, drawn on the outbox's drawing thread: the
    challenger's side (the side to move) at the bottom, with the names known."""
    names = {start.turn: challenger.mention, start.turn.other: other.mention if other else ""}
    view = BoardView(
        bottom=start.turn,
        white_name=names[Side.WHITE],
        black_name=names[Side.BLACK],
        pip_label=_("pips"),
    )
    return BufferedInputFile(await outbox.drawing.board(start, view), FILE_NAME)
