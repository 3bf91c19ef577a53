"""The messages: what the bot sends and keeps in step (boards, inline boards, the league's table,
analysis reports, challenges, replays), within Telegram's limits (:mod:`.pace`), over the link to
Telegram (:mod:`.link`)."""
