"""maxmatch: the MaxMatch (M2) scorer of Dahlmeier & Ng (2012), standard library only."""

from __future__ import annotations

__version__ = "0.1.0"
