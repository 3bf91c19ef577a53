"""Random input from random users, fed to the running bot through the fake Bot API: every command
of the menu with random words, numbers that are not numbers and text thousands of characters
long; taps of the buttons the bot drew, with their numbers changed, or made up. One bot serves
the whole module (it starts once; each example goes on from what the earlier ones left: games,
challenges, finished games to replay).

Each example has two parts. First the players (two users with a game going in the group, one of
them with a hostile name) send commands and tap: a button of the bot's on its own message, as
drawn or with a number changed, or made-up data on any message. (A player's real button tapped
on another message is the business of the check of which message a tap came from, with tests of
its own.) Then two strangers, who never send a command and never accept anything, tap any
button, forged or not, on any message in the group and in their own private chat. After every
example: no ERROR in the bot's log, no exception out of a handler, no "Something went wrong";
and no message was edited by the strangers' taps, which have no right to touch any, but in a
stranger's own private chat (the greeting and menus there are theirs alone, which their taps
may change in place).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

import pytest
import pytest_asyncio
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.callbacks import ChallengeAction, ChallengeOption, ResignAction
from bot.numbers import parse_number
from bot.storage import Store, open_database
from bot.views.commands import COMMANDS
from tests.support.fake_telegram import FakeChat, FakeMessage, FakeTelegram, FakeUser
from tests.support.harness import BotHarness, running_bot

from .gameplay import wait_for_board

EXAMPLES: Final = 50
"""Examples per run: with up to :data:`STEPS` steps each, the module takes about 15 s."""
STEPS: Final = 6
APOLOGY: Final = "Something went wrong"
COMMAND_NAMES: Final = (*dict.fromkeys(c.name for c in COMMANDS), "analyze", "from")
ODD_NUMBERS: Final = ("²", "٣", "-5", "+5", "1_000", " 7 ", "7.0", "9" * 20, "0")
WORDS: Final = (
    "short", "long", "abkhaz", "gulbara", "crazy_gulbara", "three_dice", "anti", "cube", "pro",
    "amateur", "10", "50", "500", "3", "5", "1h", "3d", "private", "from", "off", "rating", "ru",
    "ka", "@alice_fz", "@nobody_here", "#1", "1", "2", "LbbYDAAtttgMAC", "<b>", "&amp;",
)  # fmt: skip
"""Words the commands know, and some they do not."""
PREFIXES: Final = "gcbarmnfliksvpoyz"
"""Every callback factory's prefix (``bot.callbacks``)."""

HOSTILE: Final = '<a href="https://example.org">Tom</a> \u202e👨‍👩‍👧‍👦'


@dataclass
class Cast:
    """The users, chats and bot of the module."""

    harness: BotHarness
    database: Path
    players: tuple[FakeUser, FakeUser]
    strangers: tuple[FakeUser, FakeUser]
    group: FakeChat
    errors: list[logging.LogRecord] = field(default_factory=list)

    @property
    def fake(self) -> FakeTelegram:
        return self.harness.fake

    def chats_of(self, user: FakeUser) -> list[FakeChat]:
        return [self.group, self.fake.private_chat(user)]

    def bot_messages(self) -> list[FakeMessage]:
        chats = [self.group, *(self.fake.private_chat(u) for u in self.players + self.strangers)]
        return [m for chat in chats for m in self.fake.messages(chat) if not m.deleted]


class _Errors(logging.Handler):
    def __init__(self, found: list[logging.LogRecord]) -> None:
        super().__init__(logging.ERROR)
        self.found = found

    def emit(self, record: logging.LogRecord) -> None:
        self.found.append(record)


@contextmanager
def _errors_logged(found: list[logging.LogRecord]) -> Iterator[None]:
    handler = _Errors(found)
    loggers = [logging.getLogger(name) for name in ("bot", "aiogram")]
    for logger in loggers:
        logger.addHandler(handler)
    try:
        yield
    finally:
        for logger in loggers:
            logger.removeHandler(handler)


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def cast(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Cast]:
    """The bot, with a game going in the group between the players (one named in HTML), and
    the strangers' private chats opened (a greeting with a button)."""
    database: Path = tmp_path_factory.mktemp("fuzz") / "nardy.sqlite3"
    async with FakeTelegram() as fake, running_bot(fake, database) as harness:
        alice = fake.create_user("Alice", username="alice_fz")
        bob = fake.create_user(HOSTILE, language_code="ru")
        carol = fake.create_user(HOSTILE, language_code="ka")
        dave = fake.create_user("Dave", username="dave_fz", language_code="hy")
        group = fake.create_group("<i>fuzz</i>", [alice, bob, carol, dave])
        cast = Cast(harness, database, (alice, bob), (carol, dave), group)
        fake.send_text(alice, group, "/play")
        await harness.settle()
        challenge = fake.last_message(group)
        accept = next(
            b.callback_data or ""
            for b in challenge.buttons
            if (b.callback_data or "").startswith("c:")
            and ChallengeAction.unpack(b.callback_data or "").option is ChallengeOption.ACCEPT
        )
        fake.tap(bob, challenge, accept)
        await wait_for_board(fake, group)
        for user in (*cast.players, *cast.strangers):
            fake.send_text(user, fake.private_chat(user), "/start")
        await harness.idle()
        with _errors_logged(cast.errors):
            yield cast


def _argument() -> st.SearchStrategy[str]:
    word = st.one_of(
        st.sampled_from(WORDS),
        st.sampled_from(ODD_NUMBERS),
        st.integers(0, 10**20).map(str),
        st.text(max_size=12),
    )
    return st.one_of(
        st.lists(word, max_size=4).map(" ".join),
        st.sampled_from(("x" * 4080, "<" * 1000, "@" + "-" * 4000)),
    )


def _command() -> st.SearchStrategy[str]:
    start_payload = st.tuples(st.sampled_from("cwx"), st.sampled_from(ODD_NUMBERS + ("1", "2")))
    return st.one_of(
        st.tuples(st.sampled_from(COMMAND_NAMES), _argument()).map(
            lambda pair: f"/{pair[0]} {pair[1]}".rstrip()
        ),
        start_payload.map(lambda pair: f"/start {pair[0]}{pair[1]}"),
    )


@dataclass(frozen=True)
class Forgery:
    """How a step makes its callback data, drawn before it is read against the buttons there
    are then (so that what is drawn does not depend on the bot's state)."""

    kind: str  # "drawn": a button the bot drew; "changed": one with a number changed; "made up"
    button: int  # which button, modulo how many there are
    place: int  # which of its numbers is changed, modulo how many it has
    change: str  # "self": the tapper's id, "next", "previous", or an odd number
    prefix: str
    numbers: tuple[str, ...]

    def data(self, drawn: list[str], tapper: FakeUser) -> tuple[int | None, str]:
        """The callback data, and which of the ``drawn`` buttons it comes from (None when it
        is made up)."""
        if self.kind == "made up" or not drawn:
            return None, ":".join((self.prefix, *self.numbers))[:64]
        index = self.button % len(drawn)
        return index, self._changed(drawn[index], tapper)

    def _changed(self, chosen: str, tapper: FakeUser) -> str:
        parts = chosen.split(":")
        if self.kind == "drawn" or len(parts) == 1:
            return chosen
        index = 1 + self.place % (len(parts) - 1)
        number = parse_number(parts[index]) or 0
        parts[index] = {
            "self": str(tapper.id),
            "next": str(number + 1),
            "previous": str(max(number - 1, 0)),
        }.get(self.change, self.change)
        return ":".join(parts)[:64]


FORGERIES: Final = st.builds(
    Forgery,
    kind=st.sampled_from(("drawn", "changed", "made up")),
    button=st.integers(0, 2**16),
    place=st.integers(0, 8),
    change=st.sampled_from(("self", "next", "previous", *ODD_NUMBERS)),
    prefix=st.sampled_from(PREFIXES),
    numbers=st.lists(
        st.one_of(st.integers(0, 30).map(str), st.sampled_from(ODD_NUMBERS)), max_size=4
    ).map(tuple),
)


@dataclass(frozen=True)
class Step:
    """One user's command or tap, read against the chats when it is made."""

    who: int
    where: int  # the group, or the user's private chat
    command: str | None  # None: a tap
    message: int  # which message is tapped, modulo how many there are
    forgery: Forgery


STEPS_DRAWN: Final = st.lists(
    st.builds(
        Step,
        who=st.integers(0, 1),
        where=st.integers(0, 1),
        command=st.one_of(st.none(), _command()),
        message=st.integers(0, 2**16),
        forgery=FORGERIES,
    ),
    min_size=1,
    max_size=STEPS,
)


def _accepts(data: str) -> bool:
    """Whether a tap would make its tapper a player: Accept, 🤖 Play the computer, ▶ play on,
    🔎 Play anyone (a /find picker of the tapper's own); or a solver of the daily position (🧩,
    its turn buttons: their puzzle is their own)."""
    if data.startswith(("b", "s:", "o", "y", "z:")):
        return True
    try:
        return ChallengeAction.unpack(data).option is ChallengeOption.ACCEPT
    except (TypeError, ValueError):
        return False


async def _check(cast: Cast, before: set[tuple[int, int]]) -> None:
    """Waits until the bot is idle, then fails on what went wrong since the bot's messages were
    ``before`` (each failure is reported once: it is forgotten as it is read)."""
    await cast.harness.idle()
    handler_errors = cast.harness.take_errors()
    logged = [record.getMessage() for record in cast.errors]
    cast.errors.clear()
    assert not handler_errors
    assert not logged, logged
    new = [m for m in cast.bot_messages() if (m.chat.id, m.message_id) not in before]
    assert not any(APOLOGY in m.content for m in new)


async def _computer_answered(cast: Cast) -> None:
    """Waits until no game of the players waits for the computer, whose answer comes from the
    bot's timer after a pause (which :meth:`BotHarness.idle` does not wait for), then until the
    bot is idle."""

    async def waiting() -> bool:
        db = await open_database(cast.database)
        try:
            games = [g for u in cast.players for g in await Store(db).games.active_for(u.id)]
        finally:
            await db.close()
        return any(game.computer_to_act for game in games)

    async with asyncio.timeout(30):
        while await waiting():
            await asyncio.sleep(0.2)
    await cast.harness.idle()


def _keys(cast: Cast) -> set[tuple[int, int]]:
    return {(m.chat.id, m.message_id) for m in cast.bot_messages()}


@pytest.mark.asyncio(loop_scope="module")
async def test_a_strangers_own_answer_to_a_resign_question_edits_nothing(cast: Cast) -> None:
    """The question's buttons carry the asker's id; a stranger who puts in their own taps a
    button that says it is theirs, on a game they do not play: refused, the question stays."""
    fake, alice, carol = cast.fake, cast.players[0], cast.strangers[0]
    fake.send_text(alice, cast.group, "/resign")
    await cast.harness.idle()
    question = fake.last_message(cast.group)
    drawn = ResignAction.unpack(question.buttons[0].callback_data or "")
    for sure in (False, True):
        forged = ResignAction(game=drawn.game, user=carol.id, asked=drawn.asked, sure=sure).pack()
        answer = await fake.next_answer_to(fake.tap(carol, question, forged, check=False))
        await cast.harness.idle()
        assert answer.show_alert and answer.text is not None
        assert question.edit_count == 0 and question.buttons
    fake.tap(alice, question, question.buttons[1].callback_data or "")  # No, play on
    await _check(cast, set())


@pytest.mark.asyncio(loop_scope="module")
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(players=STEPS_DRAWN, strangers=STEPS_DRAWN)
async def test_random_commands_and_taps_from_random_users(
    cast: Cast, players: list[Step], strangers: list[Step]
) -> None:
    fake = cast.fake
    before = _keys(cast)
    for step in players:
        player = cast.players[step.who]
        chat = cast.chats_of(player)[step.where]
        messages = [m for m in fake.messages(chat) if not m.deleted]
        if step.command is not None or not messages:
            fake.send_text(player, chat, step.command or "/start")
        else:  # on the message the button was drawn on; a made-up one on any message
            buttons = _buttons(cast)
            drawn, data = step.forgery.data([data for _, data in buttons], player)
            message = messages[step.message % len(messages)] if drawn is None else buttons[drawn][0]
            fake.tap(player, message, data, check=False)
        await cast.harness.settle()
    await _check(cast, before)
    await _computer_answered(cast)  # its answer to a player's move is no stranger's doing

    before = _keys(cast)
    edits = {(m.chat.id, m.message_id): m.edit_count for m in cast.bot_messages()}
    for step in strangers:  # taps only, never one that makes them players
        stranger = cast.strangers[step.who]
        messages = [m for c in cast.chats_of(stranger) for m in fake.messages(c) if not m.deleted]
        _, tapped = step.forgery.data([d for _, d in _buttons(cast) if not _accepts(d)], stranger)
        if _accepts(tapped):
            continue
        fake.tap(stranger, messages[step.message % len(messages)], tapped, check=False)
        await cast.harness.settle()
    await _check(cast, before)
    own = {fake.private_chat(stranger).id for stranger in cast.strangers}
    edited = [  # a stranger's private chat is theirs alone (the greeting, their own menus)
        (m.chat.id, m.message_id, m.content[:60])
        for m in cast.bot_messages()
        if m.edit_count != edits.get((m.chat.id, m.message_id), 0) and m.chat.id not in own
    ]
    assert not edited, f"strangers' taps edited {edited}"


def _buttons(cast: Cast) -> list[tuple[FakeMessage, str]]:
    """Every button the bot shows now: its message and its callback data."""
    return [(m, b.callback_data) for m in cast.bot_messages() for b in m.buttons if b.callback_data]
