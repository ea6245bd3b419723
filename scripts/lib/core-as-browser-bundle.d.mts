import type { Plugin } from 'esbuild';
export function coreAsBrowserBundle(): Plugin;
