"""The lab's subcommands, one module per group, each with ``add_commands``."""
