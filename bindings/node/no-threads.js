'use strict'
// The WebAssembly build without threads (wasm32-wasip1): what it loads for pages that are not cross-origin
// isolated, for edge workers, and for Node where the threaded build cannot start. napi-rs links emnapi's
// basic (single-thread) runtime for this target, whose async work would run on the caller's own thread behind
// a promise, blocking it for as long as an async call exists to avoid. So every call whose name ends in Async
// (Rendezvous.tableAsync, Rendezvous.loadAsync, ownersAsync, ownerIndicesAsync, ...) returns a promise
// rejected with ERR_LONGSTRAW_NO_THREADS that names its synchronous twin. Used by longstraw.js (Node) and
// browser/edge.js (the browser and edge entry, bundled).

const TARGET = 'wasm32-wasip1'

function noThreads (prefix, name, sync) {
  const twin = typeof sync === 'function'
    ? ` Call ${prefix}${name.slice(0, -'Async'.length)} instead: the same result, computed on this thread.`
    : ''
  return function () {
    const error = new Error(
      `longstraw: ${prefix}${name} needs threads, and this build has none: it is the WebAssembly build ` +
      `without threads (${TARGET}), for pages that are not cross-origin isolated, edge workers and runtimes ` +
      `without SharedArrayBuffer.${twin} ` +
      'The threaded build runs it on worker threads (in a browser: on a cross-origin isolated page).')
    error.code = 'ERR_LONGSTRAW_NO_THREADS'
    return Promise.reject(error)
  }
}

// Prototype methods are replaced in place. Static ones (Rendezvous.tableAsync, .loadAsync) are read-only on the
// class napi-rs makes, so the result holds a stand-in for such a class: constructing it constructs the real
// class, its prototype is the real prototype (so instanceof and every method agree with the instances the
// static factories return), and it carries every other static method unchanged.
function withoutThreads (className, cls) {
  const proto = cls.prototype
  for (const name of Object.getOwnPropertyNames(proto)) {
    const d = Object.getOwnPropertyDescriptor(proto, name)
    if (!name.endsWith('Async') || typeof d.value !== 'function') continue
    const sync = proto[name.slice(0, -'Async'.length)]
    Object.defineProperty(proto, name, { ...d, value: noThreads(`${className}.prototype.`, name, sync) })
  }
  const statics = Object.getOwnPropertyNames(cls).filter((n) => n.endsWith('Async') && typeof cls[n] === 'function')
  if (statics.length === 0) return cls
  const Class = function (...args) {
    if (new.target === undefined) throw new TypeError(`Class constructor ${className} cannot be invoked without 'new'`)
    return Reflect.construct(cls, args, new.target === Class ? cls : new.target)
  }
  for (const name of Object.getOwnPropertyNames(cls)) {
    if (name === 'prototype' || name === 'length' || name === 'arguments' || name === 'caller') continue
    const d = Object.getOwnPropertyDescriptor(cls, name)
    const value = statics.includes(name) ? noThreads(`${className}.`, name, cls[name.slice(0, -'Async'.length)]) : d.value
    Object.defineProperty(Class, name, 'value' in d ? { ...d, value, configurable: true } : { ...d, configurable: true })
  }
  Object.defineProperty(Class, 'prototype', { value: proto, writable: false, enumerable: false, configurable: false })
  // So that instance.constructor.tableAsync is the rejecting one too.
  Object.defineProperty(proto, 'constructor', { ...Object.getOwnPropertyDescriptor(proto, 'constructor'), value: Class })
  return Class
}

/** The exports of the build without threads, every ...Async call rejecting, with `target` 'wasm32-wasip1'. */
function edgeExports (binding) {
  const lib = {}
  for (const name of Object.getOwnPropertyNames(binding)) {
    if (name === 'target') continue
    const value = binding[name]
    lib[name] = typeof value === 'function' && typeof value.prototype === 'object' && /^[A-Z]/.test(name)
      ? withoutThreads(name, value)
      : value
  }
  Object.defineProperty(lib, 'target', { value: TARGET, enumerable: true })
  return lib
}

module.exports = { TARGET, edgeExports }
