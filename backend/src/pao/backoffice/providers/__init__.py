"""Game providers: their health and the operator's maintenance switch."""
