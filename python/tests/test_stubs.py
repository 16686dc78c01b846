"""coulomb/_coulomb.pyi against the compiled module: the stubs name every public attribute of the
module and of its classes, and nothing else, so that they cannot rot."""
import ast
import inspect
import pathlib

import pytest

import coulomb
from coulomb import _coulomb

# The stubs as built next to the extension (what a type checker reads), else the source tree's.
STUB = pathlib.Path(coulomb.__file__).with_name("_coulomb.pyi")


def public(names):
    return {n for n in names if not n.startswith("_")}


def stub_tree():
    assert STUB.exists(), f"{STUB} is missing (python/CMakeLists.txt copies it)"
    return ast.parse(STUB.read_text(encoding="utf-8"))


def stub_names(body):
    """Names a stub body defines: functions, classes, annotated and assigned names."""
    names = set()
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
    return names


def stub_classes():
    return {node.name: node for node in stub_tree().body if isinstance(node, ast.ClassDef)}


def test_the_stub_names_every_public_attribute_of_the_module_and_no_other():
    module = public(dir(_coulomb))
    stub = public(stub_names(stub_tree().body))
    assert stub - module == set(), "in the stub, not in the module"
    assert module - stub == set(), "in the module, not in the stub"


@pytest.mark.parametrize("name", sorted(n for n in public(dir(_coulomb))
                                        if inspect.isclass(getattr(_coulomb, n))))
def test_the_stub_names_every_public_member_of_each_class_and_no_other(name):
    cls = getattr(_coulomb, name)
    stub = stub_classes()[name]
    # Members the class defines itself (inherited ones are checked on their own class).
    own = public(vars(cls))
    declared = public(stub_names(stub.body))
    assert declared - own == set(), f"{name}: in the stub, not in the class"
    assert own - declared == set(), f"{name}: in the class, not in the stub"
    # The same base classes.
    bases = [b.id if isinstance(b, ast.Name) else ast.unparse(b) for b in stub.bases]
    assert bases == [b.__name__ for b in cls.__bases__ if b.__name__ not in ("pybind11_object",)]


def test_the_stub_keeps_each_functions_parameters():
    # Parameter names (in order) of the module's functions and the classes' methods, read from
    # pybind11's signatures, against the stub's.
    def signature_names(obj):
        first = obj.__doc__.splitlines()[0]  # "name(a: T, b: T = ..., /, *, c: T, **kwargs) -> R"
        inside = first[first.index("(") + 1:first.rindex(") ->")]
        names, depth, current = [], 0, ""
        for ch in inside + ",":
            if ch in "([":
                depth += 1
            elif ch in ")]":
                depth -= 1
            if ch == "," and depth == 0:
                names.append(current.split(":")[0].split("=")[0].strip().lstrip("*"))
                current = ""
            else:
                current += ch
        return [n for n in names if n not in ("", "/", "self")]

    def stub_parameters(node):
        a = node.args
        names = [p.arg for p in a.posonlyargs + a.args + a.kwonlyargs]
        if a.kwarg is not None:
            names.append("kwargs")  # pybind11 writes **kwargs where the stub has **params
        return [n for n in names if n != "self"]

    functions = {n.name: n for n in stub_tree().body if isinstance(n, ast.FunctionDef)}
    checked = 0
    for name in public(dir(_coulomb)):
        obj = getattr(_coulomb, name)
        if inspect.isbuiltin(obj):
            assert signature_names(obj) == stub_parameters(functions[name]), name
            checked += 1
        elif inspect.isclass(obj) and not issubclass(obj, BaseException):
            methods = {n.name: n for n in stub_classes()[name].body
                       if isinstance(n, ast.FunctionDef)}
            for member, value in vars(obj).items():
                if member.startswith("_") or isinstance(value, property):
                    continue
                assert signature_names(value) == stub_parameters(methods[member]), \
                    f"{name}.{member}"
                checked += 1
    assert checked > 20
