#!/bin/sh
# A private Postgres cluster and RabbitMQ node for the chaos suite's restart scenarios, so that the shared
# ones (5432, 5672) are never restarted. Needs root and the Debian packages (postgresql-common, rabbitmq-server).
#
#   chaos/private-infra.sh start     # Postgres 127.0.0.1:5433 (cluster "chaos"), RabbitMQ 127.0.0.1:5673 (chaos@localhost)
#   eval "$(chaos/private-infra.sh env)"
#   npm run chaos -- --only=rabbitmq-restart,postgres-restart
#   chaos/private-infra.sh stop      # stops and deletes both
set -eu

PG_VERSION=$(ls /etc/postgresql | sort -n | tail -1)
PG_CLUSTER=chaos
PG_PORT=5433
RABBIT_NODE=chaos@localhost
RABBIT_PORT=5673
RABBIT_DIST_PORT=25673
RABBIT_BASE=/tmp/rabbit-chaos

rabbit_env() {
  # The wrapper runs the server as the rabbitmq user (su keeps this environment); the config file names the
  # listener, since the shared /etc/rabbitmq/rabbitmq.conf would take 5672.
  echo "RABBITMQ_NODENAME=$RABBIT_NODE RABBITMQ_NODE_PORT=$RABBIT_PORT RABBITMQ_DIST_PORT=$RABBIT_DIST_PORT" \
    "RABBITMQ_CONFIG_FILE=$RABBIT_BASE/rabbitmq RABBITMQ_ENABLED_PLUGINS_FILE=$RABBIT_BASE/enabled_plugins" \
    "RABBITMQ_MNESIA_BASE=$RABBIT_BASE/mnesia RABBITMQ_LOG_BASE=$RABBIT_BASE/log RABBITMQ_PID_FILE=$RABBIT_BASE/pid"
}

case "${1:-}" in
  start)
    if ! pg_lsclusters -h | awk '{print $2}' | grep -qx "$PG_CLUSTER"; then
      pg_createcluster "$PG_VERSION" "$PG_CLUSTER" --port "$PG_PORT" -- --auth=trust >/dev/null
      printf "listen_addresses = '127.0.0.1'\nmax_connections = 200\n" \
        >"/etc/postgresql/$PG_VERSION/$PG_CLUSTER/conf.d/90-chaos.conf"
    fi
    pg_ctlcluster --skip-systemctl-redirect "$PG_VERSION" "$PG_CLUSTER" start
    mkdir -p "$RABBIT_BASE/mnesia" "$RABBIT_BASE/log"
    echo "listeners.tcp.local = 127.0.0.1:$RABBIT_PORT" >"$RABBIT_BASE/rabbitmq.conf"
    echo '[].' >"$RABBIT_BASE/enabled_plugins"
    chown -R rabbitmq:rabbitmq "$RABBIT_BASE"
    env $(rabbit_env) rabbitmq-server -detached
    # The node registers a few seconds after -detached returns: wait for its pid file, then for its start.
    rabbitmqctl -n "$RABBIT_NODE" wait "$RABBIT_BASE/pid" --timeout 120 >/dev/null
    echo "Postgres $PG_VERSION/$PG_CLUSTER on 127.0.0.1:$PG_PORT, RabbitMQ $RABBIT_NODE on 127.0.0.1:$RABBIT_PORT"
    ;;
  env)
    echo "export DATABASE_URL=postgres://postgres@127.0.0.1:$PG_PORT/postgres"
    echo "export RABBITMQ_URL=amqp://guest:guest@127.0.0.1:$RABBIT_PORT"
    echo "export RABBITMQCTL_NODE=$RABBIT_NODE"
    echo "export POSTGRES_RESTART_COMMAND='pg_ctlcluster --skip-systemctl-redirect $PG_VERSION $PG_CLUSTER restart'"
    ;;
  stop)
    rabbitmqctl -n "$RABBIT_NODE" stop >/dev/null 2>&1 || true
    rm -rf "$RABBIT_BASE"
    pg_dropcluster --stop "$PG_VERSION" "$PG_CLUSTER" 2>/dev/null || true
    ;;
  *)
    echo "usage: $0 start|env|stop" >&2
    exit 2
    ;;
esac
