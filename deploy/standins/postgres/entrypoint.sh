#!/bin/sh
# The first start of an empty data directory: initdb with POSTGRES_USER and POSTGRES_PASSWORD,
# then POSTGRES_DB, then the scripts in /docker-entrypoint-initdb.d (*.sh, run with PGHOST set to
# the set-up server, as the official image runs them), then the server. The set-up server listens
# on a private socket only, so pg_isready (the health check) cannot call the database ready
# before it is. Any other command (the replica's, deploy/postgres/replica.sh) runs as it is.
set -eu
: "${POSTGRES_PASSWORD:?the stand-in, like the official image, needs POSTGRES_PASSWORD}"
POSTGRES_USER=${POSTGRES_USER:-postgres}
POSTGRES_DB=${POSTGRES_DB:-$POSTGRES_USER}

if [ "${1:-postgres}" = postgres ] && [ ! -s "$PGDATA/PG_VERSION" ]; then
    setup_socket=$(mktemp -d)
    password_file=$(mktemp)
    printf '%s' "$POSTGRES_PASSWORD" >"$password_file"
    initdb --pgdata="$PGDATA" --username="$POSTGRES_USER" --pwfile="$password_file" \
        --encoding=UTF8 --locale=C.UTF-8 --auth-local=trust --auth-host=scram-sha-256
    rm -f "$password_file"
    echo "listen_addresses = '*'" >>"$PGDATA/postgresql.conf"
    echo "host all all all scram-sha-256" >>"$PGDATA/pg_hba.conf"
    pg_ctl --pgdata="$PGDATA" --wait --silent \
        --options="-c listen_addresses='' -c unix_socket_directories=$setup_socket" start
    if [ "$POSTGRES_DB" != postgres ]; then
        # From standard input: psql quotes the name (:"db") there, not in --command.
        echo 'CREATE DATABASE :"db";' | psql --host="$setup_socket" --username="$POSTGRES_USER" \
            --dbname=postgres --set=ON_ERROR_STOP=1 --quiet --set=db="$POSTGRES_DB"
    fi
    for script in /docker-entrypoint-initdb.d/*.sh; do
        [ -f "$script" ] || continue
        echo "stand-in postgres: running $script"
        PGHOST=$setup_socket POSTGRES_USER=$POSTGRES_USER POSTGRES_DB=$POSTGRES_DB \
            PGDATA=$PGDATA sh "$script"
    done
    pg_ctl --pgdata="$PGDATA" --wait --silent --mode=fast stop
    rmdir "$setup_socket"
    echo "stand-in postgres: initialised $PGDATA with database $POSTGRES_DB"
fi
exec "$@"
