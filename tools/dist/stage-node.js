'use strict'
// Stages the npm packages the napi-rs v3 way: the main package `longstraw`
// (JS loader and types, no binary) names one platform package per built
// target in optionalDependencies; each platform package carries its stripped
// .node. npm installs only the platform package whose os/cpu/libc match.
//
// usage: node stage-node.js NODE_DIR BIN_DIR STAGE_DIR VERSION PLATFORM...
const fs = require('node:fs')
const path = require('node:path')

const [nodeDir, binDir, stageDir, version, ...platforms] = process.argv.slice(2)
const root = path.resolve(nodeDir, '..', '..')
const fail = (msg) => { console.error(`stage-node: ${msg}`); process.exit(1) }
const readJson = (f) => JSON.parse(fs.readFileSync(f, 'utf8'))
const writeJson = (f, v) => fs.writeFileSync(f, JSON.stringify(v, null, 2) + '\n')
const copy = (from, toDir) => fs.copyFileSync(from, path.join(toDir, path.basename(from)))
const licenseFiles = ['LICENSE-MIT', 'LICENSE-APACHE']
const licenses = licenseFiles.map((f) => path.join(root, f))

if (platforms.length === 0) fail('no platforms given')
const main = readJson(path.join(nodeDir, 'package.json'))
if (main.version !== version) fail(`bindings/node/package.json is ${main.version}, the workspace is ${version}`)
const binaryName = main.napi.binaryName

fs.rmSync(stageDir, { recursive: true, force: true })
const optionalDependencies = {}
for (const platform of platforms) {
  const skeleton = path.join(nodeDir, 'npm', platform)
  const pkg = readJson(path.join(skeleton, 'package.json'))
  if (pkg.version !== version) fail(`npm/${platform}/package.json is ${pkg.version}, the workspace is ${version}`)
  // A native package carries one .node; the WebAssembly one (wasm32-wasi) the .wasm and the loader
  // files napi generated beside it (its package.json lists them all).
  const binaries = platform.startsWith('wasm32-')
    ? pkg.files.map((f) => path.join(binDir, f))
    : [path.join(binDir, `${binaryName}.${platform}.node`)]
  for (const binary of binaries) {
    if (!fs.existsSync(binary)) fail(`${binary} was not built`)
    if (!pkg.files.includes(path.basename(binary))) fail(`npm/${platform}/package.json does not list ${path.basename(binary)}`)
  }
  const dir = path.join(stageDir, pkg.name)
  fs.mkdirSync(dir, { recursive: true })
  // npm packs LICENSE-MIT and LICENSE-APACHE only when "files" names them.
  writeJson(path.join(dir, 'package.json'), { ...pkg, files: [...pkg.files, ...licenseFiles] })
  for (const f of [...binaries, path.join(skeleton, 'README.md'), ...licenses]) copy(f, dir)
  optionalDependencies[pkg.name] = version
}

const dir = path.join(stageDir, main.name)
fs.mkdirSync(dir, { recursive: true })
const { devDependencies, scripts, ...published } = main
published.optionalDependencies = optionalDependencies
published.files = [...main.files, ...licenseFiles]
writeJson(path.join(dir, 'package.json'), published)
for (const f of [...main.files, 'README.md']) copy(path.join(nodeDir, f), dir)
for (const f of licenses) copy(f, dir)
// The browser entries (browser.mjs, edge.mjs, threads.mjs) load files of the WebAssembly packages (which
// ship the browser bundles beside their .wasm): each package one of them names must be staged here with that
// file in its "files", or the entry points at nothing in the published packages.
const entries = published.files.filter((f) => f.endsWith('.mjs'))
const named = new Set()
for (const entry of entries) {
  const text = fs.readFileSync(path.join(dir, entry), 'utf8').replace(/^\s*\/\/.*$/gm, '')
  for (const m of text.matchAll(/\b(?:from\s+|import\(\s*)'([^'.][^']*)'/g)) {
    const spec = m[1]
    if (spec.startsWith('node:')) continue
    const [name, ...rest] = spec.split('/')
    const file = rest.join('/')
    const staged = path.join(stageDir, name, 'package.json')
    if (!fs.existsSync(staged)) fail(`${entry} imports ${spec}, but ${name} is not staged`)
    if (!readJson(staged).files.includes(file) || !fs.existsSync(path.join(stageDir, name, file))) fail(`${entry} imports ${spec}, which ${name} does not ship`)
    named.add(spec)
  }
}
if (published.browser && ![...named].length) fail(`${published.browser} imports no package`)
console.log(`stage-node: ${main.name}'s browser entries load ${[...named].join(', ')}`)
console.log(`stage-node: ${main.name}@${version} with ${Object.keys(optionalDependencies).join(', ')}`)
