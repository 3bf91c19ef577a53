"""Languages of the bot: Russian for Russian-reading users, English for everyone else.

Texts go through aiogram's gettext-based :class:`~aiogram.utils.i18n.I18n` (Babel catalogs). The
English source string is the msgid, so English needs no translation and a missing Russian one
falls back to English. In handlers::

    from aiogram.utils.i18n import gettext as _

    await message.answer(_("Your move, {name}.").format(name=html.quote(name)))

Use ``ngettext = gettext`` (aiogram's ``gettext(singular, plural, n)``) for plurals, and
:func:`N_` to mark a string that is translated later with ``i18n.gettext(msgid, locale=...)``.

Catalogs live in ``bot/locales/{en,ru}/LC_MESSAGES/messages.po`` and the compiled ``.mo`` files
are committed next to them. After changing texts in the code::

    python -m bot.i18n update    # extract msgids from bot/ into the .po files, then translate
    python -m bot.i18n compile   # .po -> .mo (tests fail while the .mo files are stale)
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator, Sequence
from io import BytesIO
from pathlib import Path
from typing import Any, Final

from aiogram.types import TelegramObject, User
from aiogram.utils.i18n import I18n, I18nMiddleware
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

LOCALES_DIR: Final = Path(__file__).parent / "locales"
DOMAIN: Final = "messages"
DEFAULT_LOCALE: Final = "en"
LOCALES: Final = ("en", "ru")

RUSSIAN_READERS: Final = frozenset({"ru", "uk", "be", "kk"})
"""Telegram language codes (the app's interface language) that get the Russian texts."""

KEYWORDS: Final[dict[str, Any]] = {
    "_": None,
    "__": None,
    "N_": None,
    "gettext": None,
    "lazy_gettext": None,
    "ngettext": (1, 2),
    "lazy_ngettext": (1, 2),
}
"""Call names whose string arguments are msgids (Babel keyword specs)."""


def N_(message: str) -> str:  # noqa: N802 - the gettext convention for "no-op, extract me"
    """Returns ``message`` unchanged; marks it for extraction into the catalogs."""
    return message


def locale_for(language_code: str | None) -> str:
    """Returns the catalog for a Telegram ``language_code``: ``"ru"`` or ``"en"``.

    >>> locale_for("uk"), locale_for("ru-RU"), locale_for("de"), locale_for(None)
    ('ru', 'ru', 'en', 'en')
    """
    if not language_code:
        return DEFAULT_LOCALE
    language = language_code.replace("_", "-").split("-", 1)[0].lower()
    return "ru" if language in RUSSIAN_READERS else DEFAULT_LOCALE


def create_i18n() -> I18n:
    """Returns the bot's :class:`I18n`, loaded from the compiled catalogs in :data:`LOCALES_DIR`."""
    return I18n(path=LOCALES_DIR, default_locale=DEFAULT_LOCALE, domain=DOMAIN)


class LanguageMiddleware(I18nMiddleware):
    """Chooses the catalog of the user who caused the event (see :func:`locale_for`).

    Register it with ``LanguageMiddleware(i18n).setup(dispatcher)``: it becomes an outer
    middleware of every event type, so filters and handlers of all routers run in the locale.
    """

    async def get_locale(self, event: TelegramObject, data: dict[str, Any]) -> str:
        user: User | None = data.get("event_from_user")
        return locale_for(user.language_code if user else None)


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
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            catalog = Catalog(locale=locale, domain=DOMAIN, project="nardy-bot")
        catalog.update(template, update_creation_date=False)
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
