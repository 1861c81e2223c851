"""What players read (texts, agreements, how-to videos, banners) and the refund and
invite rules."""
