// Runs a WASI (wasm32-wasip1) command module under Node's node:wasi, the way cargo runs a target's
// test binaries through CARGO_TARGET_<TRIPLE>_RUNNER: the module's path, then its arguments.
//
//   node run_wasi.mjs [--dir PATH]... MODULE.wasm [ARG]...
//
// Each --dir PATH is visible to the module at the same absolute path (tests read files under
// CARGO_MANIFEST_DIR). The module gets the RUST_*, PROPTEST_* and LONGSTRAW_* environment variables
// and this process's stdout and stderr; the exit status is the module's.
import { readFile } from "node:fs/promises";
import { resolve, basename } from "node:path";
import { argv, env, exit } from "node:process";
import { WASI } from "node:wasi";

let args = argv.slice(2);
const preopens = {};
while (args.length >= 2 && args[0] === "--dir") {
  const dir = resolve(args[1]);
  preopens[dir] = dir;
  args = args.slice(2);
}
if (args.length === 0) {
  console.error("usage: node run_wasi.mjs [--dir PATH]... MODULE.wasm [ARG]...");
  exit(2);
}
const [path, ...rest] = args;
const passed = Object.fromEntries(
  Object.entries(env).filter(([k]) => ["RUST_", "PROPTEST_", "LONGSTRAW_"].some((p) => k.startsWith(p))),
);
const wasi = new WASI({ version: "preview1", args: [basename(path), ...rest], env: passed, preopens, returnOnExit: true });
const module = await WebAssembly.compile(await readFile(path));
const instance = await WebAssembly.instantiate(module, wasi.getImportObject());
exit(wasi.start(instance));
