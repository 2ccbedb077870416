"""The seed message-list family: ``appam``, ``art``, ``forge`` and ``matey-ir`` (and, for
what text shares with them, ``chatml``) hold a conversation as a plain list of messages,
with no request around it (matey-ir's bare arrays and answers) or only a thin one. What
they share by design lives here, with each format's words as parameters:

* :mod:`.shapes`: the payload shapes (a message array, one message, a logged exchange)
  both ways, and how sure ``detect`` is of a list of messages;
* :mod:`.render`: the one thread a list holds, and the warnings every one of them gives
  for what a plain message list cannot carry (developer roles, reasoning fields,
  citations, blocks sent as text or left out, results moved out of their message).
"""
