// The scale-out suites (test/scale) start a real redis-server on a free port with a temporary directory.
import { ensureDebianPackage } from '../lib/debian-package.mjs';

ensureDebianPackage({ name: 'redis-server', binary: '/usr/bin/redis-server', why: 'the scale-out suites' });
