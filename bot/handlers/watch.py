"""Watching a game between private chats: ``/start w<id>`` from a Watch link, ``/unwatch``.

A refusal (no such game, a group's game, one's own, a private one, one that is over, one with
as many watchers as it may have) is one reply and changes nothing. A watcher's board is sent by
the publisher, at the watchers' pace, and follows the game to its end.
"""

from __future__ import annotations

from aiogram import F, Router
from aiogram.enums import ChatType
from aiogram.filters import Command, CommandObject, CommandStart
from aiogram.types import Message
from aiogram.utils.i18n import gettext as _

from bot.messages.boards import BoardPublisher
from bot.model import User
from bot.numbers import parse_number
from bot.services import GameService, Lobby, Watchers
from bot.services.errors import GameFinished, GameNotFound
from bot.views.boards import WATCH_PREFIX, result_line


def create_router() -> Router:
    """Returns a new router with the watching handlers."""
    router = Router(name=__name__)
    router.message.register(
        on_start_watching,
        CommandStart(deep_link=True, magic=F.args.regexp(rf"^{WATCH_PREFIX}[0-9]+$")),
    )
    router.message.register(on_unwatch, Command("unwatch"))
    return router


async def on_start_watching(
    message: Message,
    command: CommandObject,
    game_service: GameService,
    lobby: Lobby,
    publisher: BoardPublisher,
    player: User,
) -> None:
    """``/start w<id>``: the user becomes a watcher of the game, with its board in this private
    chat at once; a second time changes nothing. A finished game is refused with its result."""
    if message.chat.type != ChatType.PRIVATE:
        await message.answer(_("Watching works in a private chat with me: open the link there."))
        return
    game_id = parse_number((command.args or "").removeprefix(WATCH_PREFIX))
    if game_id is None:
        raise GameNotFound()
    try:
        snapshot, added = await lobby.watch(game_id, player.id)
    except GameFinished:
        over = await game_service.snapshot(game_id)
        await message.answer(result_line(over, _) + " " + _("Nothing is left to watch."))
        return
    if not added:
        await message.answer(
            _("You are watching game #{game} already: its board is in this chat.").format(
                game=game_id
            )
        )
        return


async def on_unwatch(
    message: Message, command: CommandObject, watchers: Watchers, player: User
) -> None:
    """``/unwatch``: stops watching every game; ``/unwatch 12``: game #12 only. The boards keep
    the last state they showed."""
    words = (command.args or "").split()
    number = parse_number(words[0].lstrip("#")) if len(words) == 1 else None
    if words and number is None:
        await message.answer(
            _("Send /unwatch to stop watching every game, or /unwatch 12 for game #12.")
        )
        return
    stopped = await watchers.unwatch(player.id, number)
    if stopped:
        games = ", ".join(f"#{game}" for game in stopped)
        await message.answer(_("You no longer watch: {games}.").format(games=games))
    elif number is not None:
        await message.answer(_("You are not watching game #{game}.").format(game=number))
    else:
        await message.answer(_("You are not watching any game."))
