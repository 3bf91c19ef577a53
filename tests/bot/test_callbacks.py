"""Callback data stays within Telegram's 64 bytes for the largest values it can carry."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.callbacks import (
    ARGUMENT_ACTIONS,
    BUTTON_ACTIONS,
    ChallengeAction,
    ChallengeOption,
    FindAction,
    FindOption,
    GameButton,
    InlineInvite,
    InviteOption,
    PlayFrom,
    Rematch,
    Replay,
    ResignAction,
    TournamentOption,
    TournamentPick,
)
from bot.services.actions import GameAction
from bot.services.inline import SEAL_DIGITS

BIG_ID = 2**52  # Telegram user ids fit in 52 bits; game ids are SQLite rowids far below
BIG_VERSION = 10**9


def test_worst_case_payloads_fit_in_64_bytes() -> None:
    payloads = [
        GameButton(game=BIG_ID, version=BIG_VERSION, action=GameAction.STEP, arg=99),
        ChallengeAction(
            challenge=BIG_ID, version=BIG_VERSION, option=ChallengeOption.TIME, choice=99
        ),
        FindAction(option=FindOption.PICK, user=BIG_ID, time=99, offer=99, stake=99),
        TournamentPick(
            option=TournamentOption.PICK,
            format=9,
            variant=9,
            dice=9,
            match=9,
            time=99,
            entry=9,
            start=9,
            user=BIG_ID,
        ),
        ResignAction(game=BIG_ID, user=BIG_ID, asked=2**31, sure=True),
        Rematch(game=BIG_ID),
        InlineInvite(challenger=BIG_ID, option=InviteOption.DECLINE, seal=16**SEAL_DIGITS - 1),
        Replay(game=BIG_ID),
        PlayFrom(game=BIG_ID, moves=10**6, computer=False),
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
    if action not in ARGUMENT_ACTIONS:
        arg = 0  # an argument only where the action takes one
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
