import { describe, expect, it } from '@jest/globals';
import { pageCount, pageOf, pageWindow, showEdgeButtons } from './pagination';

describe('pagination', () => {
  it('shows 5 page numbers around the current page above 576 px, 3 at 576 px or less', () => {
    expect(pageWindow(6, 10, 1280)).toEqual([4, 5, 6, 7, 8]);
    expect(pageWindow(6, 10, 576)).toEqual([5, 6, 7]);
    expect(pageWindow(1, 10, 1280)).toEqual([1, 2, 3, 4, 5]);
    expect(pageWindow(10, 10, 375)).toEqual([8, 9, 10]);
    expect(pageWindow(1, 2, 1280)).toEqual([1, 2]);
  });

  it('has first and last buttons only wider than 576 px', () => {
    expect(showEdgeButtons(577)).toBe(true);
    expect(showEdgeButtons(576)).toBe(false);
  });

  it('cuts pages of the given size', () => {
    expect(pageCount(15, 7)).toBe(3);
    expect(pageCount(0, 7)).toBe(1);
    expect(pageOf([1, 2, 3, 4, 5, 6, 7, 8], 2, 7)).toEqual([8]);
  });
});
