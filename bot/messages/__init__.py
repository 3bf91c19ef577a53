"""The messages: what the bot sends and keeps in step (boards, inline boards, the league's table,
analysis reports, challenges, replays), each kept in place by :mod:`.kept`, within Telegram's
limits (:mod:`.pace`), over the link to Telegram (:mod:`.link`); and what Telegram says of the
users a message names and of a group's members (:mod:`.members`)."""
