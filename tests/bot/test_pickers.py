"""The pickers a newcomer meets (a challenge's options, ``/find``'s terms, the tournament
creation picker) offer each choice directly: a tap on an option lists its choices (the
current one marked, the computer's levels each described), one tap on a choice picks it, ↩
Back changes nothing; the three draw their lists from the one table of choices."""

from __future__ import annotations

from bot.ai import level
from bot.services import choices
from bot.views.picker import LEVEL_WORDS
from tests.support.fake_telegram import FakeMessage, FakeUser
from tests.support.harness import BotHarness


async def _tap(harness: BotHarness, user: FakeUser, message: FakeMessage, label: str) -> None:
    answer = await harness.fake.next_answer_to(harness.fake.press(user, message, label))
    assert not answer.show_alert, answer.text
    await harness.settle()


def _labels(message: FakeMessage) -> list[str]:
    return [b.text for b in message.buttons]


async def test_a_level_a_variant_a_match_and_a_time_are_each_one_tap_from_a_list(
    bot_harness: BotHarness,
) -> None:
    harness, fake = bot_harness, bot_harness.fake
    alice = fake.create_user("Alice", username="alice", language_code="en")
    chat = fake.private_chat(alice)
    fake.send_text(alice, chat, "/play bot")
    await harness.settle()
    challenge = fake.last_message(chat)
    assert "at level 3 of 5" in (challenge.text or "")
    # the levels, each with its strength in words and its rating; level 1 two taps away
    await _tap(harness, alice, challenge, "🤖 level 3")
    levels = [t for t in _labels(challenge) if "level" in t]
    assert levels == [
        ("✓ " if n == 3 else "") + f"level {n} · {LEVEL_WORDS[n]} ({level(n).rating})"
        for n in choices.LEVELS
    ]
    await _tap(harness, alice, challenge, "level 1 · beginner")
    assert "at level 1 of 5" in (challenge.text or "")
    assert "🤖 level 1" in _labels(challenge)  # the options again
    # the match lengths, then ↩ Back, which changes nothing
    await _tap(harness, alice, challenge, "🏁 single game")
    assert _labels(challenge)[2:] == [
        "✓ single game",
        "match to 3",
        "match to 5",
        "match to 7",
        "match to 9",
        "↩ Back",
    ]
    version = challenge.text
    await _tap(harness, alice, challenge, "↩ Back")
    assert challenge.text == version and "🏁 single game" in _labels(challenge)
    await _tap(harness, alice, challenge, "🏁 single game")
    await _tap(harness, alice, challenge, "match to 7")
    assert "match to 7" in (challenge.text or "")

    # /find: the variant, straight to gul-bara; the time straight to 3 minutes
    picker = await _say(harness, alice, "/find")
    await _tap(harness, alice, picker, "🎲 long nardy")
    assert [t.removeprefix("✓ ") for t in _labels(picker)][:5] == [
        "long nardy",
        "short nardy",
        "Abkhaz nardy",
        "gul-bara",
        "crazy gul-bara",
    ]
    await _tap(harness, alice, picker, "gul-bara")
    await _tap(harness, alice, picker, "⏱ 90 s")
    await _tap(harness, alice, picker, "180 s")
    assert "gul-bara · single game · 180 s per move" in (picker.text or "")


async def _say(harness: BotHarness, user: FakeUser, text: str) -> FakeMessage:
    fake = harness.fake
    fake.send_text(user, fake.private_chat(user), text)
    await harness.settle()
    return fake.last_message(fake.private_chat(user))


async def test_the_tournament_picker_picks_from_the_same_lists(bot_harness: BotHarness) -> None:
    harness, fake = bot_harness, bot_harness.fake
    anna = fake.create_user("Anna", username="anna", language_code="en")
    boris = fake.create_user("Boris", username="boris", language_code="en")
    group = fake.create_group("Nardy club", [anna, boris])
    fake.send_text(anna, group, "/tournament")
    await harness.settle()
    picker = fake.last_message(group)
    refused = await fake.next_answer_to(fake.press(boris, picker, "🏁 single games"))
    assert refused.show_alert and "someone else's" in (refused.text or "")  # Anna's picker
    assert picker.edit_count == 0
    await _tap(harness, anna, picker, "🏁 single games")
    lengths = [t.removeprefix("✓ ") for t in _labels(picker)][:-1]
    assert len(lengths) == len(choices.MATCH_LENGTHS) and lengths[-1] == "match to 9"
    await _tap(harness, anna, picker, "match to 5")
    await _tap(harness, anna, picker, "⏱ 90 s")
    assert len(_labels(picker)) == len(choices.MOVE_TIMES) + 1  # the same times, and Back
    await _tap(harness, anna, picker, "1 d")
    assert "match to 5" in (picker.text or "") and "📬 1 day a move" in (picker.text or "")
