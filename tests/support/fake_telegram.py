"""A fake Telegram Bot API server for end-to-end tests.

:class:`FakeTelegram` is an aiohttp server on 127.0.0.1 that speaks the Bot API over HTTP exactly
as aiogram's real ``AiohttpSession`` sends it (``POST /bot<token>/<method>``, form-data or
multipart bodies, JSON-encoded fields, ``attach://`` uploads). Point the bot at it with
``TELEGRAM_API_URL`` and act as users from the test::

    async with FakeTelegram() as fake:
        alice = fake.create_user("Alice", language_code="ru")
        chat = fake.private_chat(alice)
        sent = fake.send_text(alice, chat, "/start")        # queued for getUpdates
        reply = await fake.wait_for_message(chat, after=sent)
        assert "Здравствуйте" in reply.text

What it imitates, because bots get these wrong:

* long polling: ``getUpdates`` waits up to ``timeout`` and returns as soon as an update is
  queued; updates stay queued until a later call confirms them with a higher ``offset``, so a bot
  that stops before confirming gets them again, like after a real crash; a newer ``getUpdates``
  ends an older one with 409 Conflict;
* HTML parse mode (entities, refused markup), length limits, 64-byte callback data;
* edits: the same content gives 400 "message is not modified"; an edit without ``reply_markup``
  removes the inline keyboard; unknown messages give "message to edit not found";
* ``answerCallbackQuery`` twice for one query gives 400 (the double-answer trap);
* users who blocked the bot (403), private chats the user never opened (403), groups migrated
  to supergroups (400 with ``migrate_to_chat_id``), injected 429 flood waits and 5xx errors;
* group privacy mode: only commands, @mentions of the bot and replies to it are delivered;
* uploads (``sendPhoto``, ``sendDocument``, ``sendAnimation``): empty files, ``file_id`` re-sends
  of the wrong type; an animation must be a GIF (or an MP4), which Telegram keeps as an MP4: its
  message says ``video/mp4`` and ``<name>.mp4`` (the fake keeps the GIF's bytes, for tests to
  decode);
* pins: the bot needs ``can_pin_messages`` in groups, each pin adds a ``pinned_message`` service
  message that is delivered to the bot too (as the official server does for its own pins);
* members: ``getChatMember`` / ``getChatAdministrators`` answer with the statuses the test set
  (creator, administrator with rights, member, left) and parse into aiogram's ChatMember types.
* webhooks: ``setWebhook`` (as a self-hosted Bot API server in ``--local`` mode, it accepts
  ``http://`` addresses on any port) makes ``getUpdates`` answer 409 Conflict and delivers each
  queued update by POSTing it to the webhook with ``X-Telegram-Bot-Api-Secret-Token``, until
  the answer is 200, trying again a little later after any other answer or a refused connection
  (so ``send_text``, ``tap``, ``redeliver``… work unchanged in both modes); a method in a 200
  answer (JSON, or a URL-encoded or multipart form, with ``method``) is carried out as a call
  of the bot's once the update is confirmed, recorded with ``in_answer``;
  :meth:`~FakeTelegram.post_to_webhook` posts any payload with any secret, or none;
* inline mode: users send inline queries (:meth:`FakeTelegram.inline_query`), the bot's
  ``answerInlineQuery`` is checked as Telegram does (at most 50 results, ids of 1 to 64 bytes,
  unique, an article's title and message content, keyboards, one answer per query), and a user
  who picks a result (:meth:`~FakeTelegram.choose_inline_result`) posts it "via @bot" into any
  chat (one between users, or a group without the bot): the message gets an
  ``inline_message_id`` when it has a keyboard, and a ``chosen_inline_result`` update is queued
  (inline feedback). Taps on it carry ``inline_message_id`` and ``chat_instance`` and no
  ``message``; edits by ``inline_message_id`` answer ``true``, and ``editMessageMedia`` of an
  inline message takes only a ``file_id`` the bot got before (an upload is refused, as Telegram
  refuses it); an edit may add a photo to a text message;
* channels: the bot posts only as an administrator; a channel post has no ``from``;
* outages: :meth:`FakeTelegram.stop_listening` closes the port and :meth:`~FakeTelegram.
  listen_again` opens the same one, with every user, chat, message and queued update kept (users
  go on tapping meanwhile); :meth:`~FakeTelegram.fail_until_healed` answers 5xx to some methods
  for a while; :meth:`~FakeTelegram.drop_answer_next` does what is asked and hangs up without
  answering (the answer lost on the way); callback queries expire on demand
  (:meth:`~FakeTelegram.expire_callback_queries`), and a query answered twice is recorded in
  :attr:`~FakeTelegram.double_answers` (the harness fails a test on it);
* slow chats: :meth:`~FakeTelegram.hold_chats` keeps the answers to every request for some
  chats until :meth:`~FakeTelegram.release_chats` (recorded when they arrive), to show that
  nothing else waits for them.

Everything runs in the test's event loop; nothing touches the network beyond 127.0.0.1.
"""

from __future__ import annotations

import asyncio
import contextlib
import email.policy
import inspect
import itertools
import json
import mimetypes
import re
import time
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from email.message import EmailMessage
from email.parser import BytesParser
from io import BytesIO
from types import TracebackType
from typing import Any, Final, Literal, TypeVar
from urllib.parse import parse_qsl

from aiohttp import BodyPartReader, ClientError, ClientSession, ClientTimeout, hdrs, web

from .telegram_html import TelegramHtmlError, parse_html, utf16_length

T = TypeVar("T")
ChatType = Literal["private", "group", "supergroup", "channel"]
MemberStatus = Literal["creator", "administrator", "member", "left"]

DEFAULT_TOKEN: Final = "123456:TEST-fake-secret-0123456789"
DEFAULT_TIMEOUT: Final = 5.0
NOT_MODIFIED: Final = (
    "message is not modified: specified new message content and reply markup are exactly "
    "the same as a current content and reply markup of the message"
)
JSON_FIELDS: Final = frozenset(
    {
        "reply_markup",
        "media",
        "entities",
        "caption_entities",
        "commands",
        "scope",
        "allowed_updates",
        "link_preview_options",
        "reply_parameters",
        "message_ids",
        "results",
        "button",
    }
)
DEFAULT_ALLOWED_UPDATES: Final = frozenset(
    {
        "message",
        "edited_message",
        "channel_post",
        "edited_channel_post",
        "inline_query",
        "chosen_inline_result",
        "callback_query",
        "shipping_query",
        "pre_checkout_query",
        "poll",
        "poll_answer",
        "my_chat_member",
        "chat_join_request",
    }
)
CHAT_ACTIONS: Final = frozenset(
    {
        "typing",
        "upload_photo",
        "record_video",
        "upload_video",
        "record_voice",
        "upload_voice",
        "upload_document",
        "choose_sticker",
        "find_location",
        "record_video_note",
        "upload_video_note",
    }
)
INLINE_ACTIONS: Final = frozenset(
    {
        "url",
        "callback_data",
        "web_app",
        "login_url",
        "switch_inline_query",
        "switch_inline_query_current_chat",
        "switch_inline_query_chosen_chat",
        "copy_text",
        "callback_game",
        "pay",
    }
)
ADMIN_RIGHTS: Final = {
    "can_be_edited": False,
    "is_anonymous": False,
    "can_manage_chat": True,
    "can_delete_messages": True,
    "can_manage_video_chats": True,
    "can_restrict_members": True,
    "can_promote_members": False,
    "can_change_info": True,
    "can_invite_users": True,
    "can_post_stories": False,
    "can_edit_stories": False,
    "can_delete_stories": False,
    "can_send_welcome_messages": False,
    "can_pin_messages": True,
}
"""The rights of an administrator promoted with Telegram's defaults (ChatMemberAdministrator)."""
FILE_ID_PREFIXES: Final = {
    "photo": "AgACAgFake",
    "document": "BQACAgFake",
    "animation": "CgACAgFake",
}
MAX_INLINE_RESULTS: Final = 50
INLINE_RESULT_TYPES: Final = frozenset({"article", "photo"})
"""Inline result types the fake knows (the bot offers articles; photos by file id)."""
START_PARAMETER = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
INVALID_CONTENT: Final = "invalid message content specified"
"""Telegram's refusal of an uploaded file in an edit of an inline message."""
MAX_UPLOAD_SIZE: Final = 50 * 1024 * 1024
MENTION = re.compile(r"(?<![\w@])@[A-Za-z0-9_]{5,32}")
COMMAND_NAME = re.compile(r"^[a-z0-9_]{1,32}$")
TOKEN_SHAPE = re.compile(r"[0-9]+:[A-Za-z0-9_-]+")
SCOPE_IDS: Final[dict[str, tuple[str, ...]]] = {
    "default": (),
    "all_private_chats": (),
    "all_group_chats": (),
    "all_chat_administrators": (),
    "chat": ("chat_id",),
    "chat_administrators": ("chat_id",),
    "chat_member": ("chat_id", "user_id"),
}
"""The BotCommandScope types setMyCommands takes, each with the ids it names."""
SECRET_TOKEN_SHAPE = re.compile(r"[A-Za-z0-9_-]{1,256}")
SECRET_HEADER: Final = "X-Telegram-Bot-Api-Secret-Token"
WEBHOOK_RETRY_SECONDS: Final = 0.2
"""How soon the fake tries a webhook delivery again (Telegram waits longer, growing)."""
WEBHOOK_CONFLICT: Final = (
    "Conflict: can't use getUpdates method while webhook is active; "
    "use deleteWebhook to delete the webhook first"
)
KEEP: Final[Any] = object()


class ApiError(Exception):
    """An error answer of the Bot API: ``{"ok": false, "error_code": ..., "description": ...}``."""

    def __init__(
        self, error_code: int, description: str, parameters: dict[str, Any] | None = None
    ) -> None:
        super().__init__(f"{error_code} {description}")
        self.error_code = error_code
        self.description = description
        self.parameters = parameters

    def to_json(self) -> dict[str, Any]:
        body: dict[str, Any] = {
            "ok": False,
            "error_code": self.error_code,
            "description": self.description,
        }
        if self.parameters:
            body["parameters"] = self.parameters
        return body


def bad_request(description: str, parameters: dict[str, Any] | None = None) -> ApiError:
    return ApiError(400, f"Bad Request: {description}", parameters)


def forbidden(description: str) -> ApiError:
    return ApiError(403, f"Forbidden: {description}")


class UploadedFile(bytes):
    """The bytes of an uploaded file, with the name and content type of its multipart part.

    It compares equal to plain bytes, so tests can write ``message.document == data``.
    """

    filename: str | None
    content_type: str | None

    def __new__(
        cls, data: bytes = b"", filename: str | None = None, content_type: str | None = None
    ) -> UploadedFile:
        upload = super().__new__(cls, data)
        upload.filename = filename
        upload.content_type = content_type
        return upload


@dataclass(frozen=True, slots=True)
class FakeUser:
    """A Telegram user (or the bot itself, ``is_bot=True``)."""

    id: int
    first_name: str
    username: str | None = None
    language_code: str | None = None
    last_name: str | None = None
    is_bot: bool = False

    def to_api(self) -> dict[str, Any]:
        data: dict[str, Any] = {"id": self.id, "is_bot": self.is_bot, "first_name": self.first_name}
        for key in ("last_name", "username", "language_code"):
            if (value := getattr(self, key)) is not None:
                data[key] = value
        return data


ANONYMOUS_ADMIN: Final = FakeUser(1087968824, "Group", "GroupAnonymousBot", is_bot=True)
"""The sender Telegram names for a message of an anonymous group admin."""
CHANNEL_SENDER: Final = FakeUser(136817688, "Channel", "Channel_Bot", is_bot=True)
"""The sender Telegram names for a message sent as a channel."""


@dataclass(frozen=True, slots=True)
class Button:
    """One inline keyboard button as the bot sent it."""

    text: str
    callback_data: str | None = None
    url: str | None = None


@dataclass(eq=False, slots=True)
class FakeChat:
    """A chat and everything that happened in it."""

    id: int
    type: ChatType
    title: str | None = None
    partner: FakeUser | None = None
    members: dict[int, FakeUser] = field(default_factory=dict)
    """Users in the chat now (the creator and administrators among them)."""
    creator_id: int | None = None
    admins: dict[int, dict[str, bool]] = field(default_factory=dict)
    """Administrators other than the creator and the bot: user id -> rights (see ADMIN_RIGHTS)."""
    bot_is_member: bool = True
    bot_rights: dict[str, bool] | None = None
    """The bot's administrator rights in a group; None while it is an ordinary member."""
    blocked: bool = False
    started: bool = False
    migrated_to: int | None = None
    pinned: list[int] = field(default_factory=list)
    """Ids of the pinned messages, the most recent (by sending date, so highest id) first."""
    chat_actions: list[str] = field(default_factory=list)
    messages: dict[int, FakeMessage] = field(default_factory=dict)
    next_message_id: int = 1

    @property
    def bot_is_admin(self) -> bool:
        return self.bot_rights is not None

    @property
    def pinned_message_id(self) -> int | None:
        """The most recent pinned message (what getChat answers as ``pinned_message``)."""
        return self.pinned[0] if self.pinned else None

    def status_of(self, user: FakeUser) -> MemberStatus:
        """The status of a user (not the bot) as getChatMember reports it."""
        if user.id not in self.members:
            return "left"
        if user.id == self.creator_id:
            return "creator"
        return "administrator" if user.id in self.admins else "member"

    def to_api(self) -> dict[str, Any]:
        if self.type == "private":
            assert self.partner is not None
            data = {"id": self.id, "type": "private", "first_name": self.partner.first_name}
            if self.partner.last_name:
                data["last_name"] = self.partner.last_name
            if self.partner.username:
                data["username"] = self.partner.username
            return data
        return {"id": self.id, "type": self.type, "title": self.title}

    @property
    def chat_instance(self) -> str:
        """What Telegram puts in a callback query from a message in this chat: one value per
        chat, its id not derivable from it."""
        return str(abs(self.id) * 7919)

    def __repr__(self) -> str:
        return f"<FakeChat {self.type} id={self.id} {self.title or self.partner}>"


@dataclass(eq=False, slots=True)
class FakeMessage:
    """A message in a :class:`FakeChat`, kept up to date through edits and deletion."""

    chat: FakeChat
    message_id: int
    sender: FakeUser
    date: int
    text: str | None = None
    caption: str | None = None
    entities: list[dict[str, Any]] = field(default_factory=list)
    photo: bytes | None = None
    photo_file_id: str | None = None
    photo_size: tuple[int, int] = (0, 0)
    document: bytes | None = None
    document_file_id: str | None = None
    document_name: str | None = None
    document_mime_type: str | None = None
    animation: bytes | None = None
    animation_file_id: str | None = None
    animation_name: str | None = None
    animation_size: tuple[int, int] = (0, 0)
    animation_duration: int = 0
    reply_markup: dict[str, Any] | None = None
    reply_to: FakeMessage | None = None
    edit_date: int | None = None
    edit_count: int = 0
    deleted: bool = False
    update_id: int | None = None
    """The update that carried it to the bot: user messages (None if privacy hid them) and
    service messages; None for the bot's own messages."""
    service: dict[str, Any] = field(default_factory=dict)
    """The fields of a service message (``pinned_message``, ``migrate_to_chat_id``...)."""
    via_bot: FakeUser | None = None
    """The bot a user sent it through (an inline result chosen), shown as "via @bot"."""
    inline_message_id: str | None = None
    """Its id for the bot when it was sent through the bot with a keyboard: the bot edits it
    by this id (it may not be able to write to the chat at all)."""
    sender_chat: FakeChat | None = None
    """The chat it was sent on behalf of (see :meth:`FakeTelegram.send_as_chat`)."""

    @property
    def from_bot(self) -> bool:
        return self.sender.is_bot and self.sender_chat is None

    @property
    def is_service(self) -> bool:
        return bool(self.service)

    @property
    def content(self) -> str:
        """The text, or the caption of a photo or document ("" if neither)."""
        return self.text if self.text is not None else (self.caption or "")

    @property
    def document_bytes(self) -> bytes:
        """The bytes of the document (fails if the message has none)."""
        assert self.document is not None, f"{self} has no document"
        return self.document

    @property
    def keyboard(self) -> list[list[Button]]:
        """The inline keyboard, row by row ([] if none)."""
        rows = (self.reply_markup or {}).get("inline_keyboard") or []
        return [
            [Button(b["text"], b.get("callback_data"), b.get("url")) for b in row] for row in rows
        ]

    @property
    def buttons(self) -> list[Button]:
        """All inline buttons, left to right, top to bottom."""
        return [button for row in self.keyboard for button in row]

    def button(self, text: str) -> Button:
        """Returns the button labelled exactly ``text``, else the only one containing it."""
        buttons = self.buttons
        for button in buttons:
            if button.text == text:
                return button
        matches = [b for b in buttons if text in b.text]
        if len(matches) != 1:
            raise AssertionError(f"no single button {text!r} in {[b.text for b in buttons]}")
        return matches[0]

    def to_api(self, *, nested: bool = True) -> dict[str, Any]:
        data: dict[str, Any] = {
            "message_id": self.message_id,
            "from": self.sender.to_api(),
            "chat": self.chat.to_api(),
            "date": self.date,
        }
        if self.chat.type == "channel":  # a post is the channel's: "from" is empty
            del data["from"]
            data["sender_chat"] = self.chat.to_api()
        if self.sender_chat is not None:
            data["sender_chat"] = self.sender_chat.to_api()
        if self.via_bot is not None:
            data["via_bot"] = self.via_bot.to_api()
        if self.text is not None:
            data["text"] = self.text
            if self.entities:
                data["entities"] = self.entities
        if self.photo_file_id is not None:
            width, height = self.photo_size
            data["photo"] = [
                {
                    "file_id": self.photo_file_id,
                    "file_unique_id": "u" + self.photo_file_id,
                    "width": width,
                    "height": height,
                    "file_size": len(self.photo or b""),
                }
            ]
        if self.document_file_id is not None:
            data["document"] = {
                "file_id": self.document_file_id,
                "file_unique_id": "u" + self.document_file_id,
                "file_name": self.document_name,
                "mime_type": self.document_mime_type,
                "file_size": len(self.document or b""),
            }
        if self.animation_file_id is not None:
            width, height = self.animation_size
            kept = {  # as Telegram keeps a GIF: converted to an MP4
                "file_id": self.animation_file_id,
                "file_unique_id": "u" + self.animation_file_id,
                "file_name": f"{self.animation_name or 'animation'}.mp4",
                "mime_type": "video/mp4",
                "file_size": len(self.animation or b""),
            }
            dimensions = {"width": width, "height": height, "duration": self.animation_duration}
            data["animation"] = {**kept, **dimensions}
            data["document"] = kept  # the Bot API gives both, for older clients
        if self.text is None and self.caption is not None:
            data["caption"] = self.caption
            if self.entities:
                data["caption_entities"] = self.entities
        if self.reply_markup is not None:
            data["reply_markup"] = self.reply_markup
        if self.edit_date is not None:
            data["edit_date"] = self.edit_date
        if nested and self.reply_to is not None:
            data["reply_to_message"] = self.reply_to.to_api(nested=False)
        data.update(self.service)
        return data

    def __repr__(self) -> str:
        who = "bot" if self.from_bot else self.sender.first_name
        state = " deleted" if self.deleted else ""
        labels = [b.text for b in self.buttons]
        extra = " +photo" if self.photo is not None else ""
        if self.document is not None:
            extra += f" +document {self.document_name!r}"
        if self.animation is not None:
            extra += f" +animation {self.animation_name!r}"
        if self.service:
            extra += f" service={sorted(self.service)}"
        return (
            f"<FakeMessage chat={self.chat.id} id={self.message_id} {who}{state}{extra} "
            f"{self.content[:60]!r} buttons={labels}>"
        )


def _chat_of(update: dict[str, Any]) -> int:
    """The id of the chat an update comes from (0 if it names none)."""
    for kind in ("message", "edited_message", "callback_query", "my_chat_member"):
        event = update.get(kind)
        if isinstance(event, dict):
            message = event.get("message", event) if kind == "callback_query" else event
            chat = message.get("chat") if isinstance(message, dict) else None
            if isinstance(chat, dict):
                return int(chat.get("id", 0))
    return 0


@dataclass(eq=False, slots=True)
class RecordedRequest:
    """One Bot API call the bot made; JSON fields are decoded, uploads are in ``files``."""

    method: str
    params: dict[str, Any]
    files: dict[str, bytes]
    status: int | None = None
    """HTTP status of the answer; None while pending or when the bot hung up."""
    response: dict[str, Any] | None = None
    at: float = field(default_factory=time.monotonic)
    """When the server received it (``time.monotonic``)."""
    in_answer: bool = False
    """Whether it came in the bot's answer to a webhook POST (Telegram carries such a call out
    and tells the bot nothing of how it went), not as a request of its own."""

    @property
    def ok(self) -> bool:
        return self.status == 200

    def __repr__(self) -> str:
        keys = ("chat_id", "message_id", "inline_message_id", "offset")
        shown = {k: v for k, v in self.params.items() if k in keys}
        text = self.params.get("text") or self.params.get("caption")
        if text:
            shown["text"] = str(text)[:50]
        if self.files:
            shown["files"] = list(self.files)
        error = "" if self.ok or self.response is None else f" {self.response.get('description')}"
        return f"<{self.method} {shown} -> {self.status}{error}>"


@dataclass(frozen=True, slots=True)
class CallbackTap:
    """A press of an inline button, queued as a ``callback_query`` update."""

    id: str
    update_id: int
    user: FakeUser
    message: FakeMessage
    data: str
    at: float = field(default_factory=time.monotonic)
    """When the user pressed it (``time.monotonic``, as :attr:`RecordedRequest.at`)."""


@dataclass(frozen=True, slots=True)
class FakeInlineQuery:
    """What a user typed after ``@bot``, queued as an ``inline_query`` update."""

    id: str
    update_id: int
    user: FakeUser
    query: str
    chat: FakeChat | None


@dataclass(frozen=True, slots=True)
class FakeInlineAnswer:
    """What ``answerInlineQuery`` offered the user (results as the bot sent them)."""

    results: list[dict[str, Any]]
    cache_time: int
    is_personal: bool
    next_offset: str
    button: dict[str, Any] | None

    def result(self, result_id: str) -> dict[str, Any]:
        """The result with ``result_id`` (fails if there is none)."""
        for result in self.results:
            if result["id"] == result_id:
                return result
        raise AssertionError(f"no result {result_id!r} in {[r['id'] for r in self.results]}")

    @property
    def titles(self) -> list[str]:
        return [str(result.get("title", "")) for result in self.results]


@dataclass(frozen=True, slots=True)
class FakeCallbackAnswer:
    """What ``answerCallbackQuery`` told the user."""

    text: str | None
    show_alert: bool
    url: str | None
    cache_time: int | None


@dataclass(frozen=True, slots=True)
class WebhookSetting:
    """What the bot asked for with ``setWebhook``."""

    url: str
    secret_token: str | None
    allowed_updates: frozenset[str]
    max_connections: int


@dataclass(frozen=True, slots=True)
class WebhookPost:
    """One POST of the fake to a webhook: the update's id (None for :meth:`FakeTelegram.
    post_to_webhook` payloads without one), the answer's status (None: no connection or no
    answer) and body."""

    update_id: int | None
    status: int | None
    body: str = ""
    at: float = field(default_factory=time.monotonic)


def _as_bool(value: Any) -> bool:
    if isinstance(value, str):
        return value.lower() in {"true", "1"}
    return bool(value)


def _as_int(value: Any, error: str) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        raise bad_request(error) from None


def _check_rights(rights: dict[str, bool]) -> None:
    unknown = rights.keys() - ADMIN_RIGHTS.keys()
    assert not unknown, f"unknown administrator rights {sorted(unknown)}; see ADMIN_RIGHTS"


def _mime_type(upload: UploadedFile, name: str) -> str:
    # Telegram guesses from the file name; the part's own content type is the fallback.
    guessed, _ = mimetypes.guess_type(name, strict=False)
    if guessed:
        return guessed
    return upload.content_type or "application/octet-stream"


def _image_size(data: bytes) -> tuple[int, int]:
    from PIL import Image, UnidentifiedImageError  # Pillow is a dependency of the project

    try:
        with Image.open(BytesIO(data)) as image:
            if image.format not in {"PNG", "JPEG", "WEBP", "GIF", "BMP"}:
                raise bad_request("IMAGE_PROCESS_FAILED")
            width, height = image.size
    except (UnidentifiedImageError, OSError):
        raise bad_request("IMAGE_PROCESS_FAILED") from None
    if width + height > 10000 or max(width, height) > 20 * min(width, height):
        raise bad_request("PHOTO_INVALID_DIMENSIONS")
    return width, height


def _animation_size(data: bytes) -> tuple[int, int]:
    """The width and height of an uploaded animation: a GIF that decodes, or an MP4 (whose
    size the fake does not read)."""
    if data[4:8] == b"ftyp":
        return 0, 0
    from PIL import Image, UnidentifiedImageError

    try:
        with Image.open(BytesIO(data)) as image:
            if image.format != "GIF":
                raise bad_request("wrong type of the animation: a GIF or an MP4 is needed")
            return image.size
    except (UnidentifiedImageError, OSError):
        raise bad_request("IMAGE_PROCESS_FAILED") from None


class FakeTelegram:
    """The fake Bot API server plus the test-side controls ("act as users", inspect, wait).

    Use as ``async with FakeTelegram() as fake:`` (or :meth:`start` / :meth:`close`); the bot's
    base URL is :attr:`url`. The server outlives bot instances: stop a bot and start another
    against it, as after a real restart.
    """

    def __init__(
        self,
        token: str = DEFAULT_TOKEN,
        *,
        bot_username: str = "nardy_test_bot",
        bot_name: str = "Nardy",
        privacy_mode: bool = True,
        inline_mode: bool = True,
        inline_feedback: bool = True,
    ) -> None:
        """``inline_mode`` and ``inline_feedback`` are BotFather's /setinline and
        /setinlinefeedback (at 100%): without the first users cannot send inline queries,
        without the second no ``chosen_inline_result`` comes."""
        self.token = token
        self.bot_user = FakeUser(
            id=int(token.split(":", 1)[0]), first_name=bot_name, username=bot_username, is_bot=True
        )
        self.privacy_mode = privacy_mode
        self.inline_mode = inline_mode
        self.inline_feedback = inline_feedback
        self.url = ""
        self.users: dict[int, FakeUser] = {}
        self.chats: dict[int, FakeChat] = {}
        self.requests: list[RecordedRequest] = []
        self.taps: dict[str, CallbackTap] = {}
        self.answers: dict[str, FakeCallbackAnswer] = {}
        self.inline_queries: dict[str, FakeInlineQuery] = {}
        self.inline_answers: dict[str, FakeInlineAnswer] = {}
        self.inline_messages: dict[str, FakeMessage] = {}
        """Messages users sent through the bot with a keyboard, by their inline_message_id."""
        self.files: dict[str, UploadedFile] = {}
        """Every file the bot uploaded, by the ``file_id`` the fake gave it."""
        self._file_kinds: dict[str, str] = {}
        self.webhook_deleted = 0
        self.webhook: WebhookSetting | None = None
        """The webhook set now (None: the bot polls)."""
        self.webhook_settings: list[WebhookSetting] = []
        """Every ``setWebhook`` that succeeded, oldest first."""
        self.webhook_posts: list[WebhookPost] = []
        """Every POST of an update to the webhook, oldest first."""
        self.webhook_retry_seconds = WEBHOOK_RETRY_SECONDS
        self.balancer: list[str] = []
        """A reverse proxy in front of several workers: when set, each delivery to the webhook
        goes to the next of these addresses in turn, and one whose connection is refused (a
        worker that died) is tried at the next one at once, as a proxy retries."""
        self.sticky_chats = False
        """With :attr:`balancer`: each chat's updates go to one worker (the first to answer
        of the list from its place by the chat's id), as behind a proxy that knew the chat;
        else each delivery goes to the next worker in turn (round robin)."""
        self._turn = itertools.count()
        self._webhook_error: tuple[int, str] | None = None
        self._posting: set[int] = set()
        self._retry_at: dict[int, float] = {}
        self._deliverer: asyncio.Task[None] | None = None
        self._posts: set[asyncio.Task[None]] = set()
        self._client: ClientSession | None = None
        self._delays: dict[str, deque[float]] = {}
        self._commands: dict[tuple[str, str], list[dict[str, str]]] = {}
        self._pending: list[tuple[int, dict[str, Any]]] = []
        self._all_updates: dict[int, dict[str, Any]] = {}
        self._delivered: set[int] = set()
        self._redelivering: set[int] = set()
        self.confirmations: Counter[int] = Counter()
        """How many times the bot confirmed each update id (by a higher getUpdates offset)."""
        self._allowed_updates: frozenset[str] = DEFAULT_ALLOWED_UPDATES
        self.dropped_update_ids: list[int] = []
        """Updates never delivered because the bot's ``allowed_updates`` left out their type."""
        self._poll_generation = 0
        self._injected: dict[str, deque[ApiError]] = {}
        self._failing: dict[str, ApiError] = {}
        self._dropping: Counter[str] = Counter()
        self._expired_queries: set[str] = set()
        self.double_answers: list[str] = []
        """Callback queries the bot answered a second time (each answer after the first)."""
        self._held: set[int] = set()
        self._released = asyncio.Event()
        self.holding = 0
        """Requests waiting for :meth:`release_chats` right now."""
        self._port = 0
        self._changed = asyncio.Event()
        self._closing = False
        self._runner: web.AppRunner | None = None
        self._ids = itertools.count(1001)
        self._update_ids = itertools.count(100_001)
        self._group_ids = itertools.count(1)
        self._file_ids = itertools.count(1)
        self._query_ids = itertools.count(4_000_000_001)
        self._inline_query_ids = itertools.count(7_000_000_001)
        self._inline_message_ids = itertools.count(1)
        self._chats_without_bot = itertools.count(1)
        self._methods: dict[str, Callable[[dict[str, Any], dict[str, bytes]], Any]] = {
            name.lower(): getattr(self, f"_api_{name}")
            for name in (
                "getMe",
                "getUpdates",
                "setWebhook",
                "deleteWebhook",
                "getWebhookInfo",
                "setMyCommands",
                "getMyCommands",
                "deleteMyCommands",
                "sendMessage",
                "sendPhoto",
                "sendDocument",
                "sendAnimation",
                "editMessageText",
                "editMessageCaption",
                "editMessageMedia",
                "editMessageReplyMarkup",
                "deleteMessage",
                "deleteMessages",
                "answerCallbackQuery",
                "getChat",
                "getChatMember",
                "getChatAdministrators",
                "pinChatMessage",
                "unpinChatMessage",
                "unpinAllChatMessages",
                "sendChatAction",
                "answerInlineQuery",
            )
        }
        self._canonical = {
            key: attr.__name__.removeprefix("_api_") for key, attr in self._methods.items()
        }

    # -- lifecycle ---------------------------------------------------------------------------

    async def start(self, host: str = "127.0.0.1", port: int = 0) -> str:
        """Starts serving (port 0: a free port) and returns the base URL for the bot."""
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_route("*", "/bot{token}/{method}", self._handle)
        # handler_cancellation: a long poll whose bot hung up (stopped) ends at once.
        self._runner = web.AppRunner(
            app, access_log=None, handler_cancellation=True, shutdown_timeout=1.0
        )
        await self._runner.setup()
        await web.TCPSite(self._runner, host, port).start()
        address = self._runner.addresses[0]
        self._port = address[1]
        self._closing = False
        self.url = f"http://{address[0]}:{address[1]}"
        self._start_delivering()
        return self.url

    @property
    def listening(self) -> bool:
        return self._runner is not None

    async def stop_listening(self) -> None:
        """An outage: ends pending long polls, drops every connection and closes the port, but
        keeps all state; users may go on writing and tapping (updates queue up). See
        :meth:`listen_again`."""
        await self.close()
        self.notify()

    async def listen_again(self) -> None:
        """Ends an outage: serves again on the same port (so :attr:`url` stays valid)."""
        assert self._runner is None, "the server is listening already"
        await self.start(port=self._port)
        self.notify()

    async def close(self) -> None:
        """Ends pending long polls and webhook deliveries and stops the server."""
        self._closing = True
        self.notify()
        await self._stop_delivering()
        if self._client is not None:
            await self._client.close()
            self._client = None
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeTelegram:
        await self.start()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.close()

    # -- users and chats ---------------------------------------------------------------------

    def create_user(
        self,
        first_name: str,
        *,
        language_code: str | None = "en",
        username: str | None = None,
        last_name: str | None = None,
        user_id: int | None = None,
    ) -> FakeUser:
        """Returns a new user; ``language_code`` is what their Telegram app reports."""
        user = FakeUser(
            id=user_id if user_id is not None else next(self._ids),
            first_name=first_name,
            username=username,
            language_code=language_code,
            last_name=last_name,
        )
        self.users[user.id] = user
        return user

    def private_chat(self, user: FakeUser) -> FakeChat:
        """Returns the private chat of ``user`` with the bot (its id is the user's id).

        The bot may not write there until the user has sent something (as in Telegram).
        """
        chat = self.chats.get(user.id)
        if chat is None:
            chat = FakeChat(id=user.id, type="private", partner=user, members={user.id: user})
            self.chats[chat.id] = chat
        return chat

    def create_group(
        self,
        title: str,
        members: list[FakeUser] | tuple[FakeUser, ...] = (),
        *,
        supergroup: bool = False,
        bot_is_admin: bool = False,
        creator: FakeUser | None = None,
    ) -> FakeChat:
        """Returns a new group (or supergroup) with the bot in it.

        ``creator`` created it (default: the first member; it joins ``members`` if missing).
        ``bot_is_admin`` makes the bot an administrator with :data:`ADMIN_RIGHTS`; see
        :meth:`set_bot_admin` and :meth:`set_member_status` for other rights and statuses.
        """
        number = next(self._group_ids)
        creator = creator or (members[0] if members else None)
        chat = FakeChat(
            id=-(1_000_000_000_000 + number) if supergroup else -(4_000_000 + number),
            type="supergroup" if supergroup else "group",
            title=title,
            members={user.id: user for user in (*members, *([creator] if creator else []))},
            creator_id=creator.id if creator else None,
            bot_rights=dict(ADMIN_RIGHTS) if bot_is_admin else None,
        )
        self.chats[chat.id] = chat
        return chat

    def chat_between(self, *users: FakeUser, title: str | None = None) -> FakeChat:
        """A chat of ``users`` that the bot is not in: a private chat between two of them, or
        (with a ``title``) a group without the bot. The bot learns of it only through inline
        messages posted there; it cannot write to it."""
        number = next(self._chats_without_bot)
        if title is None:
            assert len(users) == 2, "a private chat is between two users"
            chat = FakeChat(id=9_000_000_000 + number, type="private", members={})
        else:
            chat = FakeChat(id=-(8_000_000 + number), type="group", title=title)
            chat.bot_is_member = False
        chat.members = {user.id: user for user in users}
        self.chats[chat.id] = chat
        return chat

    def create_channel(self, title: str, *, bot_can_post: bool = True) -> FakeChat:
        """A private channel with the bot as an administrator who may post (or a member who
        may not, with ``bot_can_post=False``)."""
        number = next(self._group_ids)
        chat = FakeChat(id=-(1_000_000_000_000 + number), type="channel", title=title)
        chat.bot_rights = dict(ADMIN_RIGHTS) if bot_can_post else None
        self.chats[chat.id] = chat
        return chat

    def set_bot_admin(
        self, chat: FakeChat, admin: bool = True, *, by: FakeUser | None = None, **rights: bool
    ) -> None:
        """Promotes the bot in a group, or with ``admin=False`` demotes it to a member.

        Rights default to :data:`ADMIN_RIGHTS`; override some, e.g. ``can_pin_messages=False``.
        Like Telegram, queues a ``my_chat_member`` update from ``by`` (default: the creator;
        none if the group has no creator).
        """
        assert chat.type != "private", "the bot has no rights to set in a private chat"
        _check_rights(rights)
        old = self._member_json(chat, self.bot_user.id)
        chat.bot_rights = {**ADMIN_RIGHTS, **rights} if admin else None
        promoter = by or chat.members.get(chat.creator_id or 0)
        if promoter is not None:
            self.queue_update(
                {
                    "my_chat_member": {
                        "chat": chat.to_api(),
                        "from": promoter.to_api(),
                        "date": int(time.time()),
                        "old_chat_member": old,
                        "new_chat_member": self._member_json(chat, self.bot_user.id),
                    }
                }
            )

    def set_member_status(
        self, chat: FakeChat, user: FakeUser, status: MemberStatus, **rights: bool
    ) -> None:
        """Sets what getChatMember says of ``user`` in a group.

        ``"creator"`` makes ``user`` the creator (the former one stays a member),
        ``"administrator"`` an administrator with :data:`ADMIN_RIGHTS` overridden by
        ``rights``, ``"member"`` an ordinary member, ``"left"`` no longer in the chat.
        """
        assert chat.type != "private", "private chats have no member statuses"
        assert not rights or status == "administrator", "only administrators have rights"
        _check_rights(rights)
        chat.admins.pop(user.id, None)
        if chat.creator_id == user.id:
            chat.creator_id = None
        if status == "left":
            chat.members.pop(user.id, None)
            return
        chat.members[user.id] = user
        if status == "creator":
            chat.creator_id = user.id
        elif status == "administrator":
            chat.admins[user.id] = {**ADMIN_RIGHTS, **rights}

    def block_bot(self, user: FakeUser, *, tell: bool = False) -> None:
        """The user blocks the bot: sends to their private chat answer 403.

        ``tell``: like Telegram, also queues the ``my_chat_member`` update of their private chat
        (the bot's status there ``kicked``); without it the bot learns of the block only when a
        send is refused (an update it missed, or one from before it asked for them).
        """
        chat = self.private_chat(user)
        chat.blocked = True
        if tell:
            bot = {"user": self.bot_user.to_api()}
            self.queue_update(
                {
                    "my_chat_member": {
                        "chat": chat.to_api(),
                        "from": user.to_api(),
                        "date": int(time.time()),
                        "old_chat_member": {"status": "member", **bot},
                        "new_chat_member": {"status": "kicked", "until_date": 0, **bot},
                    }
                }
            )

    def unblock_bot(self, user: FakeUser) -> None:
        self.private_chat(user).blocked = False

    def kick_bot(self, chat: FakeChat) -> None:
        """Removes the bot from a group: sends there answer 403."""
        chat.bot_is_member = False

    def add_bot(self, chat: FakeChat, *, by: FakeUser, admin: bool = False, **rights: bool) -> None:
        """``by`` adds the bot to a group it is not in (see :meth:`chat_between`), as a member
        or (``admin``) an administrator with :data:`ADMIN_RIGHTS` overridden by ``rights``.
        Like Telegram, queues a ``my_chat_member`` update from ``by``: the bot's status from
        ``left`` to ``member`` (or ``administrator``)."""
        assert chat.type in ("group", "supergroup") and not chat.bot_is_member
        _check_rights(rights)
        old = self._member_json(chat, self.bot_user.id)
        chat.bot_is_member = True
        chat.bot_rights = {**ADMIN_RIGHTS, **rights} if admin else None
        chat.members.setdefault(by.id, by)
        self.queue_update(
            {
                "my_chat_member": {
                    "chat": chat.to_api(),
                    "from": by.to_api(),
                    "date": int(time.time()),
                    "old_chat_member": old,
                    "new_chat_member": self._member_json(chat, self.bot_user.id),
                }
            }
        )

    def migrate_to_supergroup(self, group: FakeChat) -> FakeChat:
        """Upgrades ``group``: calls with its id answer 400 with ``migrate_to_chat_id``.

        Queues the two service messages Telegram sends (``migrate_to_chat_id`` in the old chat,
        ``migrate_from_chat_id`` in the new one) and returns the new supergroup.
        """
        assert group.type == "group", "only basic groups migrate"
        members = list(group.members.values())
        supergroup = self.create_group(group.title or "", members, supergroup=True)
        supergroup.creator_id = group.creator_id
        supergroup.admins = {user_id: dict(rights) for user_id, rights in group.admins.items()}
        supergroup.bot_rights = dict(group.bot_rights) if group.bot_rights is not None else None
        sender = group.members.get(group.creator_id or 0) or self.bot_user
        for chat, service in (
            (group, {"migrate_to_chat_id": supergroup.id}),
            (supergroup, {"migrate_from_chat_id": group.id}),
        ):
            message = self._new_message(chat, sender, service=service)
            message.update_id = self.queue_update({"message": message.to_api()})
        group.migrated_to = supergroup.id
        return supergroup

    # -- acting as users ---------------------------------------------------------------------

    def send_text(
        self, user: FakeUser, chat: FakeChat, text: str, *, reply_to: FakeMessage | None = None
    ) -> FakeMessage:
        """``user`` writes ``text`` in ``chat``; returns the message (queued as an update).

        Commands get a ``bot_command`` entity at offset 0 and ``@names`` get ``mention``
        entities. In groups with privacy mode, messages that are not commands, do not mention
        the bot and do not reply to it are stored but not delivered (``update_id`` is None).
        """
        assert reply_to is None or reply_to.chat is chat, "reply_to must be in the same chat"
        if chat.type == "private" and chat.partner is not None:
            assert chat.partner == user, f"{user} cannot write in the private chat of {chat}"
            chat.started, chat.blocked = True, False
        else:
            assert user.id in chat.members or chat.type != "private", f"{user} is not in {chat}"
            chat.members.setdefault(user.id, user)
        message = self._new_message(
            chat, user, text=text, entities=self._user_entities(text), reply_to=reply_to
        )
        if self._delivers(chat, message):
            message.update_id = self.queue_update({"message": message.to_api()})
        return message

    def send_as_chat(
        self, chat: FakeChat, text: str, *, sender_chat: FakeChat | None = None
    ) -> FakeMessage:
        """A message in group ``chat`` sent on behalf of a chat, as Telegram delivers it: by an
        anonymous admin (on behalf of ``chat`` itself, from ``@GroupAnonymousBot``), or by a
        member writing as a channel (``sender_chat``, from ``@Channel_Bot``)."""
        assert chat.type in ("group", "supergroup"), "only groups have anonymous senders"
        sender = CHANNEL_SENDER if sender_chat is not None else ANONYMOUS_ADMIN
        message = self._new_message(
            chat,
            sender,
            text=text,
            entities=self._user_entities(text),
            sender_chat=sender_chat or chat,
        )
        if self._delivers(chat, message):
            message.update_id = self.queue_update({"message": message.to_api()})
        return message

    def tap(
        self, user: FakeUser, message: FakeMessage, callback_data: str, *, check: bool = True
    ) -> CallbackTap:
        """``user`` presses the inline button with ``callback_data`` on ``message``.

        With ``check`` the button must be on the message now; pass ``check=False`` to press a
        button of an old keyboard (a stale press, as from a slow client).
        """
        if check:
            datas = [b.callback_data for b in message.buttons]
            assert not message.deleted, f"{message} was deleted"
            assert callback_data in datas, f"no button {callback_data!r} on {message}: {datas}"
        if message.chat.type != "private":
            message.chat.members.setdefault(user.id, user)
        query_id = str(next(self._query_ids))
        query: dict[str, Any] = {
            "id": query_id,
            "from": user.to_api(),
            "chat_instance": message.chat.chat_instance,
            "data": callback_data,
        }
        if message.inline_message_id is not None:  # sent through the bot: no message for it
            query["inline_message_id"] = message.inline_message_id
        else:
            query["message"] = message.to_api()
        update_id = self.queue_update({"callback_query": query})
        tap = CallbackTap(query_id, update_id, user, message, callback_data)
        self.taps[query_id] = tap
        return tap

    def press(self, user: FakeUser, message: FakeMessage, text: str) -> CallbackTap:
        """``user`` presses the button labelled ``text`` (see :meth:`FakeMessage.button`)."""
        data = message.button(text).callback_data
        assert data is not None, f"button {text!r} has no callback_data"
        return self.tap(user, message, data)

    def inline_query(
        self, user: FakeUser, query: str = "", *, chat: FakeChat | None = None
    ) -> FakeInlineQuery:
        """``user`` types ``@bot query`` in ``chat`` (the chat's type goes with the query;
        ``sender`` for the user's own chat with the bot)."""
        assert self.inline_mode, "inline mode is off for this bot (BotFather: /setinline)"
        assert len(query) <= 256, "Telegram cuts inline queries at 256 characters"
        query_id = str(next(self._inline_query_ids))
        payload: dict[str, Any] = {
            "id": query_id,
            "from": user.to_api(),
            "query": query,
            "offset": "",
        }
        if chat is not None:
            private = chat.type == "private"
            payload["chat_type"] = "sender" if private and chat.partner == user else chat.type
        update_id = self.queue_update({"inline_query": payload})
        found = FakeInlineQuery(query_id, update_id, user, query, chat)
        self.inline_queries[query_id] = found
        return found

    def choose_inline_result(
        self, query: FakeInlineQuery, result_id: str, chat: FakeChat | None = None
    ) -> FakeMessage:
        """The user who sent ``query`` picks the result ``result_id`` of the bot's answer: it is
        posted in ``chat`` (the query's chat by default) "via @bot", as that user's message. With
        a keyboard the message gets an ``inline_message_id``; with inline feedback on, a
        ``chosen_inline_result`` update is queued. Returns the message."""
        answer = self.inline_answers.get(query.id)
        assert answer is not None, f"the bot has not answered {query}"
        result = answer.result(result_id)
        chat = chat or query.chat
        assert chat is not None, "in which chat is the result posted?"
        content = result.get("input_message_content") or {}
        fields: dict[str, Any] = {}
        if "message_text" in content:
            fields["text"], fields["entities"] = self._formatted(
                content, "message_text", "entities"
            )
        elif result["type"] == "photo":
            file_id = result["photo_file_id"]
            fields["photo"], fields["photo_file_id"] = self.files[file_id], file_id
            fields["photo_size"] = _image_size(self.files[file_id])
            fields["caption"], fields["entities"] = self._formatted(
                result, "caption", "caption_entities"
            )
        markup = result.get("reply_markup")
        message = self._new_message(
            chat, query.user, reply_markup=markup, via_bot=self.bot_user, **fields
        )
        chosen: dict[str, Any] = {
            "result_id": result_id,
            "from": query.user.to_api(),
            "query": query.query,
        }
        if markup:
            message.inline_message_id = f"BAAAA{next(self._inline_message_ids):08d}FakeInline"
            self.inline_messages[message.inline_message_id] = message
            chosen["inline_message_id"] = message.inline_message_id
        if self.inline_feedback:
            self.queue_update({"chosen_inline_result": chosen})
        return message

    async def next_inline_answer(
        self, query: FakeInlineQuery, timeout: float = DEFAULT_TIMEOUT
    ) -> FakeInlineAnswer:
        """Waits for the bot's ``answerInlineQuery`` to ``query`` and returns it."""
        return await self.wait_for(
            lambda: self.inline_answers.get(query.id),
            timeout,
            description=f"an answer to inline query {query.id}",
        )

    def queue_update(self, payload: dict[str, Any]) -> int:
        """Queues a raw update (``payload`` without ``update_id``); returns its id."""
        update_id = next(self._update_ids)
        update = {"update_id": update_id, **payload}
        self._all_updates[update_id] = update
        self._enqueue(update_id, update)
        return update_id

    def redeliver(self, update_id: int) -> None:
        """Queues update ``update_id`` again, identical, as Telegram does when unsure."""
        self._redelivering.add(update_id)
        self._enqueue(update_id, self._all_updates[update_id])

    def forge_update(self, payload: dict[str, Any]) -> dict[str, Any]:
        """Returns ``payload`` as an update with a new id, not queued: for
        :meth:`post_to_webhook` (a request that does not come from Telegram, or a copy of one
        that does)."""
        return {"update_id": next(self._update_ids), **payload}

    async def post_to_webhook(
        self, payload: Any, *, secret: str | None = KEEP, url: str | None = None
    ) -> WebhookPost:
        """POSTs ``payload`` (JSON) to the webhook, with the secret the bot set (default), with
        ``secret``, or with no secret header at all (``secret=None``); returns the answer. It
        changes nothing in the fake: a 200 confirms no queued update, and a method in the answer is
        not carried out (it went to whoever posted, not to Telegram)."""
        setting = self.webhook
        target = url or (setting.url if setting is not None else None)
        assert target, "no webhook is set"
        if secret is KEEP:
            secret = setting.secret_token if setting is not None else None
        status, body, _ = await self._post(target, payload, secret)
        update_id = payload.get("update_id") if isinstance(payload, dict) else None
        return WebhookPost(update_id, status, body.decode(errors="replace"))

    def delay_next(self, method: str, seconds: float, *, times: int = 1) -> None:
        """The next ``times`` calls of ``method`` are answered ``seconds`` late (a slow
        Telegram), so that a test can act while the bot waits for them."""
        self._delays.setdefault(method.lower(), deque()).extend([seconds] * times)

    # -- inspection --------------------------------------------------------------------------

    def messages(
        self,
        chat: FakeChat,
        *,
        from_bot: bool | None = True,
        include_deleted: bool = False,
        service: bool = False,
    ) -> list[FakeMessage]:
        """Messages of ``chat`` in order: the bot's by default, ``from_bot=None`` for all.

        Service messages (pins, migrations) are left out unless ``service=True``.
        """
        return [
            m
            for m in chat.messages.values()
            if (from_bot is None or m.from_bot == from_bot)
            and (include_deleted or not m.deleted)
            and (service or not m.is_service)
        ]

    def last_message(self, chat: FakeChat, *, from_bot: bool | None = True) -> FakeMessage:
        """The newest message of ``chat`` that is not deleted (the bot's by default)."""
        found = self.messages(chat, from_bot=from_bot)
        if not found:
            raise AssertionError(f"no messages in {chat}\n{self.describe_recent()}")
        return found[-1]

    def message(self, chat: FakeChat, message_id: int) -> FakeMessage:
        return chat.messages[message_id]

    def requests_for(self, method: str, *, since: int = 0) -> list[RecordedRequest]:
        """Calls of ``method`` (any case) from index ``since`` of :attr:`requests`."""
        return [r for r in self.requests[since:] if r.method.lower() == method.lower()]

    def mark(self) -> int:
        """The index of the next request, to pass as ``since=``."""
        return len(self.requests)

    def commands(
        self, *, language_code: str = "", scope: dict[str, Any] | None = None
    ) -> list[tuple[str, str]]:
        """The (command, description) menu set for a scope (default) and language ("" = all)."""
        key = (self._scope_key(scope), language_code)
        return [(c["command"], c["description"]) for c in self._commands.get(key, [])]

    def menu_seen(self, user: FakeUser, chat: FakeChat) -> list[tuple[str, str]]:
        """The (command, description) menu ``user`` sees in ``chat``: the first list set of
        the scopes Telegram tries for that chat (the Bot API's "Determining list of
        commands"), each with the user's ``language_code`` first, then for every language;
        [] when none is set."""
        chat_id = chat.id
        if chat.type == "private":
            scopes: list[dict[str, Any]] = [
                {"type": "chat", "chat_id": chat_id},
                {"type": "all_private_chats"},
                {"type": "default"},
            ]
        else:
            admin = chat.status_of(user) in ("creator", "administrator")
            scopes = [{"type": "chat_member", "chat_id": chat_id, "user_id": user.id}]
            if admin:
                scopes.append({"type": "chat_administrators", "chat_id": chat_id})
            scopes.append({"type": "chat", "chat_id": chat_id})
            if admin:
                scopes.append({"type": "all_chat_administrators"})
            scopes += [{"type": "all_group_chats"}, {"type": "default"}]
        for scope in scopes:
            for language in (user.language_code or "", ""):
                found = self._commands.get((self._scope_key(scope), language))
                if found is not None:
                    return [(c["command"], c["description"]) for c in found]
        return []

    @property
    def command_menus(self) -> dict[tuple[str, str], list[dict[str, str]]]:
        """Every menu set with setMyCommands, keyed by (scope JSON, language_code)."""
        return dict(self._commands)

    @property
    def pending_update_ids(self) -> list[int]:
        """Updates queued and not yet confirmed by the bot."""
        return [update_id for update_id, _ in self._pending]

    def describe_recent(self, count: int = 15) -> str:
        """The last requests, for failure messages."""
        recent = "\n".join(f"  {r!r}" for r in self.requests[-count:])
        return (
            f"pending updates: {self.pending_update_ids}; dropped as not in allowed_updates "
            f"{sorted(self._allowed_updates)}: {self.dropped_update_ids}\nlast requests:\n{recent}"
        )

    # -- failures on demand ------------------------------------------------------------------

    def fail_next(
        self,
        method: str,
        *,
        times: int = 1,
        error_code: int = 500,
        description: str = "Internal Server Error",
        parameters: dict[str, Any] | None = None,
    ) -> None:
        """The next ``times`` calls of ``method`` answer this error instead of running."""
        queue = self._injected.setdefault(method.lower(), deque())
        queue.extend(ApiError(error_code, description, parameters) for _ in range(times))

    def fail_until_healed(
        self, *methods: str, error_code: int = 502, description: str = "Bad Gateway"
    ) -> None:
        """Every call of ``methods`` answers this error (recorded, not run) until :meth:`heal`;
        long polls under way end with it too, as when the proxy in front of the Bot API cuts
        them."""
        for method in methods:
            self._failing[method.lower()] = ApiError(error_code, description)
        self.notify()

    def heal(self, *methods: str) -> None:
        """Ends :meth:`fail_until_healed` for ``methods`` (every method when none is named)."""
        for method in methods or list(self._failing):
            self._failing.pop(method.lower(), None)
        self.notify()

    def drop_answer_next(self, method: str, *, times: int = 1) -> None:
        """The next ``times`` calls of ``method`` are carried out, then the connection is closed
        without an answer: the client cannot tell whether anything happened."""
        self._dropping[method.lower()] += times

    def expire_callback_queries(self) -> None:
        """Every press so far is too old to answer (400 "query is too old"), as in Telegram
        some seconds after the press."""
        self._expired_queries.update(self.taps)

    def flood_next(self, method: str, *, retry_after: int = 1, times: int = 1) -> None:
        """The next ``times`` calls of ``method`` answer 429 with ``parameters.retry_after``."""
        self.fail_next(
            method,
            times=times,
            error_code=429,
            description=f"Too Many Requests: retry after {retry_after}",
            parameters={"retry_after": retry_after},
        )

    def hold_chats(self, *chats: FakeChat) -> None:
        """Requests with the ``chat_id`` of one of ``chats`` are recorded when they arrive but
        carried out and answered only after :meth:`release_chats`, as over a link that has
        stalled (:attr:`holding` counts those waiting)."""
        self._held.update(chat.id for chat in chats)

    def release_chats(self) -> None:
        """Ends :meth:`hold_chats`: what waits is carried out and answered, in order."""
        self._held.clear()
        self._released.set()
        self._released = asyncio.Event()

    # -- waiting -----------------------------------------------------------------------------

    def notify(self) -> None:
        """Wakes every :meth:`wait_for` to re-check (the harness calls it too)."""
        self._changed.set()
        self._changed = asyncio.Event()

    async def wait_for(
        self,
        predicate: Callable[[], T | None],
        timeout: float = DEFAULT_TIMEOUT,
        *,
        description: str | None = None,
    ) -> T:
        """Returns the first truthy result of ``predicate``, re-checked after every change.

        :raises: :exc:`AssertionError` after ``timeout`` seconds, listing recent requests.
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            changed = self._changed
            result = predicate()
            if result:
                return result
            remaining = deadline - loop.time()
            if remaining <= 0:
                what = description or getattr(predicate, "__qualname__", repr(predicate))
                raise AssertionError(
                    f"timed out after {timeout}s waiting for {what}\n{self.describe_recent()}"
                )
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(changed.wait(), remaining)

    async def wait_for_request(
        self,
        method: str,
        where: Callable[[RecordedRequest], bool] | None = None,
        *,
        since: int = 0,
        timeout: float = DEFAULT_TIMEOUT,
    ) -> RecordedRequest:
        """Returns the first answered call of ``method`` from index ``since`` matching ``where``."""

        def find() -> RecordedRequest | None:
            for request in self.requests_for(method, since=since):
                if request.status is not None and (where is None or where(request)):
                    return request
            return None

        return await self.wait_for(find, timeout, description=f"a {method} request")

    async def wait_for_message(
        self,
        chat: FakeChat,
        *,
        after: FakeMessage | int = 0,
        where: Callable[[FakeMessage], bool] | None = None,
        timeout: float = DEFAULT_TIMEOUT,
    ) -> FakeMessage:
        """Returns the first bot message in ``chat`` newer than ``after`` matching ``where``."""
        after_id = after.message_id if isinstance(after, FakeMessage) else after

        def find() -> FakeMessage | None:
            for message in self.messages(chat):
                if message.message_id > after_id and (where is None or where(message)):
                    return message
            return None

        return await self.wait_for(find, timeout, description=f"a bot message in {chat}")

    async def next_answer_to(
        self, tap: CallbackTap | str, timeout: float = DEFAULT_TIMEOUT
    ) -> FakeCallbackAnswer:
        """Waits for the bot's ``answerCallbackQuery`` to ``tap`` and returns it."""
        query_id = tap.id if isinstance(tap, CallbackTap) else tap
        return await self.wait_for(
            lambda: self.answers.get(query_id), timeout, description=f"an answer to {query_id}"
        )

    # -- internals: messages and updates -----------------------------------------------------

    def _new_message(self, chat: FakeChat, sender: FakeUser, **fields: Any) -> FakeMessage:
        message = FakeMessage(
            chat=chat,
            message_id=chat.next_message_id,
            sender=sender,
            date=int(time.time()),
            **fields,
        )
        chat.next_message_id += 1
        chat.messages[message.message_id] = message
        self.notify()
        return message

    def _user_entities(self, text: str) -> list[dict[str, Any]]:
        entities = []
        if text.startswith("/") and len(text) > 1:
            command = text.split(maxsplit=1)[0]
            entities.append({"type": "bot_command", "offset": 0, "length": utf16_length(command)})
        for match in MENTION.finditer(text):
            entities.append(
                {
                    "type": "mention",
                    "offset": utf16_length(text[: match.start()]),
                    "length": utf16_length(match.group()),
                }
            )
        return entities

    def _delivers(self, chat: FakeChat, message: FakeMessage) -> bool:
        if not chat.bot_is_member or (chat.type == "private" and chat.partner is None):
            return False  # a chat the bot is not in
        if chat.type == "private" or not self.privacy_mode:
            return True
        text = message.text or ""
        mention = f"@{self.bot_user.username}".lower()
        if text.startswith("/"):
            command = text.split(maxsplit=1)[0].lower()
            return "@" not in command or command.endswith(mention)
        replied_to_bot = message.reply_to is not None and message.reply_to.from_bot
        return replied_to_bot or mention in text.lower()

    def _enqueue(self, update_id: int, update: dict[str, Any]) -> None:
        self._pending.append((update_id, update))
        self._pending.sort(key=lambda item: item[0])
        self._delivered.discard(update_id)
        self.notify()

    def _confirm(self, offset: int) -> None:
        if offset > 0:
            # A redelivered update is older than the bot's offset: it survives until delivered.
            confirmed = [u for u, _ in self._pending if u < offset and u not in self._redelivering]
        elif offset < 0:  # -N: keep the last N, forget the rest
            confirmed = [u for u, _ in self._pending[:offset]]
        else:
            return
        self._pending = [(u, p) for u, p in self._pending if u not in confirmed]
        for update_id in confirmed:
            if update_id in self._delivered:
                self.confirmations[update_id] += 1
                self._delivered.discard(update_id)

    def _deliverable(self, limit: int) -> list[dict[str, Any]]:
        batch = []
        for update_id, update in list(self._pending):
            kind = next(k for k in update if k != "update_id")
            if kind not in self._allowed_updates:
                self._pending.remove((update_id, update))  # Telegram drops what was not asked for
                self.dropped_update_ids.append(update_id)
                continue
            batch.append(update)
            if len(batch) == limit:
                break
        return batch

    # -- internals: HTTP ---------------------------------------------------------------------

    async def _handle(self, request: web.Request) -> web.Response:
        name = request.match_info["method"]
        token = request.match_info["token"]
        if token != self.token:
            # Telegram answers 404 for a token that cannot be one, 401 for an unknown one.
            error = ApiError(401, "Unauthorized")
            if not TOKEN_SHAPE.fullmatch(token):
                error = ApiError(404, "Not Found")
            return web.json_response(error.to_json(), status=error.error_code)
        method = self._canonical.get(name.lower(), name)
        try:
            params, files = await self._read_params(request)
        except ApiError as error:
            return web.json_response(error.to_json(), status=error.error_code)
        record = RecordedRequest(method=method, params=params, files=files)
        status, body = await self._call(name, record)
        if self._dropping[name.lower()] > 0:
            self._dropping[name.lower()] -= 1
            self.notify()
            assert request.transport is not None
            request.transport.close()  # done, but the answer is lost: status stays None
            return web.Response()
        record.status, record.response = status, body
        self.notify()
        return web.json_response(body, status=status)

    async def _call(self, name: str, record: RecordedRequest) -> tuple[int, dict[str, Any]]:
        """Records and carries out one Bot API call (``name`` as the bot spelled it): whether
        it came as a request or in the answer to a webhook POST."""
        params, files = record.params, record.files
        self.requests.append(record)
        self.notify()
        delays = self._delays.get(name.lower())
        if delays:
            await asyncio.sleep(delays.popleft())
        while self._held and str(params.get("chat_id")) in {str(c) for c in self._held}:
            self.holding += 1
            self.notify()
            try:
                await self._released.wait()
            finally:
                self.holding -= 1
        try:
            injected = self._injected.get(name.lower())
            if injected:
                raise injected.popleft()
            if name.lower() in self._failing:
                raise self._failing[name.lower()]
            implementation = self._methods.get(name.lower())
            if implementation is None:
                raise ApiError(404, f"Not Found: method {name} is not implemented by FakeTelegram")
            result = implementation(params, files)
            if inspect.isawaitable(result):
                result = await result
            return 200, {"ok": True, "result": result}
        except ApiError as error:
            return error.error_code, error.to_json()

    async def _read_params(self, request: web.Request) -> tuple[dict[str, Any], dict[str, bytes]]:
        raw: dict[str, Any] = dict(request.query)
        files: dict[str, bytes] = {}
        if request.content_type == "application/json":
            raw.update(await request.json())
        elif request.content_type == "multipart/form-data":
            # read part by part, in memory: ``request.post()`` writes each file to a temporary
            # file first, which cost more than the rest of a board edit's reading
            async for part in await request.multipart():
                if not isinstance(part, BodyPartReader) or (name := part.name) is None:
                    raise bad_request("can't parse the request")
                data = bytes(await part.read(decode=True))
                filename = part.filename  # each read of a name parses the part's header again
                if filename is not None:
                    files[name] = UploadedFile(data, filename, part.headers.get(hdrs.CONTENT_TYPE))
                else:
                    raw[name] = data.decode(part.get_charset("utf-8"))
        elif request.can_read_body:
            raw.update(await request.post())
        return _decoded(raw), files

    async def _carry_out_answer(self, body: bytes, content_type: str) -> None:
        """Carries out the method that a webhook's answer holds, as Telegram does: a bot may
        make one call by answering the POST with it (and learns nothing of how it went)."""
        try:
            raw = _answer_fields(body, content_type)
            name = str(raw.pop("method", ""))
            params = _decoded(raw)
        except (ApiError, ValueError):
            return  # Telegram ignores an answer it cannot read
        if not name:
            return
        method = self._canonical.get(name.lower(), name)
        record = RecordedRequest(method=method, params=params, files={}, in_answer=True)
        record.status, record.response = await self._call(name, record)
        self.notify()

    # -- internals: checks shared by methods -------------------------------------------------

    def _chat(self, params: dict[str, Any]) -> FakeChat:
        if params.get("chat_id") in (None, ""):
            raise bad_request("chat_id is empty")
        chat = self.chats.get(_as_int(params["chat_id"], "chat not found"))
        if chat is None:
            raise bad_request("chat not found")
        if chat.migrated_to is not None:
            raise bad_request(
                "group chat was upgraded to a supergroup chat",
                {"migrate_to_chat_id": chat.migrated_to},
            )
        return chat

    def _writable_chat(self, params: dict[str, Any]) -> FakeChat:
        chat = self._chat(params)
        if chat.type == "private":
            if chat.blocked:
                raise forbidden("bot was blocked by the user")
            if not chat.started:
                raise forbidden("bot can't initiate conversation with a user")
        elif chat.type == "channel":
            if not chat.bot_is_member:
                raise forbidden("bot is not a member of the channel chat")
            if chat.bot_rights is None:
                raise bad_request("need administrator rights in the channel chat")
        elif not chat.bot_is_member:
            kind = "supergroup" if chat.type == "supergroup" else "group"
            raise forbidden(f"bot is not a member of the {kind} chat")
        return chat

    def _formatted(
        self, params: dict[str, Any], key: str, entities_key: str
    ) -> tuple[str | None, list[dict[str, Any]]]:
        text = params.get(key)
        if text is None:
            return None, []
        parse_mode = params.get("parse_mode") or ""
        if not parse_mode:
            return text, list(params.get(entities_key) or [])
        if parse_mode.lower() != "html":
            raise bad_request(f"unsupported parse_mode {parse_mode!r} (FakeTelegram knows HTML)")
        try:
            return parse_html(text)
        except TelegramHtmlError as error:
            raise bad_request(f"can't parse entities: {error}") from None

    def _markup(self, markup: Any, *, inline_only: bool) -> dict[str, Any] | None:
        if markup is None:
            return None
        if not isinstance(markup, dict):
            raise bad_request("can't parse reply keyboard markup JSON object")
        if "inline_keyboard" not in markup:
            if inline_only:
                raise bad_request("inline keyboard expected")
            return markup
        rows = markup["inline_keyboard"]
        if not isinstance(rows, list) or not all(isinstance(row, list) for row in rows):
            raise bad_request('can\'t parse inline keyboard button: field "inline_keyboard"')
        if sum(len(row) for row in rows) > 100:
            raise bad_request("reply markup is too long")
        for row in rows:
            for button in row:
                if not isinstance(button, dict) or not button.get("text"):
                    raise bad_request("BUTTON_TEXT_INVALID")
                if not INLINE_ACTIONS & button.keys():
                    raise bad_request("text buttons are unallowed in the inline keyboard")
                data = button.get("callback_data")
                if data is not None and not 1 <= len(str(data).encode()) <= 64:
                    raise bad_request("BUTTON_DATA_INVALID")
        return markup if any(rows) else None

    def _upload(
        self, value: Any, files: dict[str, bytes], field: str, kind: str = "photo"
    ) -> tuple[UploadedFile, str]:
        """The file of ``field`` (``kind`` photo or document) and its (new or reused) file_id."""
        if isinstance(value, str) and value.startswith("attach://"):
            data = files.get(value.removeprefix("attach://"))
            if data is None:
                raise bad_request(f"there is no {field} in the request")
        elif value is None and field in files:
            data = files[field]
        elif value is None or value == "":
            raise bad_request(f"there is no {field} in the request")
        elif isinstance(value, str) and value in self.files:
            if self._file_kinds[value] != kind:
                raise bad_request("type of file mismatch")
            return self.files[value], value
        else:
            raise bad_request("wrong file identifier/HTTP URL specified")
        if not data:
            raise bad_request("file must be non-empty")
        if len(data) > MAX_UPLOAD_SIZE:
            raise ApiError(413, "Request Entity Too Large")
        upload = data if isinstance(data, UploadedFile) else UploadedFile(data, field)
        file_id = f"{FILE_ID_PREFIXES[kind]}{next(self._file_ids):06d}"
        self.files[file_id] = upload
        self._file_kinds[file_id] = kind
        return upload, file_id

    def _reply_target(self, chat: FakeChat, params: dict[str, Any]) -> FakeMessage | None:
        reply = params.get("reply_parameters") or {}
        message_id = reply.get("message_id") or params.get("reply_to_message_id")
        if not message_id:
            return None
        target = chat.messages.get(int(message_id))
        if target is None or target.deleted:
            lenient = reply.get("allow_sending_without_reply")
            if _as_bool(lenient or params.get("allow_sending_without_reply")):
                return None
            raise bad_request("message to be replied not found")
        return target

    def _editable(self, params: dict[str, Any]) -> FakeMessage:
        inline_message_id = params.get("inline_message_id")
        if inline_message_id:  # the bot may not be in that chat: the id is all it needs
            message = self.inline_messages.get(str(inline_message_id))
            if message is None or message.deleted:
                raise bad_request("MESSAGE_ID_INVALID")
            return message
        chat = self._writable_chat(params)
        message = chat.messages.get(_as_int(params.get("message_id"), "message_id is empty"))
        if message is None or message.deleted:
            raise bad_request("message to edit not found")
        if not message.from_bot:
            raise bad_request("message can't be edited")
        return message

    def _commit_edit(self, message: FakeMessage, **changes: Any) -> dict[str, Any] | bool:
        if all(getattr(message, key) == value for key, value in changes.items()):
            raise bad_request(NOT_MODIFIED)
        for key, value in changes.items():
            setattr(message, key, value)
        message.edit_date = int(time.time())
        message.edit_count += 1
        self.notify()
        # the edited message, except for an inline one: Telegram answers true
        return True if message.inline_message_id is not None else message.to_api()

    @staticmethod
    def _scope_key(scope: dict[str, Any] | None) -> str:
        """A scope as a key: its type and the ids it names (a chat's as a number, however the
        request wrote it), refused as Telegram refuses an unknown type or a missing id."""
        scope = dict(scope or {"type": "default"})
        needs = SCOPE_IDS.get(str(scope.get("type")))
        if needs is None:
            raise bad_request("wrong bot command scope type specified")
        for key in needs:
            if key not in scope:
                raise bad_request(f"bot command scope {key} is required")
            scope[key] = int(scope[key])
        return json.dumps({"type": scope["type"], **{k: scope[k] for k in needs}}, sort_keys=True)

    def _check_caption(self, caption: str | None) -> None:
        if caption is not None and len(caption) > 1024:
            raise bad_request("message caption is too long")

    # -- Bot API methods ---------------------------------------------------------------------

    def _api_getMe(self, params: dict[str, Any], files: dict[str, bytes]) -> Any:
        return {
            **self.bot_user.to_api(),
            "can_join_groups": True,
            "can_read_all_group_messages": not self.privacy_mode,
            "supports_inline_queries": self.inline_mode,
        }

    async def _api_getUpdates(self, params: dict[str, Any], files: dict[str, bytes]) -> Any:
        if self.webhook is not None:
            raise ApiError(409, WEBHOOK_CONFLICT)
        self._confirm(_as_int(params.get("offset", 0), "wrong offset"))
        limit = min(max(_as_int(params.get("limit", 100), "wrong limit"), 1), 100)
        timeout = max(_as_int(params.get("timeout", 0), "wrong timeout"), 0)
        allowed = params.get("allowed_updates")
        if allowed is not None:
            self._allowed_updates = frozenset(allowed) or DEFAULT_ALLOWED_UPDATES
        self._poll_generation += 1
        generation = self._poll_generation
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            if "getupdates" in self._failing:  # the proxy in front cuts the long poll
                raise self._failing["getupdates"]
            if self.webhook is not None:
                raise ApiError(409, "Conflict: terminated by setWebhook request")
            if generation != self._poll_generation:
                raise ApiError(
                    409,
                    "Conflict: terminated by other getUpdates request; "
                    "make sure that only one bot instance is running",
                )
            changed = self._changed
            batch = self._deliverable(limit)
            remaining = deadline - loop.time()
            if batch or remaining <= 0 or self._closing:
                self._delivered.update(update["update_id"] for update in batch)
                self._redelivering.difference_update(self._delivered)
                return batch
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(changed.wait(), remaining)

    async def _api_setWebhook(self, params: dict[str, Any], files: dict[str, bytes]) -> Any:
        url = str(params.get("url") or "")
        if not url:  # as in Telegram: an empty address removes the webhook
            return await self._api_deleteWebhook(params, files)
        if not url.startswith(("http://", "https://")):
            raise bad_request("bad webhook: An HTTPS URL must be provided for webhook")
        secret = params.get("secret_token")
        if secret is not None and not SECRET_TOKEN_SHAPE.fullmatch(str(secret)):
            raise bad_request("secret token contains unallowed characters")
        max_connections = _as_int(params.get("max_connections", 40), "bad max_connections")
        if not 1 <= max_connections <= 100:
            raise bad_request("bad webhook: max_connections must be between 1 and 100")
        allowed = params.get("allowed_updates")
        if allowed is not None:
            self._allowed_updates = frozenset(allowed) or DEFAULT_ALLOWED_UPDATES
        if _as_bool(params.get("drop_pending_updates")):
            self._pending.clear()
        self.webhook = WebhookSetting(
            url, str(secret) if secret else None, self._allowed_updates, max_connections
        )
        self.webhook_settings.append(self.webhook)
        self._webhook_error = None
        self._start_delivering()
        self.notify()
        return True

    async def _api_deleteWebhook(self, params: dict[str, Any], files: dict[str, bytes]) -> Any:
        self.webhook_deleted += 1
        if self.webhook is not None:
            self.webhook = None
            await self._stop_delivering()
        if _as_bool(params.get("drop_pending_updates")):
            self._pending.clear()
        return True

    def _api_getWebhookInfo(self, params: dict[str, Any], files: dict[str, bytes]) -> Any:
        info: dict[str, Any] = {
            "url": self.webhook.url if self.webhook is not None else "",
            "has_custom_certificate": False,
            "pending_update_count": len(self._pending),
        }
        if self.webhook is not None:
            info["max_connections"] = self.webhook.max_connections
            info["allowed_updates"] = sorted(self.webhook.allowed_updates)
        if self._webhook_error is not None:
            info["last_error_date"], info["last_error_message"] = self._webhook_error
        return info

    # -- internals: webhook deliveries -------------------------------------------------------

    def _start_delivering(self) -> None:
        if self.webhook is not None and self._runner is not None and self._deliverer is None:
            self._deliverer = asyncio.create_task(self._deliver(), name="fake-webhook")

    async def _stop_delivering(self) -> None:
        tasks = [t for t in (self._deliverer, *self._posts) if t is not None]
        self._deliverer = None
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._posting.clear()
        self._retry_at.clear()

    async def _deliver(self) -> None:
        """Posts every queued update to the webhook, each at most once at a time and at most
        ``max_connections`` together; one that fails is tried again after
        :attr:`webhook_retry_seconds`."""
        loop = asyncio.get_running_loop()
        while self.webhook is not None and not self._closing:
            changed = self._changed
            now = loop.time()
            for update in self._deliverable(100):
                update_id = update["update_id"]
                if update_id in self._posting or self._retry_at.get(update_id, 0.0) > now:
                    continue
                if len(self._posting) >= self.webhook.max_connections:
                    break
                self._posting.add(update_id)
                task = asyncio.create_task(self._post_update(update))
                self._posts.add(task)
                task.add_done_callback(self._posts.discard)
            later = [at - now for at in self._retry_at.values() if at > now]
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(changed.wait(), min(later) if later else None)

    async def _post_update(self, update: dict[str, Any]) -> None:
        update_id = update["update_id"]
        setting = self.webhook
        assert setting is not None
        try:
            targets = list(self.balancer) or [setting.url]
            start = _chat_of(update) if self.sticky_chats else next(self._turn)
            for step in range(len(targets)):  # a refused connection goes to the next
                target = targets[(start + step) % len(targets)]
                status, body, content_type = await self._post(target, update, setting.secret_token)
                if status is not None:
                    break
        finally:
            self._posting.discard(update_id)
        self.webhook_posts.append(WebhookPost(update_id, status, body.decode(errors="replace")))
        if status == 200:
            self._retry_at.pop(update_id, None)
            entry = next((e for e in self._pending if e[0] == update_id), None)
            if entry is not None:
                self._pending.remove(entry)
                self.confirmations[update_id] += 1
        else:
            why = f"Wrong response from the webhook: {status}" if status else "Connection refused"
            self._webhook_error = (int(time.time()), why)
            self._retry_at[update_id] = asyncio.get_running_loop().time() + (
                self.webhook_retry_seconds
            )
        self.notify()
        if status == 200:  # once the update is confirmed: a slow call does not post it again
            await self._carry_out_answer(body, content_type)

    async def _post(
        self, url: str, payload: Any, secret: str | None
    ) -> tuple[int | None, bytes, str]:
        """POSTs ``payload``; returns the answer's status (None: no connection or no answer),
        body and content type."""
        if self._client is None:
            self._client = ClientSession(timeout=ClientTimeout(total=60))
        headers = {SECRET_HEADER: secret} if secret is not None else {}
        try:
            async with self._client.post(url, json=payload, headers=headers) as response:
                return (
                    response.status,
                    await response.read(),
                    response.headers.get("Content-Type", ""),
                )
        except (ClientError, OSError, TimeoutError):
            return None, b"", ""

    def _api_setMyCommands(self, params: dict[str, Any], files: dict[str, bytes]) -> Any:
        commands = params.get("commands")
        if not isinstance(commands, list) or len(commands) > 100:
            raise bad_request("BOT_COMMANDS_TOO_MUCH" if commands else "commands are empty")
        for command in commands:
            if not COMMAND_NAME.match(str(command.get("command", ""))):
                raise bad_request("BOT_COMMAND_INVALID")
            if not 1 <= len(str(command.get("description", "")).strip()) <= 256:
                raise bad_request("BOT_COMMAND_DESCRIPTION_INVALID")
        language_code = params.get("language_code") or ""
        if language_code and not re.fullmatch(r"[a-z]{2}", language_code):
            raise bad_request("invalid language code specified")
        scope = params.get("scope") or {}
        if scope.get("type") == "chat":  # a chat the bot knows: a user's only once they wrote
            chat = self.chats.get(_as_int(scope.get("chat_id"), "chat not found"))
            if chat is None or (chat.type == "private" and not chat.started):
                raise bad_request("chat not found")
        key = (self._scope_key(params.get("scope")), language_code)
        self._commands[key] = [
            {"command": c["command"], "description": c["description"]} for c in commands
        ]
        return True

    def _api_getMyCommands(self, params: dict[str, Any], files: dict[str, bytes]) -> Any:
        key = (self._scope_key(params.get("scope")), params.get("language_code") or "")
        return self._commands.get(key, [])

    def _api_deleteMyCommands(self, params: dict[str, Any], files: dict[str, bytes]) -> Any:
        key = (self._scope_key(params.get("scope")), params.get("language_code") or "")
        self._commands.pop(key, None)
        return True

    def _api_sendMessage(self, params: dict[str, Any], files: dict[str, bytes]) -> Any:
        chat = self._writable_chat(params)
        text, entities = self._formatted(params, "text", "entities")
        if not text or not text.strip():
            raise bad_request("message text is empty")
        if len(text) > 4096:
            raise bad_request("message is too long")
        return self._send_new(chat, params, text=text, entities=entities)

    def _api_sendPhoto(self, params: dict[str, Any], files: dict[str, bytes]) -> Any:
        chat = self._writable_chat(params)
        photo, file_id = self._upload(params.get("photo"), files, "photo")
        size = _image_size(photo)
        caption, entities = self._formatted(params, "caption", "caption_entities")
        self._check_caption(caption)
        return self._send_new(
            chat,
            params,
            caption=caption,
            entities=entities,
            photo=photo,
            photo_file_id=file_id,
            photo_size=size,
        )

    def _api_sendDocument(self, params: dict[str, Any], files: dict[str, bytes]) -> Any:
        chat = self._writable_chat(params)
        document, file_id = self._upload(params.get("document"), files, "document", "document")
        name = document.filename or "document"
        caption, entities = self._formatted(params, "caption", "caption_entities")
        self._check_caption(caption)
        return self._send_new(
            chat,
            params,
            caption=caption,
            entities=entities,
            document=document,
            document_file_id=file_id,
            document_name=name,
            document_mime_type=_mime_type(document, name),
        )

    def _api_sendAnimation(self, params: dict[str, Any], files: dict[str, bytes]) -> Any:
        chat = self._writable_chat(params)
        animation, file_id = self._upload(params.get("animation"), files, "animation", "animation")
        size = _animation_size(animation)
        caption, entities = self._formatted(params, "caption", "caption_entities")
        self._check_caption(caption)
        return self._send_new(
            chat,
            params,
            caption=caption,
            entities=entities,
            animation=animation,
            animation_file_id=file_id,
            animation_name=animation.filename or "animation",
            animation_size=size,
            animation_duration=_as_int(params.get("duration", 0), "duration is not a number"),
        )

    def _send_new(self, chat: FakeChat, params: dict[str, Any], **content: Any) -> Any:
        """A new message of the bot in ``chat`` with ``content`` and the request's keyboard and
        reply target; returns it as the API does."""
        markup = self._markup(params.get("reply_markup"), inline_only=False)
        reply_to = self._reply_target(chat, params)
        message = self._new_message(
            chat, self.bot_user, reply_markup=markup, reply_to=reply_to, **content
        )
        return message.to_api()

    def _api_editMessageText(self, params: dict[str, Any], files: dict[str, bytes]) -> Any:
        message = self._editable(params)
        if message.text is None:
            raise bad_request("there is no text in the message to edit")
        text, entities = self._formatted(params, "text", "entities")
        if not text or not text.strip():
            raise bad_request("message text is empty")
        if len(text) > 4096:
            raise bad_request("MESSAGE_TOO_LONG")
        markup = self._markup(params.get("reply_markup"), inline_only=True)
        return self._commit_edit(message, text=text, entities=entities, reply_markup=markup)

    def _api_editMessageCaption(self, params: dict[str, Any], files: dict[str, bytes]) -> Any:
        message = self._editable(params)
        if message.photo is None and message.document is None:
            raise bad_request("there is no caption in the message to edit")
        caption, entities = self._formatted(params, "caption", "caption_entities")
        self._check_caption(caption)
        markup = self._markup(params.get("reply_markup"), inline_only=True)
        return self._commit_edit(message, caption=caption, entities=entities, reply_markup=markup)

    def _api_editMessageMedia(self, params: dict[str, Any], files: dict[str, bytes]) -> Any:
        message = self._editable(params)
        media = params.get("media")
        if not isinstance(media, dict) or media.get("type") != "photo":
            raise bad_request("FakeTelegram supports editMessageMedia with type photo only")
        if message.photo is None and message.text is None:
            raise bad_request("there is no media in the message to edit")
        source = media.get("media")
        if message.inline_message_id is not None and not (
            isinstance(source, str) and source in self.files
        ):
            # an inline message may live in another data centre: no upload, a file_id only
            # (or a URL, which the fake cannot fetch)
            raise bad_request(INVALID_CONTENT)
        photo, file_id = self._upload(source, files, "media")
        size = _image_size(photo)
        caption, entities = self._formatted(media, "caption", "caption_entities")
        self._check_caption(caption)
        markup = self._markup(params.get("reply_markup"), inline_only=True)
        return self._commit_edit(  # a text message becomes a photo with a caption
            message,
            text=None,
            photo=photo,
            photo_file_id=file_id,
            photo_size=size,
            caption=caption,
            entities=entities,
            reply_markup=markup,
        )

    def _api_editMessageReplyMarkup(self, params: dict[str, Any], files: dict[str, bytes]) -> Any:
        message = self._editable(params)
        markup = self._markup(params.get("reply_markup"), inline_only=True)
        return self._commit_edit(message, reply_markup=markup)

    def _deletable(self, chat: FakeChat, message_id: int) -> FakeMessage | None:
        message = chat.messages.get(message_id)
        if message is None or message.deleted:
            return None
        if chat.type != "private" and not message.from_bot and not self._bot_can(chat, "delete"):
            raise bad_request("message can't be deleted")
        return message

    def _delete(self, chat: FakeChat, message: FakeMessage) -> None:
        message.deleted = True
        if message.message_id in chat.pinned:  # deleting a message unpins it
            chat.pinned.remove(message.message_id)

    def _api_deleteMessage(self, params: dict[str, Any], files: dict[str, bytes]) -> Any:
        chat = self._chat(params)
        message = self._deletable(chat, _as_int(params.get("message_id"), "message_id is empty"))
        if message is None:
            raise bad_request("message to delete not found")
        self._delete(chat, message)
        self.notify()
        return True

    def _api_deleteMessages(self, params: dict[str, Any], files: dict[str, bytes]) -> Any:
        chat = self._chat(params)
        for message_id in params.get("message_ids") or []:
            if (message := self._deletable(chat, int(message_id))) is not None:
                self._delete(chat, message)
        self.notify()
        return True

    def _api_answerCallbackQuery(self, params: dict[str, Any], files: dict[str, bytes]) -> Any:
        query_id = str(params.get("callback_query_id") or "")
        if query_id in self.answers:
            self.double_answers.append(query_id)
        if (
            query_id not in self.taps
            or query_id in self.answers
            or query_id in self._expired_queries
        ):
            raise bad_request(
                "query is too old and response timeout expired or query ID is invalid"
            )
        text = params.get("text")
        if text is not None and len(text) > 200:
            raise bad_request("MESSAGE_TOO_LONG")
        cache_time = params.get("cache_time")
        self.answers[query_id] = FakeCallbackAnswer(
            text=text,
            show_alert=_as_bool(params.get("show_alert")),
            url=params.get("url"),
            cache_time=int(cache_time) if cache_time is not None else None,
        )
        return True

    def _api_answerInlineQuery(self, params: dict[str, Any], files: dict[str, bytes]) -> Any:
        query_id = str(params.get("inline_query_id") or "")
        if query_id not in self.inline_queries or query_id in self.inline_answers:
            raise bad_request(
                "query is too old and response timeout expired or query ID is invalid"
            )
        results = params.get("results")
        if results is None:
            results = []
        if not isinstance(results, list):
            raise bad_request("expected an Array of inline query results")
        if len(results) > MAX_INLINE_RESULTS:
            raise bad_request("too many inline query results specified")
        seen: set[str] = set()
        for result in results:
            self._check_inline_result(result, seen)
        button = params.get("button")
        if button is not None:
            parameter = str(button.get("start_parameter", "")) if isinstance(button, dict) else ""
            if not isinstance(button, dict) or not button.get("text"):
                raise bad_request("can't parse inline query results button JSON object")
            if "web_app" not in button and not START_PARAMETER.match(parameter):
                raise bad_request("SWITCH_PM_PARAM_INVALID" if parameter else "START_PARAM_EMPTY")
        cache_time = _as_int(params.get("cache_time", 300), "wrong cache_time")
        self.inline_answers[query_id] = FakeInlineAnswer(
            results=results,
            cache_time=cache_time,
            is_personal=_as_bool(params.get("is_personal")),
            next_offset=str(params.get("next_offset") or ""),
            button=button,
        )
        self.notify()
        return True

    def _check_inline_result(self, result: Any, seen: set[str]) -> None:
        """Checks one inline query result as Telegram does: its type, a unique id of 1 to 64
        bytes, an article's title and message content (parsed as sent), a photo's file id, the
        keyboard."""
        if not isinstance(result, dict):
            raise bad_request(
                "can't parse inline query result: inline query result must be an object"
            )
        kind = str(result.get("type", "")).lower()
        if kind not in INLINE_RESULT_TYPES:
            raise bad_request(
                f'can\'t parse inline query result: type "{kind}" is unsupported for the inline '
                "query result"
            )
        result_id = result.get("id")
        if not isinstance(result_id, str):
            raise bad_request('can\'t parse inline query result: field "id" must be of type String')
        if not 1 <= len(result_id.encode()) <= 64:
            raise bad_request("RESULT_ID_INVALID")
        if result_id in seen:
            raise bad_request("RESULT_ID_DUPLICATE")
        seen.add(result_id)
        content = result.get("input_message_content")
        if kind == "article":
            if not isinstance(result.get("title"), str) or not result["title"]:
                raise bad_request(
                    'can\'t parse inline query result: field "title" must be of type String'
                )
            if not isinstance(content, dict) or not isinstance(content.get("message_text"), str):
                raise bad_request(
                    "can't parse inline query result: "
                    'field "input_message_content" must be of type Object'
                )
        elif str(result.get("photo_file_id", "")) not in self.files:
            raise bad_request("can't parse inline query result: wrong file identifier specified")
        if isinstance(content, dict) and "message_text" in content:
            text, _entities = self._formatted(content, "message_text", "entities")
            if not text or not text.strip():
                raise bad_request("MESSAGE_EMPTY")
            if len(text) > 4096:
                raise bad_request("MESSAGE_TOO_LONG")
        self._markup(result.get("reply_markup"), inline_only=True)

    def _api_getChat(self, params: dict[str, Any], files: dict[str, bytes]) -> Any:
        chat = self._chat(params)
        data = {
            **chat.to_api(),
            "accent_color_id": 0,
            "max_reaction_count": 11,
            "accepted_gift_types": {
                "unlimited_gifts": False,
                "limited_gifts": False,
                "unique_gifts": False,
                "premium_subscription": False,
                "gifts_from_channels": False,
            },
        }
        if chat.pinned_message_id is not None:
            data["pinned_message"] = chat.messages[chat.pinned_message_id].to_api()
        return data

    # -- chat members ---------------------------------------------------------------------

    def _member_json(self, chat: FakeChat, user_id: int) -> dict[str, Any]:
        """The ChatMember object of ``user_id`` in ``chat`` (the bot's too)."""
        if user_id == self.bot_user.id:
            bot: dict[str, Any] = {"user": self.bot_user.to_api()}
            if not chat.bot_is_member:
                return {"status": "left", **bot}
            if chat.bot_rights is not None:
                return {"status": "administrator", **bot, **chat.bot_rights}
            return {"status": "member", **bot}
        user = self.users.get(user_id)
        if user is None:  # Telegram knows only users the bot has met
            raise bad_request("user not found")
        if chat.type == "private":
            return {"status": "member" if user == chat.partner else "left", "user": user.to_api()}
        status = chat.status_of(user)
        if status == "creator":
            return {"status": "creator", "user": user.to_api(), "is_anonymous": False}
        if status == "administrator":
            return {"status": "administrator", "user": user.to_api(), **chat.admins[user_id]}
        return {"status": status, "user": user.to_api()}

    def _members_chat(self, params: dict[str, Any]) -> FakeChat:
        """A chat whose members the bot may read: one it has not left."""
        chat = self._chat(params)
        if chat.type != "private" and not chat.bot_is_member:
            raise forbidden(f"bot is not a member of the {chat.type} chat")
        return chat

    def _api_getChatMember(self, params: dict[str, Any], files: dict[str, bytes]) -> Any:
        user_id = max(_as_int(params.get("user_id"), "invalid user_id specified"), 0)
        if user_id == 0:
            raise bad_request("invalid user_id specified")
        # The bot may always ask about itself, even in a group it left.
        chat = self._chat(params) if user_id == self.bot_user.id else self._members_chat(params)
        return self._member_json(chat, user_id)

    def _api_getChatAdministrators(self, params: dict[str, Any], files: dict[str, bytes]) -> Any:
        chat = self._members_chat(params)
        if chat.type == "private":
            raise bad_request("there are no administrators in the private chat")
        ids = [chat.creator_id] if chat.creator_id in chat.members else []
        ids += [user_id for user_id in chat.admins if user_id in chat.members]
        if chat.bot_is_admin and chat.bot_is_member:  # other bots only with return_bots
            ids.append(self.bot_user.id)
        return [self._member_json(chat, user_id) for user_id in ids if user_id is not None]

    # -- pinned messages --------------------------------------------------------------------

    def _bot_can(self, chat: FakeChat, right: Literal["pin", "delete"]) -> bool:
        if chat.type == "private":
            return True
        rights = chat.bot_rights or {}
        return bool(rights.get("can_pin_messages" if right == "pin" else "can_delete_messages"))

    def _check_pin_rights(self, chat: FakeChat) -> None:
        if not self._bot_can(chat, "pin"):
            raise bad_request("not enough rights to manage pinned messages in the chat")

    def _api_pinChatMessage(self, params: dict[str, Any], files: dict[str, bytes]) -> Any:
        chat = self._writable_chat(params)
        message = chat.messages.get(_as_int(params.get("message_id"), "message_id is empty"))
        if message is None or message.deleted:
            raise bad_request("message to pin not found")
        self._check_pin_rights(chat)
        if message.message_id in chat.pinned:
            return True  # pinned already: no new service message
        chat.pinned = sorted([*chat.pinned, message.message_id], reverse=True)
        # The official server delivers the service message of the bot's own pin (it does not
        # for the bot's other messages), in private chats and groups alike, privacy or not.
        notice = self._new_message(
            chat, self.bot_user, service={"pinned_message": message.to_api(nested=False)}
        )
        notice.update_id = self.queue_update({"message": notice.to_api()})
        return True

    def _api_unpinChatMessage(self, params: dict[str, Any], files: dict[str, bytes]) -> Any:
        chat = self._writable_chat(params)
        message_id = _as_int(params.get("message_id") or 0, "message to unpin not found")
        if message_id == 0:  # the most recent pinned message
            if not chat.pinned:
                raise bad_request("message to unpin not found")
            message_id = chat.pinned[0]
        message = chat.messages.get(message_id)
        if message is None or message.deleted:
            raise bad_request("message to unpin not found")
        self._check_pin_rights(chat)
        if message_id in chat.pinned:
            chat.pinned.remove(message_id)
            self.notify()
        return True

    def _api_unpinAllChatMessages(self, params: dict[str, Any], files: dict[str, bytes]) -> Any:
        chat = self._writable_chat(params)
        self._check_pin_rights(chat)
        chat.pinned.clear()
        self.notify()
        return True

    def _api_sendChatAction(self, params: dict[str, Any], files: dict[str, bytes]) -> Any:
        chat = self._writable_chat(params)
        action = params.get("action")
        if action not in CHAT_ACTIONS:
            raise bad_request("wrong parameter action in request")
        chat.chat_actions.append(action)
        self.notify()
        return True


def _decoded(raw: dict[str, Any]) -> dict[str, Any]:
    """A call's parameters, its JSON fields (sent as strings in a form) decoded.

    :raises: :exc:`ApiError` (400) for a JSON field that is not JSON.
    """
    params: dict[str, Any] = {}
    for key, value in raw.items():
        if key in JSON_FIELDS and isinstance(value, str):
            try:
                value = json.loads(value)
            except ValueError:
                raise bad_request(f"can't parse {key} JSON object") from None
        params[key] = value
    return params


def _answer_fields(body: bytes, content_type: str) -> dict[str, Any]:
    """The fields of a webhook's answer, in the three forms Telegram reads: a JSON object, a
    URL-encoded form or a multipart form (what aiogram sends back); nothing for anything else."""
    if content_type.startswith("application/json"):
        value = json.loads(body or b"{}")
        return value if isinstance(value, dict) else {}
    if content_type.startswith("application/x-www-form-urlencoded"):
        return dict(parse_qsl(body.decode()))
    if not content_type.startswith("multipart/form-data"):
        return {}
    head = f"Content-Type: {content_type}\r\n\r\n".encode()
    form = BytesParser(policy=email.policy.HTTP).parsebytes(head + body)
    assert isinstance(form, EmailMessage)
    return {
        str(part.get_param("name", header="content-disposition")): part.get_content()
        for part in form.iter_parts()
    }
