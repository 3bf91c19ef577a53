"""Who opened the board: Telegram's signed init data, checked on every connection.

Telegram hands a Mini App its init data (the user, the chat's start parameter, when it was
signed) signed with a key derived from the bot's token; only Telegram and the bot can make it.
aiogram's :func:`~aiogram.utils.web_app.safe_parse_webapp_init_data` checks the signature, and
:func:`check_init_data` also refuses data older than an age limit, so that a copy of it (a
link shared, a log line) stops opening the board after a while.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from urllib.parse import parse_qsl

from aiogram.utils.web_app import safe_parse_webapp_init_data


class InitDataRefused(Exception):
    """The init data is forged, malformed, expired or has no user.

    ``user``: who signed in, when the data is Telegram's but too old (``expired``), so that
    the refusal is written in their language; ``language_code``: the language the data claims,
    unchecked (only for the refusal's words) when it is not Telegram's."""

    def __init__(
        self,
        reason: str,
        *,
        expired: bool = False,
        user: BoardUser | None = None,
        language_code: str | None = None,
    ) -> None:
        super().__init__(reason)
        self.expired = expired
        self.user = user
        self.language_code = user.language_code if user is not None else language_code


@dataclass(frozen=True, slots=True)
class BoardUser:
    """The person who opened the board, as Telegram vouches for them."""

    id: int
    first_name: str
    username: str | None
    language_code: str | None
    start_param: str | None
    chat_instance: str | None = None
    """The chat the board was opened from, as Telegram names it to the bot (a Direct Link
    opened in a chat): an inline game's board is open to the people of its chat."""


def check_init_data(token: str, init_data: str, *, max_age: float, now: float) -> BoardUser:
    """The user of ``init_data`` signed for the bot with ``token``, signed at most ``max_age``
    seconds before ``now`` (and not in the future, beyond a minute of clock skew).

    :raises: :exc:`InitDataRefused` otherwise.
    """
    try:
        data = safe_parse_webapp_init_data(token, init_data)
    except (ValueError, TypeError) as error:  # a bad signature, or not init data at all
        raise InitDataRefused(
            f"init data refused: {error}", language_code=claimed_language(init_data)
        ) from None
    if data.user is None:
        raise InitDataRefused("init data without a user")
    found = data.user
    user = BoardUser(
        found.id,
        found.first_name,
        found.username,
        found.language_code,
        data.start_param,
        data.chat_instance,
    )
    signed = data.auth_date.timestamp()
    if now - signed > max_age:
        raise InitDataRefused(
            f"init data expired ({now - signed:.0f} s old)", expired=True, user=user
        )
    if signed - now > 60:
        raise InitDataRefused("init data signed in the future", user=user)
    return user


def claimed_language(init_data: str) -> str | None:
    """The ``language_code`` that ``init_data`` names for its user, unchecked: for the words
    of its refusal only."""
    try:
        fields = dict(parse_qsl(init_data))
        user = json.loads(fields.get("user", "{}"))
    except ValueError:
        return None
    code = user.get("language_code") if isinstance(user, dict) else None
    return code if isinstance(code, str) and len(code) <= 16 else None
