"""A cached property that takes no lock, for values that threads work out at once.

:class:`functools.cached_property` before Python 3.12 holds one lock for *every* instance of a
class while it works out the value of any one of them. A turn's answers are searched on threads
(a bot's taps), and one crazy gul-bara cascade's first look searches for seconds: with that
lock, every other game's tap on every other thread waited for it (a bench measured the other
games' taps answered only when the cascade's was). Python 3.12 dropped the lock for this
reason; :class:`lazy` is its descriptor. Two threads asking at once may both work the value
out; the answers here are deterministic, so either may be kept.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar, overload

_Owner = TypeVar("_Owner")
_Value = TypeVar("_Value")


class lazy(Generic[_Owner, _Value]):  # a decorator, named like cached_property
    """Works out ``func(instance)`` on first use and keeps it in the instance's ``__dict__``
    (also of a frozen dataclass), where later reads find it without calling this descriptor.

    >>> class Box:
    ...     @lazy
    ...     def size(self) -> int:
    ...         print("worked out")
    ...         return 3
    >>> box = Box()
    >>> box.size
    worked out
    3
    >>> box.size
    3
    """

    def __init__(self, func: Callable[[_Owner], _Value]) -> None:
        self.func = func
        self.name = func.__name__
        self.__doc__ = func.__doc__

    def __set_name__(self, owner: type[Any], name: str) -> None:
        self.name = name

    @overload
    def __get__(self, instance: None, owner: type[Any] | None = None) -> lazy[_Owner, _Value]: ...

    @overload
    def __get__(self, instance: _Owner, owner: type[Any] | None = None) -> _Value: ...

    def __get__(
        self, instance: _Owner | None, owner: type[Any] | None = None
    ) -> lazy[_Owner, _Value] | _Value:
        if instance is None:
            return self
        value = self.func(instance)
        instance.__dict__[self.name] = value
        return value
