"""Promotions: bonuses, promotion codes, wagering, invite, refund, prize wheel, coupons."""
