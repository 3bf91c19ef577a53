"""What tournaments look like in Telegram: the creation picker, the sign-up message, the pinned
message's caption and picture (a bracket or a table for :mod:`render.tournament`), the line a
player gets with their game, and the list of a group's tournaments. Pure: texts and keyboards
from the service's values, every word through ``_``."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Final, Literal

from aiogram import html
from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot.callbacks import (
    TournamentAction,
    TournamentOption,
    TournamentPage,
    TournamentPick,
    TournamentStep,
)
from bot.i18n import N_
from bot.model import Terms, Tournament, TournamentFormat, TournamentState, User
from bot.services.challenges import TIME_CHOICES, VARIANT_CHOICES, has_dice_modes
from bot.services.chips import STAKE_CHOICES
from bot.services.tournaments import Overview, prize_opponents
from bot.views.common import (
    DICE_MODE_NAMES,
    VARIANT_NAMES,
    Translate,
    duration,
    mention,
    player_name,
)
from render.tournament_layout import (
    PAGE_ROUNDS,
    ROWS_PER_PAGE,
    Bracket,
    BracketMatch,
    CrossResult,
    Entrant,
    Heading,
    RoundRobinRow,
    RoundRobinTable,
    SwissResult,
    SwissRow,
    SwissTable,
    bracket_pages,
    page_count,
)

FORMAT_CHOICES: Final = tuple(TournamentFormat)
FORMAT_NAMES: Final = {
    TournamentFormat.KNOCKOUT: N_("Knock-out"),
    TournamentFormat.ROUND_ROBIN: N_("Round robin"),
    TournamentFormat.SWISS: N_("Swiss"),
}
MATCH_CHOICES: Final = (0, 3, 5, 7)
START_CHOICES: Final = (0, 600, 1800, 3600, 86_400)
"""When a tournament starts, in seconds from its creation; 0: when its creator starts it."""
DICE_CHOICES: Final = tuple(DICE_MODE_NAMES)
DEFAULT_TIME: Final = TIME_CHOICES.index(90)


@dataclass(frozen=True, slots=True)
class Pick:
    """The creation picker's choices, each an index into its choices."""

    format: int = 0
    variant: int = 0
    dice: int = 0
    match: int = 0
    time: int = DEFAULT_TIME
    entry: int = 0
    start: int = 0

    @classmethod
    def of(cls, data: TournamentPick) -> Pick | None:
        """The picker's choices a button carries; None for indices out of range (forged)."""
        pick = cls(
            data.format, data.variant, data.dice, data.match, data.time, data.entry, data.start
        )
        limits = (
            len(FORMAT_CHOICES),
            len(VARIANT_CHOICES),
            len(DICE_CHOICES),
            len(MATCH_CHOICES),
            len(TIME_CHOICES),
            len(STAKE_CHOICES),
            len(START_CHOICES),
        )
        values = (pick.format, pick.variant, pick.dice, pick.match, pick.time, pick.entry)
        if any(not 0 <= v < n for v, n in zip((*values, pick.start), limits, strict=True)):
            return None
        return pick

    @property
    def tournament_format(self) -> TournamentFormat:
        return FORMAT_CHOICES[self.format]

    @property
    def terms(self) -> Terms:
        variant = VARIANT_CHOICES[self.variant]
        return Terms(
            variant=variant,
            dice_mode=DICE_CHOICES[self.dice] if has_dice_modes(variant) else DICE_CHOICES[0],
            match_length=MATCH_CHOICES[self.match],
            move_seconds=TIME_CHOICES[self.time],
        )

    @property
    def chips(self) -> int:
        """The entry in chips."""
        return STAKE_CHOICES[self.entry]

    @property
    def starts_in(self) -> int:
        return START_CHOICES[self.start]

    def next(self, option: TournamentOption) -> Pick:
        """The choices after a tap on ``option``'s button: its next value, round and round."""
        name = option.name.lower()
        if option is TournamentOption.CREATE:
            return self
        sizes = {
            "format": len(FORMAT_CHOICES),
            "variant": len(VARIANT_CHOICES),
            "dice": len(DICE_CHOICES),
            "match": len(MATCH_CHOICES),
            "time": len(TIME_CHOICES),
            "entry": len(STAKE_CHOICES),
            "start": len(START_CHOICES),
        }
        changed = replace(self, **{name: (getattr(self, name) + 1) % sizes[name]})
        if option is TournamentOption.VARIANT and not has_dice_modes(
            VARIANT_CHOICES[changed.variant]
        ):
            changed = replace(changed, dice=0)
        return changed

    def button(self, option: TournamentOption) -> str:
        """The callback data of ``option``'s button."""
        p = self.next(option)
        return TournamentPick(
            option=option,
            format=p.format,
            variant=p.variant,
            dice=p.dice,
            match=p.match,
            time=p.time,
            entry=p.entry,
            start=p.start,
        ).pack()


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
    parts.append(_("entry {chips} chips").format(chips=entry) if entry else _("free entry"))
    return " · ".join(parts)


def picker_text(pick: Pick, _: Translate) -> str:
    """The creation picker: what the buttons chose so far."""
    start = (
        _("starts {minutes} min after it is made").format(minutes=pick.starts_in // 60)
        if pick.starts_in
        else _("its creator starts it")
    )
    return "\n".join(
        [
            "🏆 " + html.bold(_("New tournament")),
            _(FORMAT_NAMES[pick.tournament_format]) + " · " + terms_text(pick.terms, pick.chips, _),
            start,
            _("Tap the buttons to change a choice, then ✅ Create."),
        ]
    )


def picker_keyboard(pick: Pick, _: Translate) -> InlineKeyboardMarkup:
    """One button per choice (each tap moves it to the next value) and ✅ Create."""
    terms = pick.terms
    o = TournamentOption

    def button(text: str, option: TournamentOption) -> InlineKeyboardButton:
        return InlineKeyboardButton(text=text, callback_data=pick.button(option))

    rows = [
        [
            button("🏆 " + _(FORMAT_NAMES[pick.tournament_format]), o.FORMAT),
            button("🎲 " + _(VARIANT_NAMES[terms.variant]), o.VARIANT),
        ],
        [
            button(
                "🏁 "
                + (
                    _("match to {n}").format(n=terms.match_length)
                    if terms.match_length
                    else _("single games")
                ),
                o.MATCH,
            ),
            button("⏱ " + duration(terms.move_seconds or 90, _), o.TIME),
        ],
        [
            button("💰 " + (str(pick.chips) if pick.chips else _("free")), o.ENTRY),
            button(
                "🕒 "
                + (
                    _("in {minutes} min").format(minutes=pick.starts_in // 60)
                    if pick.starts_in
                    else _("by the creator")
                ),
                o.START,
            ),
        ],
    ]
    if has_dice_modes(terms.variant):
        rows.insert(1, [button("🎲 " + _(DICE_MODE_NAMES[terms.dice_mode]), o.DICE)])
    rows.append([button("✅ " + _("Create"), o.CREATE)])
    return InlineKeyboardMarkup(inline_keyboard=rows)


def title(tournament: Tournament, _: Translate) -> str:
    return _("Tournament #{id}").format(id=tournament.id)


def signup_text(overview: Overview, _: Translate) -> str:
    """The sign-up message: the terms, when it starts, who joined; or how it went on."""
    t = overview.tournament
    lines = [
        "🏆 " + html.bold(title(t, _)) + " · " + _(FORMAT_NAMES[t.format]),
        terms_text(t.terms, t.entry, _),
    ]
    if t.is_open:
        if t.starts_at is not None:
            at = dt.datetime.fromtimestamp(t.starts_at, dt.UTC).strftime("%Y-%m-%d %H:%M UTC")
            lines.append(_("Starts at {time}.").format(time=at))
        else:
            lines.append(_("Its creator starts it."))
        lines.append(_("Games are played in private chats with the bot."))
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
    return _fit(lines, names, _, limit=MESSAGE_LIMIT, more=N_("… and {n} more players"), tail=tail)


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


KNOCKOUT_ROUNDS: Final = (
    N_("Final"),
    N_("Semi-final"),
    N_("Quarter-final"),
    N_("Round of 16"),
    N_("Round of 32"),
    N_("Round of 64"),
)
"""A knock-out's rounds by what is left after them, the final first, as people name them
(«Финал», «Полуфинал», «Четвертьфинал», «1/8 финала»...)."""


def round_name(overview: Overview, number: int, _: Translate) -> str:
    """Round ``number``'s name: a knock-out's as people say it, else "Round 3"."""
    t = overview.tournament
    left = t.rounds - number
    if t.format is TournamentFormat.KNOCKOUT and 0 <= left < len(KNOCKOUT_ROUNDS):
        return _(KNOCKOUT_ROUNDS[left])
    return _("Round {n}").format(n=number)


def round_line(overview: Overview, _: Translate) -> str:
    """Where the tournament stands: a knock-out's round by its name ("Semi-final"), another
    format's by its number of all ("Round 3 of 5")."""
    t = overview.tournament
    if t.format is TournamentFormat.KNOCKOUT:
        return round_name(overview, t.round, _)
    return _("Round {n} of {rounds}").format(n=t.round, rounds=t.rounds)


def table_rows(overview: Overview) -> int:
    """The rows of the tournament's table (0 for a knock-out, drawn as a bracket): one per
    entrant once it runs."""
    if overview.tournament.format is TournamentFormat.KNOCKOUT:
        return 0
    return len(overview.standings)


def _bracket_pages(overview: Overview) -> int:
    """The pictures a knock-out's bracket takes (0 for another format)."""
    t = overview.tournament
    if t.format is not TournamentFormat.KNOCKOUT or t.rounds < 1:
        return 0
    return len(bracket_pages(1 << t.rounds))


def page_total(overview: Overview) -> int:
    """How many pictures the tournament's bracket or table takes (1 for most)."""
    return _bracket_pages(overview) or page_count(table_rows(overview))


def pinned_page(overview: Overview) -> int:
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


def pinned_caption(overview: Overview, links: Mapping[int, str], _: Translate) -> str:
    """The pinned message's caption: the tournament, the round, who plays whom with a watch
    link for each game (``links`` by game id), or the winner; for a table longer than a
    picture (:data:`~render.tournament_layout.ROWS_PER_PAGE` rows), which places it shows."""
    t = overview.tournament
    lines = [
        "🏆 " + html.bold(title(t, _)) + " · " + _(FORMAT_NAMES[t.format]),
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
    for board in overview.round_boards(t.round):
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
        else:
            boards.append(pair)
    return _fit(lines, boards, _)


def _prize_lines(overview: Overview, _: Translate) -> list[str]:
    """What the winner was paid of the pot (see :mod:`bot.services.tournaments`)."""
    t = overview.tournament
    if not t.entry or t.prize is None:
        return []
    if t.prize >= overview.pot:
        return [_("The pot of {chips} chips is theirs.").format(chips=overview.pot)]
    if t.prize == 0:
        return [
            _(
                "No prize: the winner did not play enough different opponents ({n} needed). "
                "Every entry went back."
            ).format(n=prize_opponents(t.rounds))
        ]
    return [
        _(
            "{prize} of the pot's {chips} chips are theirs. The other entries went back: "
            "their players played no game, or they are held as possible chip dumping (/flags)."
        ).format(prize=t.prize, chips=overview.pot)
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
    more: str = N_("… and {n} more boards"),
    tail: Sequence[str] = (),
) -> str:
    """``head``, as many of ``items`` as ``limit`` holds with ``tail`` after them, then how
    many are left out (``more``): a round of a big Swiss has more boards, with their watch
    links, than a caption holds; 64 long names are more than a message holds."""
    text = "\n".join([*head, *items, *tail])
    shown = len(items)
    while _length(text) > limit and shown > 0:
        shown -= 1
        left_out = _(more).format(n=len(items) - shown)
        text = "\n".join([*head, *items[:shown], left_out, *tail])
    return text


def pinned_keyboard(overview: Overview, _: Translate) -> InlineKeyboardMarkup | None:
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


def page_caption(overview: Overview, page: int, _: Translate) -> str:
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
        lines.append(f"#{t.id} · {_(FORMAT_NAMES[t.format])} · {what}")
    return "\n".join(lines)


# --- pictures ------------------------------------------------------------------------------


def picture(overview: Overview, _: Translate) -> Bracket | RoundRobinTable | SwissTable:
    """What :mod:`render.tournament` draws for the tournament: a knock-out's bracket, a round
    robin's cross table, a Swiss's standings."""
    t = overview.tournament
    heading = Heading(title(t, _), _(FORMAT_NAMES[t.format]), round_line(overview, _))
    if t.format is TournamentFormat.KNOCKOUT:
        return _bracket(overview, heading, _)
    if t.format is TournamentFormat.ROUND_ROBIN:
        return _cross(overview, heading, _)
    return _swiss(overview, heading, _)


def _seeds(overview: Overview) -> dict[int, int]:
    ranked = sorted(overview.entrants, key=lambda e: (-e.rating, e.user_id))
    return {e.user_id: number for number, e in enumerate(ranked, start=1)}


def _bracket(overview: Overview, heading: Heading, _: Translate) -> Bracket:
    t = overview.tournament
    seeds = _seeds(overview)

    def entrant(user_id: int | None) -> Entrant | None:
        if user_id is None:
            return None
        return Entrant(mention(overview.user(user_id), _), seeds.get(user_id))

    first = [p for p in overview.pairings if p.round == 1]
    rounds = []
    for number in range(1, t.rounds + 1):
        boards = [p for p in overview.pairings if p.round == number]
        size = len(first) >> (number - 1)
        matches = []
        for index in range(size):
            if index >= len(boards):
                matches.append(BracketMatch())
                continue
            p = boards[index]
            winner: Literal[0, 1] | None = None
            if p.decided and p.second_id is not None:
                winner = 0 if p.winner_id == p.first_id else 1
            matches.append(
                BracketMatch(
                    entrant(p.first_id),
                    entrant(p.second_id),
                    winner,
                    playing=not p.decided,
                    note=_("on time") if (p.round, p.board) in overview.on_time else "",
                )
            )
        rounds.append(tuple(matches))
    champion = entrant(t.winner_id) if t.state is TournamentState.FINISHED else None
    return Bracket(
        heading,
        tuple(rounds),
        tuple(round_name(overview, n, _) for n in range(1, t.rounds + 1)),
        champion=champion,
        champion_label=_("Winner"),
        bye=_("bye"),
    )


def _cross(overview: Overview, heading: Heading, _: Translate) -> RoundRobinTable:
    order = [placing.player for placing in overview.standings]
    rows = []
    for placing in overview.standings:
        results: list[CrossResult | None] = []
        for other in order:
            if other == placing.player:
                results.append(None)
                continue
            board = next(
                (p for p in overview.pairings if set(p.players) == {placing.player, other}),
                None,
            )
            if board is None or board.game_id is None and not board.decided:
                results.append(None)
            elif not board.decided:
                results.append(CrossResult("playing"))
            elif board.winner_id == placing.player:
                results.append(CrossResult("win", "1"))
            else:
                results.append(CrossResult("loss", "0"))
        rows.append(
            RoundRobinRow(
                placing.place,
                mention(overview.user(placing.player), _),
                str(placing.score),
                tuple(results),
            )
        )
    return RoundRobinTable(heading, tuple(rows), _("Pts"), "#", _("Player"))


def _swiss(overview: Overview, heading: Heading, _: Translate) -> SwissTable:
    rank = {placing.player: placing.place for placing in overview.standings}
    rounds = overview.tournament.rounds
    rows = []
    for placing in overview.standings:
        results = []
        for number in range(1, rounds + 1):
            board = next(
                (p for p in overview.pairings if p.round == number and placing.player in p.players),
                None,
            )
            if board is None:
                results.append(SwissResult("pending"))
                continue
            if board.second_id is None:
                results.append(SwissResult("bye"))
                continue
            other = board.second_id if board.first_id == placing.player else board.first_id
            outcome: Literal["win", "loss", "playing"] = (
                "playing"
                if not board.decided
                else "win"
                if board.winner_id == placing.player
                else "loss"
            )
            results.append(SwissResult(outcome, rank.get(other)))
        rows.append(
            SwissRow(
                placing.place,
                mention(overview.user(placing.player), _),
                str(placing.score),
                str(placing.buchholz),
                tuple(results),
            )
        )
    return SwissTable(
        heading,
        tuple(rows),
        tuple(str(n) for n in range(1, rounds + 1)),
        _("Pts"),
        _("Buchholz"),
        "#",
        _("Player"),
        _("bye"),
    )
