"""The symbol list ranks the code units by how likely each is what the task changes, not by
the packer's value for the budget (context/builder.py: `by_likelihood`): a short definition
that uses every word of the task leads a long one that repeats one of them, although the
packer, which weighs length as evidence, takes the long one first."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import graphiq_ci
from graphiq_ci.context import Options

TASK = "retry the upload when the connection is dropped"


def _net() -> str:
    """A 48-line `retry_policy` that uses only "retry"; a 4-line `on_drop` that uses all four
    of the task's words; a dozen helpers that make "connection" and "upload" common words."""
    policy = ('def retry_policy(attempts):\n    """How often to retry."""\n'
              + "".join(f"    retry_{k} = attempts * {k}  # retry {k}\n" for k in range(45))
              + "    return retry_0\n")
    on_drop = ("def on_drop(connection, upload):\n    if connection.dropped:\n"
               "        upload.retry()\n    return upload\n")
    helpers = [f"def helper_{k}(connection):\n    return connection.upload({k})\n"
               for k in range(12)]
    return "\n\n".join([policy, on_drop, *helpers]) + "\n"


def test_the_list_leads_with_the_unit_using_every_task_word(
        make_repo: Callable[[dict[str, str]], Path]) -> None:
    root = make_repo({"net.py": _net()})
    ctx = graphiq_ci.build_context(root, TASK, Options())
    packed = [u.name for u in ctx.code.units]
    listed = [s.name for s in ctx.symbols]
    assert packed[:2] == ["retry_policy", "on_drop"]  # length counts for the packer
    assert listed[:2] == ["on_drop", "retry_policy"]
    assert ctx.symbols[0].role == "entry"


def _basket() -> str:
    """`Basket`'s own lines (its header and a field) use none of the task's words; its methods
    use all of them. `coupon_log` uses one, and is as long as the class's own lines."""
    basket = ('class Basket:\n    """What a customer is buying."""\n\n    items = ()\n\n'
              "    def apply_coupon(self, coupon):\n        self.discount = coupon.discount\n\n"
              "    def checkout_total(self):\n        return self.total() - self.discount\n")
    log = 'def coupon_log(entry):\n    """Record."""\n\n    print(entry)\n    return entry\n'
    helpers = [f"def helper_{k}(order):\n    return order.total({k})\n" for k in range(8)]
    return "\n\n".join([basket, log, *helpers]) + "\n"


def test_a_class_is_listed_by_the_task_words_its_methods_use(
        make_repo: Callable[[dict[str, str]], Path]) -> None:
    """A class is shown as its own lines, but what it is about is in its methods: the list
    weighs the task words its whole span uses."""
    root = make_repo({"shop.py": _basket()})
    ctx = graphiq_ci.build_context(root, "apply the coupon discount at checkout", Options())
    listed = [s.name for s in ctx.symbols]
    assert listed.index("Basket") < listed.index("coupon_log")
