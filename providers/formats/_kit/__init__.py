"""The formats kit: what every format package builds on. Import from its submodules:
``paths`` (field paths), ``fields`` (the typed field reader), ``extra`` (the namespace of
a format's extras and hints), ``ids`` (id and tool-name fitting), ``context`` (the render
context), ``drift`` (the drift reporters), ``parameters`` (parameters an API requires),
``media`` (media that is not what it claims), ``wire`` (data URIs, argument strings,
signatures, finish reasons, tool definitions), ``thread`` (one thread out of a tree),
``hidden`` (context kept out of sight) and ``detect`` (the detector of distinctive fields,
and the scores of a message list and of a message's content)."""
