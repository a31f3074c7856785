#!/bin/sh
# PgBouncer in front of the `postgres` primary, in transaction mode (docker-compose.yml's
# `pgbouncer` service runs this as its entrypoint, in any image with `pgbouncer` and `sh` on PATH:
# the official-looking one or the stand-in). The configuration is written here from the
# environment at every start, so the password never sits in a file of the repository or a layer
# of an image: only in this container's /tmp.
#
#   POSTGRES_PASSWORD         the `casino` role's password (clients and server alike)
#   PGBOUNCER_TARGET          host:port of the primary (default postgres:5432)
#   PGBOUNCER_POOL_SIZE       server connections per database and user (default 20)
#   PGBOUNCER_MAX_CLIENTS     client connections accepted (default 1000)
#   PGBOUNCER_LOCK_TIMEOUT_MS lock_timeout of every server connection (default 3000, as the
#                             site's DJANGO_DB_LOCK_TIMEOUT_MS; 0: none)
set -eu
: "${POSTGRES_PASSWORD:?pgbouncer needs POSTGRES_PASSWORD}"
target=${PGBOUNCER_TARGET:-postgres:5432}
host=${target%:*}
port=${target##*:}

dir=$(mktemp -d /tmp/pgbouncer.XXXXXX)
umask 077
# userlist.txt quotes with " and doubles any " inside; the plain password lets PgBouncer answer
# the client's SCRAM exchange and make its own to the server.
password=$(printf '%s' "$POSTGRES_PASSWORD" | sed 's/"/""/g')
printf '"casino" "%s"\n' "$password" >"$dir/userlist.txt"

cat >"$dir/pgbouncer.ini" <<INI
[databases]
; The site asks for its lock_timeout in the startup packet's options (casino/settings.py), which
; PgBouncer accepts (track_extra_parameters below) but does not pass on to the server
; connections a client borrows: each server connection sets it itself when it opens.
casino = host=$host port=$port dbname=casino connect_query='SET lock_timeout = ${PGBOUNCER_LOCK_TIMEOUT_MS:-3000}'

[pgbouncer]
listen_addr = 0.0.0.0
listen_port = 6432
unix_socket_dir =
auth_type = scram-sha-256
auth_file = $dir/userlist.txt
; Django opens a transaction per request or consumer call and keeps nothing across them
; (DATABASE_POOL_MODE=transaction: no server-side cursors, no prepared statements).
pool_mode = transaction
default_pool_size = ${PGBOUNCER_POOL_SIZE:-20}
max_client_conn = ${PGBOUNCER_MAX_CLIENTS:-1000}
; Accept "-c lock_timeout=..." in a client's options (any other -c setting is refused).
track_extra_parameters = IntervalStyle, lock_timeout
; psycopg prepares the table action's statements at the protocol level; PgBouncer tracks them
; and prepares them again on whichever server connection a client borrows (the site runs with
; CASINO_PREPARED_STATEMENTS=true behind this pooler).
max_prepared_statements = 200
; No ignore_startup_parameters: psycopg sends nothing to ignore, and a non-empty list without
; `options` lets an unauthenticated client spin PgBouncer 1.20 to 1.26.0 forever (CVE-2026-107349).
; The admin console (SHOW POOLS, SHOW STATS) for the same role, from inside the network.
admin_users = casino
stats_users = casino
log_connections = 0
log_disconnections = 0
server_check_delay = 10
INI
exec pgbouncer "$dir/pgbouncer.ini"
