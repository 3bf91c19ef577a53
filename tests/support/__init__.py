"""Test tools for the bot: a fake Telegram Bot API server and a harness that runs the real bot."""
