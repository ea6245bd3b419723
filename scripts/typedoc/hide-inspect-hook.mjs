// A typedoc plugin: the API reference leaves out the methods keyed by `util.inspect.custom`
// (`[INSPECT]()` in the sources). Node calls them for console.log; the symbol is not exported,
// so a reader could neither call them nor name them. Each class's toJSON() and doc comment say
// what inspecting it shows.
import { Converter, ReflectionKind } from 'typedoc';

/** The name typedoc gives a method keyed by the INSPECT symbol. */
const INSPECT_HOOK = '[INSPECT]';

/** @param {import('typedoc').Application} app */
export function load(app) {
  app.converter.on(Converter.EVENT_RESOLVE_BEGIN, (context) => {
    for (const reflection of context.project.getReflectionsByKind(ReflectionKind.Method)) {
      if (reflection.name === INSPECT_HOOK) context.project.removeReflection(reflection);
    }
  });
}
