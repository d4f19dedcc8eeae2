"""The steps of the site's build, one module each; build.py puts them together.

- :mod:`.steps`: where the sources, the site and the cache are, the error a step
  stops with, and running a tool;
- :mod:`.vendor`: the third-party files the site ships (Pyodide and the multiplayer
  libraries from npm, micropip from PyPI);
- :mod:`.wheel`: the engine's wheel;
- :mod:`.compiled`: Python compiled ahead in Pyodide (the wheels' bytecode, the
  compiled standard library);
- :mod:`.site_files`: the site's own files (web/ copied, its modules preloaded,
  every file hashed into the manifest and the service worker);
- :mod:`.serve`: the local web server;
- :mod:`.icons`: the app's PNG icons, drawn from their SVG.
"""
