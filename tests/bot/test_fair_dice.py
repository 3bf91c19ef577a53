"""Fair dice through the real bot and a fake Telegram: a group game played to the end shows its
commitment from the first board, keeps the seed out of every message until the end, reveals it
with /verify, and its moves file passes ``python -m bot.engine verify`` (and fails with one roll
changed); the Python that /verify gives recomputes every die; /dice counts the faces."""

from __future__ import annotations

import hashlib
import json
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

from tests.support.harness import BotHarness

from .gameplay import ask, is_over, play_turn, wait_for_board


def _verify(path: Path) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "bot.engine", "verify", str(path)]
    return subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)


async def test_a_group_game_from_its_commitment_to_the_check_of_every_roll(
    bot_harness: BotHarness, tmp_path: Path
) -> None:
    harness, fake = bot_harness, bot_harness.fake
    alice = fake.create_user("Alice", username="alice", language_code="en")
    bob = fake.create_user("Борис", username="bob", language_code="ru")
    carol = fake.create_user("Carol", username="carol", language_code="en")
    group = fake.create_group("Nardy club", [alice, bob, carol])
    fake.send_text(alice, group, "/play @bob short")
    await harness.settle()
    challenge = fake.last_message(group)
    # the seed is fixed, and its commitment shown, before the accepting tap (the client
    # value) exists: the bot cannot pick a seed that suits that tap
    offered = re.search(r"🔒 Fair dice ([0-9a-f]{16})…", challenge.text or "")
    assert offered is not None, challenge.text
    accept = fake.press(bob, challenge, "✅ Accept")
    assert not (await fake.next_answer_to(accept)).show_alert
    board = await wait_for_board(fake, group)
    caption = board.caption or ""
    shown = re.search(r"🔒 Fair dice ([0-9a-f]{16})… · /verify (\d+)", caption)
    assert shown is not None, caption  # on the first board, before anyone moved
    assert shown.group(1) == offered.group(1)  # the game plays the seed the challenge showed
    game = int(shown.group(2))

    # during the game: the commitment in full and the client value, not the seed
    during = (await ask(harness, carol, group, f"/verify {game}")).text or ""
    commitment = re.findall(r"\b[0-9a-f]{64}\b", during)
    assert commitment == [commitment[0]] and commitment[0].startswith(shown.group(1))
    assert f"the id of the tap that started the game: {accept.id}" in during
    assert "The seed stays secret while the game is played." in during
    carol_chat = fake.private_chat(carol)
    refused = await ask(harness, carol, carol_chat, f"/verify {game}")
    assert refused.text == f"Game #{game} is not yours, and it was not played in this chat."
    for bad in ("/verify", "/verify abc", "/verify -3"):
        usage = await ask(harness, alice, group, bad)
        assert usage.text == (
            "Send the game's number: /verify 12. The number is on the board, after #."
        )
    missing = await ask(harness, alice, group, "/verify 99999999999999999999")
    assert missing.text == "This game does not exist."
    assert (await ask(harness, bob, group, "/verify 999")).text == "Такой партии нет."

    for _ in range(400):
        if is_over(board):
            break
        await play_turn(fake, board, [alice, bob])
    assert is_over(board), board.caption
    assert f"🔓 The dice are unsealed: check them with /verify {game}" in (board.caption or "")
    before_the_reveal = fake.mark()

    after = (await ask(harness, alice, group, f"/verify {game}")).text or ""
    found = re.search(r"Seed, revealed now that the game is over:\n([0-9a-f]{64})\n", after)
    assert found is not None, after
    seed = found.group(1)
    assert hashlib.sha256(bytes.fromhex(seed)).hexdigest() == commitment[0]
    # the seed was in nothing the bot sent before: no message, caption, alert or file
    for request in fake.requests[:before_the_reveal]:
        sent = json.dumps(request.params, ensure_ascii=False)
        assert seed not in sent and all(seed.encode() not in f for f in request.files.values())

    moves = await ask(harness, alice, group, f"/moves {game}")
    text = moves.document_bytes.decode()
    path = tmp_path / (moves.document_name or "moves.txt")
    path.write_text(text, encoding="utf-8")
    checked = _verify(path)
    assert checked.returncode == 0 and checked.stdout.startswith("OK: "), checked
    rolls = [line.split() for line in text.splitlines() if line.startswith("roll ")]
    assert len(rolls) > 14 and [int(r[1]) for r in rolls][:2] == [0, 1]  # played to the end
    # one die of one roll changed: the check fails, naming that roll
    target = rolls[len(rolls) // 2]
    dice = target[3].split("-")
    dice[0] = str(int(dice[0]) % 6 + 1)
    changed = " ".join([*target[:3], "-".join(dice)])
    tampered = tmp_path / "tampered.txt"
    tampered.write_text(text.replace(" ".join(target) + "\n", changed + "\n"), encoding="utf-8")
    failed = _verify(tampered)
    assert failed.returncode == 1, failed
    assert failed.stdout.startswith(f"FAIL: roll {target[1]} "), failed.stdout

    # the Python that /verify gives prints every die of the game, as the moves file lists them
    program = after[after.index("import hashlib, hmac") : after.index("print(")]
    program += after[after.index("print(") :].splitlines()[0]
    printed = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, timeout=60, check=True
    ).stdout
    every_die = [int(v) for r in rolls for v in r[3].split("-")]
    assert json.loads(printed) == every_die

    # /dice: Alice's faces, counted over her own rolls (she plays white)
    mine = Counter(int(v) for r in rolls if r[2] == "w" for v in r[3].split("-"))
    stats = (await ask(harness, alice, group, "/dice")).text or ""
    assert stats.startswith("🎲 Dice of @alice\n1 finished game, ")
    for face in range(1, 7):
        assert f" {face}: {mine[face]} (" in stats, stats
    assert "χ² = " in stats and "5 degrees of freedom" in stats
    theirs = (await ask(harness, alice, group, "/dice @bob")).text or ""
    bobs = Counter(int(v) for r in rolls if r[2] == "b" for v in r[3].split("-"))
    assert theirs.startswith("🎲 Dice of @bob") and f" 6: {bobs[6]} (" in theirs
    nobody = (await ask(harness, carol, group, "/dice")).text or ""
    assert "No finished games with verifiable dice yet" in nobody


async def test_the_command_menu_has_verify_and_dice_in_both_languages(
    bot_harness: BotHarness,
) -> None:
    fake = bot_harness.fake
    english = dict(fake.commands(language_code="en"))
    russian = dict(fake.commands(language_code="ru"))
    assert english["verify"] == "How to check a game's dice: /verify 12"
    assert english["dice"] == "Your dice statistics (/dice @user: someone else's)"
    assert russian["verify"] == "Как проверить кости партии: /verify 12"
    assert russian["dice"] == "Статистика ваших костей (/dice @user — чужая)"
