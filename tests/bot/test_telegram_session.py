"""The bot's HTTP session sends an upload held in memory as one body, and Telegram reads from it
what it reads from aiogram's own session."""

from __future__ import annotations

import contextvars
import json
from collections.abc import AsyncIterator
from io import BytesIO
from typing import Any

import pytest
from aiogram import Bot
from aiogram.client.default import DefaultBotProperties
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.telegram import TelegramAPIServer
from aiogram.enums import ParseMode
from aiogram.exceptions import ClientDecodeError, TelegramBadRequest
from aiogram.methods import SendDocument
from aiogram.types import (
    BufferedInputFile,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InputMediaPhoto,
)
from aiohttp.payload import BytesPayload
from PIL import Image

from bot.outbox.session import TelegramSession
from tests.support.fake_telegram import FakeChat, FakeMessage, FakeTelegram

SESSIONS = {"aiogram": AiohttpSession, "bot": TelegramSession}


def jpeg(colour: str) -> bytes:
    buffer = BytesIO()
    Image.new("RGB", (48, 32), colour).save(buffer, format="JPEG")
    return buffer.getvalue()


@pytest.fixture
async def bots(fake_telegram: FakeTelegram) -> AsyncIterator[dict[str, Bot]]:
    made = {
        name: Bot(
            fake_telegram.token,
            session=session(api=TelegramAPIServer.from_base(fake_telegram.url)),
            default=DefaultBotProperties(parse_mode=ParseMode.HTML),
        )
        for name, session in SESSIONS.items()
    }
    yield made
    for bot in made.values():
        await bot.session.close()


def upload(data: bytes | None) -> tuple[bytes, object, object]:
    """What the server kept of an uploaded file: its bytes, and the name and type of its part."""
    return bytes(data or b""), getattr(data, "filename", None), getattr(data, "content_type", None)


def shown(
    message: FakeMessage,
) -> tuple[str | None, tuple[bytes, object, object], list[tuple[str, str | None]]]:
    return (
        message.caption,
        upload(message.photo),
        [(b.text, b.callback_data) for b in message.buttons],
    )


async def test_an_upload_arrives_as_aiogram_sends_it(
    bots: dict[str, Bot], fake_telegram: FakeTelegram
) -> None:
    alice = fake_telegram.create_user("Alice")
    chat: FakeChat = fake_telegram.private_chat(alice)
    fake_telegram.send_text(alice, chat, "/start")
    caption = '<b>Ход 12</b> "24→13" \\ ⚪ @alice'
    markup = InlineKeyboardMarkup(
        inline_keyboard=[[InlineKeyboardButton(text="✅ Confirm", callback_data="g:1:2:1:0")]]
    )
    results = {}
    for name, bot in bots.items():
        sent = await bot.send_photo(
            chat.id, BufferedInputFile(jpeg("red"), "board.jpg"), caption=caption
        )
        await bot.edit_message_media(
            chat_id=chat.id,
            message_id=sent.message_id,
            media=InputMediaPhoto(
                media=BufferedInputFile(jpeg("blue"), 'board "2".jpg'), caption=caption
            ),
            reply_markup=markup,
        )
        document = await bot.send_document(
            chat.id, BufferedInputFile(b"1. 24/18 18/13\n", "партия-1.txt")
        )
        results[name] = (
            shown(fake_telegram.message(chat, sent.message_id)),
            upload(fake_telegram.message(chat, document.message_id).document),
        )
    assert results["bot"] == results["aiogram"]
    (caption_shown, photo, _), (_, file_name, content_type) = results["bot"]
    assert caption_shown == 'Ход 12 "24→13" \\ ⚪ @alice' and photo[1] == 'board "2".jpg'
    assert (file_name, content_type) == ("партия-1.txt", "application/octet-stream")


async def test_an_upload_in_memory_is_one_payload_of_known_length(
    bots: dict[str, Bot],
) -> None:
    bot = bots["bot"]
    method = SendDocument(chat_id=1, document=BufferedInputFile(b"moves", "moves.txt"))
    session = bot.session
    assert isinstance(session, AiohttpSession)
    body = session.build_form_data(bot, method)()
    assert isinstance(body, BytesPayload) and body.size is not None  # no chunked encoding


async def test_a_pressed_messages_buttons_are_left_out_of_the_update_but_the_first(
    bots: dict[str, Bot], fake_telegram: FakeTelegram
) -> None:
    alice = fake_telegram.create_user("Alice")
    chat = fake_telegram.private_chat(alice)
    fake_telegram.send_text(alice, chat, "/start")
    markup = InlineKeyboardMarkup(
        inline_keyboard=[[InlineKeyboardButton(text=f"{n}-3", callback_data=f"g:1:2:1:{n}")]
                         for n in range(6)]
    )  # fmt: skip
    sent = await bots["bot"].send_message(chat.id, "the board", reply_markup=markup)
    fake_telegram.tap(alice, fake_telegram.message(chat, sent.message_id), "g:1:2:1:4")
    fake_telegram.send_text(alice, chat, "/score")
    read = {name: await bot.get_updates(timeout=0) for name, bot in bots.items()}  # unconfirmed
    _, press, text = read["bot"]
    assert press.callback_query is not None and press.callback_query.data == "g:1:2:1:4"
    pressed = press.callback_query.message
    assert pressed is not None and pressed.message_id == sent.message_id
    kept = getattr(pressed, "reply_markup", None)  # the first button: what the message is
    assert isinstance(kept, InlineKeyboardMarkup)
    assert [[b.callback_data for b in row] for row in kept.inline_keyboard] == [["g:1:2:1:0"]]
    assert text.message is not None and text.message.text == "/score"
    # aiogram's own session reads the buttons: everything else is the same
    theirs = read["aiogram"][1].callback_query
    assert theirs is not None and theirs.message is not None
    their_markup = getattr(theirs.message, "reply_markup", None)
    assert isinstance(their_markup, InlineKeyboardMarkup)
    assert [b.callback_data for [b] in their_markup.inline_keyboard] == [
        f"g:1:2:1:{n}" for n in range(6)
    ]
    assert [u.model_dump(exclude={"callback_query": {"message": {"reply_markup"}}})
            for u in read["bot"]] == [
        u.model_dump(exclude={"callback_query": {"message": {"reply_markup"}}})
        for u in read["aiogram"]
    ]  # fmt: skip


def test_an_inline_keyboard_is_sent_as_aiogram_writes_it(bots: dict[str, Bot]) -> None:
    markup = InlineKeyboardMarkup(
        inline_keyboard=[
            [InlineKeyboardButton(text="13-7 «8-2»", callback_data="g:1:2:8:0")],
            [
                InlineKeyboardButton(text="🔗 Watch", url="https://t.me/nardy_bot?start=w5"),
                InlineKeyboardButton(text="↪ Play", switch_inline_query_current_chat="нарды"),
            ],
        ]
    )
    method = SendDocument(chat_id=1, document="file-id", reply_markup=markup)
    written = {}
    for name, bot in bots.items():
        session = bot.session
        assert isinstance(session, AiohttpSession)
        form = session.build_form_data(bot, method)
        written[name] = {part["name"]: value for part, _, value in form._fields}
    assert written["bot"]["reply_markup"] == written["aiogram"]["reply_markup"]


def test_answers_are_read_as_aiogram_reads_them_with_each_type_built_once(
    bots: dict[str, Bot],
) -> None:
    """A success reads to what aiogram's session reads, with one ``Response`` class for each
    result type, even from tasks whose contexts began empty (pydantic's own cache of those
    classes lives in the context: there each answer built a class again); an error is aiogram's
    error."""
    method = SendDocument(chat_id=1, document="file-id")
    sent = {"message_id": 7, "date": 0, "chat": {"id": 1, "type": "private"}}
    answer = json.dumps({"ok": True, "result": sent})
    read: dict[str, list[Any]] = {}
    for name, bot in bots.items():
        read[name] = [
            contextvars.Context().run(bot.session.check_response, bot, method, 200, answer)
            for _ in range(2)
        ]
    ours, theirs = read["bot"], read["aiogram"]
    assert [r.model_dump() for r in ours] == [r.model_dump() for r in theirs]
    assert type(ours[0]) is type(ours[1])
    assert type(theirs[0]) is not type(theirs[1])  # aiogram builds one for each answer
    refused = json.dumps({"ok": False, "error_code": 400, "description": "Bad Request: no"})
    for bot in bots.values():
        with pytest.raises(TelegramBadRequest, match="no"):
            bot.session.check_response(bot, method, 400, refused)
        with pytest.raises(ClientDecodeError):
            bot.session.check_response(bot, method, 200, "<html>")
