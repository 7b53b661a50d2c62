# shellcheck shell=bash disable=SC2034  # constants read by the files sourcing this one
# Shared helpers for ./bloc: paths, output, processes, ports and health checks.
# Sourced by ./bloc with ROOT set to the repository root.

STATE="$ROOT/.bloc"        # everything the local stack writes: binaries, data, logs, PIDs
DIST="$STATE/dist"         # artifacts fetched from Maven Central
LOGS="$STATE/logs"
RUN="$STATE/run"           # one NAME.pid per process started by ./bloc
JAVA="${JAVA_HOME:+$JAVA_HOME/bin/}java"

# Set BLOC_BUILD_LOCK to a file to serialise Maven and npm runs with other
# builds on a shared machine (flock); unset, builds run directly.
with_build_lock() {
  if [[ -n "${BLOC_BUILD_LOCK:-}" ]]; then
    flock "$BLOC_BUILD_LOCK" "$@"
  else
    "$@"
  fi
}

# ---- output ---------------------------------------------------------------

if [[ -t 1 ]]; then
  C_BOLD=$'\e[1m' C_GREEN=$'\e[32m' C_RED=$'\e[31m' C_YELLOW=$'\e[33m' C_DIM=$'\e[2m' C_OFF=$'\e[0m'
else
  C_BOLD='' C_GREEN='' C_RED='' C_YELLOW='' C_DIM='' C_OFF=''
fi

step() { printf '%s==> %s%s\n' "$C_BOLD" "$*" "$C_OFF"; }
info() { printf '    %s\n' "$*"; }
ok()   { printf '    %s✓%s %s\n' "$C_GREEN" "$C_OFF" "$*"; }
warn() { printf '    %s!%s %s\n' "$C_YELLOW" "$C_OFF" "$*" >&2; }
die()  { printf '%s✗ %s%s\n' "$C_RED" "$*" "$C_OFF" >&2; exit 1; }

# elapsed SECONDS_AT_START -> "12s"
elapsed() { echo "$(( SECONDS - $1 ))s"; }

# Version of an infrastructure component, read from platform/pom.xml.
pom_version() {
  sed -n "s:.*<$1.version>\(.*\)</$1.version>.*:\1:p" "$ROOT/platform/pom.xml" | head -1
}

# ---- tools ----------------------------------------------------------------

# Installs the Debian packages behind missing commands (root only).
ensure_commands() {  # ensure_commands CMD:PACKAGE...
  local missing=() pair
  for pair in "$@"; do
    command -v "${pair%%:*}" >/dev/null 2>&1 || missing+=("${pair#*:}")
  done
  ((${#missing[@]} == 0)) && return 0
  [[ $EUID -eq 0 ]] || die "missing packages: ${missing[*]} (install them with apt-get)"
  info "installing ${missing[*]} with apt-get"
  apt-get update -qq >"$LOGS/apt.log" 2>&1 || { tail -20 "$LOGS/apt.log" >&2; die "apt-get update failed"; }
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >>"$LOGS/apt.log" 2>&1 \
    || { tail -20 "$LOGS/apt.log" >&2; die "apt-get install ${missing[*]} failed (see $LOGS/apt.log)"; }
}

# Fetches with the platform pom (cached in ~/.m2 and .bloc/dist after the first time).
mvn_fetch() {  # mvn_fetch GOAL@EXECUTION...
  info "fetching from Maven Central: $*"
  with_build_lock "$ROOT/mvnw" -B -q -f "$ROOT/platform/pom.xml" "$@" >"$LOGS/fetch.log" 2>&1 \
    || { tail -30 "$LOGS/fetch.log" >&2; die "fetch failed (see $LOGS/fetch.log)"; }
}

# ---- processes --------------------------------------------------------------
# Every long-running process is started with setsid, so its PID is also its
# process group: stopping the group also stops children (kc.sh starts java).
# A PID file only counts while the process is alive and its command line still
# carries the component's marker, so a reused PID is never taken for ours.

pid_file() { echo "$RUN/$1.pid"; }

# running NAME MARKER -> prints the PID when NAME runs
running() {
  local f pid
  f="$(pid_file "$1")"
  [[ -f "$f" ]] || return 1
  pid="$(<"$f")"
  [[ "$pid" =~ ^[0-9]+$ ]] && kill -0 "$pid" 2>/dev/null || return 1
  tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -qF -- "$2" || return 1
  echo "$pid"
}

# start_bg NAME LOGFILE COMMAND... : runs COMMAND in its own session, records the PID. A PID file that cannot be
# written (a full disk) stops the process again: one left running without it would hold its ports, and neither
# ./bloc down nor the next ./bloc up would know it.
start_bg() {
  local name="$1" log="$2" pid file; shift 2
  file="$(pid_file "$name")"
  : >"$log"
  setsid "$@" >>"$log" 2>&1 </dev/null &
  pid=$!
  if ! { echo "$pid" >"$file.new" && mv -fT "$file.new" "$file"; } 2>/dev/null; then
    kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null || true
    rm -f "$file.new" 2>/dev/null || true
    die "$name: could not write its PID file $file (is the disk full?); it was stopped again"
  fi
}

# stop_pid NAME PID [SIGNAL]: signals the process group, waits up to 30 s, then kills it.
stop_pid() {
  local name="$1" pid="$2" sig="${3:-TERM}" t0=$SECONDS
  kill -"$sig" -- "-$pid" 2>/dev/null || kill -"$sig" "$pid" 2>/dev/null || true
  while group_alive "$pid"; do
    if (( SECONDS - t0 >= 30 )); then
      warn "$name (PID $pid) still running after 30 s: killing it"
      kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null || true
      sleep 1
      break
    fi
    sleep 0.5
  done
  rm -f "$(pid_file "$name")"
}

group_alive() {
  kill -0 "$1" 2>/dev/null && return 0
  pgrep -g "$1" >/dev/null 2>&1
}

# ---- ports and health ---------------------------------------------------------

port_open() { timeout 1 bash -c "exec 3<>/dev/tcp/127.0.0.1/$1" 2>/dev/null; }

http_ok() { curl -fsS -o /dev/null --max-time 3 "$1" 2>/dev/null; }

# Fails with a clear message when a port we need is taken by a process not ours.
require_free_port() {  # require_free_port PORT NAME
  if port_open "$1"; then
    die "port $1 (needed by $2) is already in use by another process: find it with 'ss -ltnp sport = :$1' and stop it, or run './bloc down' if it is an older stack"
  fi
}

# wait_until NAME TIMEOUT_S PID CHECK...: polls CHECK every second.
# Fails early when the process dies, and points at its log on failure.
wait_until() {
  local name="$1" timeout="$2" pid="$3"; shift 3
  local t0=$SECONDS
  until "$@"; do
    if ! group_alive "$pid"; then
      tail -n 25 "$LOGS/$name.log" >&2 2>/dev/null || true
      die "$name exited during start-up: see './bloc logs $name' ($LOGS/$name.log); './bloc down' stops the rest"
    fi
    if (( SECONDS - t0 >= timeout )); then
      tail -n 25 "$LOGS/$name.log" >&2 2>/dev/null || true
      die "$name not ready after ${timeout}s: see './bloc logs $name' ($LOGS/$name.log); './bloc down' stops the rest"
    fi
    sleep 1
  done
}
