"""A longstraw hasher for pymemcache's ``HashClient``.

::

    from pymemcache.client.hash import HashClient
    from longstraw.pymemcache import LongstrawHash

    client = HashClient([("10.0.0.1", 11211), ("10.0.0.2", 11211)], hasher=LongstrawHash)

``HashClient`` calls ``hasher()`` with no arguments and then ``add_node`` for
every server, as ``"host:port"`` (or a socket path). Use
``functools.partial(LongstrawHash, seed=...)`` for a non-zero seed. Every key
lands where every other longstraw binding puts it for the same node ids.
This module does not import pymemcache: it only implements the protocol.
"""

from __future__ import annotations

from collections.abc import Iterable

from . import NoEligibleNodeError, Rendezvous


class LongstrawHash:
    """pymemcache's hasher protocol (``add_node``, ``remove_node``, ``get_node``)."""

    def __init__(self, nodes: Iterable[str] | None = None, seed: int = 0) -> None:
        self._set: Rendezvous[str] = Rendezvous(list(nodes) if nodes is not None else [], seed=seed)

    def add_node(self, node: str) -> None:
        """Adds a server; adding one that is already present does nothing,
        as with pymemcache's own hasher (HashClient re-adds revived servers)."""
        if node not in self._set:
            self._set.add(node)

    def remove_node(self, node: str) -> None:
        """Removes a server; raises ``ValueError`` if it is not present,
        as pymemcache's own hasher does."""
        try:
            self._set.remove(node)
        except KeyError:
            raise ValueError(f"No such node {node} to remove") from None

    def get_node(self, key: str | bytes) -> str | None:
        """The server for ``key``, or ``None`` when no server is left
        (HashClient then reports that all servers are down)."""
        try:
            return self._set.owner(key)
        except NoEligibleNodeError:
            return None

    @property
    def nodes(self) -> list[str]:
        """The servers, in the order they were added."""
        return self._set.nodes
