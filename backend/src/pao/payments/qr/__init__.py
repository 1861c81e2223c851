"""QR deposits: EMVCo payloads (PromptPay, Lao QR), KBANK and gateway QR deposits."""
