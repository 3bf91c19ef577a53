"""The board's socket protocol in every game the engine plays, without a browser (no page
behaviour is under test here): gul-bara's remainders and rolls again, a crazy gul-bara cascade,
anti three dice's strike, three dice, the cube, two tabs of one player, a watcher's action
refused, the clock pushed when the chat's board was shown late, a socket opened while the game
changes, refusals in the reader's language, watchers' buttons, and a rematch followed.

Each test plays through sockets that speak the page's protocol (:class:`BoardClient`), against
the real bot and the fake Telegram, with dice seeded so that what is looked for comes early."""

from __future__ import annotations

import time
from pathlib import Path

import aiohttp

from tests.bot.gameplay import first_choice, game_buttons, start_private_game, wait_for_board
from tests.support.fake_telegram import FakeTelegram
from tests.support.webapp import BoardClient, sign_init_data
from tests.webapp.helpers import (
    act_once,
    actor,
    board_bot,
    game_of,
    open_clients,
    start_group_game,
)

MAX_TURNS = 200


async def test_gulbara_a_remainder_passes_and_a_double_rolls_again_on_the_board(
    tmp_path: Path,
) -> None:
    """Gul-bara (seed 5): a double played in full rolls again and is played on the board; later
    moves that one side could not play pass to the other, who plays them on the board."""
    async with (
        FakeTelegram() as fake,
        board_bot(fake, tmp_path / "nardy.sqlite3", seed=5) as harness,
    ):
        alice, bob, _group, board = await start_group_game(harness, "gulbara")
        async with aiohttp.ClientSession() as session:
            clients = await open_clients(harness, session, [alice, bob], game_of(board))
            again = remainder = False
            for _ in range(MAX_TURNS):
                if again and remainder or clients[0].state["over"]:
                    break
                state, done = await act_once(clients)
                label = state["label"] or ""
                if label == "Rolls again":
                    assert isinstance(done, list) and done  # the new roll, played
                    again = True
                if label.startswith("Remainder from"):
                    # the one who could not play is named; the other plays the moves left
                    other = "b" if state["you"] == "w" else "w"
                    assert state["you"] == state["to_act"] and state["names"][other] in label
                    assert state["dice"] == [] and state["moves"], state
                    assert isinstance(done, list) and 0 < len(done) <= len(state["moves"])
                    remainder = True
            assert again and remainder
            for client in clients:
                await client.close()


async def test_a_crazy_gulbara_cascade_played_on_the_board(tmp_path: Path) -> None:
    """Crazy gul-bara (seed 2): a 1-1 cascades through every double up to 6-6, twelve moves
    played on the board in one turn, its step tree sent a part at a time."""
    async with (
        FakeTelegram() as fake,
        board_bot(fake, tmp_path / "nardy.sqlite3", seed=2) as harness,
    ):
        alice, bob, _group, board = await start_group_game(harness, "crazy_gulbara")
        async with aiohttp.ClientSession() as session:
            clients = await open_clients(harness, session, [alice, bob], game_of(board))
            for _ in range(10):
                mover = actor(clients)
                cascading = mover is not None and len(mover.state["moves"]) == 12
                # in the cascade, the last step offered each time: a branch listed late or not
                state, done = await act_once(clients, (lambda o: o[-1]) if cascading else None)
                if cascading:
                    break
            else:
                raise AssertionError("no cascade of twelve moves")
            cascade = [1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6]
            assert state["dice"] == [1, 1] and state["moves"] == cascade
            assert isinstance(done, list) and len(done) == 12
            assert [die for _, _, die in done] == state["moves"]
            assert sum(c.expanded for c in clients) > 0  # the tree came a part at a time
            after = clients[0].state
            assert after["last"]["steps"] and len(after["last"]["steps"]) == 12
            await harness.idle()
            assert "⛓" not in (board.caption or "") or after["over"]
            for client in clients:
                await client.close()


async def test_anti_three_the_opponent_strikes_a_die_on_the_board(tmp_path: Path) -> None:
    """Anti three dice: the mover's opponent is offered the strike (the mover is not, and a
    strike sent by the mover is refused); the mover then plays the two dice left."""
    async with FakeTelegram() as fake, board_bot(fake, tmp_path / "nardy.sqlite3") as harness:
        alice, bob, _group, board = await start_group_game(harness, "short anti_three")
        async with aiohttp.ClientSession() as session:
            clients = await open_clients(harness, session, [alice, bob], game_of(board))
            for _ in range(20):
                striker = actor(clients)
                assert striker is not None
                state = striker.state
                strikes = [a for a in state["actions"] if a.startswith("strike:")]
                if not strikes:
                    await act_once(clients)
                    continue
                assert state["to_act"] != state["turn"] and len(state["dice"]) == 3
                mover = next(c for c in clients if c is not striker)
                assert not any(a.startswith("strike") for a in mover.state["actions"])
                refused = await mover.act(strikes[0])
                assert refused["type"] == "refused" and refused["text"]
                answer = await striker.act(strikes[-1])
                assert answer["type"] == "done"
                after = await mover.wait_version(state["version"])
                value = int(strikes[-1].split(":")[1])
                assert after["struck"] == value and after["turn"] == after["to_act"]
                if after["tree"] is not None:
                    steps = await mover.play()
                    assert (
                        0 < len(steps) <= 2
                        and value not in [d for *_, d in steps]
                        or (sorted(after["dice"]).count(value) > 1)
                    )
                break
            else:
                raise AssertionError("no strike in 20 turns")
            for client in clients:
                await client.close()


async def test_three_dice_turns_played_on_the_board(tmp_path: Path) -> None:
    """Three dice: each turn's tree plays all three (the page builds it step by step)."""
    async with FakeTelegram() as fake, board_bot(fake, tmp_path / "nardy.sqlite3") as harness:
        alice, bob, _group, board = await start_group_game(harness, "short three_dice")
        async with aiohttp.ClientSession() as session:
            clients = await open_clients(harness, session, [alice, bob], game_of(board))
            three = 0
            for _ in range(6):
                state, done = await act_once(clients)
                if isinstance(done, list) and len(state["dice"]) == 3:
                    assert sorted(d for *_, d in done) == sorted(state["moves"])
                    three += 1
            assert three >= 4
            await harness.idle()
            for client in clients:
                await client.close()


async def test_the_cube_on_the_board_double_take_then_double_drop(tmp_path: Path) -> None:
    """The cube: a double offered on the board, taken on the board (the cube ×2 with the taker),
    later redoubled by its owner and dropped: the game ends at the cube's value."""
    async with FakeTelegram() as fake, board_bot(fake, tmp_path / "nardy.sqlite3") as harness:
        alice, bob, _group, board = await start_group_game(harness, "short cube")
        async with aiohttp.ClientSession() as session:
            clients = await open_clients(harness, session, [alice, bob], game_of(board))
            taken = False
            for _ in range(MAX_TURNS):
                doubler = actor(clients)
                assert doubler is not None
                state = doubler.state
                if "double" not in state["actions"]:
                    await act_once(clients)
                    continue
                other = next(c for c in clients if c is not doubler)
                assert (await doubler.act("double"))["type"] == "done"
                offered = await other.wait_version(state["version"])
                assert offered["actions"][:2] == ["take", "drop"] and offered["cube"]["offered"]
                assert doubler.state["actions"] == ["resign"]  # the doubler waits
                if not taken:
                    assert (await other.act("take"))["type"] == "done"
                    after = await doubler.wait_version(offered["version"])
                    assert (
                        after["cube"]["value"] == 2 and after["cube"]["owner"] == other.state["you"]
                    )
                    taken = True
                    continue
                assert (await other.act("drop"))["type"] == "done"
                final = await doubler.wait_version(offered["version"])
                assert final["over"] and "×2" in final["result"]
                break
            else:
                raise AssertionError("no redouble")
            for client in clients:
                await client.close()


async def test_two_tabs_of_one_player_stay_consistent(tmp_path: Path) -> None:
    """Alice's board open twice: both are pushed each state; a turn confirmed in one shows in
    the other, whose own turn for the old version is then refused and changes nothing."""
    async with FakeTelegram() as fake, board_bot(fake, tmp_path / "nardy.sqlite3") as harness:
        alice, bob, _group, board = await start_group_game(harness, "short")
        async with aiohttp.ClientSession() as session:
            first, second, other = await open_clients(
                harness, session, [alice, alice, bob], game_of(board)
            )
            if first.state["to_act"] != first.state["you"]:
                await act_once([first, other])
                await second.wait_version(first.state["version"] - 1)
            state = first.state
            assert (
                second.state["tree"] == state["tree"]
                and second.state["version"] == state["version"]
            )
            stale = await second.path()
            steps = await first.play(lambda options: options[-1])
            moved = await second.wait_version(state["version"])
            assert moved == first.state and moved["last"]["steps"] and steps
            refused = await second.request(
                {"type": "turn", "version": state["version"], "steps": stale}
            )
            assert refused["type"] == "refused"
            await harness.idle()
            assert second.state["version"] == other.state["version"] == moved["version"]
            for client in (first, second, other):
                await client.close()


async def test_a_watchers_action_is_refused_in_their_language(tmp_path: Path) -> None:
    """A watcher of a group game (Carol, Russian) may open its board but not act on it: a
    turn, a roll or a resign is refused in Russian and changes nothing."""
    async with FakeTelegram() as fake, board_bot(fake, tmp_path / "nardy.sqlite3") as harness:
        alice, bob, group, board = await start_group_game(harness, "short")
        carol = fake.create_user("Carol", username="carol", language_code="ru")
        group.members[carol.id] = carol  # a member of the group: she sees its board
        async with aiohttp.ClientSession() as session:
            players = await open_clients(harness, session, [alice, bob], game_of(board))
            [watcher] = await open_clients(harness, session, [carol], game_of(board))
            assert watcher.hello["lang"] == "ru" and watcher.state["you"] is None
            assert watcher.state["actions"] == [] and watcher.state["tree"] is None
            mover = actor(players)
            assert mover is not None
            steps = await mover.path()
            version = watcher.state["version"]
            edits = board.edit_count
            for message in (
                {"type": "turn", "version": version, "steps": steps},
                {"type": "act", "version": version, "action": "resign"},
                {"type": "act", "version": version, "action": "roll"},
            ):
                refused = await watcher.request(message)
                assert refused["type"] == "refused" and "не играете" in refused["text"], refused
            await harness.idle()
            assert board.edit_count == edits
            assert {c.state["version"] for c in [*players, watcher]} == {version}
            for client in [*players, watcher]:
                await client.close()


async def test_a_clock_started_late_is_pushed_to_the_boards(tmp_path: Path) -> None:
    """The chat's board showed a move late (Telegram answered its edit 1.5 s late): the move's
    clock starts then, and the boards are told the later deadline."""
    async with FakeTelegram() as fake, board_bot(fake, tmp_path / "nardy.sqlite3") as harness:
        alice, bob, _group, board = await start_group_game(harness, "short")
        async with aiohttp.ClientSession() as session:
            clients = await open_clients(harness, session, [alice, bob], game_of(board))
            await harness.idle()
            mover = actor(clients)
            assert mover is not None
            other = next(c for c in clients if c is not mover)
            fake.delay_next("editMessageMedia", 1.5)
            version = mover.state["version"]
            await mover.play()
            pushed = await other.wait_version(version)
            clock = await other.answer(timeout=10)
            assert clock["type"] == "clock" and clock["version"] == pushed["version"]
            assert clock["deadline"] >= pushed["deadline"] + 1.0
            await harness.idle()
            for client in clients:
                await client.close()


async def test_a_board_opened_while_the_game_changes_is_sent_the_change(tmp_path: Path) -> None:
    """A board opened as the game changes (its mover taps the chat's buttons while the board's
    first state, a crazy gul-bara cascade's long step tree, is being written) is sent the
    change: it joins its game before the state is read, so nothing published meanwhile is
    lost."""
    async with (
        FakeTelegram() as fake,
        board_bot(fake, tmp_path / "nardy.sqlite3", seed=2) as harness,
    ):
        alice, bob, _group, board = await start_group_game(harness, "crazy_gulbara")
        game = game_of(board)
        async with aiohttp.ClientSession() as session:
            opened = await open_clients(harness, session, [alice, bob], game)
            clients = dict(zip((alice, bob), opened, strict=True))
            for _ in range(6):
                # the waiting player's board closed while the mover plays: the next state's
                # step tree is not written for a board of theirs before the test opens one
                mover = next(u for u, c in clients.items() if c is actor(list(clients.values())))
                waiting = bob if mover is alice else alice
                await clients[waiting].close()
                version = clients[mover].state["version"]
                await clients[mover].play()
                state = await clients[mover].wait_version(version)
                if len(state["moves"]) == 12:
                    break
                [clients[waiting]] = await open_clients(harness, session, [waiting], game)
            else:
                raise AssertionError("no cascade of twelve moves")
            assert state["turn"] != state["you"], "the cascade's mover's board must be closed"
            await harness.idle()
            url = f"{harness.web_url}/app/ws"
            init = sign_init_data(fake.token, waiting)
            tab = await BoardClient.open(session, url, init, game, wait=False)
            fake.tap(waiting, board, first_choice(board).pack())  # a step, in the chat
            seen = await tab.wait_version(state["version"], timeout=20)
            await harness.idle()
            assert tab.state["version"] == seen["version"]  # nothing older came after it
            assert seen["version"] > state["version"] and seen["you"] == seen["turn"]
            for client in (clients[mover], tab):
                await client.close()


async def test_refusals_are_in_the_readers_language(tmp_path: Path) -> None:
    """A hello refused (expired, or not Telegram's at all) is answered in the language of the
    user its init data names, not in English."""
    async with FakeTelegram() as fake, board_bot(fake, tmp_path / "nardy.sqlite3") as harness:
        alice, _bob, boards = await start_private_game(harness)
        game = game_of(boards[alice])
        carol = fake.create_user("Carol", username="carol", language_code="ru")
        url = f"{harness.web_url}/app/ws"
        expired = sign_init_data(fake.token, carol, auth_date=time.time() - 2 * 86_400)
        forged = sign_init_data("654321:another-bot", carol)
        async with aiohttp.ClientSession() as session:
            for init, reason in ((expired, "expired"), (forged, "forged")):
                client = await BoardClient.open(session, url, init, game, wait=False)
                refused = await client.answer()
                assert refused["type"] == "refused" and refused["reason"] == reason
                assert (
                    refused["lang"] == "ru"
                    and "Откройте" in refused["text"]
                    or ("открыта" in refused["text"])
                ), refused
                await client.close()


async def test_watchers_of_a_private_game_get_a_button_to_the_board(tmp_path: Path) -> None:
    """A watcher's board of a game between private chats carries a web_app button to the
    Mini App board, which opens it read-only."""
    async with FakeTelegram() as fake, board_bot(fake, tmp_path / "nardy.sqlite3") as harness:
        alice, _bob, boards = await start_private_game(harness)
        game = game_of(boards[alice])
        carol = fake.create_user("Carol", username="carol", language_code="ru")
        fake.send_text(carol, fake.private_chat(carol), f"/start w{game}")
        await harness.settle()
        watched = await wait_for_board(fake, fake.private_chat(carol))
        [[button]] = (watched.reply_markup or {})["inline_keyboard"]
        assert button["text"] == "▶ Открыть доску"
        assert button["web_app"]["url"].endswith(f"/app/?game={game}")
        assert not game_buttons(watched)
        async with aiohttp.ClientSession() as session:
            [watcher] = await open_clients(harness, session, [carol], game)
            assert watcher.state["you"] is None and watcher.state["game"] == game
            await watcher.close()


async def test_a_rematch_asked_on_the_board_is_followed_by_its_boards(tmp_path: Path) -> None:
    """A finished single game offers a rematch on the players' boards (the chat's 🔁): asked
    there, the challenge is posted in the group; once accepted, the players' and a watcher's
    boards follow on to the new game."""
    async with FakeTelegram() as fake, board_bot(fake, tmp_path / "nardy.sqlite3") as harness:
        alice, bob, group, board = await start_group_game(harness, "short")
        carol = fake.create_user("Carol", username="carol", language_code="ru")
        group.members[carol.id] = carol
        game = game_of(board)
        async with aiohttp.ClientSession() as session:
            clients = await open_clients(harness, session, [alice, bob, carol], game)
            first, second, watcher = clients
            assert (await first.act("resign"))["type"] == "done"
            for client in clients:
                await client.wait(lambda state: state["over"])
            assert first.state["actions"] == second.state["actions"] == ["rematch"]
            assert watcher.state["actions"] == []
            refused = await watcher.act("rematch")
            assert refused["type"] == "refused"
            note = await second.act("rematch")
            assert note["type"] == "note" and note["text"], note
            await harness.settle()
            challenge = fake.last_message(group)
            assert challenge.photo is None and challenge.buttons, challenge
            fake.press(alice, challenge, challenge.buttons[0].text)
            new = await fake.wait_for_message(
                group, where=lambda m: m.photo is not None and m.message_id > challenge.message_id
            )
            for client in clients:
                state = await client.wait(lambda s: s["game"] != game)
                assert state["game"] == game_of(new) and not state["over"]
            assert {first.state["you"], second.state["you"]} == {"w", "b"}
            assert watcher.state["you"] is None
            mover = actor([first, second])
            assert mover is not None and mover.state["tree"] is not None
            await harness.idle()
            for client in clients:
                await client.close()


async def test_a_chat_board_held_by_the_pace_is_drawn_with_the_newest_state(
    tmp_path: Path,
) -> None:
    """Turns played on the board faster than a group's pace (20 edits a minute): the group's
    board is drawn when its edit may go, with the newest state by then, so once the turns stop
    a single edit brings it up to date (not one for a state already replaced, then another)."""
    async with (
        FakeTelegram() as fake,
        board_bot(fake, tmp_path / "nardy.sqlite3", group_messages_per_minute=20) as harness,
    ):
        alice, bob, group, board = await start_group_game(harness, "short")
        async with aiohttp.ClientSession() as session:
            clients = await open_clients(harness, session, [alice, bob], game_of(board))
            for _ in range(6):  # well within the first wait for the pace (3 s)
                await act_once(clients)
            stopped = fake.mark()
            final = clients[0].state["version"]
            await harness.idle()
            after = [
                r
                for r in fake.requests_for("editMessageMedia", since=stopped)
                if int(r.params["chat_id"]) == group.id
            ]
            assert len(after) == 1, after
            assert clients[0].state["version"] == final
            shown = {
                int(str(button["callback_data"]).split(":")[2])
                for row in after[0].params["reply_markup"]["inline_keyboard"]
                for button in row
                if str(button.get("callback_data", "")).startswith("g:")
            }
            assert shown == {final}
            for client in clients:
                await client.close()


async def test_a_banned_players_requests_on_the_board_are_refused(tmp_path: Path) -> None:
    """Alice, banned by an operator while her board is open: her turn on the board is refused
    with the chat's words and changes nothing; lifted, it is played."""
    owner_id = 777_000_002
    async with (
        FakeTelegram() as fake,
        board_bot(fake, tmp_path / "nardy.sqlite3", owner_ids=(owner_id,)) as harness,
    ):
        alice, bob, _group, board = await start_group_game(harness, "short")
        owner = fake.create_user("Olga", username="olga", user_id=owner_id)
        office = fake.private_chat(owner)
        async with aiohttp.ClientSession() as session:
            clients = await open_clients(harness, session, [alice, bob], game_of(board))
            mover = actor(clients)
            assert mover is not None
            player = alice if mover is clients[0] else bob
            sent = fake.send_text(owner, office, f"/ban {player.id}")
            await fake.wait_for_message(office, after=sent)
            await harness.settle()
            version = mover.state["version"]
            steps = await mover.path()
            refused = await mover.request({"type": "turn", "version": version, "steps": steps})
            assert refused == {"type": "refused", "text": "You are banned from this bot."}
            await harness.idle()
            assert mover.state["version"] == version
            sent = fake.send_text(owner, office, f"/unban {player.id}")
            await fake.wait_for_message(office, after=sent)
            await harness.settle()
            done = await mover.request({"type": "turn", "version": version, "steps": steps})
            assert done["type"] == "done", done
            for client in clients:
                await client.close()
