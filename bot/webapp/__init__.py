"""The Mini App board: a second client of the same games, served by the bot's own HTTP server.

The page (``static/``: plain ES modules, no build step) draws the board and lets the player to
move drag or tap checkers; it holds no rules. What it may offer is the turn's *step tree*, sent
by the server from the engine's step-by-step input (:class:`~bot.engine.TurnInput`), and Confirm
sends the whole turn once, which the server plays through the same service path as the buttons
(:meth:`~bot.services.GameService.play_turn`), version checked: buttons and board never
disagree. State is pushed over a WebSocket on every change of a game, whoever made it (a tap on
a button, the board, a timer, the computer): :class:`~.hub.BoardHub`. Every connection is
checked with Telegram's signed init data (:mod:`.auth`).

* :mod:`.auth`: init data checked, with an age limit;
* :mod:`.state`: a game as the page reads it (JSON), the step tree;
* :mod:`.hub`: the open boards by game, pushed to;
* :mod:`.server`: the routes (the page, its files, the WebSocket);
* :mod:`.texts`: the page's words, from the bot's catalogs.
"""

from __future__ import annotations

from typing import Final

BASE_PATH: Final = "/app/"
"""Where the bot's server serves the board: ``WEBAPP_URL`` points here."""
