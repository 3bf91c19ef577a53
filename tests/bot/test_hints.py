"""💡 names the buttons the player taps: for random positions and random taps made before it,
the best line's bracketed labels, tapped on the board's real keyboard one after the other
(after undoing the taps made when it says so), play the best turn; the others read as what
they lose; the whole fits an alert."""

from __future__ import annotations

import random
import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.ai import Hint, Ranked
from bot.callbacks import GameButton
from bot.engine import Dice, Game, Played, Position, Side
from bot.i18n import create_i18n
from bot.model import StoredGame, Tally, User
from bot.services import GameSnapshot
from bot.services.actions import GameAction
from bot.services.hints import advise
from bot.views.board_buttons import finish_label, keyboard
from bot.views.boards import ALERT_LIMIT, hint_text
from bot.views.common import translator
from tests.engine.strategies import played_positions

I18N = create_i18n()
ALICE, BOB = User(1, "alice", "Alice", "en"), User(2, "bob", "Bob", "en")
BUTTONS = re.compile(r"\[([^\]]+)\]")


def _snapshot(game: Game, taps: tuple[tuple[Played, ...], ...]) -> GameSnapshot:
    stored = StoredGame(
        id=1,
        chat_id=0,
        white_id=ALICE.id,
        black_id=BOB.id,
        game=game,
        input=taps,
        last_turn=(),
        history=(),
        move_seconds=90,
        deadline=None,
        locale="en",
        version=len(taps) + 1,
        created_at=0.0,
        finished_at=None,
        hints=True,
    )
    return GameSnapshot(stored, ALICE, BOB, Tally())


def _tap(snapshot: GameSnapshot, label: str) -> tuple[tuple[Played, ...], ...]:
    """The taps after pressing the one button labelled ``label``, as the service plays it."""
    current = snapshot.turn_input
    assert current is not None
    markup = keyboard(snapshot, snapshot.game.turn, lambda text, *_: text)
    found = [b for row in markup.inline_keyboard for b in row if b.text == label]
    assert len(found) == 1, (label, [b.text for row in markup.inline_keyboard for b in row])
    assert found[0].callback_data is not None
    button = GameButton.unpack(found[0].callback_data)
    if button.action is GameAction.FINISH:
        finishes = current.finishes(16)
        assert finishes is not None
        return current.finish(finishes[button.arg]).taps
    assert button.action is GameAction.STEP
    return current.play(current.options[button.arg]).with_forced().taps


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(["long", "short", "abkhaz", "gulbara"]).flatmap(played_positions),
    st.sampled_from(["en", "ru", "kk"]),
    st.integers(0, 2),
    st.randoms(use_true_random=False),
)
def test_the_best_line_names_the_buttons_that_play_the_best_turn(
    played: tuple[Game, object], locale: str, taps_first: int, rng: random.Random
) -> None:
    game, _rules = played
    turns = list(game.legal_turns())
    rng.shuffle(turns)
    equities = sorted((rng.uniform(-1, 1) for _ in turns), reverse=True)
    hint = Hint(Ranked(tuple(turns), tuple(equities)))
    taps: tuple[tuple[Played, ...], ...] = ()
    current = game.turn_input()
    for _ in range(taps_first):  # the player tapped some steps before asking
        if current.is_complete or not current.options:
            break
        current = current.play(rng.choice(current.options)).with_forced()
    taps = current.taps
    snapshot = _snapshot(game, taps)
    assert snapshot.turn_input is not None
    _ = translator(I18N, locale)
    text = hint_text(advise(hint, snapshot.turn_input), _)
    assert len(text) <= ALERT_LIMIT
    best = hint.best
    if best is None or not best.played:
        assert text == _("💡 No move is possible: the turn passes.")
        return
    head, *others = text.splitlines()
    if snapshot.turn_input.is_complete and snapshot.turn_input.turn().position == best.position:
        assert text == _("💡 Your turn {turn} is the best.").format(
            turn=finish_label(snapshot.turn_input.played)
        )
        return
    if head.startswith(_("💡 Best turn, after ↩ Undo: {buttons}").split("{")[0]):
        assert taps  # only when something was tapped that leads elsewhere
        taps = ()
    else:
        assert head.startswith(_("💡 Best turn: {buttons}").split("{")[0])
    labels = BUTTONS.findall(head)
    assert labels
    for label in labels:
        taps = _tap(_snapshot(game, taps), label)
    finished = _snapshot(game, taps).turn_input
    assert finished is not None and finished.is_complete
    assert finished.turn().position == best.position
    loses = _("{turn} loses {loss} points").split("{loss}")[0].replace("{turn}", "")
    your = _("Your turn {turn} loses {loss} points").split("{turn}")[0]
    for line in others:
        assert loses in line or line.startswith(your) or "{turn}" not in line


def test_a_hint_in_words_and_the_buttons_notation() -> None:
    """24→18 13→8 is best from the start of long nardy with 6-5 … (a made-up ranking): the
    best line names its button, the others say what they lose, with the reader's decimals."""
    game = Game.setup(Position.from_text("long w / 24:14 13:1 / 24:15")).with_dice(Dice(6, 5))
    turns = {finish_label(t.played): t for t in game.legal_turns()}
    order = ["24→18 13→8", "24→13", "13→2"]
    ranked = Ranked(tuple(turns[o] for o in order), (0.40, 0.37, 0.0))
    snapshot = _snapshot(game, ())
    assert snapshot.turn_input is not None
    en = hint_text(advise(Hint(ranked), snapshot.turn_input), translator(I18N, "en"))
    assert en.splitlines() == [
        "💡 Best turn: [24→18 13→8]",
        "24→13 loses 0.03 points",
        "13→2 loses 0.40 points",
    ]
    ru = hint_text(advise(Hint(ranked), snapshot.turn_input), translator(I18N, "ru"))
    assert "0,03" in ru and "0,40" in ru and "24/18" not in ru
    assert Side.WHITE is game.turn
