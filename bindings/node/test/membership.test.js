// Membership files: every fixture in tests/membership/ (a vector case written as a
// membership file) loads to the case's answers; bad files throw errors naming the
// line and the field; a saved set reloads to the same placement.
'use strict';
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { Rendezvous } = require('..');

const root = path.join(__dirname, '..', '..', '..');
function modeOf(file) {
  const line = fs.readFileSync(file, 'utf8').split('\n').find((l) => l.startsWith('mode = '));
  return line ? line.split('"')[1] : 'flat';
}

function idOf(hex) {
  const b = Buffer.from(hex, 'hex');
  const s = b.toString('utf8');
  return Buffer.from(s, 'utf8').equals(b) ? s : b;
}

const same = (a, b) => assert.deepStrictEqual(a.map(String), b.map(String));

test('every fixture gives the vector answers', () => {
  const manifest = JSON.parse(fs.readFileSync(path.join(root, 'tests/membership/manifest.json'), 'utf8'));
  const vectors = {};
  let keys = 0;
  for (const f of manifest.fixtures) {
    vectors[f.vectors] ??= JSON.parse(fs.readFileSync(path.join(root, 'tests/vectors', f.vectors), 'utf8'));
    const c = vectors[f.vectors].cases[f.case];
    const file = path.join(root, 'tests/membership', f.file);
    const s = Rendezvous.load(file);
    assert.strictEqual(s.mode, modeOf(file), f.file);
    const ids = c.nodes.map((n) => idOf(n.id_hex));
    same(s.nodes, ids);
    for (const k of c.keys) {
      const key = Buffer.from(k.key_hex, 'hex');
      if (k.distinct) {
        same(s.topKDistinct(key, c.k), k.distinct.map((i) => ids[i]));
      } else {
        if (k.owner === null) {
          assert.throws(() => s.owner(key), { code: 'ERR_LONGSTRAW_NO_ELIGIBLE_NODE' });
        } else {
          assert.strictEqual(String(s.owner(key)), String(ids[k.owner]), f.file);
        }
        same(s.topK(key, k.ranked.length), k.ranked.map((i) => ids[i]));
      }
      keys++;
    }
  }
  assert.ok(manifest.fixtures.length >= 100 && keys >= 1000);
});

test('bad files name the line and the field', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'longstraw-'));
  const bad = path.join(dir, 'bad.toml');
  fs.writeFileSync(bad, '[[nodes]]\nid = "a"\nweight = -3\n');
  assert.throws(() => Rendezvous.load(bad), { code: 'ERR_LONGSTRAW_BAD_FILE', message: /bad\.toml:3: nodes\[0\]\.weight: / });
  fs.writeFileSync(bad, 'mode = "skeleton"\n[skeleton]\nfanout = 2\n');
  assert.throws(() => Rendezvous.load(bad), { code: 'ERR_LONGSTRAW_BAD_FILE', message: /:3:.*fanout/ });
  assert.throws(() => Rendezvous.load(path.join(dir, 'missing.toml')), { code: 'ERR_LONGSTRAW_BAD_FILE' });
  fs.writeFileSync(bad, 'mode = "table"\n[[nodes]]\nid = "a"\n');
  assert.strictEqual(Rendezvous.load(bad).mode, 'table'); // a file of any mode loads, in its mode
});

test('save then load keeps every placement', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'longstraw-'));
  const sets = [
    new Rendezvous(['a', Buffer.from([0xff, 0]), 'c'], { weights: [1, 2.5, 0], seed: 2n ** 64n - 1n, domains: ['r1', null, 'r2'] }),
    Rendezvous.table(['a', 'b', 'c', 'd'], { weights: [0.1, 1, 2, 3], bits: 7, replicas: 2 }),
    Rendezvous.skeleton(Array.from({ length: 40 }, (_, i) => `n${i}`), { fanoutBits: 2, levels: 2, seed: 9 }),
  ];
  for (const s of sets) {
    const file = path.join(dir, 'saved.toml');
    s.save(file);
    const again = Rendezvous.load(file);
    assert.strictEqual(again.mode, s.mode);
    same(again.nodes, s.nodes);
    for (let i = 0; i < 3000; i++) same(again.topK(`key-${i}`, 2), s.topK(`key-${i}`, 2));
  }
});
