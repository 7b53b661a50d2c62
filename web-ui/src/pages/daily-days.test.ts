import { describe, expect, it } from 'vitest';
import { dailyInPlay, dailyStarted, isDay, shiftDay, utcDay } from './daily-days';

describe('daily challenge days', () => {
  it('are UTC dates, whatever the local time zone', () => {
    expect(utcDay(new Date('2026-12-01T23:30:00-05:00'))).toBe('2026-12-02');
    expect(utcDay(new Date('2026-12-01T00:10:00+02:00'))).toBe('2026-11-30');
  });

  it('step across months, years and leap days', () => {
    expect(shiftDay('2026-12-31', 1)).toBe('2027-01-01');
    expect(shiftDay('2026-03-01', -1)).toBe('2026-02-28');
    expect(shiftDay('2028-03-01', -1)).toBe('2028-02-29');
  });

  it('accept only real calendar days written YYYY-MM-DD', () => {
    expect(isDay('2026-12-01')).toBe(true);
    expect(isDay('2028-02-29')).toBe(true);
    for (const bad of ['2026-02-30', '2026-13-01', '2026-1-01', '01-12-2026', '2026-12-01T00:00', '', null, undefined]) {
      expect(isDay(bad)).toBe(false);
    }
  });

  it('say practice only for a level GET /api/daily calls started, finished or not', () => {
    const today = {
      day: '2026-12-01',
      levels: [
        { level: 'EASY' as const, started: true, finished: false },
        { level: 'MEDIUM' as const, started: true, finished: true },
        { level: 'HARD' as const, started: false, finished: false },
      ],
    };
    expect(dailyStarted(today, 'EASY')).toBe(true);
    expect(dailyStarted(today, 'MEDIUM')).toBe(true);
    expect(dailyStarted(today, 'HARD')).toBe(false);
    expect(dailyStarted(today, 'EXPERT')).toBe(false);
    expect(dailyStarted(undefined, 'EASY')).toBe(false);
    // a game that may still count is in play only where one started and none ended: a practice game would end its count
    expect(dailyInPlay(today, 'EASY')).toBe(true);
    expect(dailyInPlay(today, 'MEDIUM')).toBe(false);
    expect(dailyInPlay(today, 'HARD')).toBe(false);
    expect(dailyInPlay(undefined, 'EASY')).toBe(false);
  });
});
