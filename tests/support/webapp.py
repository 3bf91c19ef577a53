"""The Mini App board in a real browser for tests: Telegram's signed init data made as
Telegram makes it, Chromium (Debian's package) driven by Playwright, and a page driver that
plays through the page's own UI (taps on the board's points and on its buttons).

No browser is downloaded: :func:`launch_browser` starts ``/usr/bin/chromium`` (or
``NARDY_CHROMIUM``), and a test module skips with one line saying so where there is none.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import os
import shutil
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Final
from urllib.parse import quote, urlencode

import aiohttp
import pytest

from tests.support.fake_telegram import FakeUser

CHROMIUM_ARGS: Final = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
)
PHONE: Final = {"width": 390, "height": 740}
"""A phone's screen in CSS pixels (an iPhone 12's width)."""
LIGHT: Final = {
    "bg_color": "#ffffff",
    "text_color": "#000000",
    "hint_color": "#707579",
    "button_color": "#3390ec",
    "button_text_color": "#ffffff",
    "secondary_bg_color": "#f4f4f5",
}
DARK: Final = {
    "bg_color": "#212121",
    "text_color": "#ffffff",
    "hint_color": "#aaaaaa",
    "button_color": "#8774e1",
    "button_text_color": "#ffffff",
    "secondary_bg_color": "#181818",
}


def chromium_path() -> str | None:
    """Where the browser is, or None."""
    path = os.environ.get("NARDY_CHROMIUM") or "/usr/bin/chromium"
    return path if Path(path).exists() else shutil.which("chromium")


def need_browser() -> str:
    """The browser's path; skips the test (one clear line) where there is no browser."""
    path = chromium_path()
    if path is None:
        pytest.skip("no Chromium here (apt-get install chromium): the board's browser tests skip")
    try:
        import playwright  # noqa: F401
    except ImportError:
        pytest.skip("no playwright package (pip install -e '.[dev]'): browser tests skip")
    return path


def sign_init_data(
    token: str,
    user: FakeUser,
    *,
    auth_date: float | None = None,
    start_param: str | None = None,
) -> str:
    """Init data for ``user`` signed with the bot's ``token`` as Telegram signs it
    (core.telegram.org/bots/webapps#validating-data-received-via-the-web-app)."""
    fields = {
        "auth_date": str(int(auth_date if auth_date is not None else time.time())),
        "query_id": f"AAE{user.id}",
        "user": json.dumps(
            {
                "id": user.id,
                "first_name": user.first_name,
                "username": user.username,
                "language_code": user.language_code,
            },
            separators=(",", ":"),
            ensure_ascii=False,
        ),
    }
    if start_param is not None:
        fields["start_param"] = start_param
    check = "\n".join(f"{k}={v}" for k, v in sorted(fields.items()))
    secret = hmac.new(b"WebAppData", token.encode(), hashlib.sha256).digest()
    fields["hash"] = hmac.new(secret, check.encode(), hashlib.sha256).hexdigest()
    return urlencode(fields)


def board_url(base: str, init_data: str, *, game: int | None, theme: dict[str, str]) -> str:
    """The address Telegram opens: the Mini App's, with the launch parameters in its hash."""
    query = f"?game={game}" if game is not None else ""
    hash_part = urlencode(
        {
            "tgWebAppData": init_data,
            "tgWebAppVersion": "8.0",
            "tgWebAppPlatform": "web",
            "tgWebAppThemeParams": json.dumps(theme, separators=(",", ":")),
        },
        quote_via=quote,
    )
    return f"{base}{query}#{hash_part}"


class BoardPage:
    """One open board (a Playwright page) and what a person does on it."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self._centres: dict[int, tuple[float, float]] = {}

    async def state(self) -> dict[str, Any] | None:
        found: dict[str, Any] | None = await self.page.evaluate(
            "window.nardy && window.nardy.state()"
        )
        return found

    async def version(self) -> int:
        return int(await self.page.get_attribute("body", "data-version") or -1)

    async def wait_version(self, above: int, timeout: float = 10) -> int:
        """Waits until the page shows a version above ``above``; returns it."""
        await self.page.wait_for_function(
            f"Number(document.body.dataset.version || -1) > {above}", timeout=timeout * 1000
        )
        return await self.version()

    async def wait_mine(self, timeout: float = 10) -> None:
        """Waits until the page offers this reader a turn to play."""
        await self.page.wait_for_function(
            "document.body.dataset.mine === 'yes'", timeout=timeout * 1000
        )

    async def options(self) -> list[list[int]]:
        found: list[list[int]] = await self.page.evaluate(
            "window.nardy.options().map(o => o.slice(0, 4))"
        )
        return found

    async def tap_point(self, point: int) -> None:
        """Taps the board's ``point`` (the viewer's; 25 the bar, 0 the tray) as a finger would:
        a press and a release at its centre (the board does not move, so its centres are read
        once)."""
        if not self._centres:
            found = await self.page.evaluate(
                """() => Object.fromEntries([...document.querySelectorAll('[data-point]')].map(
                    (e) => { const r = e.getBoundingClientRect();
                      return [e.dataset.point, [r.x + r.width / 2, r.y + r.height / 2]]; }))"""
            )
            self._centres = {int(k): (v[0], v[1]) for k, v in found.items()}
        x, y = self._centres[point]
        await self.page.mouse.click(x, y)

    async def play_steps(self, steps: Sequence[Sequence[int]]) -> None:
        """Taps each step's checker, then its lit destination."""
        for src, dst, *_ in steps:
            await self.tap_point(src)
            await self.tap_point(dst)

    async def play_turn(self, choose: Any = None) -> list[list[int]]:
        """Builds a turn on the board, one tap pair per step (``choose(options)`` picks each
        step; the first offered by default), then taps Confirm. Returns the steps."""
        played = []
        while True:
            options = await self.options()
            confirm = self.page.locator('[data-action="confirm"]')
            if not options and await confirm.is_enabled():
                break
            if not options:  # a node the server listed cut short: asked for, wait for it
                await self.page.wait_for_function("window.nardy.options().length > 0")
                continue
            step = choose(options) if choose else options[0]
            await self.play_steps([step])
            played.append(step)
        await self.page.locator('[data-action="confirm"]').click()
        return played

    async def act(self, action: str) -> None:
        await self.page.locator(f'[data-action="{action}"]').click()


class BoardClient:
    """One open board without a browser: a WebSocket speaking the page's protocol (for the
    socket tests and ``bench/webapp.py``). It keeps the newest state it was pushed, and hands
    every other message (answers, pushed clocks) to :meth:`answer` in order."""

    def __init__(self, socket: Any) -> None:
        self.socket = socket
        self.hello: dict[str, Any] = {}
        self.state: dict[str, Any] = {}
        self.states: list[dict[str, Any]] = []
        self.bytes = 0
        """Bytes of the states received."""
        self.changed = asyncio.Event()
        self.expanded = 0
        """Nodes of step trees asked for (listed cut short by the server)."""
        self._answers: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self._reader = asyncio.create_task(self._read())

    @classmethod
    async def open(
        cls, session: aiohttp.ClientSession, url: str, init: str, game: int, *, wait: bool = True
    ) -> BoardClient:
        """Connects to the board's socket at ``url`` and says hello for ``game``; waits for
        the first state (or a refusal) unless not ``wait``."""
        socket = await session.ws_connect(url)
        await socket.send_str(json.dumps({"type": "hello", "init": init, "game": game}))
        client = cls(socket)
        if wait:
            await client.wait(lambda state: True)
        return client

    async def _read(self) -> None:
        async for message in self.socket:
            if message.type != aiohttp.WSMsgType.TEXT:
                continue
            data = json.loads(message.data)
            if data["type"] == "state":
                self.bytes += len(message.data.encode())
                self.state = data
                self.states.append(data)
            elif data["type"] == "hello":
                self.hello = data
            else:
                self._answers.put_nowait(data)
            self.changed.set()
        self.changed.set()

    @property
    def closed(self) -> bool:
        return bool(self.socket.closed)

    async def wait(
        self, predicate: Callable[[dict[str, Any]], bool], timeout: float = 10
    ) -> dict[str, Any]:
        """Waits until the newest state satisfies ``predicate`` (a refusal, or the socket
        closing, ends the wait too); returns the state."""

        async def satisfied() -> None:
            while not (self.state and predicate(self.state)):
                if self.closed or not self._answers.empty() and not self.state:
                    return
                self.changed.clear()
                await self.changed.wait()

        await asyncio.wait_for(satisfied(), timeout)
        return self.state

    async def wait_version(self, above: int, timeout: float = 10) -> dict[str, Any]:
        return await self.wait(lambda state: state["version"] > above, timeout)

    async def answer(self, timeout: float = 10) -> dict[str, Any]:
        """The next message that is not a state (an answer, a refusal, a pushed clock)."""
        return await asyncio.wait_for(self._answers.get(), timeout)

    async def request(self, message: dict[str, Any], timeout: float = 10) -> dict[str, Any]:
        """Sends ``message`` and returns its answer (pushed clocks skipped)."""
        await self.socket.send_str(json.dumps(message))
        while True:
            found = await self.answer(timeout)
            if found["type"] != "clock":
                return found

    async def act(self, action: str) -> dict[str, Any]:
        return await self.request(
            {"type": "act", "version": self.state["version"], "action": action}
        )

    async def path(self, choose: Callable[[list[Any]], Any] | None = None) -> list[list[int]]:
        """A complete turn through the step tree of the newest state (its first complete node
        on the way), asking the server for the nodes it listed cut short: ``choose(options)``
        picks each step (the first by default). Returns the steps (``[src, dst, die]``)."""
        state = self.state
        version, node = state["version"], state["tree"]
        assert node is not None, f"no turn to play in {state}"
        steps: list[list[int]] = []
        while not node[0]:
            if node[1] is None:
                answer = await self.request({"type": "expand", "version": version, "steps": steps})
                assert answer["type"] == "tree", answer
                node[1] = answer["node"][1]
                self.expanded += 1
            assert node[1], f"an incomplete node without options after {steps}"
            option = (choose or (lambda options: options[0]))(node[1])
            steps.append(option[:3])
            node = option[4]
        return steps

    async def play(self, choose: Callable[[list[Any]], Any] | None = None) -> list[list[int]]:
        """Plays a turn (see :meth:`path`) and waits for its answer (done); returns its steps."""
        steps = await self.path(choose)
        answer = await self.request(
            {"type": "turn", "version": self.state["version"], "steps": steps}
        )
        assert answer["type"] == "done", (answer, steps)
        return steps

    async def close(self) -> None:
        await self.socket.close()
        await self._reader


class StalledSocket:
    """A board's WebSocket that never reads what it is sent: a raw TCP connection with a small
    receive buffer, the handshake done by hand, then only writes (masked frames, as a client
    must). What a page that stopped reading, or a stranger, does to the server."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._reader = reader
        self._writer = writer

    @classmethod
    async def open(cls, url: str) -> StalledSocket:
        """Connects to ``http://host:port/path`` and upgrades to a WebSocket; reads nothing
        after the server's answer to the upgrade."""
        import base64
        import socket
        from urllib.parse import urlsplit

        parts = urlsplit(url)
        raw = socket.socket()
        raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        raw.setblocking(False)
        await asyncio.get_running_loop().sock_connect(raw, (parts.hostname, parts.port))
        reader, writer = await asyncio.open_connection(sock=raw)
        key = base64.b64encode(os.urandom(16)).decode()
        writer.write(
            (
                f"GET {parts.path} HTTP/1.1\r\nHost: {parts.netloc}\r\nUpgrade: websocket\r\n"
                f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                "Sec-WebSocket-Version: 13\r\n\r\n"
            ).encode()
        )
        head = await reader.readuntil(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 101"), head
        return cls(reader, writer)

    def send(self, payload: bytes, *, binary: bool = False) -> None:
        """Queues one frame (text, or binary), masked."""
        opcode = 0x2 if binary else 0x1
        mask = os.urandom(4)
        length = len(payload)
        if length < 126:
            header = bytes([0x80 | opcode, 0x80 | length])
        else:
            header = bytes([0x80 | opcode, 0x80 | 126]) + length.to_bytes(2, "big")
        body = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self._writer.write(header + mask + body)

    def send_json(self, message: dict[str, Any]) -> None:
        self.send(json.dumps(message).encode())

    async def flush(self) -> bool:
        """Waits until what was queued is written; False when the server has cut it off."""
        try:
            await asyncio.wait_for(self._writer.drain(), 5)
        except (ConnectionError, TimeoutError):
            return False
        return not self._writer.is_closing()

    async def cut_off(self, timeout: float) -> bool:
        """Whether the server closes the connection within ``timeout`` (reads, now, all that
        was sent to find out)."""

        async def eof() -> None:
            while await self._reader.read(65536):
                pass

        try:
            await asyncio.wait_for(eof(), timeout)
        except TimeoutError:
            return False
        except ConnectionError:
            return True
        return True

    def close(self) -> None:
        self._writer.transport.abort()
