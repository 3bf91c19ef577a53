"""Who opened the board: Telegram's signed init data, checked on every connection.

Telegram hands a Mini App its init data (the user, the chat's start parameter, when it was
signed) signed with a key derived from the bot's token; only Telegram and the bot can make it.
aiogram's :func:`~aiogram.utils.web_app.safe_parse_webapp_init_data` checks the signature, and
:func:`check_init_data` also refuses data older than an age limit, so that a copy of it (a
link shared, a log line) stops opening the board after a while.
"""

from __future__ import annotations

from dataclasses import dataclass

from aiogram.utils.web_app import safe_parse_webapp_init_data


class InitDataRefused(Exception):
    """The init data is forged, malformed, expired or has no user."""

    def __init__(self, reason: str, *, expired: bool = False) -> None:
        super().__init__(reason)
        self.expired = expired


@dataclass(frozen=True, slots=True)
class BoardUser:
    """The person who opened the board, as Telegram vouches for them."""

    id: int
    first_name: str
    username: str | None
    language_code: str | None
    start_param: str | None


def check_init_data(token: str, init_data: str, *, max_age: float, now: float) -> BoardUser:
    """The user of ``init_data`` signed for the bot with ``token``, signed at most ``max_age``
    seconds before ``now`` (and not in the future, beyond a minute of clock skew).

    :raises: :exc:`InitDataRefused` otherwise.
    """
    try:
        data = safe_parse_webapp_init_data(token, init_data)
    except (ValueError, TypeError) as error:  # a bad signature, or not init data at all
        raise InitDataRefused(f"init data refused: {error}") from None
    signed = data.auth_date.timestamp()
    if now - signed > max_age:
        raise InitDataRefused(f"init data expired ({now - signed:.0f} s old)", expired=True)
    if signed - now > 60:
        raise InitDataRefused("init data signed in the future")
    if data.user is None:
        raise InitDataRefused("init data without a user")
    user = data.user
    return BoardUser(user.id, user.first_name, user.username, user.language_code, data.start_param)
