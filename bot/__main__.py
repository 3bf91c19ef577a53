"""Entry point: ``python -m bot`` or the ``nardy-bot`` console script."""

from __future__ import annotations

import asyncio
import gc
import logging
import sys
from collections.abc import Callable
from typing import Final

from pydantic import ValidationError
from pydantic_settings import SettingsError

from bot.config import Settings, describe_error
from bot.logs import TEXT_FORMAT, JsonFormatter, LogContext, RedactingFormatter


def configure_logging(settings: Settings) -> None:
    """Sends logs to stderr at ``settings.log_level``, as text or JSON lines
    (``settings.log_format``), each with its update and game ids and the token masked."""
    token = settings.bot_token.get_secret_value()
    handler = logging.StreamHandler(sys.stderr)
    handler.addFilter(LogContext())
    if settings.log_format == "json":
        handler.setFormatter(JsonFormatter(token))
    else:
        handler.setFormatter(RedactingFormatter(TEXT_FORMAT, token))
    logging.basicConfig(level=settings.log_level_number, handlers=[handler], force=True)


def load_settings() -> Settings:
    """Returns the settings, or exits with status 2 and one line on stderr saying what is wrong."""
    try:
        return Settings()  # type: ignore[call-arg]  # pydantic-settings fills the fields
    except ValidationError as error:
        message = describe_error(error)
    except SettingsError as error:
        message = str(error)
    sys.stderr.write(f"config error: {message}\n")
    raise SystemExit(2)


GC_THRESHOLDS: Final = (50_000, 20, 100)
"""Python's cyclic garbage collector looks at the youngest objects every 50,000 allocations
(net of frees), not 700, and at older ones correspondingly less often (see
:func:`tune_garbage_collector`)."""


def tune_garbage_collector() -> None:
    """Sets the garbage collector for a process that makes and drops thousands of small objects
    a tap (aiogram's and pydantic's models of each update and request) on top of some 190,000
    that live as long as it does (aiogram's Bot API types, imported by now). The latter are
    frozen: no collection walks them again. With Python's default thresholds (700, 10, 10)
    the youngest generation was collected 15 times a second under load, 1.2 ms each: with
    the event loop's share of the older ones, 6 % of its CPU. With :data:`GC_THRESHOLDS`
    ``bench/bot_load.py`` over PostgreSQL measured 6 % less bot CPU per tap (the event loop
    9 % less) in 3 interleaved pairs."""
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


def event_loop_factory() -> Callable[[], asyncio.AbstractEventLoop] | None:
    """uvloop's event loop where it is installed (every platform but Windows): asyncio's API
    with its machinery in C (libuv). A tap's database round trips, HTTP requests and task
    switches all pass through it: over PostgreSQL it saved 2.5 % of the bot's CPU per tap in
    ``bench/bot_load.py``. Elsewhere None: asyncio's own loop."""
    try:
        import uvloop
    except ImportError:
        return None
    return uvloop.new_event_loop


def main() -> None:
    """Runs the bot; with a command (``python -m bot backup FILE``, ``restore FILE``,
    ``forget USER_ID``), carries that out instead (:mod:`bot.maintenance`).

    The bot: loads the settings, configures logging and runs until SIGINT or SIGTERM.

    Exit status 0 after a signal, 2 (one line on stderr, the token never in it) when the
    settings are wrong, Telegram refuses the token or the webhook, the port cannot be opened,
    or the database was migrated by a newer release or with a migration since edited.
    An unreachable Telegram is waited for.
    """
    if len(sys.argv) > 1:
        from bot.maintenance import main as maintain

        maintain(sys.argv[1:])
    settings = load_settings()
    configure_logging(settings)
    # Imported only now: aiogram takes seconds to import, and a config error should not wait.
    from aiogram.utils.token import TokenValidationError

    from bot.app import run
    from bot.http_server import CannotListen
    from bot.outbox.link import TokenRefused
    from bot.runners import WebhookRefused
    from bot.storage import MigrationChanged, SchemaTooNew

    tune_garbage_collector()
    try:
        with asyncio.Runner(loop_factory=event_loop_factory()) as runner:
            runner.run(run(settings))
    except (TokenRefused, TokenValidationError) as error:
        status = error.status if isinstance(error, TokenRefused) else "malformed"
        wrong_server = settings.telegram_api_url and "404" in status  # or not a Bot API there
        hint = ", or check TELEGRAM_API_URL" if wrong_server else ""
        sys.stderr.write(
            f"error: Telegram refused BOT_TOKEN ({status}); get a new token from @BotFather{hint}\n"
        )
        raise SystemExit(2) from None
    except WebhookRefused as error:
        sys.stderr.write(f"error: Telegram refused WEBHOOK_URL ({error}); check WEBHOOK_URL\n")
        raise SystemExit(2) from None
    except CannotListen as error:
        sys.stderr.write(f"error: cannot listen on {error}; check WEBHOOK_HOST and WEBHOOK_PORT\n")
        raise SystemExit(2) from None
    except (SchemaTooNew, MigrationChanged) as error:
        sys.stderr.write(f"error: the database refused by this release: {error}\n")
        raise SystemExit(2) from None
    except KeyboardInterrupt:  # before run() took over SIGINT
        pass


if __name__ == "__main__":
    main()
