"""A Swiss table longer than one picture through the real bot: the pinned picture shows the
leaders' page and says which places it shows; 📋 under it sends another page to the presser
in private, and refuses (changing and sending nothing) a presser the bot cannot write to, a
page the table does not have, and a button forged onto another message. Also the sign-up
message of 64 players with Telegram's longest names: the names that fit in a message, how many
more, and the lines after the list (the start, the winner) kept."""

from __future__ import annotations

import random

import pytest

from bot.app import ServicesFactory
from bot.callbacks import TournamentPage
from bot.i18n import create_i18n
from bot.model import Terms, Tournament, TournamentEntrant, TournamentFormat, TournamentState, User
from bot.services import Services, compose
from bot.services.tournament_values import TournamentOverview
from bot.views.common import translator
from bot.views.tournaments import signup_text
from tests.support.fake_telegram import FakeMessage
from tests.support.harness import BotHarness
from tests.support.services import composed


@pytest.fixture
def made() -> list[Services]:
    """The services each bot instance of the test was built with, the latest last."""
    return []


@pytest.fixture
def services_factory(made: list[Services]) -> ServicesFactory:
    return composed(
        lambda store, _: compose(store, random.Random(5), computer_pause=3600), made=made
    )


async def test_a_table_of_33_pins_the_leaders_page_and_sends_the_other_in_private(
    bot_harness: BotHarness, made: list[Services]
) -> None:
    harness, fake = bot_harness, bot_harness.fake
    people = [fake.create_user(f"P{n}", username=f"p{n}", language_code="en") for n in range(33)]
    group = fake.create_group("Big club", people)
    fake.set_bot_admin(group, can_pin_messages=True)
    asker, stranger = people[5], people[6]
    fake.send_text(asker, fake.private_chat(asker), "/start")  # the bot may write to them
    await harness.settle()
    services = made[-1]
    users = [
        await services.users.see(
            p.id,
            username=p.username,
            first_name=p.first_name,
            language_code="en",
            private_chat=True,
        )
        for p in people
    ]
    tournament = await services.tournaments.create(
        group.id,
        users[0],
        format=TournamentFormat.SWISS,
        terms=Terms(),
        locale="en",
        is_admin=True,
    )
    for user in users:
        await services.tournaments.join(tournament.id, user)
    await services.tournaments.start(tournament.id, users[0].id)  # the timers show it

    def pinned_table() -> FakeMessage | None:
        return next((m for m in fake.messages(group) if m.photo and m.buttons), None)

    pinned = await fake.wait_for(pinned_table, description="the pinned table")
    assert "📋 The picture shows places 1–32 of 33" in pinned.content
    assert [b.text for b in pinned.buttons] == ["📋 Places 33–33"]
    # sixteen boards and their watch links are more than a caption holds: those that fit
    assert "👁 https://t.me/" in pinned.content and "more boards" in pinned.content
    private = fake.private_chat(asker)
    await fake.wait_for_message(private, where=lambda m: m.photo is not None)  # their game's
    await harness.idle()
    before = len(fake.messages(private))
    answer = await fake.next_answer_to(fake.press(asker, pinned, "📋 Places 33–33"))
    assert not answer.show_alert and answer.text == "Sent to you in private."
    page = await fake.wait_for_message(
        private, where=lambda m: m.photo is not None and "Tournament #" in m.content
    )
    assert f"Tournament #{tournament.id}" in page.content and "places 33–33 of 33" in page.content
    assert len(fake.messages(private)) == before + 1

    # refused, nothing sent anywhere: a presser the bot cannot write to, a page the table
    # does not have, the button forged onto another message
    mark = fake.mark()
    answer = await fake.next_answer_to(fake.press(stranger, pinned, "📋 Places 33–33"))
    assert answer.show_alert and "open a chat with me" in (answer.text or "")
    beyond = TournamentPage(tournament=tournament.id, page=1).model_copy(update={"page": 2})
    answer = await fake.next_answer_to(fake.tap(asker, pinned, beyond.pack(), check=False))
    assert answer.show_alert
    other = fake.send_text(asker, group, "/tournament")
    listed = await fake.wait_for_message(group, after=other)
    await harness.settle()
    forged = TournamentPage(tournament=tournament.id, page=1).pack()
    answer = await fake.next_answer_to(fake.tap(asker, listed, forged, check=False))
    # a pinned table's button on another kind of message: refused before any handler
    assert answer.show_alert and "no longer valid" in (answer.text or "")
    sent = [r for r in fake.requests[mark:] if r.method == "sendPhoto" and r.status == 200]
    assert sent == []  # the stranger's was tried, and refused by Telegram
    assert len(fake.messages(private)) == before + 1


async def test_the_sign_up_of_64_long_names_shows_those_that_fit_and_how_many_more(
    bot_harness: BotHarness, made: list[Services]
) -> None:
    harness, fake = bot_harness, bot_harness.fake
    # Telegram's longest first names (64 characters), no usernames: 64 lines of them are more
    # than a message holds
    people = [fake.create_user(f"{n:02d} " + "Ж" * 61, language_code="en") for n in range(64)]
    group = fake.create_group("Big club", people)
    creator, last = people[0], people[-1]
    fake.send_text(last, fake.private_chat(last), "/start")
    picker = await fake.wait_for_message(group, after=fake.send_text(creator, group, "/tournament"))
    assert not (await fake.next_answer_to(fake.press(creator, picker, "✅ Create"))).show_alert
    await harness.settle()
    services = made[-1]
    [tournament] = await services.tournaments.in_chat(group.id)
    for person in people[:-1]:
        user = await services.users.see(
            person.id,
            username=None,
            first_name=person.first_name,
            language_code="en",
            private_chat=True,
        )
        await services.tournaments.join(tournament.id, user)
    # the 64th joins with the button: the message is edited, its list cut where it must be
    assert not (await fake.next_answer_to(fake.press(last, picker, "✅ Join"))).show_alert
    await fake.wait_for(lambda: "Players: 64" in picker.content, description="the 64th")
    shown = [line for line in picker.content.splitlines() if line.endswith("Ж" * 61)]
    assert 50 <= len(shown) < 64 and shown[0].startswith("1. 00 ")
    assert f"… and {64 - len(shown)} more players" in picker.content
    assert len(picker.content.encode("utf-16-le")) // 2 <= 4096
    # started: the list as long, and the line that says so after it
    assert not (await fake.next_answer_to(fake.press(creator, picker, "▶ Start"))).show_alert
    await fake.wait_for(lambda: "Started:" in picker.content, description="the start")
    assert "more players" in picker.content


def test_the_final_sign_up_message_keeps_its_winner_line_after_a_cut_list() -> None:
    players = range(1, 65)
    tournament = Tournament(
        1, -5, 1, TournamentFormat.KNOCKOUT, Terms(), 0, None, TournamentState.FINISHED, "en",
        0.0, rounds=6, round=6, winner_id=64,
    )  # fmt: skip
    overview = TournamentOverview(
        tournament,
        tuple(TournamentEntrant(1, n, float(n)) for n in players),
        {n: User(n, None, f"{n:02d} " + "&" * 61, "en") for n in players},  # escaped: longer
        (),
    )
    _ = translator(create_i18n(), "en")
    text = signup_text(overview, _)
    assert len(text.encode("utf-16-le")) // 2 <= 4096
    assert text.splitlines()[-1] == "🥇 Winner: 64 " + "&amp;" * 61
    assert "more players" in text.splitlines()[-2]
