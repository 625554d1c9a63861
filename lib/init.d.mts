// import { init, initSodiumNative } from 'natrium/init' (lib/esm/init.mjs): natrium over a
// natrium.wasm the caller fetches (export 'natrium/natrium.wasm'). Written by hand: it only
// points at the generated declarations of both surfaces.
/** What init takes: a compiled module, its bytes, a Response, a URL (fetched), or a Promise of one. */
export type WasmSource = WebAssembly.Module | ArrayBuffer | ArrayBufferView | Response | URL | string
  | PromiseLike<WebAssembly.Module | ArrayBuffer | ArrayBufferView | Response | URL | string>;
/** The main API (libsodium-wrappers' shape) over its own instance of the module. */
export declare function init(source: WasmSource): Promise<typeof import('./index.mjs')>;
/** The sodium-native surface over its own instance of the module. */
export declare function initSodiumNative(source: WasmSource): Promise<typeof import('./sodium-native')>;
export default init;
