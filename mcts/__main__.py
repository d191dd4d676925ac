"""Entry point of ``python -m mcts``."""

import sys

from .cli import main

sys.exit(main())
