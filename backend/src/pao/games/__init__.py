"""Game accounts at providers, money transfers between the wallet and games, launching."""
