"""What tournaments look like in Telegram: the sign-up message, the pinned message's caption
and pages (its picture: :mod:`.tournament_formats`; the creation picker:
:mod:`.tournament_picker`), the lines a player gets about their games, and the list of a
group's tournaments. Pure: texts and keyboards from the service's values, every word through
``_``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

from aiogram import html
from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot.callbacks import TournamentAction, TournamentPage, TournamentStep
from bot.i18n import NP_
from bot.model import Terms, Tournament, TournamentState, User
from bot.services.choices import has_dice_modes
from bot.services.deadlines import REMIND_FROM_SECONDS
from bot.services.tournament_pot import prize_opponents
from bot.services.tournament_values import Forfeit, TournamentOverview, Waiting
from bot.services.tournaments import WAIT_SECONDS
from bot.views.common import (
    DICE_MODE_NAMES,
    VARIANT_NAMES,
    Translate,
    clock,
    duration,
    mention,
    player_name,
)
from bot.views.numbers import chips_text, count
from bot.views.tournament_formats import format_name, round_line, title
from render.tournament_layout import PAGE_ROUNDS, ROWS_PER_PAGE, bracket_pages, page_count


def terms_text(terms: Terms, entry: int, _: Translate) -> str:
    """The games' terms in one line: variant, dice, single games or matches, move time, entry."""
    parts = [_(VARIANT_NAMES[terms.variant])]
    if has_dice_modes(terms.variant):
        parts.append(_(DICE_MODE_NAMES[terms.dice_mode]))
    parts.append(
        _("match to {n}").format(n=terms.match_length) if terms.match_length else _("single games")
    )
    seconds = terms.move_seconds or 90
    parts.append(
        (_("📬 {time} a move") if seconds >= 86_400 else _("⏱ {time} a move")).format(
            time=duration(seconds, _)
        )
    )
    parts.append(
        _("entry {chips}").format(chips=chips_text(entry, _)) if entry else _("free entry")
    )
    return " · ".join(parts)


def signup_text(overview: TournamentOverview, _: Translate) -> str:
    """The sign-up message: the terms, when it starts, who joined; or how it went on."""
    t = overview.tournament
    lines = [
        "🏆 " + html.bold(title(t, _)) + " · " + format_name(t.format, _),
        terms_text(t.terms, t.entry, _),
    ]
    if t.is_open:
        if t.starts_at is not None:
            lines.append(_("Starts at {time}.").format(time=clock(t.starts_at, "day")))
        else:
            lines.append(_("Its creator starts it."))
        lines.append(_("Games are played in private chats with the bot."))
        if (t.terms.move_seconds or 90) < REMIND_FROM_SECONDS:
            lines.append(
                _(
                    "A player still in another game when a round begins has {minutes} min "
                    "to finish it; the round's game starts then, or is forfeited."
                ).format(minutes=WAIT_SECONDS // 60)
            )
    lines.append(html.bold(_("Players: {n}").format(n=len(overview.entrants))))
    names = [
        f"{number}. {player_name(overview.user(e.user_id), _)}"
        for number, e in enumerate(overview.entrants, start=1)
    ]
    tail = []
    if t.state is TournamentState.RUNNING:
        tail.append(_("Started: the pinned message shows the rounds."))
    elif t.state is TournamentState.CANCELLED:
        tail.append(_("Called off: every entry was given back."))
    elif t.state is TournamentState.FINISHED and t.winner_id is not None:
        tail.append(_("🥇 Winner: {name}").format(name=player_name(overview.user(t.winner_id), _)))
    more = NP_("… and {n} more player", "… and {n} more players")
    return _fit(lines, names, _, limit=MESSAGE_LIMIT, more=more, tail=tail)


def signup_keyboard(tournament: Tournament, _: Translate) -> InlineKeyboardMarkup | None:
    """Join, Leave, and for the creator Start and Call off, while sign-up is open."""
    if not tournament.is_open:
        return None

    def button(text: str, action: TournamentStep) -> InlineKeyboardButton:
        data = TournamentAction(tournament=tournament.id, action=action).pack()
        return InlineKeyboardButton(text=text, callback_data=data)

    return InlineKeyboardMarkup(
        inline_keyboard=[
            [
                button("✅ " + _("Join"), TournamentStep.JOIN),
                button("✖ " + _("Leave"), TournamentStep.LEAVE),
            ],
            [
                button("▶ " + _("Start"), TournamentStep.START),
                button("🗑 " + _("Call off"), TournamentStep.CANCEL),
            ],
        ]
    )


def table_rows(overview: TournamentOverview) -> int:
    """The rows of the tournament's table (0 for a knock-out, drawn as a bracket): one per
    entrant once it runs."""
    if overview.rules.bracket:
        return 0
    return len(overview.standings)


def _bracket_pages(overview: TournamentOverview) -> int:
    """The pictures a knock-out's bracket takes (0 for another format)."""
    t = overview.tournament
    if not overview.rules.bracket or t.rounds < 1:
        return 0
    return len(bracket_pages(1 << t.rounds))


def page_total(overview: TournamentOverview) -> int:
    """How many pictures the tournament's bracket or table takes (1 for most)."""
    return _bracket_pages(overview) or page_count(table_rows(overview))


def pinned_page(overview: TournamentOverview) -> int:
    """The page the pinned picture shows: a table's first (the leaders'); a bracket of more
    than 16 places, its first part while the first four rounds are played, then the last
    page (the rounds after them, the champion)."""
    pages = _bracket_pages(overview)
    t = overview.tournament
    if pages > 1 and (t.round > PAGE_ROUNDS or t.is_over):
        return pages - 1
    return 0


def _places(page: int, rows: int) -> tuple[int, int]:
    """The first and the last place on ``page`` (0-based) of a table of ``rows`` rows."""
    return page * ROWS_PER_PAGE + 1, min(rows, (page + 1) * ROWS_PER_PAGE)


def pinned_caption(overview: TournamentOverview, links: Mapping[int, str], _: Translate) -> str:
    """The pinned message's caption: the tournament, the round, who plays whom with a watch
    link for each game (``links`` by game id), or the winner; for a table longer than a
    picture (:data:`~render.tournament_layout.ROWS_PER_PAGE` rows), which places it shows."""
    t = overview.tournament
    lines = [
        "🏆 " + html.bold(title(t, _)) + " · " + format_name(t.format, _),
        terms_text(t.terms, t.entry, _),
    ]
    rows = table_rows(overview)
    if rows > ROWS_PER_PAGE:
        top, bottom = _places(0, rows)
        lines.append(
            _(
                "📋 The picture shows places {first}–{last} of {count}; the buttons below send "
                "you the others in private."
            ).format(first=top, last=bottom, count=rows)
        )
    pages = _bracket_pages(overview)
    if pages > 1:
        lines.append(
            _(
                "📋 The picture shows part {part} of {count} of the bracket; the buttons below "
                "send you the others in private."
            ).format(part=pinned_page(overview) + 1, count=pages)
        )
    if t.state is TournamentState.FINISHED:
        if t.winner_id is not None:
            winner = player_name(overview.user(t.winner_id), _)
            lines.append(html.bold(_("🥇 Winner: {name}").format(name=winner)))
            lines += _prize_lines(overview, _)
        return "\n".join(lines)
    lines.append(html.bold(round_line(overview, _)))
    boards = []
    for board in overview.round_fixtures(t.round):
        p = board.pairing
        first = player_name(board.first, _)
        if board.second is None:
            boards.append(_("{name}: a bye").format(name=first))
            continue
        pair = f"{first} — {player_name(board.second, _)}"
        if p.decided:
            won = mention(overview.user(p.winner_id), _) if p.winner_id else "—"
            line = _("{pair}: {winner} won").format(pair=pair, winner=html.quote(won))
            if (p.round, p.board) in overview.on_time:
                line += " (" + _("on time") + ")"
            boards.append(line)
        elif p.game_id is not None and p.game_id in links:
            boards.append(f"{pair} · 👁 {links[p.game_id]}")
        elif p.is_waiting and p.waits_until is not None:
            boards.append(
                _("{pair}: ⏳ waits for a game to end (until {time})").format(
                    pair=pair, time=_clock(p.waits_until)
                )
            )
        else:
            boards.append(pair)
    return _fit(lines, boards, _)


def _prize_lines(overview: TournamentOverview, _: Translate) -> list[str]:
    """What the winner was paid of the pot (see :mod:`bot.services.tournament_pot`)."""
    t = overview.tournament
    if not t.entry or t.prize is None:
        return []
    if t.prize >= overview.pot:
        return [
            _(
                "The pot of {chips} chip is theirs.",
                "The pot of {chips} chips is theirs.",
                overview.pot,
            ).format(chips=count(overview.pot, _))
        ]
    if t.prize == 0:
        return [
            _(
                "No prize: the winner did not play enough different opponents ({n} needed). "
                "Every entry went back."
            ).format(n=prize_opponents(t.rounds))
        ]
    return [
        _(
            "{prize} of the pot's {chips} chip are theirs. The other entries went back: "
            "their players played no game, or they are held as possible chip dumping (/flags).",
            "{prize} of the pot's {chips} chips are theirs. The other entries went back: "
            "their players played no game, or they are held as possible chip dumping (/flags).",
            overview.pot,
        ).format(prize=count(t.prize, _), chips=count(overview.pot, _))
    ]


CAPTION_LIMIT: Final = 1024
"""Telegram's limit on a photo's caption (counted here in UTF-16 units of the HTML source,
more than Telegram counts: the tags are not shown)."""
MESSAGE_LIMIT: Final = 4096
"""Telegram's limit on a message's text, counted the same way (64 players of 64-character
names and more do not fit)."""


def _length(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def _fit(
    head: list[str],
    items: list[str],
    _: Translate,
    *,
    limit: int = CAPTION_LIMIT,
    more: tuple[str, str] = NP_("… and {n} more board", "… and {n} more boards"),
    tail: Sequence[str] = (),
) -> str:
    """``head``, as many of ``items`` as ``limit`` holds with ``tail`` after them, then how
    many are left out (``more``): a round of a big Swiss has more boards, with their watch
    links, than a caption holds; 64 long names are more than a message holds."""
    text = "\n".join([*head, *items, *tail])
    shown = len(items)
    while _length(text) > limit and shown > 0:
        shown -= 1
        left = len(items) - shown
        left_out = _(*more, left).format(n=count(left, _))
        text = "\n".join([*head, *items[:shown], left_out, *tail])
    return text


def pinned_keyboard(overview: TournamentOverview, _: Translate) -> InlineKeyboardMarkup | None:
    """Under a pinned picture that is one of several: 📋 a button for each other page, a
    table's naming its places, a bracket's its part; None for one page."""
    rows = table_rows(overview)
    pages = page_total(overview)
    if pages <= 1:
        return None
    shown = pinned_page(overview)
    buttons = []
    for page in range(pages):
        if page == shown:
            continue
        if rows:
            first, last = _places(page, rows)
            text = "📋 " + _("Places {first}–{last}").format(first=first, last=last)
        elif page == pages - 1:
            text = "📋 " + _("Final rounds")
        else:
            text = "📋 " + _("Part {part}").format(part=page + 1)
        data = TournamentPage(tournament=overview.tournament.id, page=page).pack()
        buttons.append(InlineKeyboardButton(text=text, callback_data=data))
    return InlineKeyboardMarkup(
        inline_keyboard=[buttons[i : i + 2] for i in range(0, len(buttons), 2)]
    )


def page_caption(overview: TournamentOverview, page: int, _: Translate) -> str:
    """The caption of a page of the table, or of the bracket, sent in private."""
    rows = table_rows(overview)
    if rows:
        first, last = _places(page, rows)
        where = _("places {first}–{last} of {count}").format(first=first, last=last, count=rows)
    else:
        where = _("the bracket, part {part} of {count}").format(
            part=page + 1, count=page_total(overview)
        )
    return "🏆 " + html.bold(title(overview.tournament, _)) + " · " + where


def pin_refused_text(_: Translate) -> str:
    """Said in the group once, when the bot may not pin its tournament's message."""
    return _(
        "📌 I could not pin the tournament's message above: an admin can pin it, or let me "
        "pin messages (make me an admin with that right)."
    )


def player_line(tournament: Tournament, number: int, opponent: User, _: Translate) -> str:
    """What a player gets in private with their game."""
    return _("🏆 Tournament #{id}, round {round}: your game against {name} is below.").format(
        id=tournament.id, round=number, name=player_name(opponent, _)
    )


def _clock(at: float) -> str:
    return clock(at, "time")


def waiting_lines(
    tournament: Tournament, waiting: Waiting, users: Mapping[int, User], _: Translate
) -> dict[int, str]:
    """What each player of a board that waits is told in private, by player: the one still
    in another game, that they forfeit unless it ends in time; the other, until when they
    wait."""
    board = waiting.board
    assert board.waits_until is not None
    head = _("🏆 Tournament #{id}, round {round}:").format(id=tournament.id, round=board.round)
    until = _clock(board.waits_until)
    told = {}
    for player in board.players:
        opponent = player_name(users[next(p for p in board.players if p != player)], _)
        busy = next((b for b in waiting.busy if b.user_id == player), None)
        if busy is None:
            text = _(
                "your game against {name} starts when their game ends, at {time} at the "
                "latest (if it is still being played then, they forfeit)."
            ).format(name=opponent, time=until)
        elif busy.game is not None:
            text = _(
                "your game against {name} starts when your game #{game} ends. If it is still "
                "being played at {time}, you forfeit this one."
            ).format(name=opponent, game=busy.game.id, time=until)
        else:
            text = _(
                "your game against {name} starts when your other tournament game is over. If "
                "it is not by {time}, you forfeit this one."
            ).format(name=opponent, time=until)
        told[player] = f"{head} {text}"
    return told


def forfeit_lines(
    tournament: Tournament, forfeit: Forfeit, users: Mapping[int, User], _: Translate
) -> dict[int, str]:
    """What each player of a board forfeited at the end of its wait is told, by player."""
    board = forfeit.board
    head = _("🏆 Tournament #{id}, round {round}:").format(id=tournament.id, round=board.round)
    told = {}
    for player in board.players:
        opponent = player_name(users[next(p for p in board.players if p != player)], _)
        if player in forfeit.losers:
            text = _(
                "you forfeited your game against {name}: you were still playing another "
                "game when its wait ran out."
            ).format(name=opponent)
        else:
            text = _(
                "{name} forfeited your game: they were still playing another game when its "
                "wait ran out. The board is yours."
            ).format(name=opponent)
        told[player] = f"{head} {text}"
    return told


def past_text(tournaments: Sequence[Tournament], users: Mapping[int, User], _: Translate) -> str:
    """``/tournament``'s list of the group's tournaments, newest first."""
    if not tournaments:
        return _("No tournaments here yet.")
    lines = [html.bold(_("Tournaments here"))]
    states = {
        TournamentState.SIGNUP: _("sign-up"),
        TournamentState.RUNNING: _("being played"),
        TournamentState.CANCELLED: _("called off"),
    }
    for t in tournaments:
        if t.state is TournamentState.FINISHED:
            user = users.get(t.winner_id) if t.winner_id is not None else None
            what = _("won by {name}").format(name=player_name(user, _) if user else "—")
        else:
            what = states[t.state]
        lines.append(f"#{t.id} · {format_name(t.format, _)} · {what}")
    return "\n".join(lines)
