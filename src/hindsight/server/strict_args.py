"""JSON types at the MCP boundary, as the tool's input schema states them (attack round 19).

FastMCP validates a tool call's arguments with pydantic in lax mode, which converts between JSON types: `top_k:
true` was taken as 1, `importance: true` as 1.0, `private: 1` or `private: "true"` as true, `limit: "20"` as 20 and
`event_time: 0` as 1970-01-01 (round 18 left `top_k: true`). A client that sends the wrong JSON type has a bug, and
a value that means something else than it says (a flag read as a count, a count read as a flag) should be refused,
not guessed. `type_problem` compares each argument's JSON type with the types the tool's published input schema
allows (following `$ref`, `anyOf` / `oneOf`, `items`, `properties` and `additionalProperties`), before pydantic
sees it, and refuses a value of another type that lax mode would convert (`_converted`); one pydantic refuses
anyway keeps pydantic's words. A schema node that names no type (free metadata) allows anything. An integer is a
number; a float with no fraction is an integer, as JSON Schema says.
"""

from __future__ import annotations

from typing import Any

#: how deep the walk follows a value (the schemas nest a few levels; free metadata has no type below its top)
MAX_DEPTH = 32


def json_type(value: Any) -> str:
    """The JSON Schema type of a decoded JSON value."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int) or (isinstance(value, float) and value.is_integer()):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object" if isinstance(value, dict) else "unknown"


def _resolve(node: Any, root: dict[str, Any]) -> dict[str, Any]:
    for _ in range(MAX_DEPTH):
        if not isinstance(node, dict):
            return {}
        ref = node.get("$ref")
        if not isinstance(ref, str) or not ref.startswith("#/"):
            return node
        target: Any = root
        for part in ref[2:].split("/"):
            target = target.get(part) if isinstance(target, dict) else None
        node = target
    return {}


def _branches(node: dict[str, Any], root: dict[str, Any]) -> list[dict[str, Any]]:
    """The alternatives a value may match: the node itself, or each branch of its anyOf / oneOf."""
    for key in ("anyOf", "oneOf"):
        options = node.get(key)
        if isinstance(options, list) and options:
            out: list[dict[str, Any]] = []
            for option in options:
                out.extend(_branches(_resolve(option, root), root))
            return out
    return [node]


def _allows(node: dict[str, Any], kind: str) -> bool:
    declared = node.get("type")
    if declared is None:  # no type named: free (metadata values), or an enum / const of its own values
        return _enum_allows(node, kind) if "enum" in node or "const" in node else True
    types = set(declared) if isinstance(declared, list) else {declared}
    return kind in types or (kind == "integer" and "number" in types)


def _enum_allows(node: dict[str, Any], kind: str) -> bool:
    values = node.get("enum", [node.get("const")])
    return any(json_type(v) == kind for v in values) if isinstance(values, list) else True


_BOOLEAN_WORDS = frozenset({"true", "false", "yes", "no", "on", "off", "t", "f", "y", "n", "0", "1"})


def _converted(value: Any, kind: str, node: dict[str, Any]) -> bool:
    """True when pydantic's lax mode would turn `value` into the type `node` names (instead of refusing it)."""
    declared = node.get("type")
    types = set(declared) if isinstance(declared, list) else {declared}
    if kind == "boolean":
        return bool(types & {"integer", "number", "string"})  # true -> 1, 1.0 (a string field refuses it anyway)
    if "boolean" in types and (value in (0, 1) if kind in ("integer", "number")
                               else kind == "string" and value.strip().lower() in _BOOLEAN_WORDS):
        return True
    if kind == "string" and types & {"integer", "number"}:
        return _number(value)
    return kind in ("integer", "number") and "string" in types and node.get("format") in ("date-time", "date")


def _number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def _expected(branches: list[dict[str, Any]]) -> str:
    kinds: list[str] = []
    for node in branches:
        declared = node.get("type")
        for kind in declared if isinstance(declared, list) else [declared] if declared else []:
            if kind not in kinds:
                kinds.append(str(kind))
    names = {"null": "null", "boolean": "a boolean (true or false)", "integer": "an integer", "number": "a number",
             "string": "a string", "array": "a list", "object": "an object (a dictionary)"}
    return " or ".join(names.get(k, k) for k in kinds) or "another type"


def type_problem(value: Any, node: Any, root: dict[str, Any], path: str = "", depth: int = 0) -> str | None:
    """`FIELD: RULE` for the first argument whose JSON type the schema does not allow, or None."""
    if depth > MAX_DEPTH:
        return None
    kind = json_type(value)
    branches = _branches(_resolve(node, root), root)
    matching = [b for b in branches if _allows(b, kind)]
    if not matching:
        if not any(_converted(value, kind, b) for b in branches):
            return None  # pydantic refuses it with its own words (`TypedArgumentErrors`), as before
        return (f"{path or 'arguments'}: must be {_expected(branches)}, not {_article(kind)} (rule: an argument "
                "has the JSON type the tool's schema gives it; a boolean is not a number, nor a number or a string "
                "a boolean)")
    if kind == "string" and all(b.get("format") in ("date-time", "date") for b in matching) and _number(value):
        return (f"{path or 'arguments'}: must be an ISO 8601 time, not a number in a string (rule: a time is "
                "written as ISO 8601; a bare number would be read as seconds since 1970)")
    if kind == "array":
        for node_ in matching:
            items = node_.get("items")
            if items is not None:
                for i, item in enumerate(value):
                    problem = type_problem(item, items, root, f"{path}.{i}" if path else str(i), depth + 1)
                    if problem:
                        return problem
                break
    elif kind == "object":
        for node_ in matching:
            if "properties" in node_ or "additionalProperties" in node_:
                return _object_problem(value, node_, root, path, depth)
    return None


def _object_problem(value: dict[str, Any], node: dict[str, Any], root: dict[str, Any], path: str,
                    depth: int) -> str | None:
    properties = node.get("properties") or {}
    extra = node.get("additionalProperties")
    for key, item in value.items():
        schema = properties.get(key, extra if isinstance(extra, dict) else None)
        if schema is None:  # an unknown key: pydantic refuses it by name (or ignores it), as before
            continue
        problem = type_problem(item, schema, root, f"{path}.{key}" if path else str(key), depth + 1)
        if problem:
            return problem
    return None


def _article(kind: str) -> str:
    return {"null": "null", "boolean": "a boolean", "integer": "an integer", "number": "a number",
            "string": "a string", "array": "a list", "object": "an object"}.get(kind, kind)


def arguments_problem(arguments: dict[str, Any] | None, schema: dict[str, Any]) -> str | None:
    """The first type problem of a tool call's arguments against the tool's input schema, or None."""
    if not arguments:
        return None
    return _object_problem(arguments, schema, schema, "", 0)
