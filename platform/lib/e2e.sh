# shellcheck shell=bash
# The end-to-end stage: brings the real stack up, checks it from outside with
# node's test runner and Playwright driving Debian's Chromium (e2e/), and stops
# the stack again when this run started it, whatever the outcome.

CHROMIUM=/usr/bin/chromium

e2e_prepare() {
  step "End-to-end tools"
  if [[ ! -x "$CHROMIUM" ]]; then
    [[ $EUID -eq 0 ]] || die "$CHROMIUM missing: install Debian's chromium package"
    info "installing Debian's chromium with apt-get"
    apt-get update -qq >"$LOGS/apt.log" 2>&1 || { tail -20 "$LOGS/apt.log" >&2; die "apt-get update failed"; }
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >>"$LOGS/apt.log" 2>&1 \
      || { tail -20 "$LOGS/apt.log" >&2; die "apt-get install chromium failed (see $LOGS/apt.log)"; }
  fi
  ok "$("$CHROMIUM" --version 2>/dev/null | head -1)"
  command -v node >/dev/null || die "node not found: install Node.js 20"
  if [[ ! -f "$ROOT/e2e/node_modules/.package-lock.json" \
        || "$ROOT/e2e/package-lock.json" -nt "$ROOT/e2e/node_modules/.package-lock.json" ]]; then
    info "npm ci in e2e/"
    (cd "$ROOT/e2e" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 with_build_lock npm ci --no-audit --no-fund) \
      >"$LOGS/e2e-npm.log" 2>&1 || { tail -20 "$LOGS/e2e-npm.log" >&2; die "npm ci failed in e2e/ (see $LOGS/e2e-npm.log)"; }
  fi
  ok "node $(node --version), playwright-core $(node -p "require('$ROOT/e2e/node_modules/playwright-core/package.json').version")"
}

cmd_e2e() {
  local started_here=false rc=0
  mkdir -p "$LOGS" "$RUN"
  if ! any_running; then
    # Started here, so stopped here: also when start-up fails or on Ctrl-C.
    started_here=true
    trap 'rc=$?; trap - EXIT INT TERM; echo; cmd_down || true; exit $rc' EXIT
    trap 'exit 130' INT TERM
  else
    info "a stack is already running: it is reused and left running"
    # Checks against an older build would report their result for this one (a run killed before its
    # ./bloc down leaves its stack running, and ./bloc test has just built new jars beside it).
    local name stale=()
    for name in "${SERVICES[@]}"; do
      # only a service that runs (a stopped one is started from the new jar by cmd_up below)
      component_pid "$name" >/dev/null 2>&1 || continue
      [[ "$(service_jar "$name")" -nt "$(pid_file "$name")" ]] && stale+=("$name")
    done
    ((${#stale[@]} == 0)) \
      || die "${stale[*]} run(s) an older build than the one just made: './bloc down' first, then run this again"
  fi
  cmd_up
  e2e_prepare
  step "End-to-end checks against the running stack"
  rm -f "$LOGS/e2e.tap"
  (cd "$ROOT/e2e" && node --test --test-concurrency=1 --test-reporter=spec \
    --test-reporter=tap --test-reporter-destination=stdout --test-reporter-destination="$LOGS/e2e.tap" \
    tests/*.test.mjs) 2>&1 | tee "$LOGS/e2e.log" || rc=$?
  if $started_here; then
    trap - EXIT INT TERM
    echo
    cmd_down
    # Nothing held these ports before the run: whatever holds one now leaked.
    local leaked
    leaked="$(ports_in_use | tr '\n' ' ')"
    if [[ -n "$leaked" ]]; then
      printf '%s✗ ports still in use after ./bloc down: %s%s\n' "$C_RED" "$leaked" "$C_OFF" >&2
      rc=1
    fi
  fi
  # The runner's summary closes the output, after the stack has stopped.
  step "End-to-end summary (full output: $LOGS/e2e.log)"
  sed -n '/^ℹ tests /,$p' "$LOGS/e2e.log"
  local passed failed
  passed="$(sed -n 's/^# pass //p' "$LOGS/e2e.tap" 2>/dev/null | tail -1)"
  failed="$(sed -n 's/^# fail //p' "$LOGS/e2e.tap" 2>/dev/null | tail -1)"
  echo "e2e: ${passed:-0} passed, ${failed:-0} failed"
  [[ -n "$passed" || $rc -ne 0 ]] || rc=1  # no summary: the runner did not finish
  return "$rc"
}
