"""The views: what every message of the bot shows (texts, keyboards, the pictures' options), as
pure functions of domain values and ``_`` (the reader's gettext). They send nothing."""
