"""Every message between the board page and the server, both ways, as one closed set of types.

What the page sends is parsed by :func:`parse` into one of :data:`ClientMessage`, and anything
else becomes :class:`Unexpected` (answered as a stale button is, or the socket closed): the
server never reads a page's JSON anywhere else. What the server sends is one of
:data:`ServerMessage`, each of which writes itself (:meth:`encode`).

The page names game actions by words (``"roll"``, ``"strike:5"``…, :data:`ACTION_WORDS`);
they are the :class:`~bot.services.actions.GameAction` the chat's buttons carry too.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Final, TypeAlias, TypeGuard

from aiohttp import WSMessage, WSMsgType

from bot.services.actions import GameAction, Step

MESSAGE_BYTES: Final = 16 * 1024
"""The largest message a page sends (a turn of 24 steps is about 300 bytes)."""
TURN_STEPS: Final = 64
"""The most steps a turn (or a path in the step tree) may have: a crazy gul-bara cascade
plays 24 at most."""

ACTION_WORDS: Final = {
    GameAction.TAKE: "take",
    GameAction.DROP: "drop",
    GameAction.STRIKE: "strike",
    GameAction.ROLL: "roll",
    GameAction.DOUBLE: "double",
    GameAction.HINT: "hint",
    GameAction.RESIGN: "resign",
    GameAction.NEXT_GAME: "next",
    GameAction.REMATCH: "rematch",
}
"""The actions the page has a button for, by the word it sends, in the order it draws them
(the turn itself is played from the step tree: :class:`PlayTurn`)."""
_BY_WORD: Final = {word: action for action, word in ACTION_WORDS.items()}


# --- what the page sends ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Hello:
    """The first message: Telegram's signed init data and the game to show."""

    init: str
    game: int


@dataclass(frozen=True, slots=True)
class PlayTurn:
    """The whole turn, built on ``version``: its steps from the turn's start."""

    version: int
    steps: tuple[Step, ...]


@dataclass(frozen=True, slots=True)
class Expand:
    """The step tree below the node ``steps`` lead to (sent cut short)."""

    version: int
    steps: tuple[Step, ...]


@dataclass(frozen=True, slots=True)
class Act:
    """A game action with a button on the page (:data:`ACTION_WORDS`), on ``version``."""

    version: int
    action: GameAction
    arg: int = 0


@dataclass(frozen=True, slots=True)
class Unexpected:
    """Anything else: a binary frame, malformed JSON, an unknown type or a bad field."""

    why: str
    binary: bool = False


ClientMessage: TypeAlias = Hello | PlayTurn | Expand | Act | Unexpected


def parse(message: WSMessage) -> ClientMessage:
    """The page's ``message``, read strictly (booleans are not numbers, no extra steps)."""
    if message.type is WSMsgType.BINARY:
        return Unexpected("a binary frame", binary=True)
    if message.type is not WSMsgType.TEXT:
        return Unexpected(f"a {message.type.name} frame")
    try:
        found = json.loads(message.data)
    except ValueError:
        return Unexpected("not JSON")
    if not isinstance(found, dict):
        return Unexpected("not an object")
    kind = found.get("type")
    if kind == "hello":
        init, game = found.get("init"), found.get("game")
        if isinstance(init, str) and _is_int(game):
            return Hello(init, game)
        return Unexpected("a hello without its init data or game")
    version = found.get("version")
    if not _is_int(version):
        return Unexpected("no version")
    if kind in ("turn", "expand"):
        steps = _steps(found.get("steps"))
        if steps is None:
            return Unexpected("bad steps")
        return PlayTurn(version, steps) if kind == "turn" else Expand(version, steps)
    if kind == "act":
        return _act(version, found.get("action"))
    return Unexpected(f"unknown type {str(kind)[:20]!r}")


def _act(version: int, word: object) -> Act | Unexpected:
    if not isinstance(word, str):
        return Unexpected("no action")
    name, _, arg = word.partition(":")
    action = _BY_WORD.get(name)
    if action is None:
        return Unexpected(f"unknown action {name[:20]!r}")
    if action is GameAction.STRIKE:
        if len(arg) == 1 and arg in "123456":
            return Act(version, action, int(arg))
        return Unexpected("a strike without its die")
    if arg or ":" in word:
        return Unexpected("an argument where none is taken")
    return Act(version, action)


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _steps(value: object) -> tuple[Step, ...] | None:
    if not isinstance(value, list) or len(value) > TURN_STEPS:
        return None
    steps = []
    for step in value:
        if not isinstance(step, list) or len(step) != 3 or not all(map(_is_int, step)):
            return None
        steps.append((step[0], step[1], step[2]))
    return tuple(steps)


def action_words(actions: frozenset[GameAction], strikes: tuple[int, ...]) -> list[str]:
    """What a state's ``actions`` lists: the page's words for ``actions`` it has a button for,
    in its order, a strike once per die value (``"strike:5"``)."""
    words: list[str] = []
    for action, word in ACTION_WORDS.items():
        if action not in actions:
            continue
        if action is GameAction.STRIKE:
            words += [f"strike:{value}" for value in strikes]
        else:
            words.append(word)
    return words


# --- what the server sends --------------------------------------------------------------------


def encode(message: dict[str, Any]) -> str:
    """A message for the page, as compact JSON (every push is counted in bytes)."""
    return json.dumps(message, ensure_ascii=False, separators=(",", ":"))


@dataclass(frozen=True, slots=True)
class Welcome:
    """The answer to a hello: the page's texts in its reader's language and the server's
    clock."""

    texts: dict[str, str]
    now: float
    lang: str

    def encode(self) -> str:
        return encode({"type": "hello", "texts": self.texts, "now": self.now, "lang": self.lang})


@dataclass(frozen=True, slots=True)
class State:
    """A game's state as one reader sees it (:func:`bot.webapp.state.board_state`)."""

    body: dict[str, Any]

    def encode(self) -> str:
        return encode(self.body)


@dataclass(frozen=True, slots=True)
class Refused:
    """A request refused (``reason`` None: the page goes on), or the connection refused
    (``reason`` given: the page stops reconnecting and shows ``text``)."""

    text: str
    reason: str | None = None
    lang: str | None = None

    def encode(self) -> str:
        message: dict[str, Any] = {"type": "refused", "text": self.text}
        if self.reason is not None:
            message["reason"] = self.reason
            message["lang"] = self.lang or "en"
        return encode(message)


@dataclass(frozen=True, slots=True)
class Done:
    """A turn or an action done: the game's version after it."""

    version: int

    def encode(self) -> str:
        return encode({"type": "done", "version": self.version})


@dataclass(frozen=True, slots=True)
class Note:
    """A text to show for a moment: a hint (``kind`` ``"hint"``) or a note."""

    text: str
    kind: str = "note"

    def encode(self) -> str:
        return encode({"type": self.kind, "text": self.text})


@dataclass(frozen=True, slots=True)
class Tree:
    """The step tree below the node ``steps`` lead to, on ``version``."""

    version: int
    steps: tuple[Step, ...]
    node: list[Any] = field(default_factory=list)

    def encode(self) -> str:
        steps = [list(step) for step in self.steps]
        return encode({"type": "tree", "version": self.version, "steps": steps, "node": self.node})


@dataclass(frozen=True, slots=True)
class Clock:
    """The move shown at ``version`` of game ``game`` has ``deadline`` now (its clock started
    when its chat board was shown, later than saved)."""

    game: int
    version: int
    deadline: float

    def encode(self) -> str:
        return encode(
            {"type": "clock", "game": self.game, "version": self.version, "deadline": self.deadline}
        )


ServerMessage: TypeAlias = Welcome | State | Refused | Done | Note | Tree | Clock
