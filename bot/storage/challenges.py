"""Challenges: open invitations to play, with optimistic versions, the terms of each version,
and the messages that show them."""

from __future__ import annotations

from dataclasses import replace

from bot.engine import DiceMode, Position, StakeMode
from bot.model import Challenge, ChallengeMessage, ChallengeStatus, Terms

from .database import Database, Row, VersionConflict

_KEEP_TERMS = """INSERT INTO challenge_terms
        SELECT id, version, target_id, variant, rule_set, move_seconds, match_length, cube,
               stake, stake_mode, dice_mode, hints, watchable, training
        FROM challenges WHERE id = ?
    ON CONFLICT (challenge_id, version) DO NOTHING"""
"""Keeps a challenge's terms as they are now, under its version (see :meth:`at_version`)."""


class ChallengeRepository:
    """Challenges, with the same optimistic versioning as games; the terms of every version
    are kept, so that a button drawn for one can be told what changed since."""

    def __init__(self, store: Database) -> None:
        self._store = store

    async def create(
        self,
        *,
        chat_id: int,
        challenger_id: int,
        target_id: int | None,
        target_username: str | None,
        terms: Terms,
        locale: str,
        expires_at: float,
        now: float,
        inline_message_id: str | None = None,
        dice_seed: bytes | None = None,
    ) -> Challenge:
        """Stores a new open challenge on ``terms`` (settled: they name the rule set and the
        move time) and returns it (``dice_seed``: the secret seed of the game it will start,
        whose commitment the challenge shows).

        :raises: :exc:`IntegrityError` if another challenge has ``inline_message_id``.
        """
        async with self._store.transaction():
            challenge_id = await self._store.insert(
                """INSERT INTO challenges (chat_id, challenger_id, target_id,
                           target_username, variant, rule_set, move_seconds, locale, status,
                           expires_at, created_at, match_length, cube, stake, stake_mode,
                           dice_mode, hints, inline_message_id, dice_seed, watchable, start,
                           training)
                       VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'open', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,
                               ?)
                       RETURNING id""",
                (
                    chat_id,
                    challenger_id,
                    target_id,
                    target_username,
                    terms.variant,
                    terms.rule_set,
                    terms.move_seconds,
                    locale,
                    expires_at,
                    now,
                    terms.match_length,
                    int(terms.cube),
                    terms.stake,
                    terms.stake_mode.value,
                    terms.dice_mode.value,
                    int(terms.hints),
                    inline_message_id,
                    dice_seed.hex() if dice_seed is not None else None,
                    int(terms.watchable),
                    terms.start.to_text() if terms.start is not None else None,
                    int(terms.training),
                ),
            )
            await self._store.write(_KEEP_TERMS, (challenge_id,))
        found = await self.get(challenge_id)
        assert found is not None
        return found

    async def get(self, challenge_id: int) -> Challenge | None:
        """Returns the challenge, if it exists."""
        row = await self._store.fetch_one("SELECT * FROM challenges WHERE id = ?", (challenge_id,))
        return _challenge(row) if row else None

    async def by_inline_message(self, inline_message_id: str) -> Challenge | None:
        """Returns the challenge shown by that inline message, if there is one."""
        row = await self._store.fetch_one(
            "SELECT * FROM challenges WHERE inline_message_id = ?", (inline_message_id,)
        )
        return _challenge(row) if row else None

    async def save(self, challenge: Challenge, *, expected_version: int) -> Challenge:
        """Writes ``challenge`` if nobody changed it since ``expected_version``, and keeps the
        terms of its new version.

        :raises: :exc:`VersionConflict` otherwise.
        """
        terms = challenge.terms
        async with self._store.transaction():
            changed = await self._store.write(
                """UPDATE challenges SET target_id = ?, variant = ?,
                           rule_set = ?, move_seconds = ?, status = ?, game_id = ?,
                           match_length = ?, cube = ?, stake = ?, stake_mode = ?, dice_mode = ?,
                           hints = ?, watchable = ?, training = ?, version = version + 1
                       WHERE id = ? AND version = ?""",
                (
                    challenge.target_id,
                    terms.variant,
                    terms.rule_set,
                    terms.move_seconds,
                    challenge.status.value,
                    challenge.game_id,
                    terms.match_length,
                    int(terms.cube),
                    terms.stake,
                    terms.stake_mode.value,
                    terms.dice_mode.value,
                    int(terms.hints),
                    int(terms.watchable),
                    int(terms.training),
                    challenge.id,
                    expected_version,
                ),
            )
            if changed != 1:
                raise VersionConflict(f"challenge {challenge.id} changed")
            if challenge.is_open:
                await self._store.write(_KEEP_TERMS, (challenge.id,))
        found = await self.get(challenge.id)
        assert found is not None
        return found

    async def at_version(self, challenge: Challenge, version: int) -> Challenge | None:
        """``challenge`` with the terms it offered at ``version`` (None for a version it never
        had open: a forged one)."""
        row = await self._store.fetch_one(
            "SELECT * FROM challenge_terms WHERE challenge_id = ? AND version = ?",
            (challenge.id, version),
        )
        if row is None:
            return None
        return replace(
            challenge,
            version=version,
            target_id=row["target_id"],
            terms=_terms(row, challenge.terms.start),
        )

    async def show(
        self, challenge_id: int, chat_id: int, message_id: int | None, locale: str
    ) -> None:
        """Records that ``message_id`` in ``chat_id`` shows the challenge, written in
        ``locale`` (None: a message is being sent there): the one message of it in that chat
        (an earlier one there no longer counts). No version change: its buttons, already
        drawn, stay valid."""
        await self._store.write(
            """INSERT INTO challenge_messages (challenge_id, chat_id, message_id, locale)
                   VALUES (?, ?, ?, ?)
               ON CONFLICT (challenge_id, chat_id) DO UPDATE
                   SET message_id = excluded.message_id, locale = excluded.locale""",
            (challenge_id, chat_id, message_id, locale),
        )

    async def shown_by(self, chat_id: int, message_id: int) -> int | None:
        """The challenge that message ``message_id`` in ``chat_id`` shows, if any."""
        row = await self._store.fetch_one(
            "SELECT challenge_id FROM challenge_messages WHERE chat_id = ? AND message_id = ?",
            (chat_id, message_id),
        )
        return int(row["challenge_id"]) if row else None

    async def messages(self, challenge_id: int) -> list[ChallengeMessage]:
        """The messages that show the challenge, by chat."""
        rows = await self._store.fetch_all(
            "SELECT * FROM challenge_messages WHERE challenge_id = ? ORDER BY chat_id",
            (challenge_id,),
        )
        return [
            ChallengeMessage(row["challenge_id"], row["chat_id"], row["message_id"], row["locale"])
            for row in rows
        ]

    async def pending_invitation(
        self, challenger_id: int, *, target_id: int | None, target_username: str | None, now: float
    ) -> Challenge | None:
        """The challenger's latest open challenge, not yet run out at ``now``, to the user
        ``target_id`` or to the (lowercase) ``target_username`` it was made to; None if none."""
        row = await self._store.fetch_one(
            """SELECT * FROM challenges
               WHERE status = 'open' AND expires_at > ? AND challenger_id = ?
                 AND (target_id = ? OR target_username = ?)
               ORDER BY id DESC LIMIT 1""",
            (now, challenger_id, target_id, target_username),
        )
        return _challenge(row) if row is not None else None

    async def open_by(self, challenger_id: int, now: float) -> list[Challenge]:
        """The user's challenges still open."""
        rows = await self._store.fetch_all(
            """SELECT * FROM challenges
               WHERE challenger_id = ? AND status = 'open' AND expires_at > ? ORDER BY id""",
            (challenger_id, now),
        )
        return [_challenge(row) for row in rows]

    async def expired(self, now: float) -> list[Challenge]:
        """Open challenges whose time is up."""
        rows = await self._store.fetch_all(
            "SELECT * FROM challenges WHERE status = 'open' AND expires_at <= ?", (now,)
        )
        return [_challenge(row) for row in rows]


def _challenge(row: Row) -> Challenge:
    return Challenge(
        id=row["id"],
        chat_id=row["chat_id"],
        challenger_id=row["challenger_id"],
        target_id=row["target_id"],
        target_username=row["target_username"],
        terms=_terms(row, Position.from_text(row["start"]) if row["start"] else None),
        locale=row["locale"],
        status=ChallengeStatus(row["status"]),
        expires_at=row["expires_at"],
        game_id=row["game_id"],
        version=row["version"],
        inline_message_id=row["inline_message_id"],
        dice_seed=bytes.fromhex(row["dice_seed"]) if row["dice_seed"] else None,
    )


def _terms(row: Row, start: Position | None) -> Terms:
    """The terms of a challenge (or of one of its versions) in a row; ``start`` is the
    challenge's (no version changes it)."""
    return Terms(
        variant=row["variant"],
        rule_set=row["rule_set"],
        move_seconds=row["move_seconds"],
        match_length=row["match_length"],
        cube=bool(row["cube"]),
        stake=row["stake"],
        stake_mode=StakeMode(row["stake_mode"]),
        dice_mode=DiceMode(row["dice_mode"]),
        hints=bool(row["hints"]),
        watchable=bool(row["watchable"]),
        start=start,
        training=bool(row["training"]),
    )
