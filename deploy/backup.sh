#!/bin/sh
# compose.yaml's `backup` service (in the postgres image, whose pg_dump matches the server):
# a pg_dump of the bot's database every BACKUP_EVERY_HOURS (6) into /backups (or BACKUP_DIR),
# named by its UTC time, written beside and renamed when whole; dumps older than
# BACKUP_KEEP_DAYS (14) are deleted, never the newest. `sh /backup.sh once` makes one now and stops. Restore one with
# `python -m bot restore FILE` (docs/operations.md).
set -u
dir=${BACKUP_DIR:-/backups}
every=$(( ${BACKUP_EVERY_HOURS:-6} * 3600 ))
keep=${BACKUP_KEEP_DAYS:-14}
until pg_isready -q; do sleep 2; done
while :; do
    name="$dir/nardy-$(date -u +%Y%m%d-%H%M%S).dump"
    if pg_dump --format=custom --file="$name.partial" && mv "$name.partial" "$name"; then
        echo "backup: $name ($(wc -c < "$name") bytes)"
        find "$dir" -name 'nardy-*.dump' -mtime +"$keep" ! -newer "$name" ! -path "$name" -delete
    else
        echo "backup failed; the previous ones are kept" >&2
        rm -f "$name.partial"
    fi
    [ "${1:-}" = once ] && exit 0
    sleep "$every"
done
