"""Texts the handlers share: refusals explained, the words of ``/play`` and ``/rules``, and the
rules of each variant."""

from __future__ import annotations

import unicodedata
from typing import Final

from aiogram import html
from aiogram.utils.i18n import gettext as _

from bot.engine import DiceMode
from bot.i18n import N_, NP_
from bot.services import GameError
from bot.services.choices import VARIANTS, per_variant
from bot.views.numbers import count

VARIANT_WORDS: Final = {
    **{name: name for name in VARIANTS[1:]},
    "короткие": "short",
    "короткая": "short",
    "абхазские": "abkhaz",
    "абхазская": "abkhaz",
    "гюльбар": "gulbara",
    "гульбара": "gulbara",
    "crazy": "crazy_gulbara",
    "бешеный": "crazy_gulbara",
    "бешеный_гюльбар": "crazy_gulbara",
}
"""Words of ``/play`` that choose a variant: each variant's registry name but the first's (long
nardy, played when no word names one), and other words for them. ``crazy gulbara`` and
``бешеный гюльбар`` read as crazy gul-bara: the first word decides."""
if not set(VARIANT_WORDS.values()) <= set(VARIANTS[1:]):  # pragma: no cover - a word astray
    raise RuntimeError(f"VARIANT_WORDS: words for no variant {set(VARIANT_WORDS.values())}")
DICE_WORDS: Final = {
    "three_dice": DiceMode.THREE,
    "three": DiceMode.THREE,
    "три": DiceMode.THREE,
    "anti_three": DiceMode.ANTI_THREE,
    "anti": DiceMode.ANTI_THREE,
    "анти": DiceMode.ANTI_THREE,
}


REFUSALS: Final = {
    "game_not_found": N_("This game does not exist."),
    "not_a_player": N_("You are not playing in this game."),
    "not_your_turn": N_("It is not your turn."),
    "stale": N_("This button is out of date: the board has changed. Use the current board."),
    "game_finished": N_("This game is already over."),
    "challenge_not_found": N_("This challenge does not exist."),
    "challenge_closed": N_("This challenge is closed: accepted, declined or expired."),
    "not_for_you": N_("This challenge is for someone else."),
    "own_challenge": N_("You cannot accept your own challenge."),
    "not_challenger": N_("Only the challenger can change the options."),
    "self_challenge": N_("You cannot challenge yourself."),
    "bot_challenge": N_("Bots do not play nardy here. Challenge a person."),
    "invitation_pending": N_(
        "You have invited them already, and that invitation is still open: wait for their "
        "answer, or withdraw it first with its ✖ Decline button."
    ),
    "not_your_question": N_("This question was not asked of you."),
    "no_next_game": N_("There is no next game to start here: the match is over or going on."),
    "not_an_admin": N_("Only the group's admins can do that."),
    "cannot_ban_owner": N_("Operators cannot be banned."),
    "banned": N_("You are banned from this bot."),
    "already_decided": N_("This transfer has been decided already."),
    "broadcast_closed": N_("This broadcast has been sent or stopped already."),
    "no_hints": N_("No hints in this game: they are agreed at the challenge."),
    "game_not_over": N_("This game is not over yet: it can be analysed once it has ended."),
    "already_analysing": N_("📊 This game is being analysed already: the results will come here."),
    "too_soon": N_("⏳ Too many requests here: try again in {seconds} s."),
    "not_analysable": N_("This game's record cannot be replayed, so it cannot be analysed."),
    "invitation_not_found": N_(
        "The bot has not received this invitation yet: try again in a moment. If this keeps "
        "happening, the bot's operator must turn on inline feedback in @BotFather."
    ),
    "commitment_not_shown": N_(
        "Wait a moment: the invitation is getting its 🔒 dice commitment. Tap ✅ Join once it "
        "shows."
    ),
    "watching": N_("You are watching this game: only its two players can tap."),
    "not_your_game": N_("Game #{game} is not yours, and it was not played in this chat."),
    "not_verifiable": N_(
        "Game #{game} was started before the dice could be verified: there is nothing to check."
    ),
    "watching_group_game": N_(
        "This game is played in a chat where everyone there sees its board: watch it there."
    ),
    "watching_own_game": N_("You are playing in this game: your board is in this chat."),
    "private_game": N_("This game is private: its players keep it to themselves."),
    "position_over": N_(
        "The game is over in that position: nothing is left to play. Choose an earlier board: "
        "/from 12 30 plays on from game #12 after move 30."
    ),
    "position_deadlocked": N_(
        "Neither side can ever move in that position (both are shut out), so the game would "
        "never end. Choose another position."
    ),
    "not_a_position": N_(
        "{text} is not a position ID. An ID is 14 letters, digits, - and _; /position in a "
        "game shows its own."
    ),
    "game_still_played": N_(
        "Game #{game} is still being played: its replay and its boards to play on from come "
        "when it is over. /position shows its board now."
    ),
    "no_game_here": N_("No game is being played here. /position 12 shows game #12."),
    "not_a_member": N_(
        "This challenge was made in a group: only the group's members can take it, or decline it."
    ),
    "foreign_button": N_("This button does not belong to this message: use the message's own."),
    "already_seeking": N_(
        "You are looking for an opponent already: wait, or tap ✖ Cancel on that message."
    ),
    "already_playing": N_("You are playing game #{game} already: finish it first."),
    "opponent_playing": N_("{name} is playing game #{game} now: try again when it ends."),
    "tournament_game_waits": N_(
        "Your game in tournament #{tournament} is about to start: play it first."
    ),
    "opponent_tournament_game_waits": N_(
        "{name}'s game in tournament #{tournament} is about to start: try again after it."
    ),
    "not_your_find": N_("This is someone else's search: send /find for your own."),
    "not_your_picker": N_("This is someone else's choice: send /tournament for your own."),
    "not_seeking": N_("You are not looking for an opponent now: tap 🔎 Find to look again."),
    "tournament_not_found": N_("This tournament does not exist."),
    "tournament_closed": N_("This tournament's sign-up is over."),
    "not_entered": N_("You have not joined this tournament."),
    "too_few_players": N_("A tournament needs at least two players to start."),
    "not_the_creator": N_("Only the tournament's creator can do that."),
    "tournament_made": N_("Tournament #{tournament} has been created from this message already."),
    "no_private_chat": N_(
        "Tournament games are played in private: open a chat with me (tap my name, then "
        "Start) and join again."
    ),
    "no_private_chat_for_table": N_(
        "I send the table's pages in private: open a chat with me (tap my name, then Start) "
        "and tap again."
    ),
    "already_answered": N_("You have answered this position already: one answer each."),
    "daily_over": N_("This position's day is over: its best move is shown to all."),
    "no_daily_position": N_("There is no such daily position. /daily shows today's."),
    "unknown_time_zone": N_(
        "{name} is not a time zone. Name one as Europe/Moscow, Asia/Baku or UTC: "
        "/daily on Europe/Moscow"
    ),
    "from_what": N_(
        "Play on from which position? /from and a position ID (/position shows one), or a "
        "finished game and a move: /from 12 30 is game #12 after move 30."
    ),
}


ECHO_LENGTH: Final = 64
"""What a user wrote is shown back at most this long: a whole name (Telegram's first names
have up to 64 characters, usernames 32), a cut word, never a message too long to send."""


RIGHT_TO_LEFT: Final = frozenset(
    {"R", "AL", "RLE", "RLO", "LRE", "LRO", "PDF", "RLI", "LRI", "FSI"}
)
"""Unicode bidi classes that change the direction of what follows: right-to-left letters and
the direction controls (``unicodedata.bidirectional``)."""


def echo(text: str, *, markup: bool = True) -> str:
    """``text`` that a user wrote or chose (a word of a command, a name) as a message shows it
    back: cut to :data:`ECHO_LENGTH` characters (ending in …); with right-to-left letters or
    direction controls, wrapped in a first-strong isolate (U+2068 … U+2069), so that it reads
    in its own direction and cannot turn the rest of the line around (an override, U+202E,
    runs to the end of the paragraph otherwise); and, for a message in HTML (``markup``),
    escaped, so that ``<b>`` reads as written and breaks nothing.

    >>> echo("<b>Tom</b>"), echo("<b>Tom</b>", markup=False), len(echo("x" * 4080))
    ('&lt;b&gt;Tom&lt;/b&gt;', '<b>Tom</b>', 64)
    >>> echo("\u202eevil") == "\u2068\u202eevil\u2069", echo("Ани") == "Ани"
    (True, True)
    """
    if len(text) > ECHO_LENGTH:
        text = text[: ECHO_LENGTH - 1] + "…"
    if any(unicodedata.bidirectional(char) in RIGHT_TO_LEFT for char in text):
        text = f"\u2068{text}\u2069"
    return html.quote(text) if markup else text


STALE_BUTTON_TEXT: Final = N_("This button is no longer valid.")
"""The answer to a press that no button of the bot makes there (old versions', forged)."""


COUNTED_REFUSALS: Final = {
    "not_enough_chips": (
        "chips",
        NP_(
            "{name} has only {chips} chip: lower the stake.",
            "{name} has only {chips} chips: lower the stake.",
        ),
    ),
    "too_many_watchers": (
        "limit",
        NP_(
            "This game has {limit} watcher already, as many as it can have.",
            "This game has {limit} watchers already, as many as it can have.",
        ),
    ),
    "no_such_move": (
        "moves",
        NP_(
            "Game #{game} has {moves} move: choose one from 0 (the start) to {moves}.",
            "Game #{game} has {moves} moves: choose one from 0 (the start) to {moves}.",
        ),
    ),
    "tournament_full": (
        "limit",
        NP_(
            "This tournament is full: it takes {limit} player.",
            "This tournament is full: it takes {limit} players.",
        ),
    ),
}
"""Refusals that show a count: the param that holds it, and the text's forms."""


def explain(error: GameError, *, markup: bool = True) -> str:
    """The refusal as a sentence in the current locale, its text params (a name, a word of a
    command) passed through :func:`echo`: escaped for a message (``markup``), as written for
    an alert or a button, which Telegram shows as plain text; a count in the plural form for
    it (:data:`COUNTED_REFUSALS`)."""
    counted = COUNTED_REFUSALS.get(error.code)
    n = 0
    if counted is not None:
        param, (singular, plural) = counted
        value = error.params.get(param)
        n = value if isinstance(value, int) else 0
        text = _(singular, plural, n)
    else:
        text = _(REFUSALS.get(error.code, N_("That did not work.")))
    if not error.params:
        return text
    shown = {
        key: echo(value, markup=markup) if isinstance(value, str) else value
        for key, value in error.params.items()
    }
    if counted is not None:
        shown[counted[0]] = count(n, _)
    return text.format_map(shown)


_VARIANT_RULES: Final = {
    "long": N_(
        "<b>Long nardy</b>\n"
        "Each side has 15 checkers on its head (its point 24). Both sides move the same way, "
        "counter-clockwise, round to their home (points 1–6) and bear off from there.\n"
        "• Each die moves one checker that many points; a double gives four moves.\n"
        "• A checker may not stop on a point held by the opponent. Nothing is ever hit.\n"
        "• Only one checker may leave the head per turn; on the first turn, 6-6, 4-4 and 3-3 "
        "let two leave.\n"
        "• You may not build six points in a row unless an opponent checker is already past "
        "them.\n"
        "• Play both dice if you can; if only one, the larger one.\n"
        "• Bear off once all 15 are home. Oin: 1 point; mars (the loser bore off nothing): 2.\n"
        "Rule sets: classic; Shesh Besh (koks 3, home mars 4, the higher die first when "
        "bearing off, resigning costs 4); karzar (no six in a row before an opponent checker "
        "is home)."
    ),
    "short": N_(
        "<b>Short nardy</b>\n"
        "Backgammon movement: the sides move towards each other from the standard start.\n"
        "• You may land on a point with at most one opponent checker; a single checker is hit "
        "and goes to the bar.\n"
        "• Checkers on the bar must enter into the opponent's home before anything else moves.\n"
        "• Play both dice if you can; if only one, the larger one.\n"
        "• Oin 1 point, mars 2, koks (the loser has a checker on the bar or in your home) 3."
    ),
    "abkhaz": N_(
        "<b>Abkhaz nardy</b>\n"
        "Short nardy (start, hits, the bar, bearing off, oin/mars/koks, the cube) with one "
        "difference: hitting inside your own home (your points 1–6).\n"
        "• A checker that hits there stays alone on its point for the rest of the turn: no "
        "checker of yours may join it, and it may not move on to a point of yours.\n"
        "• It may move on to an empty point or hit again; it is not borne off this turn.\n"
        "• In a turn with a hit in your home no checker is borne off at all.\n"
        "• A die that can only be played against these rules is lost."
    ),
    "gulbara": N_(
        "<b>Gul-bara</b>\n"
        "Long nardy's board and rules (no hitting, the head rule, the block of six), but what a "
        "roll gives is different.\n"
        "• The moves you cannot play pass to your opponent, who plays them (as far as they can, "
        "in order) before their own roll. They never pass back.\n"
        "• A double played in full: roll again at once (a chain of doubles goes on)."
    ),
    "crazy_gulbara": N_(
        "<b>Crazy gul-bara</b>\n"
        "Like gul-bara, but a double d-d gives d, d, d+1, d+1 … 6, 6: two moves of each value up "
        "to six, in that order (4-4 gives 4 4 5 5 6 6; 6-6 gives 6 6). You play as far into that "
        "list as you can; the rest passes to your opponent. International rules (four of each "
        "value) are a rule set of their own."
    ),
}
VARIANT_RULES: Final = per_variant(_VARIANT_RULES, "VARIANT_RULES")
"""Each variant's rules, by its name in the engine's registry (a variant of the registry without
them fails at import)."""
RULES: Final = {
    "results": N_(
        "<b>How a game is won</b>\n"
        "The first to bear off all 15 checkers wins, by as much as the loser's position says:\n"
        "• oin, an ordinary win (the loser has borne off at least one checker): 1 point;\n"
        "• mars (the loser has borne off none): 2 points;\n"
        "• koks (a mars, and the loser still has a checker on its head in long nardy, or on the "
        "bar or in the winner's home in short nardy): 3 points, where the rules count it;\n"
        "• home mars (all the loser's checkers are home, none borne off; Shesh Besh): 4 points.\n"
        "Resigning or running out of time loses as the rules say."
    ),
    **VARIANT_RULES,
    "dice": N_(
        "<b>Dice modes (short and Abkhaz nardy)</b>\n"
        "• Two dice: as always.\n"
        "• Three dice: three dice, all played, one move each; a triple gives six moves. If not "
        "all can be played, play the largest that can be.\n"
        "• Anti three dice: three dice are rolled, your opponent strikes one, and you play the "
        "two left as an ordinary roll (a double gives four moves)."
    ),
    "cube": N_(
        "<b>Matches, the cube, chips</b>\n"
        "• A match is played to 3, 5, 7 or 9 points; each game adds its points.\n"
        "• With the doubling cube, before rolling you may offer to double. Your opponent takes "
        "(the game is worth twice as much and the cube is theirs: only they may double next) or "
        "drops (and loses the game at its value so far). In a match, the game after someone "
        "reaches match point minus one is played without the cube (Crawford rule).\n"
        "• A stake in chips: the loser pays stake × the result (× the cube), by the rules' own "
        "table, amateur (oin 0.5, mars 1) or PRO (oin 1, mars 2, koks 3). Games given up before "
        "three turns move no chips."
    ),
}
"""``/rules``: how a game is won (oin, mars, koks, home mars: shown first, since every other part
uses these words), each variant's rules by its registry name (:data:`VARIANT_RULES`), the dice
modes' (shown with the variants that offer them) and the matches', cube's and chips' (shown
with every variant)."""
