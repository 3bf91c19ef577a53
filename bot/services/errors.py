"""Expected refusals: the bot shows each as a short alert and changes nothing."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.model import Challenge


class GameError(Exception):
    """Base class of the refusals a player can meet; ``code`` picks the text shown and
    ``params`` fill its blanks."""

    code = "error"

    def __init__(self, **params: object) -> None:
        super().__init__(self.code, params)
        self.params = params


class GameNotFound(GameError):
    code = "game_not_found"


class NotAPlayer(GameError):
    code = "not_a_player"


class NotYourTurn(GameError):
    code = "not_your_turn"


class StaleAction(GameError):
    """The button belongs to an earlier state of the game (or was forged, or delivered twice)."""

    code = "stale"


class GameFinished(GameError):
    code = "game_finished"


class ChallengeNotFound(GameError):
    code = "challenge_not_found"


class ChallengeClosed(GameError):
    code = "challenge_closed"


class NotForYou(GameError):
    """Someone else was challenged."""

    code = "not_for_you"


class OwnChallenge(GameError):
    """The challenger tried to accept their own challenge."""

    code = "own_challenge"


class NotChallenger(GameError):
    code = "not_challenger"


class SelfChallenge(GameError):
    code = "self_challenge"


class InvitationPending(GameError):
    """A challenge to someone the challenger has an open challenge to already."""

    code = "invitation_pending"


class BotChallenge(GameError):
    code = "bot_challenge"


class NotYourQuestion(GameError):
    """A press on a question the bot asked someone else (resign: are you sure?)."""

    code = "not_your_question"


class NotEnoughChips(GameError):
    """A stake above a player's balance; ``params``: ``name``, ``chips`` (what they hold)."""

    code = "not_enough_chips"


class TooSoon(GameError):
    """A replay, an analysis or another message on demand beyond the asker's or the group's
    allowance (:class:`~bot.outbox.pace.OnDemand`);
    ``params``: ``seconds`` until one is allowed."""

    code = "too_soon"


class NoNextGame(GameError):
    """Next game on a game that is not a finished game of a match still being played."""

    code = "no_next_game"


class NotAnAdmin(GameError):
    """A command for a group's admins, from someone who is not one."""

    code = "not_an_admin"


class NoHints(GameError):
    """Hints were not agreed for this game."""

    code = "no_hints"


class GameNotOver(GameError):
    """An analysis (or anything else for finished games only) of a game still being played."""

    code = "game_not_over"


class AlreadyAnalysing(GameError):
    """A second request for a game's analysis from a chat where one is being made."""

    code = "already_analysing"


class NotAnalysable(GameError):
    """A finished game whose stored turns do not replay (a record from an older bot)."""

    code = "not_analysable"


class InvitationNotFound(GameError):
    """A tap on an inline invitation the bot has no challenge for: its chosen result has not
    arrived yet, or never will (inline feedback is off in @BotFather)."""

    code = "invitation_not_found"


class CommitmentNotShown(GameError):
    """A Join tapped on an inline invitation as it was posted, before the bot had edited it to
    show the challenge's dice commitment: only a Join from a message that showed it counts."""

    code = "commitment_not_shown"


class Watching(GameError):
    """A tap on an inline game by someone who does not play it: they watch."""

    code = "watching"


class NotYourGame(GameError):
    """A game asked about (its dice, say) by someone who neither played it nor is in the group
    where it was played; ``params``: ``game``."""

    code = "not_your_game"


class NotVerifiable(GameError):
    """A game started before fair dice: its dice cannot be checked; ``params``: ``game``."""

    code = "not_verifiable"


class WatchingGroupGame(GameError):
    """A watch link to a game played in a group or in an inline message, whose board everyone
    in that chat sees."""

    code = "watching_group_game"


class WatchingOwnGame(GameError):
    """A player asked to watch their own game (their board is in their chat already)."""

    code = "watching_own_game"


class PrivateGame(GameError):
    """A watch link to a game whose players keep it private."""

    code = "private_game"


class TooManyWatchers(GameError):
    """A game that has as many watchers as it may; ``params``: ``limit``."""

    code = "too_many_watchers"


class PositionOver(GameError):
    """A position to play on from where a side has borne off every checker already."""

    code = "position_over"


class PositionDeadlocked(GameError):
    """A position to play on from where neither side can ever move (both would pass on every
    roll, for ever: :attr:`bot.engine.Game.is_deadlocked`)."""

    code = "position_deadlocked"


class NotAPosition(GameError):
    """Text that is not a position ID; ``params``: ``text``, as given (the refusal cuts and
    escapes it, as every text param)."""

    code = "not_a_position"


class GameStillPlayed(GameError):
    """ "Play from here" in a game still being played (its ID is what /position gives);
    ``params``: ``game``."""

    code = "game_still_played"


class NoSuchMove(GameError):
    """A move number outside a finished game; ``params``: ``game``, ``moves`` (its last)."""

    code = "no_such_move"


class NoGameHere(GameError):
    """A question about "the game here" in a chat that shows no game in progress."""

    code = "no_game_here"


class FromWhat(GameError):
    """``/from`` (or ``/play from``) with nothing after it."""

    code = "from_what"


class TermsChanged(StaleAction):
    """A challenge button drawn for terms the challenger has changed since: ``drawn`` is the
    challenge as the button showed it, ``current`` as it is (the handler names the change)."""

    code = "terms_changed"

    def __init__(self, drawn: Challenge, current: Challenge) -> None:
        super().__init__()
        self.drawn = drawn
        self.current = current


class NotAMember(GameError):
    """A group's challenge taken (or declined) from outside the group by someone who is not
    one of its members."""

    code = "not_a_member"


class ForeignButton(GameError):
    """A button tapped on a message that is not one of its game's or challenge's own (forged
    data, or a button of one message sent on another)."""

    code = "foreign_button"


class AlreadySeeking(GameError):
    """``/find`` by a player already in the pool (there or in another chat)."""

    code = "already_seeking"


class AlreadyPlaying(GameError):
    """``/find`` (or the computer's offer) taken by a player who plays a game at one sitting
    already: one such game at a time, never two started for one person."""

    code = "already_playing"


class NotSeeking(GameError):
    """Cancel, or the computer's offer, tapped by a player no longer in the pool (paired,
    cancelled, or never there)."""

    code = "not_seeking"


class NotYourFind(GameError):
    """A tap on someone else's ``/find`` picker or wait (in a group, where others see it)."""

    code = "not_your_find"


class TournamentNotFound(GameError):
    code = "tournament_not_found"


class TournamentClosed(GameError):
    """Sign-up is over (started, finished or called off), or the tournament is over."""

    code = "tournament_closed"


class NotEntered(GameError):
    """Leaving a tournament one has not joined."""

    code = "not_entered"


class TournamentFull(GameError):
    """``params``: ``limit``, the most players its format takes."""

    code = "tournament_full"


class TournamentMade(GameError):
    """A second tap on a creation picker's ✅ Create: its tournament is made already.
    ``params``: ``tournament``, its id (also :attr:`tournament`)."""

    code = "tournament_made"

    def __init__(self, tournament: int) -> None:
        super().__init__(tournament=tournament)
        self.tournament = tournament


class TooFewPlayers(GameError):
    """Starting a tournament with fewer than two players."""

    code = "too_few_players"


class NotTheCreator(GameError):
    """Starting or calling off a tournament one did not make."""

    code = "not_the_creator"


class NoPrivateChatForTable(GameError):
    """A page of a tournament's table asked for by someone the bot cannot write to in
    private (they never opened a chat with it, or blocked it)."""

    code = "no_private_chat_for_table"


class NoPrivateChat(GameError):
    """Joining a tournament before opening a private chat with the bot, where its games are
    played."""

    code = "no_private_chat"


class AlreadyAnswered(GameError):
    """A second answer to the same daily position."""

    code = "already_answered"


class DailyOver(GameError):
    """An answer to a daily position whose day is over (its best move is shown to all)."""

    code = "daily_over"


class NoDailyPosition(GameError):
    """A daily position that does not exist (a forged button, a variant without one)."""

    code = "no_daily_position"


class UnknownTimeZone(GameError):
    """``/daily on`` with a name that is no time zone."""

    code = "unknown_time_zone"


class CannotBanOwner(GameError):
    """``/ban`` of an operator (one of ``OWNER_IDS``)."""

    code = "cannot_ban_owner"


class AlreadyDecided(GameError):
    """A decision on a held chip transfer that another operator (or tap) made first."""

    code = "already_decided"


class BroadcastClosed(GameError):
    """A tap on a broadcast's button after it was confirmed, finished or stopped."""

    code = "broadcast_closed"


class Banned(GameError):
    """Anything a banned user asks of the bot outside the chats' updates (the Mini App)."""

    code = "banned"
