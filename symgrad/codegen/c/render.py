"""A kernel's block of C from its nests: ``templates/kernel.c.j2``, printed through a cache of
its renderings per layout.

Layer: codegen. Input: a kernel's number, title, comments and ``nest.Nest``s (every line C
text already). Output: the block's C. Every kernel family prints its loops through here.
"""

from __future__ import annotations

import weakref
from types import SimpleNamespace


def render_kernel(env, number: int, title: str, comments: list, nests: list, init: list = (),
                  final: list = ()) -> str:
    """A kernel's block of C: ``/* k<number>: <title> */``, comments, its nests.

    ``templates/kernel.c.j2`` printed through ``Layouts``: its rendering for the block's
    layout, filled with the block's text (measured on det7's 8,659 loop kernels: 20 -> 5 us
    of CPU a block)."""
    layouts = _LAYOUTS.get(env) or refresh_layouts(env)
    values = [number, title, *comments, *init]
    key = [len(comments), len(init), len(final)]
    pragma = layouts.pragma
    for nest in nests:
        values += nest.before
        shape = []
        for lp in nest.loops:
            if lp.pragma:
                values.append(pragma(lp.pragma))
            values += (lp.var, lp.start, lp.end, *lp.prologue, *lp.epilogue)
            shape.append((lp.depth, bool(lp.pragma), len(lp.prologue), len(lp.epilogue)))
        values += nest.body
        values += nest.after
        key.append((len(nest.before), nest.depth, len(nest.body), len(nest.after),
                    tuple(shape)))
    values += final
    key = tuple(key)
    form = layouts.forms.get(key) or layouts.form(key)
    return form[0] % tuple([values[i] for i in form[1]])


class Layouts:
    """``kernel.c.j2`` rendered once per layout of a block: with numbered markers in place of
    every text it prints, then split at the markers into a %-format and the value each
    ``%s`` takes. The template decides nothing from the text, only from the layout (the
    numbers of lines, which loops have a pragma, the depths): the layout's format filled with
    the text is the template's rendering of the text, byte for byte, without Jinja2's cost per
    call (a new context, the template's up-to-date check)."""

    def __init__(self, env):
        self.template = env.get_template("kernel.c.j2")
        self.pragma = env.globals["pragma"]
        self.forms: dict = {}        # layout key -> (format, value index of each %s)

    def form(self, key: tuple) -> tuple[str, list]:
        """The format of layout ``key`` (``render_kernel`` makes the key and the values in
        the order the markers are numbered here)."""
        count = iter(range(1 << 30))

        def marks(n: int) -> list:
            return [f"\0{next(count)}\0" for _ in range(n)]

        number, title = marks(2)
        comments, init = marks(key[0]), marks(key[1])
        nests = []
        for before, depth, body, after, shape in key[3:]:
            nest = SimpleNamespace(before=marks(before), depth=depth, loops=[])
            for lp_depth, has_pragma, prologue, epilogue in shape:
                pragma = marks(1)[0] if has_pragma else ""
                var, start, end = marks(3)
                nest.loops.append(SimpleNamespace(
                    depth=lp_depth, pragma=pragma, var=var, start=start, end=end,
                    prologue=marks(prologue), epilogue=marks(epilogue)))
            nest.body, nest.after = marks(body), marks(after)
            nests.append(nest)
        final = marks(key[2])
        text = self.template.render(number=number, title=title, comments=comments, init=init,
                                    nests=nests, final=final, pragma=str)
        pieces = text.split("\0")
        form = ("%s".join(p.replace("%", "%%") for p in pieces[::2]),
                [int(i) for i in pieces[1::2]])
        if len(self.forms) < 4096:     # (a long-lived process: a bounded table)
            self.forms[key] = form
        return form


_LAYOUTS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()   # environment -> Layouts


def refresh_layouts(env) -> Layouts:
    """``env``'s ``Layouts``, new if ``kernel.c.j2`` changed since they were made (Jinja2's
    auto reload: generating a module calls this once)."""
    found = _LAYOUTS.get(env)
    if found is None or found.template is not env.get_template("kernel.c.j2"):
        found = _LAYOUTS[env] = Layouts(env)
    return found
