// The local stack's Kafka from outside, with the broker's own client jar (.bloc/dist): publish one message as a
// given SCRAM user (e2e/lib/KafkaPublish.java), read topics' partition counts (e2e/lib/KafkaTopics.java) and the
// members of a consumer group (e2e/lib/KafkaGroup.java), list and add ACLs as admin (e2e/lib/KafkaAcl.java), and apply
// platform/kafka/access.conf again as ./bloc up does.
// Passwords come from .bloc/secrets/bloc.env, which ./bloc up generates (docs/platform.md).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const BOOTSTRAP = process.env.BLOC_KAFKA ?? 'localhost:19092';

const PROGRAMS = ['KafkaPublish', 'KafkaTopics', 'KafkaGroup', 'KafkaAcl'];

/** The broker's client jars, every one by name, as a class path. */
export function kafkaLibs() {
  const dist = resolve(ROOT, '.bloc/dist');
  const dir = readdirSync(dist).find((d) => d.startsWith('kafka-'));
  if (!dir) throw new Error(`no Kafka in ${dist}: run ./bloc up`);
  // every jar by name: javac run as a module's main class does not expand a classpath wildcard
  const libs = resolve(dist, dir, 'libs');
  return readdirSync(libs).filter((f) => f.endsWith('.jar')).map((f) => resolve(libs, f)).join(':');
}

// The three programs compiled once, and again when a source changes (each test file is a process of its own, so
// the classes live on disk): a source-file launch compiles on every call, about 2 s of the stage's CPU each time.
function classes() {
  const dir = resolve(ROOT, '.bloc/e2e-classes');
  const built = (p) => resolve(dir, `${p}.class`);
  const source = (p) => resolve(ROOT, 'e2e/lib', `${p}.java`);
  if (PROGRAMS.some((p) => !existsSync(built(p)) || statSync(built(p)).mtimeMs < statSync(source(p)).mtimeMs)) {
    const building = `${dir}.${process.pid}`;
    rmSync(building, { recursive: true, force: true });
    mkdirSync(building, { recursive: true });
    // javac through the same java as the source launch needed (its jdk.compiler module), not a javac on the PATH
    const res = spawnSync('java', ['-m', 'jdk.compiler/com.sun.tools.javac.Main', '-d', building, '-cp', kafkaLibs(),
      ...PROGRAMS.map(source)], { encoding: 'utf8' });
    if (res.status !== 0) throw new Error(`javac of e2e/lib/Kafka*.java failed: ${res.stderr}`);
    rmSync(dir, { recursive: true, force: true });
    renameSync(building, dir);
  }
  return dir;
}

// Short-lived clients: C1 alone and the serial collector start them sooner than the defaults.
function java(program, args, { input = '', env = {} } = {}) {
  const res = spawnSync('java', ['-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC',
    '-cp', `${classes()}:${kafkaLibs()}`, program, ...args], {
    input, encoding: 'utf8', timeout: 90_000, cwd: ROOT, env: { ...process.env, ...env },
  });
  const stderr = (res.stderr ?? '').split('\n').filter((l) => l && !l.startsWith('SLF4J')).join('\n');
  return { status: res.status, stdout: (res.stdout ?? '').trim(), stderr };
}

/**
 * Sends one message; user is a Kafka user (default game-service, the only writer of game-finished) or 'none'
 * (no SASL); password defaults to the user's own; sign wraps the value in game-service's signed envelope (what
 * only a holder of its signing key can write). Returns { status, stdout, stderr }: status 0 with
 * "topic-partition@offset", 3 when the broker refused the login or the write (stderr names the exception).
 */
export function publishAs(topic, key, value, { user = 'game-service', password, maxBlockMs, sign = false } = {}) {
  const env = { BLOC_KAFKA_USER: user, BLOC_SIGN: sign ? '1' : '0' };
  if (password !== undefined) env.BLOC_KAFKA_PASSWORD = password;
  if (maxBlockMs !== undefined) env.BLOC_KAFKA_MAX_BLOCK_MS = String(maxBlockMs);
  return java('KafkaPublish', [BOOTSTRAP, topic, key], { input: value, env });
}

/** { topic: partitionCount } for the given topics, read as game-service. */
export function partitionCounts(...topics) {
  const res = java('KafkaTopics', [BOOTSTRAP, ...topics]);
  if (res.status !== 0) throw new Error(`KafkaTopics failed (${res.status}): ${res.stderr}`);
  return Object.fromEntries(res.stdout.split('\n').map((l) => l.split(' ')).map(([t, n]) => [t, Number(n)]));
}

/** The members of a leaderboard-service consumer group: [{ member, partitions: ['game-finished-0', ...] }]. */
export function groupMembers(group) {
  const res = java('KafkaGroup', [BOOTSTRAP, group]);
  if (res.status !== 0) throw new Error(`KafkaGroup failed (${res.status}): ${res.stderr}`);
  return res.stdout.split('\n').filter((l) => l).map((l) => l.split(' '))
    .map(([member, partitions]) => ({ member, partitions: partitions ? partitions.split(',') : [] }));
}

/** Every ACL of the broker, one string each: "TYPE PATTERN NAME PRINCIPAL HOST OPERATION PERMISSION". */
export function acls() {
  const res = java('KafkaAcl', [BOOTSTRAP, 'list']);
  if (res.status !== 0) throw new Error(`KafkaAcl list failed (${res.status}): ${res.stderr}`);
  return res.stdout.split('\n').filter((l) => l);
}

/** Adds, as admin, the grant of operation (e.g. WRITE) on a literal topic to a user: one no line may allow. */
export function allowOnTopic(user, operation, topic) {
  const res = java('KafkaAcl', [BOOTSTRAP, 'allow', user, operation, topic]);
  if (res.status !== 0) throw new Error(`KafkaAcl allow failed (${res.status}): ${res.stderr}`);
}

/** Applies platform/kafka/access.conf as ./bloc up does (platform/lib/infra.sh kafka_setup); answers its line. */
export function kafkaSetup() {
  const res = spawnSync('bash', ['-c', 'set -euo pipefail; ROOT="$PWD"; source platform/lib/common.sh; '
    + 'source platform/lib/secrets.sh; source platform/lib/infra.sh; mkdir -p "$LOGS"; kafka_setup'],
  { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
  if (res.status !== 0) throw new Error(`kafka_setup failed (${res.status}): ${res.stdout} ${res.stderr}`);
  return res.stdout.trim();
}
