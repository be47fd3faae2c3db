# Issue 13 item 2, "a Table you can see": read from the source (CPython, ast) -- Table is one class
# with no bases (no mixin set sharing one object), every attribute the table package sets on a
# Table (self.X in its methods, t.X in its function modules) is first set in Table.__init__ (or the
# per-hand account it calls), nothing in felt/table grafts methods onto a class or forwards module
# attributes (module __getattr__), and the hand's engine inputs are hand_inputs (not "journal").
import ast
import os

TABLE = os.path.join(os.path.dirname(__file__), "..", "..", "firmware", "felt", "table")


def _parse(name):
    with open(os.path.join(TABLE, name)) as f:
        return ast.parse(f.read(), name)


def _table_class():
    tree = _parse("controller.py")
    return [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Table"][0]


def _stores(node, owner):
    return [n.attr for n in ast.walk(node) if isinstance(n, ast.Attribute) and isinstance(n.ctx, ast.Store)
            and isinstance(n.value, ast.Name) and n.value.id == owner]


def _declared():
    cls = _table_class()
    methods = dict((f.name, f) for f in cls.body if isinstance(f, ast.FunctionDef))
    return set(_stores(methods["__init__"], "self")) | set(_stores(methods["_new_account"], "self"))


def test_table_is_one_class_without_bases():
    cls = _table_class()
    assert cls.bases == [], [ast.dump(b) for b in cls.bases]
    init = [f for f in cls.body if isinstance(f, ast.FunctionDef) and f.name == "__init__"][0]
    calls = [n.func.attr for n in ast.walk(init) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)]
    assert "_new_account" in calls  # the per-hand account is declared through __init__


def test_every_attribute_is_first_set_in_init():
    declared = _declared()
    cls = _table_class()
    late = {}
    for f in cls.body:
        if isinstance(f, ast.FunctionDef) and f.name not in ("__init__", "_new_account"):
            for name in _stores(f, "self"):
                if name not in declared:
                    late.setdefault(name, []).append("Table." + f.name)
    for name in sorted(os.listdir(TABLE)):
        if name.endswith(".py") and name != "controller.py":
            for attr in _stores(_parse(name), "t"):
                if attr not in declared:
                    late.setdefault(attr, []).append(name)
    assert late == {}, late


def test_nothing_in_the_table_package_grafts_methods_or_forwards_attributes():
    for name in sorted(os.listdir(TABLE)):
        if not name.endswith(".py"):
            continue
        tree = _parse(name)
        funcs = [n.name for n in tree.body if isinstance(n, ast.FunctionDef)]
        assert "__getattr__" not in funcs, name
        for n in ast.walk(tree):
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "setattr":
                target = n.args[0]
                assert not (isinstance(target, ast.Name) and target.id in ("Table", "cls", "self", "t")), \
                    (name, n.lineno)
            if isinstance(n, ast.Assign):
                for tgt in n.targets:
                    assert not (isinstance(tgt, ast.Attribute) and isinstance(tgt.value, ast.Name)
                                and tgt.value.id == "Table"), (name, n.lineno)


def test_the_hands_engine_inputs_are_hand_inputs():
    declared = _declared()
    assert "hand_inputs" in declared
    assert "journal" not in declared  # the word belongs to felt.recovery.journal
