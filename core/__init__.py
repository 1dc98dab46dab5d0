"""The foundation of hopgraph: what every area stands on and nothing above it.

``errors`` (the exceptions every surface turns into one line), ``settings`` (connection and
model settings from the environment), ``ports`` (the embedder, chat model and query runner
protocols the areas implement or call), ``results`` (the evidence shape every surface returns),
``vocabulary`` (the legal and validity terms shared by loaders, retrieval and agents),
``questions`` (input checks shared by CLI, Python API, HTTP and MCP), ``samples`` (the bundled
sample files) and ``segmenting`` (Vietnamese word segmentation).

This package imports nothing else of hopgraph. The front door (:class:`hopgraph.Hopgraph`) sits
in the package root, above every area.
"""
