from __future__ import annotations

from collections.abc import Iterator
from types import ModuleType

import pytest


@pytest.fixture(scope="session")
def ray_cluster() -> Iterator[ModuleType]:
    """A real Ray head on this machine, loopback only, 2 CPUs, shut down after the tests."""
    import ray

    ray.init(address="local", include_dashboard=False, num_cpus=2, _node_ip_address="127.0.0.1",
             object_store_memory=80 * 2**20, log_to_driver=False, configure_logging=False)
    try:
        yield ray
    finally:
        ray.shutdown()
    assert not ray.is_initialized()
