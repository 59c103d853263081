#!/usr/bin/env python3
"""Each Rust crate's top-level modules import one another one way (issue 32, D417).

A crate's modules are its src/ files and folders (the root lib.rs/main.rs left out); one
imports another when its code (outside `#[cfg(test)] mod tests` and comments) names
`crate::other` or `crate::{other, ...}`. The modules must form layers: no circle, however
long. Prints each crate's module count and number of layers; exits 1 naming the circle
and the files behind each of its imports when there is one.
    python3 scripts/layers.py            # every crate under crates/ and bench/
    python3 scripts/layers.py crates/api # one crate
"""
import os, re, sys

def modules(src):
    mods = {}
    for dp, _, fs in os.walk(src):
        for f in fs:
            if f.endswith(".rs"):
                top = os.path.relpath(os.path.join(dp, f), src)[:-3].split(os.sep)[0]
                if top not in ("lib", "main", "bin"):
                    mods.setdefault(top, []).append(os.path.join(dp, f))
    return mods

def code(path):
    text = re.split(r"#\[cfg\(test\)\]\s*mod tests", open(path, encoding="utf-8").read())[0]
    return "\n".join(l for l in text.splitlines() if not l.lstrip().startswith("//"))

def imports(mods):
    edges = {m: {} for m in mods}
    for m, files in mods.items():
        for f in files:
            text = code(f)
            names = re.findall(r"crate::([a-z_0-9]+)", text)
            names += [n for group in re.findall(r"crate::\{([^}]*)\}", text) for n in re.findall(r"\b([a-z_0-9]+)\b", group)]
            for n in names:
                if n in mods and n != m:
                    edges[m].setdefault(n, set()).add(f)
    return edges

def circles(edges):
    """Tarjan's strongly connected components with more than one module."""
    index, low, on, stack, out = {}, {}, set(), [], []
    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v); on.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w); low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop(); on.discard(w); comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))
    sys.setrecursionlimit(10000)
    for v in edges:
        if v not in index:
            visit(v)
    return out

def layers(edges):
    depth = {}
    def d(v):
        if v not in depth:
            depth[v] = 0
            depth[v] = 1 + max((d(w) for w in edges[v]), default=0)
        return depth[v]
    return max((d(v) for v in edges), default=0)

def main():
    roots = sys.argv[1:] or sorted(
        os.path.join(base, c) for base in ("crates", "bench") if os.path.isdir(base)
        for c in os.listdir(base) if os.path.isdir(os.path.join(base, c, "src")))
    failed = False
    for root in roots:
        edges = imports(modules(os.path.join(root, "src")))
        found = circles(edges)
        if found:
            failed = True
            for comp in found:
                print(f"{root}: a circle of modules: {' -> '.join(comp)}")
                for m in comp:
                    for n, files in sorted(edges[m].items()):
                        if n in comp:
                            print(f"  {m} -> {n}: {', '.join(sorted(files))}")
        else:
            print(f"{root}: {len(edges)} modules in {layers(edges)} layers, imports one way")
    sys.exit(1 if failed else 0)

if __name__ == "__main__":
    main()
