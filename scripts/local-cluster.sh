#!/usr/bin/env bash
# A local three-node MariaDB Galera cluster and a three-master Redis Cluster, for the cluster suite
# (test/cluster/) and for people trying the service clustered (docs/deploying.md, "Clustered MySQL
# and Redis"). Every node has its own ports and data directory under one folder, and `down` stops
# only the processes that `up` started (their pid files), never a server it did not start.
#
#   scripts/local-cluster.sh up            start all six nodes (installs the Debian packages when missing, as root)
#   scripts/local-cluster.sh down          stop them and remove the folder
#   scripts/local-cluster.sh stop galera N stop Galera node N (1-3); `start galera N` starts it again (it rejoins)
#   scripts/local-cluster.sh stop redis N  stop Redis master N (1-3); `start redis N` starts it again
#   scripts/local-cluster.sh env           the settings that point the service and the suite at the cluster
#
# Ports (apart from a single MariaDB on 3306 and Redis on 6379): MariaDB 33061-33063, Galera group
# communication 45671-45673, incremental state transfer 45681-45683, rsync state transfer
# 44441-44443; Redis 7101-7103 (cluster bus 17101-17103). Folder: $LOCAL_CLUSTER_DIR, default
# /tmp/tenant-service-cluster.
set -euo pipefail

DIR="${LOCAL_CLUSTER_DIR:-/tmp/tenant-service-cluster}"
NODES=(1 2 3)
GCOMM="gcomm://127.0.0.1:45671,127.0.0.1:45672,127.0.0.1:45673"

log() { printf '[local-cluster] %s\n' "$*"; }
die() { log "$*" >&2; exit 1; }

install_missing() {
  local packages=()
  command -v mariadbd >/dev/null || packages+=(mariadb-server)
  [ -f /usr/lib/galera/libgalera_smm.so ] || packages+=(galera-4)
  command -v rsync >/dev/null || packages+=(rsync)
  command -v redis-server >/dev/null || packages+=(redis-server)
  [ "${#packages[@]}" -eq 0 ] && return 0
  [ "$(id -u)" -eq 0 ] || die "missing ${packages[*]}: install them (apt-get install ${packages[*]}) or run as root"
  log "installing ${packages[*]} from Debian packages"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${packages[@]}" >/dev/null
}

succeeds_within() { # seconds, command: whether the command succeeds within that time
  local seconds="$1"
  shift
  for _ in $(seq 1 $((seconds * 5))); do
    if "$@" >/dev/null 2>&1; then return 0; fi
    sleep 0.2
  done
  return 1
}

wait_for() { # what, seconds, command
  local what="$1" seconds="$2"
  shift 2
  succeeds_within "$seconds" "$@" || die "$what did not come up within ${seconds}s (see $DIR/*.err, $DIR/*.log)"
}

# mariadbd refuses to run as root: as root, the nodes run as the packages' mysql user.
run_as=()
[ "$(id -u)" -eq 0 ] && run_as=(--user=mysql)

galera_cnf() { # node
  local n="$1"
  cat >"$DIR/galera$n.cnf" <<EOF
[mysqld]
datadir=$DIR/galera$n
socket=$DIR/galera$n.sock
pid-file=$DIR/galera$n.pid
log-error=$DIR/galera$n.err
port=3306$n
bind-address=127.0.0.1
skip-name-resolve
performance_schema=OFF
innodb_buffer_pool_size=64M
innodb_log_file_size=32M
innodb_flush_log_at_trx_commit=2
binlog_format=ROW
default_storage_engine=InnoDB
innodb_autoinc_lock_mode=2
max_connections=300
wsrep_on=ON
wsrep_provider=/usr/lib/galera/libgalera_smm.so
wsrep_cluster_name=tenant-service-local
wsrep_cluster_address=$GCOMM
wsrep_node_name=node$n
wsrep_node_address=127.0.0.1:4567$n
wsrep_provider_options="gmcast.listen_addr=tcp://127.0.0.1:4567$n;ist.recv_addr=127.0.0.1:4568$n;gcache.size=64M;evs.suspect_timeout=PT3S;evs.inactive_timeout=PT6S"
wsrep_sst_method=rsync
wsrep_sst_receive_address=127.0.0.1:4444$n
EOF
}

galera_ping() { mariadb-admin --protocol=tcp -h 127.0.0.1 -P "3306$1" -u root --silent ping; }
galera_synced() {
  [ "$(mariadb --protocol=tcp -h 127.0.0.1 -P "3306$1" -u root -N -e "SHOW STATUS LIKE 'wsrep_local_state_comment'" | cut -f2)" = Synced ]
}

launch_galera() { # node, extra options
  local n="$1"
  shift
  # The data directory's owner runs the node; the pid file names the process that `down` stops.
  nohup mariadbd --defaults-file="$DIR/galera$n.cnf" "${run_as[@]}" "$@" >>"$DIR/galera$n.out" 2>&1 &
  echo $! >"$DIR/galera$n.started"
}

start_galera() { # node, extra options
  local n="$1"
  launch_galera "$@"
  wait_for "Galera node $n" 120 galera_ping "$n"
  wait_for "Galera node $n (synced)" 120 galera_synced "$n"
}

# A new node joins by state transfer. A joiner has been seen to abort during it (once, in CI): its
# error log's end goes to the output, and it gets one more try on an empty data directory.
join_galera() { # node
  local n="$1"
  for attempt in 1 2; do
    mkdir -p "$DIR/galera$n"
    [ "$(id -u)" -eq 0 ] && chown mysql:mysql "$DIR/galera$n"
    launch_galera "$n"
    if succeeds_within 120 galera_ping "$n" && succeeds_within 120 galera_synced "$n"; then return 0; fi
    log "Galera node $n did not join (attempt $attempt); the end of its error log:"
    tail -n 25 "$DIR/galera$n.err" >&2 2>/dev/null || true
    stop_pid "$DIR/galera$n.started" "Galera node $n"
    rm -rf "$DIR/galera$n"
  done
  die "Galera node $n did not join twice (see $DIR/*.err)"
}

redis_ok() { [ "$(redis-cli -p "710$1" cluster info | tr -d '\r' | sed -n 's/^cluster_state://p')" = ok ]; }

start_redis() { # node
  local n="$1"
  redis-server --port "710$n" --bind 127.0.0.1 --cluster-enabled yes --cluster-config-file "$DIR/redis$n.nodes" \
    --cluster-node-timeout 2000 --dir "$DIR" --dbfilename "redis$n.rdb" --save "" --appendonly no \
    --daemonize yes --pidfile "$DIR/redis$n.pid" --logfile "$DIR/redis$n.log"
  wait_for "Redis node $n" 20 redis-cli -p "710$n" ping
}

up() {
  install_missing
  [ -e "$DIR/galera1.cnf" ] && die "$DIR is in use: run '$0 down' first"
  mkdir -p "$DIR"
  [ "$(id -u)" -eq 0 ] && chown mysql:mysql "$DIR" && chmod 755 "$DIR"
  for n in "${NODES[@]}"; do galera_cnf "$n"; done
  # Only the first node is initialised: the others receive its data by state transfer (rsync).
  log "Galera: initialising node 1"
  mariadb-install-db --defaults-file="$DIR/galera1.cnf" "${run_as[@]}" --auth-root-authentication-method=normal \
    --skip-test-db >"$DIR/galera1.install" 2>&1 || die "mariadb-install-db failed: see $DIR/galera1.install"
  log "Galera: bootstrapping node 1 (--wsrep-new-cluster)"
  start_galera 1 --wsrep-new-cluster
  mariadb --protocol=tcp -h 127.0.0.1 -P 33061 -u root -e \
    "CREATE USER IF NOT EXISTS 'root'@'127.0.0.1'; GRANT ALL ON *.* TO 'root'@'127.0.0.1' WITH GRANT OPTION;" 2>/dev/null || true
  for n in 2 3; do
    log "Galera: node $n joins"
    join_galera "$n"
  done
  log "Galera: $(mariadb --protocol=tcp -h 127.0.0.1 -P 33061 -u root -N -e "SHOW STATUS LIKE 'wsrep_cluster_size'" | tr '\t' ' ')"

  log "Redis: three masters"
  for n in "${NODES[@]}"; do start_redis "$n"; done
  redis-cli --cluster create 127.0.0.1:7101 127.0.0.1:7102 127.0.0.1:7103 --cluster-replicas 0 --cluster-yes \
    >"$DIR/redis-create.log" 2>&1 || die "redis-cli --cluster create failed: see $DIR/redis-create.log"
  for n in "${NODES[@]}"; do wait_for "Redis Cluster (node $n)" 30 redis_ok "$n"; done
  log "up; '$0 env' prints the settings"
}

stop_pid() { # pid file, what
  local file="$1" pid
  [ -f "$file" ] || return 0
  pid="$(cat "$file")"
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 1 150); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
    if kill -0 "$pid" 2>/dev/null; then log "$2 did not stop: killing it"; kill -9 "$pid" 2>/dev/null || true; fi
  fi
  rm -f "$file"
}

stop_node() { # galera|redis, node
  case "$1" in
    galera) stop_pid "$DIR/galera$2.started" "Galera node $2" ;;
    redis) stop_pid "$DIR/redis$2.pid" "Redis node $2" ;;
    *) die "stop galera|redis N" ;;
  esac
}

start_node() { # galera|redis, node
  case "$1" in
    galera) start_galera "$2" ;;
    redis) start_redis "$2"; wait_for "Redis Cluster" 30 redis_ok "$2" ;;
    *) die "start galera|redis N" ;;
  esac
}

down() {
  [ -d "$DIR" ] || { log "nothing to stop ($DIR absent)"; return 0; }
  for n in "${NODES[@]}"; do stop_node redis "$n"; done
  # The last node to stop is the one to bootstrap from: order does not matter here, the folder goes.
  for n in "${NODES[@]}"; do stop_node galera "$n"; done
  rm -rf "$DIR"
  log "down"
}

# For the cluster suite (jest.config.js runs it when both TEST_ variables are set) and, for people,
# the service's own settings: DATABASE_URL lists hosts for fail-over (create the database first).
env_lines() {
  cat <<EOF
export TEST_GALERA_NODES=127.0.0.1:33061,127.0.0.1:33062,127.0.0.1:33063
export TEST_REDIS_CLUSTER_NODES=127.0.0.1:7101,127.0.0.1:7102,127.0.0.1:7103
export LOCAL_CLUSTER_DIR=$DIR
# The service: DATABASE_URL=mysql://root@127.0.0.1:33061,127.0.0.1:33062,127.0.0.1:33063/tenant_service
#              REDIS_CLUSTER_NODES=127.0.0.1:7101,127.0.0.1:7102,127.0.0.1:7103
EOF
}

case "${1:-}" in
  up) up ;;
  down) down ;;
  stop) stop_node "${2:-}" "${3:-}" ;;
  start) start_node "${2:-}" "${3:-}" ;;
  env) env_lines ;;
  *) die "usage: $0 up|down|stop galera|redis N|start galera|redis N|env" ;;
esac
