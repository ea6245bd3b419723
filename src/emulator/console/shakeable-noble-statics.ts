import { readFile } from 'node:fs/promises';
import type { Plugin } from 'esbuild';

/** A static property set by assignment right after its class: `_RistrettoPoint.BASE = \n/* @__PURE__ *\/ (…)();`. */
const ASSIGNED_STATIC = /^(_\w+)\.(\w+) = \n(\/\* @__PURE__ \*\/ [^\n]*);$/gm;

/**
 * An esbuild plugin for the browser files. @noble/curves 1.x gives its ristretto255 point class its
 * static properties by assignment after the class: statements esbuild must keep, and with them the
 * class and everything it uses (about 1.3 KiB gzipped that the library never calls: it signs with
 * ed25519). Written as static fields of the class they are set at the same moment, and the class
 * goes when nothing uses it. A build fails if the module no longer has such assignments (a newer
 * @noble/curves writes static fields itself, and this plugin can go).
 */
export function shakeableNobleStatics(): Plugin {
  return {
    name: 'shakeable-noble-statics',
    setup(build) {
      build.onLoad({ filter: /[\\/]@noble[\\/]curves[\\/]esm[\\/]ed25519\.js$/ }, async (args) => {
        const fields = new Map<string, string[]>();
        let contents = (await readFile(args.path, 'utf8')).replace(ASSIGNED_STATIC, (_, owner: string, property: string, value: string) => {
          fields.set(owner, [...(fields.get(owner) ?? []), `static ${property} = ${value};`]);
          return '';
        });
        if (fields.size === 0) return { errors: [{ text: `${args.path}: no static property assigned after its class (has @noble/curves changed? this plugin may no longer be needed)` }] };
        for (const [owner, statics] of fields) {
          const head = new RegExp(`^class ${owner} (?:extends \\w+ )?\\{$`, 'm');
          if (!head.test(contents)) return { errors: [{ text: `${args.path}: the class ${owner} its static properties belong to was not found` }] };
          contents = contents.replace(head, (line) => `${line}\n${statics.join('\n')}`);
        }
        return { contents, loader: 'js' };
      });
    },
  };
}
