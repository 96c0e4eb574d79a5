"""Command line: ``python -m symgrad cache info|clear`` (see ``build/cli.py``)."""

import sys

from symgrad.build.cli import main

if __name__ == "__main__":
    sys.exit(main())
