// The typed layer (longstraw.d.ts) and what napi generates (index.d.ts) describe the same objects: at
// id type `string | Buffer` each class has exactly the generated members and signatures, and the
// constructors take the same arguments. A method added to, or changed in, the Rust source fails here
// until longstraw.d.ts follows. The per-key methods (`Lookups`, `SnapshotLookups`) have no generated
// declaration: the addon installs them natively, and test/napi-layer.test.js checks their names.
import type * as generated from '../../index'
import type * as typed from '../../longstraw'

// The generated classes plus what the addon installs natively at load.
declare module '../../index' {
  interface Rendezvous extends typed.Lookups<typed.NodeId> {}
  interface Table extends typed.Lookups<typed.NodeId> {}
  interface Skeleton extends typed.Lookups<typed.NodeId> {}
  interface Snapshot extends typed.SnapshotLookups<typed.NodeId> {}
}

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false
type Any = typed.NodeId

export const checks: [
  Same<generated.Rendezvous, typed.Rendezvous<Any>>,
  Same<generated.Table, typed.Table<Any>>,
  Same<generated.Skeleton, typed.Skeleton<Any>>,
  Same<generated.Snapshot, typed.Snapshot<Any>>,
  Same<ConstructorParameters<typeof generated.Rendezvous>, ConstructorParameters<typed.RendezvousConstructor>>,
  Same<ConstructorParameters<typeof generated.Table>, ConstructorParameters<typed.TableConstructor>>,
  Same<ConstructorParameters<typeof generated.Skeleton>, ConstructorParameters<typed.SkeletonConstructor>>,
  Same<Parameters<typeof generated.Table.create>, Parameters<typed.TableConstructor['create']>>,
  Same<Parameters<typeof generated.Rendezvous.loadAsync>, Parameters<typed.RendezvousConstructor['loadAsync']>>,
  Same<Parameters<typeof generated.Table.loadAsync>, Parameters<typed.TableConstructor['loadAsync']>>,
  Same<Parameters<typeof generated.Skeleton.loadAsync>, Parameters<typed.SkeletonConstructor['loadAsync']>>,
  Same<Awaited<ReturnType<typeof generated.Rendezvous.loadAsync>>, typed.Rendezvous<Any>>,
  Same<Awaited<ReturnType<typeof generated.Table.loadAsync>>, typed.Table<Any>>,
  Same<Awaited<ReturnType<typeof generated.Skeleton.loadAsync>>, typed.Skeleton<Any>>,
  Same<typeof generated.backend, typeof typed.backend>,
  Same<typeof generated.PLACEMENT, typeof typed.PLACEMENT>,
] = [true, true, true, true, true, true, true, true, true, true, true, true, true, true, true, true]
