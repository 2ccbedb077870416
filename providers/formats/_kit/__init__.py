"""The formats kit: what every format package builds on. Import from its submodules
(``providers.formats._kit.paths``, ``.fields``, ``.extra``, ``.values``, ``.ids``,
``.context``, ``.drift``)."""
