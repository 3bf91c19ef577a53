"""Telegram's HTML parse mode, as far as a test double needs it.

:func:`parse_html` turns the ``text``/``caption`` a bot sends with ``parse_mode=HTML`` into the
plain text a user sees and the ``MessageEntity`` dicts Telegram would return, and refuses what
Telegram refuses (unknown tags, unbalanced tags), so a bot that forgets to escape a user's name
fails in tests as it would in production.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from typing import Any, Final

TAG_ENTITIES: Final = {
    "b": "bold",
    "strong": "bold",
    "i": "italic",
    "em": "italic",
    "u": "underline",
    "ins": "underline",
    "s": "strikethrough",
    "strike": "strikethrough",
    "del": "strikethrough",
    "tg-spoiler": "spoiler",
    "span": "spoiler",  # only <span class="tg-spoiler">
    "a": "text_link",
    "code": "code",
    "pre": "pre",
    "blockquote": "blockquote",
    "tg-emoji": "custom_emoji",
    "tg-time": "date_time",  # Bot API 9.5: <tg-time unix="…" format="…">text</tg-time>
}
DATE_TIME_FORMAT: Final = re.compile(r"r|w?[dD]?[tT]?")
"""The formats a date-time entity may have (the Bot API's "date-time entity formatting")."""


class TelegramHtmlError(ValueError):
    """Raised for markup Telegram answers with "Bad Request: can't parse entities: ..."."""


def utf16_length(text: str) -> int:
    """Returns the length of ``text`` in UTF-16 code units, the unit of entity offsets."""
    return len(text.encode("utf-16-le")) // 2


class _Parser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.length = 0
        self.stack: list[tuple[str, str | None, int, dict[str, Any]]] = []
        self.entities: list[dict[str, Any]] = []

    def _where(self) -> str:
        return f"at byte offset {self.getpos()[1]}"

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        kind: str | None = TAG_ENTITIES.get(tag)
        if kind is None or (tag == "span" and attributes.get("class") != "tg-spoiler"):
            raise TelegramHtmlError(f'Unsupported start tag "{tag}" {self._where()}')
        extra: dict[str, Any] = {}
        if tag == "a":
            if attributes.get("href"):
                extra["url"] = attributes["href"]
            else:
                kind = None
        elif tag == "tg-emoji":
            extra["custom_emoji_id"] = attributes.get("emoji-id", "")
        elif tag == "tg-time":
            unix, form = attributes.get("unix") or "", attributes.get("format") or ""
            if not unix.isdigit() or DATE_TIME_FORMAT.fullmatch(form) is None:
                raise TelegramHtmlError(f"Invalid date-time entity {self._where()}")
            extra["unix_time"] = int(unix)
            if form:
                extra["date_time_format"] = form
        elif tag == "code" and self.stack and self.stack[-1][0] == "pre":
            language = (attributes.get("class") or "").removeprefix("language-")
            if language:
                self.stack[-1][3]["language"] = language
            kind = None  # <pre><code class="language-x"> is one pre entity
        self.stack.append((tag, kind, self.length, extra))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        raise TelegramHtmlError(f'Unsupported start tag "{tag}" {self._where()}')

    def handle_endtag(self, tag: str) -> None:
        if not self.stack:
            raise TelegramHtmlError(f'Unexpected end tag "{tag}" {self._where()}')
        open_tag, kind, start, extra = self.stack.pop()
        if open_tag != tag:
            raise TelegramHtmlError(
                f'Unmatched end tag {self._where()}, expected "</{open_tag}>", found "</{tag}>"'
            )
        if kind is not None and self.length > start:
            self.entities.append({"type": kind, "offset": start, "length": self.length - start})
            self.entities[-1].update(extra)

    def handle_data(self, data: str) -> None:
        self.parts.append(data)
        self.length += utf16_length(data)

    def handle_comment(self, data: str) -> None:
        raise TelegramHtmlError(f"Unsupported comment {self._where()}")

    def handle_decl(self, decl: str) -> None:
        raise TelegramHtmlError(f"Unsupported declaration {self._where()}")

    def handle_pi(self, data: str) -> None:
        raise TelegramHtmlError(f"Unsupported processing instruction {self._where()}")


def parse_html(markup: str) -> tuple[str, list[dict[str, Any]]]:
    """Returns the plain text and the entities of Telegram HTML ``markup``.

    >>> parse_html("<b>Alice</b> &amp; Bob")
    ('Alice & Bob', [{'type': 'bold', 'offset': 0, 'length': 5}])

    :raises: :exc:`TelegramHtmlError` for markup Telegram refuses.
    """
    parser = _Parser()
    parser.feed(markup)
    parser.close()
    if parser.stack:
        raise TelegramHtmlError(
            f'Can\'t find end tag corresponding to start tag "{parser.stack[-1][0]}"'
        )
    entities = sorted(parser.entities, key=lambda e: (e["offset"], -e["length"]))
    return "".join(parser.parts), entities
