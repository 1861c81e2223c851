"""The deposit review: failed slips and the payments that matched no member."""
