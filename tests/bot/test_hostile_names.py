"""Names and words users choose reach messages as written: escaped for Telegram's HTML, never
markup. Three layers: every template of every catalog filled with hostile text the way the bot
fills it (:func:`~bot.views.texts.echo`), every refusal as a message and as an alert, and the real
bot through the fake Bot API (which parses every HTML message as Telegram does and refuses what
Telegram refuses), a game from challenge to rematch between players with hostile names, one
language each."""

from __future__ import annotations

import string
from collections.abc import Iterator
from typing import Any, Final

import pytest

from bot.callbacks import ChallengeAction, ChallengeOption, ResignAction
from bot.i18n import LOCALES, create_i18n, read_catalog
from bot.services import GameError
from bot.views.texts import COUNTED_REFUSALS, REFUSALS, echo, explain
from tests.support.fake_telegram import FakeMessage
from tests.support.harness import BotHarness
from tests.support.telegram_html import parse_html

from .gameplay import wait_for_board

HOSTILE_NAMES: Final = (
    '<a href="https://example.org">Tom</a>',
    "</b><i>&amp; & &lt; <tg-spoiler>",
    "Ω<b>" * 16,  # 64 characters, Telegram's longest first name
    "\u202eevil\u202c مرحبا שלום",  # right-to-left, with an override
    "👨‍👩‍👧‍👦🎲 {name} {0} %s",  # emoji beyond the BMP (UTF-16 pairs), braces for str.format
    "",
    " \u200b<",
)
"""First names (users without a username are named by them), one per language below."""
ALERT_LENGTH: Final = 200
I18N = create_i18n()


class _Shown:
    """A placeholder's value whatever its format spec: the text as the bot passes it."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __format__(self, spec: str) -> str:
        return self.text


def _fields(template: str) -> set[str]:
    return {field for _, field, _, _ in string.Formatter().parse(template) if field}


def _filled(template: str, value: str) -> str:
    return template.format_map({field: _Shown(value) for field in _fields(template)})


def _templates() -> Iterator[tuple[str, str, str]]:
    """(locale, msgid, the locale's text) for every message of every catalog."""
    for locale in LOCALES:
        for message in read_catalog(locale):
            if not message.id:
                continue
            for msgid in message.id if isinstance(message.id, tuple | list) else (message.id,):
                text = I18N.gettext(msgid, locale=locale)
                yield locale, msgid, text


@pytest.mark.parametrize("name", HOSTILE_NAMES)
def test_every_template_in_every_language_shows_a_name_as_written(name: str) -> None:
    """Each template with a blank, filled as the bot fills one with a user's text, parses as
    Telegram's HTML and shows the text, character for character."""
    checked = 0
    for locale, msgid, text in _templates():
        if not _fields(text):
            continue
        plain, entities = parse_html(_filled(text, echo(name)))
        assert name in plain, (locale, msgid, plain)
        assert not any(e["type"] == "text_link" for e in entities), (locale, msgid)
        checked += 1
    assert checked > 100 * len(LOCALES)  # every catalog has its templates


TEXT_PARAMS: Final = frozenset({"name", "text"})
"""The refusals' blanks that users' text fills: a name, a word of a command."""
NUMBER_PARAMS: Final = frozenset({"game", "moves", "chips", "limit", "tournament"})
TEMPLATES: Final = {**REFUSALS, **{code: forms[1] for code, (_, forms) in COUNTED_REFUSALS.items()}}
"""Every refusal's text (the plural form of one that counts)."""


def _refusal(code: str, value: str) -> GameError:
    fields = _fields(TEMPLATES[code])
    assert fields <= TEXT_PARAMS | NUMBER_PARAMS, f"a new blank in {code}: text or a number?"
    error = GameError(**{f: value if f in TEXT_PARAMS else 10**15 for f in fields})
    error.code = code
    return error


@pytest.mark.parametrize("locale", LOCALES)
def test_every_refusal_shows_a_name_as_written(locale: str) -> None:
    """As a message (HTML) and as an alert (plain text, at most 200 characters)."""
    with I18N.context(), I18N.use_locale(locale):
        with_blanks = [
            code for code, template in TEMPLATES.items() if _fields(template) & TEXT_PARAMS
        ]
        assert set(with_blanks) == {
            "not_enough_chips",
            "not_a_position",
            "opponent_playing",
            "opponent_tournament_game_waits",
            "unknown_time_zone",
        }
        for code in with_blanks:
            for name in HOSTILE_NAMES:
                error = _refusal(code, name)
                plain, entities = parse_html(explain(error))
                assert name in plain and not entities, (locale, code, plain)
                alert = explain(error, markup=False)
                assert name in alert and len(alert) <= ALERT_LENGTH, (locale, code, alert)


def _button(message: FakeMessage, prefix: str, **wanted: Any) -> str:
    """The callback data of the message's button of that kind (``ChallengeAction`` fields)."""
    for button in message.buttons:
        data = button.callback_data or ""
        if not data.startswith(prefix):
            continue
        if prefix == "c:" and ChallengeAction.unpack(data).option is not wanted["option"]:
            continue
        if prefix == "r:" and ResignAction.unpack(data).sure is not wanted["sure"]:
            continue
        return data
    raise AssertionError(f"no {prefix} {wanted} button on {message}: {message.buttons}")


@pytest.mark.parametrize(
    ("name", "locale"), list(zip(HOSTILE_NAMES, LOCALES, strict=True)), ids=LOCALES
)
async def test_hostile_names_reach_the_bots_messages_as_written(
    bot_harness: BotHarness, name: str, locale: str
) -> None:
    """A challenge, its acceptance, the boards, a resignation, the result, /stats, /score,
    /games, /history, /top, /dice and a rematch, between two players with that name: every
    message parses (the fake refuses bad HTML, which fails the test), none has a link, and the
    ones that name a player show the name as written (a right-to-left one isolated, so that the
    rest of its line keeps its direction)."""
    harness, fake = bot_harness, bot_harness.fake
    alice = fake.create_user(name, language_code=locale)
    bob = fake.create_user(name, language_code=locale)
    group = fake.create_group("<b>club</b>", [alice, bob])
    said = fake.send_text(alice, group, "/play")
    await harness.settle()
    challenge = fake.last_message(group)
    fake.tap(bob, challenge, _button(challenge, "c:", option=ChallengeOption.ACCEPT))
    board = await wait_for_board(fake, group)
    await harness.settle()
    naming = [challenge.content, board.content]
    fake.send_text(alice, group, "/resign")
    await harness.settle()
    question = fake.last_message(group)
    naming.append(question.content)
    fake.tap(alice, question, _button(question, "r:", sure=True))
    await harness.settle()
    for command in ("/stats", "/score", "/dice"):
        fake.send_text(bob, group, command, reply_to=said)
        await harness.settle()
        naming.append(fake.last_message(group).content)
    for command in ("/history", "/top", "/games"):
        fake.send_text(alice, group, command)
        await harness.settle()
        naming.append(fake.last_message(group).content)
    naming.pop()  # /games: nothing in progress, nobody named
    finished = fake.message(group, board.message_id)
    await fake.wait_for(
        lambda: any((b.callback_data or "").startswith("m:") for b in finished.buttons)
    )
    naming.append(finished.content)
    fake.tap(alice, finished, _button(finished, "m:"))
    await harness.settle()
    naming.append(fake.last_message(group).content)
    for message in fake.messages(group):
        assert not any(e["type"] == "text_link" for e in message.entities), message
    shown = echo(name, markup=False)  # as written; between isolates when right-to-left
    for content in naming:
        assert shown in content, content
