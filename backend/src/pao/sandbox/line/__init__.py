"""The sandbox LINE platform (``/sandbox/line``): LINE's API for Pao's SDK, a page for testers."""
