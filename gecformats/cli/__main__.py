"""``python -m gecformats.cli`` runs the command line, as ``python -m gecformats`` does."""

from gecformats.cli import main

main()
