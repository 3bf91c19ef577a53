"""The Mini App board: a second client of the same games, served by the bot's own HTTP server.

The page (``static/``: plain ES modules, no build step) draws the board and lets the player to
move drag or tap checkers; it holds no rules. What it may offer is the turn's *step tree*, sent
by the server from the engine's step-by-step input (:class:`~bot.engine.TurnInput`), and
Confirm sends the whole turn once. Every action goes through
:meth:`~bot.services.actions.GameActions.perform`, as the chat's buttons do, and the page draws
what :func:`~bot.services.actions.allowed` gives: buttons and board never disagree. State is
pushed over a WebSocket on every change of a game, whoever made it and on whichever worker
(the change feed: :class:`~.hub.BoardHub`). Every connection is checked with Telegram's signed
init data (:mod:`.auth`) and the chat's rules of who may see the game (:mod:`.server`).

* :mod:`.protocol`: every message both ways, one closed set of types;
* :mod:`.auth`: init data checked, with an age limit;
* :mod:`.state`: a game as the page reads it (JSON), the step tree;
* :mod:`.hub`: the open boards by game, pushed to, each with its own sender;
* :mod:`.server`: the routes (the page, its files, the WebSocket), who may open a board;
* :mod:`.texts`: the page's words, from the bot's catalogs.
"""

from __future__ import annotations

from typing import Final

BASE_PATH: Final = "/app/"
"""Where the bot's server serves the board: ``WEBAPP_URL`` points here."""
