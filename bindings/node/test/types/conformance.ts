// The typed layer (longstraw.d.ts) and what napi generates (index.d.ts) describe the same objects: at
// id type `string | Buffer` each class has exactly the generated members and signatures, and the
// constructors take the same arguments. A method added to, or changed in, the Rust source fails here
// until longstraw.d.ts follows. The per-key methods and properties (`Lookups`, `SnapshotLookups`,
// `Properties`) have no generated declaration: the addon installs them natively, and
// test/napi-layer.test.js checks their names.
import type * as generated from '../../index'
import type * as typed from '../../longstraw'

// The generated classes plus what the addon installs natively at load.
declare module '../../index' {
  interface Rendezvous extends typed.Properties<typed.NodeId>, typed.Lookups<typed.NodeId> {}
  interface Snapshot extends typed.Properties<typed.NodeId>, typed.SnapshotLookups<typed.NodeId> {}
}

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false
type Any = typed.NodeId

export const checks: [
  Same<generated.Rendezvous, typed.Rendezvous<Any>>,
  Same<generated.Snapshot, typed.Snapshot<Any>>,
  Same<ConstructorParameters<typeof generated.Rendezvous>, ConstructorParameters<typed.RendezvousConstructor>>,
  Same<Parameters<typeof generated.Rendezvous.table>, Parameters<typed.RendezvousConstructor['table']>>,
  Same<Parameters<typeof generated.Rendezvous.tableAsync>, Parameters<typed.RendezvousConstructor['tableAsync']>>,
  Same<Parameters<typeof generated.Rendezvous.skeleton>, Parameters<typed.RendezvousConstructor['skeleton']>>,
  Same<Parameters<typeof generated.Rendezvous.load>, Parameters<typed.RendezvousConstructor['load']>>,
  Same<Parameters<typeof generated.Rendezvous.loadAsync>, Parameters<typed.RendezvousConstructor['loadAsync']>>,
  Same<Parameters<typeof generated.Rendezvous.loads>, Parameters<typed.RendezvousConstructor['loads']>>,
  Same<Awaited<ReturnType<typeof generated.Rendezvous.loadAsync>>, typed.Rendezvous<Any>>,
  Same<ReturnType<typeof generated.Rendezvous.table>, typed.Rendezvous<Any>>,
  Same<typeof generated.backend, typeof typed.backend>,
  Same<typeof generated.PLACEMENT, typeof typed.PLACEMENT>,
] = [true, true, true, true, true, true, true, true, true, true, true, true, true]
