"""Languages of the bot: English, Russian, Ukrainian, Azerbaijani, Armenian, Georgian and
Kazakh, the peoples who play nardy most.

Which catalog a reader gets (:func:`user_locale`, :class:`LanguageMiddleware`): in a group, the
group's language if its admins chose one (``/language``); else the user's own choice, else their
Telegram ``language_code`` mapped by :data:`LANGUAGE_CODES`, else English. Texts go through
aiogram's gettext-based :class:`~aiogram.utils.i18n.I18n`; the English source string is the
msgid, so a missing translation falls back to English. A count takes the catalog's plural form
(``_(singular, plural, n)``, :class:`~bot.views.common.Translate`, ``{n}`` written by
:func:`bot.views.numbers.count`); :func:`N_` and :func:`NP_` mark texts translated later.

Catalogs live in ``bot/locales/<locale>/LC_MESSAGES/messages.po``, the compiled ``.mo`` files
committed beside them. After changing texts in the code::

    python -m bot.i18n update    # extract msgids from bot/ into the .po files, then translate
    python -m bot.i18n compile   # .po -> .mo (tests fail while the .mo files are stale)
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator, Sequence
from io import BytesIO
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, Protocol

from aiogram.enums import ChatType
from aiogram.types import Chat, TelegramObject, User
from aiogram.utils.i18n import I18n, I18nMiddleware
from babel import Locale
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

if TYPE_CHECKING:
    from bot.model import User as StoredUser

LOCALES_DIR: Final = Path(__file__).parent / "locales"
DOMAIN: Final = "messages"
DEFAULT_LOCALE: Final = "en"
LOCALES: Final = ("en", "ru", "uk", "az", "hy", "ka", "kk")
"""The catalogs, in the order the ``/language`` buttons show them."""

LANGUAGE_NAMES: Final = {
    "en": "English",
    "ru": "Русский",
    "uk": "Українська",
    "az": "Azərbaycanca",
    "hy": "Հայերեն",
    "ka": "ქართული",
    "kk": "Қазақша",
}
"""Each language named in itself, as its reader looks for it on a button."""

LANGUAGE_CODES: Final = {
    "en": "en",
    "ru": "ru",
    "be": "ru",
    "uk": "uk",
    "az": "az",
    "hy": "hy",
    "ka": "ka",
    "kk": "kk",
}
"""Telegram language codes (the app's interface language, ISO 639-1) and the catalog each
gets; any other code gets :data:`DEFAULT_LOCALE`. These are also the codes the command menu is
published for."""

KEYWORDS: Final[dict[str, Any]] = {
    # _(msgid), and _(singular, plural, n) for a count; a trailing comma counts as one more
    "_": {1: (1,), 2: (1,), 3: (1, 2), 4: (1, 2)},
    "__": None,
    "N_": None,
    "NP_": (1, 2),
    "gettext": None,
    "lazy_gettext": None,
    "ngettext": (1, 2),
    "lazy_ngettext": (1, 2),
}
"""Call names whose string arguments are msgids (Babel keyword specs)."""


class Translate(Protocol):
    """A gettext: ``_`` of the reader's locale. ``_(msgid)`` translates a text;
    ``_(singular, plural, n)`` one that shows the count ``n``, in the catalog's plural form for
    it. aiogram's ``gettext`` (a handler's locale) is one;
    :func:`bot.views.common.translator` makes one for a locale outside a handler."""

    def __call__(self, message: str, plural: str | None = None, n: int = 1, /) -> str: ...


def N_(message: str) -> str:  # the gettext convention for "no-op, extract me"
    """Returns ``message`` unchanged; marks it for extraction into the catalogs."""
    return message


def NP_(singular: str, plural: str) -> tuple[str, str]:  # as N_
    """Returns the forms of a text that counts unchanged; marks them for extraction (they
    are translated later with ``_(singular, plural, n)``)."""
    return (singular, plural)


def locale_for(language_code: str | None) -> str:
    """Returns the catalog for a Telegram ``language_code`` (see :data:`LANGUAGE_CODES`).

    >>> locale_for("uk"), locale_for("be"), locale_for("ru-RU"), locale_for("de"), locale_for(None)
    ('uk', 'ru', 'ru', 'en', 'en')
    """
    if not language_code:
        return DEFAULT_LOCALE
    language = language_code.replace("_", "-").split("-", 1)[0].lower()
    return LANGUAGE_CODES.get(language, DEFAULT_LOCALE)


def user_locale(chosen: str | None, language_code: str | None) -> str:
    """Returns a user's catalog: the one they chose with ``/language`` (``chosen``, if it still
    exists), else the one their Telegram ``language_code`` maps to.

    >>> user_locale("ka", "ru"), user_locale(None, "ru"), user_locale("xx", "uk")
    ('ka', 'ru', 'uk')
    """
    return chosen if chosen in LOCALES else locale_for(language_code)


def locale_of(user: StoredUser) -> str:
    """Returns the catalog of a user the bot has stored (see :func:`user_locale`)."""
    return user_locale(user.locale, user.language_code)


def create_i18n() -> I18n:
    """Returns the bot's :class:`I18n`, loaded from the compiled catalogs in :data:`LOCALES_DIR`."""
    return I18n(path=LOCALES_DIR, default_locale=DEFAULT_LOCALE, domain=DOMAIN)


class LanguageMiddleware(I18nMiddleware):
    """Chooses the catalog of the event: in a group, the group's language if its admins chose
    one; else that of the user who caused it (see :func:`user_locale`).

    Register it with ``LanguageMiddleware(i18n).setup(dispatcher)`` after the middleware that
    hands handlers the stored ``player`` (whose choice it reads): it becomes an outer middleware
    of every event type, so filters and handlers of all routers run in the locale. The group's
    language comes from the ``chats`` service (kept in memory), when there is one.
    """

    async def get_locale(self, event: TelegramObject, data: dict[str, Any]) -> str:
        return await reader_locale(
            chat=data.get("event_chat"),
            user=data.get("event_from_user"),
            player=data.get("player"),
            chats=data.get("chats"),
        )


async def reader_locale(
    *,
    chat: Chat | None,
    user: User | None,
    player: StoredUser | None,
    chats: ChatLanguages | None,
) -> str:
    """Returns the catalog of what is said in ``chat`` to ``user``: the group's language if
    its admins chose one, else the user's (``player``'s choice, else their language code)."""
    if chat is not None and chat.type != ChatType.PRIVATE and chats is not None:
        group = await chats.locale(chat.id)
        if group in LOCALES:
            return group
    chosen = player.locale if player is not None else None
    return user_locale(chosen, user.language_code if user else None)


def current_locale() -> str:
    """Returns the catalog the current handler runs in (set by :class:`LanguageMiddleware`)."""
    return I18n.get_current(no_error=False).current_locale


class ChatLanguages(Protocol):
    """Where the middleware reads a group's language (:class:`bot.services.chats.Chats`)."""

    async def locale(self, chat_id: int) -> str | None:
        """The catalog the group's admins chose, or None."""


def _po_path(locale: str, directory: Path) -> Path:
    return directory / locale / "LC_MESSAGES" / f"{DOMAIN}.po"


def read_catalog(locale: str, directory: Path = LOCALES_DIR) -> Catalog:
    """Reads the ``.po`` source of ``locale``."""
    with _po_path(locale, directory).open("rb") as source:
        return read_po(source, locale=locale, domain=DOMAIN)


def compile_catalog(catalog: Catalog) -> bytes:
    """Returns the ``.mo`` bytes of ``catalog`` (fuzzy translations are left out, as gettext)."""
    buffer = BytesIO()
    write_mo(buffer, catalog, use_fuzzy=False)
    return buffer.getvalue()


def compile_catalogs(directory: Path = LOCALES_DIR) -> list[Path]:
    """Writes ``messages.mo`` next to each ``messages.po``; returns the files written."""
    written = []
    for locale in LOCALES:
        mo_path = _po_path(locale, directory).with_suffix(".mo")
        mo_path.write_bytes(compile_catalog(read_catalog(locale, directory)))
        written.append(mo_path)
    return written


def extract_messages(source_dir: Path | None = None) -> Catalog:
    """Returns a template catalog of every msgid used in the bot's code (not the engine)."""
    source_dir = source_dir or Path(__file__).parent
    template = Catalog(domain=DOMAIN, project="nardy-bot", charset="utf-8")

    def outside_engine(directory: str) -> bool:
        return Path(directory).name not in {"engine", "__pycache__", "locales"}

    found: Iterator[Any] = extract_from_dir(
        source_dir,
        keywords=KEYWORDS,
        comment_tags=("TRANSLATORS:",),
        strip_comment_tags=True,
        directory_filter=outside_engine,
    )
    for filename, lineno, message, comments, context in found:
        template.add(
            message,
            locations=[(f"bot/{filename}", lineno)],  # .po files are written without line numbers
            auto_comments=comments,
            context=context,
        )
    return template


def update_catalogs(directory: Path = LOCALES_DIR) -> None:
    """Merges newly extracted msgids into each ``.po``; vanished ones become obsolete."""
    template = extract_messages()
    for locale in LOCALES:
        path = _po_path(locale, directory)
        if path.exists():
            catalog = read_catalog(locale, directory)
        else:  # a new language: its plural rule comes from Babel's locale data (CLDR)
            path.parent.mkdir(parents=True, exist_ok=True)
            catalog = Catalog(locale=locale, domain=DOMAIN, project="nardy-bot")
            catalog.header_comment = (
                f"# {Locale.parse(locale).english_name} texts of the nardy bot. msgids are the "
                "English source strings.\n"
                "# Regenerate: python -m bot.i18n update && python -m bot.i18n compile"
            )
        catalog.update(template, update_creation_date=False)
        for message in catalog:
            # Every text is a str.format template: a "%" in one ("{percent}% found") is no
            # printf directive, and msgfmt -c must not check it as one.
            message.flags.discard("python-format")
        buffer = BytesIO()
        write_po(buffer, catalog, width=100, include_lineno=False, sort_output=True)
        path.write_bytes(buffer.getvalue())


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: ``python -m bot.i18n {update,compile}``."""
    parser = argparse.ArgumentParser(prog="python -m bot.i18n", description=__doc__.split("\n")[0])
    parser.add_argument("command", choices=["update", "compile"])
    args = parser.parse_args(argv)
    if args.command == "update":
        update_catalogs()
    else:
        for path in compile_catalogs():
            sys.stdout.write(f"wrote {path}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
