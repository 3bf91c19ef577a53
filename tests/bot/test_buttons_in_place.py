"""Every button counts only on the kind of message that carries it (``bot.callbacks``'
``PRESSED_ON``, enforced by one middleware): each kind of button tapped on every other kind of
message the bot sends is answered as a stale button and changes nothing; and callback data is
read in its one written form only (an Undo with an argument, a number with a leading zero, a
field too many or too few are refused)."""

from __future__ import annotations

import pytest
from aiogram.filters.callback_data import CallbackData

from bot.callbacks import (
    FACTORIES,
    PRESSED_ON,
    Analyse,
    BroadcastStep,
    DailyAction,
    DailyOpen,
    DownloadMoves,
    FlagDecision,
    Forget,
    GameButton,
    InlineInvite,
    InlineTop,
    InviteOption,
    Language,
    LessonAction,
    LessonMove,
    MessageKind,
    NextGame,
    PickLanguage,
    PlayFrom,
    PracticeAction,
    Rematch,
    Replay,
    ResignAction,
    TakeBack,
    TournamentPage,
    parse,
    pressed_where_shown,
)
from bot.services.actions import GameAction
from tests.support.fake_telegram import FakeMessage, FakeUser
from tests.support.harness import BotHarness

from .gameplay import game_buttons, version, wait_for_board

STALE = "This button is no longer valid."


def _factory(data: str) -> type[CallbackData]:
    return FACTORIES[data.partition(":")[0]]


def test_the_table_names_every_button_and_each_kind_is_told_apart() -> None:
    assert set(FACTORIES.values()) == set().union(*PRESSED_ON.values())
    # a /help button on a board, a board's on a challenge: no kind carries both
    assert not pressed_where_shown(_factory("b"), frozenset({GameButton}))
    assert pressed_where_shown(GameButton, frozenset({GameButton}))
    assert not pressed_where_shown(GameButton, frozenset())  # a message without buttons
    assert pressed_where_shown(InlineInvite, None) and not pressed_where_shown(DownloadMoves, None)


@pytest.mark.parametrize(
    "data",
    [
        "g:12:3:2:5",  # Undo with an argument
        "g:12:3:3:1",  # Confirm with one
        "g:012:3:1:0",  # a leading zero
        "g:12:3:1",  # a field too few
        "g:12:3:1:0:0",  # a field too many
        "g:12::1:0",  # a field left empty
        "g:12:3:11:0",  # Resign: no board button's
        "r:1:2:3:01",  # a flag is 0 or 1
        "r:1:2:3:yes",
        "z:1:ab1:0",  # taps are letters
        "X:1",  # no button's prefix
        "b:1",  # a field where the button has none
        "",
    ],
)
def test_callback_data_is_read_in_its_one_written_form(data: str) -> None:
    assert parse(data) is None


def test_every_button_the_bot_writes_reads_back() -> None:
    samples = [
        GameButton(game=12, version=3, action=GameAction.STEP, arg=4),
        GameButton(game=12, version=3, action=GameAction.UNDO),
        GameButton(game=12, version=3, action=GameAction.STRIKE, arg=6),
        ResignAction(game=1, user=2, asked=3, sure=True),
        DailyAction(position=1, taps="aB", confirm=True),
        DailyAction(position=1),
        InlineInvite(challenger=5, option=InviteOption.JOIN, seal=99),
    ]
    for sample in samples:
        assert parse(sample.pack()) == sample


async def _say(harness: BotHarness, user: FakeUser, chat: object, text: str) -> FakeMessage:
    fake = harness.fake
    fake.send_text(user, chat, text)  # type: ignore[arg-type]
    await harness.settle()
    return fake.last_message(chat)  # type: ignore[arg-type]


async def test_each_kind_of_button_counts_only_on_its_own_kind_of_message(
    bot_harness: BotHarness,
) -> None:
    harness, fake = bot_harness, bot_harness.fake
    anna, boris, carol, dan = (
        fake.create_user(name, username=name.lower(), language_code="en")
        for name in ("Anna", "Boris", "Carol", "Dan")
    )
    for user in (anna, boris, carol, dan):
        await _say(harness, user, fake.private_chat(user), "/start")
    messages: dict[MessageKind, FakeMessage] = {}
    messages[MessageKind.MENU] = fake.last_message(fake.private_chat(anna))
    messages[MessageKind.LANGUAGE] = await _say(harness, anna, fake.private_chat(anna), "/language")
    messages[MessageKind.FIND] = await _say(harness, boris, fake.private_chat(boris), "/find")
    messages[MessageKind.LESSON] = await _say(harness, carol, fake.private_chat(carol), "/learn")
    messages[MessageKind.FORGET] = await _say(harness, dan, fake.private_chat(dan), "/forget")
    # a game Anna resigns: its finished board, and her /history
    club = fake.create_group("Club", [anna, boris])
    fake.set_bot_admin(club)
    challenge = await _say(harness, anna, club, "/play @boris")
    fake.press(boris, challenge, "✅ Accept")
    finished = await wait_for_board(fake, club)
    question = await _say(harness, anna, club, "/resign")
    fake.press(anna, question, question.buttons[0].text)
    await fake.wait_for(lambda: "🏆" in finished.content, description="the resigned game")
    messages[MessageKind.HISTORY] = await _say(harness, anna, fake.private_chat(anna), "/history")
    # a game being played, with its /resign question, and an open challenge
    other = fake.create_group("Other", [carol, dan])
    challenge = await _say(harness, carol, other, "/play @dan")
    fake.press(dan, challenge, "✅ Accept")
    board = await wait_for_board(fake, other)
    await fake.wait_for(lambda: bool(game_buttons(board)), description="the board's buttons")
    messages[MessageKind.BOARD] = board
    messages[MessageKind.RESIGN] = await _say(harness, carol, other, "/resign")
    messages[MessageKind.CHALLENGE] = await _say(harness, anna, club, "/play @boris")
    messages[MessageKind.TOURNAMENT_PICKER] = await _say(harness, anna, club, "/tournament")
    signup = await _say(harness, anna, club, "/tournament")  # a second picker, made into one
    fake.press(anna, signup, "✅ Create")
    await fake.wait_for(lambda: any(b.text == "✅ Join" for b in signup.buttons))
    messages[MessageKind.TOURNAMENT_SIGNUP] = signup

    # one button of each kind: the messages' own, and made up for the kinds not sent here
    game = GameButton.unpack(next(b for b in board.buttons if b.callback_data).callback_data or "")
    buttons = {
        _factory(data): data
        for message in [*messages.values(), finished]
        for data in (b.callback_data for b in message.buttons)
        if data is not None
    }
    for made in (
        Analyse(game=game.game),
        Replay(game=game.game),
        NextGame(game=game.game),
        Rematch(game=game.game),
        DownloadMoves(game=game.game),
        PlayFrom(game=game.game, moves=1, computer=True),
        PickLanguage(language=Language.RU),
        InlineInvite(challenger=anna.id, option=InviteOption.JOIN),
        InlineTop(),
        TournamentPage(tournament=1, page=1),
        DailyAction(position=1, taps="a"),
        DailyOpen(),
        LessonAction(move=LessonMove.COURSE),
        PracticeAction(position=1),
        TakeBack(game=game.game, line=1),
        Forget(),
        BroadcastStep(broadcast=1, send=False),
        FlagDecision(game=game.game, release=False),
    ):
        buttons.setdefault(type(made), made.pack())
    assert set(buttons) == set(FACTORIES.values())

    before = version(board)
    tried = 0
    for kind, message in messages.items():
        for factory, data in buttons.items():
            if factory in PRESSED_ON[kind]:
                continue
            # a new presser for each tap: refused taps spend a person's allowance (the throttle)
            presser = fake.create_user(f"P{tried}", username=f"p{tried}", language_code="en")
            mark = fake.mark()
            answer = await fake.next_answer_to(fake.tap(presser, message, data, check=False))
            assert (answer.text, answer.show_alert) == (STALE, True), (kind, data)
            await harness.settle()
            quiet = ("answerCallbackQuery", "getUpdates")
            sent = [r.method for r in fake.requests[mark:] if r.method not in quiet]
            assert sent == [], (kind, data, sent)
            tried += 1
    assert tried > 150
    assert version(board) == before  # nothing moved
    # and in its one written form only: an Undo carrying an argument does nothing
    undo = GameButton.data(game.game, version(board) or 0, GameAction.UNDO, 3)
    answer = await fake.next_answer_to(fake.tap(carol, board, undo, check=False))
    assert (answer.text, answer.show_alert) == (STALE, True)
