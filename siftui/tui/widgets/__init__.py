"""The app's widgets; each draws from the answer shown and proposes requests by messages."""
