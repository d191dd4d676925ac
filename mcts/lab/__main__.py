"""Entry point of ``python -m mcts.lab``."""

import sys

from .main import main

sys.exit(main())
