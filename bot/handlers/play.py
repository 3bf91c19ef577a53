"""Playing: taps on a board, ``/quick``, ``/resign`` with its confirmation, and Rematch."""

from __future__ import annotations

from aiogram import Bot, F, Router
from aiogram.enums import ChatType
from aiogram.filters import Command, CommandObject
from aiogram.types import CallbackQuery, Message
from aiogram.utils.callback_answer import CallbackAnswer
from aiogram.utils.i18n import I18n
from aiogram.utils.i18n import gettext as _
from aiogram.utils.keyboard import InlineKeyboardBuilder

from bot.callbacks import GameButton, NextGame, Rematch, ResignAction
from bot.i18n import current_locale
from bot.messages.boards import BoardPublisher
from bot.messages.challenges import post_rematch
from bot.model import User
from bot.outbox import Outbox
from bot.services import BoardMessages, Challenges, GameService, Users
from bot.services.actions import GameAction, GameActions, Hinted, RematchOffered, Request
from bot.services.errors import (
    ForeignButton,
    NotAPlayer,
    NotYourQuestion,
    StaleAction,
    Watching,
)
from bot.views.boards import hint_text
from bot.views.common import player_name
from bot.views.progress import board_link, games_text


def create_router() -> Router:
    """Returns a new router with the game handlers."""
    router = Router(name=__name__)
    # an inline game's board first: the taps on inline messages that the inline router leaves
    router.callback_query.register(on_inline_game_button, F.inline_message_id, GameButton.filter())
    router.callback_query.register(on_game_button, GameButton.filter())
    router.message.register(on_quick, Command("quick"))
    router.message.register(on_resign, Command("resign"))
    router.message.register(on_games, Command("games"))
    router.callback_query.register(on_resign_answer, ResignAction.filter())
    router.callback_query.register(on_rematch, Rematch.filter())
    router.callback_query.register(on_next_game, NextGame.filter())
    return router


async def on_games(
    message: Message, game_service: GameService, board_messages: BoardMessages, player: User
) -> None:
    """``/games``: the player's games in progress anywhere, with links to their boards."""
    found = []
    for stored in await game_service.active_games(player.id):
        boards = await board_messages.boards(stored.id)
        link = next((url for board in boards if (url := board_link(board))), None)
        found.append((await game_service.snapshot_of(stored), link))
    await message.answer(games_text(found, player, _), disable_web_page_preview=True)


async def on_game_button(
    callback: CallbackQuery,
    callback_data: GameButton,
    game_actions: GameActions,
    game_service: GameService,
    board_messages: BoardMessages,
    publisher: BoardPublisher,
    player: User,
    callback_answer: CallbackAnswer,
) -> None:
    """A board's button (:data:`~bot.callbacks.BUTTON_ACTIONS`): a step, a whole-turn button,
    Undo, Confirm, a cube action, a strike or 💡. A stale press hands the current state to the
    publisher, which edits only a board that does not show it yet (the bot stopped before it
    could edit it): a board that is current is left alone. A hint is an alert and changes
    nothing."""
    game_id, version = callback_data.game, callback_data.version
    await check_board(callback, board_messages, game_id)
    request = Request(game_id, player.id, callback_data.action, version, callback_data.arg)
    try:
        outcome = await game_actions.perform(request)
    except StaleAction:
        current = await game_service.snapshot(game_id)
        if current.stored.version > version:
            publisher.publish(current)
        raise
    if isinstance(outcome, Hinted):
        callback_answer.text = hint_text(outcome.hint, outcome.tapped, _)
        callback_answer.show_alert = True


async def on_inline_game_button(
    callback: CallbackQuery,
    callback_data: GameButton,
    game_actions: GameActions,
    game_service: GameService,
    board_messages: BoardMessages,
    publisher: BoardPublisher,
    player: User,
    callback_answer: CallbackAnswer,
) -> None:
    """A tap on an inline game's board: played as on a group's board; someone who does not
    play is told they watch."""
    try:
        await on_game_button(
            callback,
            callback_data,
            game_actions,
            game_service,
            board_messages,
            publisher,
            player,
            callback_answer,
        )
    except NotAPlayer:
        raise Watching() from None


async def check_board(callback: CallbackQuery, board_messages: BoardMessages, game_id: int) -> None:
    """Makes sure the tap came from a board of game ``game_id`` (see
    :meth:`BoardMessages.check_board`, which also adopts a board whose sending got no answer).

    :raises: :exc:`ForeignButton` otherwise: the buttons of one game count only on its boards.
    """
    message = callback.message
    if callback.inline_message_id is not None:  # an inline game's board
        await board_messages.check_board(
            game_id, 0, None, inline_message_id=callback.inline_message_id
        )
    elif message is not None:
        photo = isinstance(message, Message) and bool(message.photo)  # a board is a photo
        await board_messages.check_board(game_id, message.chat.id, message.message_id, photo=photo)
    else:
        raise ForeignButton()


async def on_quick(message: Message, command: CommandObject, users: Users, player: User) -> None:
    """``/quick`` turns quick mode on (``/quick off`` turns it off): the tap that completes a
    turn confirms it, one board edit less per turn, no Undo after that tap."""
    quick = (command.args or "").strip().lower() not in {"off", "выкл", "0", "no", "нет"}
    await users.set_quick(player.id, quick)
    if quick:
        text = _(
            "⚡ Quick mode is on: the tap that completes your turn also confirms it. "
            "Send /quick off to confirm each turn yourself."
        )
    else:
        text = _("Quick mode is off: you confirm each turn with ✅ Confirm (and can Undo first).")
    await message.answer(text)


async def on_resign(
    message: Message, game_service: GameService, users: Users, player: User
) -> None:
    """``/resign``: asks to confirm resigning the player's game in this chat; in the private
    chat with the bot also an inline game (the bot cannot read the chat it is played in)."""
    chat = message.chat.id
    games = await game_service.active_games(player.id, chat)
    if not games and message.chat.type == ChatType.PRIVATE:
        games = [g for g in await game_service.active_games(player.id) if g.chat_instance]
    if not games:
        await message.answer(_("You have no game in progress here."))
        return
    stored = games[0]
    opponent_id = stored.black_id if stored.white_id == player.id else stored.white_id
    opponent = await users.get(opponent_id)
    points = stored.game.rules.resign * stored.game.cube_value
    builder = InlineKeyboardBuilder()
    for sure, text in ((True, "🏳 " + _("Yes, resign")), (False, _("No, play on"))):
        answer = ResignAction(game=stored.id, user=player.id, asked=message.message_id, sure=sure)
        builder.button(text=text, callback_data=answer)
    await message.reply(
        _("Resign game #{game} against {name}? You lose {points} pt.").format(
            game=stored.id,
            name=player_name(opponent, _) if opponent else "?",
            points=points,
        ),
        reply_markup=builder.as_markup(),
    )


async def on_resign_answer(
    callback: CallbackQuery,
    callback_data: ResignAction,
    game_actions: GameActions,
    game_service: GameService,
    player: User,
) -> None:
    """The answer to the resign question, on the question itself (the reply to the asking
    player's ``/resign`` that the answer names); only the player who asked may give it (the
    asker's id in the button is checked against the game's players too: anybody can put theirs
    in)."""
    message = callback.message
    if not isinstance(message, Message) or not _asks(message, callback_data):
        raise ForeignButton()  # on another message, which it must not overwrite
    if callback_data.user != player.id:
        raise NotYourQuestion()
    if (await game_service.snapshot(callback_data.game)).stored.side_of(player.id) is None:
        raise NotAPlayer()
    if callback_data.sure:
        await game_actions.perform(Request(callback_data.game, player.id, GameAction.RESIGN))
    text = _("You resigned.") if callback_data.sure else _("Game on!")
    await message.edit_text(text, reply_markup=None)


def _asks(question: Message, answer: ResignAction) -> bool:
    """Whether ``question`` is the reply to the ``/resign`` that ``answer`` was drawn for."""
    asked = question.reply_to_message
    return (
        asked is not None
        and asked.message_id == answer.asked
        and asked.from_user is not None
        and asked.from_user.id == answer.user
    )


async def on_rematch(
    callback: CallbackQuery,
    callback_data: Rematch,
    game_actions: GameActions,
    board_messages: BoardMessages,
    outbox: Outbox,
    users: Users,
    challenges: Challenges,
    player: User,
    bot: Bot,
    i18n: I18n,
) -> None:
    """🔁 Rematch, on the finished game's board: a new challenge to the same opponent with the
    same options, posted where the board is (the Mini App board's Rematch does the same)."""
    await check_board(callback, board_messages, callback_data.game)
    request = Request(callback_data.game, player.id, GameAction.REMATCH, locale=current_locale())
    outcome = await game_actions.perform(request)
    assert isinstance(outcome, RematchOffered)
    await post_rematch(bot, i18n, users, challenges, outbox, outcome.challenge)


async def on_next_game(
    callback: CallbackQuery,
    callback_data: NextGame,
    game_actions: GameActions,
    board_messages: BoardMessages,
    player: User,
) -> None:
    """Next game of a match: either player starts it; the new game gets new board messages
    and the finished game's boards keep only their 📊 Analysis and 🎞 Replay buttons (the
    boards hear of the new game from the change feed)."""
    await check_board(callback, board_messages, callback_data.game)
    request = Request(callback_data.game, player.id, GameAction.NEXT_GAME, dice_client=callback.id)
    await game_actions.perform(request)
