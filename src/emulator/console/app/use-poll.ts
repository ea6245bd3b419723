import { useEffect, useRef, useState } from 'preact/hooks';
import { reasonOf } from './console-api.js';

/** Loads `load()` now and every `everyMs` while the view is shown; `again()` reloads at once. */
export function usePoll<T>(load: () => Promise<T>, everyMs: number, deps: readonly unknown[] = []): { value: T | undefined; problem: string | undefined; again: () => void } {
  const [value, setValue] = useState<T | undefined>(undefined);
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const [tick, setTick] = useState(0);
  const latest = useRef(load);
  latest.current = load;
  useEffect(() => {
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const run = () => {
      latest.current().then(
        (next) => {
          if (!live) return;
          setValue(next);
          setProblem(undefined);
        },
        (error: unknown) => live && setProblem(reasonOf(error)),
      ).finally(() => {
        if (live) timer = setTimeout(run, everyMs);
      });
    };
    run();
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [everyMs, tick, ...deps]);
  return { value, problem, again: () => setTick((t) => t + 1) };
}
