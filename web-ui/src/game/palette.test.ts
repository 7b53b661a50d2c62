// The high-contrast palette tells pieces apart by pattern, not by colour alone (settings: "nothing is told by colour
// alone"): every colour a block can have carries a pattern of its own there.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { colourOf, PIECES } from './pieces';
import { DRAWN_COLOUR, STONE } from '../pages/solver-steps';

const css = readFileSync(new URL('../style.css', import.meta.url), 'utf8');

/** The --pat of colour n in the high-contrast palette, or undefined when it has no rule. */
function patternOf(n: number): string | undefined {
  const rule = new RegExp(`html\\[data-contrast='high'\\] \\.c${n}, html\\[data-contrast='high'\\] \\.g${n} \\{([^}]*)\\}`);
  return rule.exec(css)?.[1].match(/--pat:\s*([^;]+);/)?.[1].trim();
}

describe('high-contrast palette', () => {
  const colours = [...new Set([...PIECES.map((p) => colourOf(p.id)), STONE, DRAWN_COLOUR])].sort((a, b) => a - b);

  it('gives every colour a block can have a pattern (a DOT had none, so a tray of dots was told by colour alone)', () => {
    for (const n of colours) expect(patternOf(n), `colour ${n}`).toMatch(/gradient\(/);
  });

  it('gives no two colours the same pattern', () => {
    const patterns = colours.map(patternOf);
    expect(new Set(patterns).size).toBe(patterns.length);
  });
});
