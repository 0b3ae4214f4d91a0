'use strict'
// Adds one statement to longstraw.wasi.cjs, the Node loader napi-rs generates for the WebAssembly build:
// right after the module is instantiated, it hands the addon its own WebAssembly exports and memory,
// so that owner() can call a plain export for a string key instead of going through emnapi's glue
// (bindings/node/src/node_api/branded/fast.rs says how, and why it is safe). Everything else in the
// loader stays napi-rs's own. The anchors must each occur exactly once, or this fails the build.
// LONGSTRAW_NODE_WASM_FAST=0 at load time turns the fast path off (owner() then takes emnapi's path,
// with the same answers), to compare the two.
//
//   node scripts/wasi-fast-path.js DIR/longstraw.wasi.cjs     (edits the file in place; idempotent)
const fs = require('node:fs')

const file = process.argv[2]
if (!file) {
  console.error('usage: node scripts/wasi-fast-path.js path/to/longstraw.wasi.cjs')
  process.exit(2)
}
const MARK = '// longstraw: the fast path of owner()'
const ANCHOR = '  __publishWasiDispose(__napiModule.exports)\n'
const NEEDS = ['const __sharedMemory = new WebAssembly.Memory({', '      __napiInstance = instance\n', ANCHOR]
const INSERT =
  `  ${MARK} (added by bindings/node/scripts/wasi-fast-path.js; see src/node_api/branded/fast.rs)\n` +
  "  if (process.env.LONGSTRAW_NODE_WASM_FAST !== '0') {\n" +
  '    __napiModule.exports.__longstrawWasmFastPath?.(__napiInstance.exports, __sharedMemory)\n' +
  '  } else {\n' +
  '    delete __napiModule.exports.__longstrawWasmFastPath\n' +
  '  }\n'

let text = fs.readFileSync(file, 'utf8')
if (text.includes(MARK)) process.exit(0)
for (const needle of NEEDS) {
  const count = text.split(needle).length - 1
  if (count !== 1) {
    console.error(`wasi-fast-path: ${file}: expected ${JSON.stringify(needle.trim())} once, found it ${count} times ` +
      '(napi-rs changed its loader: update scripts/wasi-fast-path.js)')
    process.exit(1)
  }
}
text = text.replace(ANCHOR, INSERT + ANCHOR)
fs.writeFileSync(file, text)
console.log(`wasi-fast-path: ${file}: owner() fast path wired in`)
