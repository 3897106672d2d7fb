"""``python -m gecformats`` runs the command-line interface."""

from gecformats.cli import main

main()
