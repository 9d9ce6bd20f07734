# SPDX-License-Identifier: LGPL-3.0-or-later
"""bigmul.pyi describes the module: the same public functions, Integer's
methods, and the keyword options of mul()/sqr()."""

import ast
import os

import bigmul

STUB = os.path.join(os.path.dirname(__file__), "..", "bigmul.pyi")


def stub_tree():
    with open(STUB) as f:
        return ast.parse(f.read())


def test_stub_lists_the_module():
    tree = stub_tree()
    functions = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
    classes = {n.name: n for n in tree.body if isinstance(n, ast.ClassDef)}
    public = {name for name in dir(bigmul) if not name.startswith("_")}
    assert functions | set(classes) == public
    methods = {n.name for n in classes["Integer"].body if isinstance(n, ast.FunctionDef)}
    # Everything the binding defines (object's own __repr__/__str__/__reduce__ need no stub line).
    defined = set(bigmul.Integer.__dict__) - {"__doc__", "__module__", "__repr__", "__str__", "__reduce__"}
    assert methods == defined


def test_stub_keywords_match():
    tree = stub_tree()
    mul = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "mul")
    assert [a.arg for a in mul.args.kwonlyargs] == ["algorithm", "threads", "backend", "check"]
    bigmul.mul(2, 3, algorithm=None, threads=None, backend="auto", check=False)


def test_stub_powmod_signatures():
    tree = stub_tree()
    fns = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
    powmod, batched = fns["powmod"], fns["powmod_batched"]
    assert [a.arg for a in powmod.args.args] == ["base", "exp", "mod"]
    assert [a.arg for a in powmod.args.kwonlyargs] == ["constant_time"]
    assert [a.arg for a in batched.args.args] == ["bases", "exps", "mod_or_mods"]
    assert [a.arg for a in batched.args.kwonlyargs] == ["constant_time", "threads"]
    # The binding takes the same names.
    assert bigmul.powmod(base=3, exp=5, mod=7, constant_time=False) == 5
    assert bigmul.powmod_batched(bases=[3], exps=[5], mod_or_mods=7, constant_time=True, threads=None) == [5]
    integer = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Integer")
    pow_ = next(n for n in integer.body if isinstance(n, ast.FunctionDef) and n.name == "__pow__")
    assert [a.arg for a in pow_.args.args] == ["self", "exponent", "modulus"]
    assert bigmul.Integer(3).__pow__(exponent=5, modulus=7) == 5
