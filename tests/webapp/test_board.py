"""The Mini App board in Chromium (Debian's package, driven by Playwright), served by the real
bot against the fake Telegram: players play whole games through the page's own UI (a tap on a
checker, a tap on a lit point, Confirm), a watcher follows each move, a reload mid-turn keeps
the steps picked, forged init data is refused, the waiting player is offered nothing, and the
chat's message follows at its own pace while both play on the board. Screenshots at phone
size in Telegram's light and dark themes are checked against golden images. One browser for
the module, a page per reader."""

from __future__ import annotations

import asyncio
import io
import os
import re
import time
from pathlib import Path
from typing import Any, Final

import aiohttp
import pytest
from PIL import Image

from bot.webapp.palette import MIN_CONTRAST, contrast, page_colours
from tests.bot.gameplay import start_private_game, wait_for_board
from tests.render.golden import assert_like_golden
from tests.support.fake_telegram import FakeTelegram, FakeUser
from tests.support.harness import BotHarness
from tests.support.webapp import (
    DARK,
    LIGHT,
    PHONE,
    BoardPage,
    board_url,
    sign_init_data,
)
from tests.webapp.helpers import (
    board_bot,
    board_button,
    game_of,
    open_clients,
    start_group_game,
)

pytestmark = pytest.mark.asyncio(loop_scope="module")

GOLDEN = Path(__file__).parent.parent / "golden" / "webapp"
LANDSCAPE: Final = {"width": PHONE["height"], "height": PHONE["width"]}
"""The phone turned."""
TELEGRAM_CLIENT = """
window.telegramEvents = [];
window.popupAnswers = [];
window.TelegramWebviewProxy = {
  postEvent(type, body) {
    const data = JSON.parse(body || "{}");
    window.telegramEvents.push([type, data]);
    if (type === "web_app_open_popup") {
      const id = window.popupAnswers.length ? window.popupAnswers.shift() : "cancel";
      setTimeout(() => window.Telegram.WebView.receiveEvent("popup_closed", { button_id: id }), 20);
    }
  },
};
"""


async def open_board(
    browser: Any,
    harness: BotHarness,
    user: FakeUser,
    *,
    game: int | None,
    theme: dict[str, str] = LIGHT,
    start_param: str | None = None,
    init: str | None = None,
    telegram: bool = False,
    sockets: Any = None,
    viewport: dict[str, int] = PHONE,
) -> BoardPage:
    """``user`` opens the board as Telegram opens it: the Mini App's address with their
    signed init data and the theme in its hash. ``telegram``: inside a Telegram client (its
    ``TelegramWebviewProxy``, which answers popups as ``window.popupAnswers`` say and records
    every event in ``window.telegramEvents``); ``sockets``: a Playwright WebSocket route
    handler for the board's socket."""
    page = await browser.new_page(viewport=viewport)
    page.set_default_timeout(10_000)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    if telegram:
        await page.add_init_script(TELEGRAM_CLIENT)
    if sockets is not None:
        await page.route_web_socket(re.compile(r".*/app/ws$"), sockets)
    data = init or sign_init_data(harness.fake.token, user, start_param=start_param)
    await page.goto(board_url(f"{harness.web_url}/app/", data, game=game, theme=theme))
    board = BoardPage(page)
    board.errors = errors  # type: ignore[attr-defined]
    return board


async def mover_of(pages: dict[FakeUser, BoardPage]) -> FakeUser:
    for user, page in pages.items():
        state = await page.state()
        assert state is not None
        if state["you"] == state["to_act"]:
            return user
    raise AssertionError("nobody to move")


@pytest.mark.slow
async def test_a_whole_long_game_on_the_board_with_a_watcher_and_a_reload(
    browser: Any, tmp_path: Path
) -> None:
    async with FakeTelegram() as fake, board_bot(fake, tmp_path / "nardy.sqlite3") as harness:
        alice, bob, boards = await start_private_game(harness)
        button = board_button(boards[alice])
        assert button["text"] == "▶ Play on the board" and "web_app" in button
        game = game_of(boards[alice])
        carol = fake.create_user("Carol", username="carol", language_code="ru")
        # forged and expired init data open nothing
        forged = sign_init_data(fake.token, alice).replace("Alice", "Mallory")
        refused = await open_board(browser, harness, alice, game=game, init=forged)
        await refused.page.wait_for_selector("body[data-refused='forged']")
        await refused.page.close()
        expired = sign_init_data(fake.token, alice, auth_date=1_000_000)
        refused = await open_board(browser, harness, alice, game=game, init=expired)
        await refused.page.wait_for_selector("body[data-refused='expired']")
        assert "again" in await refused.page.inner_text("#status")
        await refused.page.close()

        pages = {user: await open_board(browser, harness, user, game=game) for user in (alice, bob)}
        watcher = await open_board(browser, harness, carol, game=game)
        for page in [*pages.values(), watcher]:
            await page.wait_version(-1)
        assert "смотрите" in await watcher.page.inner_text("#status")
        edits_before = boards[alice].edit_count
        confirmed = 0
        reloaded = False
        for _ in range(300):
            state = await pages[alice].state()
            assert state is not None
            if state["over"]:
                break
            mover = await mover_of(pages)
            page = pages[mover]
            waiting = pages[bob if mover is alice else alice]
            version = await page.version()
            await page.wait_mine()
            if confirmed < 3:  # the waiting player is offered nothing; a tap changes nothing
                assert await waiting.options() == []
                await waiting.tap_point(24)
                assert await waiting.page.evaluate("window.nardy.picked().length") == 0
            options = await page.options()
            if not reloaded and confirmed >= 4 and options:
                # a reload mid-turn keeps the step picked
                await page.play_steps([options[0]])
                picked = await page.page.evaluate("window.nardy.picked()")
                await page.page.reload()
                page._centres = {}
                await page.wait_version(version - 1)
                assert await page.page.evaluate("window.nardy.picked()") == picked
                reloaded = True
            steps = await page.play_turn()
            confirmed += 1
            new = await pages[alice].wait_version(version)
            await pages[bob].wait_version(version)
            # the watcher sees each move: the same checkers as the players
            await watcher.wait_version(new - 1)
            seen, played = await watcher.state(), await page.state()
            assert seen is not None and played is not None and steps
            assert seen["version"] == played["version"]
            assert seen["pips"] == played["pips"] and seen["off"] == played["off"]
        final = await pages[alice].state()
        assert final is not None and final["over"] and final["result"]
        assert reloaded
        await harness.idle()
        assert "🏆" in boards[alice].content
        # both play on the board: the chat's board follows at its own pace (at most once every
        # few seconds, the newest state then), and shows the result at once
        assert 1 <= boards[alice].edit_count - edits_before < confirmed
        for page in [*pages.values(), watcher]:
            assert not page.errors  # type: ignore[attr-defined]
            await page.page.close()


class _Hitter:
    """Picks a hit while none was played yet, else a checker borne off, else the checker
    furthest back (a game that hits once and then races ends soon)."""

    def __init__(self) -> None:
        self.hit = False

    def __call__(self, options: list[list[int]]) -> list[int]:
        hits = [o for o in options if o[3]]
        if hits and not self.hit:
            self.hit = True
            return hits[0]
        off = [o for o in options if o[1] == 0]
        return off[0] if off else max(options, key=lambda o: (o[0], -o[1]))


@pytest.mark.slow
async def test_a_short_group_game_with_hits_the_bar_and_bearing_off_on_the_board(
    browser: Any, tmp_path: Path
) -> None:
    async with (
        FakeTelegram() as fake,
        board_bot(fake, tmp_path / "nardy.sqlite3", seed=4) as harness,
    ):
        alice = fake.create_user("Alice", username="alice", language_code="en")
        bob = fake.create_user("Bob", username="bob", language_code="en")
        group = fake.create_group("Nardy club", [alice, bob])
        fake.send_text(alice, group, "/play @bob short")
        await harness.settle()
        fake.press(bob, fake.last_message(group), "✅ Accept")
        board = await wait_for_board(fake, group)
        link = board_button(board)["url"]
        assert link.startswith("https://t.me/") and "/board?startapp=g" in link
        game = game_of(board)
        pages = {
            user: await open_board(browser, harness, user, game=None, start_param=f"g{game}")
            for user in (alice, bob)
        }
        for page in pages.values():
            await page.wait_version(-1)
        await _check_screenshots(browser, harness, pages[alice], alice, game, tmp_path)
        seen = {"hit": False, "bar": False, "off": False}
        choose = _Hitter()
        await harness.idle()
        edits = board.edit_count
        confirmed = 0
        for _ in range(200):
            state = await pages[alice].state()
            assert state is not None
            if state["over"]:
                break
            mover = await mover_of(pages)
            page = pages[mover]
            version = await page.version()
            await page.wait_mine()
            steps = await page.play_turn(choose)
            confirmed += 1
            seen["hit"] |= any(s[3] for s in steps)
            seen["bar"] |= any(s[0] == 25 for s in steps)
            seen["off"] |= any(s[1] == 0 for s in steps)
            await pages[alice].wait_version(version)
            await pages[bob].wait_version(version)
        await harness.idle()
        # the group's message: at its own pace while both play on the board, never once a turn
        assert 1 <= board.edit_count - edits < confirmed
        final = await pages[bob].state()
        assert final is not None and final["over"]
        assert seen == {"hit": True, "bar": True, "off": True}
        assert "🏆" in board.content
        for page in pages.values():
            assert not page.errors  # type: ignore[attr-defined]
            await page.page.close()


async def _check_screenshots(
    browser: Any,
    harness: BotHarness,
    light: BoardPage,
    user: FakeUser,
    game: int,
    tmp_path: Path,
) -> None:
    """The board at phone size in Telegram's light and dark themes, and turned (landscape),
    like its golden images (the clocks, which count down, masked)."""
    dark = await open_board(browser, harness, user, game=game, theme=DARK)
    turned = await open_board(browser, harness, user, game=game, viewport=LANDSCAPE)
    await dark.wait_version(-1)
    await turned.wait_version(-1)
    shots = []
    for page, name in (
        (light, "short-start-light"),
        (dark, "short-start-dark"),
        (turned, "short-start-landscape"),
    ):
        shot = await page.page.screenshot(
            style=".clock { visibility: hidden; }", animations="disabled"
        )
        image = Image.open(io.BytesIO(shot)).convert("RGB")
        shots.append((image, GOLDEN / f"{name}.png"))
    await dark.page.close()
    await turned.page.close()
    if os.environ.get("NARDY_REGEN_GOLDEN") == "1":  # every golden written, then the skip
        for image, path in shots:
            path.parent.mkdir(parents=True, exist_ok=True)
            image.save(path, optimize=True)
        pytest.skip(f"regenerated the goldens in {GOLDEN}")
    for image, path in shots:
        assert_like_golden(image, path, tmp_path, save=image.save)


async def _popups(page: BoardPage) -> list[dict[str, Any]]:
    events = await page.page.evaluate("window.telegramEvents")
    return [data for kind, data in events if kind == "web_app_open_popup"]


@pytest.mark.slow
async def test_a_match_played_on_the_board_goes_on_to_its_next_game(
    browser: Any, tmp_path: Path
) -> None:
    """A group match to 3, played on the board: resign asks in Telegram's own popup (Cancel
    changes nothing); the finished game offers "▶ Next game" to its players, whose tap starts
    it as the chat's button does (the chat's finished board loses its own); both players'
    boards and a watcher's follow on to it (their address too), each in its reader's language,
    and play goes on there."""
    async with (
        FakeTelegram() as fake,
        board_bot(fake, tmp_path / "nardy.sqlite3", seed=3) as harness,
    ):
        alice, bob, group, board = await start_group_game(harness, "short 3")
        carol = fake.create_user("Carol", username="carol", language_code="ru")
        group.members[carol.id] = carol
        first = game_of(board)
        pages = {
            user: await open_board(browser, harness, user, game=first, telegram=True)
            for user in (alice, bob)
        }
        watcher = await open_board(browser, harness, carol, game=first)
        for page in [*pages.values(), watcher]:
            await page.wait_version(-1)
        assert await pages[alice].page.get_attribute("html", "lang") == "en"
        assert await watcher.page.get_attribute("html", "lang") == "ru"
        mover = await mover_of(pages)
        version = await pages[mover].version()
        await pages[mover].play_turn()
        await pages[alice].wait_version(version)
        # resign: Telegram's popup, Cancel first (nothing sent), then Resign
        page = pages[alice]
        await page.page.evaluate("window.popupAnswers.push('cancel')")
        await page.act("resign")
        await page.page.wait_for_function("window.telegramEvents.length >= 3")
        [asked] = await _popups(page)
        assert asked["message"] == "Resign this game?"
        assert [b["type"] for b in asked["buttons"]] == ["destructive", "cancel"]
        await asyncio.sleep(0.3)
        state = await page.state()
        assert state is not None and not state["over"]
        await page.page.evaluate("window.popupAnswers.push('yes')")
        await page.act("resign")
        for each in [*pages.values(), watcher]:
            await each.page.wait_for_function("window.nardy.state().over")
        for each in pages.values():
            await each.page.wait_for_selector('[data-action="next"]')
        assert await watcher.page.locator("#controls button").count() == 0
        # bob starts the next game from his board
        await pages[bob].act("next")
        for each in [*pages.values(), watcher]:
            await each.page.wait_for_function(f"window.nardy.game() !== {first}")
        second = await pages[bob].page.evaluate("window.nardy.game()")
        new_board = await fake.wait_for_message(
            group, where=lambda m: m.photo is not None and m.message_id > board.message_id
        )
        assert game_of(new_board) == second
        # the chat's finished board keeps 📊 and 🎞: its ▶ Next game would only be refused now
        await fake.wait_for(
            lambda: [b.text for b in board.buttons] == ["📊 Analysis", "🎞 Replay"],
            description="the finished game's keyboard in the chat",
        )
        for each in [*pages.values(), watcher]:
            state = await each.state()
            assert state is not None and state["game"] == second and not state["over"]
            assert f"?game={second}" in each.page.url
            assert "2" in (state["match"] or "") or ":" in (state["match"] or "")
        assert "смотрите" in await watcher.page.inner_text("#status")
        # play goes on in the second game, on the same pages
        for _ in range(2):
            mover = await mover_of(pages)
            version = await pages[mover].version()
            await pages[mover].wait_mine()
            await pages[mover].play_turn()
            await watcher.wait_version(version)
        # a reload opens the game the page follows now
        await pages[alice].page.reload()
        pages[alice]._centres = {}
        await pages[alice].wait_version(-1)
        assert await pages[alice].page.evaluate("window.nardy.game()") == second
        mover = await mover_of(pages)
        await pages[mover].page.evaluate("window.popupAnswers.push('yes')")
        await pages[mover].act("resign")
        for each in pages.values():
            await each.page.wait_for_function("window.nardy.state().over")
            state = await each.state()
            assert state is not None
            assert state["actions"] in (["next"], ["rematch"])
        for each in [*pages.values(), watcher]:
            assert not each.errors  # type: ignore[attr-defined]
            await each.page.close()


@pytest.mark.slow
async def test_a_checker_dragged_to_a_lit_point_and_undo(browser: Any, tmp_path: Path) -> None:
    """The mover drags a checker (mouse down, moves, up): it follows the pointer and, let go
    on a lit point, plays that step; let go elsewhere it goes back, still picked up. Undo takes
    steps back inside the turn; tap-tap still plays; Confirm sends the turn."""
    async with FakeTelegram() as fake, board_bot(fake, tmp_path / "nardy.sqlite3") as harness:
        alice, bob, boards = await start_private_game(harness, "short")
        game = game_of(boards[alice])
        pages = {user: await open_board(browser, harness, user, game=game) for user in (alice, bob)}
        for page in pages.values():
            await page.wait_version(-1)
        mover = await mover_of(pages)
        page = pages[mover]
        other = pages[bob if mover is alice else alice]
        await page.wait_mine()
        start = await page.options()
        src, dst = start[0][0], start[0][1]
        centres = await _centres(page)
        (x0, y0), (x1, y1) = centres[src], centres[dst]
        mouse = page.page.mouse
        await mouse.move(x0, y0)
        await mouse.down()
        middle = ((x0 + x1) / 2, (y0 + y1) / 2 + 15)
        await mouse.move(*middle, steps=5)
        ghost = page.page.locator("[data-ghost]")
        box = await ghost.bounding_box()
        assert box is not None  # the checker follows the pointer
        assert abs(box["x"] + box["width"] / 2 - middle[0]) < 3
        assert abs(box["y"] + box["height"] / 2 - middle[1]) < 3
        await mouse.move(x1, y1, steps=5)
        await mouse.up()
        assert await ghost.count() == 0
        assert await page.page.evaluate("window.nardy.picked()") == [start[0][:3]]
        # dropped on a point that is not lit: back, nothing played, still picked up
        after = await page.options()
        lit = {o[1] for o in after if o[0] == after[0][0]}
        nowhere = next(p for p in range(1, 25) if p not in lit and p != after[0][0])
        (x0, y0), (x2, y2) = centres[after[0][0]], centres[nowhere]
        await mouse.move(x0, y0)
        await mouse.down()
        await mouse.move(x2, y2, steps=5)
        await mouse.up()
        assert len(await page.page.evaluate("window.nardy.picked()")) == 1
        assert await page.page.locator(".hit.selected").count() == 1
        # Undo: the step taken back, the turn's first options again
        await page.act("undo")
        assert await page.page.evaluate("window.nardy.picked()") == []
        assert await page.options() == start
        version = await page.version()
        await page.play_turn()  # tap, tap, ... Confirm
        await other.wait_version(version)
        for each in pages.values():
            assert not each.errors  # type: ignore[attr-defined]
            await each.page.close()


async def _centres(page: BoardPage) -> dict[int, tuple[float, float]]:
    found = await page.page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll('[data-point]')].map(
            (e) => { const r = e.getBoundingClientRect();
              return [e.dataset.point, [r.x + r.width / 2, r.y + r.height / 2]]; }))"""
    )
    return {int(k): (v[0], v[1]) for k, v in found.items()}


@pytest.mark.slow
async def test_a_dropped_socket_reconnects_and_catches_up_and_an_expired_one_stops(
    browser: Any, tmp_path: Path
) -> None:
    """The board's connection drops and cannot come back for a while; meanwhile the opponent
    moves. Once it can, the page reconnects and shows the move. A board opened with init data
    about to expire drops the same way: its reconnection is refused as expired, the page says
    so in its reader's language and stops trying."""
    async with FakeTelegram() as fake, board_bot(fake, tmp_path / "nardy.sqlite3") as harness:
        alice, bob, group, board = await start_group_game(harness, "short")
        game = game_of(board)
        routes: list[Any] = []
        blocked = asyncio.Event()

        async def sockets(route: Any) -> None:
            routes.append(route)
            if blocked.is_set():
                await route.close(code=4000, reason="offline")
            else:
                route.connect_to_server()

        page = await open_board(browser, harness, alice, game=game, sockets=sockets)
        await page.wait_version(-1)
        async with aiohttp.ClientSession() as session:
            [opponent] = await open_clients(harness, session, [bob], game)
            if opponent.state["to_act"] != opponent.state["you"]:
                await page.wait_mine()
                version = await page.version()
                await page.play_turn()
                await opponent.wait_version(version)
            version = await page.version()
            blocked.set()
            await routes[-1].close(code=4000, reason="offline")
            await page.page.wait_for_selector("body[data-connected='no']")
            await opponent.play()  # while the page cannot connect
            await asyncio.sleep(0.5)
            assert await page.version() == version and len(routes) >= 2
            blocked.clear()
            caught_up = await page.wait_version(version, timeout=15)
            assert caught_up == opponent.state["version"]
            state = await page.state()
            assert state is not None and state["pips"] == opponent.state["pips"]
            assert await page.page.get_attribute("body", "data-connected") == "yes"
            await opponent.close()

        # about to expire: valid at its hello, refused when it comes back after it expired
        carol = fake.create_user("Carol", username="carol", language_code="ru")
        group.members[carol.id] = carol
        routes.clear()
        expires = time.time() + 8  # time enough to open the page on a busy machine
        init = sign_init_data(fake.token, carol, auth_date=expires - 86_400)
        expiring = await open_board(browser, harness, carol, game=game, init=init, sockets=sockets)
        await expiring.wait_version(-1)
        blocked.set()
        await routes[-1].close(code=4000, reason="offline")
        await asyncio.sleep(max(0.0, expires - time.time()) + 1)
        blocked.clear()
        await expiring.page.wait_for_selector("body[data-refused='expired']", timeout=15_000)
        assert "слишком давно" in await expiring.page.inner_text("#status")
        tries = len(routes)
        await asyncio.sleep(2.5)
        assert len(routes) == tries  # no more tries
        assert await expiring.page.locator("#controls button").count() == 0
        for each in (page, expiring):
            assert not each.errors  # type: ignore[attr-defined]
            await each.page.close()
        assert group


MEASURE = """() => {
  const box = (e) => e.getBoundingClientRect().toJSON();
  const style = (selector) => {
    const found = document.querySelector(selector);
    const computed = getComputedStyle(found);
    return [computed.fill, computed.stroke];
  };
  const board = document.querySelector("#board .frame");
  const content = [...document.querySelectorAll("main > *:not(#toast)")].map(box);
  return {
    view: [innerWidth, innerHeight],
    scroll: document.scrollingElement.scrollHeight,
    board: box(board),
    panel: box(document.querySelector("#controls")),
    bottom: Math.max(...content.map((b) => b.bottom)),
    numbers: [...document.querySelectorAll("#board .num:not(.off)")].map((e) => e.textContent),
    counts: [...document.querySelectorAll("#board .count")].map((e) => Number(e.textContent)),
    dice: [...document.querySelectorAll("#dice .die")].map(
      (e) => [Number(e.dataset.value), e.querySelectorAll(".pip").length, e.textContent]),
    dashed: [...document.querySelectorAll("#board *")].filter(
      (e) => getComputedStyle(e).strokeDasharray !== "none").length,
    marks: document.querySelectorAll("#board .last-to, #board .last-from").length,
    last: document.querySelector("#last").textContent,
    colours: {
      field: style("#board .field")[0],
      a: style("#board .tri.a")[0],
      b: style("#board .tri.b")[0],
      bar: style("#board .bar")[0],
      black: style("#board .checker.b .rim"),
      white: style("#board .checker.w .rim"),
    },
  };
}"""


def _rgb(css: str) -> tuple[int, int, int]:
    found = re.fullmatch(r"rgb\((\d+), (\d+), (\d+)\)", css)
    assert found, css
    return (int(found[1]), int(found[2]), int(found[3]))


@pytest.mark.slow
async def test_the_board_fills_a_phone_either_way_and_reads_as_the_chat_picture(
    browser: Any, tmp_path: Path
) -> None:
    """A long game's start (a head of 14 after the forced first turns) on a phone held
    upright and turned, in both themes: the board fills the width and the height it has (a
    tenth of the screen or less left empty, nothing to scroll), numbers its points 1..24,
    counts a stack taller than its point shows, has dice with pips (no digits), marks the
    last turn as the chat's picture does and names it under the board (no dashed frame), in
    the chat picture's colours; each checker stands out 3:1 or more from the field, the
    points and the bar, by its fill or its rim, in the dark theme as in the light."""
    async with (
        FakeTelegram() as fake,
        board_bot(fake, tmp_path / "nardy.sqlite3", seed=4) as harness,
    ):
        alice, _bob, boards = await start_private_game(harness)
        game = game_of(boards[alice])
        colours = page_colours()
        for theme, viewport in ((LIGHT, PHONE), (DARK, PHONE), (DARK, LANDSCAPE)):
            page = await open_board(
                browser, harness, alice, game=game, theme=theme, viewport=viewport
            )
            await page.wait_version(-1)
            state = await page.state()
            assert state is not None and state["last"]["steps"] and state["dice"]
            found = await page.page.evaluate(MEASURE)
            width, height = found["view"]
            board = found["board"]
            assert found["scroll"] <= height
            if viewport is PHONE:
                assert board["width"] >= 0.95 * width
                assert height - found["bottom"] <= 0.1 * height
            else:
                assert board["height"] >= 0.9 * height and board["right"] <= found["panel"]["left"]
            assert sorted(map(int, found["numbers"])) == list(range(1, 25))
            tallest = max(count for _side, count in state["points"])
            assert tallest in found["counts"]
            assert [d[0] for d in found["dice"]] == state["dice"]
            assert all(value == pips and text == "" for value, pips, text in found["dice"])
            assert found["dashed"] == 0 and found["marks"] > 0
            assert found["last"].startswith("Last turns: ")
            drawn = found["colours"]
            assert _rgb(drawn["field"]) == colours["--field"]
            assert _rgb(drawn["a"]) == colours["--point-a"]
            assert _rgb(drawn["b"]) == colours["--point-b"]
            grounds = [_rgb(drawn[k]) for k in ("field", "a", "b", "bar")]
            for side in ("black", "white"):
                fill, rim = (_rgb(c) for c in drawn[side])
                for ground in grounds:
                    assert max(contrast(fill, ground), contrast(rim, ground)) >= MIN_CONTRAST
            assert not page.errors  # type: ignore[attr-defined]
            await page.page.close()
