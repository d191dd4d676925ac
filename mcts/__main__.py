"""Entry point of ``python -m mcts``."""

import sys

from .cli.main import main

sys.exit(main())
