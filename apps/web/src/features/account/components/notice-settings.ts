import { useSyncExternalStore } from 'react';
import { useSessionStore } from '../../../lib/session-store';

/** Per-user notification settings kept in this browser: the sound switch and when the list was last read. */
const soundKey = (uid: string | number) => `notice-sound.${uid}`;
const seenKey = (uid: string | number) => `notices-seen.${uid}`;

const listeners = new Set<() => void>();
const changed = () => listeners.forEach((listener) => listener());
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
};

function read(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function write(key: string, value: string): void {
  try {
    localStorage.setItem(key, value);
  } catch {
    // Without storage the setting lasts for this visit only.
  }
  changed();
}

const currentUid = () => {
  const user = useSessionStore.getState().user;
  return user?.id ?? user?.uid;
};

/** Off by default. */
export const soundEnabled = (): boolean => {
  const uid = currentUid();
  return uid !== undefined && read(soundKey(uid)) === '1';
};

export const setSoundEnabled = (on: boolean): void => {
  const uid = currentUid();
  if (uid !== undefined) write(soundKey(uid), on ? '1' : '0');
};

/** Unix seconds of the newest item the trader has seen in the list. */
export const lastSeen = (): number => {
  const uid = currentUid();
  return uid === undefined ? 0 : Number(read(seenKey(uid)) ?? 0) || 0;
};

export const markSeen = (time: number): void => {
  const uid = currentUid();
  if (uid !== undefined && time > lastSeen()) write(seenKey(uid), String(time));
};

export const useSoundEnabled = () => useSyncExternalStore(subscribe, soundEnabled, () => false);
export const useLastSeen = () => useSyncExternalStore(subscribe, lastSeen, () => 0);

let audio: AudioContext | null = null;

/** A short beep; browsers allow it once the page has had a click or key press. */
export function beep(): void {
  try {
    audio ??= new AudioContext();
    const oscillator = audio.createOscillator();
    const gain = audio.createGain();
    oscillator.frequency.value = 880;
    gain.gain.setValueAtTime(0.08, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.0001, audio.currentTime + 0.18);
    oscillator.connect(gain).connect(audio.destination);
    oscillator.start();
    oscillator.stop(audio.currentTime + 0.2);
  } catch {
    // No audio in this browser: the toast alone tells.
  }
}
