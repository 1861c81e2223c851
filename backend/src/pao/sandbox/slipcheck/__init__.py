"""The sandbox's slip checkers: SlipOK, EasySlip and SCB, each in its own wire format, all
answering from the sandbox bank's transfers (ARCHITECTURE.md, "the sandbox's dialects")."""
