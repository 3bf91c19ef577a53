"""The board tests' browser: Chromium (Debian's package, driven by Playwright), one for each
test module that asks for it; a module without a browser here skips, saying so."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest_asyncio

from tests.support.webapp import CHROMIUM_ARGS, need_browser


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def browser() -> AsyncIterator[Any]:
    """Chromium, headless, for every test of the module."""
    path = need_browser()
    from playwright.async_api import async_playwright

    async with async_playwright() as playwright:
        launched = await playwright.chromium.launch(executable_path=path, args=list(CHROMIUM_ARGS))
        yield launched
        await launched.close()
