"""``python -m chinese_poker``: the ``chinese-poker`` command line (see ``chinese_poker.cli``)."""

import sys

from chinese_poker.cli import main

__all__: list[str] = []

if __name__ == "__main__":
    sys.exit(main())
