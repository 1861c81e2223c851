"""The cashiers' withdrawal queue in the back office: routes, wire shapes, live updates."""
