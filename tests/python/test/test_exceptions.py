"""The exception hierarchy: a class per kind under its group's class under the contract's base class."""

import pickle
from typing import Any

import pytest

from env import fallback_vector, new_env, parsed, pkg, vectors

BASE = next(getattr(pkg, n) for n in pkg.__all__ if isinstance(getattr(pkg, n), type) and getattr(pkg, n).__bases__ == (Exception,) and n != "EnvelopeError")


def test_base_class() -> None:
    assert issubclass(BASE, Exception)
    assert not issubclass(pkg.EnvelopeError, BASE)
    assert BASE.KIND == "" and BASE.GROUP == ""


def test_every_kind_has_a_class_under_its_group() -> None:
    assert sorted(pkg.ERROR_CLASSES) == sorted(pkg.KNOWN_KINDS)
    names = set()
    for kind, cls in pkg.ERROR_CLASSES.items():
        assert cls.KIND == kind
        assert getattr(pkg, cls.__name__) is cls, "exported"
        names.add(cls.__name__)
        group = pkg.lookup(kind).group
        if group in pkg.GROUP_ERROR_CLASSES:
            assert cls.__bases__ == (pkg.GROUP_ERROR_CLASSES[group],)
            assert cls.GROUP == group
        else:
            assert cls.__bases__ == (BASE,)
    for group, cls in pkg.GROUP_ERROR_CLASSES.items():
        assert cls.__bases__ == (BASE,)
        assert cls.GROUP == group and cls.KIND == ""
        names.add(cls.__name__)
    assert len(names) == len(pkg.ERROR_CLASSES) + len(pkg.GROUP_ERROR_CLASSES), "class names are unique"
    assert sorted(pkg.GROUP_ERROR_CLASSES) == sorted(g.value for g in pkg.Group)


@pytest.mark.parametrize("v", vectors["envelopes"], ids=[v["name"] for v in vectors["envelopes"]])
def test_raise_and_catch(v: Any) -> None:
    env = parsed(v["envelope"])
    cls = pkg.error_class(env.kind)
    with pytest.raises(BASE) as err:
        pkg.raise_envelope(env)
    assert type(err.value) is cls
    assert err.value.envelope is env
    assert str(err.value) == pkg.error_string(env)
    assert err.value.args == (pkg.error_string(env),)
    if v["known"]:
        assert cls is pkg.ERROR_CLASSES[env.kind]
        group = pkg.lookup(env.kind).group
        if group in pkg.GROUP_ERROR_CLASSES:
            assert isinstance(err.value, pkg.GROUP_ERROR_CLASSES[group])
    else:
        assert cls is BASE
    back = pickle.loads(pickle.dumps(err.value))
    assert type(back) is cls and back.envelope == env


def test_unknown_kind_is_the_base_class() -> None:
    exc = pkg.to_exception(new_env(fallback_vector()["kind"], "m"))
    assert type(exc) is BASE
