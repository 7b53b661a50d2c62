import { describe, expect, it } from 'vitest';
import { biggestMistakes, lossChart, niceCeil, replayBody } from './analysis';

const mv = (move: number, loss: number, fatal = false) => ({ move, event: move * 2, loss, fatal });

describe('niceCeil', () => {
  it('rounds up to 1, 2 or 5 times a power of ten', () => {
    expect(niceCeil(0)).toBe(1);
    expect(niceCeil(1)).toBe(1);
    expect(niceCeil(37)).toBe(50);
    expect(niceCeil(50)).toBe(50);
    expect(niceCeil(51)).toBe(100);
    expect(niceCeil(120)).toBe(200);
    expect(niceCeil(1000)).toBe(1000);
  });
});

describe('lossChart', () => {
  it('gives one bar per move, height proportional to the loss against a tidy scale', () => {
    const c = lossChart([mv(1, 0), mv(2, 40), mv(3, 80), mv(4, 20)], 400, 100);
    expect(c.scale).toBe(100);
    expect(c.bars).toHaveLength(4);
    expect(c.bars.map((b) => b.height)).toEqual([0, 40, 80, 20]);
    expect(c.bars.map((b) => b.y)).toEqual([100, 60, 20, 80]);
    // each bar in its own slot of 100, a gap of 2 between them
    expect(c.bars.map((b) => b.x)).toEqual([1, 101, 201, 301]);
    expect(c.bars[0].width).toBe(98);
    expect(c.ticks).toEqual([{ value: 50, y: 50 }, { value: 100, y: 0 }]);
  });

  it('keeps small losses small: the scale is at least minScale', () => {
    const c = lossChart([mv(1, 5)], 100, 100, 50);
    expect(c.scale).toBe(50);
    expect(c.bars[0].height).toBe(10);
  });

  it('never draws below the axis nor above the top', () => {
    const c = lossChart([mv(1, -3), mv(2, 1000, true)], 10, 50);
    expect(c.bars[0].height).toBe(0);
    expect(c.bars[1].y).toBe(0);
    expect(c.bars[1].fatal).toBe(true);
    expect(c.bars.every((b) => b.width > 0)).toBe(true);
  });

  it('has no bars and no NaN for a game with no move', () => {
    const c = lossChart([], 100, 50);
    expect(c.bars).toEqual([]);
    expect(c.ticks.every((t) => Number.isFinite(t.y))).toBe(true);
  });
});

describe('biggestMistakes', () => {
  it('takes the three costliest, costliest first, the earlier of equal ones first, never a move that lost nothing', () => {
    const moves = [mv(1, 10), mv(2, 0), mv(3, 90), mv(4, 10), mv(5, 40), mv(6, 10)];
    expect(biggestMistakes(moves).map((m) => m.move)).toEqual([3, 5, 1]);
    expect(biggestMistakes([mv(1, 0), mv(2, 0)])).toEqual([]);
  });
});

describe('replayBody', () => {
  it('leaves out the start board and keeps the 64-bit seed exact as text', () => {
    const body = replayBody({ seed: '-9007199254740993', level: 'EASY', rounds: [], events: [], start: ['........'] });
    expect(body.seed).toBe('-9007199254740993');
    expect('start' in body).toBe(false);
    expect(() => replayBody({ seed: 'x', level: 'EASY', rounds: [], events: [] })).toThrow();
  });
});
