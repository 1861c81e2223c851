"""Operator commands (``pao ops …``): manual credits, the withdrawal queue, members, the site.

Each command runs in one transaction on the configured database (:func:`pao.ops.base.run`),
records who did it (``ops:<OS user>``) and why, and prints one clear line and exits non-zero
when it is refused.
"""
