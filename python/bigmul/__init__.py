# SPDX-License-Identifier: LGPL-3.0-or-later
"""bigmul: exact multiplication of huge integers (the C++ library's Python module).

    import bigmul
    c = bigmul.mul(a, b)          # == a * b, for Python ints of any size
    s = bigmul.to_decimal(c)      # == str(c), subquadratic

Every name comes from the compiled module bigmul.bigmul; __init__.pyi
(with py.typed) describes them for type checkers.
"""
from .bigmul import *  # noqa: F401,F403
from .bigmul import __version__  # noqa: F401
from . import bigmul as _module

__all__ = [name for name in dir(_module) if not name.startswith("_")]
__doc__ = _module.__doc__ or __doc__
del _module
