"""Drawing a position: :class:`BoardView` options and :func:`render_board`."""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from typing import Final

from PIL import Image

from bot.engine import BAR, OFF, Dice, Point, Position, Side, Step, steps_text

from . import _sprites, _text, _tiles
from ._canvas import Canvas
from .layout import BIG_DICE, CubePlace, Layout, cube_place, is_top, layout, viewer_point
from .theme import DEFAULT_THEME, RGB, Theme

IMAGE_FORMAT: Final = "JPEG"
"""The format :func:`render_board` writes (Pillow's name)."""
FILE_NAME: Final = "board.jpg"
"""A file name for the bytes :func:`render_board` returns, e.g. for ``BufferedInputFile``."""
MIME_TYPE: Final = "image/jpeg"
MAX_MOVES: Final = 24
"""The longest move list drawn: crazy gul-bara's 1-1 with four moves of each value."""
CUBE_VALUES: Final = (1, 2, 4, 8, 16, 32, 64)
"""The values the doubling cube may have; its faces show 2..64, and 64 stands for 1."""


@dataclass(frozen=True, slots=True)
class BoardView:
    """What to draw besides the checkers: perspective, dice, marks, names and the result.

    Points in ``selected`` and ``destinations`` are in the numbering of the side to move
    (``position.turn``); ``last_steps`` are in the numbering of ``last_side``. Render draws what
    it is given and checks no rule.

    :param bottom: the side drawn nearer the viewer; point numbers are printed in its numbering.
    :param dice: the roll to show, in the half of the side to move: two or three dice (a double
        shows four, a triple six); ``None`` shows no dice.
    :param dice_used: the moves already played, drawn greyed: either how many (the first ones
        of the moves shown), or the die values played, e.g. ``(5,)`` for a 5-2 whose 5 is
        played (the first moves of each value are greyed, so a cascade greys from its start).
    :param last_steps: the steps of the last turn: the places the checkers left are drawn as faded
        outlines, the checkers that arrived get a dot, and the move text is shown by the name.
    :param last_side: who made ``last_steps``; ``None`` means the side not to move.
    :param selected: the point (25 = the bar) of the checker picked during input.
    :param destinations: the points (0 = bear off) the picked checker may go to.
    :param white_name: white's player name; any text, what the font lacks is left out.
    :param black_name: black's player name.
    :param result: a caption over the board when the game is over, e.g. "White wins — mars ×2";
        no turn marker is drawn then.
    :param pip_label: the word before each side's pip count.
    :param cube: the doubling cube's value, one of :data:`CUBE_VALUES`; ``None`` means no cube
        in this game, and none is drawn. The cube lies on the bar and shows its value, or 64
        for 1, as a real cube does.
    :param cube_owner: who owns the cube: it lies at the owner's edge of the bar, and hit
        checkers in that half of the bar make room for it; ``None`` means nobody owns it yet,
        and it lies in the middle of the bar.
    :param cube_offered: the side to move has just offered to double: the cube shows twice
        ``cube`` with an outline, in the dice strip of the mover's half (beside the dice, if
        any are shown), and not on the bar.
    :param moves: the moves to show instead of the plain moves of ``dice``: crazy gul-bara's
        cascade (``(3, 3, 4, 4, 5, 5, 6, 6)`` for a 3-3), or a remainder being played (then
        ``dice`` is ``None``); up to six are drawn as dice, more (up to 24) as a row or two of
        small dice. Empty: the moves of ``dice``.
    :param struck: the value the opponent struck from three dice (anti three dice): drawn
        after the two ``dice`` left, greyed and crossed out.
    :param dice_label: a short text by the dice, in the other half's dice strip, e.g.
        "Remainder from Bob" or "Chain roll 2"; any text, what the font lacks is left out.
    :param match_label: a line about the match, e.g. "Match to 7 · 3:2", on a plate in the
        middle of the top info band (further left if that side's pips and moves reach the
        middle); any text, what the font lacks is left out, and the top side's name is cut to
        make room for it.
    :param arrows: turns of the side to move drawn as arrows over the board, each step from
        the checker that leaves to the place it lands (the stacks followed as the turn changes
        them), in the theme's :attr:`~render.theme.Theme.arrows` colours in order (a worst move:
        the turn played, then the better one); a second turn's arrows bend the other way, so a
        step both make shows twice. Points in the numbering of the side to move.
    :param theme: sizes, colours and fonts.
    """

    bottom: Side = Side.WHITE
    dice: Dice | None = None
    dice_used: int | tuple[int, ...] = 0
    last_steps: tuple[Step, ...] = ()
    last_side: Side | None = None
    selected: Point | None = None
    destinations: tuple[Point, ...] = ()
    white_name: str = ""
    black_name: str = ""
    result: str | None = None
    pip_label: str = "pips"
    cube: int | None = None
    cube_owner: Side | None = None
    cube_offered: bool = False
    match_label: str | None = None
    moves: tuple[int, ...] = ()
    struck: int | None = None
    dice_label: str | None = None
    arrows: tuple[tuple[Step, ...], ...] = ()
    theme: Theme = DEFAULT_THEME

    def __post_init__(self) -> None:
        # Accept lists from callers, keep the view hashable.
        for name in ("last_steps", "destinations", "dice_used", "moves"):
            value = getattr(self, name)
            if isinstance(value, list):
                object.__setattr__(self, name, tuple(value))
        object.__setattr__(self, "arrows", tuple(tuple(turn) for turn in self.arrows))
        if any(not OFF <= p <= BAR for turn in self.arrows for s in turn for p in (s.src, s.dst)):
            raise ValueError(f"arrows go between points 0..25: {self.arrows!r}")
        if self.selected is not None and not 1 <= self.selected <= BAR:
            raise ValueError(f"selected is a point 1..24 or 25 (bar), not {self.selected!r}")
        if any(not OFF <= p <= 24 for p in self.destinations):
            raise ValueError(f"destinations are points 1..24 or 0 (off): {self.destinations!r}")
        if len(self.moves) > MAX_MOVES or any(
            type(v) is not int or not 1 <= v <= 6 for v in self.moves
        ):
            raise ValueError(f"moves are up to {MAX_MOVES} values 1..6, not {self.moves!r}")
        if self.struck is not None:
            if type(self.struck) is not int or not 1 <= self.struck <= 6:
                raise ValueError(f"a struck die shows 1..6, not {self.struck!r}")
            if self.dice is None or self.dice.third is not None:
                raise ValueError("a struck die is drawn after the two dice left: give them")
        self.spent()
        self.cube_face()

    def shown(self) -> tuple[int, ...]:
        """Returns the moves drawn as dice: :attr:`moves`, or the moves of :attr:`dice`."""
        if self.moves:
            return self.moves
        return self.dice.moves if self.dice is not None else ()

    def cube_face(self) -> int | None:
        """Returns the number the cube shows, or ``None`` if no cube is drawn.

        :raises: :exc:`ValueError` if :attr:`cube` is no cube value, or if an owner or an
            offer is given without a cube, or an offer beyond 64.
        """
        cube = self.cube
        if cube is None:
            if self.cube_owner is not None or self.cube_offered:
                raise ValueError("cube_owner or cube_offered is given but no cube")
            return None
        if isinstance(cube, bool) or cube not in CUBE_VALUES:
            raise ValueError(f"the cube is one of {CUBE_VALUES}, not {cube!r}")
        if self.cube_offered:
            if cube == CUBE_VALUES[-1]:
                raise ValueError(f"a cube of {cube} cannot be doubled")
            return 2 * cube
        return CUBE_VALUES[-1] if cube == 1 else cube

    def name(self, side: Side) -> str:
        """Returns the name given for ``side``."""
        return self.white_name if side is Side.WHITE else self.black_name

    def spent(self) -> tuple[bool, ...]:
        """Returns, for each move of :meth:`shown`, whether it is played.

        :raises: :exc:`ValueError` if :attr:`dice_used` does not fit the moves shown.
        """
        moves = self.shown()
        used = self.dice_used
        if not moves:
            if used not in (0, ()):
                raise ValueError("dice_used is given but no dice")
            return ()
        what = str(self.dice) if not self.moves else ",".join(map(str, moves))
        if isinstance(used, int):
            if not 0 <= used <= len(moves):
                raise ValueError(f"{used} of the {len(moves)} moves of {what} cannot be used")
            return tuple(i < used for i in range(len(moves)))
        left = list(used)
        flags = []
        for value in moves:
            flags.append(value in left)
            if value in left:
                left.remove(value)
        if left:
            raise ValueError(f"dice_used {used!r} are not moves of {what}")
        return tuple(flags)


def render_board(position: Position, *, view: BoardView | None = None) -> bytes:
    """Returns the board image of ``position`` as JPEG bytes (see :data:`IMAGE_FORMAT`).

    Pure and synchronous: the same position and view give the same bytes, and it may run in
    worker threads at once (``await asyncio.to_thread(render_board, position, view=view)``).
    Only the tiles of the picture that no board drawn lately had the same are drawn and
    encoded (:mod:`render._tiles`): the bytes are the same either way.
    """
    view = view or BoardView()
    return _tiles.encode(board_canvas(position, view), view.theme.jpeg_quality)


def render_image(position: Position, *, view: BoardView | None = None) -> Image.Image:
    """Returns the board image of ``position`` as a new RGB :class:`PIL.Image.Image`."""
    return board_canvas(position, view or BoardView()).draw()


def board_canvas(position: Position, view: BoardView) -> Canvas:
    """Returns the board of ``position`` as pastes on the theme's background, not yet drawn."""
    return _Painter(position, view).paint()


class _Painter:
    """One board being drawn: the per-call parts recorded as pastes on the cached background."""

    def __init__(self, position: Position, view: BoardView) -> None:
        self.position = position
        self.view = view
        self.theme = view.theme
        self.geo: Layout = layout(view.theme)
        self.canvas = Canvas(_sprites.background(view.theme))
        self.mover = position.turn
        self.last_side = view.last_side or position.turn.other
        self.tinted: set[Point] = set()
        self.cube: CubePlace | None = None
        if view.cube is not None:
            self.cube = cube_place(view.bottom, self.mover, view.cube_owner, view.cube_offered)
        self.marks: list[tuple[Image.Image, tuple[int, int]]] = []
        """Dots and rings, pasted after every checker so that no column covers them."""

    def _viewer(self, side: Side, point: Point) -> Point:
        return viewer_point(self.position.variant, side, point, self.view.bottom)

    def paint(self) -> Canvas:
        ghosts, arrivals = self._last_turn()
        destinations = {self._viewer(self.mover, p) for p in self.view.destinations}
        selected = None
        if self.view.selected is not None:
            selected = self._viewer(self.mover, self.view.selected)
        self.tinted = destinations | ({selected} if selected is not None else set())
        self._tints(destinations, selected)
        occupants: dict[Point, tuple[Side, int]] = {}
        for side in (Side.WHITE, Side.BLACK):
            checkers = self.position.checkers(side)
            for point in range(1, 25):
                if checkers[point]:
                    occupants[self._viewer(side, point)] = (side, checkers[point])
        for point in range(1, 25):
            side, count = occupants.get(point, (self.mover, 0))
            self._column(
                point,
                side,
                count,
                ghosts=ghosts.get(point, 0),
                arrived=arrivals.get(point, 0) if side is self.last_side else 0,
                selected=point == selected,
                target=point in destinations,
            )
        self._bar(ghosts.get(BAR, 0), selected == BAR)
        for sprite, xy in self.marks:
            self._paste(sprite, xy)
        self._trays(arrivals.get(OFF, 0))
        self._dice()
        self._cube()
        self._arrows()
        for side in (Side.WHITE, Side.BLACK):
            self._info(side)
        if self.view.result:
            self._result(self.view.result)
        return self.canvas

    def _last_turn(self) -> tuple[Counter[Point], Counter[Point]]:
        """Returns, in viewer points, how many checkers of the last turn left each place for
        good (the bar is 25) and how many arrived on each (off is 0)."""
        net: Counter[Point] = Counter()
        for step in self.view.last_steps:
            net[self._viewer(self.last_side, step.src)] += 1
            net[self._viewer(self.last_side, step.dst)] -= 1
        ghosts = Counter({p: n for p, n in net.items() if n > 0})
        arrivals = Counter({p: -n for p, n in net.items() if n < 0})
        return ghosts, arrivals

    def _arrows(self) -> None:
        """Draws :attr:`BoardView.arrows` (see there)."""
        colours = self.theme.arrows
        for index, steps in enumerate(self.view.arrows):
            own = list(self.position.checkers(self.mover))
            for step in steps:
                start = self._place(step.src, own[step.src] - 1, own[step.src])
                own[step.src] -= 1
                if step.hit:
                    end = self._place(step.dst, 0, 1)
                else:
                    end = self._place(step.dst, own[step.dst], own[step.dst] + 1)
                own[step.dst] += 1
                sprite, corner = _sprites.arrow(
                    self.theme, start, end, self._bend(start, end, index), colours[index % 2]
                )
                self.canvas.paste(sprite, corner, sprite)

    def _bend(self, start: tuple[int, int], end: tuple[int, int], index: int) -> int:
        """How far the arrow of turn ``index`` from ``start`` to ``end`` bends to the left of
        its way: within one half of the board towards the middle (over the field rather than
        the frame), the second turn twice as far; across the middle to the left for the first
        turn, to the right for the second."""
        length = math.hypot(end[0] - start[0], end[1] - start[1])
        bend = round(max(self.theme.checker * 0.3, length * 0.15))
        middle = self.geo.middle
        if (start[1] - middle) * (end[1] - middle) > 0:
            left_y = end[0] - start[0]  # the left of the way points down where this is > 0
            towards = middle - (start[1] + end[1]) / 2
            return bend * (index + 1) * (1 if left_y * towards >= 0 else -1)
        return bend if index % 2 == 0 else -bend

    def _place(self, point: Point, index: int, stack: int) -> tuple[int, int]:
        """The centre of checker ``index`` of a stack of ``stack`` of the side to move on its
        ``point``: on the bar (25), on the board, or the middle of its tray (off, 0)."""
        geo = self.geo
        if point == OFF:
            box = geo.tray_box(top=self.mover is not self.view.bottom)
            return ((box[0] + box[2]) // 2, (box[1] + box[3]) // 2)
        if point == BAR:
            return geo.bar_xy(self.mover is self.view.bottom, max(index, 0), max(stack, 1))
        return geo.checker_xy(self._viewer(self.mover, point), max(index, 0), max(stack, 1))

    def _paste(self, sprite: Image.Image, centre: tuple[int, int]) -> None:
        x = centre[0] - sprite.width // 2
        y = centre[1] - sprite.height // 2
        self.canvas.paste(sprite, (x, y), sprite)

    def _tints(self, destinations: set[Point], selected: Point | None) -> None:
        theme, geo = self.theme, self.geo
        for point in sorted(destinations - {OFF}):
            box = geo.point_box(point)
            tint = _sprites.point_tint(theme, is_top(point), theme.destination)
            self.canvas.paste(tint, box[:2], tint)
        if OFF in destinations:
            box = geo.tray_box(top=self.mover is not self.view.bottom)
            tint = _sprites.box_tint(theme, (box[2] - box[0], box[3] - box[1]), theme.destination)
            self.canvas.paste(tint, box[:2], tint)
        if selected is not None and selected != BAR:
            box = geo.point_box(selected)
            colour = (*theme.selected[:3], 70)
            tint = _sprites.point_tint(theme, is_top(selected), colour)
            self.canvas.paste(tint, box[:2], tint)

    def _column(
        self,
        point: Point,
        side: Side,
        count: int,
        *,
        ghosts: int,
        arrived: int,
        selected: bool,
        target: bool,
    ) -> None:
        # A target on a lone opponent checker (a hit in short nardy) rings that checker.
        hit_target = target and count > 0 and side is not self.mover
        stack = count + ghosts + (1 if target and not hit_target else 0)
        if not stack:
            return
        line = self.geo.stack_line(point, stack)
        self._ghosts(line, count, ghosts)
        bare = not ghosts and point not in self.tinted
        self._stack(side, line, count, arrived, selected, bare=bare)
        if target:
            x, y, dy = line
            self.marks.append((self._target(), (x, y if hit_target else y + (stack - 1) * dy)))

    def _ghosts(self, line: tuple[int, int, int], start: int, count: int) -> None:
        x, y, dy = line
        for i in range(start, start + count):
            self._paste(_sprites.ghost(self.theme, self.last_side), (x, y + i * dy))

    def _stack(
        self,
        side: Side,
        line: tuple[int, int, int],
        count: int,
        arrived: int,
        selected: bool,
        *,
        bare: bool,
    ) -> None:
        """Draws ``count`` of ``side``'s checkers along ``line`` with their marks; ``bare`` says
        that nothing has been drawn under them yet."""
        if not count:
            return
        theme = self.theme
        x, y, dy = line
        sprite = _sprites.column(theme, side, count, abs(dy), dy > 0)
        single = _sprites.checker(theme, side).width
        corner = (
            x - single // 2 + (single - sprite.width) // 2,
            min(y, y + (count - 1) * dy) - single // 2,
        )
        if bare:
            patch = _sprites.column_on_board(theme, side, count, abs(dy), dy > 0, corner)
            self.canvas.paste(patch, corner)
        else:
            self.canvas.paste(sprite, corner, sprite)
        last = (x, y + (count - 1) * dy)
        if count > theme.full_stack:
            _text.draw(
                self.canvas,
                last,
                str(count),
                path=theme.font_bold,
                size=theme.checker * 2 // 5,
                fill=_sprites.label_colour(theme, side),
                anchor="mm",
            )
            if arrived:
                # The count covers the top checker and the others are hidden: ring the stack.
                self.marks.append((_sprites.ring(theme, (*theme.last_to, 255), 1.0, 0.08), last))
        else:
            for i in range(count - min(arrived, count), count):
                self.marks.append((_sprites.dot(theme, theme.last_to), (x, y + i * dy)))
        if selected:
            self.marks.append((_sprites.ring(theme, theme.selected, 1.16, 0.07), last))

    def _target(self) -> Image.Image:
        return _sprites.ring(self.theme, self.theme.target, 1.0, 0.09)

    def _bar(self, ghosts: int, selected: bool) -> None:
        for side in (Side.WHITE, Side.BLACK):
            count = self.position.checkers(side)[BAR]
            extra = ghosts if side is self.last_side else 0
            if not count + extra:
                continue
            top = side is self.view.bottom
            cube = self.cube == ("top" if top else "bottom")
            line = self.geo.bar_line(top, count + extra, cube)
            self._ghosts(line, count, extra)
            self._stack(side, line, count, 0, selected and side is self.mover, bare=not extra)

    def _trays(self, arrived: int) -> None:
        theme, geo = self.theme, self.geo
        for side in (Side.WHITE, Side.BLACK):
            top = side is not self.view.bottom
            count = self.position.borne_off(side)
            sprite = _sprites.slab(theme, side)
            for i in range(count):
                self.canvas.paste(sprite, geo.tray_slab(top, i)[:2], sprite)
            if side is self.last_side:
                for i in range(max(count - arrived, 0), count):
                    box = geo.tray_slab(top, i)
                    self._paste(
                        _sprites.dot(theme, theme.last_to, small=True),
                        ((box[0] + box[2]) // 2, (box[1] + box[3]) // 2),
                    )
            if count:
                _text.draw(
                    self.canvas,
                    geo.tray_count_xy(top),
                    str(count),
                    path=theme.font_bold,
                    size=theme.gap * 2 // 5,
                    fill=theme.number,
                    anchor="mm",
                )

    def _dice(self) -> None:
        view = self.view
        moves = view.shown()
        spent = view.spent()
        right = self.mover is view.bottom
        theme = self.theme
        if len(moves) > BIG_DICE:
            for value, used, xy in zip(
                moves, spent, self.geo.small_dice_xy(len(moves), right), strict=True
            ):
                self._paste(_sprites.die(theme, value, used, small=True), xy)
        elif moves:
            count = len(moves) + (view.struck is not None)
            places = self.geo.dice_xy(count, right)
            for value, used, xy in zip(moves, spent, places, strict=False):
                self._paste(_sprites.die(theme, value, used), xy)
            if view.struck is not None:
                self._paste(_sprites.struck_die(theme, view.struck), places[-1])
        if view.dice_label:
            self._dice_label(view.dice_label, not right)

    def _dice_label(self, label: str, right: bool) -> None:
        """Draws ``label`` on a plate in the dice strip of the right or the left half."""
        theme = self.theme
        size = theme.gap // 3
        pad = size * 2 // 3
        half = self.geo.half_box(right)
        text = _text.printable(label, theme.font_bold)
        text = _text.fit(text, theme.font_bold, size, half[2] - half[0] - 2 * pad - 16)
        if not text:
            return
        width = _text.mask(text, theme.font_bold, size, "mm")[0].width + 2 * pad
        centre = self.geo.label_xy(right)
        self._paste(_sprites.plate(theme, (width, size + pad)), centre)
        _text.draw(
            self.canvas, centre, text, path=theme.font_bold, size=size, fill=theme.text, anchor="mm"
        )

    def _dice_count(self) -> int:
        """How many full-size dice places the dice strip of the mover's half uses."""
        moves = self.view.shown()
        if len(moves) > BIG_DICE:
            return BIG_DICE
        return len(moves) + (self.view.struck is not None)

    def _cube(self) -> None:
        face = self.view.cube_face()
        if self.cube is None or face is None:
            return
        sprite = _sprites.cube(self.theme, face, self.view.cube_offered)
        self._paste(sprite, self.geo.cube_xy(self.cube, self._dice_count()))

    def _info(self, side: Side) -> None:
        theme, geo = self.theme, self.geo
        top = side is not self.view.bottom
        left, upper, right, lower = geo.info_box(top)
        y = (upper + lower) // 2
        moving = side is self.mover and not self.view.result
        icon = _sprites.icon(theme, side)
        icon_x = left + 22 + icon.width // 2
        if moving:
            marker = _sprites.ring(theme, (*theme.turn_marker, 255), 0.62, 0.1)
            self._paste(marker, (icon_x, y))
            self.canvas.paste(theme.turn_marker, (left, upper + 8, left + 6, lower - 8))
        self._paste(icon, (icon_x, y))
        size = theme.info_height * 9 // 20
        pips = f"{_text.printable(self.view.pip_label, theme.font_regular)} "
        pips += str(self.position.pip_count(side))
        end = self._info_text(pips, right - 24, y, theme.text)
        if self.view.last_steps and side is self.last_side:
            end = self._info_text(steps_text(self.view.last_steps), end, y, theme.text_dim)
        name_x = icon_x + icon.width // 2 + 18
        if top and self.view.match_label:
            end = self._match_label(self.view.match_label, (left + right) // 2, y, end)
        name = _text.printable(self.view.name(side), theme.font_bold)
        name = _text.fit(name, theme.font_bold, size, end - name_x)
        _text.draw(
            self.canvas,
            (name_x, y),
            name,
            path=theme.font_bold,
            size=size,
            fill=theme.text if moving or self.view.result else theme.text_dim,
            anchor="lm",
        )

    def _info_text(self, text: str, end: int, y: int, fill: RGB) -> int:
        """Draws ``text`` in the info band ending at ``end``; returns where the next text to
        its left must end."""
        theme = self.theme
        size = theme.info_height // 3
        _text.draw(
            self.canvas, (end, y), text, path=theme.font_regular, size=size, fill=fill, anchor="rm"
        )
        return end - _text.mask(text, theme.font_regular, size, "rm")[0].width - 36

    def _match_label(self, label: str, centre: int, y: int, end: int) -> int:
        """Draws ``label`` on a plate centred at ``centre`` or, if the text on the right would
        reach it, just left of ``end``; returns where the name must end."""
        theme = self.theme
        size = theme.info_height // 3
        pad = size * 3 // 4
        text = _text.printable(label, theme.font_regular)
        text = _text.fit(text, theme.font_regular, size, self.geo.width // 3)
        if not text:
            return end
        width = _text.mask(text, theme.font_regular, size, "mm")[0].width + 2 * pad
        height = size + pad
        right = min(centre + (width + 1) // 2, end)
        centre = right - (width + 1) // 2
        self._paste(_sprites.plate(theme, (width, height)), (centre, y))
        _text.draw(
            self.canvas,
            (centre, y),
            text,
            path=theme.font_regular,
            size=size,
            fill=theme.text,
            anchor="mm",
        )
        return right - width - 36

    def _result(self, result: str) -> None:
        theme, geo = self.theme, self.geo
        field = geo.field_box
        width = (field[2] - field[0]) * 4 // 5
        height = theme.checker * 3 // 2
        sprite = _sprites.banner(theme, (width, height))
        centre = ((field[0] + field[2]) // 2, geo.middle)
        self._paste(sprite, centre)
        size = height * 2 // 5
        text = _text.printable(result, theme.font_bold)
        text = _text.fit(text, theme.font_bold, size, width - 48)
        _text.draw(
            self.canvas, centre, text, path=theme.font_bold, size=size, fill=theme.text, anchor="mm"
        )
