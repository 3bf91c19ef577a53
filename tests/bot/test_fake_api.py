"""The fake Bot API server behaves like Telegram for aiogram's real Bot and HTTP session."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from io import BytesIO

import pytest
from aiogram import Bot
from aiogram.client.default import DefaultBotProperties
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.telegram import TelegramAPIServer
from aiogram.enums import ChatMemberStatus, ParseMode
from aiogram.exceptions import (
    TelegramBadRequest,
    TelegramConflictError,
    TelegramForbiddenError,
    TelegramMigrateToChat,
    TelegramNotFound,
    TelegramRetryAfter,
    TelegramServerError,
    TelegramUnauthorizedError,
)
from aiogram.types import (
    BotCommand,
    BotCommandScopeChat,
    BufferedInputFile,
    ChatMemberAdministrator,
    ChatMemberLeft,
    ChatMemberMember,
    ChatMemberOwner,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InputMediaPhoto,
    Message,
    ReplyParameters,
)
from aiohttp import FormData, web
from PIL import Image

from tests.support.fake_telegram import SECRET_HEADER, FakeChat, FakeTelegram, FakeUser
from tests.support.telegram_html import parse_html


def png(width: int = 40, height: int = 30, colour: str = "red") -> bytes:
    buffer = BytesIO()
    Image.new("RGB", (width, height), colour).save(buffer, format="PNG")
    return buffer.getvalue()


def keyboard(*labels: str) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(
        inline_keyboard=[[InlineKeyboardButton(text=t, callback_data=t.lower()) for t in labels]]
    )


def make_bot(fake: FakeTelegram, token: str | None = None) -> Bot:
    return Bot(
        token or fake.token,
        session=AiohttpSession(api=TelegramAPIServer.from_base(fake.url)),
        default=DefaultBotProperties(parse_mode=ParseMode.HTML),
    )


@pytest.fixture
async def bot(fake_telegram: FakeTelegram) -> AsyncIterator[Bot]:
    bot = make_bot(fake_telegram)
    yield bot
    await bot.session.close()


@pytest.fixture
def alice(fake_telegram: FakeTelegram) -> FakeUser:
    return fake_telegram.create_user("Alice", language_code="ru", username="alice_nardy")


@pytest.fixture
def alice_chat(fake_telegram: FakeTelegram, alice: FakeUser) -> FakeChat:
    chat = fake_telegram.private_chat(alice)
    fake_telegram.send_text(alice, chat, "/start")  # the user opened the chat
    return chat


async def test_get_me_describes_the_bot(bot: Bot, fake_telegram: FakeTelegram) -> None:
    me = await bot.get_me()
    assert (me.id, me.username, me.is_bot) == (123456, "nardy_test_bot", True)


async def test_wrong_token_is_unauthorized(fake_telegram: FakeTelegram) -> None:
    stranger = make_bot(fake_telegram, token="654321:wrong")
    try:
        with pytest.raises(TelegramUnauthorizedError):
            await stranger.get_me()
    finally:
        await stranger.session.close()


async def test_send_message_parses_html_and_stores_keyboard(
    bot: Bot, fake_telegram: FakeTelegram, alice_chat: FakeChat
) -> None:
    sent = await bot.send_message(
        alice_chat.id, "<b>Your move</b> &amp; more", reply_markup=keyboard("Roll", "Resign")
    )
    assert sent.text == "Your move & more"
    assert sent.entities is not None and sent.entities[0].type == "bold"
    stored = fake_telegram.last_message(alice_chat)
    assert stored.message_id == sent.message_id and stored.text == "Your move & more"
    assert [(b.text, b.callback_data) for b in stored.buttons] == [
        ("Roll", "roll"),
        ("Resign", "resign"),
    ]
    assert stored.button("Res").callback_data == "resign"
    request = fake_telegram.requests_for("sendMessage")[-1]
    assert request.params["reply_markup"]["inline_keyboard"][0][0]["text"] == "Roll"


async def test_bad_html_and_long_callback_data_are_refused(bot: Bot, alice_chat: FakeChat) -> None:
    with pytest.raises(TelegramBadRequest, match="can't parse entities"):
        await bot.send_message(alice_chat.id, "Hello, <Bob>!")
    too_long = InlineKeyboardMarkup(
        inline_keyboard=[[InlineKeyboardButton(text="x", callback_data="x" * 65)]]
    )
    with pytest.raises(TelegramBadRequest, match="BUTTON_DATA_INVALID"):
        await bot.send_message(alice_chat.id, "board", reply_markup=too_long)


def test_html_entities_use_utf16_offsets() -> None:
    text, entities = parse_html('🎲 <i>x</i> <a href="https://t.me">t</a>')
    assert text == "🎲 x t"
    assert entities == [
        {"type": "italic", "offset": 3, "length": 1},
        {"type": "text_link", "offset": 5, "length": 1, "url": "https://t.me"},
    ]


async def test_photo_upload_and_media_edit_keep_bytes(
    bot: Bot, fake_telegram: FakeTelegram, alice_chat: FakeChat
) -> None:
    first, second = png(colour="red"), png(60, 50, "blue")
    sent = await bot.send_photo(
        alice_chat.id,
        BufferedInputFile(first, "board.png"),
        caption="<b>Move 1</b>",
        reply_markup=keyboard("Roll"),
    )
    assert sent.photo is not None and (sent.photo[-1].width, sent.photo[-1].height) == (40, 30)
    stored = fake_telegram.message(alice_chat, sent.message_id)
    assert stored.photo == first and stored.caption == "Move 1"

    edited = await bot.edit_message_media(
        media=InputMediaPhoto(media=BufferedInputFile(second, "board.png"), caption="Move 2"),
        chat_id=alice_chat.id,
        message_id=sent.message_id,
        reply_markup=keyboard("Pass"),
    )
    assert not isinstance(edited, bool) and edited.caption == "Move 2"
    assert stored.photo == second and stored.photo_size == (60, 50) and stored.edit_count == 1
    assert [b.text for b in stored.buttons] == ["Pass"]

    # Re-sending a known file_id reuses the stored bytes.
    assert edited.photo is not None
    again = await bot.send_photo(alice_chat.id, edited.photo[-1].file_id)
    assert fake_telegram.message(alice_chat, again.message_id).photo == second

    await bot.edit_message_caption(
        chat_id=alice_chat.id, message_id=sent.message_id, caption="Move 2, <i>black</i>"
    )
    assert stored.caption == "Move 2, black" and stored.buttons == []  # no markup: removed


async def test_broken_image_is_refused(bot: Bot, alice_chat: FakeChat) -> None:
    with pytest.raises(TelegramBadRequest, match="IMAGE_PROCESS_FAILED"):
        await bot.send_photo(alice_chat.id, BufferedInputFile(b"not a png", "board.png"))


async def test_edit_with_same_content_is_not_modified(
    bot: Bot, fake_telegram: FakeTelegram, alice_chat: FakeChat
) -> None:
    sent = await bot.send_message(alice_chat.id, "Board", reply_markup=keyboard("A"))
    with pytest.raises(TelegramBadRequest, match="message is not modified"):
        await bot.edit_message_text(
            "Board", chat_id=alice_chat.id, message_id=sent.message_id, reply_markup=keyboard("A")
        )
    with pytest.raises(TelegramBadRequest, match="message is not modified"):
        await bot.edit_message_reply_markup(
            chat_id=alice_chat.id, message_id=sent.message_id, reply_markup=keyboard("A")
        )
    await bot.edit_message_reply_markup(
        chat_id=alice_chat.id, message_id=sent.message_id, reply_markup=keyboard("B")
    )
    # editMessageText without reply_markup removes the keyboard, as Telegram does.
    await bot.edit_message_text("Board", chat_id=alice_chat.id, message_id=sent.message_id)
    stored = fake_telegram.message(alice_chat, sent.message_id)
    assert stored.buttons == [] and stored.edit_count == 2


async def test_unknown_messages_cannot_be_edited_or_deleted(
    bot: Bot, fake_telegram: FakeTelegram, alice_chat: FakeChat
) -> None:
    with pytest.raises(TelegramBadRequest, match="message to edit not found"):
        await bot.edit_message_text("x", chat_id=alice_chat.id, message_id=999)
    with pytest.raises(TelegramBadRequest, match="message to delete not found"):
        await bot.delete_message(alice_chat.id, 999)
    sent = await bot.send_message(alice_chat.id, "bye")
    assert await bot.delete_message(alice_chat.id, sent.message_id)
    assert fake_telegram.message(alice_chat, sent.message_id).deleted
    with pytest.raises(TelegramBadRequest, match="message to edit not found"):
        await bot.edit_message_text("x", chat_id=alice_chat.id, message_id=sent.message_id)
    user_message = fake_telegram.last_message(alice_chat, from_bot=False)
    with pytest.raises(TelegramBadRequest, match="message can't be edited"):
        await bot.edit_message_text("x", chat_id=alice_chat.id, message_id=user_message.message_id)


async def test_injected_flood_wait_then_recovery(
    bot: Bot, fake_telegram: FakeTelegram, alice_chat: FakeChat
) -> None:
    fake_telegram.flood_next("sendMessage", retry_after=7, times=2)
    for _ in range(2):
        with pytest.raises(TelegramRetryAfter) as caught:
            await bot.send_message(alice_chat.id, "hi")
        assert caught.value.retry_after == 7
    await bot.send_message(alice_chat.id, "hi")
    assert [r.status for r in fake_telegram.requests_for("sendMessage")] == [429, 429, 200]

    fake_telegram.fail_next("editMessageText")
    with pytest.raises(TelegramServerError):
        await bot.edit_message_text("x", chat_id=alice_chat.id, message_id=1)


async def test_blocked_and_unopened_private_chats_are_forbidden(
    bot: Bot, fake_telegram: FakeTelegram, alice: FakeUser, alice_chat: FakeChat
) -> None:
    fake_telegram.block_bot(alice)
    with pytest.raises(TelegramForbiddenError, match="bot was blocked by the user"):
        await bot.send_message(alice_chat.id, "hi")
    bob = fake_telegram.create_user("Bob")
    with pytest.raises(TelegramForbiddenError, match="can't initiate conversation"):
        await bot.send_message(fake_telegram.private_chat(bob).id, "hi")
    with pytest.raises(TelegramBadRequest, match="chat not found"):
        await bot.send_message(-42, "hi")


async def test_group_migration_names_the_supergroup(
    bot: Bot, fake_telegram: FakeTelegram, alice: FakeUser
) -> None:
    group = fake_telegram.create_group("Nardy club", [alice])
    await bot.send_message(group.id, "hello")
    supergroup = fake_telegram.migrate_to_supergroup(group)
    with pytest.raises(TelegramMigrateToChat) as caught:
        await bot.send_message(group.id, "hello again")
    assert caught.value.migrate_to_chat_id == supergroup.id
    await bot.send_message(supergroup.id, "hello again")
    updates = await bot.get_updates()
    assert [u.message.migrate_to_chat_id for u in updates if u.message] == [supergroup.id, None]


async def test_long_poll_returns_as_soon_as_an_update_is_queued(
    bot: Bot, fake_telegram: FakeTelegram, alice: FakeUser
) -> None:
    chat = fake_telegram.private_chat(alice)
    poll = asyncio.create_task(bot.get_updates(timeout=30))
    await fake_telegram.wait_for(lambda: fake_telegram.requests_for("getUpdates"))
    assert not poll.done()
    sent = fake_telegram.send_text(alice, chat, "/start")
    updates = await asyncio.wait_for(poll, 2)
    assert [u.update_id for u in updates] == [sent.update_id]
    assert updates[0].message is not None and updates[0].message.text == "/start"
    entities = updates[0].message.entities or []
    assert [(e.type, e.offset, e.length) for e in entities] == [("bot_command", 0, 6)]
    assert await bot.get_updates(timeout=0) == updates  # not confirmed yet: delivered again


async def test_offset_confirms_older_updates(
    bot: Bot, fake_telegram: FakeTelegram, alice: FakeUser
) -> None:
    chat = fake_telegram.private_chat(alice)
    first = fake_telegram.send_text(alice, chat, "/start")
    second = fake_telegram.send_text(alice, chat, "/help")
    assert first.update_id is not None and second.update_id is not None
    assert [u.update_id for u in await bot.get_updates()] == [first.update_id, second.update_id]
    assert [u.update_id for u in await bot.get_updates(offset=second.update_id)] == [
        second.update_id
    ]
    assert fake_telegram.pending_update_ids == [second.update_id]
    assert await bot.get_updates(offset=second.update_id + 1, timeout=0) == []
    assert fake_telegram.confirmations == {first.update_id: 1, second.update_id: 1}

    fake_telegram.redeliver(first.update_id)  # Telegram delivering the same update twice
    again = await bot.get_updates(offset=second.update_id + 1, timeout=0)
    assert [u.update_id for u in again] == [first.update_id]
    assert again[0].message is not None and again[0].message.text == "/start"


async def test_newer_poll_ends_the_older_one_with_conflict(
    bot: Bot, fake_telegram: FakeTelegram
) -> None:
    older = asyncio.create_task(bot.get_updates(timeout=30))
    await fake_telegram.wait_for(lambda: fake_telegram.requests_for("getUpdates"))
    assert await bot.get_updates(timeout=0) == []
    with pytest.raises(TelegramConflictError):
        await asyncio.wait_for(older, 2)


async def test_group_privacy_mode_delivers_commands_mentions_and_replies(
    bot: Bot, fake_telegram: FakeTelegram, alice: FakeUser
) -> None:
    group = fake_telegram.create_group("Club", [alice])
    board = await bot.send_message(group.id, "board")
    hidden = fake_telegram.send_text(alice, group, "just chatting")
    command = fake_telegram.send_text(alice, group, "/play@nardy_test_bot long")
    other_bot = fake_telegram.send_text(alice, group, "/play@another_bot")
    mention = fake_telegram.send_text(alice, group, "hey @nardy_test_bot")
    reply = fake_telegram.send_text(
        alice, group, "ok", reply_to=fake_telegram.message(group, board.message_id)
    )
    assert hidden.update_id is None and other_bot.update_id is None
    updates = await bot.get_updates()
    assert [u.update_id for u in updates] == [command.update_id, mention.update_id, reply.update_id]
    assert updates[1].message is not None and updates[1].message.entities is not None
    assert updates[1].message.entities[0].type == "mention"
    reply_update = updates[2].message
    assert reply_update is not None and reply_update.reply_to_message is not None
    assert reply_update.reply_to_message.message_id == board.message_id


async def test_callback_queries_are_answered_once(
    bot: Bot, fake_telegram: FakeTelegram, alice: FakeUser, alice_chat: FakeChat
) -> None:
    sent = await bot.send_message(alice_chat.id, "board", reply_markup=keyboard("Roll"))
    tap = fake_telegram.tap(alice, fake_telegram.message(alice_chat, sent.message_id), "roll")
    updates = await bot.get_updates(offset=-1)
    query = updates[-1].callback_query
    assert query is not None and query.id == tap.id and query.data == "roll"
    assert query.message is not None and query.message.message_id == sent.message_id
    await bot.answer_callback_query(tap.id, text="Not your turn", show_alert=True)
    answer = await fake_telegram.next_answer_to(tap)
    assert (answer.text, answer.show_alert) == ("Not your turn", True)
    with pytest.raises(TelegramBadRequest, match="query is too old"):
        await bot.answer_callback_query(tap.id)
    with pytest.raises(AssertionError, match="no button"):
        fake_telegram.tap(alice, fake_telegram.message(alice_chat, sent.message_id), "nope")


async def test_commands_are_stored_per_scope_and_language(
    bot: Bot, fake_telegram: FakeTelegram, alice_chat: FakeChat
) -> None:
    await bot.set_my_commands([BotCommand(command="play", description="Play")])
    await bot.set_my_commands(
        [BotCommand(command="play", description="Играть")], language_code="ru"
    )
    await bot.set_my_commands(
        [BotCommand(command="help", description="Help")],
        scope=BotCommandScopeChat(chat_id=alice_chat.id),
    )
    assert fake_telegram.commands() == [("play", "Play")]
    assert fake_telegram.commands(language_code="ru") == [("play", "Играть")]
    assert fake_telegram.commands(scope={"type": "chat", "chat_id": alice_chat.id}) == [
        ("help", "Help")
    ]
    assert [c.command for c in await bot.get_my_commands(language_code="ru")] == ["play"]
    with pytest.raises(TelegramBadRequest, match="BOT_COMMAND_INVALID"):
        await bot.set_my_commands([BotCommand(command="Play!", description="x")])


async def test_chat_queries_pins_and_actions(
    bot: Bot, fake_telegram: FakeTelegram, alice: FakeUser
) -> None:
    bob = fake_telegram.create_user("Bob")
    group = fake_telegram.create_group("Club", [alice, bob], bot_is_admin=True)
    chat = await bot.get_chat(group.id)
    assert (chat.id, chat.type, chat.title) == (group.id, "group", "Club")
    assert (await bot.get_chat_member(group.id, alice.id)).status == ChatMemberStatus.CREATOR
    assert (await bot.get_chat_member(group.id, bob.id)).status == ChatMemberStatus.MEMBER
    carol = fake_telegram.create_user("Carol")
    assert (await bot.get_chat_member(group.id, carol.id)).status == ChatMemberStatus.LEFT
    me = await bot.get_chat_member(group.id, fake_telegram.bot_user.id)
    assert me.status == ChatMemberStatus.ADMINISTRATOR
    sent = await bot.send_message(group.id, "board")
    assert await bot.pin_chat_message(group.id, sent.message_id)
    assert group.pinned_message_id == sent.message_id
    assert await bot.send_chat_action(group.id, "upload_photo")
    assert group.chat_actions == ["upload_photo"]

    plain = fake_telegram.create_group("No rights", [alice])
    sent = await bot.send_message(plain.id, "board")
    with pytest.raises(TelegramBadRequest, match="not enough rights"):
        await bot.pin_chat_message(plain.id, sent.message_id)


async def test_unimplemented_methods_answer_not_found(bot: Bot, alice_chat: FakeChat) -> None:
    with pytest.raises(TelegramNotFound, match="sendDice"):
        await bot.send_dice(alice_chat.id)


async def test_updates_outside_allowed_updates_are_dropped(
    bot: Bot, fake_telegram: FakeTelegram, alice: FakeUser, alice_chat: FakeChat
) -> None:
    sent = await bot.send_message(alice_chat.id, "board", reply_markup=keyboard("Roll"))
    [start] = await bot.get_updates(allowed_updates=["message"])
    tap = fake_telegram.tap(alice, fake_telegram.message(alice_chat, sent.message_id), "roll")
    text = fake_telegram.send_text(alice, alice_chat, "/help")
    updates = await bot.get_updates(offset=start.update_id + 1)
    assert [u.update_id for u in updates] == [text.update_id]
    assert fake_telegram.dropped_update_ids == [tap.update_id]


async def test_document_upload_round_trips_bytes_name_and_caption(
    bot: Bot, fake_telegram: FakeTelegram, alice_chat: FakeChat
) -> None:
    record = "1. 6-5: 24/13\n2. 3-1: 8/5 6/5 ♜\n".encode()
    question = await bot.send_message(alice_chat.id, "Your game record?")
    sent = await bot.send_document(
        alice_chat.id,
        BufferedInputFile(record, "game-42.txt"),
        caption="<b>Game 42</b> record",
        reply_markup=keyboard("Rematch"),
        reply_parameters=ReplyParameters(message_id=question.message_id),
        disable_notification=True,
    )
    assert sent.document is not None and sent.caption == "Game 42 record"
    document = sent.document
    assert (document.file_name, document.mime_type, document.file_size) == (
        "game-42.txt",
        "text/plain",
        len(record),
    )
    assert sent.caption_entities is not None and sent.caption_entities[0].type == "bold"
    assert sent.reply_to_message is not None
    assert sent.reply_to_message.message_id == question.message_id
    stored = fake_telegram.message(alice_chat, sent.message_id)
    assert stored.document_bytes == record and stored.document_name == "game-42.txt"
    assert stored.content == "Game 42 record" and [b.text for b in stored.buttons] == ["Rematch"]

    # A file_id the fake gave out is sent again with the same bytes, name and ids.
    again = await bot.send_document(alice_chat.id, document.file_id)
    assert again.document is not None and again.caption is None
    assert (again.document.file_id, again.document.file_unique_id) == (
        document.file_id,
        document.file_unique_id,
    )
    resent = fake_telegram.message(alice_chat, again.message_id)
    assert resent.document == record and resent.document_name == "game-42.txt"

    await bot.edit_message_caption(
        chat_id=alice_chat.id, message_id=sent.message_id, caption="Game 42, <i>final</i>"
    )
    assert stored.caption == "Game 42, final" and stored.buttons == []


async def test_document_errors(bot: Bot, fake_telegram: FakeTelegram, alice_chat: FakeChat) -> None:
    with pytest.raises(TelegramBadRequest, match="file must be non-empty"):
        await bot.send_document(alice_chat.id, BufferedInputFile(b"", "empty.txt"))
    photo = await bot.send_photo(alice_chat.id, BufferedInputFile(png(), "board.png"))
    assert photo.photo is not None
    with pytest.raises(TelegramBadRequest, match="type of file mismatch"):
        await bot.send_document(alice_chat.id, photo.photo[-1].file_id)
    with pytest.raises(TelegramBadRequest, match="wrong file identifier"):
        await bot.send_document(alice_chat.id, "BQACAgUnknown")
    with pytest.raises(TelegramBadRequest, match="message caption is too long"):
        await bot.send_document(alice_chat.id, BufferedInputFile(b"x", "x.bin"), caption="x" * 1025)
    unknown = await bot.send_document(alice_chat.id, BufferedInputFile(b"\x00\x01", "dump.nardy"))
    assert unknown.document is not None
    assert unknown.document.mime_type == "application/octet-stream"


def pins_in(updates: list[Message | None]) -> list[int]:
    """The ids of the messages pinned by the ``pinned_message`` service messages in updates."""
    return [m.pinned_message.message_id for m in updates if m and m.pinned_message]


async def test_pins_in_a_private_chat(
    bot: Bot, fake_telegram: FakeTelegram, alice_chat: FakeChat
) -> None:
    first = await bot.send_message(alice_chat.id, "board 1")
    second = await bot.send_message(alice_chat.id, "board 2")
    assert await bot.pin_chat_message(alice_chat.id, second.message_id)
    assert await bot.pin_chat_message(alice_chat.id, first.message_id, disable_notification=True)
    assert await bot.pin_chat_message(alice_chat.id, first.message_id)  # again: nothing new
    assert alice_chat.pinned == [second.message_id, first.message_id]  # newest message first
    assert alice_chat.pinned_message_id == second.message_id
    chat = await bot.get_chat(alice_chat.id)
    assert chat.pinned_message is not None and chat.pinned_message.text == "board 2"

    # Each pin leaves a service message from the bot, which the bot receives as an update.
    notices = fake_telegram.messages(alice_chat, service=True)[-2:]
    assert [n.service["pinned_message"]["message_id"] for n in notices] == [
        second.message_id,
        first.message_id,
    ]
    assert all(n.from_bot and n.update_id is not None for n in notices)
    assert fake_telegram.last_message(alice_chat).message_id == second.message_id
    updates = await bot.get_updates(offset=-2)
    assert pins_in([u.message for u in updates]) == [second.message_id, first.message_id]

    assert await bot.unpin_chat_message(alice_chat.id)  # the most recent one
    assert alice_chat.pinned == [first.message_id]
    assert await bot.unpin_chat_message(alice_chat.id, message_id=second.message_id)  # not pinned
    await bot.pin_chat_message(alice_chat.id, second.message_id)
    assert await bot.unpin_all_chat_messages(alice_chat.id)
    assert alice_chat.pinned == []
    with pytest.raises(TelegramBadRequest, match="message to unpin not found"):
        await bot.unpin_chat_message(alice_chat.id)
    with pytest.raises(TelegramBadRequest, match="message to unpin not found"):
        await bot.unpin_chat_message(alice_chat.id, message_id=999)
    with pytest.raises(TelegramBadRequest, match="message to pin not found"):
        await bot.pin_chat_message(alice_chat.id, 999)

    await bot.pin_chat_message(alice_chat.id, first.message_id)
    await bot.delete_message(alice_chat.id, first.message_id)  # deleting unpins
    assert alice_chat.pinned == []
    with pytest.raises(TelegramBadRequest, match="message to pin not found"):
        await bot.pin_chat_message(alice_chat.id, first.message_id)


async def test_pins_in_a_group_need_the_right(
    bot: Bot, fake_telegram: FakeTelegram, alice: FakeUser
) -> None:
    group = fake_telegram.create_group("Club", [alice])
    board = await bot.send_message(group.id, "board")
    for call in (
        bot.pin_chat_message(group.id, board.message_id),
        bot.unpin_chat_message(group.id, message_id=board.message_id),
        bot.unpin_all_chat_messages(group.id),
    ):
        with pytest.raises(TelegramBadRequest, match="not enough rights to manage pinned"):
            await call
    fake_telegram.set_bot_admin(group, can_pin_messages=False)
    with pytest.raises(TelegramBadRequest, match="not enough rights to manage pinned"):
        await bot.pin_chat_message(group.id, board.message_id)
    with pytest.raises(TelegramBadRequest, match="message to pin not found"):
        await bot.pin_chat_message(group.id, 999)  # checked before the rights

    fake_telegram.set_bot_admin(group)
    assert await bot.pin_chat_message(group.id, board.message_id)
    assert group.pinned == [board.message_id]
    [notice] = [m for m in fake_telegram.messages(group, service=True) if m.is_service]
    assert notice.update_id is not None  # delivered despite privacy mode
    assert fake_telegram.messages(group) == [fake_telegram.message(group, board.message_id)]

    fake_telegram.set_bot_admin(group, False)
    with pytest.raises(TelegramBadRequest, match="not enough rights to manage pinned"):
        await bot.unpin_chat_message(group.id)


async def test_chat_members_and_administrators(
    bot: Bot, fake_telegram: FakeTelegram, alice: FakeUser, alice_chat: FakeChat
) -> None:
    bob = fake_telegram.create_user("Bob")
    carol = fake_telegram.create_user("Carol")
    dave = fake_telegram.create_user("Dave")
    group = fake_telegram.create_group("Club", [alice, bob, carol], creator=bob, supergroup=True)
    fake_telegram.set_member_status(group, carol, "administrator", can_pin_messages=False)

    owner = await bot.get_chat_member(group.id, bob.id)
    assert isinstance(owner, ChatMemberOwner) and owner.user.id == bob.id
    admin = await bot.get_chat_member(group.id, carol.id)
    assert isinstance(admin, ChatMemberAdministrator)
    assert (admin.can_pin_messages, admin.can_delete_messages) == (False, True)
    member = await bot.get_chat_member(group.id, alice.id)
    assert isinstance(member, ChatMemberMember) and member.user.first_name == "Alice"
    assert isinstance(await bot.get_chat_member(group.id, dave.id), ChatMemberLeft)
    me = await bot.get_chat_member(group.id, fake_telegram.bot_user.id)
    assert isinstance(me, ChatMemberMember) and me.user.is_bot

    admins = await bot.get_chat_administrators(group.id)
    assert [(type(a), a.user.id) for a in admins] == [
        (ChatMemberOwner, bob.id),
        (ChatMemberAdministrator, carol.id),
    ]
    fake_telegram.set_bot_admin(group)
    admins = await bot.get_chat_administrators(group.id)
    assert [a.user.id for a in admins] == [bob.id, carol.id, fake_telegram.bot_user.id]
    [promoted] = await bot.get_updates(offset=-1)
    assert promoted.my_chat_member is not None  # Telegram tells the bot of its promotion
    assert promoted.my_chat_member.new_chat_member.status == ChatMemberStatus.ADMINISTRATOR

    fake_telegram.set_member_status(group, carol, "left")
    fake_telegram.set_member_status(group, alice, "creator")  # Bob stays, as a member
    assert group.status_of(carol) == "left" and group.status_of(bob) == "member"
    assert [a.user.id for a in await bot.get_chat_administrators(group.id)] == [
        alice.id,
        fake_telegram.bot_user.id,
    ]

    with pytest.raises(TelegramBadRequest, match="user not found"):
        await bot.get_chat_member(group.id, 999_999)
    with pytest.raises(TelegramBadRequest, match="no administrators in the private chat"):
        await bot.get_chat_administrators(alice_chat.id)
    assert (await bot.get_chat_member(alice_chat.id, alice.id)).status == ChatMemberStatus.MEMBER

    fake_telegram.kick_bot(group)
    me = await bot.get_chat_member(group.id, fake_telegram.bot_user.id)  # may ask about itself
    assert isinstance(me, ChatMemberLeft)
    with pytest.raises(TelegramForbiddenError, match="not a member of the supergroup chat"):
        await bot.get_chat_administrators(group.id)


async def test_a_webhook_gets_the_updates_with_the_secret_and_polling_conflicts(
    bot: Bot, fake_telegram: FakeTelegram, alice: FakeUser, alice_chat: FakeChat
) -> None:
    fake = fake_telegram
    received: list[tuple[str | None, dict[str, object]]] = []
    answers = [500]  # the first delivery fails; the fake tries again a little later

    async def webhook(request: web.Request) -> web.Response:
        received.append((request.headers.get(SECRET_HEADER), await request.json()))
        fake.notify()
        return web.json_response({}, status=answers.pop() if answers else 200)

    app = web.Application()
    app.router.add_post("/hook", webhook)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    url = f"http://127.0.0.1:{runner.addresses[0][1]}/hook"
    try:
        [opened] = await bot.get_updates()  # the /start that opened the chat, by polling
        assert await bot.get_updates(offset=opened.update_id + 1) == []  # confirmed
        with pytest.raises(TelegramBadRequest, match="unallowed characters"):
            await bot.set_webhook(url, secret_token="not allowed!")
        assert await bot.set_webhook(url, secret_token="s3cret", allowed_updates=["message"])
        with pytest.raises(TelegramConflictError, match="webhook is active"):
            await bot.get_updates()
        sent = await bot.send_message(alice_chat.id, "board", reply_markup=keyboard("Roll"))
        tap = fake.tap(alice, fake.message(alice_chat, sent.message_id), "roll")
        text = fake.send_text(alice, alice_chat, "/help")
        await fake.wait_for(lambda: not fake.pending_update_ids)
        assert [(secret, body["update_id"]) for secret, body in received] == [
            ("s3cret", text.update_id),
            ("s3cret", text.update_id),
        ]
        assert fake.dropped_update_ids == [tap.update_id]  # not in allowed_updates
        assert [post.status for post in fake.webhook_posts] == [500, 200]
        info = await bot.get_webhook_info()
        assert info.url == url and info.pending_update_count == 0
        assert info.allowed_updates == ["message"] and info.last_error_message
        forged = await fake.post_to_webhook({"anything": 1}, secret=None)
        assert forged.status == 200 and received[-1] == (None, {"anything": 1})
        assert await bot.delete_webhook()
        again = fake.send_text(alice, alice_chat, "/start")
        updates = await bot.get_updates(offset=opened.update_id + 1, timeout=1)
        assert [u.update_id for u in updates] == [again.update_id]
        assert len(received) == 3  # nothing posted after deleteWebhook
    finally:
        await runner.cleanup()


async def test_a_method_in_a_webhooks_answer_is_carried_out_once_confirmed(
    bot: Bot, fake_telegram: FakeTelegram, alice: FakeUser, alice_chat: FakeChat
) -> None:
    fake = fake_telegram

    async def webhook(request: web.Request) -> web.Response:
        update = await request.json()
        if "callback_query" in update:  # a form (aiogram's multipart one: test_webhook.py)
            form = FormData()
            form.add_field("method", "answerCallbackQuery")
            form.add_field("callback_query_id", update["callback_query"]["id"])
            form.add_field("text", "rolled")
            return web.Response(body=form())
        if update["message"]["text"] == "/help":
            method = {"method": "sendMessage", "chat_id": alice_chat.id, "text": "hi"}
            return web.json_response(method)
        return web.Response(text="not a method", content_type="text/plain")

    app = web.Application()
    app.router.add_post("/hook", webhook)
    runner = web.AppRunner(app)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", 0).start()
    try:
        await bot.get_updates()
        assert await bot.set_webhook(f"http://127.0.0.1:{runner.addresses[0][1]}/hook")
        sent = await bot.send_message(alice_chat.id, "board", reply_markup=keyboard("Roll"))
        tap = fake.tap(alice, fake.message(alice_chat, sent.message_id), "roll")
        fake.send_text(alice, alice_chat, "/help")
        fake.send_text(alice, alice_chat, "/other")
        answer = await fake.next_answer_to(tap)
        reply = await fake.wait_for_message(alice_chat, where=lambda m: m.text == "hi")
        await fake.wait_for(lambda: not fake.pending_update_ids)
        assert answer.text == "rolled" and reply.sender.is_bot
        carried = sorted((r.method, r.ok) for r in fake.requests if r.in_answer)
        assert carried == [("answerCallbackQuery", True), ("sendMessage", True)]  # not /other's
        # a POST that is not Telegram's is answered, but nothing in the answer is carried out
        forged = await fake.post_to_webhook(fake.forge_update({"message": {"text": "/help"}}))
        assert forged.status == 200 and "sendMessage" in forged.body
        assert len([r for r in fake.requests if r.in_answer]) == 2
    finally:
        await runner.cleanup()


async def test_the_balancer_spreads_posts_in_turn_or_keeps_each_chat_on_one_worker(
    bot: Bot, fake_telegram: FakeTelegram
) -> None:
    fake = fake_telegram
    received: dict[str, list[int]] = {"a": [], "b": []}
    runners = []
    urls = []
    for name in received:

        async def webhook(request: web.Request, name: str = name) -> web.Response:
            received[name].append((await request.json())["message"]["chat"]["id"])
            return web.json_response({})

        app = web.Application()
        app.router.add_post("/hook", webhook)
        runner = web.AppRunner(app)
        await runner.setup()
        await web.TCPSite(runner, "127.0.0.1", 0).start()
        runners.append(runner)
        urls.append(f"http://127.0.0.1:{runner.addresses[0][1]}/hook")
    users = [fake.create_user(f"U{i}") for i in range(4)]
    groups = [fake.create_group(f"g{i}", [users[i]]) for i in range(4)]

    async def deliver(rounds: int) -> None:
        for _ in range(rounds):
            for user, group in zip(users, groups, strict=True):
                fake.send_text(user, group, "/score")  # a command: groups hide the rest
                await fake.wait_for(lambda: not fake.pending_update_ids)

    try:
        fake.balancer = urls
        assert await bot.set_webhook("https://proxy.example.com/hook", secret_token="s")
        await deliver(1)
        assert len(received["a"]) == len(received["b"]) == 2  # in turn
        for chats in received.values():
            chats.clear()
        fake.sticky_chats = True
        await deliver(3)
        assert sorted(received["a"] + received["b"]) == sorted(g.id for g in groups for _ in "xyz")
        assert not set(received["a"]) & set(received["b"])  # each chat on one worker only
        assert received["a"] and received["b"]  # and the chats spread over both
        await runners[1].cleanup()  # worker b dies: its chats go to the next one at once
        received["a"].clear()
        await deliver(1)
        assert sorted(received["a"]) == sorted(g.id for g in groups)
    finally:
        for runner in runners:
            await runner.cleanup()


async def test_delayed_answers_keep_the_call_waiting(
    bot: Bot, fake_telegram: FakeTelegram, alice_chat: FakeChat
) -> None:
    fake_telegram.delay_next("sendMessage", 0.3)
    loop = asyncio.get_running_loop()
    started = loop.time()
    await bot.send_message(alice_chat.id, "slow")
    assert loop.time() - started >= 0.3
    started = loop.time()
    await bot.send_message(alice_chat.id, "fast")
    assert loop.time() - started < 0.3
