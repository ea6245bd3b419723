// One Debian package a test suite needs: present, installed now (as root, with apt-get), or
// explained (the exact command to run). Never fails the run by itself: a suite whose program is
// still missing is skipped with a loud line (and fails in CI).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/**
 * Makes sure `binary` exists, installing Debian package `name` when it does not.
 * Returns 'present', 'installed' or 'missing'.
 */
export function ensureDebianPackage({ name, binary, why }) {
  if (existsSync(binary)) {
    console.log(`setup: ${name} is installed (${binary})`);
    return 'present';
  }
  const command = `DEBIAN_FRONTEND=noninteractive apt-get update && apt-get install -y ${name}`;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const hasApt = existsSync('/usr/bin/apt-get');
  if (!isRoot || !hasApt) {
    const how = hasApt ? `sudo sh -c '${command}'` : `install the ${name} package with your system's package manager`;
    console.log(`setup: ${name} is missing (${why}); ${isRoot ? 'apt-get is not available' : 'not root'}, so it is not installed here. To install it: ${how}`);
    return 'missing';
  }
  console.log(`setup: installing ${name} (${why}): ${command}`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [['update', '-qq'], ['install', '-y', '-qq', '-o', 'Dpkg::Use-Pty=0', name]]) {
    const result = spawnSync('apt-get', args, { stdio: 'inherit', env });
    if (result.status !== 0) {
      console.log(`setup: apt-get ${args[0]} failed (exit ${result.status ?? result.signal}); ${name} stays missing`);
      return 'missing';
    }
  }
  const ok = existsSync(binary);
  console.log(ok ? `setup: ${name} installed (${binary})` : `setup: ${name} was installed but ${binary} is still missing`);
  return ok ? 'installed' : 'missing';
}
