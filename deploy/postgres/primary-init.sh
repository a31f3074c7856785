#!/bin/sh
# The primary's first start (docker-compose.yml mounts this into /docker-entrypoint-initdb.d,
# which the official postgres image, and the stand-in, run once on an empty data directory):
# a role that may only stream WAL, a physical replication slot for `postgres-replica`, and the
# pg_hba line that lets that role connect for replication from the compose network. The role's
# password is POSTGRES_PASSWORD: one secret fewer in .env, and the role can read nothing.
set -eu
psql --set=ON_ERROR_STOP=1 --quiet --username="$POSTGRES_USER" --dbname="$POSTGRES_DB" \
    --set=password="$POSTGRES_PASSWORD" <<'SQL'
CREATE ROLE replicator WITH REPLICATION LOGIN PASSWORD :'password';
-- The slot keeps the WAL the replica has not received yet, so a replica that was down catches
-- up instead of needing a new base backup (max_slot_wal_keep_size bounds what is kept).
SELECT pg_create_physical_replication_slot('replica');
SQL
echo "host replication replicator all scram-sha-256" >>"$PGDATA/pg_hba.conf"
