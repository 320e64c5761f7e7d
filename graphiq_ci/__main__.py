from __future__ import annotations

from graphiq_ci.cli import main

main()
