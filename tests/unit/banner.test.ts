import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { $banner, showMessage } from '../../src/stores/banner';

describe('message banner store (spec §4: gone after 4 s)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    $banner.set(null);
    vi.useRealTimers();
  });

  it('shows a message for exactly 4 seconds', () => {
    showMessage('Vous avez été inscrit', 'success');
    expect($banner.get()).toMatchObject({ text: 'Vous avez été inscrit', tone: 'success' });
    vi.advanceTimersByTime(3999);
    expect($banner.get()?.text).toBe('Vous avez été inscrit');
    vi.advanceTimersByTime(1);
    expect($banner.get()).toBeNull();
  });

  it('a new message replaces the current one and gets its own 4 seconds', () => {
    showMessage('Premier');
    vi.advanceTimersByTime(3000);
    showMessage('Second', 'error');
    const second = $banner.get();
    vi.advanceTimersByTime(3000);
    expect($banner.get()).toEqual(second);
    vi.advanceTimersByTime(1000);
    expect($banner.get()).toBeNull();
  });

  it('the same text twice is a new message (a new id), so it is announced again', () => {
    showMessage('Encore');
    const first = $banner.get()?.id;
    showMessage('Encore');
    expect($banner.get()?.id).not.toBe(first);
  });
});
