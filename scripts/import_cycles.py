#!/usr/bin/env python3
"""Fails when source files import each other in a circle (docs/ARCHITECTURE.md: imports run
one way). Reads the Rust crates' `crate::`, `super::` and `self::` paths and the TypeScript
packages' relative imports and re-exports (`import type` too), builds the graph of files, and
prints every circle (a strongly connected set of files) with the names that tie it.

    python3 scripts/import_cycles.py            # the whole repository
    python3 scripts/import_cycles.py DIR...     # only these Rust crates' or TS packages' src

Rust's compiler allows circles between modules and TypeScript's between files: both compile,
and both make a file impossible to read or change alone, so this check keeps them out. A
module that declares a child (`mod x;`) does not import it by that; using the child's items
does; a child module reading its ancestors' items (`super::`, or `crate::` paths to them) is
inside its parent's room and not counted. Unit tests (`#[cfg(test)] mod tests` to the end of a
file) are not read.
"""

import re
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RUST_CRATES = ["crates/engine", "crates/proto", "crates/client", "server", "sdk-python"]
TS_PACKAGES = ["clients/typescript", "clients/web"]

TEST_TAIL = re.compile(
    r"^#\[cfg\(test\)\]\s*\n(?:#\[[^\n]*\]\s*\n)*mod tests\b.*",
    re.DOTALL | re.MULTILINE,
)
COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.DOTALL)
STRING = re.compile(r'"(?:\\.|[^"\\])*"')
USE = re.compile(r"\buse\s+(\w[^;]*);")
PUB_USE = re.compile(r"\bpub(?:\([^)]*\))?\s+use\s+(\w[^;]*);")
PATH = re.compile(r"(?<![\w:])((?:crate|super|self|[a-z_][a-z0-9_]*)(?:::\w+)+)")
CHAR = re.compile(r"'(?:\\.|[^'\\\n])'")
TS_IMPORT = re.compile(
    r"""(?:import|export)\s[^;]*?\sfrom\s*["'](\.{1,2}/[^"']+)["']""", re.DOTALL
)


def rust_module(src: Path, file: Path) -> list[str]:
    """The module path of `file` inside the crate whose root folder is `src`."""
    parts = list(file.relative_to(src).with_suffix("").parts)
    return parts[:-1] if parts[-1] in ("mod", "lib") else parts


def expand(tree: str) -> list[tuple[str, str]]:
    """The paths of a `use` tree with the name each brings in: `a::{b, c::{d as e}}` is `a::b`
    (named `b`) and `a::c::d` (named `e`)."""
    tree = re.sub(r"\s+", " ", tree).strip()
    start = tree.find("{")
    if start < 0:
        m = re.fullmatch(r"(.*?)(?: as (\w+))?", tree)
        path = re.sub(r"\s+", "", m.group(1))
        return [(path, m.group(2) or path.split("::")[-1])]
    head, body = tree[:start].replace(" ", ""), tree[start + 1 : tree.rfind("}")]
    items, depth, last = [], 0, 0
    for i, c in enumerate(body):
        depth += c == "{"
        depth -= c == "}"
        if c == "," and depth == 0:
            items.append(body[last:i])
            last = i + 1
    items.append(body[last:])
    return [p for item in items if item.strip() for p in expand(head + item.strip())]


def rust_graph(crate: Path, edges: dict) -> None:
    src = crate / "src"
    modules = {}
    for file in src.rglob("*.rs"):
        # The binaries' roots (`main.rs`, `bin/`) are crates of their own.
        if "bin" in file.relative_to(src).parts or file.relative_to(src) == Path(
            "main.rs"
        ):
            continue
        modules[tuple(rust_module(src, file))] = file
    texts = {}
    for module, file in modules.items():
        text = TEST_TAIL.sub("", file.read_text())
        text = CHAR.sub("' '", COMMENT.sub("", text))
        texts[module] = STRING.sub('""', text)

    def start(module: tuple, parts: list[str]) -> tuple[list[str], list[str]] | None:
        """Where a path begins: the crate root, an ancestor, or a child of `module`; `None`
        for another crate's path."""
        if parts[0] == "crate":
            return [], parts[1:]
        if parts[0] in ("super", "self"):
            at = list(module)
            while parts and parts[0] in ("super", "self"):
                if parts.pop(0) == "super":
                    at = at[:-1]
            return at, parts
        if (*module, parts[0]) in modules:
            return list(module), parts
        return None

    # What each module re-exports (`pub use`), by the name it exports, as where it starts.
    reexports = {}
    for module, text in texts.items():
        for tree in PUB_USE.findall(text):
            for path, name in expand(tree):
                begun = start(module, path.split("::"))
                if begun is not None and name != "*":
                    reexports[(module, name)] = begun

    def resolve(at: list[str], parts: list[str], hops: int = 0) -> tuple | None:
        """The module that defines what the path names, through re-exports."""
        k = len(parts)
        while k >= 0 and tuple(at + parts[:k]) not in modules:
            k -= 1
        if k < 0:
            return None
        found, rest = tuple(at + parts[:k]), parts[k:]
        if rest and (found, rest[0]) in reexports and hops < 8:
            src_at, src_parts = reexports[(found, rest[0])]
            return resolve(src_at, src_parts + rest[1:], hops + 1) or found
        return found

    for module, file in modules.items():
        text = texts[module]
        paths = [p for tree in USE.findall(text) for p, _ in expand(tree)]
        paths += PATH.findall(USE.sub("", text))
        for path in paths:
            begun = start(module, path.split("::"))
            if begun is None:
                continue
            target_module = resolve(*begun)
            if target_module is None or modules[target_module] == file:
                continue
            # A module sees its ancestors' items by Rust's scoping (`super::`): a child reading
            # its parent's types is the parent's room, not an arrow back up.
            if module[: len(target_module)] == target_module:
                continue
            edges[file][modules[target_module]].add(path.split("::")[-1])


def ts_graph(package: Path, edges: dict) -> None:
    src = package / "src"
    for file in src.rglob("*.ts*"):
        if "gen" in file.relative_to(src).parts or file.suffix not in (".ts", ".tsx"):
            continue
        text = COMMENT.sub("", file.read_text())
        for spec in TS_IMPORT.findall(text):
            base = (file.parent / spec).resolve()
            for candidate in (base.with_suffix(".ts"), base.with_suffix(".tsx"), base):
                if candidate.is_file() and candidate.suffix in (".ts", ".tsx"):
                    if "gen" not in candidate.relative_to(src).parts:
                        edges[file][candidate].add(spec)
                    break


def circles(edges: dict) -> list[list[Path]]:
    """The strongly connected sets of more than one file (Tarjan's algorithm, iteratively)."""
    index, low, on, stack, found, counter = {}, {}, set(), [], [], [0]
    nodes = set(edges) | {t for ts in edges.values() for t in ts}
    for root in sorted(nodes):
        if root in index:
            continue
        work = [(root, iter(sorted(edges.get(root, ()))))]
        index[root] = low[root] = counter[0]
        counter[0] += 1
        stack.append(root)
        on.add(root)
        while work:
            node, it = work[-1]
            nxt = next(it, None)
            if nxt is not None:
                if nxt not in index:
                    index[nxt] = low[nxt] = counter[0]
                    counter[0] += 1
                    stack.append(nxt)
                    on.add(nxt)
                    work.append((nxt, iter(sorted(edges.get(nxt, ())))))
                elif nxt in on:
                    low[node] = min(low[node], index[nxt])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    found.append(sorted(group))
    return found


def main(args: list[str]) -> int:
    places = (
        [ROOT / a for a in args]
        if args
        else [ROOT / p for p in RUST_CRATES + TS_PACKAGES]
    )
    edges: dict = defaultdict(lambda: defaultdict(set))
    for place in places:
        if (place / "Cargo.toml").is_file():
            rust_graph(place, edges)
        elif (place / "package.json").is_file():
            ts_graph(place, edges)
        else:
            print(
                f"import_cycles: {place} is neither a Rust crate nor a TypeScript package",
                file=sys.stderr,
            )
            return 2
    found = circles(edges)
    for group in found:
        print(f"import circle of {len(group)} files:")
        members = set(group)
        for a in group:
            for b in sorted(edges[a]):
                if b in members:
                    names = ", ".join(sorted(edges[a][b]))
                    print(f"  {a.relative_to(ROOT)} -> {b.relative_to(ROOT)}: {names}")
    files = len(set(edges) | {t for ts in edges.values() for t in ts})
    arrows = sum(len(ts) for ts in edges.values())
    if found:
        print(
            f"{len(found)} import circle(s); cut each so that its imports run one way",
            file=sys.stderr,
        )
        return 1
    print(f"ok: no import circle ({files} files, {arrows} imports between them)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
