// The QuickJS WASM modules of a sandbox worker: one per memory cap, compiled once and reused
// (compiling costs far more than a fresh runtime), its linear memory capped at the budget. Only
// the one build used is loaded: quickjs-emscripten-core with the release, synchronous variant.
import * as releaseSync from '@jitl/quickjs-wasmfile-release-sync';
import { newQuickJSWASMModuleFromVariant, newVariant, type QuickJSSyncVariant, type QuickJSWASMModule } from 'quickjs-emscripten-core';

// The package's types describe its CommonJS build (default export under `.default`), while
// Node's import loads its ESM build (the variant is the default export): accept either.
const releaseDefault = releaseSync.default as unknown as QuickJSSyncVariant | { default: QuickJSSyncVariant };
const RELEASE_SYNC: QuickJSSyncVariant = 'type' in releaseDefault ? releaseDefault : releaseDefault.default;

/** The module's own minimum memory in 64 KiB pages (16 MB: static data and the C stack). */
const BASE_PAGES = 256;
const PAGES_PER_MB = 16;

/** The slice of WebAssembly.Memory used here (the project's lib settings do not declare WebAssembly). */
interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}
const { WebAssembly: Wasm } = globalThis as unknown as {
  WebAssembly: { Memory: new (descriptor: { initial: number; maximum: number }) => WasmMemory };
};

export interface CappedModule {
  module: QuickJSWASMModule;
  memory: WasmMemory;
  maxBytes: number;
  /**
   * Times the linear memory refused to grow since the module was made: its allocator asked for
   * more than the cap. A run during which this rose ran out of memory, whatever then failed.
   */
  readonly growthRefused: number;
}

async function createModule(memoryMb: number): Promise<CappedModule> {
  // setMemoryLimit does not see every allocation (long strings, ArrayBuffers), so the linear
  // memory itself is capped: the allocator then fails cleanly with "out of memory".
  const maxPages = BASE_PAGES + memoryMb * PAGES_PER_MB;
  const memory = new Wasm.Memory({ initial: BASE_PAGES, maximum: maxPages });
  let refused = 0;
  // Emscripten grows the memory through this method (emscripten_resize_heap), and takes a
  // throw as "no more memory": counting the throws tells a run that hit the cap structurally.
  const grow = memory.grow.bind(memory);
  memory.grow = (pages: number): number => {
    try {
      return grow(pages);
    } catch (err) {
      refused++;
      throw err;
    }
  };
  // A WASM abort is reported to the pool as data; emscripten's own stderr line would only be noise.
  const options = { wasmMemory: memory, emscriptenModule: { printErr: () => {} } } as Parameters<typeof newVariant>[1];
  const module = await newQuickJSWASMModuleFromVariant(newVariant(RELEASE_SYNC, options));
  return {
    module,
    memory,
    maxBytes: maxPages * 64 * 1024,
    get growthRefused() {
      return refused;
    },
  };
}

export class ModuleCache {
  readonly #modules = new Map<number, Promise<CappedModule>>();

  /** The module for this cap, compiled on first use. */
  warm(memoryMb: number): Promise<CappedModule> {
    let m = this.#modules.get(memoryMb);
    if (!m) {
      m = createModule(memoryMb);
      this.#modules.set(memoryMb, m);
    }
    return m;
  }

  has(memoryMb: number): boolean {
    return this.#modules.has(memoryMb);
  }

  /** Forgets a module that can no longer be trusted: the next run with this cap compiles a fresh one. */
  drop(memoryMb: number): void {
    this.#modules.delete(memoryMb);
  }
}
