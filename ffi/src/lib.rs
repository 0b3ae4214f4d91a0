//! The C ABI of longstraw. See include/longstraw.h.
