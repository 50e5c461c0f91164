// The QuickJS WASM modules of a sandbox worker: one per memory cap, compiled once and reused
// (compiling costs far more than a fresh runtime), its linear memory capped at the budget.
import { RELEASE_SYNC, newQuickJSWASMModuleFromVariant, newVariant, type QuickJSWASMModule } from 'quickjs-emscripten';

/** The module's own minimum memory in 64 KiB pages (16 MB: static data and the C stack). */
const BASE_PAGES = 256;
const PAGES_PER_MB = 16;

/** The slice of WebAssembly.Memory used here (the project's lib settings do not declare WebAssembly). */
interface WasmMemory {
  readonly buffer: ArrayBuffer;
}
const { WebAssembly: Wasm } = globalThis as unknown as {
  WebAssembly: { Memory: new (descriptor: { initial: number; maximum: number }) => WasmMemory };
};

export interface CappedModule {
  module: QuickJSWASMModule;
  memory: WasmMemory;
  maxBytes: number;
}

async function createModule(memoryMb: number): Promise<CappedModule> {
  // setMemoryLimit does not see every allocation (long strings, ArrayBuffers), so the linear
  // memory itself is capped: the allocator then fails cleanly with "out of memory".
  const maxPages = BASE_PAGES + memoryMb * PAGES_PER_MB;
  const memory = new Wasm.Memory({ initial: BASE_PAGES, maximum: maxPages });
  // A WASM abort is reported to the pool as data; emscripten's own stderr line would only be noise.
  const options = { wasmMemory: memory, emscriptenModule: { printErr: () => {} } } as Parameters<typeof newVariant>[1];
  const module = await newQuickJSWASMModuleFromVariant(newVariant(RELEASE_SYNC, options));
  return { module, memory, maxBytes: maxPages * 64 * 1024 };
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
