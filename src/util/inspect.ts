/** The symbol Node's util.inspect looks for; using it needs no Node import. */
export const INSPECT = Symbol.for('nodejs.util.inspect.custom');
