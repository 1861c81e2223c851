"""The cashiers' withdrawal queue in the back office: routes, wire shapes, the cashier's
view of the queue and of one withdrawal (composed from the domains' reads), live updates."""
