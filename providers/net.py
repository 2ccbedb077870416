"""Outbound HTTP that cannot be pointed at this machine or its private network.

Every address a host name resolves to is checked when the connection is made (not when
the URL is first seen), and the connection goes to the address that was checked, so DNS
rebinding cannot swap in another. Refused: loopback, private (RFC 1918, unique local),
link-local (cloud metadata services live there), carrier-grade NAT, multicast, reserved and
unspecified addresses, in IPv4, IPv6 and IPv4-mapped IPv6. A provider the operator runs
locally (Ollama on 127.0.0.1) is allowed by its configuration, never by default.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Callable

import httpx

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
Resolver = Callable[[str, int], list[str]]

# Networks the ``is_*`` properties miss or that must be named explicitly.
_EXTRA_BLOCKED = [
    ipaddress.ip_network("100.64.0.0/10"),  # carrier-grade NAT (shared address space)
    ipaddress.ip_network("192.0.0.0/24"),  # IETF protocol assignments
    ipaddress.ip_network("198.18.0.0/15"),  # benchmarking
    ipaddress.ip_network("64:ff9b::/96"),  # NAT64 (embeds IPv4 addresses)
    ipaddress.ip_network("2002::/16"),  # 6to4 (embeds IPv4 addresses)
]


class BlockedAddressError(httpx.ConnectError):
    """The destination is on this machine or a private network."""


def blocked_reason(address: IPAddress) -> str | None:
    """Why ``address`` may not be contacted, or None when it is a public address."""
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return blocked_reason(address.ipv4_mapped)
    checks = [
        ("loopback", address.is_loopback),
        ("private", address.is_private),
        ("link-local", address.is_link_local),
        ("multicast", address.is_multicast),
        ("reserved", address.is_reserved),
        ("unspecified", address.is_unspecified),
        ("special-purpose", any(address in network for network in _EXTRA_BLOCKED)),
    ]
    return next((name for name, hit in checks if hit), None)


def system_resolver(host: str, port: int) -> list[str]:
    """Every address ``host`` resolves to."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as error:
        raise httpx.ConnectError(f"cannot resolve {host!r}: {error}") from None
    return sorted({str(info[4][0]) for info in infos})


def check_host(host: str, port: int, resolver: Resolver = system_resolver) -> str:
    """The public address to connect to for ``host``; :class:`BlockedAddressError` if
    any address it resolves to is not public (one bad answer taints the name)."""
    try:
        addresses = [ipaddress.ip_address(host.strip("[]"))]
    except ValueError:
        addresses = [ipaddress.ip_address(a.split("%")[0]) for a in resolver(host, port)]
    if not addresses:
        raise httpx.ConnectError(f"{host!r} resolves to no address")
    for address in addresses:
        reason = blocked_reason(address)
        if reason is not None:
            raise BlockedAddressError(f"refused to connect to {host} ({address}: {reason})")
    return str(addresses[0])


class GuardedTransport(httpx.HTTPTransport):
    """An httpx transport that checks the destination of every request at connect time
    and connects to the checked address (TLS still verifies the host name)."""

    def __init__(self, *, resolver: Resolver = system_resolver, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self._resolver = resolver

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        host = request.url.host
        port = request.url.port or (443 if request.url.scheme == "https" else 80)
        address = check_host(host, port, self._resolver)
        if address != host:
            request.extensions = {**request.extensions, "sni_hostname": host}
            request.url = request.url.copy_with(host=address)
        return super().handle_request(request)
