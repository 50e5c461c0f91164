// The window's title and favicon while calls wait for approval, and the time left in words.
import { describe, expect, it } from 'vitest';
import { attentionTitle, faviconHref, secondsLeft, timeLeftText } from '../../src-renderer/lib/attention.ts';

describe('attention outside the page', () => {
  it('puts the count of waiting approvals in the title, and takes it out when none wait', () => {
    expect(attentionTitle(0)).toBe('Switchboard');
    expect(attentionTitle(1)).toBe('(1) Approval needed — Switchboard');
    expect(attentionTitle(3)).toBe('(3) Approval needed — Switchboard');
  });

  it('badges the favicon with the count, and keeps the plain icon otherwise', () => {
    const plain = decodeURIComponent(faviconHref(0));
    expect(plain).toMatch(/^data:image\/svg\+xml,<svg /);
    expect(plain).not.toContain('<text');
    expect(decodeURIComponent(faviconHref(2))).toMatch(/<text[^>]*>2<\/text>/);
    expect(decodeURIComponent(faviconHref(12))).toMatch(/>9\+<\/text>/);
  });

  it('counts the seconds left down to 0 and says them in words', () => {
    const now = Date.parse('2026-12-06T01:00:00.000Z');
    expect(secondsLeft('2026-12-06T01:00:49.200Z', now)).toBe(50);
    expect(secondsLeft('2026-12-06T00:59:00.000Z', now)).toBe(0);
    expect(timeLeftText(42)).toBe('42 s');
    expect(timeLeftText(65)).toBe('1 min 05 s');
  });
});
