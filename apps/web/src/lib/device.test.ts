import { describe, expect, it } from 'vitest';
import { isDesktop, isMobile } from './device';

const UA = {
  iphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
  ipad: 'Mozilla/5.0 (iPad; CPU OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.6 Mobile/15E148 Safari/604.1',
  android:
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36',
  harmony:
    'Mozilla/5.0 (Phone; OpenHarmony 4.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/114.0.0.0 Safari/537.36 ArkWeb/4.1.6.1 HarmonyOS',
  windowsChrome:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
  macSafari:
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_4) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15',
  linuxFirefox: 'Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0',
};

describe('isDesktop', () => {
  it.each([UA.iphone, UA.ipad, UA.android, UA.harmony])('is false for a mobile agent: %s', (ua) => {
    expect(isDesktop(ua)).toBe(false);
    expect(isMobile(ua)).toBe(true);
  });

  it.each([UA.windowsChrome, UA.macSafari, UA.linuxFirefox])('is true for a desktop agent: %s', (ua) => {
    expect(isDesktop(ua)).toBe(true);
    expect(isMobile(ua)).toBe(false);
  });

  it('ignores case', () => {
    expect(isDesktop('something ANDROID something')).toBe(false);
  });
});
