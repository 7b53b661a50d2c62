#!/usr/bin/env bash
# Applies access.conf (topics, SCRAM users, ACLs) with the apache/kafka image's CLI tools: docker compose's
# kafka-setup service and the k8s Job kafka-setup run it once the broker listens (the local stack runs
# KafkaSetup.java instead, same file). Idempotent: the ACLs the file lists are added, and last every other ALLOW ACL
# of the broker (one an older access.conf granted, or one added by hand) is removed. Logs in as the super user admin (SASL PLAIN, its password in
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

# CamelCase (access.conf, the CLI's --operation) and UPPER_SNAKE (the CLI's --list) names of an operation.
# (bash and POSIX sed only: the image's tools may be BusyBox's)
upper_snake() { local s; s="$(sed -E 's/([a-z])([A-Z])/\1_\2/g' <<<"$1")"; echo "${s^^}"; }
camel() { local w out="" words; IFS=_ read -ra words <<<"${1,,}"; for w in "${words[@]}"; do out+="${w^}"; done; echo "$out"; }

users=()
# every ACL the file allows, as "TYPE PATTERN NAME PRINCIPAL HOST OPERATION PERMISSION" (the words of the --list)
declare -A wanted=()
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
      for op in "${ops[@]}"; do
        operations+=(--operation "$op")
        wanted["$(upper_snake "$c") $(upper_snake "$d") $e User:$a * $(upper_snake "$op") ALLOW"]=1
      done
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

# Last, once the users have their passwords: every ALLOW ACL of the broker that no line lists is removed (a grant
# an older access.conf made, or one added by hand). DENY entries are left alone (they only ever narrow what is
# allowed: an operator's emergency deny must outlive a setup run). The ACLs, read from the CLI's --list:
#   Current ACLs for resource `ResourcePattern(resourceType=TOPIC, name=game-finished, patternType=LITERAL)`:
#   	(principal=User:game-service, host=*, operation=WRITE, permissionType=ALLOW)
# as "TYPE|PATTERN|NAME|PRINCIPAL|HOST|OPERATION|PERMISSION" lines ("|": names may hold spaces). One that cannot be
# removed is reported and left, and the setup still succeeds, so that the services start.
present="$(kafka kafka-acls.sh --list | sed -nE \
  -e 's/^Current ACLs for resource `ResourcePattern\(resourceType=([A-Z_]+), name=(.*), patternType=([A-Z_]+)\)`:.*/R|\1|\3|\2/p' \
  -e 's/^[[:space:]]*\(principal=(.*), host=(.*), operation=([A-Z_]+), permissionType=([A-Z]+)\).*/E|\1|\2|\3|\4/p' \
  | awk -F'|' '$1 == "R" { r = $2 "|" $3 "|" $4; next } $1 == "E" { print r "|" $2 "|" $3 "|" $4 "|" $5 }')"
removed=0
failed=0
while IFS='|' read -r type pattern name principal host op permission; do
  [[ -n "$type" && "$permission" == ALLOW ]] || continue
  [[ -z "${wanted["$type $pattern $name $principal $host $op $permission"]:-}" ]] || continue
  case "$type" in
    CLUSTER) resource=(--cluster) ;;
    TRANSACTIONAL_ID) resource=(--transactional-id "$name") ;;
    DELEGATION_TOKEN) resource=(--delegation-token "$name") ;;
    USER) resource=(--user-principal "$name") ;;
    *) resource=("--${type,,}" "$name") ;;
  esac
  if kafka kafka-acls.sh --remove --force --allow-principal "$principal" --allow-host "$host" \
      --operation "$(camel "$op")" "${resource[@]}" --resource-pattern-type "${pattern,,}" </dev/null >/dev/null; then
    echo "kafka-setup: removed ALLOW $principal $op on $type $pattern $name (no line of $ACCESS_CONF allows it)"
    removed=$((removed + 1))
  else
    echo "kafka-setup: WARNING: could not remove ALLOW $principal $op on $type $pattern $name, which no line allows" >&2
    failed=$((failed + 1))
  fi
done <<<"$present"
echo "kafka-setup: ${#wanted[@]} ACLs as listed, $removed removed, $failed not removed"
