"""The board page's bridge to Telegram (``static/tg.js``) in Chromium, against stubbed clients:
Telegram Web (the page in an iframe, the parent window playing Telegram) and a mobile client
(``TelegramWebviewProxy``) of an older Bot API version. What each client is sent, and what the
page takes from whom, as telegram-web-app.js does."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from tests.bot.gameplay import start_private_game
from tests.support.fake_telegram import FakeTelegram
from tests.support.webapp import (
    LIGHT,
    PHONE,
    BoardClient,
    board_url,
    sign_init_data,
)
from tests.webapp.helpers import board_bot, game_of

pytestmark = pytest.mark.asyncio(loop_scope="module")

TELEGRAM_WEB = """<!doctype html>
<script>
  window.events = [];
  addEventListener("message", (event) => {
    try { window.events.push(JSON.parse(event.data)); } catch (e) {}
  });
  window.tell = (type, data) => document.getElementById("board").contentWindow.postMessage(
    JSON.stringify({ eventType: type, eventData: data }), "*");
</script>
<iframe id="board" src="URL" style="width: 390px; height: 700px"></iframe>
<iframe id="stranger" srcdoc="<script>window.forge = (type, data) =>
  parent.frames[0].postMessage(JSON.stringify({eventType: type, eventData: data}), '*');
</script>"></iframe>
"""
"""Telegram Web as the page sees it: the board in an iframe whose parent takes its events and
sends it Telegram's, beside another frame that tries to forge them."""

OLD_CLIENT = """
window.telegramEvents = [];
window.TelegramWebviewProxy = {
  postEvent(type, body) { window.telegramEvents.push([type, JSON.parse(body || "{}")]); },
};
"""
"""A mobile client that records what it is sent (the launch parameters say its version)."""


def _events(recorded: list[dict[str, Any]], kind: str) -> list[Any]:
    return [event.get("eventData") for event in recorded if event.get("eventType") == kind]


async def _recorded(page: Any) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = await page.evaluate("window.events")
    return found


@pytest.mark.slow
async def test_telegram_web_its_events_only_from_telegram_and_its_reload(
    browser: Any, tmp_path: Path
) -> None:
    """In Telegram Web's iframe the page says it is ready and that it can be reloaded, turns
    off the swipe that closes it, asks before closing while its player has a turn half built,
    and takes events from Telegram's window only: another frame's forged "yes" to an open
    Resign popup does nothing, Telegram's own answer decides. Telegram's reload reloads it.
    (This frame may not keep anything in sessionStorage, as a third party's under a blank
    page: the page goes on without it.)"""
    async with FakeTelegram() as fake, board_bot(fake, tmp_path / "nardy.sqlite3") as harness:
        alice, bob, boards = await start_private_game(harness)
        game = game_of(boards[alice])
        url = board_url(
            f"{harness.web_url}/app/", sign_init_data(fake.token, alice), game=game, theme=LIGHT
        )
        page = await browser.new_page(viewport={**PHONE, "width": 420})
        page.set_default_timeout(10_000)
        await page.set_content(TELEGRAM_WEB.replace("URL", url))
        board = page.frame_locator("#board")
        frame = next(f for f in page.frames if f.url.startswith(harness.web_url))
        await frame.wait_for_function("Number(document.body.dataset.version || -1) >= 0")
        recorded = await _recorded(page)
        assert _events(recorded, "iframe_ready") == [{"reload_supported": True}]
        assert _events(recorded, "web_app_setup_swipe_behavior") == [
            {"allow_vertical_swipe": False}
        ]
        assert "web_app_ready" in [e.get("eventType") for e in recorded]

        # a turn half built asks before closing; the whole turn sent, it no longer does
        state = await frame.evaluate("window.nardy.state()")
        if state["you"] != state["to_act"]:  # Bob's first turn: played through his socket
            async with aiohttp.ClientSession() as session:
                bob_board = await BoardClient.open(
                    session,
                    f"{harness.web_url}/app/ws",
                    sign_init_data(fake.token, bob),
                    game,
                )
                await bob_board.play()
                await bob_board.close()
        await frame.wait_for_function("document.body.dataset.mine === 'yes'")
        [first, *_] = await frame.evaluate("window.nardy.options()")
        for point in (first[0], first[1]):
            await board.locator(f'[data-point="{point}"]').last.click()
        await frame.wait_for_function("window.nardy.picked().length === 1")
        closing = _events(await _recorded(page), "web_app_setup_closing_behavior")
        assert closing[-1] == {"need_confirmation": True}

        # Resign asks in Telegram's popup; a forged answer from another frame does nothing
        version = await frame.evaluate("window.nardy.state().version")
        await board.locator('[data-action="resign"]').click()
        await page.wait_for_function(
            "window.events.some(e => e.eventType === 'web_app_open_popup')"
        )
        stranger = await (await page.query_selector("#stranger")).content_frame()
        await stranger.evaluate("window.forge('popup_closed', {button_id: 'yes'})")
        await page.wait_for_timeout(500)
        assert await frame.evaluate("window.nardy.state().over") is False
        await page.evaluate("window.tell('popup_closed', {button_id: 'yes'})")
        await frame.wait_for_function("window.nardy.state().over === true")
        assert await frame.evaluate("window.nardy.state().version") > version
        assert _events(await _recorded(page), "web_app_setup_closing_behavior")[-1] == {
            "need_confirmation": False
        }

        # Telegram's reload: the page says it will reload, and comes back on its own
        await page.evaluate("window.tell('reload_iframe', {})")
        await page.wait_for_function(
            "window.events.some(e => e.eventType === 'iframe_will_reload')"
        )
        await page.wait_for_function(
            "window.events.filter(e => e.eventType === 'iframe_ready').length === 2"
        )
        frame = next(f for f in page.frames if f.url.startswith(harness.web_url))
        await frame.wait_for_function("window.nardy.state() && window.nardy.state().over")
        await page.close()


async def test_an_older_client_gets_only_what_its_version_has(browser: Any, tmp_path: Path) -> None:
    """A client of Bot API 6.0 has no popups, swipe setting or closing confirmation: the page
    sends none of them, and Resign asks with the browser's own question instead (dismissed,
    nothing happens; accepted, the game is resigned). The launch parameters are kept for the
    tab, as the official script keeps them: reloaded at an address without them, the page
    still opens the board."""
    async with FakeTelegram() as fake, board_bot(fake, tmp_path / "nardy.sqlite3") as harness:
        alice, _bob, boards = await start_private_game(harness)
        game = game_of(boards[alice])
        url = board_url(
            f"{harness.web_url}/app/", sign_init_data(fake.token, alice), game=game, theme=LIGHT
        ).replace("tgWebAppVersion=8.0", "tgWebAppVersion=6.0")
        page = await browser.new_page(viewport=PHONE)
        page.set_default_timeout(10_000)
        await page.add_init_script(OLD_CLIENT)
        await page.goto(url)
        await page.wait_for_function("Number(document.body.dataset.version || -1) >= 0")
        answers = ["dismiss", "accept"]
        asked: list[str] = []

        async def answer(dialog: Any) -> None:
            asked.append(dialog.message)
            await (dialog.dismiss() if answers.pop(0) == "dismiss" else dialog.accept())

        page.on("dialog", answer)
        await page.locator('[data-action="resign"]').click()
        await page.wait_for_timeout(300)
        assert await page.evaluate("window.nardy.state().over") is False
        await page.locator('[data-action="resign"]').click()
        await page.wait_for_function("window.nardy.state().over === true")
        assert len(asked) == 2 and all(asked)
        sent = [kind for kind, _data in await page.evaluate("window.telegramEvents")]
        assert "web_app_ready" in sent
        for newer in (
            "web_app_open_popup",
            "web_app_setup_swipe_behavior",
            "web_app_setup_closing_behavior",
        ):
            assert newer not in sent, json.dumps(sent)
        await page.goto(url.split("#", 1)[0])
        await page.wait_for_function("window.nardy.state() && window.nardy.state().over")
        await page.close()
