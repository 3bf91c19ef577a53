"""Tests of the computer player (:mod:`bot.ai`).

:mod:`bot.ai` is imported first, before any test module imports numpy: it limits numpy's BLAS
threads, which only works before numpy's first import (several threads per process on a
loaded machine make the small matrix products of the net several times slower)."""

import bot.ai  # noqa: F401
