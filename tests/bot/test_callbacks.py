"""Callback data stays within Telegram's 64 bytes for the largest values it can carry."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.callbacks import (
    ChallengeAction,
    ChallengeOption,
    GameAction,
    InlineInvite,
    InviteOption,
    LessonAction,
    LessonMove,
    Move,
    PlayFrom,
    PracticeAction,
    Rematch,
    Replay,
    ResignAction,
    TakeBack,
)
from bot.services.inline import SEAL_DIGITS

BIG_ID = 2**52  # Telegram user ids fit in 52 bits; game ids are SQLite rowids far below
BIG_VERSION = 10**9


def test_worst_case_payloads_fit_in_64_bytes() -> None:
    payloads = [
        GameAction(game=BIG_ID, version=BIG_VERSION, move=Move.CONFIRM, arg=99),
        ChallengeAction(challenge=BIG_ID, version=BIG_VERSION, option=ChallengeOption.TIME),
        ResignAction(game=BIG_ID, user=BIG_ID, asked=2**31, sure=True),
        Rematch(game=BIG_ID),
        InlineInvite(challenger=BIG_ID, option=InviteOption.DECLINE, seal=16**SEAL_DIGITS - 1),
        Replay(game=BIG_ID),
        PlayFrom(game=BIG_ID, moves=10**6, computer=False),
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
    move=st.sampled_from(Move),
    arg=st.integers(0, 99),
)
def test_game_buttons_data_is_what_the_model_packs(
    game: int, version: int, move: Move, arg: int
) -> None:
    action = GameAction(game=game, version=version, move=move, arg=arg)
    assert GameAction.data(game, version, move, arg) == action.pack()
    assert GameAction.unpack(GameAction.data(game, version, move, arg)) == action


@pytest.mark.parametrize(
    "data",
    [
        "e:2:0:0:0:ab1",  # taps are letters
        "e:2:0:0:0:abcdefghi",  # nine taps: more than a turn takes
        "e:99:0:0:0:",  # no such move
        "e:2:-1:0:0:",  # no negative numbers
        "e:2: 1:0:0:",
        "h:1:a b:0",
        "h:1:a:yes",
        "j:1:1.5",
    ],
)
def test_forged_learning_buttons_are_not_parsed(data: str) -> None:
    factory = {"e": LessonAction, "h": PracticeAction, "j": TakeBack}[data[0]]
    with pytest.raises(ValueError):
        factory.unpack(data)
