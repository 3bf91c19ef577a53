"""Inline mode: ``@bot`` typed in any chat offers games, a chosen one becomes an invitation in
that chat, and its game is played in that message (see :mod:`bot.services.inline`).

- An inline query (``@bot``, ``@bot short 5``, ``@bot @friend``) is answered with one article
  per game on offer (:func:`bot.views.inline.offers`); each posts an invitation with ✅ Join and
  ✖ Decline. Naming yourself or a bot answers no games but a button that says why.
- The chosen result (inline feedback must be on) makes the challenge, by the inline message's
  id, and the invitation is edited to show the challenge's dice commitment, with buttons that
  carry its seal: a ✅ Join from the buttons as posted, before the commitment showed, is refused.
- ✅ Join starts the game in the inline message (the outbox's inline board kind edits it into
  the board), ✖ Decline closes the invitation. After the start the board's buttons are a group
  board's: the two players' taps play, anyone else is told they watch.
- Under a finished game 🏆 shows the leaderboard of the chat's inline games, and 📊 sends the
  analysis to the tapper's private chat with the bot, the only chat the bot can write to.
"""

from __future__ import annotations

import contextlib
import logging
from typing import Final

from aiogram import Bot, F, Router
from aiogram.exceptions import TelegramBadRequest
from aiogram.types import (
    CallbackQuery,
    ChosenInlineResult,
    InlineQuery,
    InlineQueryResultArticle,
    InlineQueryResultsButton,
    InlineQueryResultUnion,
    InputTextMessageContent,
)
from aiogram.utils.callback_answer import CallbackAnswer
from aiogram.utils.i18n import I18n
from aiogram.utils.i18n import gettext as _

from bot.callbacks import Analyse, InlineInvite, InlineTop, InviteOption
from bot.i18n import current_locale
from bot.messages.analysis import send_analysis
from bot.messages.challenges import close_challenge_messages
from bot.messages.inline import pace_key
from bot.model import User
from bot.outbox import Outbox
from bot.services import (
    Analyses,
    Challenges,
    GameError,
    GameService,
    InlineGames,
    Lobby,
    ScoreService,
    Users,
)
from bot.services.challenges import VARIANT_CHOICES
from bot.services.errors import BotChallenge, SelfChallenge, StaleAction
from bot.services.inline import seal
from bot.views.common import translator
from bot.views.inline import (
    invitation_keyboard,
    invitation_text,
    leaderboard_text,
    offer_description,
    offer_title,
    offers,
    result_id,
    terms_of_result,
)
from bot.views.texts import VARIANT_WORDS, explain
from bot.views.words import terms_of

logger = logging.getLogger(__name__)

CACHE_SECONDS: Final = 30
"""How long Telegram may keep one user's answer to one query (the results name the user, so
they are personal)."""
START_PARAMETER: Final = "inline"
"""The button of a refused query opens the private chat with the bot with ``/start inline``."""


def create_router() -> Router:
    """Returns a new router with the inline mode handlers; the taps it takes are those on
    inline messages only."""
    router = Router(name=__name__)
    router.inline_query.register(on_inline_query)
    router.chosen_inline_result.register(on_chosen_result)
    on_inline = F.inline_message_id
    # checked once for the router, before any handler's: a tap on any other message (most
    # updates: every tap on a board) passes the router by without its three callback filters
    router.callback_query.filter(on_inline)
    router.callback_query.register(on_invitation_button, InlineInvite.filter(), on_inline)
    router.callback_query.register(on_leaderboard, InlineTop.filter(), on_inline)
    router.callback_query.register(on_inline_analysis, Analyse.filter(), on_inline)
    return router


def _friend(query: str) -> str | None:
    """The @username a query names, without the @ (the first, if it names several)."""
    names = [word.lstrip("@") for word in query.split() if word.startswith("@")]
    return names[0] if names and names[0] else None


async def on_inline_query(query: InlineQuery, game_service: GameService, player: User) -> None:
    """``@bot`` with the words of ``/play`` (a variant, 5 or 7 for a match, ``cube``...) and
    maybe ``@friend``: the games on offer, each posting an invitation from this user."""
    friend = _friend(query.query)
    refusal: GameError | None = None
    if friend and player.username and friend.lower() == player.username.lower():
        refusal = SelfChallenge()
    elif friend and friend.lower().endswith("bot"):  # every bot's username ends in "bot"
        refusal = BotChallenge()
    if refusal is not None:
        button = InlineQueryResultsButton(text=explain(refusal), start_parameter=START_PARAMETER)
        await query.answer([], cache_time=CACHE_SECONDS, is_personal=True, button=button)
        return
    words = [word.lower() for word in query.query.split() if not word.startswith("@")]
    asked = terms_of(words)
    named = any(word in VARIANT_WORDS for word in words)
    variants = (asked.variant,) if named else VARIANT_CHOICES
    results: list[InlineQueryResultUnion] = []
    for terms in offers(asked, variants):
        move_seconds = terms.move_seconds or game_service.move_seconds
        text = invitation_text(player, friend, terms, move_seconds, _)
        results.append(
            InlineQueryResultArticle(
                id=result_id(terms),
                title=offer_title(terms, _),
                description=offer_description(terms, move_seconds, _),
                input_message_content=InputTextMessageContent(message_text=text),
                reply_markup=invitation_keyboard(player.id, _),
            )
        )
    await query.answer(results, cache_time=CACHE_SECONDS, is_personal=True)


async def on_chosen_result(
    chosen: ChosenInlineResult,
    game_service: GameService,
    inline_games: InlineGames,
    outbox: Outbox,
    player: User,
    bot: Bot,
) -> None:
    """A user posted one of the offered invitations: the challenge it shows is made now, by
    its inline message, and the invitation then shows the challenge's dice commitment, the
    buttons its seal (before that no Join is taken). A result the bot did not offer is only
    logged."""
    terms = terms_of_result(chosen.result_id)
    inline_message_id = chosen.inline_message_id
    if terms is None or inline_message_id is None:
        logger.warning("chosen inline result %r is not one the bot offers", chosen.result_id)
        return
    friend = _friend(chosen.query)
    try:
        challenge = await inline_games.invite(
            inline_message_id=inline_message_id,
            challenger=player,
            target_username=friend,
            locale=current_locale(),
            terms=terms,
        )
    except GameError as error:  # no button to answer: the invitation itself says why
        text, markup = explain(error), None
    else:
        move_seconds = terms.move_seconds or game_service.move_seconds
        text = invitation_text(
            player, friend, terms, move_seconds, _, commitment=challenge.dice_commitment
        )
        markup = invitation_keyboard(player.id, _, seal(challenge))
    await outbox.pace.wait(pace_key(None, inline_message_id))
    # a chosen result reported twice finds its message edited already: "not modified"
    with contextlib.suppress(TelegramBadRequest):
        await bot.edit_message_text(text, inline_message_id=inline_message_id, reply_markup=markup)


async def on_invitation_button(
    callback: CallbackQuery,
    callback_data: InlineInvite,
    lobby: Lobby,
    inline_games: InlineGames,
    challenges: Challenges,
    users: Users,
    outbox: Outbox,
    player: User,
    bot: Bot,
    i18n: I18n,
) -> None:
    """✅ Join starts the game here; ✖ Decline closes the invitation."""
    inline_message_id = callback.inline_message_id
    assert inline_message_id is not None  # the router's filter
    challenger = callback_data.challenger
    if callback_data.option is InviteOption.JOIN:
        _challenge, snapshot = await lobby.join(
            inline_message_id,
            challenger,
            player,
            chat_instance=callback.chat_instance,
            shown_seal=callback_data.seal,
            dice_client=callback.id,  # the Join tap's id: the client value of the game's dice
        )
        return
    if callback_data.option is not InviteOption.DECLINE:
        raise StaleAction()
    challenge = await inline_games.decline(inline_message_id, challenger, player.id)
    await outbox.pace.wait(pace_key(callback.chat_instance, inline_message_id))
    await close_challenge_messages(bot, challenge, users, challenges, i18n)


async def on_leaderboard(
    callback: CallbackQuery, score_service: ScoreService, callback_answer: CallbackAnswer
) -> None:
    """🏆: the leaderboard of the inline games of the chat the button is in, as an alert (the
    bot cannot write there)."""
    standings = await score_service.top_in_instance(callback.chat_instance)
    callback_answer.text = leaderboard_text(standings, _)
    callback_answer.show_alert = True


async def on_inline_analysis(
    callback: CallbackQuery,
    callback_data: Analyse,
    callback_answer: CallbackAnswer,
    analyses: Analyses,
    outbox: Outbox,
    player: User,
    bot: Bot,
    i18n: I18n,
) -> None:
    """📊 under a finished inline game: the analysis, in the tapper's private chat with the
    bot; someone who never opened one is asked to."""
    if not player.private_chat or player.blocked:
        me = await bot.me()
        callback_answer.text = _(
            "Open a private chat with @{bot} first: the analysis is sent there."
        ).format(bot=me.username)
        callback_answer.show_alert = True
        return

    async def answer() -> None:
        callback_answer.disable()
        await callback.answer(_("📊 The analysis comes to your private chat with the bot."))

    await send_analysis(
        bot,
        analyses,
        outbox,
        callback_data.game,
        user_id=player.id,
        chat_id=player.id,
        _=translator(i18n, i18n.current_locale),
        on_start=answer,
    )
