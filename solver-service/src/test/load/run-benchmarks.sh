#!/usr/bin/env bash
# The solver-service load benchmark (docs/benchmarks.md, "solver-service"). From the repository root, after
#   flock /tmp/bloc-build.lock ./mvnw -B -q -pl solver-service -am verify
# it starts replicas of the packaged jar on 127.0.0.1:18081 and :18082 (not the stack's ports), drives them with
# LoadGenerator and stops them by PID. The rate limit is lifted (anonymous calls stand for the service caller).
#   solver-service/src/test/load/run-benchmarks.sh flood
# runs only FloodBench instead: one replica checking tokens against a WireMock OIDC server, service callers
# (hint and ai strength 5, with a service token) measured alone, then while anonymous callers flood the replica.
set -euo pipefail

module=solver-service
out=${BENCH_OUT:-$module/target/bench}
duration=${BENCH_DURATION:-20}
mkdir -p "$out"

# The test classpath as surefire ran it (the reactor's modules are never installed, so Maven cannot resolve them
# for this module alone): any report of `./mvnw verify` (or `package` with tests) has it.
report=$(ls $module/target/surefire-reports/TEST-*.xml 2>/dev/null | head -1)
if [[ -z $report ]]; then
  echo "no surefire report in $module/target: run ./mvnw -B -pl $module -am verify first" >&2
  exit 1
fi
cp=$(python3 -c 'import re,sys;print(re.search(r"surefire.test.class.path\" value=\"([^\"]*)",open(sys.argv[1]).read()).group(1))' "$report")

if [[ ${1:-} == flood ]]; then
  # The bench JVM too runs its Thread.MIN_PRIORITY threads (the flood's) at nice 19, as the replicas do their public
  # workers: its service callers stand for a game-service that does not share its cores with the people flooding.
  source platform/lib/services.sh
  bench=(java -Xmx256m "${SOLVER_JVM_OPTS[@]}" -cp "$cp" com.bloceclat.solver.load.FloodBench --duration "$duration"
    --service "${BENCH_SERVICE_CALLERS:-4}" --flood "${BENCH_FLOOD_CALLERS:-64}")
  {
    echo "-- flood (uptime before: $(uptime))"
    "${bench[@]}" --log "$out/flood-replica.log"
    # The replica alone on CPU 1 with its 2 workers (one reserved), the generator on CPU 0.
    echo "-- flood, replica on CPU 1 (uptime: $(uptime))"
    taskset -c 0 "${bench[@]}" --log "$out/flood-replica.log" --cpus "taskset -c 1" --workers 2
    # Separate pools, as k8s/ deploys them: the service callers and their replica on CPU 1, the public replica and the
    # flood's own JVM on CPU 0.
    echo "-- flood, separate pools: service callers and replica on CPU 1, public replica and flood on CPU 0 (uptime: $(uptime))"
    taskset -c 1 "${bench[@]}" --log "$out/flood-replica.log" --cpus "taskset -c 1" --public-cpus "taskset -c 0" \
      --flood-cpus "taskset -c 0" --workers 2
    echo "-- uptime after: $(uptime)"
  } 2>&1 | tee "$out/flood.txt"
  exit 0
fi

pids=()
stop() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do while kill -0 "$pid" 2>/dev/null; do sleep 0.2; done; done
  pids=()
}
trap stop EXIT

start() { # ports... (with $pin set, each replica runs under it, e.g. "taskset -c 1")
  for port in "$@"; do
    QUARKUS_HTTP_HOST=127.0.0.1 QUARKUS_HTTP_PORT=$port LOG_JSON=false \
      BLOC_SOLVER_PUBLIC_REQUESTS_PER_SECOND=1000000 BLOC_SOLVER_PUBLIC_BURST=1000000 \
      ${pin:-} java -Xmx512m -jar $module/target/quarkus-app/quarkus-run.jar >"$out/replica-$port.log" 2>&1 &
    pids+=($!)
  done
  for port in "$@"; do
    until curl -fs -o /dev/null "http://127.0.0.1:$port/q/health/ready"; do sleep 0.5; done
  done
}

rss() { for pid in "${pids[@]}"; do echo -n "$(ps -o rss= -p "$pid" | awk '{printf "%.0f", $1/1024}') MB "; done; }

load() { # label, generator arguments... (with $gen_pin set, the generator runs under it)
  local label=$1; shift
  echo "-- $label (load average $(cut -d' ' -f1-3 /proc/loadavg); RSS $(rss))"
  ${gen_pin:-} java -Xmx256m -cp "$cp" com.bloceclat.solver.load.LoadGenerator --duration "$duration" "$@"
  echo "   RSS after: $(rss)"
}

one=http://127.0.0.1:18081
two=http://127.0.0.1:18081,http://127.0.0.1:18082
{
  # One core each: the replica (so one search worker) on CPU 1, the generator on CPU 0: the per-core figure.
  pin="taskset -c 1" gen_pin="taskset -c 0" start 18081
  gen_pin="taskset -c 0" load "1 replica on one core, ai" --urls $one --mode ai --concurrency 4
  gen_pin="taskset -c 0" load "1 replica on one core, hint" --urls $one --mode hint --concurrency 4
  stop
  start 18081
  load "1 replica, ai" --urls $one --mode ai --concurrency 8
  load "1 replica, ai strength 4" --urls $one --mode ai --strength 4 --concurrency 8
  load "1 replica, hint" --urls $one --mode hint --concurrency 8
  load "1 replica, ai strength 1 (the service's own ceiling: little search)" --urls $one --mode ai --strength 1 \
    --concurrency 8
  load "1 replica, past saturation: 64 callers" --urls $one --mode ai --concurrency 64
  load "1 replica, past saturation: open loop" --urls $one --mode ai --rate "${BENCH_OVER_RATE:-800}"
  load "1 replica, past saturation: open loop, again (memory)" --urls $one --mode ai --rate "${BENCH_OVER_RATE:-800}"
  stop
  start 18081 18082
  load "2 replicas, ai" --urls $two --mode ai --concurrency 16
  load "2 replicas, hint" --urls $two --mode hint --concurrency 16
  stop
} 2>&1 | tee "$out/results.txt"
