"""Callback data stays within Telegram's 64 bytes for the largest values it can carry."""

from __future__ import annotations

import pytest
from aiogram.filters.callback_data import CallbackData
from hypothesis import given
from hypothesis import strategies as st

from bot import callbacks
from bot.callbacks import (
    BUTTON_ACTIONS,
    BroadcastStep,
    ChallengeAction,
    ChallengeOption,
    FlagDecision,
    GameButton,
    InlineInvite,
    InviteOption,
    LessonAction,
    LessonMove,
    PlayFrom,
    PracticeAction,
    Rematch,
    Replay,
    ResignAction,
    TakeBack,
)
from bot.services.actions import GameAction
from bot.services.inline import SEAL_DIGITS

BIG_ID = 2**52  # Telegram user ids fit in 52 bits; game ids are SQLite rowids far below
BIG_VERSION = 10**9


def test_worst_case_payloads_fit_in_64_bytes() -> None:
    payloads = [
        GameButton(game=BIG_ID, version=BIG_VERSION, action=GameAction.CONFIRM, arg=99),
        ChallengeAction(challenge=BIG_ID, version=BIG_VERSION, option=ChallengeOption.TIME),
        ResignAction(game=BIG_ID, user=BIG_ID, asked=2**31, sure=True),
        Rematch(game=BIG_ID),
        InlineInvite(challenger=BIG_ID, option=InviteOption.DECLINE, seal=16**SEAL_DIGITS - 1),
        Replay(game=BIG_ID),
        PlayFrom(game=BIG_ID, moves=10**6, computer=False),
        BroadcastStep(broadcast=BIG_ID, send=True),
        FlagDecision(game=BIG_ID, release=False),
        LessonAction(move=LessonMove.DECLINE, lesson=99, step=99, arg=99, taps="ABCDEFGH"),
        PracticeAction(position=BIG_ID, taps="abcdefgh", confirm=True),
        TakeBack(game=BIG_ID, line=10**6),
    ]
    for payload in payloads:
        packed = payload.pack()
        assert len(packed.encode()) <= 64, packed
        assert type(payload).unpack(packed) == payload


@given(
    game=st.integers(1, BIG_ID),
    version=st.integers(0, BIG_VERSION),
    action=st.sampled_from(sorted(BUTTON_ACTIONS)),
    arg=st.integers(0, 99),
)
def test_game_buttons_data_is_what_the_model_packs(
    game: int, version: int, action: GameAction, arg: int
) -> None:
    button = GameButton(game=game, version=version, action=action, arg=arg)
    assert GameButton.data(game, version, action, arg) == button.pack()
    assert GameButton.unpack(GameButton.data(game, version, action, arg)) == button


def test_a_board_button_carries_only_a_board_buttons_action() -> None:
    """Resign, a match's next game, a rematch and a whole turn have controls of their own (a
    question first, another button, the Mini App): forged into a board's button, they are not
    a game button at all."""
    for action in set(GameAction) - BUTTON_ACTIONS:
        with pytest.raises(ValueError):
            GameButton.unpack(f"g:1:0:{action.value}:0")


@pytest.mark.parametrize(
    "data",
    [
        "e:2:0:0:0:ab1",  # taps are letters
        "e:2:0:0:0:abcdefghi",  # nine taps: more than a turn takes
        "e:99:0:0:0:",  # no such move
        "e:2:-1:0:0:",  # no negative numbers
        "e:2: 1:0:0:",
        "d:1:a b:0",
        "d:1:a:yes",
        "j:1:1.5",
    ],
)
def test_forged_learning_buttons_are_not_parsed(data: str) -> None:
    factory = {"e": LessonAction, "d": PracticeAction, "j": TakeBack}[data[0]]
    with pytest.raises(ValueError):
        factory.unpack(data)


def test_every_kind_of_button_has_a_prefix_of_its_own() -> None:
    """Two kinds of button with one prefix would read each other's taps."""
    kinds = [
        value
        for value in vars(callbacks).values()
        if isinstance(value, type) and issubclass(value, CallbackData) and value is not CallbackData
    ]
    prefixes = [kind.__prefix__ for kind in kinds]
    assert len(prefixes) == len(set(prefixes)), sorted(prefixes)
