# shellcheck shell=bash disable=SC2034  # constants read by the files sourcing this one
# The local stack's secrets, generated once into .bloc/secrets/bloc.env (mode 600, never committed):
# game-service's Ed25519 signing key pair for game-finished, the daily challenge's secret, and the
# SCRAM passwords of the Kafka users. The same file is docker compose's --env-file (docs/platform.md).

SECRETS_DIR="$STATE/secrets"
SECRETS_FILE="$SECRETS_DIR/bloc.env"
# Every variable bloc.env holds; a file missing one is completed, never rewritten.
SECRET_NAMES=(BLOC_SIGNING_KEY_ID BLOC_SIGNING_PRIVATE_KEY BLOC_SIGNING_PUBLIC_KEYS BLOC_DAILY_SECRET
  KAFKA_ADMIN_PASSWORD KAFKA_GAME_SERVICE_PASSWORD KAFKA_LEADERBOARD_SERVICE_PASSWORD)

# secret NAME: the value of NAME in bloc.env (empty when absent).
secret() {
  [[ -f "$SECRETS_FILE" ]] || return 0
  sed -n "s/^$1=//p" "$SECRETS_FILE" | tail -1
}

# random_token BYTES: that many random bytes as base64 without + / = (safe in JAAS, SCRAM and env files).
random_token() { head -c "$1" /dev/urandom | base64 -w0 | tr -d '+/='; }

# ed25519_pair: prints "PRIVATE PUBLIC", base64 PKCS#8 and X.509 DER. openssl when it knows Ed25519,
# otherwise the JDK (platform/lib/Ed25519KeyPair.java, a single-file program).
ed25519_pair() {
  local der
  if command -v openssl >/dev/null && der="$(openssl genpkey -algorithm ed25519 -outform DER 2>/dev/null | base64 -w0)" \
      && [[ -n "$der" ]]; then
    printf '%s %s\n' "$der" "$(base64 -d <<<"$der" | openssl pkey -inform DER -pubout -outform DER | base64 -w0)"
  else
    "$JAVA" "$ROOT/platform/lib/Ed25519KeyPair.java"
  fi
}

# set_secret NAME VALUE: replaces or appends NAME in bloc.env.
set_secret() {
  local tmp="$SECRETS_FILE.tmp"
  (umask 077; grep -v "^$1=" "$SECRETS_FILE" >"$tmp" 2>/dev/null || true; echo "$1=$2" >>"$tmp")
  mv "$tmp" "$SECRETS_FILE"
}

# new_signing_key: a new key pair for game-service, its public key added after the ones already accepted (never
# replacing them: messages signed by an earlier key may still wait in Kafka or in game-service's outbox).
new_signing_key() {
  local pair id keys
  pair="$(ed25519_pair)" || die "could not generate the Ed25519 signing key"
  id="local-$(date -u +%Y%m%d%H%M%S)"
  keys="$(secret BLOC_SIGNING_PUBLIC_KEYS)"
  [[ ",$keys" != *",$id:"* ]] || die "a key $id exists already: try again in a second"
  set_secret BLOC_SIGNING_PUBLIC_KEYS "${keys:+$keys,}$id:${pair#* }"
  set_secret BLOC_SIGNING_KEY_ID "$id"
  set_secret BLOC_SIGNING_PRIVATE_KEY "${pair% *}"
}

# Creates what bloc.env lacks; values already there are kept (a restart keeps its keys and passwords).
secrets_prepare() {
  (umask 077; mkdir -p "$SECRETS_DIR")
  chmod 700 "$SECRETS_DIR"
  # A first run: no secret made yet (no file, or a run that stopped before making any).
  local first=true name
  for name in "${SECRET_NAMES[@]}"; do
    if [[ -n "$(secret "$name")" ]]; then first=false; fi
  done
  if [[ ! -f "$SECRETS_FILE" ]]; then
    (umask 077; cat >"$SECRETS_FILE" <<'EOF'
# Bloc Éclat local secrets, generated once by ./bloc up (platform/lib/secrets.sh). Never commit this file.
# Also docker compose's environment: docker compose --env-file .bloc/secrets/bloc.env up --build
EOF
    )
  fi
  chmod 600 "$SECRETS_FILE"
  local made=()
  if [[ -z "$(secret BLOC_SIGNING_PRIVATE_KEY)" ]]; then
    new_signing_key
    made+=("signing key $(secret BLOC_SIGNING_KEY_ID)")
    if ! $first; then
      info "BLOC_SIGNING_PRIVATE_KEY was missing: a new key, accepted after the earlier ones; drop those from BLOC_SIGNING_PUBLIC_KEYS once no message signed by them is left to read"
    fi
  fi
  if [[ -z "$(secret BLOC_DAILY_SECRET)" ]]; then
    set_secret BLOC_DAILY_SECRET "$(head -c 32 /dev/urandom | base64 -w0)"
    made+=("daily secret")
    # Not the first run: the daily challenge's seeds (today's too) change at game-service's next start.
    if ! $first; then
      warn "BLOC_DAILY_SECRET was missing from $SECRETS_FILE: a new one deals new daily challenges from game-service's next start, today's included (games already started keep their pieces)"
    fi
  fi
  for name in KAFKA_ADMIN_PASSWORD KAFKA_GAME_SERVICE_PASSWORD KAFKA_LEADERBOARD_SERVICE_PASSWORD; do
    if [[ -z "$(secret "$name")" ]]; then
      set_secret "$name" "$(random_token 24)"
      made+=("${name,,}")
    fi
  done
  if ((${#made[@]} > 0)); then
    ok "generated into $SECRETS_FILE: ${made[*]//_/-}"
  else
    ok "secrets in $SECRETS_FILE (signing key $(secret BLOC_SIGNING_KEY_ID))"
  fi
}

# ./bloc rotate-key: a new signing key pair for game-service; leaderboard-service keeps accepting the
# old public key beside the new one until it is removed from BLOC_SIGNING_PUBLIC_KEYS by hand.
cmd_rotate_key() {
  mkdir -p "$LOGS"
  secrets_prepare
  local old
  old="$(secret BLOC_SIGNING_KEY_ID)"
  new_signing_key
  ok "game-service signs with $(secret BLOC_SIGNING_KEY_ID) from its next start; leaderboard-service accepts $(secret BLOC_SIGNING_PUBLIC_KEYS | sed 's/:[^,]*//g; s/,/, /g')"
  info "'./bloc down && ./bloc up' to use it; drop $old from BLOC_SIGNING_PUBLIC_KEYS in $SECRETS_FILE once no message signed by it is left to read"
}

# kafka_jaas USER PASSWORD: a SCRAM client login for that Kafka user.
kafka_jaas() {
  printf 'org.apache.kafka.common.security.scram.ScramLoginModule required username="%s" password="%s";' "$1" "$2"
}
