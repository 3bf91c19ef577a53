"""A tournament's messages in Telegram: the sign-up message in the group (edited as players
join and leave), the one pinned tournament message (the bracket or table as a picture, the
round, who plays whom with watch links, then the winner; a :class:`KeptMessage` edited in
place; a table longer than one picture shows the leaders' page, a bracket of more than 16
places the part being played, with 📋 buttons that send the other pages in private; a line
in the group when the bot may not pin it), and each player's line in private before their
game's board.

:meth:`TournamentPublisher.tick` is the timers' part: it starts the tournaments that are due
and moves on those whose round is over (:meth:`~bot.services.tournaments.Tournaments.due`),
then brings every pinned message that is behind up to date. Which messages are behind is in
the database (a tournament's version against the version its message shows, recorded only once
the edit went through, by the one worker holding the message meanwhile), so a message left
behind by a restart, or a crash in the middle of its edit, catches up at the next tick.
Pictures are drawn on a thread of their own, never on the event loop.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Callable, Mapping
from functools import partial
from typing import Final

from aiogram import Bot
from aiogram.exceptions import TelegramAPIError, TelegramBadRequest, TelegramForbiddenError
from aiogram.types import BufferedInputFile, InlineKeyboardMarkup, InputMediaPhoto
from aiogram.utils.deep_linking import create_start_link
from aiogram.utils.i18n import I18n

from bot.i18n import locale_of
from bot.messages.kept import KeptMessage
from bot.model import Tournament, User
from bot.outbox import Outbox
from bot.services import GameSnapshot
from bot.services.chats import Chats
from bot.services.errors import NoPrivateChatForTable, StaleAction
from bot.services.tournament_values import Progress, TournamentOverview
from bot.services.tournaments import Tournaments
from bot.services.users import Users
from bot.views.boards import watch_payload
from bot.views.common import Translate, translator
from bot.views.tournament_formats import picture
from bot.views.tournaments import (
    forfeit_lines,
    page_caption,
    page_total,
    pin_refused_text,
    pinned_caption,
    pinned_keyboard,
    pinned_page,
    player_line,
    signup_keyboard,
    signup_text,
    waiting_lines,
)
from render.tournament import TOURNAMENT_FILE_NAME, render_bracket, render_table
from render.tournament_inputs import (
    Bracket,
)

logger = logging.getLogger(__name__)

RETRY_SECONDS: Final = 30.0
"""How long a pinned message that could not be shown (Telegram refused it, or gave up) waits
before it is tried again: not every tick of the timers."""


class TournamentPublisher:
    """Shows tournaments in their groups and tells players of their games (see the module
    docstring). Every message here waits for the ``outbox``'s pace; pictures are drawn on its
    pictures' thread."""

    def __init__(
        self,
        bot: Bot,
        tournaments: Tournaments,
        users: Users,
        chats: Chats,
        outbox: Outbox,
        i18n: I18n,
        *,
        league_refresh: Callable[[int], None] | None = None,
    ) -> None:
        self._bot = bot
        self._league_refresh = league_refresh
        self._tournaments = tournaments
        self._users = users
        self._chats = chats
        self._outbox = outbox
        self._i18n = i18n
        self._retry_at: dict[int, float] = {}
        """Pinned messages that could not be shown, by tournament: when to try again."""

    async def tick(self) -> None:
        """The timers' look: due starts and rounds, then the pinned messages behind, each
        marked shown once its edit went through (a message that could not be shown is tried
        again after :data:`RETRY_SECONDS`)."""
        for progress in await self._tournaments.due():
            await self.progressed(progress)
        now = time.monotonic()
        for tournament_id in await self._tournaments.behind():
            if self._retry_at.get(tournament_id, 0.0) > now:
                continue
            async with self._tournaments.showing(tournament_id) as tournament:
                if tournament is None:
                    continue  # up to date, or another worker shows it now
                shown = await self._show_pinned(tournament)
                if shown is None:
                    self._retry_at[tournament_id] = now + RETRY_SECONDS
                    continue
                self._retry_at.pop(tournament_id, None)
                await self._tournaments.mark_shown(shown)
            await self._after_shown(shown)

    async def progressed(self, progress: Progress) -> None:
        """After a step of a tournament: each new game's players get their line and their
        boards, the sign-up message shows where it stands (when it changed state), and the
        pinned message is brought up to date by the next tick."""
        for snapshot in progress.started:
            await self._tell_players(progress.tournament, snapshot)
        t = progress.tournament
        for waiting in progress.waiting:
            players = waiting.board.players
            await self._tell(t, await self._lines(players, partial(waiting_lines, t, waiting)))
        for forfeit in progress.forfeited:
            players = forfeit.board.players
            await self._tell(t, await self._lines(players, partial(forfeit_lines, t, forfeit)))
        await self.show_signup(progress.tournament.id)

    async def show_signup(self, tournament_id: int) -> None:
        """Edits the sign-up message (or posts it, when it has none) to show the list."""
        overview = await self._tournaments.overview(tournament_id)
        _ = await self._translator(overview.tournament)
        shown = _Signup(
            self,
            overview.tournament,
            signup_text(overview, _),
            signup_keyboard(overview.tournament, _),
        )
        await shown.show(self._outbox.pace)

    async def _translator(self, tournament: Tournament) -> Translate:
        locale = await self._chats.locale(tournament.chat_id) or tournament.locale
        return translator(self._i18n, locale)

    async def _tell(self, tournament: Tournament, told: dict[int, str]) -> None:
        """Sends each player of ``told`` their line in private."""
        for player, text in told.items():
            await self._outbox.pace.wait(player)
            try:
                await self._bot.send_message(player, text)
            except TelegramForbiddenError:
                await self._users.mark_blocked(player)
            except TelegramAPIError as error:
                logger.warning(
                    "could not tell user %d of tournament %d: %s", player, tournament.id, error
                )

    async def _lines(
        self,
        players: tuple[int, ...],
        lines: Callable[[Mapping[int, User], Translate], dict[int, str]],
    ) -> dict[int, str]:
        """Each of ``players``' line of ``lines``, in their own language."""
        users = {p: await self._users.get(p) or User(p, None, str(p), None) for p in players}
        return {p: lines(users, translator(self._i18n, locale_of(users[p])))[p] for p in players}

    async def _tell_players(self, tournament: Tournament, snapshot: GameSnapshot) -> None:
        stored = snapshot.stored
        for player, opponent in (
            (snapshot.white, snapshot.black),
            (snapshot.black, snapshot.white),
        ):
            _ = translator(self._i18n, locale_of(player))
            await self._outbox.pace.wait(player.id)
            try:
                await self._bot.send_message(
                    player.id, player_line(tournament, tournament.round, opponent, _)
                )
            except TelegramForbiddenError:
                await self._users.mark_blocked(player.id)
            except TelegramAPIError as error:
                logger.warning("could not tell user %d of game %d: %s", player.id, stored.id, error)

    async def _show_pinned(self, tournament: Tournament) -> Tournament | None:
        """Brings the pinned message up to date; returns the tournament as it shows it now
        (read after ``tournament``, perhaps newer), or None when it could not be shown."""
        try:
            overview = await self._tournaments.overview(tournament.id)
            _ = await self._translator(tournament)
            links = {}
            for board in overview.round_fixtures(overview.tournament.round):
                game_id = await self._tournaments.game_of(board.pairing)
                if game_id is not None and not board.pairing.decided:
                    links[game_id] = await create_start_link(self._bot, watch_payload(game_id))
            caption = pinned_caption(overview, links, _)
            drawn = await self._draw(overview, _, pinned_page(overview))
            markup = pinned_keyboard(overview, _)
            pinned = _Pinned(
                self, overview.tournament, caption, drawn, markup, pin_refused=pin_refused_text(_)
            )
            if await pinned.show(self._outbox.pace):
                return overview.tournament
            logger.warning("tournament %d: its pinned message was not shown", tournament.id)
        except Exception:
            logger.exception("could not show tournament %d", tournament.id)
        return None

    async def _after_shown(self, tournament: Tournament) -> None:
        """What follows a pinned message brought up to date: the sign-up message says who won
        once it is over, and the group's league, where its games count, is refreshed."""
        try:
            if tournament.is_over:
                await self.show_signup(tournament.id)
            if self._league_refresh is not None:
                self._league_refresh(tournament.chat_id)
        except Exception:
            logger.exception("could not show tournament %d's sign-up", tournament.id)

    async def _draw(self, overview: TournamentOverview, _: Translate, page: int = 0) -> bytes:
        """``page`` of the bracket or the table: the first by default (a table's leaders': its
        rows are in the order of the standings)."""
        drawn = picture(overview, _)

        def render() -> bytes:
            if isinstance(drawn, Bracket):
                return render_bracket(drawn, page=page)
            return render_table(drawn, page=page)

        return await self._outbox.drawing.picture(render)

    async def send_page(self, tournament_id: int, page: int, user_id: int, _: Translate) -> None:
        """Sends ``page`` (0-based) of the tournament's table or bracket to ``user_id`` in
        private, as 📋 under the pinned message asks; in ``_``'s language.

        :raises: :exc:`StaleAction` for a page the table does not have (now);
            :exc:`NoPrivateChatForTable` when the bot cannot write to them in private.
        """
        overview = await self._tournaments.overview(tournament_id)
        if not 0 <= page < page_total(overview):
            raise StaleAction()
        drawn = await self._draw(overview, _, page)
        await self._outbox.pace.wait(user_id)
        try:
            await self._bot.send_photo(
                user_id,
                BufferedInputFile(drawn, filename=TOURNAMENT_FILE_NAME),
                caption=page_caption(overview, page, _),
            )
        except TelegramForbiddenError:
            raise NoPrivateChatForTable() from None
        except TelegramBadRequest as error:
            if "chat not found" not in error.message.lower():
                raise
            raise NoPrivateChatForTable() from None

    async def _pin(self, chat_id: int, message_id: int, refused: str) -> None:
        """Pins the tournament's message; when the bot may not (it is no admin allowed to
        pin), says so in the group, once for the message, so that its admins know."""
        try:
            await self._bot.pin_chat_message(chat_id, message_id, disable_notification=True)
            return
        except TelegramAPIError as error:
            logger.info("could not pin a tournament in chat %d: %s", chat_id, error)
        await self._outbox.pace.wait(chat_id)
        try:
            await self._bot.send_message(chat_id, refused, disable_notification=True)
        except TelegramAPIError as error:
            logger.info("could not say so in chat %d: %s", chat_id, error)


class _Signup(KeptMessage):
    """The sign-up message: text and its buttons, recorded as the tournament's."""

    def __init__(
        self,
        publisher: TournamentPublisher,
        tournament: Tournament,
        text: str,
        markup: InlineKeyboardMarkup | None,
    ) -> None:
        super().__init__(tournament.chat_id, tournament.message_id, what="a tournament's sign-up")
        self._publisher = publisher
        self._tournament = tournament
        self._text = text
        self._markup = markup

    async def send(self, chat_id: int) -> int:
        message = await self._publisher._bot.send_message(
            chat_id, self._text, reply_markup=self._markup
        )
        return message.message_id

    async def edit(self, chat_id: int, message_id: int) -> None:
        await self._publisher._bot.edit_message_text(
            self._text, chat_id=chat_id, message_id=message_id, reply_markup=self._markup
        )

    async def sent(self, chat_id: int, message_id: int) -> None:
        await self._publisher._tournaments.set_messages(self._tournament.id, message_id=message_id)

    async def moved(self, old_chat_id: int, new_chat_id: int) -> None:
        await self._publisher._chats.move_chat(old_chat_id, new_chat_id)


class _Pinned(KeptMessage):
    """The tournament message: the picture with its caption, sent silently and pinned, edited
    in place with each change."""

    def __init__(
        self,
        publisher: TournamentPublisher,
        tournament: Tournament,
        caption: str,
        png: bytes,
        markup: InlineKeyboardMarkup | None = None,
        *,
        pin_refused: str,
    ) -> None:
        super().__init__(tournament.chat_id, tournament.pinned_id, what="a tournament")
        self._publisher = publisher
        self._tournament = tournament
        self._caption = caption
        self._png = png
        self._markup = markup
        self._pin_refused = pin_refused

    def _file(self) -> BufferedInputFile:
        return BufferedInputFile(self._png, filename=TOURNAMENT_FILE_NAME)

    async def send(self, chat_id: int) -> int:
        message = await self._publisher._bot.send_photo(
            chat_id,
            self._file(),
            caption=self._caption,
            disable_notification=True,
            reply_markup=self._markup,
        )
        return message.message_id

    async def edit(self, chat_id: int, message_id: int) -> None:
        await self._publisher._bot.edit_message_media(
            InputMediaPhoto(media=self._file(), caption=self._caption),
            chat_id=chat_id,
            message_id=message_id,
            reply_markup=self._markup,
        )

    async def sent(self, chat_id: int, message_id: int) -> None:
        await self._publisher._tournaments.set_messages(self._tournament.id, pinned_id=message_id)
        with contextlib.suppress(TelegramAPIError):
            await self._publisher._pin(chat_id, message_id, self._pin_refused)

    async def moved(self, old_chat_id: int, new_chat_id: int) -> None:
        await self._publisher._chats.move_chat(old_chat_id, new_chat_id)
