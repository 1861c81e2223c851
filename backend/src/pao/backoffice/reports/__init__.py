"""The back office's reports: ``/api/backoffice/reports/*`` over :mod:`pao.reports`, and the
staff report, read from the audit log this package owns."""
