import { describe, expect, it } from '@jest/globals';
import { uuidv7 } from './ids';

describe('uuidv7', () => {
  it('is a version 7, variant 1 UUID carrying its millisecond', () => {
    const id = uuidv7(0x0189_abcd_ef01);
    expect(id).toMatch(/^0189abcd-ef01-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('sorts in creation order, within one millisecond too', () => {
    const ids = Array.from({ length: 5_000 }, () => uuidv7());
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
