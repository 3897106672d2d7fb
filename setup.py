"""The one thing pyproject.toml cannot say: the MaxMatch scorer's compiled core.

``maxmatch._core`` (plain C on the CPython API, no other build dependency) is optional: where
no C compiler works, ``pip install .`` says so and installs the package without it, and the
scorer runs its pure-Python path (``maxmatch.backend()`` tells which one is in use).
"""

from setuptools import Extension, setup

setup(ext_modules=[Extension("maxmatch._core", ["scorer/maxmatch/_core.c"], optional=True)])
