import { local } from './store';
/*
 * The player's settings, kept on this device only (localStorage `bloc.settings`, never sent anywhere): sound,
 * vibration, the high-contrast palette and motion. Guarantees: whatever the stored text is (absent, old, hand-edited,
 * not JSON), `parseSettings` returns a complete valid value, unknown fields dropped; the page applies them as
 * attributes on <html> (`data-contrast`, `data-motion`) that the style sheet reads.
 */

export type Motion = 'system' | 'reduce' | 'full';

export interface Settings {
  sound: boolean;
  vibration: boolean;
  /** A palette with patterns and marks on the cells, so nothing is told by colour alone. */
  highContrast: boolean;
  /** 'system' follows the device's `prefers-reduced-motion`. */
  motion: Motion;
}

export const DEFAULT_SETTINGS: Readonly<Settings> = Object.freeze({ sound: true, vibration: true, highContrast: false, motion: 'system' });

export const SETTINGS_KEY = 'bloc.settings';

/** The settings a stored text stands for: every field checked, anything missing or wrong is its default. */
export function parseSettings(text: string | null): Settings {
  let raw: unknown = null;
  try {
    raw = text ? JSON.parse(text) : null;
  } catch {
    raw = null;
  }
  const o = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  const bool = (key: 'sound' | 'vibration' | 'highContrast') => (typeof o[key] === 'boolean' ? (o[key] as boolean) : DEFAULT_SETTINGS[key]);
  const motion = o.motion === 'reduce' || o.motion === 'full' || o.motion === 'system' ? o.motion : DEFAULT_SETTINGS.motion;
  return { sound: bool('sound'), vibration: bool('vibration'), highContrast: bool('highContrast'), motion };
}

/** Whether motion is reduced: the player's choice, else the system's. */
export function reducedMotion(settings: Settings, systemPrefersReduced: boolean): boolean {
  return settings.motion === 'reduce' || (settings.motion === 'system' && systemPrefersReduced);
}

type Listener = (s: Settings) => void;
const listeners: Listener[] = [];
let current: Settings | null = null;

export function settings(): Settings {
  current ??= parseSettings(local.get(SETTINGS_KEY));
  return current;
}

export function updateSettings(change: Partial<Settings>): Settings {
  current = parseSettings(JSON.stringify({ ...settings(), ...change }));
  local.set(SETTINGS_KEY, JSON.stringify(current)); // storage refused (private mode): for this visit only
  applySettings();
  listeners.forEach((l) => l(current!));
  return current;
}

export function onSettingsChange(listener: Listener): void {
  listeners.push(listener);
}

function systemPrefersReduced(): boolean {
  return typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;
}

/** Whether animations are to be skipped now. */
export function motionReduced(): boolean {
  return reducedMotion(settings(), systemPrefersReduced());
}

/** Puts the settings on <html> for the style sheet. */
export function applySettings(): void {
  if (typeof document === 'undefined') return;
  const s = settings();
  const root = document.documentElement;
  root.dataset.contrast = s.highContrast ? 'high' : 'normal';
  root.dataset.motion = s.motion;
  root.classList.toggle('reduce-motion', motionReduced());
}
