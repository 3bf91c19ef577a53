"""Challenges with strangers, through the real bot and a fake Telegram: you get what you
accepted (a button drawn for older terms is refused and told what changed, and every message
of the challenge shows the terms now), a group's challenge is for the group's members, and a
button counts only on its own game's or challenge's messages. The first two run on both
backends (an SQLite file, a PostgreSQL database)."""

from __future__ import annotations

from bot.callbacks import ChallengeAction, ChallengeOption, GameButton, Rematch, ResignAction
from tests.support.fake_telegram import FakeMessage, FakeTelegram, FakeUser
from tests.support.harness import BotHarness

from .gameplay import first_choice, game_buttons, mover, version, wait_for_board

CHANGING = ("sendMessage", "sendPhoto", "editMessageText", "editMessageMedia", "editMessageCaption")
"""The calls that show something: a refused tap makes none of them."""


def _shown_since(fake: FakeTelegram, mark: int) -> list[str]:
    return [r.method for m in CHANGING for r in fake.requests_for(m, since=mark) if r.ok]


async def _refused(harness: BotHarness, user: FakeUser, message: FakeMessage, data: str) -> str:
    """``user`` taps ``data`` on ``message``; asserts it is refused by an alert that sends and
    edits nothing; returns the alert."""
    fake = harness.fake
    mark = fake.mark()
    answer = await fake.next_answer_to(fake.tap(user, message, data, check=False))
    await harness.settle()
    assert answer.show_alert, (data, answer)
    assert _shown_since(fake, mark) == [], data
    return answer.text or ""


async def _press(harness: BotHarness, user: FakeUser, message: FakeMessage, label: str) -> None:
    answer = await harness.fake.next_answer_to(harness.fake.press(user, message, label))
    assert not answer.show_alert, answer.text
    await harness.settle()


async def test_an_accept_drawn_for_older_terms_is_refused_and_names_the_change(
    any_backend_bot: BotHarness,
) -> None:
    harness, fake = any_backend_bot, any_backend_bot.fake
    alice = fake.create_user("Alice", username="alice")
    bob = fake.create_user("Bob", username="bob")
    group = fake.create_group("Nardy club", [alice, bob])
    fake.send_text(alice, group, "/play @bob 10")
    await harness.settle()
    challenge = fake.last_message(group)
    assert "stake 10 chips, by the rules" in challenge.text
    accept, decline = (challenge.button(t).callback_data or "" for t in ("Accept", "Decline"))
    # while Bob reads, Alice raises the stake to 500, makes it PRO and shortens the move time
    for label in ("💰 stake 10", "💰 stake 50", "💰 stake 100", "⚖", "⚖", "⏱"):
        await _press(harness, alice, challenge, label)
    assert "stake 500 chips, PRO" in challenge.text  # the message shows the terms now
    alert = await _refused(harness, bob, challenge, accept)
    assert "💰 stake 10 → 💰 stake 500" in alert and "→ ⚖ PRO" in alert, alert
    assert "⏱ 60 s → ⏱ 90 s" in alert, alert
    assert len(alert) <= 200
    assert "stake 500 chips, PRO" in challenge.text and challenge.button("Accept")
    assert "stake" in await _refused(harness, bob, challenge, decline)
    assert not [m for m in fake.messages(group) if m.photo]  # no game started
    # the terms as they are now, seen and accepted
    await _press(harness, bob, challenge, "✅ Accept")
    board = await wait_for_board(fake, group)
    assert "500" in (board.caption or "")


async def test_an_invitation_in_another_chat_follows_the_terms(bot_harness: BotHarness) -> None:
    harness, fake = bot_harness, bot_harness.fake
    alice = fake.create_user("Alice", username="alice")
    bob = fake.create_user("Борис", username="bob", language_code="ru")
    alice_chat, bob_chat = fake.private_chat(alice), fake.private_chat(bob)
    fake.send_text(bob, bob_chat, "/start")
    await harness.settle()  # Bob is known before he is challenged
    fake.send_text(alice, alice_chat, "/play @bob")
    await harness.settle()
    mine = next(m for m in fake.messages(alice_chat) if m.button("Decline"))
    invitation = fake.last_message(bob_chat)
    old_accept = invitation.button("Принять").callback_data or ""
    await _press(harness, alice, mine, "🎲 long nardy")  # short nardy now
    assert "короткие нарды" in invitation.text.lower(), invitation.text  # in Bob's Russian
    alert = await _refused(harness, bob, invitation, old_accept)
    assert "→" in alert and "Условия изменились" in alert, alert
    # each message of the challenge is closed when it is accepted
    await _press(harness, bob, invitation, "✅ Принять")
    await wait_for_board(fake, bob_chat)
    assert "game has started" in mine.text and not mine.buttons
    assert "партия началась" in invitation.text and not invitation.buttons


async def test_a_challenge_whose_sending_got_no_answer_takes_taps_all_the_same(
    bot_harness: BotHarness,
) -> None:
    harness, fake = bot_harness, bot_harness.fake
    alice = fake.create_user("Alice", username="alice")
    bob = fake.create_user("Bob", username="bob")
    group = fake.create_group("Nardy club", [alice, bob])
    fake.drop_answer_next("sendMessage")  # it arrives, but the bot never learns its id
    fake.send_text(alice, group, "/play @bob")
    await harness.settle()
    assert [type(error).__name__ for _update, error in harness.take_errors()] == [
        "TelegramSendUncertain"
    ]
    challenge = next(m for m in fake.messages(group) if m.from_bot and "⚔" in m.text)
    await _press(harness, alice, challenge, "💰 stake 0")  # the tap makes it the challenge's
    assert "stake 10 chips" in challenge.text
    await _press(harness, bob, challenge, "✅ Accept")
    await wait_for_board(fake, group)
    assert "game has started" in challenge.text


async def test_a_group_challenge_is_for_the_groups_members(any_backend_bot: BotHarness) -> None:
    harness, fake = any_backend_bot, any_backend_bot.fake
    alice = fake.create_user("Alice", username="alice")
    dave = fake.create_user("Dave", username="dave")
    carol = fake.create_user("Carol", username="carol")  # not in the group
    group = fake.create_group("Nardy club", [alice, dave])
    fake.send_text(alice, group, "/play")
    await harness.settle()
    challenge = fake.last_message(group)
    data = ChallengeAction.unpack(challenge.button("Accept").callback_data or "")
    carol_chat = fake.private_chat(carol)
    fake.send_text(carol, carol_chat, f"/start c{data.challenge}")
    await harness.settle()
    refusal = fake.last_message(carol_chat)
    assert "only the group's members" in refusal.text and not refusal.buttons
    # her forged taps, on the only message she has, are refused too
    for option in (ChallengeOption.ACCEPT, ChallengeOption.DECLINE):
        forged = ChallengeAction(challenge=data.challenge, version=data.version, option=option)
        await _refused(harness, carol, refusal, forged.pack())
    assert challenge.button("Accept")  # still open
    # a member takes it from his private chat; the game is the group's
    dave_chat = fake.private_chat(dave)
    fake.send_text(dave, dave_chat, f"/start c{data.challenge}")
    await harness.settle()
    shown = fake.last_message(dave_chat)
    await _press(harness, dave, shown, "✅ Accept")
    board = await wait_for_board(fake, group)
    assert "@dave" in (board.caption or "") and not [m for m in fake.messages(dave_chat) if m.photo]
    assert "game has started" in challenge.text and "game has started" in shown.text


async def test_a_member_who_left_cannot_take_it_from_outside(bot_harness: BotHarness) -> None:
    harness, fake = bot_harness, bot_harness.fake
    alice = fake.create_user("Alice", username="alice")
    dave = fake.create_user("Dave", username="dave")
    group = fake.create_group("Nardy club", [alice, dave])
    fake.send_text(alice, group, "/play")
    await harness.settle()
    challenge = fake.last_message(group)
    number = ChallengeAction.unpack(challenge.button("Accept").callback_data or "").challenge
    dave_chat = fake.private_chat(dave)
    fake.send_text(dave, dave_chat, f"/start c{number}")
    await harness.settle()
    shown = fake.last_message(dave_chat)
    fake.set_member_status(group, dave, "left")
    alert = await _refused(harness, dave, shown, shown.button("Accept").callback_data or "")
    assert "only the group's members" in alert


async def _group_game(
    harness: BotHarness, title: str, host: FakeUser, guest: FakeUser
) -> FakeMessage:
    fake = harness.fake
    group = fake.create_group(title, [host, guest])
    fake.send_text(host, group, f"/play @{guest.username}")
    await harness.settle()
    await _press(harness, guest, fake.last_message(group), "✅ Accept")
    return await wait_for_board(fake, group)


async def test_a_games_buttons_count_only_on_its_own_boards(bot_harness: BotHarness) -> None:
    harness, fake = bot_harness, bot_harness.fake
    alice = fake.create_user("Alice", username="alice")
    bob = fake.create_user("Bob", username="bob")
    carol = fake.create_user("Carol", username="carol")
    first = await _group_game(harness, "One", alice, bob)
    second = await _group_game(harness, "Two", carol, alice)
    await fake.wait_for(lambda: bool(game_buttons(first)) and bool(game_buttons(second)))
    # whoever moves in the first game taps its current buttons on the second game's board
    player = mover(first, [alice, bob])
    step = first_choice(first)
    assert "does not belong" in await _refused(harness, player, second, step.pack())
    assert version(first) == step.version  # the first game did not move
    # the same data on its own board plays
    answer = await fake.next_answer_to(fake.tap(player, first, step.pack()))
    assert not answer.show_alert
    await fake.wait_for(lambda: version(first) != step.version)


async def test_a_forged_rematch_elsewhere_posts_and_edits_nothing(bot_harness: BotHarness) -> None:
    harness, fake = bot_harness, bot_harness.fake
    alice = fake.create_user("Alice", username="alice")
    bob = fake.create_user("Bob", username="bob")
    board = await _group_game(harness, "Club", alice, bob)
    game = GameButton.unpack(board.buttons[0].callback_data or "").game
    fake.send_text(alice, board.chat, "/resign")
    await harness.settle()
    await _press(harness, alice, fake.last_message(board.chat), "🏳")
    await fake.wait_for(lambda: any(b.text == "🔁 Rematch" for b in board.buttons))
    alice_chat = fake.private_chat(alice)
    fake.send_text(alice, alice_chat, "/help")
    await harness.settle()
    somewhere = fake.last_message(alice_chat)
    forged = Rematch(game=game).pack()
    await _refused(harness, alice, somewhere, forged)
    assert fake.last_message(alice_chat) is somewhere
    # on the game's own board it makes the challenge, in the group
    await _press(harness, alice, board, "🔁 Rematch")
    rematch = fake.last_message(board.chat)
    assert "⚔" in rematch.text
    await _press(harness, alice, rematch, "✖ Decline")
    assert "withdrew" in rematch.text


async def test_a_forged_resign_answer_elsewhere_changes_nothing(bot_harness: BotHarness) -> None:
    harness, fake = bot_harness, bot_harness.fake
    alice = fake.create_user("Alice", username="alice")
    bob = fake.create_user("Bob", username="bob")
    board = await _group_game(harness, "Club", alice, bob)
    game = GameButton.unpack(board.buttons[0].callback_data or "").game
    fake.send_text(bob, board.chat, "/play")  # someone's challenge, in the same group
    await harness.settle()
    challenge = fake.last_message(board.chat)
    for sure in (True, False):  # named after a message that is no /resign of hers, or none
        for asked in (challenge.message_id, 0):
            forged = ResignAction(game=game, user=alice.id, asked=asked, sure=sure).pack()
            await _refused(harness, alice, challenge, forged)
    assert challenge.button("Accept") and not any(b.text == "🔁 Rematch" for b in board.buttons)
    # her own question's answer, on it, resigns
    fake.send_text(alice, board.chat, "/resign")
    await harness.settle()
    await _press(harness, alice, fake.last_message(board.chat), "🏳")
    await fake.wait_for(lambda: any(b.text == "🔁 Rematch" for b in board.buttons))
