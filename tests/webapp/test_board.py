"""The Mini App board in Chromium (Debian's package, driven by Playwright), served by the real
bot against the fake Telegram: players play whole games through the page's own UI (a tap on a
checker, a tap on a lit point, Confirm), a watcher follows each move, a reload mid-turn keeps
the steps picked, forged init data is refused, the waiting player is offered nothing, and the
chat's message is edited once per turn. Screenshots at phone size in Telegram's light and dark
themes are checked against golden images. One browser for the module, a page per reader."""

from __future__ import annotations

import io
import os
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from PIL import Image

from tests.bot.gameplay import start_private_game, wait_for_board
from tests.render.golden import assert_like_golden
from tests.support.fake_telegram import FakeTelegram, FakeUser
from tests.support.harness import BotHarness
from tests.support.webapp import (
    CHROMIUM_ARGS,
    DARK,
    LIGHT,
    PHONE,
    BoardPage,
    board_url,
    need_browser,
    sign_init_data,
)
from tests.webapp.helpers import board_bot, board_button, game_of

pytestmark = pytest.mark.asyncio(loop_scope="module")

GOLDEN = Path(__file__).parent.parent / "golden" / "webapp"


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def browser() -> AsyncIterator[Any]:
    """Chromium, headless, for every test of the module."""
    path = need_browser()
    from playwright.async_api import async_playwright

    async with async_playwright() as playwright:
        launched = await playwright.chromium.launch(executable_path=path, args=list(CHROMIUM_ARGS))
        yield launched
        await launched.close()


async def open_board(
    browser: Any,
    harness: BotHarness,
    user: FakeUser,
    *,
    game: int | None,
    theme: dict[str, str] = LIGHT,
    start_param: str | None = None,
    init: str | None = None,
) -> BoardPage:
    """``user`` opens the board as Telegram opens it: the Mini App's address with their
    signed init data and the theme in its hash."""
    page = await browser.new_page(viewport=PHONE)
    page.set_default_timeout(10_000)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
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
        # one edit of the chat's board per confirmed turn (the next roll and the result in it)
        assert boards[alice].edit_count - edits_before == confirmed
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
async def test_a_short_group_game_with_hits_the_bar_and_bearing_off_edits_once_a_turn(
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
        # the group's message: edited once per turn (the next roll and the result in it)
        assert board.edit_count - edits == confirmed
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
    """The board at phone size in Telegram's light and dark themes, like its golden images
    (the clocks, which count down, masked)."""
    dark = await open_board(browser, harness, user, game=game, theme=DARK)
    await dark.wait_version(-1)
    shots = []
    for page, name in ((light, "short-start-light"), (dark, "short-start-dark")):
        shot = await page.page.screenshot(
            style=".clock { visibility: hidden; }", animations="disabled"
        )
        image = Image.open(io.BytesIO(shot)).convert("RGB")
        shots.append((image, GOLDEN / f"{name}.png"))
    await dark.page.close()
    if os.environ.get("NARDY_REGEN_GOLDEN") == "1":  # every golden written, then the skip
        for image, path in shots:
            path.parent.mkdir(parents=True, exist_ok=True)
            image.save(path, optimize=True)
        pytest.skip(f"regenerated the goldens in {GOLDEN}")
    for image, path in shots:
        assert_like_golden(image, path, tmp_path, save=image.save)
