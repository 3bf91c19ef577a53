"""Challenges: ``/play`` in groups and private chats, their buttons, and invitation links."""

from __future__ import annotations

import contextlib
from typing import Final

from aiogram import Bot, F, Router
from aiogram.enums import ChatType, MessageEntityType
from aiogram.exceptions import TelegramBadRequest, TelegramForbiddenError
from aiogram.filters import Command, CommandObject, CommandStart
from aiogram.types import CallbackQuery, Message
from aiogram.types import User as TgUser
from aiogram.utils.deep_linking import create_start_link
from aiogram.utils.i18n import I18n
from aiogram.utils.i18n import gettext as _

from bot import views
from bot.callbacks import ChallengeAction, ChallengeOption, PlayComputer
from bot.engine import DiceMode, StakeMode
from bot.i18n import current_locale, locale_of
from bot.publisher import BoardPublisher
from bot.services import GameService, Terms
from bot.services.challenges import DEFAULT_LEVEL, LEVEL_CHOICES, MATCH_CHOICES
from bot.services.chips import STAKE_CHOICES
from bot.services.errors import ChallengeNotFound, StaleAction
from bot.storage import Challenge, ChallengeStatus, User
from bot.texts import DICE_WORDS, VARIANT_WORDS

INVITE_PREFIX = "c"
"""Deep-link payloads ``c<challenge id>`` open a challenge in a private chat."""

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
}
"""The challenger's option buttons, by the service's names of the options."""


def create_router() -> Router:
    """Returns a new router with the challenge handlers."""
    router = Router(name=__name__)
    router.message.register(
        on_start_invitation,
        CommandStart(deep_link=True, magic=F.args.regexp(rf"^{INVITE_PREFIX}\d+$")),
    )
    router.message.register(on_play, Command("play"), F.chat.type != ChatType.PRIVATE)
    router.message.register(on_play_private, Command("play"), F.chat.type == ChatType.PRIVATE)
    router.callback_query.register(on_challenge_button, ChallengeAction.filter())
    router.callback_query.register(on_play_computer_button, PlayComputer.filter())
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


CUBE_WORDS: Final = frozenset({"cube", "куб", "кубом"})
TIME_WORDS: Final = {
    **dict.fromkeys(("1h", "1ч"), 3600),
    **dict.fromkeys(("12h", "12ч"), 43_200),
    **dict.fromkeys(("1d", "1д", "day", "день"), 86_400),
    **dict.fromkeys(("3d", "3д"), 259_200),
}
"""Correspondence move times: an hour, 12 hours, a day, three days."""
MODE_WORDS: Final = {
    "pro": StakeMode.PRO,
    "про": StakeMode.PRO,
    "amateur": StakeMode.AMATEUR,
    "любительский": StakeMode.AMATEUR,
    "любительская": StakeMode.AMATEUR,
}


COMPUTER_WORDS: Final = frozenset({"bot", "computer", "ai", "бот", "компьютер", "комп"})
LEVEL_WORDS: Final = frozenset({"level", "lvl", "уровень", "ур"})
PRIVATE_WORDS: Final = frozenset({"private", "приватная", "приватно", "закрытая"})
"""A game between private chats that its players keep to themselves: no Watch link."""


def _words(command: CommandObject) -> list[str]:
    return [word.lower() for word in (command.args or "").split() if not word.startswith("@")]


def _computer(words: list[str]) -> tuple[int | None, list[str]]:
    """``/play bot`` (or ``computer``, ``бот``, ``компьютер``): the computer's level, written
    ``level 4`` or ``уровень 4`` (:data:`DEFAULT_LEVEL` without one), and the other words;
    None when the computer is not asked for."""
    if not COMPUTER_WORDS.intersection(words):
        return None, words
    rest = [w for w in words if w not in COMPUTER_WORDS]
    level = DEFAULT_LEVEL
    for index, word in enumerate(rest[:-1]):
        following = rest[index + 1]
        if word in LEVEL_WORDS and following.isdigit() and int(following) in LEVEL_CHOICES:
            level = int(following)
            rest = rest[:index] + rest[index + 2 :]
            break
    return level, rest


def terms_of(words: list[str]) -> Terms:
    """The terms written after ``/play``, in any order: a variant (``short``, ``abkhaz``,
    ``gulbara``, ``crazy_gulbara``, or in Russian); a dice mode of the short variants
    (``three_dice``, ``anti_three``); 3, 5, 7 or 9 for a match; ``cube``; 10, 50, 100 or 500
    for a stake, with ``pro`` or ``amateur``; ``1h``, ``12h``, ``1d`` or ``3d`` a move for a
    correspondence game; ``private`` (``приватная``, ``закрытая``) for a game between private
    chats that nobody may watch. Anything else is left to the challenge's buttons."""
    numbers = [int(word) for word in words if word.isdigit()]
    return Terms(
        variant=next((VARIANT_WORDS[w] for w in words if w in VARIANT_WORDS), "long"),
        dice_mode=next((DICE_WORDS[w] for w in words if w in DICE_WORDS), DiceMode.TWO),
        match_length=next((n for n in numbers if n in MATCH_CHOICES), 0),
        cube=bool(CUBE_WORDS.intersection(words)),
        stake=next((n for n in numbers if n in STAKE_CHOICES), 0),
        stake_mode=next((MODE_WORDS[w] for w in words if w in MODE_WORDS), StakeMode.RULES),
        move_seconds=next((TIME_WORDS[w] for w in words if w in TIME_WORDS), None),
        watchable=not PRIVATE_WORDS.intersection(words),
    )


async def on_play(
    message: Message, command: CommandObject, game_service: GameService, player: User
) -> None:
    """``/play`` in a group: a challenge to the user named (or replied to), or to anyone;
    ``/play bot``: a game with the computer."""
    level, words = _computer(_words(command))
    if level is not None:
        await play_computer(message, player, game_service, level, terms_of(words))
        return
    who, username = _target(message, command)
    target = None
    if who is not None and not who.is_bot:
        target = await game_service.users.see(
            who.id,
            username=who.username,
            first_name=who.first_name,
            language_code=who.language_code,
        )
    challenge = await game_service.challenges.open(
        chat_id=message.chat.id,
        challenger=player,
        target=target,
        target_username=username,
        target_is_bot=bool(who and who.is_bot),
        locale=current_locale(),
        terms=terms_of(words),
    )
    await post_challenge(message, challenge, player, game_service)


async def play_computer(
    message: Message, player: User, game_service: GameService, level: int, terms: Terms
) -> None:
    """Posts a challenge to the computer in the message's chat, for ``player`` to start."""
    challenge = await game_service.challenges.against_computer(
        chat_id=message.chat.id,
        challenger=player,
        level=level,
        locale=current_locale(),
        terms=terms,
    )
    await post_challenge(message, challenge, player, game_service)


async def on_play_computer_button(
    callback: CallbackQuery, game_service: GameService, player: User
) -> None:
    """ "🤖 Play the computer" under /start or /help: a challenge to the computer, there."""
    if not isinstance(callback.message, Message):
        raise ChallengeNotFound()
    await play_computer(callback.message, player, game_service, DEFAULT_LEVEL, Terms())


async def post_challenge(
    message: Message, challenge: Challenge, challenger: User, game_service: GameService
) -> Message:
    """Posts the challenge in the message's chat and remembers which message shows it."""
    target = await game_service.users.get(challenge.target_id) if challenge.target_id else None
    sent = await message.answer(
        views.challenge_text(challenge, challenger, _, target=target),
        reply_markup=views.challenge_keyboard(challenge, _),
    )
    await game_service.challenges.set_message(challenge, sent.message_id)
    return sent


async def on_play_private(
    message: Message,
    command: CommandObject,
    game_service: GameService,
    player: User,
    bot: Bot,
    i18n: I18n,
) -> None:
    """``/play @friend`` in a private chat: invites the friend by a private message when the
    bot can write to them, and always gives a link to forward. ``/play`` alone gives a link
    anyone can open. ``/play bot``: a game with the computer, here."""
    level, words = _computer(_words(command))
    if level is not None:
        await play_computer(message, player, game_service, level, terms_of(words))
        return
    who, username = _target(message, command)
    is_bot = bool(who and who.is_bot)
    username = username or (who.username if who else None)
    if username:
        challenge, reachable = await game_service.challenges.private_invitation(
            challenger=player,
            target_username=username,
            locale=current_locale(),
            terms=terms_of(words),
        )
    else:
        challenge = await game_service.challenges.open(
            chat_id=message.chat.id,
            challenger=player,
            target_is_bot=is_bot,
            locale=current_locale(),
            terms=terms_of(words),
        )
        reachable = None
    sent = await post_challenge(message, challenge, player, game_service)
    link = await create_start_link(bot, f"{INVITE_PREFIX}{challenge.id}")
    if reachable is not None and await send_invitation(
        bot, i18n, game_service, challenge, player, reachable
    ):
        note = _("I have sent the invitation to {name}. You can also forward this link: {link}")
        await sent.reply(note.format(name=views.player_name(reachable), link=link))
    else:
        note = _("Forward this link to your friend: opening it shows them the challenge.\n{link}")
        await sent.reply(note.format(link=link))


async def send_invitation(
    bot: Bot,
    i18n: I18n,
    game_service: GameService,
    challenge: Challenge,
    challenger: User,
    to: User,
) -> bool:
    """Sends the challenge to ``to`` in their private chat, in their language; returns False
    (and remembers it) when they have blocked the bot."""
    their = views.translator(i18n, locale_of(to))
    try:
        await bot.send_message(
            to.id,
            views.challenge_text(challenge, challenger, their),
            reply_markup=views.challenge_keyboard(challenge, their),
        )
    except TelegramForbiddenError:
        await game_service.users.mark_blocked(to.id)
        return False
    return True


async def on_start_invitation(
    message: Message,
    command: CommandObject,
    game_service: GameService,
    player: User,
) -> None:
    """``/start c<id>`` from an invitation link: shows the challenge with its buttons."""
    payload = command.args or ""
    try:
        challenge = await game_service.challenges.get(int(payload.removeprefix(INVITE_PREFIX)))
    except ChallengeNotFound:
        await message.answer(_("This challenge does not exist."))
        return
    challenger = await game_service.users.get(challenge.challenger_id)
    if not challenge.is_open or challenger is None:
        await message.answer(_("This challenge is closed: accepted, declined or expired."))
        return
    await message.answer(
        views.challenge_text(challenge, challenger, _),
        reply_markup=views.challenge_keyboard(challenge, _),
    )


async def on_challenge_button(
    callback: CallbackQuery,
    callback_data: ChallengeAction,
    game_service: GameService,
    publisher: BoardPublisher,
    player: User,
    bot: Bot,
    i18n: I18n,
) -> None:
    """Accept, decline or change an option; the challenge message follows."""
    option = callback_data.option
    challenge_id, version = callback_data.challenge, callback_data.version
    if option is ChallengeOption.ACCEPT:
        # the tap's id, which nobody knew before it, is the client value of the game's dice
        challenge, snapshot = await game_service.challenges.accept(
            challenge_id, player, dice_client=callback.id
        )
        await _close_message(callback, challenge, game_service, bot, i18n)
        publisher.publish(snapshot)
        return
    if option is ChallengeOption.DECLINE:
        challenge = await game_service.challenges.decline(challenge_id, player.id)
        await _close_message(callback, challenge, game_service, bot, i18n)
        return
    if option not in OPTION_NAMES:
        raise StaleAction()
    challenge = await game_service.challenges.change_option(
        challenge_id, player.id, version, OPTION_NAMES[option]
    )
    challenger = await game_service.users.get(challenge.challenger_id) or player
    target = await game_service.users.get(challenge.target_id) if challenge.target_id else None
    if isinstance(callback.message, Message):
        await callback.message.edit_text(
            views.challenge_text(challenge, challenger, _, target=target),
            reply_markup=views.challenge_keyboard(challenge, _),
        )


async def _close_message(
    callback: CallbackQuery,
    challenge: Challenge,
    game_service: GameService,
    bot: Bot,
    i18n: I18n,
) -> None:
    """Closes the challenge's own message (in the challenge's language) and, when the press
    came from another message (an invitation), that one too (in the presser's)."""
    await close_challenge_messages(
        bot, challenge, game_service, views.translator(i18n, challenge.locale)
    )
    message = callback.message
    if isinstance(message, Message) and (
        message.chat.id != challenge.chat_id or message.message_id != challenge.message_id
    ):
        await message.edit_text(closed_text(challenge, await _names(challenge, game_service), _))


async def _names(challenge: Challenge, game_service: GameService) -> tuple[str, str]:
    challenger = await game_service.users.get(challenge.challenger_id)
    target = await game_service.users.get(challenge.target_id) if challenge.target_id else None
    return (
        views.player_name(challenger) if challenger else "?",
        views.player_name(target) if target else "?",
    )


def closed_text(challenge: Challenge, names: tuple[str, str], _: views.Translate) -> str:
    """What a challenge message says once it is closed."""
    challenger, target = names
    if challenge.status is ChallengeStatus.ACCEPTED:
        text = _("⚔ {challenger} — {target}: the game has started.")
    elif challenge.status is ChallengeStatus.DECLINED:
        text = _("{target} declined the challenge of {challenger}.")
    elif challenge.status is ChallengeStatus.CANCELLED:
        text = _("{challenger} withdrew the challenge.")
    else:
        text = _("The challenge of {challenger} has expired.")
    return text.format(challenger=challenger, target=target)


async def close_challenge_messages(
    bot: Bot, challenge: Challenge, game_service: GameService, _: views.Translate
) -> None:
    """Edits the challenge's own message (an inline invitation's by its inline message) to
    say how it closed, without buttons. A message that is gone or unchanged is left alone."""
    if challenge.message_id is None and challenge.inline_message_id is None:
        return
    text = closed_text(challenge, await _names(challenge, game_service), _)
    with contextlib.suppress(TelegramBadRequest, TelegramForbiddenError):
        if challenge.inline_message_id is not None:
            await bot.edit_message_text(
                text, inline_message_id=challenge.inline_message_id, reply_markup=None
            )
        else:
            await bot.edit_message_text(
                text, chat_id=challenge.chat_id, message_id=challenge.message_id, reply_markup=None
            )
