"""Challenges: ``/play`` in groups and private chats, their buttons, and invitation links."""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Final

from aiogram import Bot, F, Router, html
from aiogram.enums import ChatType, MessageEntityType
from aiogram.exceptions import (
    TelegramBadRequest,
    TelegramForbiddenError,
    TelegramMigrateToChat,
)
from aiogram.filters import Command, CommandObject, CommandStart
from aiogram.types import (
    BufferedInputFile,
    CallbackQuery,
    ChatMemberBanned,
    ChatMemberLeft,
    ChatMemberRestricted,
    InlineKeyboardMarkup,
    Message,
)
from aiogram.types import User as TgUser
from aiogram.utils.callback_answer import CallbackAnswer
from aiogram.utils.deep_linking import create_start_link
from aiogram.utils.i18n import I18n
from aiogram.utils.i18n import gettext as _

from bot.callbacks import ChallengeAction, ChallengeOption, PlayComputer
from bot.engine import (
    POSITION_ID_LENGTH,
    DiceMode,
    InvalidPositionError,
    Position,
    Side,
    StakeMode,
)
from bot.i18n import current_locale, locale_of
from bot.messages.boards import BoardPublisher
from bot.model import Challenge, ChallengeStatus, User
from bot.numbers import COUNT_DIGITS, parse_number
from bot.services import GameService, Terms
from bot.services.challenges import (
    DEFAULT_LEVEL,
    LEVEL_CHOICES,
    MATCH_CHOICES,
    MemberCheck,
)
from bot.services.chips import STAKE_CHOICES
from bot.services.errors import (
    ChallengeNotFound,
    ForeignButton,
    FromWhat,
    NotAPosition,
    StaleAction,
    TermsChanged,
)
from bot.views.challenges import challenge_keyboard, challenge_text, terms_changed_text
from bot.views.common import SIDE_MARKS, Translate, player_name, translator
from bot.views.texts import DICE_WORDS, VARIANT_WORDS
from render import FILE_NAME, BoardView

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
        CommandStart(deep_link=True, magic=F.args.regexp(rf"^{INVITE_PREFIX}[0-9]+$")),
    )
    play = Command("play", "from")  # /from X: /play from X
    router.message.register(on_play, play, F.chat.type != ChatType.PRIVATE)
    router.message.register(on_play_private, play, F.chat.type == ChatType.PRIVATE)
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


def _words(args: str) -> list[str]:
    return [word.lower() for word in args.split() if not word.startswith("@")]


FROM_WORD: Final = "from"


def _args(command: CommandObject) -> str:
    """The command's words, ``/from X …`` read as ``/play from X …``."""
    args = command.args or ""
    return f"{FROM_WORD} {args}" if command.command.lower() == FROM_WORD else args


async def _start(
    args: str, game_service: GameService, player: User, chat_id: int
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
        _, position = await game_service.replays.position_after(
            game_id, moves, user_id=player.id, chat_id=chat_id
        )
    else:
        raise NotAPosition(text=first)
    return position, " ".join(words[:index] + spec[used:])


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
        chosen = parse_number(following, COUNT_DIGITS)
        if word in LEVEL_WORDS and chosen in LEVEL_CHOICES:
            level = chosen
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
    numbers = [n for word in words if (n := parse_number(word, COUNT_DIGITS)) is not None]
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
    message: Message,
    command: CommandObject,
    game_service: GameService,
    publisher: BoardPublisher,
    player: User,
) -> None:
    """``/play`` in a group: a challenge to the user named (or replied to), or to anyone;
    ``/play bot``: a game with the computer; ``/play from …`` (``/from …``): from a position."""
    start, args = await _start(_args(command), game_service, player, message.chat.id)
    level, words = _computer(_words(args))
    terms = replace(terms_of(words), start=start)
    if level is not None:
        await play_computer(message, player, game_service, level, terms, publisher)
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
        terms=terms,
    )
    await post_challenge(message, challenge, player, game_service, publisher)


async def play_computer(
    message: Message,
    player: User,
    game_service: GameService,
    level: int,
    terms: Terms,
    publisher: BoardPublisher | None = None,
) -> None:
    """Posts a challenge to the computer in the message's chat, for ``player`` to start."""
    challenge = await game_service.challenges.against_computer(
        chat_id=message.chat.id,
        challenger=player,
        level=level,
        locale=current_locale(),
        terms=terms,
    )
    await post_challenge(message, challenge, player, game_service, publisher)


async def on_play_computer_button(
    callback: CallbackQuery, game_service: GameService, player: User
) -> None:
    """ "🤖 Play the computer" under /start or /help: a challenge to the computer, there."""
    if not isinstance(callback.message, Message):
        raise ChallengeNotFound()
    await play_computer(callback.message, player, game_service, DEFAULT_LEVEL, Terms())


async def post_challenge(
    message: Message,
    challenge: Challenge,
    challenger: User,
    game_service: GameService,
    publisher: BoardPublisher | None = None,
) -> Message:
    """Posts the challenge in the message's chat and remembers which message shows it; a
    challenge from a position shows that board first (drawn by ``publisher``)."""
    target = await game_service.users.get(challenge.target_id) if challenge.target_id else None
    if challenge.terms.start is not None and publisher is not None:
        await message.answer_photo(
            await start_picture(publisher, challenge.terms.start, challenger, target, _),
            caption=start_caption(challenge.terms.start, _),
        )
    text, markup = challenge_message(challenge, challenger, target, message.chat.id, _)
    return await _send_shown(
        game_service,
        challenge,
        message.chat.id,
        current_locale(),
        lambda: message.answer(text, reply_markup=markup),
    )


async def _send_shown(
    game_service: GameService,
    challenge: Challenge,
    chat_id: int,
    locale: str,
    send: Callable[[], Awaitable[Message]],
) -> Message:
    """Sends a message of the challenge in ``chat_id`` (written in ``locale``) and records it
    as one of the challenge's, as being sent first: a tap on it that comes before its id is
    recorded counts all the same (see :meth:`~bot.services.challenges.Challenges.show`)."""
    await game_service.challenges.show(challenge, chat_id, None, locale)
    sent = await send()
    await game_service.challenges.show(challenge, chat_id, sent.message_id, locale)
    return sent


def challenge_message(
    challenge: Challenge,
    challenger: User,
    target: User | None,
    chat_id: int,
    _: Translate,
) -> tuple[str, InlineKeyboardMarkup]:
    """The text and buttons of a message that shows ``challenge`` in ``chat_id``: in the
    private chat of the one it challenges, it speaks to them ("you")."""
    addressed = None if target is not None and chat_id == target.id else target
    return (
        challenge_text(challenge, challenger, _, target=addressed),
        challenge_keyboard(challenge, _),
    )


async def on_play_private(
    message: Message,
    command: CommandObject,
    game_service: GameService,
    publisher: BoardPublisher,
    player: User,
    bot: Bot,
    i18n: I18n,
) -> None:
    """``/play @friend`` in a private chat: invites the friend by a private message when the
    bot can write to them, and always gives a link to forward. ``/play`` alone gives a link
    anyone can open. ``/play bot``: a game with the computer, here. ``/play from …``
    (``/from …``): from a position."""
    start, args = await _start(_args(command), game_service, player, message.chat.id)
    level, words = _computer(_words(args))
    terms = replace(terms_of(words), start=start)
    if level is not None:
        await play_computer(message, player, game_service, level, terms, publisher)
        return
    who, username = _target(message, command)
    is_bot = bool(who and who.is_bot)
    username = username or (who.username if who else None)
    if username:
        challenge, reachable = await game_service.challenges.private_invitation(
            challenger=player,
            target_username=username,
            locale=current_locale(),
            terms=terms,
        )
        await _post_with_link(
            message, challenge, player, game_service, publisher, bot, i18n, reachable
        )
        return
    await post_open_challenge(message, player, game_service, publisher, bot, terms, is_bot=is_bot)


async def post_open_challenge(
    message: Message,
    player: User,
    game_service: GameService,
    publisher: BoardPublisher,
    bot: Bot,
    terms: Terms,
    *,
    is_bot: bool = False,
) -> None:
    """A challenge anyone may accept, posted in the message's chat: in a private chat with a
    link to forward."""
    challenge = await game_service.challenges.open(
        chat_id=message.chat.id,
        challenger=player,
        target_is_bot=is_bot,
        locale=current_locale(),
        terms=terms,
    )
    if message.chat.type != ChatType.PRIVATE:
        await post_challenge(message, challenge, player, game_service, publisher)
        return
    await _post_with_link(message, challenge, player, game_service, publisher, bot, None, None)


async def _post_with_link(
    message: Message,
    challenge: Challenge,
    player: User,
    game_service: GameService,
    publisher: BoardPublisher,
    bot: Bot,
    i18n: I18n | None,
    reachable: User | None,
) -> None:
    """Posts a challenge made in a private chat, sends the invitation to ``reachable`` (when
    the bot can write to them) and gives the link to forward."""
    sent = await post_challenge(message, challenge, player, game_service, publisher)
    link = await create_start_link(bot, f"{INVITE_PREFIX}{challenge.id}")
    if (
        reachable is not None
        and i18n is not None
        and await send_invitation(bot, i18n, game_service, challenge, player, reachable, publisher)
    ):
        note = _("I have sent the invitation to {name}. You can also forward this link: {link}")
        await sent.reply(note.format(name=player_name(reachable), link=link))
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
    publisher: BoardPublisher | None = None,
) -> bool:
    """Sends the challenge to ``to`` in their private chat, in their language (the board it
    starts from first, for a challenge from a position); returns False (and remembers it) when
    they have blocked the bot."""
    locale = locale_of(to)
    their = translator(i18n, locale)
    try:
        if challenge.terms.start is not None and publisher is not None:
            await bot.send_photo(
                to.id,
                await start_picture(publisher, challenge.terms.start, challenger, to, their),
                caption=start_caption(challenge.terms.start, their),
            )
        text, markup = challenge_message(challenge, challenger, to, to.id, their)
        await _send_shown(
            game_service,
            challenge,
            to.id,
            locale,
            lambda: bot.send_message(to.id, text, reply_markup=markup),
        )
    except TelegramForbiddenError:
        await game_service.users.mark_blocked(to.id)
        return False
    return True


async def on_start_invitation(
    message: Message,
    command: CommandObject,
    game_service: GameService,
    publisher: BoardPublisher,
    player: User,
    bot: Bot,
) -> None:
    """``/start c<id>`` from an invitation link: shows the challenge with its buttons (a
    group's challenge only to the group's members)."""
    challenge_id = parse_number((command.args or "").removeprefix(INVITE_PREFIX))
    try:
        if challenge_id is None:
            raise ChallengeNotFound()
        challenge = await game_service.challenges.get(challenge_id)
    except ChallengeNotFound:
        await message.answer(_("This challenge does not exist."))
        return
    challenger = await game_service.users.get(challenge.challenger_id)
    if not challenge.is_open or challenger is None:
        await message.answer(_("This challenge is closed: accepted, declined or expired."))
        return
    await game_service.challenges.check_member(
        challenge, player.id, where=message.chat.id, is_member=member_check(bot)
    )
    if challenge.terms.start is not None:
        await message.answer_photo(
            await start_picture(publisher, challenge.terms.start, challenger, player, _),
            caption=start_caption(challenge.terms.start, _),
        )
    target = await game_service.users.get(challenge.target_id) if challenge.target_id else None
    text, markup = challenge_message(challenge, challenger, target, message.chat.id, _)
    await _send_shown(
        game_service,
        challenge,
        message.chat.id,
        current_locale(),
        lambda: message.answer(text, reply_markup=markup),
    )


def member_check(bot: Bot) -> MemberCheck:
    """Whether a user is a member of a group now, as Telegram's getChatMember says (one who
    left or was banned is not; a restricted one is while still in the group). A user Telegram
    does not know there, a group the bot is no longer in, or one that has become a supergroup
    since, counts as not a member."""

    async def is_member(chat_id: int, user_id: int) -> bool:
        try:
            member = await bot.get_chat_member(chat_id, user_id)
        except (TelegramBadRequest, TelegramForbiddenError, TelegramMigrateToChat):
            return False
        if isinstance(member, ChatMemberRestricted):
            return member.is_member
        return not isinstance(member, ChatMemberLeft | ChatMemberBanned)

    return is_member


async def on_challenge_button(
    callback: CallbackQuery,
    callback_data: ChallengeAction,
    game_service: GameService,
    publisher: BoardPublisher,
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
    await game_service.challenges.check_shown(challenge_id, message.chat.id, message.message_id)
    challenges, where, is_member = game_service.challenges, message.chat.id, member_check(bot)
    try:
        if option is ChallengeOption.ACCEPT:
            # the tap's id, which nobody knew before it, is the client value of the game's dice
            challenge, snapshot = await challenges.accept(
                challenge_id,
                player,
                version,
                where=where,
                is_member=is_member,
                dice_client=callback.id,
            )
            await close_challenge_messages(bot, challenge, game_service, i18n)
            publisher.publish(snapshot)
            return
        if option is ChallengeOption.DECLINE:
            challenge = await challenges.decline(
                challenge_id, player.id, version, where=where, is_member=is_member
            )
            await close_challenge_messages(bot, challenge, game_service, i18n)
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
    await show_challenge_messages(bot, challenge, game_service, i18n)


async def show_challenge_messages(
    bot: Bot, challenge: Challenge, game_service: GameService, i18n: I18n
) -> None:
    """Edits every message of the open challenge to show its terms now, with buttons for its
    version."""
    found = await game_service.users.get(challenge.challenger_id)
    if found is None:
        return
    challenger: User = found
    target = await game_service.users.get(challenge.target_id) if challenge.target_id else None

    def draw(chat_id: int, _: Translate) -> tuple[str, InlineKeyboardMarkup | None]:
        return challenge_message(challenge, challenger, target, chat_id, _)

    await _edit_messages(bot, challenge, game_service, i18n, draw)


async def _edit_messages(
    bot: Bot,
    challenge: Challenge,
    game_service: GameService,
    i18n: I18n,
    draw: Callable[[int, Translate], tuple[str, InlineKeyboardMarkup | None]],
) -> None:
    """Edits every message of the challenge to what ``draw`` gives for its chat, in its own
    language. A message that is gone or unchanged is left alone."""
    for shown in await game_service.challenges.messages(challenge.id):
        text, markup = draw(shown.chat_id, translator(i18n, shown.locale))
        with contextlib.suppress(TelegramBadRequest, TelegramForbiddenError):
            await bot.edit_message_text(
                text, chat_id=shown.chat_id, message_id=shown.message_id, reply_markup=markup
            )


async def _names(challenge: Challenge, game_service: GameService) -> tuple[str, str]:
    challenger = await game_service.users.get(challenge.challenger_id)
    target = await game_service.users.get(challenge.target_id) if challenge.target_id else None
    return (
        player_name(challenger) if challenger else "?",
        player_name(target) if target else "?",
    )


def closed_text(challenge: Challenge, names: tuple[str, str], _: Translate) -> str:
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
    bot: Bot, challenge: Challenge, game_service: GameService, i18n: I18n
) -> None:
    """Edits every message of the challenge (an inline invitation's by its inline message), each
    in its own language, to say how it closed, without buttons. A message that is gone or
    unchanged is left alone."""
    names = await _names(challenge, game_service)
    if challenge.inline_message_id is not None:
        text = closed_text(challenge, names, translator(i18n, challenge.locale))
        with contextlib.suppress(TelegramBadRequest, TelegramForbiddenError):
            await bot.edit_message_text(
                text, inline_message_id=challenge.inline_message_id, reply_markup=None
            )
    await _edit_messages(
        bot,
        challenge,
        game_service,
        i18n,
        lambda _chat, _: (closed_text(challenge, names, _), None),
    )


async def start_picture(
    publisher: BoardPublisher,
    start: Position,
    challenger: User,
    other: User | None,
    _: Translate,
) -> BufferedInputFile:
    """The board a challenge starts from, drawn on the publisher's drawing thread: the
    challenger's side (the side to move) at the bottom, with the names known."""
    names = {start.turn: challenger.mention, start.turn.other: other.mention if other else ""}
    view = BoardView(
        bottom=start.turn,
        white_name=names[Side.WHITE],
        black_name=names[Side.BLACK],
        pip_label=_("pips"),
    )
    return BufferedInputFile(await publisher.draw(start, view), FILE_NAME)


def start_caption(start: Position, _: Translate) -> str:
    """The caption of the board a challenge starts from: its ID, to copy."""
    return "▶ " + _("The game starts here: position {id}, {mark} to move.").format(
        id=html.code(start.to_id()), mark=SIDE_MARKS[start.turn]
    )
