"""The fake Bot API's inline mode behaves like Telegram's for aiogram's real Bot: inline queries
and their answers, results posted through a user, taps and edits by ``inline_message_id``, and
board pictures kept in a channel."""

from __future__ import annotations

from collections.abc import AsyncIterator
from io import BytesIO

import pytest
from aiogram import Bot
from aiogram.client.default import DefaultBotProperties
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.telegram import TelegramAPIServer
from aiogram.enums import ParseMode
from aiogram.exceptions import TelegramBadRequest, TelegramForbiddenError
from aiogram.types import (
    BufferedInputFile,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InlineQueryResultArticle,
    InlineQueryResultUnion,
    InputMediaPhoto,
    InputTextMessageContent,
)
from PIL import Image

from tests.support.fake_telegram import FakeTelegram, FakeUser


def png() -> bytes:
    buffer = BytesIO()
    Image.new("RGB", (40, 30), "red").save(buffer, format="PNG")
    return buffer.getvalue()


@pytest.fixture
async def bot(fake_telegram: FakeTelegram) -> AsyncIterator[Bot]:
    bot = Bot(
        fake_telegram.token,
        session=AiohttpSession(api=TelegramAPIServer.from_base(fake_telegram.url)),
        default=DefaultBotProperties(parse_mode=ParseMode.HTML),
    )
    yield bot
    await bot.session.close()


@pytest.fixture
def alice(fake_telegram: FakeTelegram) -> FakeUser:
    return fake_telegram.create_user("Alice", username="alice")


def article(
    result_id: str, text: str = "<b>Play?</b>", **extra: object
) -> InlineQueryResultArticle:
    return InlineQueryResultArticle(
        id=result_id,
        title="A game",
        input_message_content=InputTextMessageContent(message_text=text),
        **extra,  # type: ignore[arg-type]
    )


JOIN = InlineKeyboardMarkup(
    inline_keyboard=[[InlineKeyboardButton(text="Join", callback_data="join")]]
)


async def test_answers_to_inline_queries_are_checked_like_telegram(
    fake_telegram: FakeTelegram, bot: Bot, alice: FakeUser
) -> None:
    fake = fake_telegram
    assert (await bot.get_me()).supports_inline_queries
    query = fake.inline_query(alice, "short")
    refusals: list[tuple[list[InlineQueryResultUnion], str]] = [
        ([article(str(n)) for n in range(51)], "too many inline query results"),
        ([article("x" * 65)], "RESULT_ID_INVALID"),
        ([article("same"), article("same")], "RESULT_ID_DUPLICATE"),
        ([article("a", text="<b>unclosed")], "can't parse entities"),
    ]
    for results, error in refusals:
        with pytest.raises(TelegramBadRequest, match=error):
            await bot.answer_inline_query(query.id, results)
    assert query.id not in fake.inline_answers
    await bot.answer_inline_query(query.id, [article("a" * 64)], cache_time=5, is_personal=True)
    answer = await fake.next_inline_answer(query)
    assert answer.results[0]["id"] == "a" * 64 and answer.cache_time == 5 and answer.is_personal
    with pytest.raises(TelegramBadRequest, match="query is too old"):
        await bot.answer_inline_query(query.id, [])  # one answer per query


async def test_a_chosen_result_is_posted_through_the_user_and_tapped_and_edited_by_its_id(
    fake_telegram: FakeTelegram, bot: Bot, alice: FakeUser
) -> None:
    fake = fake_telegram
    bob = fake.create_user("Bob", username="bob")
    chat = fake.chat_between(alice, bob)
    query = fake.inline_query(alice, "", chat=chat)
    await bot.answer_inline_query(query.id, [article("game", reply_markup=JOIN), article("bare")])
    posted = fake.choose_inline_result(query, "game")
    bare = fake.choose_inline_result(query, "bare")
    assert posted.sender == alice and posted.via_bot == fake.bot_user and posted.chat is chat
    assert posted.text == "Play?" and posted.entities[0]["type"] == "bold"
    assert posted.inline_message_id and bare.inline_message_id is None  # no keyboard, no id
    tap = fake.press(bob, posted, "Join")
    updates = await bot.get_updates()
    chosen = [u.chosen_inline_result for u in updates if u.chosen_inline_result]
    assert [c.result_id for c in chosen] == ["game", "bare"]
    assert chosen[0].inline_message_id == posted.inline_message_id
    assert chosen[1].inline_message_id is None
    [callback] = [u.callback_query for u in updates if u.callback_query]
    assert callback.id == tap.id and callback.message is None
    assert callback.inline_message_id == posted.inline_message_id
    assert callback.chat_instance == chat.chat_instance
    # edits by the inline message's id answer true; the bot cannot write to the chat itself
    assert await bot.edit_message_text("Started", inline_message_id=posted.inline_message_id)
    assert posted.text == "Started" and not posted.buttons
    with pytest.raises(TelegramBadRequest, match="MESSAGE_ID_INVALID"):
        await bot.edit_message_text("x", inline_message_id="BAAAA-no-such-message")
    with pytest.raises(TelegramForbiddenError, match="can't initiate"):
        await bot.send_message(chat.id, "hello")


async def test_an_inline_message_takes_a_picture_by_file_id_only(
    fake_telegram: FakeTelegram, bot: Bot, alice: FakeUser
) -> None:
    fake = fake_telegram
    group = fake.chat_between(alice, title="Friends")  # a group without the bot
    storage = fake.create_channel("boards")
    query = fake.inline_query(alice, chat=group)
    await bot.answer_inline_query(query.id, [article("game", reply_markup=JOIN)])
    posted = fake.choose_inline_result(query, "game")
    inline_id = posted.inline_message_id
    upload = BufferedInputFile(png(), "board.png")
    with pytest.raises(TelegramBadRequest, match="invalid message content specified"):
        await bot.edit_message_media(InputMediaPhoto(media=upload), inline_message_id=inline_id)
    assert posted.photo is None
    stored = await bot.send_photo(storage.id, upload)
    assert stored.from_user is None and stored.sender_chat is not None  # a channel's post
    file_id = stored.photo[-1].file_id if stored.photo else ""
    caption = InputMediaPhoto(media=file_id, caption="<i>board</i>")
    assert await bot.edit_message_media(caption, inline_message_id=inline_id, reply_markup=JOIN)
    assert posted.photo == png() and posted.text is None and posted.caption == "board"
    assert await bot.delete_message(storage.id, stored.message_id)
    assert posted.photo == png()  # the inline message keeps its copy
    mute = fake.create_channel("read only", bot_can_post=False)
    with pytest.raises(TelegramBadRequest, match="need administrator rights"):
        await bot.send_photo(mute.id, upload)


async def test_without_inline_feedback_no_chosen_result_comes() -> None:
    async with FakeTelegram(inline_feedback=False) as fake:
        quiet = Bot(fake.token, session=AiohttpSession(api=TelegramAPIServer.from_base(fake.url)))
        try:
            alice = fake.create_user("Alice")
            query = fake.inline_query(alice, "")
            await quiet.answer_inline_query(query.id, [article("game", reply_markup=JOIN)])
            posted = fake.choose_inline_result(query, "game", fake.chat_between(alice, title="g"))
            updates = await quiet.get_updates()
            assert [u.inline_query.id for u in updates if u.inline_query] == [query.id]
            assert not [u for u in updates if u.chosen_inline_result]
            assert posted.inline_message_id  # it can still be tapped and edited
        finally:
            await quiet.session.close()
