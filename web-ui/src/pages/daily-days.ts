/** The daily challenge's days: UTC dates as YYYY-MM-DD, and what `GET /api/daily` says of a level. */
import type { DailyToday, Level } from '../app/api';

export function utcDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** `day` moved by `days` (UTC), as YYYY-MM-DD. */
export function shiftDay(day: string, days: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return utcDay(d);
}

/** A real calendar day written YYYY-MM-DD (not 2026-02-30). */
export function isDay(value: string | null | undefined): value is string {
  if (!value || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const d = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && utcDay(d) === value;
}

/** Whether the caller already started today's daily game of that level (so the next one is practice). */
export function dailyStarted(today: DailyToday | undefined, level: Level): boolean {
  return !!today?.levels?.find((l) => l.level === level)?.started;
}

/**
 * Whether the caller's game of today at that level may still count and is in play (started, none ended): a practice
 * game started now would stop it counting (game-service makes a daily game in play practice when another begins).
 */
export function dailyInPlay(today: DailyToday | undefined, level: Level): boolean {
  const l = today?.levels?.find((x) => x.level === level);
  return !!l?.started && !l.finished;
}
