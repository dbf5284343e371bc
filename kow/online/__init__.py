"""Online play: a table served over the network, and the clients that sit at it.

- :mod:`kow.online.protocol`: the messages, their bounds, the JSON of events and views;
- :mod:`kow.online.table`: a table, its seats and games (the one game loop in a thread);
- :mod:`kow.online.server`: the WebSocket server, its tables and limits;
- :mod:`kow.online.client`: the connection a client keeps.

docs/online.md describes the protocol message by message and what the server trusts.
Nothing here imports Click; the commands ``kow host``, ``kow join`` and ``kow serve`` are
in :mod:`kow.cli`.
"""
