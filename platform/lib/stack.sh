# shellcheck shell=bash
# ./bloc up | down | status | logs: the local stack as a whole.

INFRA=(postgres kafka keycloak)
COMPONENTS=("${INFRA[@]}" "${SERVICES[@]}")

component_marker() {
  case "$1" in
    postgres) postgres_marker ;;
    kafka) kafka_marker ;;
    keycloak) keycloak_marker ;;
    *) echo "-Dbloc.component=$1" ;;
  esac
}

component_ports() {
  case "$1" in
    postgres) echo "$PG_PORT" ;;
    kafka) echo "$KAFKA_PORT $KAFKA_CONTROLLER_PORT" ;;
    keycloak) echo "$KEYCLOAK_PORT $KEYCLOAK_MGMT_PORT" ;;
    *) service_port "$1" ;;
  esac
}

component_ready() {
  case "$1" in
    postgres | kafka | keycloak) "${1}_ready" ;;
    *) service_ready "$1" ;;
  esac
}

component_check() {  # what "ready" means, for status output
  case "$1" in
    postgres) echo "accepting connections on 127.0.0.1:$PG_PORT" ;;
    kafka) echo "broker started, 127.0.0.1:$KAFKA_PORT open" ;;
    keycloak) echo "$KEYCLOAK_READY_URL" ;;
    *) service_ready_url "$1" ;;
  esac
}

component_pid() { running "$1" "$(component_marker "$1")"; }

# Accepts short names: game, solver-1, leaderboard-2, pg; a replicated service's bare name is its first replica
# (solver, leaderboard).
resolve_component() {
  local c
  case "$1" in pg | postgresql) echo postgres; return ;; esac
  for c in "${COMPONENTS[@]}" build e2e; do
    if [[ "$c" == "$1" || "$c" == "$1-service" || "$c" == "${1/-/-service-}" || "$c" == "$1-1" \
      || "$c" == "$1-service-1" ]]; then echo "$c"; return; fi
  done
  return 1
}

ports_in_use() {
  local name port
  for name in "${COMPONENTS[@]}"; do
    for port in $(component_ports "$name"); do port_open "$port" && echo "$port"; done
  done
  return 0
}

any_running() {
  local c
  for c in "${COMPONENTS[@]}"; do component_pid "$c" >/dev/null && return 0; done
  return 1
}

# ---- up -----------------------------------------------------------------------------

# start_component NAME: starts NAME unless it already runs; does not wait.
start_component() {
  local name="$1" pid port
  if pid="$(component_pid "$name")"; then
    ok "$name already running (PID $pid)"
    return 0
  fi
  rm -f "$(pid_file "$name")"
  for port in $(component_ports "$name"); do require_free_port "$port" "$name"; done
  case "$name" in
    postgres | kafka | keycloak) "${name}_prepare"; "${name}_start" ;;
    *) service_start "$name" ;;
  esac
  info "$name starting (PID $(<"$(pid_file "$name")"), log: $LOGS/$name.log)"
}

await_component() {  # await_component NAME TIMEOUT_S
  local t0=$SECONDS pid tries=0
  # Just started, its command may not have replaced the launching shell yet (the PID's command line is
  # what identifies it): give it a few seconds before calling it dead.
  until pid="$(component_pid "$1")"; do
    (( ++tries <= 20 )) || die "$1 is not running: see './bloc logs $1'"
    sleep 0.25
  done
  if ! component_ready "$1"; then
    wait_until "$1" "$2" "$pid" component_ready "$1"
    ok "$1 ready after $(elapsed $t0) ($(component_check "$1"))"
  else
    ok "$1 ready ($(component_check "$1"))"
  fi
}

check_tools() {
  ensure_commands curl:curl unzip:unzip xz:xz-utils setsid:util-linux flock:util-linux pgrep:procps
  command -v "$JAVA" >/dev/null || die "java not found: install a JDK 17 or newer"
  local v
  v="$("$JAVA" -XshowSettings:properties -version 2>&1 | sed -n 's/.*java.specification.version = //p')"
  [[ "${v%%.*}" -ge 17 ]] 2>/dev/null || die "Java 17 or newer needed (found ${v:-unknown}): set JAVA_HOME"
  # the web UI's build (npm, from Maven) comes after the infrastructure has started: checked before anything starts
  command -v node >/dev/null && command -v npm >/dev/null || die "node and npm not found: install Node.js 20"
  local n
  n="$(node --version 2>/dev/null || true)"
  [[ $n =~ ^v?([0-9]+)\. ]] && (( BASH_REMATCH[1] >= 20 )) || die "Node.js 20 or newer needed (node --version: ${n:-nothing})"
  ok "java $v, node ${n#v}, curl, unzip, xz"
}

# Fails before anything starts when a port of a stopped component is taken.
check_ports() {
  local name port
  for name in "${COMPONENTS[@]}"; do
    component_pid "$name" >/dev/null && continue
    for port in $(component_ports "$name"); do require_free_port "$port" "$name"; done
  done
  ok "no other process holds the stack's ports"
}

# The one-time steps that need no build, ahead of ./bloc up and ./bloc e2e (./bloc test runs this beside the Maven
# build): the secrets, each component's NAME_prepare (which start_component runs again, then finding it done:
# PostgreSQL's data folder, Kafka's storage, Keycloak unpacked and built) and e2e_prepare (Chromium, the e2e tools).
# A component already running is left as it is. The infrastructure's files must have been fetched (fetch_infra).
stack_prepare() {
  step "Secrets (generated once, .bloc/secrets/bloc.env)"
  secrets_prepare
  local name
  for name in postgres kafka keycloak; do
    step "Preparing $name"
    if component_pid "$name" >/dev/null; then
      ok "$name already running"
    else
      "${name}_prepare"
      ok "$name prepared"
    fi
  done
  e2e_prepare
}

cmd_up() {
  local t0=$SECONDS name
  mkdir -p "$LOGS" "$RUN"
  step "Tools and ports"
  check_tools
  check_ports

  step "Secrets (generated once, .bloc/secrets/bloc.env)"
  secrets_prepare

  step "Fetching the infrastructure from Maven Central (cached in .bloc/dist)"
  fetch_infra

  step "PostgreSQL $PG_VERSION on port $PG_PORT"
  start_component postgres
  await_component postgres 60

  step "Kafka $KAFKA_VERSION (KRaft) on port $KAFKA_PORT"
  start_component kafka

  step "Keycloak $KEYCLOAK_VERSION on port $KEYCLOAK_PORT (realm bloc-eclat)"
  start_component keycloak
  component_pid keycloak >/dev/null && keycloak_check_realm

  step "Building the services"
  services_build

  step "Waiting for Kafka (then its topics, users and ACLs) and Keycloak"
  await_component kafka 120
  kafka_setup  # topics, users and ACLs while Keycloak starts
  await_component keycloak 300

  step "Starting the services"
  for name in "${SERVICES[@]}"; do start_component "$name"; done

  step "Waiting for every health check"
  for name in "${SERVICES[@]}"; do await_component "$name" 180; done

  step "Bloc Éclat is up ($(elapsed $t0))"
  cat <<EOF

    Open http://localhost:8080

    Demo accounts (local only): alice/alice and bob/bob (players), admin/admin (player + admin)
    Keycloak admin console: http://localhost:$KEYCLOAK_PORT/admin (admin/admin, local only)

    ./bloc status   health of every component
    ./bloc logs X   a component's log (X: ${COMPONENTS[*]})
    ./bloc down     stops everything ./bloc up started

EOF
}

# ---- down ---------------------------------------------------------------------------

stop_component() {
  local name="$1" pid sig=TERM
  if ! pid="$(component_pid "$name")"; then
    [[ -f "$(pid_file "$name")" ]] && rm -f "$(pid_file "$name")" && info "$name was not running (stale PID file removed)"
    return 0
  fi
  [[ "$name" == postgres ]] && sig="$PG_STOP_SIGNAL"
  stop_pid "$name" "$pid" "$sig"
  ok "$name stopped (PID $pid)"
}

cmd_down() {
  local name pids=() port
  mkdir -p "$RUN"
  step "Stopping the services"
  for name in "${SERVICES[@]}"; do stop_component "$name" & pids+=($!); done
  wait "${pids[@]}"
  step "Stopping the infrastructure"
  pids=()
  for name in keycloak kafka; do stop_component "$name" & pids+=($!); done
  wait "${pids[@]}"
  stop_component postgres
  for port in $(ports_in_use); do
    warn "port $port is still in use by a process ./bloc did not start"
  done
  step "Stopped"
}

# ---- status and logs ----------------------------------------------------------------------

cmd_status() {
  local name pid state ports
  mkdir -p "$RUN"
  printf '%-22s %-8s %-12s %s\n' COMPONENT PID PORT HEALTH
  for name in "${COMPONENTS[@]}"; do
    ports="$(component_ports "$name" | tr ' ' ',')"
    if pid="$(component_pid "$name")"; then
      if component_ready "$name"; then
        state="${C_GREEN}ready${C_OFF}"
      else
        state="${C_YELLOW}not ready${C_OFF} (see ./bloc logs $name)"
      fi
    else
      pid=-
      state="${C_DIM}stopped${C_OFF}"
      port_open "${ports%%,*}" && state="${C_RED}stopped, but its port is used by another process${C_OFF}"
    fi
    printf '%-22s %-8s %-12s %s\n' "$name" "$pid" "$ports" "$state"
  done
}

cmd_logs() {
  [[ $# -ge 1 ]] || die "usage: ./bloc logs COMPONENT (one of: ${COMPONENTS[*]} build e2e)"
  local name
  name="$(resolve_component "$1")" || die "unknown component '$1' (one of: ${COMPONENTS[*]} build e2e)"
  [[ -f "$LOGS/$name.log" ]] || die "no log for $name yet ($LOGS/$name.log)"
  if [[ -t 1 ]]; then
    tail -n 100 -F "$LOGS/$name.log"
  else
    tail -n 200 "$LOGS/$name.log"
  fi
}
