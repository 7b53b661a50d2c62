# shellcheck shell=bash
# ./bloc chaos: the chaos stage (docs/reliability.md). Brings the stack up (or uses the running one), plays games
# through the real services while e2e/chaos/chaos.mjs kills components with kill -9 and starts them again through
# the two subcommands below, then checks that no finished game was lost or counted twice.
#   ./bloc chaos              the whole stage
#   ./bloc chaos kill NAME    kill -9 a running component's process group (and wait until it is gone)
#   ./bloc chaos start NAME   start a component again and wait for its health check

# chaos_kill NAME: SIGKILL to the whole process group, no shutdown of any kind.
chaos_kill() {
  local name pid t0=$SECONDS
  name="$(resolve_component "${1:-}")" || die "unknown component '${1:-}' (one of: ${COMPONENTS[*]})"
  pid="$(component_pid "$name")" || die "$name is not running"
  kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid"
  while group_alive "$pid"; do
    (( SECONDS - t0 < 30 )) || die "$name (PID $pid) still alive 30 s after SIGKILL"
    sleep 0.2
  done
  ok "$name killed with SIGKILL (PID $pid)"
}

chaos_start() {
  local name
  name="$(resolve_component "${1:-}")" || die "unknown component '${1:-}' (one of: ${COMPONENTS[*]})"
  mkdir -p "$LOGS" "$RUN"
  # the log of the killed process is kept beside the new one
  [[ -f "$LOGS/$name.log" ]] && cp "$LOGS/$name.log" "$LOGS/$name.killed.log"
  start_component "$name"
  await_component "$name" 300
}

cmd_chaos() {
  case "${1:-}" in
    kill) shift; chaos_kill "$@"; return ;;
    start) shift; chaos_start "$@"; return ;;
    "") ;;
    *) die "usage: ./bloc chaos [kill NAME | start NAME]" ;;
  esac
  local started_here=false rc=0 t0=$SECONDS
  mkdir -p "$LOGS" "$RUN"
  if ! any_running; then
    started_here=true
    trap 'rc=$?; trap - EXIT INT TERM; echo; cmd_down || true; exit $rc' EXIT
    trap 'exit 130' INT TERM
  else
    info "a stack is already running: it is used and left running"
  fi
  cmd_up
  disown -a  # the processes cmd_up started are killed on purpose: no "Killed" job report for them
  e2e_prepare  # node, npm ci in e2e/, Chromium for the players' logins
  step "Chaos: games through the stack while its components are killed (log: $LOGS/chaos.log)"
  info "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
  (cd "$ROOT/e2e" && node chaos/chaos.mjs) 2>&1 | tee "$LOGS/chaos.log" || rc=$?
  info "machine after the run: load average $(cut -d' ' -f1-3 /proc/loadavg); the stage took $(elapsed $t0)"
  if $started_here; then
    trap - EXIT INT TERM
    echo
    cmd_down
  fi
  return "$rc"
}
