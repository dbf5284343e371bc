"""kow for game-AI frameworks: the encoding, and one adapter per framework.

- :mod:`kow.frameworks.encoding`: what a seat may know as the frameworks' data (action
  ids, observation and information state as flat tensors and as text), with no framework
  and no numpy;
- :mod:`kow.frameworks.openspiel`, :mod:`kow.frameworks.pettingzoo`,
  :mod:`kow.frameworks.gymnasium`: each imports its framework (and numpy) when it is itself
  imported, and nothing else of kow imports it. Their old names (``kow.openspiel``...)
  still import them (``docs/frameworks.md``).
- :mod:`kow.frameworks._gym`: what the two gym-style environments share (the observation
  space, a seat's observation and action mask as arrays).
"""
