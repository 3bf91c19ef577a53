"""Help a newcomer finds their way in (issue 37): the command menu Telegram shows depends on
where (a private chat, a group, a group's admin: ``setMyCommands`` scopes, resolved as
Telegram resolves them), in every language and in a chat whose language was chosen; ``/help``
starts with the first thing to type and groups the commands by what a person wants; and
``/score`` alone answers something useful."""

from __future__ import annotations

import pytest

from bot.views.commands import Scope, commands_for
from tests.support.fake_telegram import FakeUser
from tests.support.harness import BotHarness

from .gameplay import ask, resign, wait_for_board

GROUP_ONLY = {"tournament", "league", "flags"}
PRIVATE_ONLY = {"start", "chips", "quick", "games"}


def test_each_scope_has_its_commands() -> None:
    private, group, admins = (
        {c.name for c in commands_for(scope)}
        for scope in (Scope.PRIVATE, Scope.GROUP, Scope.ADMINS)
    )
    assert not private & GROUP_ONLY and private >= PRIVATE_ONLY
    assert not group & (PRIVATE_ONLY | {"league", "flags", "language"}) and "tournament" in group
    assert group < admins and {"league", "flags", "language"} <= admins
    assert [c.name for c in commands_for(Scope.PRIVATE)][:2] == ["find", "play"]  # first things


@pytest.mark.parametrize("code", ["en", "ru", "kk"])
async def test_the_menu_follows_the_chat_and_the_reader(bot_harness: BotHarness, code: str) -> None:
    fake = bot_harness.fake
    anna = fake.create_user("Anna", username="anna", language_code=code)  # the group's creator
    boris = fake.create_user("Boris", username="boris", language_code=code)
    group = fake.create_group("Club", [anna, boris])
    private = {c for c, _ in fake.menu_seen(boris, fake.private_chat(boris))}
    member = {c for c, _ in fake.menu_seen(boris, group)}
    admin = {c for c, _ in fake.menu_seen(anna, group)}
    assert private == {c.name for c in commands_for(Scope.PRIVATE)}
    assert member == {c.name for c in commands_for(Scope.GROUP)}
    assert admin == {c.name for c in commands_for(Scope.ADMINS)}
    russian = dict(fake.menu_seen(boris, fake.private_chat(boris)))["find"]
    english = "Play anyone now: the bot finds you an opponent"
    assert (russian == english) is (code == "en")


async def test_a_groups_chosen_language_keeps_its_members_and_admins_menus(
    bot_harness: BotHarness,
) -> None:
    harness, fake = bot_harness, bot_harness.fake
    anna = fake.create_user("Anna", username="anna", language_code="en")
    boris = fake.create_user("Boris", username="boris", language_code="en")
    group = fake.create_group("Club", [anna, boris])
    await ask(harness, anna, group, "/language ru")
    member = dict(fake.menu_seen(boris, group))
    admin = dict(fake.menu_seen(anna, group))
    assert set(member) == {c.name for c in commands_for(Scope.GROUP)}
    assert set(admin) == {c.name for c in commands_for(Scope.ADMINS)}
    assert member["play"] == admin["play"] == "Начать новую партию (/play bot — с компьютером)"


async def test_help_starts_with_the_first_step_and_groups_by_what_people_want(
    bot_harness: BotHarness,
) -> None:
    harness, fake = bot_harness, bot_harness.fake
    anna = fake.create_user("Anna", username="anna", language_code="en")
    private = (await ask(harness, anna, fake.private_chat(anna), "/help")).text or ""
    lines = private.splitlines()
    assert lines[0] == "Commands" and lines[1].startswith("New here? Send /find")
    headings = [line for line in lines if line and line[0] in "🔎⚔🤖🎲📚📊🛡⚙" and " — " not in line]
    assert headings == [
        "🔎 Play anyone now",
        "⚔ Play a friend",
        "🤖 Play the computer",
        "🎲 Your games",
        "📚 Learn",
        "📊 Scores",
        "⚙ Settings",
    ]
    assert "/league" not in private and "/play bot — A game with the computer" in private
    group = fake.create_group("Club", [anna])
    in_group = (await ask(harness, anna, group, "/help")).text or ""
    assert "🛡 For the group's admins" in in_group and "/league" in in_group
    assert "/chips" not in in_group  # a private chat's


async def _game(harness: BotHarness, host: FakeUser, guest: FakeUser) -> None:
    fake = harness.fake
    group = fake.create_group(f"{host.first_name} and {guest.first_name}", [host, guest])
    challenge = await ask(harness, host, group, f"/play @{guest.username}")
    fake.press(guest, challenge, "✅ Accept")
    board = await wait_for_board(fake, group)
    await resign(harness, host, group, board)


async def test_score_alone_tells_the_latest_opponents(bot_harness: BotHarness) -> None:
    harness, fake = bot_harness, bot_harness.fake
    anna, boris, vera = (
        fake.create_user(n, username=n.lower(), language_code="en")
        for n in ("Anna", "Boris", "Vera")
    )
    chat = fake.private_chat(anna)
    nothing = (await ask(harness, anna, chat, "/score")).text or ""
    assert "No games yet to score: /find to play anyone now" in nothing
    await _game(harness, anna, boris)
    await _game(harness, anna, vera)
    latest = (await ask(harness, anna, chat, "/score")).text or ""
    assert latest.startswith("Your latest opponents:")
    assert latest.index("@vera") < latest.index("@boris")  # the latest first
    assert "@anna — @boris: 0:1 in games" in latest
