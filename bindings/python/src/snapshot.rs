//! `longstraw.Snapshot`, `TableSnapshot` and `SkeletonSnapshot`: one frozen
//! membership each, and the buffer batch whose node indices only mean
//! something next to the membership that made them.

use std::sync::Arc;

use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple};

use crate::view::View;

/// An immutable membership of a `Rendezvous`. Its answers never change, even
/// while the set does, and the node indices it returns index its `nodes`.
#[pyclass(frozen, module = "longstraw", name = "Snapshot")]
pub(crate) struct Snapshot {
    view: Arc<View<longstraw_set::Snapshot>>,
}

snapshot_class!(Snapshot, longstraw_set::Snapshot, {
    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        self.view.repr(py, "Snapshot", &[])
    }
});

/// An immutable membership of a `Table`, with its partition rows. Its
/// answers never change, and the node indices it returns index its `nodes`.
#[pyclass(frozen, module = "longstraw", name = "TableSnapshot")]
pub(crate) struct TableSnapshot {
    view: Arc<View<longstraw_set::TableSnapshot>>,
}

snapshot_class!(TableSnapshot, longstraw_set::TableSnapshot, {
    /// The partition of `key`: the top `bits` bits of its key hash.
    fn partition(&self, key: &Bound<'_, PyAny>) -> PyResult<u32> {
        crate::convert::with_key(key, |k| self.view.snap.partition(k))
    }

    #[getter]
    fn bits(&self) -> u8 {
        self.view.snap.partition_bits()
    }

    #[getter]
    fn partitions(&self) -> usize {
        self.view.snap.partitions()
    }

    #[getter]
    fn replicas(&self) -> usize {
        self.view.snap.replicas()
    }

    #[getter]
    fn distinct_domains(&self) -> bool {
        self.view.snap.distinct_domains()
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        self.view
            .repr(py, "TableSnapshot", &crate::table::shape(&self.view.snap))
    }
});

/// An immutable membership of a `Skeleton`, with its tree. Its answers never
/// change, and the node indices it returns index its `nodes`.
#[pyclass(frozen, module = "longstraw", name = "SkeletonSnapshot")]
pub(crate) struct SkeletonSnapshot {
    view: Arc<View<longstraw_set::SkeletonSnapshot>>,
}

snapshot_class!(SkeletonSnapshot, longstraw_set::SkeletonSnapshot, {
    #[getter]
    fn fanout_bits(&self) -> u8 {
        self.view.snap.shape().fanout_bits()
    }

    #[getter]
    fn levels(&self) -> u8 {
        self.view.snap.shape().levels()
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        self.view
            .repr(py, "SkeletonSnapshot", &crate::skeleton::shape(&self.view.snap))
    }
});
