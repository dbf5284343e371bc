"""Where a run's blocks are played: kow's own processes (``--jobs``) or Ray tasks (``--cluster``).

A run is cut into blocks (games ``K..K+M-1`` of ``kow simulate``, a few games of a
tournament, one decision of ``kow analyze``); each block depends on its index alone, so
any executor that hands the results back **in order** gives the same bytes. An
:class:`Executor` is what the run functions take as ``executor=``
(:func:`kow.runs.batch.run_text`, :func:`kow.runs.tournament.game_results`,
:func:`kow.runs.analysis.analyze_game`):

- :class:`Processes`: kow's own pool on this machine (:mod:`kow.runs._pool`), what
  ``--jobs N`` runs on (``_local.py``, with the interface);
- :class:`RayTasks` (made by :func:`on_ray`): each block a Ray task on the Ray runtime
  this process is connected to (``ray.init()``), with a bounded number in flight
  (``_ray_tasks.py``);
- :func:`ray_connection` connects as ``--cluster`` does (``_cluster.py``: the address
  checked and probed, stop signals while Ray connects, Ray's quirks).

Ray is imported only when a :class:`RayTasks` runs or :func:`ray_connection` connects
(the extra ``ray``); ``import kow`` and the rest of kow never load it. ``_cluster.py``
itself (with :mod:`logging`) is imported on first use of its names, so that a run on this
machine does not load it.
"""

from typing import TYPE_CHECKING

from ..._lazy import lazy_names
from ._local import Executor, Processes, check_executor
from ._ray_tasks import BlockError, ClusterError, RayTasks, TaskError, on_ray

if TYPE_CHECKING:  # at run time, __getattr__ imports them on first use
    from ._cluster import CLUSTERS, check_cluster, ray_connection

_LAZY = {"CLUSTERS": "_cluster", "check_cluster": "_cluster", "ray_connection": "_cluster"}
"""The names imported on first use, each with its module in this package."""


__getattr__, __dir__ = lazy_names(__name__, _LAZY, globals())


__all__ = [
    "BlockError",
    "CLUSTERS",
    "ClusterError",
    "Executor",
    "Processes",
    "RayTasks",
    "TaskError",
    "check_cluster",
    "check_executor",
    "on_ray",
    "ray_connection",
]
