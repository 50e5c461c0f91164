// The JavaScript that furnishes a fresh QuickJS context before the user's code runs. It is
// called once with two host functions and the spec ({ globals, results }), defines the server
// globals, `catalog`, `console` and, when enabled, `results`, and returns the result converter, which no user code can reach.
// It keeps its own references to JSON and friends, so code that replaces them only hurts itself.

/** Console levels the sandbox offers, in the order of LogLine['level']. */
export const CONSOLE_LEVELS = ['log', 'info', 'warn', 'error', 'debug'] as const;

/** At most this many catalog lookups (and `results` reads) per run: they are not tool calls, but still cost the engine work. */
export const MAX_CATALOG_CALLS = 256;

export const SETUP_SOURCE = String.raw`(function (hostCall, hostLog, spec) {
  'use strict';
  const stringify = JSON.stringify, parse = JSON.parse, toText = String, isArray = Array.isArray;
  const ErrorType = Error, TypeErrorType = TypeError;
  const define = Object.defineProperty, freeze = Object.freeze, keys = Object.keys;
  const decode = (text) => (text === undefined ? undefined : parse(text));
  const encode = (what, value) => {
    try {
      return stringify(value);
    } catch (e) {
      throw new TypeErrorType(what + ' cannot be sent as JSON: ' + (e && e.message));
    }
  };
  const constant = (target, name, value, enumerable) =>
    define(target, name, { value, enumerable, writable: false, configurable: false });

  const { globals, results: withResults } = parse(spec);
  for (const g of keys(globals)) {
    const server = {};
    for (const m of globals[g]) {
      const method = async function (args) {
        const text = args === undefined ? '{}' : encode('the arguments of ' + g + '.' + m, args);
        return decode(await hostCall('tool', g, m, text));
      };
      define(method, 'name', { value: m });
      constant(server, m, method, true);
    }
    constant(globalThis, g, freeze(server), false);
  }

  const catalog = {
    search: async function search(query, limit) {
      return decode(await hostCall('search', toText(query), limit === undefined ? undefined : toText(limit)));
    },
    describe: async function describe(names) {
      return decode(await hostCall('describe', encode('the names', isArray(names) ? names : [names])));
    },
  };
  constant(globalThis, 'catalog', freeze(catalog), false);

  // Results kept past maxResultChars, when the profile enables them (result-handles.ts).
  if (withResults) {
    const results = {
      get: async function get(handle, options) {
        return decode(await hostCall('results', 'get', encode('the arguments of results.get', options === undefined ? [handle] : [handle, options])));
      },
      query: async function query(handle, path) {
        return decode(await hostCall('results', 'query', encode('the arguments of results.query', [handle, path])));
      },
    };
    constant(globalThis, 'results', freeze(results), false);
  }

  const show = (v) => {
    if (typeof v === 'string') return v;
    if (v instanceof ErrorType) return v.name + ': ' + v.message;
    try {
      const text = stringify(v, (k, x) =>
        typeof x === 'bigint' ? toText(x) + 'n' : typeof x === 'function' ? '[function ' + (x.name || 'anonymous') + ']' : x);
      if (text !== undefined) return text;
    } catch (e) {}
    try {
      return toText(v);
    } catch (e) {
      return '[a value that cannot be printed]';
    }
  };
  const console = {};
  for (const level of ${JSON.stringify(CONSOLE_LEVELS)}) {
    constant(console, level, function () {
      let text = '';
      for (let i = 0; i < arguments.length; i++) text += (i === 0 ? '' : ' ') + show(arguments[i]);
      hostLog(level, text);
    }, true);
  }
  constant(globalThis, 'console', freeze(console), false);

  return function toJson(value) {
    try {
      return stringify(value, function (key, x) {
        const t = typeof x;
        if (t === 'function' || t === 'symbol' || t === 'bigint') {
          const what = t === 'bigint' ? 'a BigInt' : 'a ' + t;
          throw new TypeErrorType('the result holds ' + what + (key === '' ? '' : ' (at key "' + key + '")') +
            ', which JSON cannot hold; return plain data: strings, numbers, booleans, null, arrays and objects');
        }
        return x;
      });
    } catch (e) {
      if (e instanceof TypeErrorType && /circular|cycl/i.test(e.message)) {
        throw new TypeErrorType('the result is cyclic (an object refers to itself), which JSON cannot hold; return plain data');
      }
      throw e;
    }
  };
})`;
