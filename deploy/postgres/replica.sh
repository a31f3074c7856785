#!/bin/sh
# The command of docker-compose.yml's `postgres-replica`: a hot standby of `postgres`, streaming
# its WAL through the slot `replica` (deploy/postgres/primary-init.sh made the role and slot).
# On the first start of an empty data directory it takes a base backup of the primary with
# pg_basebackup -R (which writes primary_conninfo and standby.signal); afterwards it just starts
# the server, which resumes streaming where it left off. Runs as the postgres user, in the
# official postgres image or the stand-in.
#
#   POSTGRES_PASSWORD   the replicator role's password
#   PRIMARY_HOST        the primary (default postgres)
set -eu
: "${POSTGRES_PASSWORD:?the replica needs POSTGRES_PASSWORD}"
primary=${PRIMARY_HOST:-postgres}
export PGDATA=${PGDATA:-/var/lib/postgresql/data}

if [ ! -s "$PGDATA/PG_VERSION" ]; then
    until pg_isready --quiet --host="$primary" --port=5432; do
        echo "replica: waiting for $primary"
        sleep 1
    done
    # A half-made copy (a backup interrupted by a stop) is started again from scratch.
    find "$PGDATA" -mindepth 1 -delete
    echo "replica: pg_basebackup from $primary"
    PGPASSWORD=$POSTGRES_PASSWORD pg_basebackup --host="$primary" --port=5432 \
        --username=replicator --pgdata="$PGDATA" --wal-method=stream --slot=replica \
        --write-recovery-conf --checkpoint=fast --no-password --progress
    chmod 700 "$PGDATA"
fi
# hot_standby: the replica answers read-only queries (DATABASE_REPLICA_URL) while it applies WAL.
exec postgres -c hot_standby=on -c hot_standby_feedback=on
