"""A catalog entry's texts as ``str``, and a translator that leaves texts as written: what
the tests of words and pictures read (babel types a message's id and string loosely)."""

from __future__ import annotations

from babel.messages.catalog import Message


def sources(message: Message) -> tuple[str, ...]:
    """The source text, and its plural where it counts."""
    found = message.id if isinstance(message.id, tuple | list) else (message.id,)
    return tuple(str(text) for text in found)


def forms(message: Message) -> tuple[str, ...]:
    """The translation, each plural form of it where it counts (empty ones as ``""``)."""
    found = message.string if isinstance(message.string, tuple | list) else (message.string,)
    return tuple(str(text or "") for text in found)


def untranslated(message: str, plural: str | None = None, n: int = 1, /) -> str:
    """A :class:`bot.i18n.Translate` that shows the source: English's words, untranslated."""
    return message if plural is None or n == 1 else plural
