"""The shipped reverse proxies serve the Mini App board: ``deploy/Caddyfile`` (compose.yaml's)
and ``deploy/nginx.conf``, each run as shipped (Caddy's from the environment the Caddyfile
reads, nginx's with a test certificate and this machine's ports put in) in front of a real
bot, and a board opened through them: the page, its files, its WebSocket; the bot's health
and metrics stay hidden. The test skips, saying which, where a proxy is missing (``.ci/run``
installs both)."""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import ssl
import subprocess
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import aiohttp
import pytest

from tests.bot.gameplay import start_private_game
from tests.support.fake_telegram import FakeTelegram
from tests.support.harness import free_port
from tests.support.webapp import BoardClient, sign_init_data
from tests.webapp.helpers import board_bot, game_of

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"


async def _listening(port: int, process: asyncio.subprocess.Process, log: Path) -> None:
    for _ in range(200):
        if process.returncode is not None:
            raise AssertionError(f"the proxy stopped: {log.read_text()[-2000:]}")
        try:
            _reader, writer = await asyncio.open_connection("127.0.0.1", port)
        except OSError:
            await asyncio.sleep(0.05)
            continue
        writer.close()
        return
    raise AssertionError(f"the proxy did not listen: {log.read_text()[-2000:]}")


@asynccontextmanager
async def _running(
    command: list[str], port: int, log: Path, env: dict[str, str]
) -> AsyncIterator[None]:
    with log.open("wb") as out:
        process = await asyncio.create_subprocess_exec(
            *command, env={**os.environ, **env}, stdout=out, stderr=subprocess.STDOUT
        )
    try:
        await _listening(port, process, log)
        yield
    finally:
        if process.returncode is None:
            process.terminate()
            await process.wait()


@asynccontextmanager
async def _caddy(tmp: Path, worker: int) -> AsyncIterator[str]:
    caddy = shutil.which("caddy")
    if caddy is None:
        pytest.skip("no caddy here (apt-get install caddy): the Caddyfile's test skips")
    port = free_port()
    env = {
        "BOT_DOMAIN": f":{port}",  # plain HTTP on a port: no certificate to get
        "BOT_WORKERS_HOST": "127.0.0.1",
        "BOT_WORKERS_PORT": str(worker),
        "CADDY_ADMIN": "off",
        "XDG_DATA_HOME": str(tmp),
        "XDG_CONFIG_HOME": str(tmp),
        "HOME": str(tmp),
    }
    command = [caddy, "run", "--config", str(DEPLOY / "Caddyfile"), "--adapter", "caddyfile"]
    async with _running(command, port, tmp / "caddy.log", env):
        yield f"http://127.0.0.1:{port}"


@asynccontextmanager
async def _nginx(tmp: Path, worker: int) -> AsyncIterator[str]:
    nginx = shutil.which("nginx") or next(
        (p for p in ("/usr/sbin/nginx",) if Path(p).exists()), None
    )
    if nginx is None:
        pytest.skip("no nginx here (apt-get install nginx-light): nginx.conf's test skips")
    key, cert = tmp / "key.pem", tmp / "cert.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key),
         "-out", str(cert), "-days", "1", "-subj", "/CN=bot.example.com"],
        check=True,
        capture_output=True,
    )  # fmt: skip
    plain, secure = free_port(), free_port()
    shipped = (DEPLOY / "nginx.conf").read_text()
    conf = (
        re.sub(r"server 127\.0\.0\.1:808\d[^;]*;\n\s*", "", shipped, count=2)
        .replace("127.0.0.1:8083", f"127.0.0.1:{worker}")
        .replace("listen 80;", f"listen 127.0.0.1:{plain};")
        .replace("listen 443 ssl;", f"listen 127.0.0.1:{secure} ssl;")
        .replace("/etc/letsencrypt/live/bot.example.com/fullchain.pem", str(cert))
        .replace("/etc/letsencrypt/live/bot.example.com/privkey.pem", str(key))
    )
    assert conf.count(f"server 127.0.0.1:{worker} ") == 1
    (tmp / "logs").mkdir()
    (tmp / "nardy.conf").write_text(conf)
    (tmp / "nginx.conf").write_text(
        f"pid {tmp}/nginx.pid;\nerror_log {tmp}/logs/error.log;\nevents {{}}\n"
        f"http {{\n  access_log off;\n  client_body_temp_path {tmp};\n"
        f"  proxy_temp_path {tmp};\n  include {tmp}/nardy.conf;\n}}\n"
    )
    command = [nginx, "-g", "daemon off;", "-c", str(tmp / "nginx.conf"), "-p", str(tmp)]
    async with _running(command, secure, tmp / "nginx.log", {}):
        yield f"https://127.0.0.1:{secure}"


async def _through(
    proxy: str, harness: object, fake: FakeTelegram, user: object, game: int
) -> None:
    """The board's page, a file of it and its socket through ``proxy``; the bot's own
    health and metrics not."""
    insecure = ssl.create_default_context()
    insecure.check_hostname, insecure.verify_mode = False, ssl.CERT_NONE
    connector = aiohttp.TCPConnector(ssl=insecure)
    async with aiohttp.ClientSession(connector=connector) as session:
        async with session.get(f"{proxy}/app", allow_redirects=False) as moved:
            assert moved.status in (301, 302) and moved.headers["Location"].endswith("/app/")
        async with session.get(f"{proxy}/app/") as page:
            assert page.status == 200
            html = await page.text()
        [script] = re.findall(r'src="([^"]+\.js)"', html)
        async with session.get(f"{proxy}/app/{script}") as js:
            assert js.status == 200 and "javascript" in js.headers["Content-Type"]
        for hidden in ("/healthz", "/metrics"):
            async with session.get(proxy + hidden) as answer:
                assert answer.status == 404, hidden
        socket_url = proxy.replace("http", "ws", 1) + "/app/ws"
        board = await BoardClient.open(session, socket_url, sign_init_data(fake.token, user), game)
        assert board.state["game"] == game and board.state["you"] in ("w", "b")
        await board.close()


@pytest.mark.slow
async def test_the_shipped_proxies_serve_the_board(tmp_path: Path) -> None:
    async with FakeTelegram() as fake, board_bot(fake, tmp_path / "nardy.sqlite3") as harness:
        alice, _bob, boards = await start_private_game(harness)
        game = game_of(boards[alice])
        worker = int(harness.web_url.rsplit(":", 1)[1])
        for name, proxy in (("caddy", _caddy), ("nginx", _nginx)):
            where = tmp_path / name
            where.mkdir()
            async with proxy(where, worker) as address:
                await _through(address, harness, fake, alice, game)
