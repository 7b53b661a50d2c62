/*
 * Sound effects made at run time with Web Audio (no audio files), and vibration where the device has it.
 * The choice of notes is a pure function (`notesFor`, tested alone); `feedback` plays them if the settings say so.
 * Guarantees: nothing is played or vibrated with the setting off; a browser without Web Audio or `navigator.vibrate`
 * plays nothing and throws nothing; the AudioContext is made on the first cue (after a move: a user gesture).
 */
import { settings } from './settings';

export type Cue =
  | { kind: 'place' }
  | { kind: 'clear'; lines: number; multiplier: number }
  | { kind: 'clean' }
  | { kind: 'over' };

export interface Note {
  /** Hz. */
  freq: number;
  /** Seconds after the cue. */
  at: number;
  /** Seconds. */
  duration: number;
  type: OscillatorType;
  /** Peak gain, 0..1. */
  gain: number;
}

const A4 = 440;
const semitones = (n: number) => Math.pow(2, n / 12);
/** A major arpeggio's steps in semitones. */
const ARPEGGIO = [0, 4, 7, 12, 16];

/** The cues of one move's outcome, in the order they sound. */
export function cuesFor(outcome: { lines: number; multiplier: number; cleanBonus: number; gameOver: boolean }): Cue[] {
  const cues: Cue[] = [{ kind: 'place' }];
  if (outcome.lines > 0) cues.push({ kind: 'clear', lines: outcome.lines, multiplier: Math.max(outcome.multiplier, 1) });
  if (outcome.cleanBonus > 0) cues.push({ kind: 'clean' });
  if (outcome.gameOver) cues.push({ kind: 'over' });
  return cues;
}

/**
 * The notes of a cue. A clear is an arpeggio of one note per line (at most five) whose first note rises two semitones
 * with each step of the streak (×1 … ×8), so a longer streak sounds higher.
 */
export function notesFor(cue: Cue): Note[] {
  switch (cue.kind) {
    case 'place':
      return [{ freq: 220, at: 0, duration: 0.07, type: 'triangle', gain: 0.25 }];
    case 'clear': {
      const base = A4 * semitones(2 * (Math.min(Math.max(cue.multiplier, 1), 8) - 1));
      return ARPEGGIO.slice(0, Math.min(Math.max(cue.lines, 1), ARPEGGIO.length)).map((step, i) => ({
        freq: base * semitones(step), at: 0.05 + i * 0.07, duration: 0.16, type: 'sine' as OscillatorType, gain: 0.22,
      }));
    }
    case 'clean':
      return [0, 4, 7, 12, 19].map((step, i) => ({ freq: 523.25 * semitones(step), at: 0.3 + i * 0.06, duration: 0.3, type: 'triangle' as OscillatorType, gain: 0.2 }));
    case 'over':
      return [0, -3, -7, -12].map((step, i) => ({ freq: 392 * semitones(step), at: 0.15 + i * 0.22, duration: 0.3, type: 'sawtooth' as OscillatorType, gain: 0.08 }));
  }
}

/** The vibration of a cue, in navigator.vibrate's milliseconds (on, off, on, …). */
export function vibrationFor(cue: Cue): number[] {
  switch (cue.kind) {
    case 'place':
      return [12];
    case 'clear':
      return [25 + 15 * Math.min(cue.lines, 5)];
    case 'clean':
      return [40, 40, 40, 40, 80];
    case 'over':
      return [200, 100, 250];
  }
}

let audio: AudioContext | null = null;

function context(): AudioContext | null {
  if (audio) return audio;
  const Ctor = (globalThis as { AudioContext?: typeof AudioContext; webkitAudioContext?: typeof AudioContext }).AudioContext
    ?? (globalThis as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
  if (!Ctor) return null;
  try {
    audio = new Ctor();
  } catch {
    return null;
  }
  return audio;
}

function play(notes: Note[]): void {
  const ctx = context();
  if (!ctx) return;
  if (ctx.state === 'suspended') void ctx.resume().catch(() => undefined);
  const now = ctx.currentTime;
  for (const n of notes) {
    const osc = ctx.createOscillator();
    const env = ctx.createGain();
    osc.type = n.type;
    osc.frequency.value = n.freq;
    const start = now + n.at;
    env.gain.setValueAtTime(0.0001, start);
    env.gain.exponentialRampToValueAtTime(n.gain, start + 0.01);
    env.gain.exponentialRampToValueAtTime(0.0001, start + n.duration);
    osc.connect(env).connect(ctx.destination);
    osc.start(start);
    osc.stop(start + n.duration + 0.02);
  }
}

/** Sounds and vibrates the cues as the settings allow. */
export function feedback(cues: Cue[]): void {
  const s = settings();
  if (s.sound) play(cues.flatMap(notesFor));
  if (s.vibration && typeof navigator !== 'undefined' && typeof navigator.vibrate === 'function') {
    // One pattern: the strongest cue's (a clean board or game over beats a clear, a clear beats a placement).
    const last = cues[cues.length - 1];
    if (last) {
      try {
        navigator.vibrate(vibrationFor(last));
      } catch {
        // some browsers refuse without a user gesture: silence is fine
      }
    }
  }
}
