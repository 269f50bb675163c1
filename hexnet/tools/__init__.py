"""Tools that run many games in-process, on the rules core alone: ``hexnet selfplay``
(:mod:`~hexnet.tools.selfplay`), ``hexnet tournament``'s ladders (:mod:`~hexnet.tools.ladder`),
the worker processes or Dask cluster they spread over (:mod:`~hexnet.tools.workers`), their
progress bar (:mod:`~hexnet.tools.progress`) and where a search bot's time goes
(:mod:`~hexnet.tools.searchbench`). Nothing of the rules core imports them.
"""
