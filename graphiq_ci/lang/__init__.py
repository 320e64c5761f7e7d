"""Language plugins behind one seam: a registry maps a file to a plugin that emits `ParsedFile`.

Nothing outside this package branches on a language name.
"""

from __future__ import annotations

from graphiq_ci.lang.registry import MODULE_FILES, detect_language, plugin_for

__all__ = ["MODULE_FILES", "detect_language", "plugin_for"]
