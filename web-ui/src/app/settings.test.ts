import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, parseSettings, reducedMotion } from './settings';

describe('settings kept on the device', () => {
  it('a first visit (nothing stored) gets the defaults: sound and vibration on, normal palette, motion as the system says', () => {
    expect(parseSettings(null)).toEqual({ sound: true, vibration: true, highContrast: false, motion: 'system' });
    expect(parseSettings(null)).toEqual(DEFAULT_SETTINGS);
  });

  it('a stored choice comes back as it was', () => {
    const mine = { sound: false, vibration: false, highContrast: true, motion: 'reduce' as const };
    expect(parseSettings(JSON.stringify(mine))).toEqual(mine);
  });

  it('broken or foreign text never breaks the page: each bad field is its default, unknown fields dropped', () => {
    expect(parseSettings('{not json')).toEqual(DEFAULT_SETTINGS);
    expect(parseSettings('42')).toEqual(DEFAULT_SETTINGS);
    expect(parseSettings('null')).toEqual(DEFAULT_SETTINGS);
    expect(parseSettings(JSON.stringify({ sound: 'no', highContrast: 1, motion: 'fast', vibration: false, extra: true })))
      .toEqual({ ...DEFAULT_SETTINGS, vibration: false });
  });

  it('motion: the system setting rules unless the player chose', () => {
    const s = (motion: 'system' | 'reduce' | 'full') => ({ ...DEFAULT_SETTINGS, motion });
    expect(reducedMotion(s('system'), true)).toBe(true);
    expect(reducedMotion(s('system'), false)).toBe(false);
    expect(reducedMotion(s('reduce'), false)).toBe(true);
    expect(reducedMotion(s('full'), true)).toBe(false);
  });
});
