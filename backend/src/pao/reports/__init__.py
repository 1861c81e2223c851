"""Reports: daily summary tables kept in step with the ledger, and the operator's reports.

The summaries (:mod:`pao.reports.models`) are refreshed incrementally from a watermark over the
journal (:mod:`pao.reports.refresh`) by a background job and, cheaply, before every read, so a
report is current to the second without summing the journal per request (ADR 0015). The report
queries live in :mod:`pao.reports.queries`; the back office only serves them.
"""
