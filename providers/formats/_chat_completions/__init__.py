"""The chat-completions family: ``openai-chat``, ``openai-responses``, ``mistral``,
``cohere``, ``ollama`` and ``openai-finetune`` take a conversation as a flat thread of
role-tagged messages, tool calls answered by tool messages (or items) right after them.
What they share by design lives here, with each provider's words as parameters:

* :mod:`.shape`: the four payload shapes (request, message list, exchange, response), read
  and written the same way, and the request body's reader;
* :mod:`.detect`: scoring those shapes message by message;
* :mod:`.completion`: the ``chat.completion`` response (OpenAI-compatible APIs);
* :mod:`.calls`: tool calls as ``{"id", "function": {"name", "arguments"}}`` (and OpenAI's
  custom ones);
* :mod:`.content`: how a message's ``content`` is spelled (string, parts, null, absent);
* :mod:`.blocks`: media as URLs and data URIs (and OpenAI's file ids and filenames), tool
  definitions, the thread of a tree;
* :mod:`.parameters`: sampling parameters (:class:`~.parameters.ParameterSpec`), read
  with their JSON spelling kept (``1`` vs ``1.0``, a lone stop string), written back
  clamped to the target's ranges;
* :mod:`.render`: the render of the formats that linearize (``cohere``, ``mistral``), in
  a :class:`~.render.Dialect`'s words;
* :mod:`.turns` (:func:`~.turns.linearize`): any UMF conversation as the flat thread of
  system, user, assistant and tool turns these APIs take, every tool call answered right
  after it. Each change is one drift warning:

  ================================================  ========================================
  a message on another branch of a tree             ``content-dropped``
  a developer message                               ``system-message-transformed``
  a system message after the conversation started   merged into the leading system message,
                                                    ``system-message-transformed``
  tool results inside other messages                split out as tool turns
  a result not right after its call                 moved there, ``message-reordered`` (info)
  a call nothing answers                            a placeholder error result,
                                                    ``id-synthesized``
  a result that answers no earlier call             user text, ``content-type-unsupported``
  other content of a tool message                   a user turn, ``message-reordered``
  a tool call outside an assistant message          ``content-dropped``
  a message's author ``name`` (not a tool's)        ``content-dropped`` (info)
  call ids the target refuses, or used twice        rewritten, ``id-rewritten`` (info)
  ``reasoning`` beside thinking blocks, details     ``reasoning-dropped``
  ================================================  ========================================
"""
