"""The catalogue of bonuses and promotion codes, and the upload of a banner's image."""
