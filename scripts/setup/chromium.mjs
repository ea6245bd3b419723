// The browser suites (test/browser) drive Debian's Chromium with playwright-core, which downloads no browser.
import { ensureDebianPackage } from '../lib/debian-package.mjs';

ensureDebianPackage({ name: 'chromium', binary: '/usr/bin/chromium', why: 'the browser suites' });
