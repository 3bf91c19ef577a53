"""A board in a chat the bot writes to (a group, a private chat), as one kept message
(:class:`~bot.messages.kept.KeptMessage`): sent or edited, recorded as the board's message when
sent, its chat followed into a supergroup, not shown once a newer state of its game waits. A
players' board's picture is uploaded each time; a watcher's is drawn once per language, uploaded
once, then sent by its file id. The publisher (:mod:`bot.messages.boards`) says what each shows;
an inline game's board is :mod:`bot.messages.inline`'s."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from aiogram import Bot
from aiogram.types import BufferedInputFile, InlineKeyboardMarkup, InputMediaPhoto, Message

from bot.messages.kept import KeptMessage
from bot.model import BoardMessage
from bot.outbox.session import EditMediaUnread
from bot.services import GameSnapshot
from bot.services.root import Services
from render import FILE_NAME


@dataclass(slots=True)
class Face:
    """A state as the watchers who read one language see it: drawn once, uploaded once, then
    sent by the photo's ``file_id``."""

    caption: str
    picture: bytes
    markup: InlineKeyboardMarkup | None = None
    """A watcher's: the button to the Mini App board."""
    file_id: str | None = None


def _file_id(message: Message) -> str | None:
    """The file id of a sent photo (its largest size), to send it again without uploading."""
    return message.photo[-1].file_id if message.photo else None


class ChatBoard(KeptMessage):
    """A board of a game in a chat the bot writes to: recorded as the board's message when
    sent, its chat followed into a supergroup; not shown once a newer state of the game waits
    (``superseded``)."""

    def __init__(
        self,
        bot: Bot,
        services: Services,
        board: BoardMessage,
        face: Face,
        *,
        what: str,
        superseded: Callable[[], bool],
    ) -> None:
        super().__init__(board.chat_id, board.message_id, what=what)
        self._bot = bot
        self._services = services
        self._game_id = board.game_id
        self._face = face
        self._newer_waits = superseded

    async def sent(self, chat_id: int, message_id: int) -> None:
        await self._services.board_messages.set_board_message(self._game_id, chat_id, message_id)

    async def moved(self, old_chat_id: int, new_chat_id: int) -> None:
        await self._services.chats.move_chat(old_chat_id, new_chat_id)

    def superseded(self) -> bool:
        return self._newer_waits()


class PlayerBoard(ChatBoard):
    """A players' board: its picture, uploaded each time, with its caption and buttons, made by
    ``make`` when the message is sent or edited (the state, its face and its buttons); a
    private chat that refuses the bot marks its user as having blocked it."""

    def __init__(
        self,
        bot: Bot,
        services: Services,
        board: BoardMessage,
        make: Callable[[], Awaitable[tuple[GameSnapshot, Face, InlineKeyboardMarkup]]],
        *,
        superseded: Callable[[], bool],
    ) -> None:
        super().__init__(
            bot,
            services,
            board,
            Face("", b""),
            what=f"game {board.game_id}",
            superseded=superseded,
        )
        self._make = make

    async def send(self, chat_id: int) -> int:
        _state, face, markup = await self._make()
        message = await self._bot.send_photo(
            chat_id,
            BufferedInputFile(face.picture, FILE_NAME),
            caption=face.caption,
            reply_markup=markup,
        )
        return message.message_id

    async def edit(self, chat_id: int, message_id: int) -> None:
        _state, face, markup = await self._make()
        await self._bot(
            EditMediaUnread(
                chat_id=chat_id,
                message_id=message_id,
                media=InputMediaPhoto(
                    media=BufferedInputFile(face.picture, FILE_NAME),
                    caption=face.caption,
                ),
                reply_markup=markup,
            )
        )

    async def forbidden(self, chat_id: int) -> None:
        if chat_id > 0:
            await self._services.users.mark_blocked(chat_id)


class WatcherBoard(ChatBoard):
    """A watcher's board: the state as the watchers who read its language see it (``face``),
    uploaded once, then sent by the photo's file id; a watcher who blocked the bot watches no
    more."""

    def __init__(
        self,
        bot: Bot,
        services: Services,
        board: BoardMessage,
        face: Face,
        *,
        superseded: Callable[[], bool],
    ) -> None:
        super().__init__(
            bot,
            services,
            board,
            face,
            what=f"game {board.game_id} to a watcher",
            superseded=superseded,
        )

    def _media(self) -> str | BufferedInputFile:
        return self._face.file_id or BufferedInputFile(self._face.picture, FILE_NAME)

    async def send(self, chat_id: int) -> int:
        face = self._face
        message = await self._bot.send_photo(
            chat_id, self._media(), caption=face.caption, reply_markup=face.markup
        )
        face.file_id = face.file_id or _file_id(message)
        return message.message_id

    async def edit(self, chat_id: int, message_id: int) -> None:
        face = self._face
        edited = await self._bot.edit_message_media(
            chat_id=chat_id,
            message_id=message_id,
            media=InputMediaPhoto(media=self._media(), caption=face.caption),
            reply_markup=face.markup,
        )
        if isinstance(edited, Message):
            face.file_id = face.file_id or _file_id(edited)

    async def forbidden(self, chat_id: int) -> None:
        await self._services.users.mark_blocked(chat_id)
        await self._services.watchers.unwatch(chat_id, self._game_id)
