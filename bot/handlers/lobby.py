"""Challenges: ``/play`` in groups and private chats, their buttons, invitation links, and
"play from here" under the worst moves of an analysis. The challenges' messages are sent and
kept in step by :mod:`bot.messages.challenges`."""

from __future__ import annotations

from dataclasses import replace
from typing import Final

from aiogram import Bot, F, Router
from aiogram.enums import ChatType, MessageEntityType
from aiogram.filters import Command, CommandObject, CommandStart
from aiogram.types import CallbackQuery, Message
from aiogram.types import User as TgUser
from aiogram.utils.callback_answer import CallbackAnswer
from aiogram.utils.i18n import I18n
from aiogram.utils.i18n import gettext as _

from bot.callbacks import ChallengeAction, ChallengeOption, PlayComputer, PlayFrom
from bot.engine import POSITION_ID_LENGTH, InvalidPositionError, Position
from bot.i18n import current_locale
from bot.messages.challenges import (
    close_challenge_messages,
    post_challenge,
    post_with_link,
    send_shown,
    show_challenge_messages,
    start_picture,
)
from bot.messages.members import member_check
from bot.model import User
from bot.numbers import COUNT_DIGITS, parse_number
from bot.outbox import Outbox
from bot.services import Challenges, Lobby, Replays, Terms, Users
from bot.services.challenges import DEFAULT_LEVEL
from bot.services.errors import (
    ChallengeNotFound,
    ForeignButton,
    FromWhat,
    NotAPosition,
    StaleAction,
    TermsChanged,
)
from bot.views.challenges import INVITE_PREFIX, challenge_message, start_caption, terms_changed_text
from bot.views.words import FROM_WORD, computer_asked, play_args, play_words, terms_of

OPTION_NAMES: Final = {
    ChallengeOption.VARIANT: "variant",
    ChallengeOption.RULES: "rules",
    ChallengeOption.TIME: "time",
    ChallengeOption.MATCH: "match",
    ChallengeOption.CUBE: "cube",
    ChallengeOption.STAKE: "stake",
    ChallengeOption.STAKE_MODE: "stake_mode",
    ChallengeOption.DICE: "dice",
    ChallengeOption.LEVEL: "level",
    ChallengeOption.HINTS: "hints",
    ChallengeOption.WATCH: "watchable",
    ChallengeOption.TRAINING: "training",
}
"""The challenger's option buttons, by the service's names of the options."""


def create_router() -> Router:
    """Returns a new router with the challenge handlers."""
    router = Router(name=__name__)
    router.message.register(
        on_start_invitation,
        CommandStart(deep_link=True, magic=F.args.regexp(rf"^{INVITE_PREFIX}[0-9]+$")),
    )
    play = Command("play", "from")  # /from X: /play from X
    router.message.register(on_play, play, F.chat.type != ChatType.PRIVATE)
    router.message.register(on_play_private, play, F.chat.type == ChatType.PRIVATE)
    router.callback_query.register(on_challenge_button, ChallengeAction.filter())
    router.callback_query.register(on_play_computer_button, PlayComputer.filter())
    router.callback_query.register(on_play_from, PlayFrom.filter())
    return router


def _target(message: Message, command: CommandObject) -> tuple[TgUser | None, str | None]:
    """Who ``/play`` names: a Telegram user (replied to, or mentioned without a username), or
    an @username."""
    reply = message.reply_to_message
    if reply is not None and reply.from_user is not None:
        return reply.from_user, None
    for entity in message.entities or []:
        if entity.type == MessageEntityType.TEXT_MENTION and entity.user is not None:
            return entity.user, None
        if entity.type == MessageEntityType.MENTION:
            return None, entity.extract_from(message.text or "").lstrip("@")
    names = [word.lstrip("@") for word in (command.args or "").split() if word.startswith("@")]
    return None, names[0] if names else None


async def _start(
    args: str, replays: Replays, player: User, chat_id: int
) -> tuple[Position | None, str]:
    """The position named after ``from`` in ``/play``'s words (a position ID, or a finished
    game's number and a move: ``from 12 30`` is game #12's board after move 30, ``from 12``
    its end), and the other words; no position without ``from``.

    :raises: :exc:`FromWhat` without anything after ``from``; :exc:`NotAPosition` for a word
        that is neither an ID nor a game's number; what
        :meth:`~bot.services.replays.Replays.position_after` raises for a game's board.
    """
    words = args.split()
    lowered = [word.lower() for word in words]
    if FROM_WORD not in lowered:
        return None, args
    index = lowered.index(FROM_WORD)
    spec = words[index + 1 :]
    if not spec:
        raise FromWhat()
    first, used = spec[0], 1
    if len(first) == POSITION_ID_LENGTH:
        try:
            position = Position.from_id(first)
        except InvalidPositionError:
            raise NotAPosition(text=first) from None
    elif (game_id := parse_number(first.lstrip("#"))) is not None:
        moves = parse_number(spec[1], COUNT_DIGITS) if len(spec) > 1 else None
        used += moves is not None
        _, position = await replays.position_after(
            game_id, moves, user_id=player.id, chat_id=chat_id
        )
    else:
        raise NotAPosition(text=first)
    return position, " ".join(words[:index] + spec[used:])


async def on_play(
    message: Message,
    command: CommandObject,
    users: Users,
    challenges: Challenges,
    replays: Replays,
    outbox: Outbox,
    player: User,
) -> None:
    """``/play`` in a group: a challenge to the user named (or replied to), or to anyone;
    ``/play bot``: a game with the computer; ``/play from …`` (``/from …``): from a position."""
    start, args = await _start(play_args(command), replays, player, message.chat.id)
    level, words = computer_asked(play_words(args))
    terms = replace(terms_of(words), start=start)
    if level is not None:
        await play_computer(message, player, challenges, users, level, terms, outbox)
        return
    who, username = _target(message, command)
    target = None
    if who is not None and not who.is_bot:
        target = await users.see(
            who.id,
            username=who.username,
            first_name=who.first_name,
            language_code=who.language_code,
        )
    challenge = await challenges.open(
        chat_id=message.chat.id,
        challenger=player,
        target=target,
        target_username=username,
        target_is_bot=bool(who and who.is_bot),
        locale=current_locale(),
        terms=terms,
    )
    await post_challenge(message, challenge, player, users, challenges, outbox)


async def play_computer(
    message: Message,
    player: User,
    challenges: Challenges,
    users: Users,
    level: int,
    terms: Terms,
    outbox: Outbox | None = None,
) -> None:
    """Posts a challenge to the computer in the message's chat, for ``player`` to start."""
    challenge = await challenges.against_computer(
        chat_id=message.chat.id,
        challenger=player,
        level=level,
        locale=current_locale(),
        terms=terms,
    )
    await post_challenge(message, challenge, player, users, challenges, outbox)


async def on_play_computer_button(
    callback: CallbackQuery, challenges: Challenges, users: Users, player: User
) -> None:
    """ "🤖 Play the computer" under /start or /help: a challenge to the computer, there."""
    if not isinstance(callback.message, Message):
        raise ChallengeNotFound()
    await play_computer(callback.message, player, challenges, users, DEFAULT_LEVEL, Terms())


async def on_play_private(
    message: Message,
    command: CommandObject,
    challenges: Challenges,
    replays: Replays,
    users: Users,
    outbox: Outbox,
    player: User,
    bot: Bot,
    i18n: I18n,
) -> None:
    """``/play @friend`` in a private chat: invites the friend by a private message when the
    bot can write to them, and always gives a link to forward. ``/play`` alone gives a link
    anyone can open. ``/play bot``: a game with the computer, here. ``/play from …``
    (``/from …``): from a position."""
    start, args = await _start(play_args(command), replays, player, message.chat.id)
    level, words = computer_asked(play_words(args))
    terms = replace(terms_of(words), start=start)
    if level is not None:
        await play_computer(message, player, challenges, users, level, terms, outbox)
        return
    who, username = _target(message, command)
    is_bot = bool(who and who.is_bot)
    username = username or (who.username if who else None)
    if username:
        challenge, reachable = await challenges.private_invitation(
            challenger=player,
            target_username=username,
            locale=current_locale(),
            terms=terms,
        )
        await post_with_link(
            message, challenge, player, users, challenges, outbox, bot, i18n, reachable
        )
        return
    await post_open_challenge(message, player, challenges, users, outbox, bot, terms, is_bot=is_bot)


async def post_open_challenge(
    message: Message,
    player: User,
    challenges: Challenges,
    users: Users,
    outbox: Outbox,
    bot: Bot,
    terms: Terms,
    *,
    is_bot: bool = False,
) -> None:
    """A challenge anyone may accept, posted in the message's chat: in a private chat with a
    link to forward."""
    challenge = await challenges.open(
        chat_id=message.chat.id,
        challenger=player,
        target_is_bot=is_bot,
        locale=current_locale(),
        terms=terms,
    )
    if message.chat.type != ChatType.PRIVATE:
        await post_challenge(message, challenge, player, users, challenges, outbox)
        return
    await post_with_link(message, challenge, player, users, challenges, outbox, bot, None, None)


async def on_start_invitation(
    message: Message,
    command: CommandObject,
    users: Users,
    challenges: Challenges,
    outbox: Outbox,
    player: User,
    bot: Bot,
) -> None:
    """``/start c<id>`` from an invitation link: shows the challenge with its buttons (a
    group's challenge only to the group's members)."""
    challenge_id = parse_number((command.args or "").removeprefix(INVITE_PREFIX))
    try:
        if challenge_id is None:
            raise ChallengeNotFound()
        challenge = await challenges.get(challenge_id)
    except ChallengeNotFound:
        await message.answer(_("This challenge does not exist."))
        return
    challenger = await users.get(challenge.challenger_id)
    if not challenge.is_open or challenger is None:
        await message.answer(_("This challenge is closed: accepted, declined or expired."))
        return
    await challenges.check_member(
        challenge, player.id, where=message.chat.id, is_member=member_check(bot)
    )
    if challenge.terms.start is not None:
        await message.answer_photo(
            await start_picture(outbox, challenge.terms.start, challenger, player, _),
            caption=start_caption(challenge.terms.start, _),
        )
    target = await users.get(challenge.target_id) if challenge.target_id else None
    text, markup = challenge_message(challenge, challenger, target, message.chat.id, _)
    await send_shown(
        challenges,
        challenge,
        message.chat.id,
        current_locale(),
        lambda: message.answer(text, reply_markup=markup),
    )


async def on_challenge_button(
    callback: CallbackQuery,
    callback_data: ChallengeAction,
    challenges: Challenges,
    lobby: Lobby,
    users: Users,
    outbox: Outbox,
    player: User,
    bot: Bot,
    i18n: I18n,
    callback_answer: CallbackAnswer,
) -> None:
    """Accept, decline or change an option, on one of the challenge's own messages and for
    the terms it shows; every message of the challenge follows. A button drawn for terms
    changed since is told what changed, and changes nothing."""
    option = callback_data.option
    challenge_id, version = callback_data.challenge, callback_data.version
    message = callback.message
    if not isinstance(message, Message):
        raise ForeignButton()  # challenges are never posted inline with these buttons
    await challenges.check_shown(challenge_id, message.chat.id, message.message_id)
    where, is_member = message.chat.id, member_check(bot)
    try:
        if option is ChallengeOption.ACCEPT:
            # the tap's id, which nobody knew before it, is the client value of the game's dice
            challenge, snapshot = await lobby.accept(
                challenge_id,
                player,
                version,
                where=where,
                is_member=is_member,
                dice_client=callback.id,
            )
            await close_challenge_messages(bot, challenge, users, challenges, i18n)
            return
        if option is ChallengeOption.DECLINE:
            challenge = await challenges.decline(
                challenge_id, player.id, version, where=where, is_member=is_member
            )
            await close_challenge_messages(bot, challenge, users, challenges, i18n)
            return
        if option not in OPTION_NAMES:
            raise StaleAction()
        challenge = await challenges.change_option(
            challenge_id, player.id, version, OPTION_NAMES[option]
        )
    except TermsChanged as changed:
        callback_answer.text = terms_changed_text(changed.drawn, changed.current, _)
        callback_answer.show_alert = True
        return
    await show_challenge_messages(bot, challenge, users, challenges, i18n)


async def on_play_from(
    callback: CallbackQuery,
    callback_data: PlayFrom,
    replays: Replays,
    challenges: Challenges,
    users: Users,
    outbox: Outbox,
    player: User,
    bot: Bot,
) -> None:
    """▶ under a worst move of an analysis: a game from the board before that move, the
    presser playing its side to move, against the computer or as a challenge anyone here may
    accept (in a private chat, with a link to forward). Within the presser's and the group's
    allowance of messages on demand (:class:`~bot.outbox.pace.OnDemand`)."""
    if not isinstance(callback.message, Message):
        raise StaleAction()
    message = callback.message
    with outbox.on_demand.spend(player.id, message.chat.id):
        _game, start = await replays.position_after(
            callback_data.game, callback_data.moves, user_id=player.id, chat_id=message.chat.id
        )
        terms = Terms(start=start)
        if callback_data.computer:
            await play_computer(message, player, challenges, users, DEFAULT_LEVEL, terms, outbox)
        else:
            await post_open_challenge(message, player, challenges, users, outbox, bot, terms)
