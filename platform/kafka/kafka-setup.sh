#!/usr/bin/env bash
# Applies access.conf (topics, SCRAM users, ACLs) with the apache/kafka image's CLI tools: docker compose's
# kafka-setup service and the k8s Job kafka-setup run it once the broker listens (the local stack runs
# KafkaSetup.java instead, same file). Idempotent. Logs in as the super user admin (SASL PLAIN, its password in
# KAFKA_ADMIN_PASSWORD); each user's SCRAM-SHA-512 password comes from KAFKA_<USER>_PASSWORD
# (KAFKA_GAME_SERVICE_PASSWORD, KAFKA_LEADERBOARD_SERVICE_PASSWORD).
set -euo pipefail

BOOTSTRAP="${KAFKA_BOOTSTRAP:-kafka:9092}"
ACCESS_CONF="${ACCESS_CONF:-$(dirname "$0")/access.conf}"
BIN="${KAFKA_BIN:-/opt/kafka/bin}"
: "${KAFKA_ADMIN_PASSWORD:?KAFKA_ADMIN_PASSWORD is not set}"

admin_config="$(mktemp)"
trap 'rm -f "$admin_config"' EXIT
cat >"$admin_config" <<EOF
security.protocol=SASL_PLAINTEXT
sasl.mechanism=PLAIN
sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username="admin" password="$KAFKA_ADMIN_PASSWORD";
EOF

kafka() { "$BIN/$1" --bootstrap-server "$BOOTSTRAP" --command-config "$admin_config" "${@:2}"; }

for try in $(seq 1 60); do
  kafka kafka-topics.sh --list >/dev/null 2>&1 && break
  [[ $try -lt 60 ]] || { echo "kafka-setup: no broker at $BOOTSTRAP after 120 s" >&2; exit 1; }
  sleep 2
done

users=()
while read -r kind a b c d e; do
  case "$kind" in
    '' | '#'*) ;;
    topic)
      kafka kafka-topics.sh --create --if-not-exists --topic "$a" --partitions "$b" --replication-factor 1
      have="$(kafka kafka-topics.sh --describe --topic "$a" | sed -n 's/.*PartitionCount: *\([0-9]*\).*/\1/p' | head -1)"
      if [[ "${have:-0}" -lt "$b" ]]; then
        kafka kafka-topics.sh --alter --topic "$a" --partitions "$b"
      fi
      echo "kafka-setup: topic $a, $b partitions"
      ;;
    allow)
      operations=()
      IFS=, read -ra ops <<<"$b"
      for op in "${ops[@]}"; do operations+=(--operation "$op"); done
      kafka kafka-acls.sh --add --allow-principal "User:$a" "${operations[@]}" "--$c" "$e" \
        --resource-pattern-type "$d" >/dev/null
      echo "kafka-setup: allow $a $b on $c $d $e"
      users+=("$a")
      ;;
    *) echo "kafka-setup: $ACCESS_CONF: cannot read '$kind $a $b $c $d $e'" >&2; exit 1 ;;
  esac
done <"$ACCESS_CONF"

for user in $(printf '%s\n' "${users[@]}" | sort -u); do
  var="KAFKA_$(tr 'a-z-' 'A-Z_' <<<"$user")_PASSWORD"
  password="${!var:?no password for Kafka user $user ($var)}"
  kafka kafka-configs.sh --alter --entity-type users --entity-name "$user" \
    --add-config "SCRAM-SHA-512=[iterations=8192,password=$password]" >/dev/null
  echo "kafka-setup: SCRAM-SHA-512 user $user"
done
