# shellcheck shell=bash
# The Bloc Éclat services of the local stack: built by the root Maven build and
# started with `java -jar <module>/target/quarkus-app/quarkus-run.jar`.

# leaderboard-service runs twice, as two members of one consumer group (leaderboard-service-game-finished): the
# partitions of game-finished are shared between them, as in k8s/ and docker-compose.yml.
SERVICES=(solver-service-1 solver-service-2 game-service leaderboard-service-1 leaderboard-service-2)
SERVICE_JVM_OPTS=(-Xms64m -Xmx512m)
# solver-service runs public searches at nice 19 (WorkerPool.PRIORITY_OPTIONS, docs/solver-service.md).
SOLVER_JVM_OPTS=(-XX:ThreadPriorityPolicy=1 -XX:JavaPriority1_To_OSPriority=19 -XX:JavaPriority6_To_OSPriority=0 -XX:JavaPriority7_To_OSPriority=0 -XX:JavaPriority8_To_OSPriority=0 -XX:JavaPriority9_To_OSPriority=0 -XX:JavaPriority10_To_OSPriority=0)

service_module() { echo "${1%-[0-9]}"; }   # solver-service-2 -> solver-service, leaderboard-service-1 -> leaderboard-service
service_jar() { echo "$ROOT/$(service_module "$1")/target/quarkus-app/quarkus-run.jar"; }

service_port() {
  case "$1" in
    game-service) echo 8080 ;;
    solver-service-1) echo 8081 ;;
    solver-service-2) echo 8082 ;;
    leaderboard-service-1) echo 8083 ;;
    leaderboard-service-2) echo 8084 ;;
  esac
}

service_ready_url() { echo "http://localhost:$(service_port "$1")/q/health/ready"; }
service_ready() { http_ok "$(service_ready_url "$1")"; }

# The configuration each service gets (the same values are its local defaults).
service_env() {
  local port; port="$(service_port "$1")"
  echo "QUARKUS_HTTP_HOST=127.0.0.1"
  echo "QUARKUS_HTTP_PORT=$port"
  echo "KAFKA_BOOTSTRAP_SERVERS=localhost:$KAFKA_PORT"
  local module; module="$(service_module "$1")"
  case "$module" in
    game-service | leaderboard-service)
      # The broker takes SASL/SCRAM only; each service is its own Kafka user (both leaderboard replicas are the
      # user leaderboard-service), held to its ACLs (platform/kafka/access.conf). application.properties stays
      # open for the services' embedded test broker.
      echo "KAFKA_SECURITY_PROTOCOL=SASL_PLAINTEXT"
      echo "KAFKA_SASL_MECHANISM=$KAFKA_SASL_MECHANISM"
      echo "KAFKA_SASL_JAAS_CONFIG=$(kafka_jaas "$module" "$(kafka_password "$module")")"
      ;;
  esac
  echo "QUARKUS_OIDC_AUTH_SERVER_URL=http://localhost:$KEYCLOAK_PORT/realms/bloc-eclat"
  echo "QUARKUS_OIDC_CLIENT_ID=bloc-services"
  echo "QUARKUS_OIDC_CREDENTIALS_SECRET=bloc-services-secret"
  echo "LOG_JSON=false"  # plain log lines for ./bloc logs
  case "$module" in
    game-service)
      echo "QUARKUS_DATASOURCE_JDBC_URL=jdbc:postgresql://localhost:$PG_PORT/bloc_game"
      echo "SOLVER_URLS=http://localhost:$(service_port solver-service-1),http://localhost:$(service_port solver-service-2)"
      # UI development: files of this directory are served ahead of the bundled web UI (docs/platform.md).
      if [[ -n "${BLOC_UI_DIR:-}" ]]; then echo "BLOC_UI_DIR=$BLOC_UI_DIR"; fi
      # Signs every game-finished (Ed25519) and derives the daily seeds; from .bloc/secrets/bloc.env.
      echo "BLOC_SIGNING_KEY_ID=$(secret BLOC_SIGNING_KEY_ID)"
      echo "BLOC_SIGNING_PRIVATE_KEY=$(secret BLOC_SIGNING_PRIVATE_KEY)"
      echo "BLOC_DAILY_SECRET=$(secret BLOC_DAILY_SECRET)"
      ;;
    leaderboard-service)
      echo "QUARKUS_DATASOURCE_JDBC_URL=jdbc:postgresql://localhost:$PG_PORT/bloc_leaderboard"
      # keyId:base64 X.509, comma-separated: every key whose signature it accepts (rotation).
      echo "BLOC_SIGNING_PUBLIC_KEYS=$(secret BLOC_SIGNING_PUBLIC_KEYS)"
      ;;
  esac
  case "$module" in
    game-service | leaderboard-service)
      echo "QUARKUS_DATASOURCE_USERNAME=bloc"
      echo "QUARKUS_DATASOURCE_PASSWORD=bloc"
      ;;
  esac
}

service_start() {
  local env_vars
  if [[ "$1" == game-service && -n "${BLOC_UI_DIR:-}" ]]; then
    [[ "$BLOC_UI_DIR" == /* ]] || die "BLOC_UI_DIR must be an absolute path (for example \$PWD/web-ui/dist), got $BLOC_UI_DIR"
    info "game-service serves $BLOC_UI_DIR ahead of the bundled web UI (BLOC_UI_DIR)"
  fi
  mapfile -t env_vars < <(service_env "$1")
  # Exported, not passed to env(1): keys and passwords never appear on a command line (ps shows those).
  (
    for v in "${env_vars[@]}"; do export "${v?}"; done
    local jvm_opts=("${SERVICE_JVM_OPTS[@]}")
    [[ "$(service_module "$1")" == solver-service ]] && jvm_opts+=("${SOLVER_JVM_OPTS[@]}")
    start_bg "$1" "$LOGS/$1.log" "$JAVA" "-Dbloc.component=$1" "${jvm_opts[@]}" -jar "$(service_jar "$1")"
  )
}

# The modules of the root build, from the root pom.
root_modules() { sed -n 's:.*<module>\(.*\)</module>.*:\1:p' "$ROOT/pom.xml"; }

# True when a service jar is missing or older than a source of any root module.
services_stale() {
  local name jar oldest=""
  for name in "${SERVICES[@]}"; do
    jar="$(service_jar "$name")"
    [[ -f "$jar" ]] || return 0
    [[ -z "$oldest" || "$jar" -ot "$oldest" ]] && oldest="$jar"
  done
  local dirs=() m
  while read -r m; do [[ -d "$ROOT/$m" ]] && dirs+=("$ROOT/$m"); done < <(root_modules)
  [[ "$ROOT/pom.xml" -nt "$oldest" ]] && return 0
  [[ -n "$(find "${dirs[@]}" \( -name target -o -name node_modules -o -name dist \) -prune \
      -o -type f -newer "$oldest" -print -quit)" ]]
}

services_build() {
  local name missing=()
  for name in "${SERVICES[@]}"; do
    [[ -f "$ROOT/$(service_module "$name")/pom.xml" ]] || missing+=("$(service_module "$name")")
  done
  ((${#missing[@]} == 0)) || die "service modules missing: ${missing[*]}"
  for name in "${SERVICES[@]}"; do
    if running "$name" "-Dbloc.component=$name" >/dev/null; then
      ok "services running: not rebuilt under them ('./bloc down' first to pick up changes)"
      return 0
    fi
  done
  if ! services_stale; then
    ok "service jars are newer than every source: build skipped"
    return 0
  fi
  local t0=$SECONDS
  info "./mvnw -B -q package -DskipTests (log: $LOGS/build.log)"
  with_build_lock "$ROOT/mvnw" -B -q -f "$ROOT/pom.xml" package -DskipTests >"$LOGS/build.log" 2>&1 \
    || { tail -40 "$LOGS/build.log" >&2; die "the build failed: see $LOGS/build.log"; }
  ok "built in $(elapsed $t0)"
}
