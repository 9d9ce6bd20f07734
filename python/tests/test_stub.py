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
