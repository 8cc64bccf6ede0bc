// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { applyLook } from './look';

/** A window whose system colour scheme the test can switch. */
function systemWith(dark: boolean) {
  const listeners = new Set<() => void>();
  const query = {
    matches: dark,
    addEventListener: (_type: string, listener: () => void) => listeners.add(listener),
    removeEventListener: (_type: string, listener: () => void) => listeners.delete(listener),
  };
  const win = { matchMedia: () => query } as unknown as Window;
  return {
    win,
    listeners,
    switchTo(next: boolean) {
      query.matches = next;
      for (const listener of listeners) listener();
    },
  };
}

describe('applyLook', () => {
  it('follows the system for auto, also when it changes, until stopped', () => {
    const root = document.createElement('html');
    const system = systemWith(true);
    const stop = applyLook(root, { theme: 'auto' }, system.win);
    expect(root.dataset.theme).toBe('dark');
    system.switchTo(false);
    expect(root.dataset.theme).toBe('light');
    stop();
    expect(system.listeners.size).toBe(0);
  });

  it('keeps an explicit theme whatever the system says', () => {
    const root = document.createElement('html');
    const system = systemWith(true);
    applyLook(root, { theme: 'light' }, system.win);
    system.switchTo(true);
    expect(root.dataset.theme).toBe('light');
    expect(system.listeners.size).toBe(0);
  });

  it.each([
    ['#0f766e', '#fff'],
    ['#fde047', '#0f172a'],
    ['#FFF', '#0f172a'],
    ['#000', '#fff'],
  ])('sets the accent %s with readable text (%s) on it, and the radius', (accentColor, ink) => {
    const root = document.createElement('html');
    applyLook(root, { theme: 'dark', accentColor, radius: '2px' });
    expect(root.style.getPropertyValue('--accent')).toBe(accentColor);
    expect(root.style.getPropertyValue('--on-accent')).toBe(ink);
    expect(root.style.getPropertyValue('--radius')).toBe('2px');
  });

  it("leaves the uploader's own accent and radius alone when the host gives none", () => {
    const root = document.createElement('html');
    applyLook(root, { theme: 'dark' });
    expect(root.getAttribute('style')).toBeNull();
  });
});
