"""The course's words (msgids): its sections' names, its lessons' titles, every step's texts by
its key (:data:`STEP_TEXTS`: the rule it teaches, its task in one sentence, why a right answer
is right, which rule a wrong one broke; a test walks every step in every language and fails on
one missing), and the labels of an ask step's options. What ``/learn`` shows with them is
:mod:`bot.views.lessons`'."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from bot.course.lessons import Lesson, Section
from bot.course.tasks import (
    OUTCOMES,
    BestRun,
    CanBearOff,
    DropCost,
    HeadCount,
    MayDouble,
    MoveCount,
    Playable,
    Question,
    Remains,
    ResultOf,
    WhatPlays,
    WhereItGoes,
    WinsMatch,
    YesNo,
)
from bot.i18n import N_
from bot.views.common import OUTCOME_NAMES, Translate
from bot.views.numbers import count, points_text


@dataclass(frozen=True, slots=True)
class StepTexts:
    """A step's texts, msgids: the rule it teaches, its task, why a right answer is right,
    which rule a wrong one broke."""

    rule: str
    task: str
    right: str
    wrong: str


SECTION_NAMES: Final = {
    Section.LONG: N_("Long nardy"),
    Section.SHORT: N_("Short nardy"),
    Section.OTHER: N_("The other games"),
}

LESSON_TITLES: Final = {
    "long.moves": N_("Moving checkers"),
    "long.dice": N_("Using the dice in full"),
    "long.head": N_("The head"),
    "long.block": N_("Six points in a row"),
    "long.home": N_("Home and bearing off"),
    "long.results": N_("Oin, mars and koks"),
    "short.basics": N_("Hitting and making points"),
    "short.bar": N_("The bar and entering"),
    "short.blocks": N_("Blocking"),
    "short.home": N_("Bearing off and koks"),
    "short.cube": N_("The cube and matches"),
    "other.games": N_("Abkhaz nardy and the gul-baras"),
}

STEP_TEXTS: Final = {
    "long.moves.one_checker": StepTexts(
        N_(
            "You play ⚪, from your head (24) round to your home (1–6). Each die moves one "
            "checker exactly that many points; one checker may take both dice."
        ),
        N_("Play 5-3 with one checker: 8 points."),
        N_("Right: one checker took both dice, stopping between them on a free point."),
        N_("That moved two checkers. Here one checker had to play both dice."),
    ),
    "long.moves.stop": StepTexts(
        N_(
            "A checker may not stop on a point the opponent holds, not even between its two "
            "dice. Nothing is ever hit in long nardy."
        ),
        N_("Bring the checker on 16 to 8."),
        N_("Right: 16→14→8. The 6 first would stop on 10, ⚫'s point, which is not allowed."),
        N_(
            "The checker on 16 could reach 8: the 2 first (16→14), then the 6. Point 10 is "
            "⚫'s, so the 6 cannot go first."
        ),
    ),
    "long.moves.double": StepTexts(
        N_("A double is played four times: 4-4 gives four moves of 4."),
        N_("Play all four 4s with one checker."),
        N_("Right: four moves of 4 by one checker, each stop free."),
        N_(
            "That used more than one checker. One checker can go all the way: 21→17→13→9→5 "
            "or 17→13→9→5→1."
        ),
    ),
    "long.dice.larger": StepTexts(
        N_(
            "You must play both dice when you can. When only one of them can be played, it "
            "must be the larger one if it fits."
        ),
        N_("6-4: what can you play?"),
        N_("Right: either die fits, but not both, and then the larger is played: 24→18."),
        N_(
            "Either die fits alone, but not both together, and then the rule says: the "
            "larger one. The 4 is lost."
        ),
    ),
    "long.dice.smaller": StepTexts(
        N_("When the larger die cannot be played at all, the smaller one is, if it can be."),
        N_("6-4 again, but now ⚫ holds 18: what can you play?"),
        N_("Right: no checker can move 6, so the 4 is played: 24→20."),
        N_(
            "No checker can move 6 here (18 and 1 are ⚫'s), so only the smaller die is "
            "played: 24→20."
        ),
    ),
    "long.head.one": StepTexts(
        N_(
            "Your checkers start on the head, your point 24. Only one checker may leave the "
            "head per turn."
        ),
        N_("Play 6-5 and take as many checkers off the head as the rules allow."),
        N_("Right: one checker left the head, the most a turn allows."),
        N_("A turn may take one checker off the head, and this one took none."),
    ),
    "long.head.first_six": StepTexts(
        N_(
            "The first turn has an exception: when one checker cannot play a double in full "
            "from the head, a second checker may leave it."
        ),
        N_("Your first turn: 6-6. How many checkers may leave the head?"),
        N_(
            "Right: two. One checker stops at 18, as ⚫'s head on 12 blocks its way, so a "
            "second one leaves the head too."
        ),
        N_(
            "Two: one checker cannot play all four 6s (⚫'s head on 12 blocks it), and that "
            "is when the first turn lets a second one go."
        ),
    ),
    "long.head.first_five": StepTexts(
        N_("The exception is only for a double that one checker cannot play in full."),
        N_("Your first turn: 5-5. How many checkers may leave the head?"),
        N_(
            "Right: one. It plays all four 5s by itself (24→19→14→9→4), so no second checker "
            "leaves."
        ),
        N_(
            "Only one: a checker plays all four 5s alone (24→19→14→9→4), so the exception "
            "does not apply."
        ),
    ),
    "long.head.second": StepTexts(
        N_(
            "The second player's first turn has the same exception, and the first player's "
            "checkers may stand in its way."
        ),
        N_("⚫ has moved a checker to your 18. Your first turn: 2-2. How many may leave the head?"),
        N_(
            "Right: two. One checker would have to stop on 18, ⚫'s, so it cannot play all "
            "four 2s, and a second one may leave."
        ),
        N_(
            "Two: one checker cannot play all four 2s (it would stop on 18, ⚫'s point), so a "
            "second one may leave the head."
        ),
    ),
    "long.block.forbidden": StepTexts(
        N_(
            "You may not build six points in a row unless at least one ⚫ checker is already "
            "past them."
        ),
        N_("You hold 11 to 7. With 6-1, what is the longest row you may make?"),
        N_(
            "Right: five. 13→7→6 would make six in a row with every ⚫ checker still behind "
            "them: not allowed."
        ),
        N_(
            "Five: 13→7→6 would close 11 to 6, six in a row, and no ⚫ checker is past them "
            "yet, so it is not allowed."
        ),
    ),
    "long.block.allowed": StepTexts(
        N_("Once a ⚫ checker is past your row (here on your 4), six in a row is allowed."),
        N_("Close the sixth point: hold 11 to 6 with 6-1."),
        N_("Right: 13→7→6 makes six in a row, allowed as ⚫ has a checker on 4, past them."),
        N_("Six in a row was possible here: 13→7 and 7→6."),
    ),
    "long.home.last_in": StepTexts(
        N_(
            "You bear off only when all 15 checkers are home (1–6). Your last checker "
            "outside is on 8."
        ),
        N_("6-2: can you bear off a checker this turn?"),
        N_("Right: the 6 brings the last checker home (8→2), then the 2 bears off from 2."),
        N_("You can: the 6 brings the last checker home (8→2), and then the 2 bears one off."),
    ),
    "long.home.exact": StepTexts(
        N_(
            "A die bears off a checker from the point of its number: a 6 from 6, a 4 from 4. "
            "Bearing off is never compulsory."
        ),
        N_("6-4: bear off two checkers."),
        N_("Right: 6→off and 4→off."),
        N_("The 4 could bear a checker off from 4 instead of moving inside the home."),
    ),
    "long.home.higher": StepTexts(
        N_("A die higher than your highest checker bears off from your highest point."),
        N_("6-1: bear off two checkers."),
        N_("Right: the 6 bears off from 3, your highest point, and the 1 from 1."),
        N_("The 1 could bear off from 1; the 6 bears off from 3, your highest point."),
    ),
    "long.results.oin": StepTexts(
        N_(
            "The game ends when a side bears off its last checker. Oin: the loser has borne "
            "off at least one checker: 1 point."
        ),
        N_("You bear off your last checker now. ⚫ has borne off 3. What do you win?"),
        N_("Right: an oin, 1 point: ⚫ had borne off checkers."),
        N_("⚫ had borne off checkers, so it is an oin: 1 point."),
    ),
    "long.results.mars": StepTexts(
        N_("Mars: the loser has borne off no checker: 2 points."),
        N_("You bear off your last checker. ⚫ has borne off none. What do you win?"),
        N_("Right: a mars, 2 points."),
        N_("⚫ bore off nothing: a mars, 2 points."),
    ),
    "long.results.koks": StepTexts(
        N_(
            "Under the Shesh Besh rules koks counts: the loser still has a checker on its "
            "head: 3 points. The classic rules (the bot's default) count it as a mars."
        ),
        N_("Shesh Besh: ⚫ still has a checker on its head (your 12). What do you win?"),
        N_("Right: a koks, 3 points (a mars under the classic rules)."),
        N_("⚫ still has a checker on its head: under Shesh Besh that is a koks, 3 points."),
    ),
    "long.results.home_mars": StepTexts(
        N_(
            "Shesh Besh also counts a home mars: the loser has every checker home but none "
            "borne off: 4 points."
        ),
        N_("Shesh Besh: all of ⚫'s checkers are home, none borne off. What do you win?"),
        N_("Right: a home mars, 4 points."),
        N_("All of ⚫'s checkers are home and none is off: under Shesh Besh a home mars, 4."),
    ),
    "short.basics.hit": StepTexts(
        N_(
            "Short nardy: the sides move towards each other. A lone checker (a blot) can be "
            "hit: it goes to the bar."
        ),
        N_("4-2: hit the ⚫ blot on 9."),
        N_("Right: the hit checker goes to the bar and must come back in from there."),
        N_("13→9 hits the lone ⚫ checker on 9."),
    ),
    "short.basics.point": StepTexts(
        N_("Two or more checkers make a point: the opponent cannot stop there."),
        N_("3-1: make your 5-point."),
        N_("Right: 8→5 and 6→5: the point is closed to ⚫."),
        N_("8→5 with the 3 and 6→5 with the 1 make the 5-point."),
    ),
    "short.bar.enter": StepTexts(
        N_(
            "A checker on the bar must enter first, in ⚫'s home (your 19 to 24): a die of d "
            "enters on 25 minus d."
        ),
        N_("5-3: enter and hit the ⚫ blot."),
        N_("Right: the 3 enters on 22 and hits ⚫'s blot there."),
        N_("The 3 enters on 22, where ⚫'s lone checker stands: that hits it."),
    ),
    "short.bar.closed": StepTexts(
        N_("While a checker waits on the bar, no other checker may move."),
        N_("6-4 with a checker on the bar: what can you play?"),
        N_("Right: nothing. 19 and 21 are ⚫'s points, so the checker cannot enter."),
        N_(
            "Nothing: the 6 would enter on 19 and the 4 on 21, both ⚫'s points, and no "
            "other checker may move meanwhile."
        ),
    ),
    "short.blocks.row": StepTexts(
        N_(
            "Points in a row block ⚫'s checkers behind them; six in a row cannot be passed "
            "at all. Short nardy allows all six."
        ),
        N_("3-2: make five points in a row."),
        N_("Right: 13→10 closes 10, and 10 to 6 are five points in a row."),
        N_("13→10 makes the 10-point: with 9, 8, 7 and 6 that is five in a row."),
    ),
    "short.home.bar": StepTexts(
        N_("You bear off only with all 15 checkers home and none on the bar."),
        N_("2-1 with a checker on the bar: can you bear off?"),
        N_("Right: no. The checker on the bar enters far from home first."),
        N_("No: a checker on the bar must enter and come all the way home first."),
    ),
    "short.home.koks": StepTexts(
        N_(
            "Short nardy counts koks: the loser has borne off nothing and still has a checker "
            "on the bar or in the winner's home: 3 points."
        ),
        N_(
            "You bear off your last checker. ⚫ bore off none and has a checker on your 2. "
            "What do you win?"
        ),
        N_("Right: a koks, 3 points."),
        N_("⚫ bore off nothing and still has a checker in your home: a koks, 3 points."),
    ),
    "short.cube.centred": StepTexts(
        N_(
            "The doubling cube: before your roll you may offer to double while the cube is "
            "in the middle or yours."
        ),
        N_("The cube is in the middle. May you double now?"),
        N_(
            "Right: yes. ⚫ then takes (the game counts double and the cube is ⚫'s) or drops "
            "and loses."
        ),
        N_("Yes: the cube is in the middle, so either side may double before its roll."),
    ),
    "short.cube.owned": StepTexts(
        N_("Whoever takes a double owns the cube: only they may double next."),
        N_("⚫ took your double: the cube shows 2 and is ⚫'s. May you double now?"),
        N_("Right: no. Only ⚫, who owns the cube, may double again."),
        N_("No: the cube is ⚫'s, and only its owner may double."),
    ),
    "short.cube.drop": StepTexts(
        N_(
            "Offered a double, you take or drop. A drop loses the game at the cube's value "
            "before the offer."
        ),
        N_("⚫ offers to double from 1. If you drop, how many points do you lose?"),
        N_("Right: 1 point. A take would play on for 2."),
        N_("A drop costs the cube's value before the offer: 1 point (a take plays on for 2)."),
    ),
    "short.cube.match": StepTexts(
        N_(
            "A match is played to a number of points; each game adds its result times the "
            "cube. The first game after a side comes within one point of the match is played "
            "without the cube."
        ),
        N_(
            "Match to 5, score 2:2. The cube shows 2 and is yours. You win now with a mars: "
            "do you win the match?"
        ),
        N_("Right: a mars is 2 points, times the cube's 2 makes 4: 2 + 4 = 6."),
        N_("Yes: a mars (2) times the cube (2) is 4 points, and 2 + 4 reaches 5."),
    ),
    "other.abkhaz": StepTexts(
        N_(
            "Abkhaz nardy is short nardy with one restriction: a checker that hits in your "
            "own home stays alone that turn, and that turn bears nothing off."
        ),
        N_("Abkhaz nardy, 4-1: hit the ⚫ blot on your 4."),
        N_(
            "Right. In short nardy 8→4 and 5→4 could also close the point; in Abkhaz nardy "
            "the hitter stays alone."
        ),
        N_("8→4 or 5→4 hits the blot on 4; no other checker of yours may then join it."),
    ),
    "other.gulbara": StepTexts(
        N_(
            "Gul-bara is long nardy in which the moves you cannot play pass to your "
            "opponent, and a double played in full rolls again."
        ),
        N_("Gul-bara, 6-4: only the 6 can be played. What becomes of the 4?"),
        N_("Right: ⚫ plays your 4 before its own roll. In long nardy it would be lost."),
        N_(
            "In gul-bara a move you cannot play passes to ⚫, who plays it before its own "
            "roll; in long nardy it is lost."
        ),
    ),
    "other.crazy": StepTexts(
        N_("Crazy gul-bara: a double d-d gives two moves of each value from d up to 6."),
        N_("Crazy gul-bara, 4-4: how many moves do you play?"),
        N_("Right: six: 4, 4, 5, 5, 6, 6."),
        N_("Six: 4-4 gives 4, 4, 5, 5, 6 and 6."),
    ),
}

PLAYABLE_NAMES: Final = {
    Playable.BOTH: N_("Both dice"),
    Playable.HIGH: N_("Only the larger die"),
    Playable.LOW: N_("Only the smaller die"),
    Playable.NONE: N_("Nothing: the turn passes"),
}
YES_NO_NAMES: Final = {YesNo.YES: N_("Yes"), YesNo.NO: N_("No")}
REMAINS_NAMES: Final = {Remains.LOST: N_("It is lost"), Remains.OPPONENT: N_("⚫ plays it")}
HEAD_NAMES: Final = {1: N_("One checker"), 2: N_("Two checkers")}


def option_label(question: Question, option: int, _: Translate) -> str:
    """An ask step's option as its button shows it."""
    if isinstance(question, WhatPlays):
        return _(PLAYABLE_NAMES[Playable(option)])
    if isinstance(question, HeadCount):
        return _(HEAD_NAMES[option])
    if isinstance(question, CanBearOff | MayDouble | WinsMatch):
        return _(YES_NO_NAMES[YesNo(option)])
    if isinstance(question, ResultOf):
        return _(OUTCOME_NAMES[OUTCOMES[option]])
    if isinstance(question, BestRun):
        return _("{count} in a row").format(count=option)
    if isinstance(question, DropCost):
        return points_text(option, _)
    if isinstance(question, WhereItGoes):
        return _(REMAINS_NAMES[Remains(option)])
    if isinstance(question, MoveCount):
        return _("{n} move", "{n} moves", option).format(n=count(option, _))
    raise ValueError(f"no labels for {question!r}")


def lesson_title(lesson: Lesson, _: Translate) -> str:
    return _(LESSON_TITLES[lesson.key])
