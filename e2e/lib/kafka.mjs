// The local stack's Kafka from outside, with the broker's own client jar (.bloc/dist): publish one message as a
// given SCRAM user (e2e/lib/KafkaPublish.java), read topics' partition counts (e2e/lib/KafkaTopics.java) and the
// members of a consumer group (e2e/lib/KafkaGroup.java).
// Passwords come from .bloc/secrets/bloc.env, which ./bloc up generates (docs/platform.md).
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const BOOTSTRAP = process.env.BLOC_KAFKA ?? 'localhost:19092';

function kafkaLibs() {
  const dist = resolve(ROOT, '.bloc/dist');
  const dir = readdirSync(dist).find((d) => d.startsWith('kafka-'));
  if (!dir) throw new Error(`no Kafka in ${dist}: run ./bloc up`);
  return resolve(dist, dir, 'libs/*');
}

function java(program, args, { input = '', env = {} } = {}) {
  const res = spawnSync('java', ['-cp', kafkaLibs(), resolve(ROOT, 'e2e/lib', program), ...args], {
    input, encoding: 'utf8', timeout: 90_000, cwd: ROOT, env: { ...process.env, ...env },
  });
  const stderr = (res.stderr ?? '').split('\n').filter((l) => l && !l.startsWith('SLF4J')).join('\n');
  return { status: res.status, stdout: (res.stdout ?? '').trim(), stderr };
}

/**
 * Sends one message; user is a Kafka user (default game-service, the only writer of game-finished) or 'none'
 * (no SASL); password defaults to the user's own. Returns { status, stdout, stderr }: status 0 with
 * "topic-partition@offset", 3 when the broker refused the login or the write (stderr names the exception).
 */
export function publishAs(topic, key, value, { user = 'game-service', password, maxBlockMs } = {}) {
  const env = { BLOC_KAFKA_USER: user };
  if (password !== undefined) env.BLOC_KAFKA_PASSWORD = password;
  if (maxBlockMs !== undefined) env.BLOC_KAFKA_MAX_BLOCK_MS = String(maxBlockMs);
  return java('KafkaPublish.java', [BOOTSTRAP, topic, key], { input: value, env });
}

/** { topic: partitionCount } for the given topics, read as game-service. */
export function partitionCounts(...topics) {
  const res = java('KafkaTopics.java', [BOOTSTRAP, ...topics]);
  if (res.status !== 0) throw new Error(`KafkaTopics failed (${res.status}): ${res.stderr}`);
  return Object.fromEntries(res.stdout.split('\n').map((l) => l.split(' ')).map(([t, n]) => [t, Number(n)]));
}

/** The members of a leaderboard-service consumer group: [{ member, partitions: ['game-finished-0', ...] }]. */
export function groupMembers(group) {
  const res = java('KafkaGroup.java', [BOOTSTRAP, group]);
  if (res.status !== 0) throw new Error(`KafkaGroup failed (${res.status}): ${res.stderr}`);
  return res.stdout.split('\n').filter((l) => l).map((l) => l.split(' '))
    .map(([member, partitions]) => ({ member, partitions: partitions ? partitions.split(',') : [] }));
}
