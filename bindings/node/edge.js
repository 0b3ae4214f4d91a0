'use strict'
// `longstraw/edge` in Node: the WebAssembly build without threads (wasm32-wasip1), whatever
// LONGSTRAW_NODE_WASM says. longstraw.js loads it too, when neither the native addon nor the threaded
// WebAssembly build loads. Its ...Async calls reject with ERR_LONGSTRAW_NO_THREADS (no-threads.js).
// The loader is the copy make build-node-wasm-edge puts beside this file, else the package
// longstraw-wasm32-wasip1's.
const fs = require('node:fs')
const path = require('node:path')
const { edgeExports } = require('./no-threads.js')

const local = path.join(__dirname, 'longstraw.wasip1.cjs')
module.exports = edgeExports(fs.existsSync(local) ? require(local) : require('longstraw-wasm32-wasip1'))
